//! Write keys: the first outcome of a write sent with a key (see `migrations/write_keys.sql`), so that a
//! repeat is answered again and recorded nothing more. The key is recorded by [`super::Store::write`] in the
//! write's own transaction (a write and its key commit together); the answer is kept right after.

use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// A key a write was sent with: who sent it, through which route, the key, and a fingerprint of the fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteKey {
    /// Who sent it (a judge's name, or a player as the audit names them).
    pub scope: String,
    /// The route (`POST /api/note`).
    pub route: String,
    /// The key as sent.
    pub key: String,
    /// A fingerprint of the fields sent.
    pub body: String,
}

/// What a key recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// The fingerprint of the fields first sent with it.
    pub body: String,
    /// The status answered (None: the answer was never kept).
    pub status: Option<u16>,
    /// The JSON answered (None: the answer was never kept).
    pub answer: Option<String>,
    /// The summary of the write it made (the audit's).
    pub summary: String,
}

/// What `key` recorded, if it was used.
pub fn find(conn: &Connection, key: &WriteKey) -> Result<Option<Kept>> {
    let mut stmt = conn.prepare_cached(
        "SELECT k.body, k.status, k.answer, coalesce(a.summary, '') FROM write_key k
         LEFT JOIN audit a ON a.id = k.audit_id WHERE k.scope = ?1 AND k.route = ?2 AND k.key = ?3",
    )?;
    let row = stmt
        .query_row(params![key.scope, key.route, key.key], |r| {
            Ok(Kept { body: r.get(0)?, status: r.get(1)?, answer: r.get(2)?, summary: r.get(3)? })
        })
        .optional()?;
    Ok(row)
}

/// Records `key` as used by the write of audit entry `audit_id` (inside that write's transaction); a key used
/// already fails the write (its transaction rolls back).
pub fn record(conn: &Connection, key: &WriteKey, audit_id: i64) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO write_key (scope, route, key, body, audit_id) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    stmt.execute(params![key.scope, key.route, key.key, key.body, audit_id])?;
    Ok(())
}

/// Keeps what was answered for `key`.
pub fn keep_answer(conn: &Connection, key: &WriteKey, status: u16, answer: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE write_key SET status = ?4, answer = ?5 WHERE scope = ?1 AND route = ?2 AND key = ?3",
    )?;
    stmt.execute(params![key.scope, key.route, key.key, status, answer])?;
    Ok(())
}
