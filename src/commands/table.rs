//! Naming a match by its table: the current round unless `--round N` says otherwise.

use crate::error::{Error, Result};
use crate::store::matches::{self, Match};
use crate::store::round;
use rusqlite::Connection;

/// The match at `table` in `round` (default: the current round), or a clear refusal.
pub fn resolve_match(conn: &Connection, table: u32, round_no: Option<u32>) -> Result<Match> {
    let current = round::current(conn)?;
    if current == 0 {
        return Err(Error::refused("no round has been paired yet: pair one with `mmjudge round pair`"));
    }
    let r = round_no.unwrap_or(current);
    if r == 0 || r > current {
        return Err(Error::refused(format!("round {r} has not been paired (the current round is {current})")));
    }
    if let Some(m) = matches::at_table(conn, r, table)? {
        return Ok(m);
    }
    let tables: Vec<u32> = matches::of_round(conn, r)?.iter().filter_map(|m| m.table).collect();
    let range = match (tables.iter().min(), tables.iter().max()) {
        (Some(lo), Some(hi)) => format!("tables are {lo}-{hi}"),
        _ => "it has no tables".into(),
    };
    Err(Error::refused(format!("no match at table {table} in round {r} ({range})")))
}
