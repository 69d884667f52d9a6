//! Rounds (the spine only needs the current round number; pairing adds the rest).

use crate::error::Result;
use rusqlite::Connection;

/// The number of the latest paired round, or 0 before round 1 is paired.
pub fn current(conn: &Connection) -> Result<u32> {
    let mut stmt = conn.prepare_cached("SELECT coalesce(max(number), 0) FROM round")?;
    Ok(stmt.query_row([], |r| r.get(0))?)
}
