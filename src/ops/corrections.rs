//! Corrections: voiding a record entered by mistake (a penalty, a challenge, a ruling, a template note, an
//! extension, a stall) and taking a result back (`result clear`).
//!
//! A void never deletes: the record stays, marked (who, when, why), and counts for nothing from then on.
//! What the record caused is worked out again in the same transaction: a later penalty's upgrade, a match
//! lost to a penalty or to the challenge limit (back to playing), a disqualification. A match that goes back
//! to playing while later rounds are already paired on its result is refused unless forced, as `result fix`.

use crate::domain::challenge::loses_match;
use crate::domain::penalty::{Infraction, Issued, PenaltyKind, ends_match, reissue};
use crate::domain::topic::Topic;
use crate::error::{Error, Record, Refusal, Result, WayOut};
use crate::ops::table::records::result::{later_rounds_paired, rounds_words};
use crate::store::matches::{self, Match, Outcome};
use crate::store::voids::{self, VoidKind, Voided};
use crate::store::{
    Actor, Change, MatchId, NoteId, PlayerId, Store, Touched, challenge, clock, event, notes, penalty, player, round,
    ruling,
};
use rusqlite::Connection;

mod standings_moved;

pub use standings_moved::StandingsMoved;

/// The last round with every result in (0: none), as the standings count it: the round the standings print is of.
pub fn rounds_played(store: &Store) -> Result<u32> {
    store.read(standings_moved::played)
}

/// Which record to void, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoidInput {
    /// The record's id, as the listings and the audit log show it.
    pub id: i64,
    /// Why, for the record.
    pub reason: Option<String>,
    /// Take a result back even though later rounds are already paired on it (they are not redone); void a
    /// record of an earlier round than the one being played.
    pub force: bool,
}

/// A later penalty issued again after a void changed the count of earlier Warnings.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Regraded {
    /// The penalty's id.
    pub penalty: i64,
    /// What it was.
    pub was: PenaltyKind,
    /// What it is now.
    pub now: PenaltyKind,
}

/// A match whose result was taken back: it is playing again.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Reopened {
    /// The match.
    pub match_id: MatchId,
    /// Its round.
    pub round: u32,
    /// Its table.
    pub table: Option<u32>,
    /// The result it had, in words ("Bo won by penalty").
    pub was: String,
}

/// What a void did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct VoidOutcome {
    /// The kind of record.
    pub kind: VoidKind,
    /// Its id.
    pub id: i64,
    /// The record in words ("Warning for Slow Play to Ana").
    pub record: String,
    /// The round and table of its match, if it was given at one.
    pub round: Option<u32>,
    /// The table.
    pub table: Option<u32>,
    /// The void as stored.
    pub voided: Voided,
    /// Later penalties issued again.
    pub regraded: Vec<Regraded>,
    /// Matches back to playing.
    pub reopened: Vec<Reopened>,
    /// The player whose disqualification was lifted, if any.
    pub reinstated: Option<String>,
    /// Rounds already paired after a reopened match's round (only with `force`).
    pub later_rounds: Vec<u32>,
    /// The rounds whose standings changed: a reopened match needs a result in them (the rest stands).
    pub standings_moved: Vec<u32>,
    /// One line for the audit log and the judge.
    #[serde(skip)]
    pub summary: String,
}

/// Which result to take back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClearInput {
    /// The table.
    pub table: u32,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// Even though later rounds are already paired on it.
    pub force: bool,
}

/// What `result clear` did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ClearOutcome {
    /// The match, back to playing.
    pub reopened: Reopened,
    /// Rounds already paired after its round (only with `force`).
    pub later_rounds: Vec<u32>,
    /// The rounds whose standings changed: the match needs a result in them (the rest stands).
    pub standings_moved: Vec<u32>,
    /// The player the cleared `no-show` result had dropped, no longer dropped, if any.
    pub undropped: Option<String>,
    /// One line for the audit log and the judge.
    #[serde(skip)]
    pub summary: String,
}

/// Voids one record of any kind (see the `void_*` functions); a reason given is checked as free text.
pub fn void(store: &mut Store, actor: &Actor, kind: VoidKind, mut input: VoidInput) -> Result<VoidOutcome> {
    if let Some(reason) = &input.reason {
        input.reason = Some(crate::ops::table::flag_field("--reason", "the reason", reason)?.to_string());
    }
    match kind {
        VoidKind::Penalty => void_penalty(store, actor, input),
        VoidKind::Challenge => void_challenge(store, actor, input),
        VoidKind::Ruling => void_ruling(store, actor, input),
        VoidKind::Note => void_note(store, actor, input),
        VoidKind::Extension => void_extension(store, actor, input),
        VoidKind::Stall => void_stall(store, actor, input),
    }
}

/// Voids a penalty: later penalties for the same infraction are issued again without it, a match it (or a
/// later penalty's upgrade) ended goes back to playing, a disqualification is lifted.
pub fn void_penalty(store: &mut Store, actor: &Actor, input: VoidInput) -> Result<VoidOutcome> {
    store.write(actor, |tx| {
        let Some(p) = penalty::get(tx, input.id)? else {
            return Err(unknown(Record::Penalty, input.id));
        };
        earlier_round(tx, VoidKind::Penalty, input.id, p.round, input.force)?;
        let voided = mark(tx, actor, VoidKind::Penalty, input.id, &input.reason)?;
        let name = player::get(tx, p.player)?.name;
        let kind: Option<PenaltyKind> = p.penalty.parse().ok();
        let issued = kind.map_or_else(|| p.penalty.clone(), |k| k.name().to_string());
        // The infraction named as it was when the penalty was given ("Slow Play", not its slug).
        let infraction =
            Infraction::parse(&p.infraction).map_or_else(|_| p.infraction.clone(), |i| i.name().to_string());
        let record = format!("{issued} for {infraction} to {name}");
        let mut reasons: Vec<(MatchId, PlayerId)> = Vec::new();
        if let (true, Some(m)) = (kind.is_some_and(ends_match), p.match_id) {
            reasons.push((m, p.player));
        }
        let regraded = regrade(tx, p.player, &p.infraction, &mut reasons)?;
        let mut reopen_list = Vec::new();
        for (m, who) in reasons {
            let m = matches::get(tx, m)?;
            let lost_to_penalty = lost_by(&m, who) && m.reason.as_deref() == Some("penalty");
            if lost_to_penalty && penalty::match_enders(tx, m.id, who)? == 0 && !reopen_list.contains(&m) {
                reopen_list.push(m);
            }
        }
        let (reopened, later_rounds, moved) = reopen(tx, &reopen_list, input.force)?;
        let mut reinstated = None;
        if kind == Some(PenaltyKind::Disqualification) && penalty::disqualification(tx, p.player)?.is_none() {
            player::clear_disqualified(tx, p.player)?;
            reinstated = Some(name.clone());
        }
        let mut out = VoidOutcome {
            kind: VoidKind::Penalty,
            id: input.id,
            record,
            round: p.round,
            table: p.table,
            voided,
            regraded,
            reopened,
            reinstated,
            later_rounds,
            standings_moved: moved.rounds.clone(),
            summary: String::new(),
        };
        out.summary = summary(&out, &moved);
        let mut players = vec![p.player];
        players.extend(out.reopened.iter().filter_map(|r| opponent_of(tx, r.match_id, p.player)));
        let note = match p.round {
            Some(round) => Touched::table(Topic::Note, round, p.table),
            None => Touched::event(Topic::Note),
        };
        let mut change = Change::about(out.summary.clone(), players)
            .touching(note.player(p.player))
            .touching_all(results_of(&out.reopened));
        if out.reinstated.is_some() {
            // Back in the standings and further pairings.
            change = change.touching(Touched::event(Topic::Round).player(p.player));
        }
        Ok((out.clone(), change))
    })
}

/// Issues again the player's live penalties for one infraction; updates the changed ones and adds the
/// matches a penalty no longer ends to `reasons`.
fn regrade(
    conn: &Connection,
    who: PlayerId,
    infraction: &str,
    reasons: &mut Vec<(MatchId, PlayerId)>,
) -> Result<Vec<Regraded>> {
    let Ok(inf) = Infraction::parse(infraction) else { return Ok(Vec::new()) };
    let live = penalty::live_of(conn, who, infraction)?;
    let mut given = Vec::with_capacity(live.len());
    for x in &live {
        let Ok(kind) = x.penalty.parse::<PenaltyKind>() else { return Ok(Vec::new()) };
        given.push(Issued { kind, note: x.upgraded.clone() });
    }
    let mut out = Vec::new();
    for ((x, was), now) in live.iter().zip(&given).zip(reissue(inf, &given)) {
        if now == *was {
            continue;
        }
        penalty::set_issued(conn, x.id, now.kind.slug(), now.note.as_deref())?;
        if let (true, false, Some(m)) = (ends_match(was.kind), ends_match(now.kind), x.match_id) {
            reasons.push((m, who));
        }
        // Only the upgrade's words changed ("3rd Warning" is now the 2nd): the penalty is what it was.
        if now.kind != was.kind {
            out.push(Regraded { penalty: x.id, was: was.kind, now: now.kind });
        }
    }
    Ok(out)
}

/// Voids a challenge: a match lost on the challenge limit goes back to playing when the loser no longer
/// reaches the limit.
pub fn void_challenge(store: &mut Store, actor: &Actor, input: VoidInput) -> Result<VoidOutcome> {
    store.write(actor, |tx| {
        let Some(c) = challenge::get(tx, input.id)? else {
            return Err(unknown(Record::Challenge, input.id));
        };
        earlier_round(tx, VoidKind::Challenge, input.id, Some(c.round), input.force)?;
        let voided = mark(tx, actor, VoidKind::Challenge, input.id, &input.reason)?;
        let (by, loser) = (player::get(tx, c.by)?.name, player::get(tx, c.loser)?.name);
        let record = format!("{by}'s challenge about \"{}\" ({}, lost by {loser})", c.about, c.ruling);
        let m = matches::get(tx, c.match_id)?;
        let mut reopen_list = Vec::new();
        if lost_by(&m, c.loser) && m.reason.as_deref() == Some("challenges") {
            let lost = challenge::lost_in_match(tx, m.id, c.loser)?;
            let limit = u32::try_from(event::values(tx)?.number("challenge-limit")).unwrap_or(2);
            if !loses_match(lost, limit) {
                reopen_list.push(m.clone());
            }
        }
        let (reopened, later_rounds, moved) = reopen(tx, &reopen_list, input.force)?;
        let mut out = VoidOutcome {
            kind: VoidKind::Challenge,
            id: input.id,
            record,
            round: Some(c.round),
            table: c.table,
            voided,
            regraded: Vec::new(),
            reopened,
            reinstated: None,
            later_rounds,
            standings_moved: moved.rounds.clone(),
            summary: String::new(),
        };
        out.summary = summary(&out, &moved);
        let players: Vec<PlayerId> = [Some(m.a), m.b].into_iter().flatten().collect();
        let change = Change::about(out.summary.clone(), players)
            .touching(Touched::of_match(Topic::Note, &m).player(c.by))
            .touching_all(results_of(&out.reopened));
        Ok((out.clone(), change))
    })
}

/// Voids a ruling (it caused nothing the tool counts).
pub fn void_ruling(store: &mut Store, actor: &Actor, input: VoidInput) -> Result<VoidOutcome> {
    store.write(actor, |tx| {
        let Some(r) = ruling::get(tx, input.id)? else {
            return Err(unknown(Record::Ruling, input.id));
        };
        earlier_round(tx, VoidKind::Ruling, input.id, Some(matches::get(tx, r.match_id)?.round), input.force)?;
        let voided = mark(tx, actor, VoidKind::Ruling, input.id, &input.reason)?;
        let record = format!("\"{}\"", r.text);
        simple(tx, VoidKind::Ruling, input.id, record, r.match_id, voided)
    })
}

/// Voids a template note: the card counts as not declared in that game (rule MM.3e) from then on.
pub fn void_note(store: &mut Store, actor: &Actor, input: VoidInput) -> Result<VoidOutcome> {
    store.write(actor, |tx| {
        let Some(n) = notes::get(tx, NoteId(input.id))? else {
            return Err(unknown(Record::Note, input.id));
        };
        earlier_round(tx, VoidKind::Note, input.id, Some(matches::get(tx, n.match_id)?.round), input.force)?;
        let voided = mark(tx, actor, VoidKind::Note, input.id, &input.reason)?;
        let who = player::get(tx, n.player)?.name;
        let card = n.card.as_deref().unwrap_or("(unnamed)");
        let shorthand = crate::domain::note_sheet::shorthand(&n.cost);
        let mut record = format!("{who} {shorthand}: {card}");
        // A challenge voided before cites it no more.
        let cited = notes::cited_by_standing(tx, n.id)?;
        if !cited.is_empty() {
            let list: Vec<String> = cited.iter().map(|c| format!("#{c}")).collect();
            record.push_str(&format!(" (evidence in challenge {}, still cited)", list.join(", ")));
        }
        simple(tx, VoidKind::Note, input.id, record, n.match_id, voided)
    })
}

/// Voids an extension of a table's round time: the table's clock loses it.
pub fn void_extension(store: &mut Store, actor: &Actor, input: VoidInput) -> Result<VoidOutcome> {
    store.write(actor, |tx| {
        let Some(e) = clock::extension(tx, input.id)? else {
            return Err(unknown(Record::Extension, input.id));
        };
        earlier_round(tx, VoidKind::Extension, input.id, Some(matches::get(tx, e.match_id)?.round), input.force)?;
        let voided = mark(tx, actor, VoidKind::Extension, input.id, &input.reason)?;
        let left = clock::extension_secs(tx, e.match_id)?;
        let record = format!("+{} for {} (the table keeps +{} in all)", mss(e.seconds), e.reason, mss(left));
        simple(tx, VoidKind::Extension, input.id, record, e.match_id, voided)
    })
}

/// Voids a stall logged on the live clock: it no longer counts in `decisions`.
pub fn void_stall(store: &mut Store, actor: &Actor, input: VoidInput) -> Result<VoidOutcome> {
    store.write(actor, |tx| {
        let Some(s) = clock::stall(tx, input.id)? else {
            return Err(unknown(Record::Stall, input.id));
        };
        earlier_round(tx, VoidKind::Stall, input.id, Some(matches::get(tx, s.match_id)?.round), input.force)?;
        let voided = mark(tx, actor, VoidKind::Stall, input.id, &input.reason)?;
        let record = format!("{}'s stall at {}", player::get(tx, s.player_id)?.name, hhmm(&s.at));
        simple(tx, VoidKind::Stall, input.id, record, s.match_id, voided)
    })
}

/// Takes a table's result back: the match is playing again.
pub fn clear_result(store: &mut Store, actor: &Actor, input: ClearInput) -> Result<ClearOutcome> {
    store.write(actor, |tx| {
        let m = match_at(tx, input.table, input.round)?;
        if m.outcome.is_none() {
            return Err(Error::refused(format!(
                "table {} in round {} has no result to clear: it is still playing",
                input.table, m.round
            )));
        }
        let (mut reopened, later_rounds, moved) = reopen(tx, std::slice::from_ref(&m), input.force)?;
        let Some(reopened) = reopened.pop() else {
            return Err(Error::refused(format!("table {} has no result to clear", input.table)));
        };
        let mut summary = format!(
            "cleared the result of table {} in round {} (was: {}): the match is playing again",
            input.table, m.round, reopened.was
        );
        summary.push_str(&later_words(&later_rounds));
        summary.push_str(&moved.words(1));
        let undropped =
            crate::ops::table::records::result::undo_no_show_drop(tx, &m, None, crate::error::Again::Clear)?;
        summary.push_str(&crate::ops::table::records::result::undropped_words(undropped.as_deref()));
        let players: Vec<PlayerId> = [Some(m.a), m.b].into_iter().flatten().collect();
        let out = ClearOutcome { reopened, later_rounds, standings_moved: moved.rounds, undropped, summary };
        let touched = Touched::of_match(Topic::Result, &m);
        Ok((out.clone(), Change::about(out.summary.clone(), players).touching(touched)))
    })
}

/// The outcome of a void that changes nothing else.
fn simple(
    conn: &Connection,
    kind: VoidKind,
    id: i64,
    record: String,
    match_id: MatchId,
    voided: Voided,
) -> Result<(VoidOutcome, Change)> {
    let m = matches::get(conn, match_id)?;
    let mut out = VoidOutcome {
        kind,
        id,
        record,
        round: Some(m.round),
        table: m.table,
        voided,
        regraded: Vec::new(),
        reopened: Vec::new(),
        reinstated: None,
        later_rounds: Vec::new(),
        standings_moved: Vec::new(),
        summary: String::new(),
    };
    out.summary = summary(&out, &StandingsMoved::default());
    let players: Vec<PlayerId> = [Some(m.a), m.b].into_iter().flatten().collect();
    let topic = match kind {
        VoidKind::Extension | VoidKind::Stall => Topic::Clock,
        VoidKind::Penalty | VoidKind::Challenge | VoidKind::Ruling | VoidKind::Note => Topic::Note,
    };
    Ok((out.clone(), Change::about(out.summary.clone(), players).touching(Touched::of_match(topic, &m))))
}

/// The results a void took back, as phones hear of them.
fn results_of(reopened: &[Reopened]) -> impl Iterator<Item = Touched> + '_ {
    reopened.iter().map(|r| Touched::table(Topic::Result, r.round, r.table))
}

/// Refuses, unless `force`, voiding a record of an earlier round than the one being played (the latest paired):
/// a typo in an id must not change a finished round at once.
fn earlier_round(conn: &Connection, kind: VoidKind, id: i64, of: Option<u32>, force: bool) -> Result<()> {
    let current = round::current(conn)?;
    match of {
        Some(r) if r < current && !force => {
            let why = format!("{} #{id} is a record of round {r}, not of round {current} being played", kind.as_str());
            Err(Refusal::refused(why)
                .way_out(WayOut::ForceAnyway { to: "void it anyway".into(), tick: crate::error::Tick::VoidEarlier })
                .into())
        }
        _ => Ok(()),
    }
}

/// Refuses a record voided before; else marks it void now.
fn mark(conn: &Connection, actor: &Actor, kind: VoidKind, id: i64, reason: &Option<String>) -> Result<Voided> {
    if let Some(v) = voids::get(conn, kind, id)? {
        let why = v.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
        return Err(Error::refused(format!(
            "{} #{id} was already voided at {} by {}{why}: nothing to do",
            kind.as_str(),
            hhmm(&v.at),
            v.judge
        )));
    }
    let reason = reason.as_deref().map(str::trim).filter(|r| !r.is_empty()).map(String::from);
    let v = Voided { at: crate::time::stamp(actor.at), judge: actor.judge.clone(), reason };
    voids::insert(conn, kind, id, &v)?;
    Ok(v)
}

fn unknown(record: Record, id: i64) -> Error {
    Refusal::not_found(format!("there is no {} #{id}", record.word())).way_out(WayOut::ListRecords { record }).into()
}

/// Takes these matches' results back (refusing, unless `force`, when later rounds are paired); says which
/// standings it moved.
fn reopen(conn: &Connection, list: &[Match], force: bool) -> Result<(Vec<Reopened>, Vec<u32>, StandingsMoved)> {
    let before = standings_moved::played(conn)?;
    let mut later: Vec<u32> = Vec::new();
    for m in list {
        for r in later_rounds_paired(conn, m.round, force, "take the result back")? {
            if !later.contains(&r) {
                later.push(r);
            }
        }
    }
    later.sort_unstable();
    let mut out = Vec::with_capacity(list.len());
    for m in list {
        let was = result_words(conn, m)?;
        matches::clear_result(conn, m.id)?;
        out.push(Reopened { match_id: m.id, round: m.round, table: m.table, was });
    }
    let moved = StandingsMoved::of(out.iter().map(|r| r.round), before, standings_moved::played(conn)?);
    Ok((out, later, moved))
}

/// Whether `who` lost this match (a recorded win of the other seat).
fn lost_by(m: &Match, who: PlayerId) -> bool {
    match m.outcome {
        Some(Outcome::A) => m.b == Some(who),
        Some(Outcome::B) => m.a == who,
        _ => false,
    }
}

fn opponent_of(conn: &Connection, m: MatchId, who: PlayerId) -> Option<PlayerId> {
    matches::get(conn, m).ok().and_then(|m| m.opponent(who))
}

/// "Bo won by penalty", "a draw by time".
fn result_words(conn: &Connection, m: &Match) -> Result<String> {
    let reason = m.reason.as_deref().unwrap_or("?");
    let winner = match m.outcome {
        Some(Outcome::A) => Some(m.a),
        Some(Outcome::B) => m.b,
        _ => None,
    };
    Ok(match (m.outcome, winner) {
        (Some(Outcome::Draw), _) => format!("a draw by {reason}"),
        (Some(_), Some(w)) => format!("{} won by {reason}", player::get(conn, w)?.name),
        _ => "still playing".into(),
    })
}

/// The match at a table of a round (default: the current one).
fn match_at(conn: &Connection, table: u32, round_no: Option<u32>) -> Result<Match> {
    let current = round::current(conn)?;
    let n = match round_no {
        Some(0) => return Err(Error::refused("rounds are numbered from 1")),
        Some(n) if round::get(conn, n)?.is_none() => {
            return Err(Error::not_found(format!("round {n} is not paired: the rounds so far are 1-{current}")));
        }
        Some(n) => n,
        None if current == 0 => return Err(Error::refused("no round is paired yet: there is no result to clear")),
        None => current,
    };
    match matches::at_table(conn, n, table)? {
        Some(m) => Ok(m),
        None => Err(Error::not_found(match matches::table_span(conn, n)? {
            Some((lo, hi)) => format!("no match at table {table} in round {n} (tables are {lo}-{hi})"),
            None => format!("no match at table {table} in round {n}: that round has no tables"),
        })),
    }
}

/// The judge's line: what was voided and everything it changed.
fn summary(o: &VoidOutcome, moved: &StandingsMoved) -> String {
    let place = match (o.round, o.table) {
        (Some(r), Some(t)) => format!(" at table {t} in round {r}"),
        (Some(r), None) => format!(" in round {r}"),
        _ => String::new(),
    };
    let why = o.voided.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
    let mut s = format!("voided {} #{}{place}: {}{why}", o.kind.as_str(), o.id, o.record);
    for g in &o.regraded {
        s.push_str(&format!("; penalty #{} is now a {} (was {})", g.penalty, g.now.name(), g.was.name()));
    }
    for r in &o.reopened {
        let table = r.table.map(|t| format!("table {t}")).unwrap_or_else(|| "the match".into());
        s.push_str(&format!("; {table} in round {} is playing again (was: {})", r.round, r.was));
    }
    if let Some(p) = &o.reinstated {
        s.push_str(&format!("; {p} is no longer disqualified"));
    }
    if o.reopened.is_empty() && o.regraded.is_empty() && o.reinstated.is_none() {
        s.push_str("; nothing else changes");
    }
    s.push_str(&later_words(&o.later_rounds));
    s.push_str(&moved.words(o.reopened.len()));
    s
}

fn later_words(later: &[u32]) -> String {
    if later.is_empty() {
        String::new()
    } else {
        format!(" ({} already paired on the old result, not redone)", rounds_words(later))
    }
}

/// Seconds as `M:SS`.
fn mss(secs: i64) -> String {
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// A stored instant as local `HH:MM` (the text itself if unreadable).
fn hhmm(stamp: &str) -> String {
    crate::time::unstamp(stamp).map(crate::time::clock_time).unwrap_or_else(|_| stamp.to_string())
}
