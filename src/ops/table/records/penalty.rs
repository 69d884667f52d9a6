//! Penalties: one given to a player (at a table, or away from one), upgraded per the guide; a Game Loss,
//! Match Loss or Disqualification ends the player's match, and a Disqualification removes the player from the
//! standings and pairings. And the listing of penalties.

use crate::domain::penalty::{Infraction, PenaltyKind, effective_penalty, ends_match};
use crate::domain::result::Reason;
use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::ops::player_names;
use crate::ops::said::Said;
use crate::ops::table::{RecordedResult, Seated, flag_field, hhmm, moment, round_or_current};
use crate::store::penalty::{self, NewPenalty};
use crate::store::voids::{self, VoidKind, Voided};
use crate::store::{Actor, Change, MatchId, PlayerId, Store, Touched, matches, player, round};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// A penalty as the judge gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PenaltyInput {
    /// The player (a name or its beginning; with a table, matched against the two players there first).
    pub player: String,
    /// The infraction.
    pub infraction: Infraction,
    /// The penalty chosen, if not the guide's (upgrades still apply).
    pub penalty: Option<PenaltyKind>,
    /// A judge's remark.
    pub note: Option<String>,
    /// The table it is given at (default: the player's match in the round).
    pub table: Option<u32>,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// When, if not now.
    pub at: Option<DateTime<Utc>>,
}

/// A recorded penalty.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PenaltyOutcome {
    /// Its id.
    pub penalty: i64,
    /// The player.
    pub player: String,
    /// The infraction (its slug).
    pub infraction: String,
    /// The penalty issued after upgrades (its slug).
    pub issued: String,
    /// Why it was upgraded, if it was.
    pub upgraded: Option<String>,
    /// The round of the match it was given at.
    pub round: Option<u32>,
    /// The table.
    pub table: Option<u32>,
    /// Whether it ended the match now.
    pub match_ended: bool,
    /// The match's result after it.
    pub result: Option<RecordedResult>,
    /// Whether the player is disqualified by it.
    pub disqualified: bool,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
    /// The same in the web's words (no command to type).
    #[serde(skip)]
    pub web_summary: String,
}

/// `penalty PLAYER INFRACTION [--penalty P] [--table T]`: records a penalty (see the module's text).
pub fn record_penalty(store: &mut Store, actor: &Actor, input: PenaltyInput) -> Result<PenaltyOutcome> {
    let note = input.note.as_deref().map(|n| flag_field("--note", "the note", n)).transpose()?;
    let at = moment(input.at, actor);
    let infraction = input.infraction;
    store.write(actor, |tx| {
        let (p, mut seated) = player_and_match(tx, &input.player, input.table, input.round)?;
        if let Some(s) = &seated {
            s.not_before_start(tx, input.at)?;
        } else if let Some(given) = input.at {
            crate::ops::table::clocks::clock::check_event_moment(tx, given)?;
        }
        let prior = penalty::prior_warnings(tx, p.id, infraction.slug())?;
        let (kind, upgraded) = effective_penalty(infraction, prior, input.penalty);
        if kind == PenaltyKind::Disqualification
            && let Some((id, when)) = penalty::disqualification(tx, p.id)?
        {
            return Err(Error::refused(format!(
                "{} is already disqualified (penalty #{id} at {})",
                p.name,
                hhmm(&when)
            )));
        }
        let id = penalty::insert(
            tx,
            &NewPenalty {
                player: p.id,
                match_id: seated.as_ref().map(|s| s.m.id),
                infraction: infraction.slug(),
                penalty: kind.slug(),
                upgraded: upgraded.as_deref(),
                note,
                judge: &actor.judge,
                at: &at,
            },
        )?;
        let mut summary = Said::new(format!("penalty #{id}: {} for {} to {}", kind.name(), infraction.name(), p.name));
        if let Some(u) = &upgraded {
            summary.push(&format!(" ({u})"));
        }
        if let Some(s) = &seated {
            summary.push(&format!(" at {}", s.label()));
        }
        let mut ended = false;
        if ends_match(kind)
            && let Some(s) = seated.as_mut()
        {
            ended = end_match(tx, s, &p, kind, infraction, &at, &mut summary)?;
        }
        if kind == PenaltyKind::Disqualification {
            player::set_disqualified(tx, p.id)?;
            summary.push(&format!("; {} is disqualified: out of the standings and further pairings", p.name));
        }
        let out = PenaltyOutcome {
            penalty: id,
            player: p.name.clone(),
            infraction: infraction.slug().to_string(),
            issued: kind.slug().to_string(),
            upgraded,
            round: seated.as_ref().map(|s| s.m.round),
            table: seated.as_ref().map(Seated::table),
            match_ended: ended,
            result: seated.as_ref().map(Seated::result),
            disqualified: kind == PenaltyKind::Disqualification,
            summary: summary.cli.clone(),
            web_summary: summary.web,
        };
        let mut players = vec![p.id];
        players.extend(seated.as_ref().and_then(|s| s.m.opponent(p.id)));
        let mut change = Change::about(summary.cli, players);
        change = change.touching(match &seated {
            Some(s) => s.touched(Topic::Note).player(p.id),
            None => Touched::event(Topic::Note).player(p.id),
        });
        if let (true, Some(s)) = (ended, &seated) {
            change = change.touching(s.touched(Topic::Result));
        }
        if kind == PenaltyKind::Disqualification {
            // Out of the standings and further pairings, as a drop is.
            change = change.touching(Touched::event(Topic::Round).player(p.id));
        }
        Ok((out, change))
    })
}

/// The penalised player and the match the penalty is given at: the table given (the player must sit
/// there; a prefix is tried against the two players first), else the player's match in the round (none
/// for a bye or before any round is paired).
fn player_and_match(
    conn: &Connection,
    query: &str,
    table: Option<u32>,
    round: Option<u32>,
) -> Result<(player::Player, Option<Seated>)> {
    if let Some(t) = table {
        let seated = Seated::at(conn, t, round)?;
        let p = seated.resolve_player(conn, query)?.1.clone();
        return Ok((p, Some(seated)));
    }
    let p = player_names::find(conn, query)?;
    if round.is_none() && round::current(conn)? == 0 {
        return Ok((p, None));
    }
    let n = round_or_current(conn, round)?;
    let seated = match matches::of_player_in_round(conn, p.id, n)? {
        Some(m) if !m.is_bye() => Some(Seated::load(conn, m)?),
        _ => None,
    };
    Ok((p, seated))
}

/// Ends the match for a Game Loss, Match Loss or Disqualification (the opponent wins by `penalty`);
/// returns whether it did (a match with a result is left as it is, and the summary says so).
fn end_match(
    conn: &Connection,
    s: &mut Seated,
    p: &player::Player,
    kind: PenaltyKind,
    infraction: Infraction,
    at: &str,
    summary: &mut Said,
) -> Result<bool> {
    let Some(seat) = s.seat_of(p.id) else { return Ok(false) };
    if s.m.outcome.is_some() {
        let recorded = format!("; the match already has a result ({}), not changed", s.describe_recorded());
        summary.push(&recorded);
        summary.hint(
            &format!(": use `mmjudge result fix {} --round {}` if needed", s.table(), s.m.round),
            ": a head judge may fix the result on the table's page if needed",
        );
        return Ok(false);
    }
    let note = format!("{} to {} for {}", kind.name(), p.name, infraction.name());
    s.record_loss(conn, seat, Reason::Penalty, &note, at)?;
    summary.push(&format!("; the match is over: {}", s.describe_recorded()));
    Ok(true)
}

/// One penalty in a listing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PenaltyRow {
    /// Its id.
    pub id: i64,
    /// The player.
    pub player: String,
    /// The infraction (its slug).
    pub infraction: String,
    /// The penalty issued (its slug).
    pub penalty: String,
    /// Why it was upgraded, if it was.
    pub upgraded: Option<String>,
    /// A judge's remark.
    pub note: Option<String>,
    /// The round of its match.
    pub round: Option<u32>,
    /// The table of its match.
    pub table: Option<u32>,
    /// Its match, if given at one.
    #[serde(rename = "match")]
    pub match_id: Option<MatchId>,
    /// The judge.
    pub judge: String,
    /// When (RFC 3339).
    pub at: String,
    /// Its void, if voided.
    pub voided: Option<Voided>,
}

/// The penalties of the event, or of one player.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PenaltyList {
    /// The player's name when the listing is of one player.
    #[serde(skip)]
    pub of: Option<String>,
    /// The penalties.
    pub penalties: Vec<PenaltyRow>,
}

/// `penalties [--player P]`.
pub fn penalties(conn: &Connection, player: Option<&str>) -> Result<PenaltyList> {
    let who = player.map(|p| player_names::find(conn, p)).transpose()?;
    let names = player_names::names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let voided = voids::of_kind(conn, VoidKind::Penalty)?;
    let penalties = penalty::list(conn, who.as_ref().map(|p| p.id))?
        .into_iter()
        .map(|p| PenaltyRow {
            voided: voided.get(&p.id).cloned(),
            id: p.id,
            player: name(p.player),
            infraction: p.infraction,
            penalty: p.penalty,
            upgraded: p.upgraded,
            note: p.note,
            round: p.round,
            table: p.table,
            match_id: p.match_id,
            judge: p.judge,
            at: p.at,
        })
        .collect();
    Ok(PenaltyList { of: who.map(|p| p.name), penalties })
}
