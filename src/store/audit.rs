//! The audit log: who changed what, when, with which command line.

use super::{Actor, Change, PlayerId};
use crate::error::Result;
use crate::time::stamp;
use rusqlite::{Connection, params};

/// One audit entry.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Entry {
    /// Row id, increasing.
    pub id: i64,
    /// When (RFC 3339, UTC).
    pub at: String,
    /// The judge who ran the command.
    pub judge: String,
    /// The command line as typed.
    pub command: String,
    /// What changed.
    pub summary: String,
    /// Where it came from: `cli`, or `web ADDRESS` for the live server.
    pub via: String,
}

/// Appends an entry for a write (called by `Store::write`).
pub fn append(conn: &Connection, actor: &Actor, change: &Change) -> Result<()> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO audit (at, judge, command_line, summary, via) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    stmt.execute(params![stamp(actor.at), actor.judge, actor.command_line, change.summary, actor.via])?;
    let id = conn.last_insert_rowid();
    let mut link = conn.prepare_cached("INSERT OR IGNORE INTO audit_player (audit_id, player_id) VALUES (?1, ?2)")?;
    for p in &change.players {
        link.execute(params![id, p])?;
    }
    Ok(())
}

/// Entries, oldest first, optionally only those about one player and/or at or after an instant.
pub fn list(conn: &Connection, player: Option<PlayerId>, since: Option<&str>) -> Result<Vec<Entry>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, at, judge, command_line, summary, via FROM audit
         WHERE (?1 IS NULL OR id IN (SELECT audit_id FROM audit_player WHERE player_id = ?1))
           AND (?2 IS NULL OR at >= ?2)
         ORDER BY id",
    )?;
    let rows = stmt.query_map(params![player, since], |r| {
        Ok(Entry {
            id: r.get(0)?,
            at: r.get(1)?,
            judge: r.get(2)?,
            command: r.get(3)?,
            summary: r.get(4)?,
            via: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The highest audit id (0 for none): what the live server compares to see that something was written.
pub fn last_id(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("SELECT coalesce(max(id), 0) FROM audit", [], |r| r.get(0))?)
}

/// The command lines and summaries of the entries after `after`, oldest first (for the live server: a
/// player's confirmed self-report is also a result).
pub fn commands_after(conn: &Connection, after: i64) -> Result<Vec<(i64, String, String)>> {
    let mut stmt = conn.prepare_cached("SELECT id, command_line, summary FROM audit WHERE id > ?1 ORDER BY id")?;
    let rows = stmt.query_map([after], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
