//! Judges who log in to the live server, and their sessions.

use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// A judge as stored (the PIN only as its argon2 hash).
#[derive(Debug, Clone)]
pub struct Judge {
    /// Row id.
    pub id: i64,
    /// The name as typed when added.
    pub name: String,
    /// `floor` or `head`.
    pub role: String,
    /// The PIN's argon2 hash (PHC string).
    pub pin_hash: String,
    /// When added (RFC 3339).
    pub created: String,
}

fn judge_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Judge> {
    Ok(Judge { id: r.get(0)?, name: r.get(1)?, role: r.get(2)?, pin_hash: r.get(3)?, created: r.get(4)? })
}

/// Adds a judge; returns the id.
pub fn insert(conn: &Connection, name: &str, key: &str, role: &str, pin_hash: &str, created: &str) -> Result<i64> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO judge (name, name_key, role, pin_hash, created) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    stmt.execute(params![name, key, role, pin_hash, created])?;
    Ok(conn.last_insert_rowid())
}

/// The judge with this name key, if any.
pub fn by_key(conn: &Connection, key: &str) -> Result<Option<Judge>> {
    let mut stmt = conn.prepare_cached("SELECT id, name, role, pin_hash, created FROM judge WHERE name_key = ?1")?;
    Ok(stmt.query_row([key], judge_row).optional()?)
}

/// Every judge, by name.
pub fn all(conn: &Connection) -> Result<Vec<Judge>> {
    let mut stmt = conn.prepare_cached("SELECT id, name, role, pin_hash, created FROM judge ORDER BY name_key")?;
    let rows = stmt.query_map([], judge_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many judges have this role.
pub fn count_role(conn: &Connection, role: &str) -> Result<i64> {
    let mut stmt = conn.prepare_cached("SELECT COUNT(*) FROM judge WHERE role = ?1")?;
    Ok(stmt.query_row([role], |r| r.get(0))?)
}

/// Replaces a judge's PIN hash; the new PIN starts with a fresh count of wrong tries.
pub fn set_pin(conn: &Connection, id: i64, pin_hash: &str) -> Result<()> {
    conn.prepare_cached("UPDATE judge SET pin_hash = ?2 WHERE id = ?1")?.execute(params![id, pin_hash])?;
    super::guesses::forget(conn, &super::guesses::judge(id))
}

/// Removes a judge (their sessions go with them).
pub fn delete(conn: &Connection, id: i64) -> Result<()> {
    conn.prepare_cached("DELETE FROM judge WHERE id = ?1")?.execute([id])?;
    Ok(())
}

/// Ends every session of a judge; returns how many there were.
pub fn end_sessions(conn: &Connection, judge: i64) -> Result<usize> {
    Ok(conn.prepare_cached("DELETE FROM judge_session WHERE judge_id = ?1")?.execute([judge])?)
}

/// Ends every judge's session (a promoted standby: judges log in again there).
pub fn end_every_session(conn: &Connection) -> Result<usize> {
    Ok(conn.prepare_cached("DELETE FROM judge_session")?.execute([])?)
}

/// Sessions of a judge still valid at `now` (RFC 3339).
pub fn live_sessions(conn: &Connection, judge: i64, now: &str) -> Result<i64> {
    let mut stmt = conn.prepare_cached("SELECT count(*) FROM judge_session WHERE judge_id = ?1 AND expires > ?2")?;
    Ok(stmt.query_row(params![judge, now], |r| r.get(0))?)
}

/// A session as stored.
#[derive(Debug, Clone)]
pub struct Session {
    /// The judge.
    pub judge: Judge,
    /// The form token of this session.
    pub csrf: String,
    /// When it ends (RFC 3339).
    pub expires: String,
}

/// Starts a session; sessions that ended before `now` are swept at the same time.
pub fn start_session(
    conn: &Connection,
    token_hash: &str,
    judge: i64,
    csrf: &str,
    now: &str,
    expires: &str,
) -> Result<()> {
    conn.prepare_cached("DELETE FROM judge_session WHERE expires <= ?1")?.execute([now])?;
    let mut stmt = conn.prepare_cached(
        "INSERT INTO judge_session (token_hash, judge_id, csrf, created, expires) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    stmt.execute(params![token_hash, judge, csrf, now, expires])?;
    Ok(())
}

/// The session with this token hash, if any (expired or not: the caller compares `expires`).
pub fn session(conn: &Connection, token_hash: &str) -> Result<Option<Session>> {
    let mut stmt = conn.prepare_cached(
        "SELECT j.id, j.name, j.role, j.pin_hash, j.created, s.csrf, s.expires
         FROM judge_session s JOIN judge j ON j.id = s.judge_id WHERE s.token_hash = ?1",
    )?;
    let found =
        stmt.query_row([token_hash], |r| Ok(Session { judge: judge_row(r)?, csrf: r.get(5)?, expires: r.get(6)? }));
    Ok(found.optional()?)
}

/// Ends one session; returns whether it existed.
pub fn end_session(conn: &Connection, token_hash: &str) -> Result<bool> {
    Ok(conn.prepare_cached("DELETE FROM judge_session WHERE token_hash = ?1")?.execute([token_hash])? > 0)
}

/// Records a one-time login link for a judge (its token's hash and end).
pub fn insert_link(conn: &Connection, token_hash: &str, judge: i64, now: &str, expires: &str) -> Result<()> {
    conn.prepare_cached("DELETE FROM login_link WHERE expires <= ?1")?.execute([now])?;
    let mut stmt =
        conn.prepare_cached("INSERT INTO login_link (token_hash, judge_id, created, expires) VALUES (?1, ?2, ?3, ?4)")?;
    stmt.execute(params![token_hash, judge, now, expires])?;
    Ok(())
}

/// Takes a login link for the judge `key` at `now`: the judge when the link is theirs, unused and not ended
/// (it is marked used); none otherwise.
pub fn take_link(conn: &Connection, token_hash: &str, key: &str, now: &str) -> Result<Option<Judge>> {
    let mut stmt = conn.prepare_cached(
        "UPDATE login_link SET used = ?3
         WHERE token_hash = ?1 AND used IS NULL AND expires > ?3
           AND judge_id = (SELECT id FROM judge WHERE name_key = ?2)
         RETURNING judge_id",
    )?;
    let id: Option<i64> = stmt.query_row(params![token_hash, key, now], |r| r.get(0)).optional()?;
    match id {
        None => Ok(None),
        Some(_) => by_key(conn, key),
    }
}
