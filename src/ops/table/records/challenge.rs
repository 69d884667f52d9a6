//! Challenges heard by a judge at a table: recording one (and the match lost to the event's challenge limit),
//! listing them, and the judges' watch report.

use crate::domain::challenge::{FLAG_WORDS, Heard, Ruling, loses_match, watch};
use crate::domain::result::Reason;
use crate::domain::topic::Topic;
use crate::error::{Refusal, Result, WayOut};
use crate::ops::player_names::{self, names_by_id};
use crate::ops::said::Said;
use crate::ops::table::{RecordFilter, RecordedResult, Seated, flag_field, moment, round_or_current};
use crate::store::challenge::{self, NewChallenge};
use crate::store::voids::{self, VoidKind, Voided};
use crate::store::{Actor, Change, MatchId, NoteId, PlayerId, Store, event};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// A challenge as the judge heard it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeInput {
    /// The table.
    pub table: u32,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// The challenger (a name or its beginning, matched against the two players first).
    pub by: String,
    /// The point of contention.
    pub about: String,
    /// What the challenger says.
    pub by_says: Option<String>,
    /// What the other player says.
    pub other_says: Option<String>,
    /// Upheld or denied.
    pub ruling: Ruling,
    /// The notes cited as evidence (ids of notes of this match).
    pub evidence: Vec<i64>,
    /// Record it even though the match already has a result (the result stays).
    pub force: bool,
    /// When, if not now.
    pub at: Option<DateTime<Utc>>,
}

/// A recorded challenge.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ChallengeOutcome {
    /// Its id.
    pub challenge: i64,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The challenger.
    pub by: String,
    /// The other player.
    pub other: String,
    /// `upheld` or `denied`.
    pub ruling: String,
    /// Who lost the challenge.
    pub loser: String,
    /// Challenges that player has lost in this match.
    pub lost_in_match: u32,
    /// The event's limit.
    pub limit: u32,
    /// Whether reaching the limit ended the match now.
    pub match_ended: bool,
    /// The match's result after it.
    pub result: RecordedResult,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
    /// The same in the web's words (no command to type).
    #[serde(skip)]
    pub web_summary: String,
}

/// `challenge TABLE --by PLAYER --about TEXT --ruling upheld|denied`: records a challenge; a player reaching
/// the event's challenge limit in the match loses it at once.
pub fn record_challenge(store: &mut Store, actor: &Actor, input: ChallengeInput) -> Result<ChallengeOutcome> {
    let about = flag_field("--about (the point of contention)", "what was challenged", &input.about)?;
    let by_says =
        input.by_says.as_deref().map(|t| flag_field("--by-says", "what the challenger said", t)).transpose()?;
    let other_says =
        input.other_says.as_deref().map(|t| flag_field("--other-says", "what the other player said", t)).transpose()?;
    let at = moment(input.at, actor);
    let ruling = input.ruling;
    store.write(actor, |tx| {
        let mut seated = Seated::at(tx, input.table, input.round)?;
        seated.not_before_start(tx, input.at)?;
        let (by_seat, by) = seated.resolve_player(tx, &input.by).map(|(s, p)| (s, p.clone()))?;
        if seated.m.outcome.is_some() && !input.force {
            let what = format!(
                "TR.challenges: {} already has a result ({}): a finished match takes no more challenges",
                seated.label(),
                seated.describe_recorded()
            );
            let to = "record this one anyway (the result stays)".to_string();
            return Err(Refusal::refused(what)
                .way_out_after(
                    crate::error::Join::Semicolon,
                    WayOut::ForceAnyway { to, tick: crate::error::Tick::ChallengeFinished },
                )
                .into());
        }
        let evidence = check_evidence(tx, &seated, &input.evidence)?;
        let loser_seat = if ruling.challenger_lost() { by_seat } else { by_seat.other() };
        let (loser, other) = (seated.player(loser_seat).clone(), seated.player(by_seat.other()).clone());
        let new = NewChallenge {
            match_id: seated.m.id,
            by: by.id,
            about,
            by_says,
            other_says,
            ruling: ruling.slug(),
            loser: loser.id,
            judge: &actor.judge,
            at: &at,
        };
        let id = challenge::insert(tx, &new, &evidence)?;
        let lost = challenge::lost_in_match(tx, seated.m.id, loser.id)?;
        let limit = u32::try_from(event::values(tx)?.number("challenge-limit")).unwrap_or(2);
        let mut summary = Said::new(format!(
            "challenge #{id} at {}: {} challenged {} about \"{about}\": {}, so {} lost it ({lost} lost in this match; \
             the limit is {limit})",
            seated.label(),
            by.name,
            other.name,
            ruling.slug(),
            loser.name
        ));
        let mut ended = false;
        if loses_match(lost, limit) {
            if seated.m.outcome.is_none() {
                seated.played_by(tx, Reason::Challenges, input.at.unwrap_or(actor.at))?;
                let note = format!("{} lost {}", loser.name, crate::domain::words::count(lost, "challenge"));
                seated.record_loss(tx, loser_seat, Reason::Challenges, &note, &at)?;
                ended = true;
                summary.push(&format!("; {} loses the match: {}", loser.name, seated.describe_recorded()));
            } else {
                summary
                    .push(&format!("; the match already has a result ({}), not changed", seated.describe_recorded()));
                summary.hint(
                    &format!(": use `mmjudge result fix {}` if needed", seated.table()),
                    ": a head judge may fix the result on the table's page if needed",
                );
            }
        }
        let out = ChallengeOutcome {
            challenge: id,
            round: seated.m.round,
            table: seated.table(),
            by: by.name,
            other: other.name,
            ruling: ruling.slug().to_string(),
            loser: loser.name,
            lost_in_match: lost,
            limit,
            match_ended: ended,
            result: seated.result(),
            summary: summary.cli.clone(),
            web_summary: summary.web,
        };
        let mut change =
            Change::about(summary.cli, [seated.a.id, seated.b.id]).touching(seated.touched(Topic::Note).player(by.id));
        if ended {
            change = change.touching(seated.touched(Topic::Result));
        }
        Ok((out, change))
    })
}

/// The evidence notes, each of which must be a note of this match that counts.
pub(in crate::ops) fn check_evidence(conn: &Connection, seated: &Seated, ids: &[i64]) -> Result<Vec<NoteId>> {
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        let note = NoteId(id);
        match challenge::note_match(conn, note)? {
            Some(m) if m == seated.m.id && crate::store::voids::get(conn, VoidKind::Note, id)?.is_some() => {
                let what = format!("note {id} was voided: it is no evidence");
                let out = WayOut::NotesThatCount { table: seated.table() };
                return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
            }
            Some(m) if m == seated.m.id => out.push(note),
            _ => {
                let what = format!("note {id} is not a note of {}", seated.label());
                return Err(Refusal::not_found(what).way_out(WayOut::ListNotes { table: seated.table() }).into());
            }
        }
    }
    Ok(out)
}

/// One challenge in a listing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ChallengeRow {
    /// Its id.
    pub id: i64,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: Option<u32>,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The challenger.
    pub by: String,
    /// The point of contention.
    pub about: String,
    /// What the challenger said.
    pub by_says: Option<String>,
    /// What the other player said.
    pub other_says: Option<String>,
    /// `upheld` or `denied`.
    pub ruling: String,
    /// Who lost it.
    pub loser: String,
    /// The judge who heard it.
    pub judge: String,
    /// When (RFC 3339).
    pub at: String,
    /// The notes cited as evidence.
    pub evidence: Vec<NoteId>,
    /// Its void, if voided.
    pub voided: Option<Voided>,
}

/// The challenges a filter names.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ChallengeList {
    /// The match's label when the filter named a table.
    #[serde(skip)]
    pub at: Option<String>,
    /// The challenges.
    pub challenges: Vec<ChallengeRow>,
}

/// `challenges [--table T] [--round N] [--player P]`.
pub fn challenges(conn: &Connection, filter: &RecordFilter) -> Result<ChallengeList> {
    let names = names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let seated = match filter.table {
        Some(t) => Some(Seated::at(conn, t, filter.round)?),
        None => None,
    };
    let round = match (filter.table, filter.round) {
        (None, Some(_)) => Some(round_or_current(conn, filter.round)?),
        _ => None,
    };
    let who = filter.player.as_deref().map(|p| player_names::find(conn, p)).transpose()?;
    let mut rows = challenge::list(conn, seated.as_ref().map(|s| s.m.id), who.as_ref().map(|p| p.id))?;
    rows.retain(|c| round.is_none_or(|r| c.round == r));
    let voided = voids::of_kind(conn, VoidKind::Challenge)?;
    let mut evidence = challenge::all_evidence(conn)?;
    let challenges = rows
        .into_iter()
        .map(|c| ChallengeRow {
            evidence: evidence.remove(&c.id).unwrap_or_default(),
            voided: voided.get(&c.id).cloned(),
            id: c.id,
            round: c.round,
            table: c.table,
            match_id: c.match_id,
            by: name(c.by),
            about: c.about,
            by_says: c.by_says,
            other_says: c.other_says,
            ruling: c.ruling,
            loser: name(c.loser),
            judge: c.judge,
            at: c.at,
        })
        .collect();
    Ok(ChallengeList { at: seated.map(|s| s.label()), challenges })
}

/// One player's line in the watch report.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WatchLine {
    /// The player.
    pub player: String,
    /// Challenges made.
    pub made: u32,
    /// Of those, denied.
    pub denied: u32,
    /// Denied / made (0 when none made).
    pub denied_rate: f64,
    /// Challenges lost: own denied plus opponents' upheld.
    pub lost: u32,
    /// Mostly denied (see [`FLAG_WORDS`]).
    pub flagged: bool,
}

/// The judges' watch report: who challenges and is mostly denied (possible stalling).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WatchReport {
    /// The rule that flags a player, in words.
    pub flag_rule: String,
    /// Every player who challenged or lost one, flagged first.
    pub players: Vec<WatchLine>,
    /// How many challenges were heard in all.
    #[serde(skip)]
    pub heard: usize,
}

/// `challenges --watch`.
pub fn watch_report(conn: &Connection) -> Result<WatchReport> {
    let names = names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let heard: Vec<Heard<PlayerId>> = challenge::all_outcomes(conn)?
        .into_iter()
        .map(|(by, loser, ruling)| Heard { by, loser, denied: ruling == "denied" })
        .collect();
    let mut lines: Vec<(PlayerId, _)> = watch(&heard).into_iter().collect();
    lines.sort_by(|(pa, a), (pb, b)| {
        b.flagged.cmp(&a.flagged).then(b.denied.cmp(&a.denied)).then(b.made.cmp(&a.made)).then(pa.cmp(pb))
    });
    let players = lines
        .iter()
        .map(|(p, l)| WatchLine {
            player: name(*p),
            made: l.made,
            denied: l.denied,
            denied_rate: l.denied_rate(),
            lost: l.lost,
            flagged: l.flagged,
        })
        .collect();
    Ok(WatchReport { flag_rule: FLAG_WORDS.to_string(), players, heard: heard.len() })
}
