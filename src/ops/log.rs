//! The audit log: every write, who made it and when.

use crate::error::Result;
use crate::ops::player_names::find;
use crate::store::audit::{self, Entry};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// `log [--player NAME] [--since WHEN]`: the audit entries, optionally those concerning one player (as
/// typed) and those since a moment.
pub fn log(conn: &Connection, player: Option<&str>, since: Option<DateTime<Utc>>) -> Result<Vec<Entry>> {
    let player = match player {
        Some(p) => Some(find(conn, p)?.id),
        None => None,
    };
    let since = since.map(crate::time::stamp);
    audit::list(conn, player, since.as_deref())
}

/// One entry by its id (a page names the entry of the write it answers: `?done=ID`).
pub fn entry(conn: &Connection, id: i64) -> Result<Option<Entry>> {
    audit::get(conn, id)
}
