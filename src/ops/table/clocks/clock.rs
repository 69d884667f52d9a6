//! The clocks at a table: the round's clock as one table sees it (its extensions included), the moments a
//! record may be given at, and the decision clock without a screen (start, stop, cancel; the live screen's
//! writes are in [`crate::ops::table::clocks::live`]).
//! A decision in progress is a `decision` row with no end; stopping it computes its limit and overrun with the
//! table's clock as it stands.

use super::claims;
use crate::domain::clock::{ClockSettings, Decision, TableClock, decision_outcome};
use crate::domain::settings::Values;
use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::player_names;
use crate::ops::table::find_match;
use crate::store::clock::{self as store_clock, FinishedDecision};
use crate::store::matches::Match;
use crate::store::round::Round;
use crate::store::{Actor, Change, Claimed, MatchId, PlayerId, Store, Touched, event, player, round};
use crate::time::{stamp, unstamp};
use chrono::{DateTime, Duration, Utc};
use rusqlite::Connection;
use std::collections::HashMap;

/// The event's time settings.
pub fn clock_settings(values: &Values) -> ClockSettings {
    let n = |k: &str| u32::try_from(values.number(k)).unwrap_or(0);
    ClockSettings {
        round_minutes: n("round-minutes"),
        decision_secs: n("decision-seconds"),
        final_window_minutes: n("final-window-minutes"),
        final_decision_secs: n("final-decision-seconds"),
    }
}

/// The current round, or a refusal when none has been paired.
pub fn current_round(conn: &Connection) -> Result<Round> {
    let number = round::current(conn)?;
    match round::get(conn, number)? {
        Some(r) if number > 0 => Ok(r),
        _ => Err(Refusal::refused("no round has been paired yet").way_out(WayOut::PairOne).into()),
    }
}

/// When a round's clock started, or a refusal naming the command that starts it.
pub fn round_started(r: &Round) -> Result<DateTime<Utc>> {
    match &r.started_at {
        Some(at) => unstamp(at),
        None => Err(Refusal::refused(format!("round {} has not started", r.number)).way_out(WayOut::StartClock).into()),
    }
}

/// One table's round clock: the round's start, the event's settings and that table's extensions.
pub fn table_clock(conn: &Connection, started: DateTime<Utc>, m: &Match) -> Result<TableClock> {
    table_clock_with(conn, started, m, clock_settings(&event::values(conn)?))
}

/// [`table_clock`] with the event's clock settings already read.
pub fn table_clock_with(
    conn: &Connection,
    started: DateTime<Utc>,
    m: &Match,
    settings: ClockSettings,
) -> Result<TableClock> {
    let mut clock = TableClock::new(started, settings);
    clock.extend(store_clock::extension_secs(conn, m.id)?);
    Ok(clock)
}

/// An instant for people: local `HH:MM:SS`, with the date when it is not today.
pub fn when(at: DateTime<Utc>) -> String {
    let local = at.with_timezone(&chrono::Local);
    let today = crate::time::now().unwrap_or(at).with_timezone(&chrono::Local).date_naive();
    if local.date_naive() == today {
        local.format("%H:%M:%S").to_string()
    } else {
        local.format("%Y-%m-%d %H:%M:%S").to_string()
    }
}

/// A stored instant for people (see [`when`]); the stored text itself if it cannot be read.
pub fn when_text(stored: &str) -> String {
    unstamp(stored).map(when).unwrap_or_else(|_| stored.to_string())
}

/// Before the round's clock started, at a moment nobody typed (a player's device, a judge's phone): what waits
/// for the round's clock, in words — "deck inspection until 01:53" (event setting `inspection-minutes`) or "round
/// 2's clock starts at 01:53" (a start set for later). None once it runs.
pub fn before_round_clock(
    conn: &Connection,
    round: u32,
    at: DateTime<Utc>,
    started: DateTime<Utc>,
) -> Result<Option<String>> {
    if at >= started {
        return Ok(None);
    }
    let hhmm = started.with_timezone(&chrono::Local).format("%H:%M").to_string();
    Ok(Some(if event::values(conn)?.number("inspection-minutes") > 0 {
        format!("deck inspection until {hhmm}")
    } else {
        format!("round {round}'s clock starts at {hhmm}")
    }))
}

/// Refuses a moment before the round's clock started.
pub fn not_before_start(round: u32, at: DateTime<Utc>, started: DateTime<Utc>) -> Result<()> {
    if at < started {
        let what = format!("{} is before round {round} started ({})", when(at), when(started));
        return Err(Refusal::refused(what.clone()).flags(format!("{what}: give a later --at")).into());
    }
    Ok(())
}

/// Checks a moment given with `--at` for a record in round `round` (see [`crate::time::check_record_moment`]):
/// not more than 2 minutes ahead, not before the event was created, not before the round started.
pub fn check_moment(conn: &Connection, round: u32, at: DateTime<Utc>) -> Result<()> {
    let created = event::get(conn, "created")?.and_then(|c| unstamp(&c).ok());
    let started = round::get(conn, round)?.and_then(|r| r.started_at).map(|s| unstamp(&s)).transpose()?;
    crate::time::check_record_moment(at, crate::time::now()?, created, started.map(|s| (round, s)))
}

/// [`check_moment`] for a record of no particular round (a penalty given away from a table).
pub fn check_event_moment(conn: &Connection, at: DateTime<Utc>) -> Result<()> {
    let created = event::get(conn, "created")?.and_then(|c| unstamp(&c).ok());
    crate::time::check_record_moment(at, crate::time::now()?, created, None)
}

/// Stops the decision still running at a match, if any, at `at` (never before it began), saving its
/// duration, limit and overrun. Returns "Name (12.3 s)" for the message. Used when a round ends and when a
/// match gets its result, so a finished game never leaves a clock running.
pub fn stop_running_decision(conn: &Connection, m: &Match, at: DateTime<Utc>) -> Result<Option<String>> {
    let Some(d) = store_clock::running(conn, m.id)? else { return Ok(None) };
    let Some(started) = round::get(conn, m.round)?.and_then(|r| r.started_at) else { return Ok(None) };
    let begun = unstamp(&d.started_at)?;
    let end = at.max(begun);
    let o = decision_outcome(&table_clock(conn, unstamp(&started)?, m)?, begun, end);
    let ended_at = stamp(end);
    store_clock::finish_decision(conn, d.id, &finished(&o, &ended_at))?;
    Ok(Some(format!("{} ({})", name_of(conn, d.player_id)?, secs_text(o.duration_ms))))
}

/// A player's name (for messages).
pub fn name_of(conn: &Connection, id: PlayerId) -> Result<String> {
    Ok(player::get(conn, id)?.name)
}

/// A player's name from names already loaded (see `ops::player_names::names_by_id`), read when missing.
pub fn name_in(conn: &Connection, names: &HashMap<PlayerId, String>, id: PlayerId) -> Result<String> {
    names.get(&id).cloned().map_or_else(|| name_of(conn, id), Ok)
}

/// Milliseconds as seconds with one decimal: `52.3 s`.
pub fn secs_text(ms: i64) -> String {
    crate::domain::clock::seconds_text(ms)
}

/// `table 3` or `tables 1, 2, 5`.
pub fn tables_text<T: ToString>(tables: &[T]) -> String {
    let list: Vec<String> = tables.iter().map(ToString::to_string).collect();
    format!("table{} {}", if list.len() == 1 { "" } else { "s" }, list.join(", "))
}

/// `M:SS` of a duration (rounded up, `-` when negative), as on the clock screen.
pub fn clock_text(d: Duration) -> String {
    crate::clock_screen::text::clock_text(d)
}

/// What the projector page of a round shows besides its start: the event's name and time settings, and every
/// table with its extensions (in seconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectorFigures {
    /// The event's name.
    pub event: String,
    /// The event's time settings.
    pub settings: ClockSettings,
    /// (table, extension seconds), in table order.
    pub tables: Vec<(u32, i64)>,
    /// Deck inspection before the round's clock, in minutes (0 without).
    pub inspection_minutes: u32,
}

/// The projector figures of round `number`.
pub fn projector_figures(conn: &Connection, number: u32) -> Result<ProjectorFigures> {
    let values = event::values(conn)?;
    let mut tables = Vec::new();
    for m in crate::store::matches::of_round(conn, number)? {
        if let Some(t) = m.table {
            tables.push((t, store_clock::extension_secs(conn, m.id)?));
        }
    }
    let inspection_minutes = u32::try_from(values.number("inspection-minutes")).unwrap_or(0);
    Ok(ProjectorFigures {
        event: values.name().to_string(),
        settings: clock_settings(&values),
        tables,
        inspection_minutes,
    })
}

/// The match at `table` in the current round, checked for timing decisions at `at`: the round's clock has
/// started (and `at` is not before it), it is not closed, and the match has no result yet. Returns the match
/// and the round's start.
pub fn timed_match(conn: &Connection, table: u32, at: Option<DateTime<Utc>>) -> Result<(Match, DateTime<Utc>)> {
    let r = current_round(conn)?;
    let m = find_match(conn, table, None)?;
    let started = round_started(&r)?;
    if let Some(ended) = &r.ended_at {
        return Err(Error::refused(format!(
            "round {} was closed at {}: its decisions can no longer be timed",
            r.number,
            when_text(ended)
        )));
    }
    if m.outcome.is_some() {
        return Err(Error::refused(format!(
            "the match at table {table} already has a result: its decisions are no longer timed"
        )));
    }
    if let Some(at) = at {
        not_before_start(r.number, at, started)?;
    }
    Ok((m, started))
}

pub(in crate::ops) fn finished<'a>(d: &Decision, ended_at: &'a str) -> FinishedDecision<'a> {
    FinishedDecision { ended_at, duration_ms: d.duration_ms, limit_ms: d.limit_ms, overrun_ms: d.overrun_ms }
}

/// One line about a finished decision, for the audit log and the judge.
pub(in crate::ops) fn summary(conn: &Connection, m: &Match, who: PlayerId, d: &Decision) -> Result<String> {
    let name = name_of(conn, who)?;
    let table = m.table.unwrap_or(0);
    let over = if d.is_stall() {
        format!(", over by {} (possible slow play, for a judge to review)", secs_text(d.overrun_ms))
    } else {
        String::new()
    };
    Ok(format!(
        "table {table} (round {}): {name} decided in {} (limit {}){over}",
        m.round,
        secs_text(d.duration_ms),
        secs_text(d.limit_ms)
    ))
}

/// A decision to start at a table of the current round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartInput {
    /// The table.
    pub table: u32,
    /// The deciding player (a name or its beginning, matched against the two players first).
    pub player: String,
    /// When it started, if not now.
    pub at: Option<DateTime<Utc>>,
}

/// A started decision.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DecisionStarted {
    /// The decision's id.
    pub decision: i64,
    /// The table.
    pub table: u32,
    /// The deciding player.
    pub player: String,
    /// When it started (RFC 3339).
    pub started_at: String,
    /// The match.
    #[serde(skip)]
    pub match_id: MatchId,
    /// The round.
    #[serde(skip)]
    pub round: u32,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// `clock TABLE --start PLAYER`: starts timing a decision at a table (the round's clock must run, the match
/// must be playing, and no other decision may be running there).
pub fn start_decision(store: &mut Store, actor: &Actor, input: StartInput) -> Result<DecisionStarted> {
    let at = input.at.unwrap_or(actor.at);
    store.write(actor, |tx| {
        let given = (at, input.at.is_some());
        let (out, player) = start_in(tx, input.table, given, Who::Named(&input.player), actor.claim)?;
        let touched = Touched::table(Topic::Clock, out.round, Some(out.table)).player(player);
        Ok((out.clone(), Change::about(out.summary, [player]).touching(touched)))
    })
}

/// Who is to decide: a typed name, or a player known by id.
enum Who<'a> {
    Named(&'a str),
    Id(PlayerId),
}

/// Starts a decision in the caller's transaction; `at` and whether the judge gave it, and the moment a page's
/// queue claimed for it (recorded beside it, see [`super::claims`]).
fn start_in(
    tx: &Connection,
    table: u32,
    (at, given): (DateTime<Utc>, bool),
    who: Who<'_>,
    claim: Option<Claimed>,
) -> Result<(DecisionStarted, PlayerId)> {
    if !given
        && let Ok(r) = current_round(tx)
        && let Ok(started) = round_started(&r)
        && let Some(wait) = before_round_clock(tx, r.number, at, started)?
    {
        return Err(Error::refused(format!("{wait}: the decision clock starts with the round")));
    }
    // A claimed start is recorded as [`claims::start_moment`] says, checked here in the write's own transaction.
    let at = match &claim {
        Some(c) if !given => {
            let (m, round_started) = timed_match(tx, table, None)?;
            claims::start_moment(claims::start_bound(tx, m.id, Some(round_started))?, c)
        }
        _ => at,
    };
    let (m, _) = timed_match(tx, table, Some(at))?;
    if given {
        check_moment(tx, m.round, at)?;
    }
    let p = match m.b {
        Some(b) => {
            let seated = [player::get(tx, m.a)?, player::get(tx, b)?];
            let i = match who {
                Who::Named(query) => {
                    let here = player_names::AtTable { round: m.round, table, players: [&seated[0], &seated[1]] };
                    player_names::find_at_table(tx, here, query)?
                }
                Who::Id(id) => usize::from(id == b),
            };
            seated[i].clone()
        }
        None => return Err(Error::refused(format!("table {table} has no match between two players"))),
    };
    if let Some(d) = store_clock::running(tx, m.id)? {
        let deciding = name_of(tx, d.player_id)?;
        let what = format!("{deciding} is already deciding at table {table} (since {})", when_text(&d.started_at));
        let out = WayOut::StopDecision { table, player: deciding };
        return Err(Refusal::refused(what).way_out(out).into());
    }
    let id = store_clock::start_decision(tx, m.id, p.id, &stamp(at))?;
    if let Some(c) = &claim {
        store_clock::claim_start(tx, id, &claims::claim_of(c, true))?;
    }
    let summary = format!("table {table} (round {}): {} deciding from {}", m.round, p.name, when(at));
    let out = DecisionStarted {
        decision: id,
        table,
        player: p.name,
        started_at: stamp(at),
        match_id: m.id,
        round: m.round,
        summary,
    };
    Ok((out, p.id))
}

/// A decision to stop at a table of the current round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StopInput {
    /// The table.
    pub table: u32,
    /// When it ended, if not now.
    pub at: Option<DateTime<Utc>>,
}

/// A stopped decision with its duration, limit and overrun.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DecisionStopped {
    /// The decision's id.
    pub decision: i64,
    /// The table.
    pub table: u32,
    /// The deciding player.
    pub player: String,
    /// The round.
    #[serde(skip)]
    pub round: u32,
    /// When it started (RFC 3339).
    pub started_at: String,
    /// When it ended (RFC 3339).
    pub ended_at: String,
    /// How long it took.
    pub duration_ms: i64,
    /// The limit in force.
    pub limit_ms: i64,
    /// How far over the limit (0 within it).
    pub overrun_ms: i64,
    /// When the server saw the stop (its key's first arrival; the claim, when one was taken, may lie before it).
    #[serde(skip)]
    pub seen_at: DateTime<Utc>,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// `clock TABLE --stop`: stops the decision running at a table, saving its duration, limit and overrun (a
/// closed round or a recorded result does not prevent stopping it).
pub fn stop_decision(store: &mut Store, actor: &Actor, input: StopInput) -> Result<DecisionStopped> {
    let at = input.at.unwrap_or(actor.at);
    store.write(actor, |tx| {
        let (out, player) = stop_in(tx, input.table, (at, input.at.is_some()), actor.claim)?;
        let touched = Touched::table(Topic::Clock, out.round, Some(out.table)).player(player);
        Ok((out.clone(), Change::about(out.summary, [player]).touching(touched)))
    })
}

/// Stops the running decision in the caller's transaction; `at` and whether the judge gave it, and the moment a
/// page's queue claimed for it (kept only as [`claims::stop_moment`] says, and recorded beside it).
fn stop_in(
    tx: &Connection,
    table: u32,
    (at, given): (DateTime<Utc>, bool),
    claim: Option<Claimed>,
) -> Result<(DecisionStopped, PlayerId)> {
    let r = current_round(tx)?;
    let m = find_match(tx, table, None)?;
    let round_start = round_started(&r)?;
    not_before_start(r.number, at, round_start)?;
    if given {
        check_moment(tx, m.round, at)?;
    }
    let Some(running) = store_clock::running(tx, m.id)? else {
        let what = format!("no decision is running at table {table}");
        return Err(Refusal::refused(what).way_out(WayOut::StartDecision { table }).into());
    };
    let started = unstamp(&running.started_at)?;
    // A claimed end is taken as [`claims::end_moments`] says; the moment the server saw it is the hand-over's.
    let (at, seen) = match &claim {
        Some(c) if !given => {
            let e = claims::end_moments(&running, c)?;
            (e.stop, e.seen)
        }
        _ => (at, at),
    };
    if at < started {
        let what = format!("{} is before the decision started ({})", when(at), when_text(&running.started_at));
        return Err(Refusal::refused(what.clone()).flags(format!("{what}: give a later --at")).into());
    }
    let d = decision_outcome(&table_clock(tx, round_start, &m)?, started, at);
    store_clock::finish_decision(tx, running.id, &finished(&d, &stamp(at)))?;
    if let Some(c) = &claim {
        store_clock::claim_end(tx, running.id, &claims::claim_of(c, false))?;
    }
    let out = DecisionStopped {
        decision: running.id,
        table,
        round: m.round,
        player: name_of(tx, running.player_id)?,
        summary: summary(tx, &m, running.player_id, &d)?,
        started_at: running.started_at,
        ended_at: stamp(at),
        duration_ms: d.duration_ms,
        limit_ms: d.limit_ms,
        overrun_ms: d.overrun_ms,
        seen_at: seen,
    };
    Ok((out, running.player_id))
}

/// A decision handed over: the one that ran, stopped, and the other player's, started when the server saw the
/// hand-over (the same instant, unless a replay's claim stopped the first earlier).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HandedOver {
    /// The decision stopped.
    pub stopped: DecisionStopped,
    /// The decision started.
    pub started: DecisionStarted,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// Hands the decision at a table over to the other player (a pass of priority, a tap on the clock): stops the
/// running decision at its checked moment and starts the opponent's when the server saw the hand-over, in one
/// write (both refusals as for
/// [`stop_decision`] and [`start_decision`]; a match that has a result by now takes no new decision).
pub fn hand_over(store: &mut Store, actor: &Actor, input: StopInput) -> Result<HandedOver> {
    let at = input.at.unwrap_or(actor.at);
    let moment = (at, input.at.is_some());
    store.write(actor, |tx| {
        let (stopped, was) = stop_in(tx, input.table, moment, actor.claim)?;
        // The other player's decision starts when the server saw the hand-over, with no claim: a claim taken for
        // the decider's stop charges no one else (the gap between them is nobody's).
        let at = stopped.seen_at;
        let moment = (at, moment.1);
        let m = find_match(tx, input.table, None)?;
        let other = m
            .opponent(was)
            .ok_or_else(|| Error::refused(format!("table {} has no match between two players", input.table)))?;
        let (started, now) = start_in(tx, input.table, moment, Who::Id(other), None)?;
        let summary = format!("{}; {} deciding from {}", stopped.summary, started.player, when(at));
        let out = HandedOver { stopped, started, summary: summary.clone() };
        let clock = Touched::of_match(Topic::Clock, &m);
        Ok((out, Change::about(summary, [was, now]).touching_all([clock.player(was), clock.player(now)])))
    })
}

/// `clock TABLE --cancel`: the table in the current round.
#[derive(Debug, Clone, Copy)]
pub struct CancelInput {
    /// The table.
    pub table: u32,
}

/// A cancelled decision.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Cancelled {
    /// The decision's id (gone now).
    pub decision: i64,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// Who was deciding.
    pub player: String,
    /// When it had started (RFC 3339).
    pub started_at: String,
}

/// Discards the decision running at a table of the current round, as if it had never been started: nothing is
/// recorded for the player (the audit log keeps the cancellation).
pub fn cancel_decision(store: &mut Store, actor: &Actor, input: CancelInput) -> Result<Cancelled> {
    let table = input.table;
    store.write(actor, |tx| {
        let number = round::current(tx)?;
        if number == 0 {
            return Err(Error::refused("no round has been paired yet: there is no decision to cancel"));
        }
        let Some(m) = crate::store::matches::at_table(tx, number, table)? else {
            return Err(Error::not_found(format!("no match at table {table} in round {number}: check the table")));
        };
        let Some(d) = store_clock::running(tx, m.id)? else {
            let what = format!("no decision is running at table {table}: nothing to cancel");
            return Err(Refusal::refused(what)
                .way_out_after(crate::error::Join::Aside, WayOut::ListDecisions { table })
                .into());
        };
        store_clock::cancel_decision(tx, &d, &crate::time::stamp(actor.at))?;
        let name = player::get(tx, d.player_id)?.name;
        let since = crate::time::unstamp(&d.started_at).map(crate::time::confirm_time).unwrap_or_default();
        let summary = format!(
            "table {table} (round {number}): cancelled the decision {name} started at {since} (started by mistake; \
             nothing recorded)"
        );
        let out = Cancelled { decision: d.id, round: number, table, player: name, started_at: d.started_at };
        let touched = Touched::of_match(Topic::Clock, &m).player(d.player_id);
        Ok((out, Change::about(summary, [d.player_id]).touching(touched)))
    })
}
