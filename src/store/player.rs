//! Players.

use super::PlayerId;
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// A player as stored.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Player {
    /// Row id.
    pub id: PlayerId,
    /// Name as entered.
    pub name: String,
    /// The organiser's id (from an import), if any.
    pub ext_id: Option<String>,
    /// E-mail, if any.
    pub email: Option<String>,
    /// First round the player may be paired in.
    pub joined_round: u32,
    /// The last round played before dropping, if dropped (0 = before round 1).
    pub dropped_after: Option<u32>,
    /// Disqualified players leave the standings and the pairings.
    pub disqualified: bool,
}

impl Player {
    /// Whether the player can be paired in round `round`.
    pub fn active_in(&self, round: u32) -> bool {
        !self.disqualified && self.joined_round <= round && self.dropped_after.is_none_or(|d| d >= round)
    }
}

/// A player to add.
#[derive(Debug, Clone)]
pub struct NewPlayer<'a> {
    /// Name (already trimmed and checked).
    pub name: &'a str,
    /// Unique key (see `domain::names::key`).
    pub name_key: &'a str,
    /// Organiser's id.
    pub ext_id: Option<&'a str>,
    /// E-mail.
    pub email: Option<&'a str>,
    /// First round the player may be paired in.
    pub joined_round: u32,
}

/// `SELECT` of every player column followed by the rest of the statement (a literal, never built at run time).
macro_rules! select_player {
    ($tail:literal) => {
        concat!("SELECT id, name, ext_id, email, joined_round, dropped_after, disqualified FROM player ", $tail)
    };
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Player> {
    Ok(Player {
        id: r.get(0)?,
        name: r.get(1)?,
        ext_id: r.get(2)?,
        email: r.get(3)?,
        joined_round: r.get(4)?,
        dropped_after: r.get(5)?,
        disqualified: r.get(6)?,
    })
}

/// Every player, in the order they were added.
pub fn all(conn: &Connection) -> Result<Vec<Player>> {
    let mut stmt = conn.prepare_cached(select_player!("ORDER BY id"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One player by id.
pub fn get(conn: &Connection, id: PlayerId) -> Result<Player> {
    let mut stmt = conn.prepare_cached(select_player!("WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row)?)
}

/// The player whose unique key is `key`, if any.
pub fn by_key(conn: &Connection, key: &str) -> Result<Option<Player>> {
    let mut stmt = conn.prepare_cached(select_player!("WHERE name_key = ?1"))?;
    Ok(stmt.query_row([key], from_row).optional()?)
}

/// Adds a player.
pub fn insert(conn: &Connection, p: &NewPlayer<'_>) -> Result<PlayerId> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO player (name, name_key, ext_id, email, joined_round) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    stmt.execute(params![p.name, p.name_key, p.ext_id, p.email, p.joined_round])?;
    Ok(PlayerId(conn.last_insert_rowid()))
}

/// Sets or clears the round after which a player dropped.
pub fn set_dropped(conn: &Connection, id: PlayerId, after: Option<u32>) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE player SET dropped_after = ?2 WHERE id = ?1")?;
    stmt.execute(params![id, after])?;
    Ok(())
}

/// Marks a player disqualified.
pub fn set_disqualified(conn: &Connection, id: PlayerId) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE player SET disqualified = 1 WHERE id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// What is recorded about a player, as (kind, count) for the kinds with any: matches (byes included), notes,
/// decisions, stalls, penalties and challenges (made or lost).
pub fn records(conn: &Connection, id: PlayerId) -> Result<Vec<(&'static str, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT (SELECT count(*) FROM match WHERE a_player = ?1 OR b_player = ?1),
                (SELECT count(*) FROM template_note WHERE player_id = ?1),
                (SELECT count(*) FROM decision WHERE player_id = ?1),
                (SELECT count(*) FROM stall WHERE player_id = ?1),
                (SELECT count(*) FROM penalty WHERE player_id = ?1),
                (SELECT count(*) FROM challenge WHERE by_player = ?1 OR loser = ?1)",
    )?;
    let counts: [i64; 6] =
        stmt.query_row([id], |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?]))?;
    let kinds = ["match", "note", "decision", "stall", "penalty", "challenge"];
    Ok(kinds.into_iter().zip(counts).filter(|(_, n)| *n > 0).collect())
}

/// Deletes a player who has no records (see [`records`]); the audit log keeps its entries.
pub fn delete(conn: &Connection, id: PlayerId) -> Result<()> {
    let mut stmt = conn.prepare_cached("DELETE FROM player WHERE id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// Renames a player.
pub fn rename(conn: &Connection, id: PlayerId, name: &str, key: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE player SET name = ?2, name_key = ?3 WHERE id = ?1")?;
    stmt.execute(params![id, name, key])?;
    Ok(())
}
