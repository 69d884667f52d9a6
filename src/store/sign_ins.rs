//! The key that signs players' sign-ins on their table's own device (see
//! [`crate::ops::table::device::sign_in`]).

use crate::error::Result;
use rusqlite::Connection;

/// The event's sign-in key.
pub fn key(conn: &Connection) -> Result<String> {
    let mut stmt = conn.prepare_cached("SELECT key FROM sign_in_key WHERE one = 1")?;
    Ok(stmt.query_row([], |r| r.get(0))?)
}
