//! The round's clock at every table (`time`): time left with the table's extensions, the final window, the
//! decision limit in force, whether time is over, and who is deciding.

use crate::domain::clock::{ClockSettings, TableClock};
use crate::error::Result;
use crate::ops::player_names;
use crate::ops::table::clocks::clock::{clock_settings, current_round, name_in, round_started};
use crate::store::clock::{self as store_clock, DecisionRow, Extension};
use crate::store::matches::Match;
use crate::store::{MatchId, PlayerId, event, matches};
use crate::time::{stamp, unstamp};
use chrono::{DateTime, Utc};
use rusqlite::Connection;
use std::collections::HashMap;

/// A decision running at a table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Deciding {
    /// The deciding player.
    pub player: String,
    /// When it started (RFC 3339).
    pub started_at: String,
    /// How long it has run at the view's instant.
    pub elapsed_ms: i64,
}

/// One table's round clock at an instant.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TableTime {
    /// The table.
    pub table: u32,
    /// Its players, seat A first.
    pub players: Vec<String>,
    /// Whether the round's clock has started at that instant.
    pub started: bool,
    /// Its extensions in all, in seconds (void ones left out).
    pub extension_secs: i64,
    /// Its extensions (void ones included, marked).
    pub extensions: Vec<Extension>,
    /// When its time is called (RFC 3339): its end with its extensions, or the round's close when the round was
    /// ended anyway with the table still playing (then `over` is true and `time_left_ms` 0 or less).
    pub ends_at: String,
    /// Time was called at the round's close, before the table's own end ("End the round anyway").
    pub called_at_close: bool,
    /// Time left.
    pub time_left_ms: i64,
    /// In the final window.
    pub final_window: bool,
    /// The decision limit in force, in seconds.
    pub limit_secs: u32,
    /// Time is over.
    pub over: bool,
    /// `A`, `B` or `draw` once recorded.
    pub result: Option<String>,
    /// The decision running, if any.
    pub deciding: Option<Deciding>,
}

/// The current round's clock at every table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RoundTimes {
    /// The round.
    pub round: u32,
    /// When its clock started (RFC 3339); null for a round closed with every table's result before its clock
    /// ever ran (then `tables` is empty and `phase` is `closed`).
    pub started_at: Option<String>,
    /// When it was closed (RFC 3339), if it was.
    pub ended_at: Option<String>,
    /// The instant shown: now, or the close.
    pub at: String,
    /// What is running at that instant: `inspection` (deck inspection before the round's clock starts),
    /// `waiting` (a start given for later, without inspection), `round`, or `closed`.
    pub phase: &'static str,
    /// Deck inspection time left (only in the `inspection` phase).
    pub inspection_left_ms: Option<i64>,
    /// The event's time settings.
    pub settings: ClockSettings,
    /// Every table of the round.
    pub tables: Vec<TableTime>,
}

/// `time`: every table of the current round at `now` (at its close once the round is closed).
pub fn round_times(conn: &Connection, now: DateTime<Utc>) -> Result<RoundTimes> {
    let r = current_round(conn)?;
    let values = event::values(conn)?;
    let settings = clock_settings(&values);
    if let (None, Some(ended)) = (&r.started_at, &r.ended_at) {
        return Ok(RoundTimes {
            round: r.number,
            started_at: None,
            ended_at: Some(ended.clone()),
            at: ended.clone(),
            phase: "closed",
            inspection_left_ms: None,
            settings,
            tables: Vec::new(),
        });
    }
    let started = round_started(&r)?;
    let at = match r.ended_at.as_deref().map(unstamp).transpose()? {
        Some(t) => t,
        None => now,
    };
    let names = player_names::names_by_id(conn)?;
    let closed = r.ended_at.as_deref().map(unstamp).transpose()?;
    let phase = match (r.ended_at.is_some(), at < started, values.number("inspection-minutes") > 0) {
        (true, _, _) => "closed",
        (false, false, _) => "round",
        (false, true, true) => "inspection",
        (false, true, false) => "waiting",
    };
    let inspection_left_ms = (phase == "inspection").then(|| (started - at).num_milliseconds());
    // The round's extensions and running decisions in one query each, not three queries a table.
    let mut extensions: HashMap<MatchId, Vec<Extension>> = HashMap::new();
    for e in store_clock::extensions_of_round(conn, r.number)? {
        extensions.entry(e.match_id).or_default().push(e);
    }
    let running: HashMap<MatchId, DecisionRow> =
        store_clock::running_in_round(conn, r.number)?.into_iter().map(|d| (d.match_id, d)).collect();
    let mut tables = Vec::new();
    for m in matches::of_round(conn, r.number)?.into_iter().filter(|m| m.table.is_some()) {
        let kept = Kept { extensions: extensions.remove(&m.id).unwrap_or_default(), running: running.get(&m.id) };
        tables.push(table_time_of(conn, (&names, settings), (started, closed), &m, at, kept)?);
    }
    Ok(RoundTimes {
        round: r.number,
        started_at: Some(stamp(started)),
        ended_at: r.ended_at,
        at: stamp(at),
        phase,
        inspection_left_ms,
        settings,
        tables,
    })
}

/// What is kept for one table: its extensions (void ones included) and the decision running there.
struct Kept<'a> {
    extensions: Vec<Extension>,
    running: Option<&'a DecisionRow>,
}

/// One table's round clock at `at`, with the names and settings already read, in a round started at `started`
/// and closed at `closed` (if it was).
pub fn table_time(
    conn: &Connection,
    (names, settings): (&HashMap<PlayerId, String>, ClockSettings),
    (started, closed): (DateTime<Utc>, Option<DateTime<Utc>>),
    m: &Match,
    at: DateTime<Utc>,
) -> Result<TableTime> {
    let running = store_clock::running(conn, m.id)?;
    let kept = Kept { extensions: store_clock::extensions(conn, m.id)?, running: running.as_ref() };
    table_time_of(conn, (names, settings), (started, closed), m, at, kept)
}

/// [`table_time`] with the table's extensions and running decision already read.
fn table_time_of(
    conn: &Connection,
    (names, settings): (&HashMap<PlayerId, String>, ClockSettings),
    (started, closed): (DateTime<Utc>, Option<DateTime<Utc>>),
    m: &Match,
    at: DateTime<Utc>,
    kept: Kept<'_>,
) -> Result<TableTime> {
    let mut clock = TableClock::new(started, settings).closed_at(closed);
    clock.extend(kept.extensions.iter().filter(|e| e.voided.is_none()).map(|e| e.seconds).sum());
    let mut players = vec![name_in(conn, names, m.a)?];
    if let Some(b) = m.b {
        players.push(name_in(conn, names, b)?);
    }
    let deciding = match kept.running {
        Some(d) => Some(Deciding {
            player: name_in(conn, names, d.player_id)?,
            elapsed_ms: (at - unstamp(&d.started_at)?).num_milliseconds(),
            started_at: d.started_at.clone(),
        }),
        None => None,
    };
    Ok(TableTime {
        table: m.table.unwrap_or(0),
        players,
        started: at >= started,
        extension_secs: clock.extension_secs,
        extensions: kept.extensions,
        ends_at: stamp(clock.called()),
        called_at_close: clock.called_at_close(),
        // Before the round's clock starts (deck inspection), the round's own time: inspection is not play time.
        time_left_ms: clock.time_left(at.max(started)).num_milliseconds(),
        final_window: clock.in_final_window(at),
        limit_secs: clock.decision_limit_at(at),
        over: clock.is_over(at),
        result: m.outcome.map(|o| o.as_str().to_string()),
        deciding,
    })
}
