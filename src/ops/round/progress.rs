//! The round's progress as the judges' dashboard draws it: when each table of the current round finished, against
//! the round's end and each table's extended end, and the tables still playing.

use crate::error::Result;
use crate::ops::live::{RoundView, TableView};
use crate::store::{Store, matches};
use crate::time::unstamp;
use chrono::{DateTime, Utc};

/// A table of the round as the progress chart needs it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TableProgress {
    /// The table.
    pub table: u32,
    /// Its two players.
    pub players: [String; 2],
    /// When its result was recorded (RFC 3339), None while it plays.
    pub result_at: Option<String>,
    /// When time is called there (its extensions included).
    pub ends_at: Option<String>,
    /// Its extensions, in seconds.
    pub extension_seconds: i64,
}

/// The current round's progress, once its clock started.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoundProgress {
    /// The round.
    pub round: u32,
    /// When its clock started.
    pub started_at: String,
    /// When time is called without extensions.
    pub ends_at: String,
    /// When it was closed (None while it runs).
    pub ended_at: Option<String>,
    /// The moment the figures are for.
    pub now: String,
    /// Its tables (byes left out), by table number.
    pub tables: Vec<TableProgress>,
}

impl RoundProgress {
    /// Minutes from the round's start to `at` (RFC 3339); None when it cannot be read.
    pub fn minutes(&self, at: &str) -> Option<f64> {
        let (from, to) = (unstamp(&self.started_at).ok()?, unstamp(at).ok()?);
        Some((to - from).num_milliseconds() as f64 / 60_000.0)
    }

    /// The round's start as an instant.
    pub fn start(&self) -> Option<DateTime<Utc>> {
        unstamp(&self.started_at).ok()
    }
}

/// The progress of round `round` whose tables are `tables` at `now`: None before its clock starts.
pub fn progress(
    store: &Store,
    round: &RoundView,
    tables: &[TableView],
    now: DateTime<Utc>,
) -> Result<Option<RoundProgress>> {
    let (Some(started_at), Some(ends_at)) = (round.started_at.clone(), round.ends_at.clone()) else {
        return Ok(None);
    };
    if unstamp(&started_at)? > now {
        return Ok(None);
    }
    let of_round: std::collections::HashMap<i64, Option<String>> =
        store.read(|conn| matches::of_round(conn, round.number))?.into_iter().map(|m| (m.id.0, m.result_at)).collect();
    let tables = tables
        .iter()
        .map(|t| TableProgress {
            table: t.table,
            players: [0, 1].map(|i| t.seats.get(i).map(|s| s.player.clone()).unwrap_or_default()),
            result_at: of_round.get(&t.match_id).cloned().flatten(),
            ends_at: t.ends_at.clone(),
            extension_seconds: t.extension_seconds,
        })
        .collect();
    Ok(Some(RoundProgress {
        round: round.number,
        started_at,
        ends_at,
        ended_at: round.ended_at.clone(),
        now: crate::time::stamp(now),
        tables,
    }))
}
