//! The event's settings (key/value).

use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// One setting's stored value.
pub fn get(conn: &Connection, key: &str) -> Result<Option<String>> {
    let mut stmt = conn.prepare_cached("SELECT value FROM setting WHERE key = ?1")?;
    Ok(stmt.query_row([key], |r| r.get(0)).optional()?)
}

/// Stores a setting (insert or replace).
pub fn set(conn: &Connection, key: &str, value: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO setting (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    )?;
    stmt.execute(params![key, value])?;
    Ok(())
}

/// Every stored setting as (key, value).
pub fn all(conn: &Connection) -> Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached("SELECT key, value FROM setting ORDER BY key")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every setting with defaults filled in.
pub fn values(conn: &Connection) -> Result<crate::domain::settings::Values> {
    Ok(crate::domain::settings::Values(all(conn)?.into_iter().collect()))
}
