//! The audit log: who changed what, when, with which command line.

use super::{Actor, Change, PlayerId, Touched};
use crate::domain::topic::Topic;
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

/// Appends an entry for a write (called by `Store::write`); its id.
pub fn append(conn: &Connection, actor: &Actor, change: &Change) -> Result<i64> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO audit (at, judge, command_line, summary, via) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    stmt.execute(params![stamp(actor.at), actor.judge, actor.command_line, change.summary, actor.via])?;
    let id = conn.last_insert_rowid();
    let mut link = conn.prepare_cached("INSERT OR IGNORE INTO audit_player (audit_id, player_id) VALUES (?1, ?2)")?;
    for p in &change.players {
        link.execute(params![id, p])?;
    }
    let mut topic = conn.prepare_cached(
        "INSERT INTO audit_topic (audit_id, topic, round, table_no, player_id) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for t in &change.topics {
        topic.execute(params![id, t.topic.as_str(), t.round, t.table, t.player])?;
    }
    Ok(id)
}

/// Entries, oldest first, optionally only those about one player and/or at or after an instant.
pub fn list(conn: &Connection, player: Option<PlayerId>, since: Option<&str>) -> Result<Vec<Entry>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, at, judge, command_line, summary, via FROM audit
         WHERE (?1 IS NULL OR id IN (SELECT audit_id FROM audit_player WHERE player_id = ?1))
           AND (?2 IS NULL OR at >= ?2)
         ORDER BY id",
    )?;
    let rows = stmt.query_map(params![player, since], entry_of)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The highest audit id (0 for none): what the live server compares to see that something was written.
pub fn last_id(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("SELECT coalesce(max(id), 0) FROM audit", [], |r| r.get(0))?)
}

/// The topics the entries after `after` touched, oldest first (in the order each write named them), with their
/// audit ids: what the live server tells phones. A topic this mmjudge does not know is left out.
pub fn topics_after(conn: &Connection, after: i64) -> Result<Vec<(i64, Touched)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT audit_id, topic, round, table_no, player_id FROM audit_topic WHERE audit_id > ?1
         ORDER BY audit_id, rowid",
    )?;
    let rows = stmt.query_map([after], |r| {
        let name: String = r.get(1)?;
        let touched = Topic::from_name(&name).map(|topic| -> rusqlite::Result<Touched> {
            Ok(Touched { topic, round: r.get(2)?, table: r.get(3)?, player: r.get(4)? })
        });
        Ok((r.get::<_, i64>(0)?, touched.transpose()?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        if let (id, Some(t)) = row? {
            out.push((id, t));
        }
    }
    Ok(out)
}

/// One entry by its id.
pub fn get(conn: &Connection, id: i64) -> Result<Option<Entry>> {
    let mut stmt = conn.prepare_cached("SELECT id, at, judge, command_line, summary, via FROM audit WHERE id = ?1")?;
    let mut rows = stmt.query_map([id], entry_of)?;
    Ok(rows.next().transpose()?)
}

/// An entry from a row of `id, at, judge, command_line, summary, via`.
fn entry_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Entry> {
    Ok(Entry { id: r.get(0)?, at: r.get(1)?, judge: r.get(2)?, command: r.get(3)?, summary: r.get(4)?, via: r.get(5)? })
}
