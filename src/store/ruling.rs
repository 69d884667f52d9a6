//! Judges' rulings that are not penalties.

use super::{MatchId, PlayerId};
use crate::error::Result;
use rusqlite::{Connection, params};

/// A ruling as stored, with its match's round and table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Ruling {
    /// Row id.
    pub id: i64,
    /// The match.
    pub match_id: MatchId,
    /// The match's round.
    pub round: u32,
    /// The match's table.
    pub table: Option<u32>,
    /// What the judge ruled.
    pub text: String,
    /// The judge.
    pub judge: String,
    /// When.
    pub at: String,
}

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Ruling> {
    Ok(Ruling {
        id: r.get(0)?,
        match_id: r.get(1)?,
        round: r.get(2)?,
        table: r.get(3)?,
        text: r.get(4)?,
        judge: r.get(5)?,
        at: r.get(6)?,
    })
}

/// One ruling by id.
pub fn get(conn: &Connection, id: i64) -> Result<Option<Ruling>> {
    use rusqlite::OptionalExtension;
    let mut stmt = conn.prepare_cached(
        "SELECT r.id, r.match_id, m.round, m.table_no, r.text, r.judge, r.at
         FROM match m JOIN ruling r ON r.match_id = m.id WHERE r.id = ?1",
    )?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

/// Rulings at one match, oldest first.
pub fn of_match(conn: &Connection, match_id: MatchId) -> Result<Vec<Ruling>> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.id, r.match_id, m.round, m.table_no, r.text, r.judge, r.at
         FROM match m JOIN ruling r ON r.match_id = m.id WHERE m.id = ?1 ORDER BY r.at, r.id",
    )?;
    let rows = stmt.query_map([match_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Records a ruling; returns its id.
pub fn insert(conn: &Connection, match_id: MatchId, text: &str, judge: &str, at: &str) -> Result<i64> {
    let mut stmt = conn.prepare_cached("INSERT INTO ruling (match_id, text, judge, at) VALUES (?1, ?2, ?3, ?4)")?;
    stmt.execute(params![match_id, text, judge, at])?;
    Ok(conn.last_insert_rowid())
}

/// Rulings, oldest first: every one, or those at the matches of one player.
pub fn list(conn: &Connection, player: Option<PlayerId>) -> Result<Vec<Ruling>> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.id, r.match_id, m.round, m.table_no, r.text, r.judge, r.at
         FROM match m JOIN ruling r ON r.match_id = m.id
         WHERE ?1 IS NULL OR m.a_player = ?1 OR m.b_player = ?1 ORDER BY r.at, r.id",
    )?;
    let rows = stmt.query_map([player], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
