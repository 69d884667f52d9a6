//! The round's clock at every table (`time`): time left with the table's extensions, the final window, the
//! decision limit in force, whether time is over, and who is deciding.

use super::clock::{clock_settings, current_round, name_in, round_started, table_clock_with};
use crate::domain::clock::ClockSettings;
use crate::error::Result;
use crate::ops::player_names;
use crate::store::clock::{self as store_clock, Extension};
use crate::store::matches::Match;
use crate::store::{PlayerId, event, matches};
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
    /// When its time is called (RFC 3339).
    pub ends_at: String,
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
    /// When its clock started (RFC 3339).
    pub started_at: String,
    /// When it was closed (RFC 3339), if it was.
    pub ended_at: Option<String>,
    /// The instant shown: now, or the close.
    pub at: String,
    /// The event's time settings.
    pub settings: ClockSettings,
    /// Every table of the round.
    pub tables: Vec<TableTime>,
}

/// `time`: every table of the current round at `now` (at its close once the round is closed).
pub fn round_times(conn: &Connection, now: DateTime<Utc>) -> Result<RoundTimes> {
    let r = current_round(conn)?;
    let started = round_started(&r)?;
    let at = match r.ended_at.as_deref().map(unstamp).transpose()? {
        Some(t) => t,
        None => now,
    };
    let settings = clock_settings(&event::values(conn)?);
    let names = player_names::names_by_id(conn)?;
    let mut tables = Vec::new();
    for m in matches::of_round(conn, r.number)?.iter().filter(|m| m.table.is_some()) {
        tables.push(table_time(conn, (&names, settings), started, m, at)?);
    }
    Ok(RoundTimes {
        round: r.number,
        started_at: stamp(started),
        ended_at: r.ended_at,
        at: stamp(at),
        settings,
        tables,
    })
}

/// One table's round clock at `at`, with the names and settings already read.
pub fn table_time(
    conn: &Connection,
    (names, settings): (&HashMap<PlayerId, String>, ClockSettings),
    started: DateTime<Utc>,
    m: &Match,
    at: DateTime<Utc>,
) -> Result<TableTime> {
    let clock = table_clock_with(conn, started, m, settings)?;
    let mut players = vec![name_in(conn, names, m.a)?];
    if let Some(b) = m.b {
        players.push(name_in(conn, names, b)?);
    }
    let deciding = match store_clock::running(conn, m.id)? {
        Some(d) => Some(Deciding {
            player: name_in(conn, names, d.player_id)?,
            elapsed_ms: (at - unstamp(&d.started_at)?).num_milliseconds(),
            started_at: d.started_at,
        }),
        None => None,
    };
    Ok(TableTime {
        table: m.table.unwrap_or(0),
        players,
        started: at >= started,
        extension_secs: clock.extension_secs,
        extensions: store_clock::extensions(conn, m.id)?,
        ends_at: stamp(clock.end()),
        time_left_ms: clock.time_left(at).num_milliseconds(),
        final_window: clock.in_final_window(at),
        limit_secs: clock.decision_limit_at(at),
        over: clock.is_over(at),
        result: m.outcome.map(|o| o.as_str().to_string()),
        deciding,
    })
}
