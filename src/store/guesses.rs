//! What a phone may still guess (see `migrations/guesses.sql`): each target's count of wrong tries, and the
//! devices that succeeded for it.

use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// A target's count: the wrong tries still counted and when the last one was counted (Unix milliseconds).
pub fn level(conn: &Connection, target: &str) -> Result<Option<(f64, i64)>> {
    let mut stmt = conn.prepare_cached("SELECT level, at_ms FROM guess_budget WHERE target = ?1")?;
    Ok(stmt.query_row([target], |r| Ok((r.get(0)?, r.get(1)?))).optional()?)
}

/// Sets a target's count.
pub fn set_level(conn: &Connection, target: &str, level: f64, at_ms: i64) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO guess_budget (target, level, at_ms) VALUES (?1, ?2, ?3)
         ON CONFLICT(target) DO UPDATE SET level = excluded.level, at_ms = excluded.at_ms",
    )?;
    stmt.execute(params![target, level, at_ms])?;
    Ok(())
}

/// A new secret for the target: its count and its devices are forgotten.
pub fn forget(conn: &Connection, target: &str) -> Result<()> {
    conn.prepare_cached("DELETE FROM guess_budget WHERE target = ?1")?.execute([target])?;
    conn.prepare_cached("DELETE FROM guess_device WHERE target = ?1")?.execute([target])?;
    Ok(())
}

/// What the target's secret is now (a player's code, a judge's PIN hash); None for a target with none. Read only
/// to tell one secret from the next (see `ops::guesses::mark`), never shown.
pub fn secret(conn: &Connection, target: &str) -> Result<Option<String>> {
    let sql = if let Some(id) = target.strip_prefix("player ") {
        (id, "SELECT code FROM player_code WHERE player_id = ?1")
    } else if let Some(id) = target.strip_prefix("judge ") {
        (id, "SELECT pin_hash FROM judge WHERE id = ?1")
    } else {
        return Ok(None);
    };
    let Ok(id) = sql.0.parse::<i64>() else { return Ok(None) };
    let mut stmt = conn.prepare_cached(sql.1)?;
    Ok(stmt.query_row([id], |r| r.get(0)).optional()?)
}

/// Whether the device (its cookie's hash) succeeded for the target.
pub fn known(conn: &Connection, target: &str, device: &str) -> Result<bool> {
    let mut stmt = conn.prepare_cached("SELECT 1 FROM guess_device WHERE target = ?1 AND device = ?2")?;
    Ok(stmt.exists(params![target, device])?)
}

/// How many devices the file keeps for one target: the newest (a weekend's phone, a spare, a table's device a
/// round), so that the file holds at most this many rows a player or judge, however many cookies are made.
pub const DEVICES: usize = 12;

/// Records that the device (its cookie's hash) succeeded for the target, forgetting the target's oldest beyond
/// [`DEVICES`]; a device already recorded writes nothing.
pub fn know(conn: &Connection, target: &str, device: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached("INSERT OR IGNORE INTO guess_device (target, device) VALUES (?1, ?2)")?;
    if stmt.execute(params![target, device])? == 0 {
        return Ok(());
    }
    let mut stmt = conn.prepare_cached(
        "DELETE FROM guess_device WHERE target = ?1 AND rowid NOT IN
           (SELECT rowid FROM guess_device WHERE target = ?1 ORDER BY rowid DESC LIMIT ?2)",
    )?;
    stmt.execute(params![target, DEVICES as i64])?;
    Ok(())
}

/// How many devices the file keeps for the target.
pub fn devices(conn: &Connection, target: &str) -> Result<usize> {
    let mut stmt = conn.prepare_cached("SELECT count(*) FROM guess_device WHERE target = ?1")?;
    Ok(stmt.query_row([target], |r| r.get::<_, i64>(0))? as usize)
}

/// A judge's target.
pub fn judge(id: i64) -> String {
    format!("judge {id}")
}

/// A player's target.
pub fn player(id: i64) -> String {
    format!("player {id}")
}
