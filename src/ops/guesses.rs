//! Whom a guess is aimed at, and what it spent (see `web::kit::limit` for the rules and their arithmetic): a
//! judge's PIN is aimed at the judge, a code at a table at both its players, a check-in's code at the player the
//! name finds. A name that finds nobody (or several) has no target: it is counted per address.

use crate::error::Result;
use crate::store::{Store, guesses};
use rusqlite::Connection;

/// The judge a login's name finds (their target), if any.
pub fn judge(conn: &Connection, name: &str) -> Result<Option<String>> {
    let key = crate::domain::names::key(name);
    Ok(crate::store::judges::by_key(conn, &key)?.map(|j| guesses::judge(j.id)))
}

/// The two players seated at the table in the current round (their targets); none when no such table.
pub fn table(conn: &Connection, table: u32) -> Result<Vec<String>> {
    Ok(match super::table::Seated::at(conn, table, None) {
        Ok(s) => vec![guesses::player(s.a.id.0), guesses::player(s.b.id.0)],
        Err(_) => Vec::new(),
    })
}

/// The one player a check-in's name finds (their target); none when it finds nobody or several.
pub fn name(conn: &Connection, name: &str) -> Result<Option<String>> {
    Ok(super::player_names::find(conn, name).ok().map(|p| guesses::player(p.id.0)))
}

/// Each target's count (wrong tries still counted, when the last was counted in Unix milliseconds).
pub fn levels(conn: &Connection, targets: &[String]) -> Result<Vec<Option<(f64, i64)>>> {
    targets.iter().map(|t| guesses::level(conn, t)).collect()
}

/// Whether the device (its cookie's hash) succeeded for any of the targets.
pub fn known(conn: &Connection, targets: &[String], device: &str) -> Result<bool> {
    for t in targets {
        if guesses::known(conn, t, device)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Counts one wrong try against each target, in one transaction: `next` gives a target's new count from its
/// old one. Neither audited nor announced (the replication carries it to a standby).
pub fn spend(store: &mut Store, targets: &[String], next: impl Fn(Option<(f64, i64)>) -> (f64, i64)) -> Result<()> {
    store.lower_half(|tx| {
        for t in targets {
            let (level, at) = next(guesses::level(tx, t)?);
            guesses::set_level(tx, t, level, at)?;
        }
        Ok(())
    })
}

/// Records that the device succeeded for the targets (once each).
pub fn know(store: &mut Store, targets: &[String], device: &str) -> Result<()> {
    store.lower_half(|tx| {
        for t in targets {
            guesses::know(tx, t, device)?;
        }
        Ok(())
    })
}
