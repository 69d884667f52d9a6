//! Rounds: paired rounds and their clock.

use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// A paired round.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Round {
    /// Round number, from 1.
    pub number: u32,
    /// The movement that paired it (mitchell, square, howell, swiss).
    pub movement: String,
    /// When it was paired.
    pub paired_at: String,
    /// When its clock started.
    pub started_at: Option<String>,
    /// When it was closed.
    pub ended_at: Option<String>,
}

/// The number of the latest paired round, or 0 before round 1 is paired.
pub fn current(conn: &Connection) -> Result<u32> {
    let mut stmt = conn.prepare_cached("SELECT coalesce(max(number), 0) FROM round")?;
    Ok(stmt.query_row([], |r| r.get(0))?)
}

/// One round, if paired.
pub fn get(conn: &Connection, number: u32) -> Result<Option<Round>> {
    let mut stmt =
        conn.prepare_cached("SELECT number, movement, paired_at, started_at, ended_at FROM round WHERE number = ?1")?;
    Ok(stmt
        .query_row([number], |r| {
            Ok(Round {
                number: r.get(0)?,
                movement: r.get(1)?,
                paired_at: r.get(2)?,
                started_at: r.get(3)?,
                ended_at: r.get(4)?,
            })
        })
        .optional()?)
}

/// Records a newly paired round.
pub fn insert(conn: &Connection, number: u32, movement: &str, paired_at: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached("INSERT INTO round (number, movement, paired_at) VALUES (?1, ?2, ?3)")?;
    stmt.execute(params![number, movement, paired_at])?;
    Ok(())
}

/// Deletes a round and (by cascade) its matches.
pub fn delete(conn: &Connection, number: u32) -> Result<()> {
    let mut stmt = conn.prepare_cached("DELETE FROM round WHERE number = ?1")?;
    stmt.execute([number])?;
    Ok(())
}

/// Sets when the round's clock started.
pub fn set_started(conn: &Connection, number: u32, at: Option<&str>) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE round SET started_at = ?2 WHERE number = ?1")?;
    stmt.execute(params![number, at])?;
    Ok(())
}

/// Sets when the round was closed.
pub fn set_ended(conn: &Connection, number: u32, at: Option<&str>) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE round SET ended_at = ?2 WHERE number = ?1")?;
    stmt.execute(params![number, at])?;
    Ok(())
}

/// The paired rounds after `number`, in order.
pub fn after(conn: &Connection, number: u32) -> Result<Vec<u32>> {
    let mut stmt = conn.prepare_cached("SELECT number FROM round WHERE number > ?1 ORDER BY number")?;
    let rows = stmt.query_map([number], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
