//! The event's ban list.

use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// A banned card.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Ban {
    /// Card name.
    pub card: String,
    /// Ban group slug (ante-dexterity, deck-stacking, mass-reanimation, too-powerful, or a judge's own).
    pub group: String,
    /// Why.
    pub reason: String,
}

/// The whole list, by group then name.
pub fn all(conn: &Connection) -> Result<Vec<Ban>> {
    let mut stmt = conn.prepare_cached("SELECT card_name, grp, reason FROM ban ORDER BY grp, card_name")?;
    let rows = stmt.query_map([], |r| Ok(Ban { card: r.get(0)?, group: r.get(1)?, reason: r.get(2)? }))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The ban on a card, if any (case-insensitive).
pub fn get(conn: &Connection, card: &str) -> Result<Option<Ban>> {
    let mut stmt = conn.prepare_cached("SELECT card_name, grp, reason FROM ban WHERE card_name = ?1")?;
    Ok(stmt.query_row([card], |r| Ok(Ban { card: r.get(0)?, group: r.get(1)?, reason: r.get(2)? })).optional()?)
}

/// Bans a card (replacing an earlier ban of it).
pub fn add(conn: &Connection, ban: &Ban) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO ban (card_name, grp, reason) VALUES (?1, ?2, ?3)
         ON CONFLICT(card_name) DO UPDATE SET grp = excluded.grp, reason = excluded.reason",
    )?;
    stmt.execute(params![ban.card, ban.group, ban.reason])?;
    Ok(())
}

/// Lifts a ban; returns whether there was one.
pub fn remove(conn: &Connection, card: &str) -> Result<bool> {
    let mut stmt = conn.prepare_cached("DELETE FROM ban WHERE card_name = ?1")?;
    Ok(stmt.execute([card])? > 0)
}
