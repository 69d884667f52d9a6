//! The judges' physical card pool and their watch list.

use super::PoolId;
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// One distinct card of the pool with its number of physical copies.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PoolCard {
    /// Row id.
    pub id: PoolId,
    /// Card name (the reference's spelling when the reference knows it).
    pub name: String,
    /// Printed cost in braces (`{1}{B}`, split cards `{1}{R} // {1}{U}`); None when the card has none.
    pub mana_cost: Option<String>,
    /// Type line.
    pub type_line: String,
    /// Physical copies.
    pub copies: u32,
    /// A land (kept apart from the spells that fill main libraries).
    pub is_land: bool,
    /// Left out of library building by a judge (`pool exclude`).
    pub excluded: bool,
    /// The card reference knows the name.
    pub known: bool,
}

impl PoolCard {
    /// A basic land (its copies can go to Utopia libraries).
    pub fn is_basic(&self) -> bool {
        self.is_land && self.type_line.starts_with("Basic")
    }
}

/// A card to add to the pool.
#[derive(Debug, Clone)]
pub struct NewPoolCard<'a> {
    /// Name.
    pub name: &'a str,
    /// Printed cost.
    pub mana_cost: Option<&'a str>,
    /// Type line.
    pub type_line: &'a str,
    /// Copies.
    pub copies: u32,
    /// A land.
    pub is_land: bool,
    /// Known to the reference.
    pub known: bool,
}

macro_rules! select_pool {
    ($tail:literal) => {
        concat!("SELECT id, name, mana_cost, type_line, copies, is_land, excluded, known FROM pool_card ", $tail)
    };
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<PoolCard> {
    Ok(PoolCard {
        id: r.get(0)?,
        name: r.get(1)?,
        mana_cost: r.get(2)?,
        type_line: r.get(3)?,
        copies: r.get(4)?,
        is_land: r.get(5)?,
        excluded: r.get(6)?,
        known: r.get(7)?,
    })
}

/// Every pool card, by name.
pub fn all(conn: &Connection) -> Result<Vec<PoolCard>> {
    let mut stmt = conn.prepare_cached(select_pool!("ORDER BY name COLLATE NOCASE"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The pool card with exactly this name (case-insensitive), if any.
pub fn by_name(conn: &Connection, name: &str) -> Result<Option<PoolCard>> {
    let mut stmt = conn.prepare_cached(select_pool!("WHERE name = ?1"))?;
    Ok(stmt.query_row([name], from_row).optional()?)
}

/// One pool card by id.
pub fn get(conn: &Connection, id: PoolId) -> Result<Option<PoolCard>> {
    let mut stmt = conn.prepare_cached(select_pool!("WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

/// Adds a card to the pool.
pub fn insert(conn: &Connection, c: &NewPoolCard<'_>) -> Result<PoolId> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO pool_card (name, mana_cost, type_line, copies, is_land, known) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    stmt.execute(params![c.name, c.mana_cost, c.type_line, c.copies, c.is_land, c.known])?;
    Ok(PoolId(conn.last_insert_rowid()))
}

/// Sets a pool card's number of copies.
pub fn set_copies(conn: &Connection, id: PoolId, copies: u32) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE pool_card SET copies = ?2 WHERE id = ?1")?;
    stmt.execute(params![id, copies])?;
    Ok(())
}

/// Marks a pool card as excluded from library building, or includes it again.
pub fn set_excluded(conn: &Connection, id: PoolId, excluded: bool) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE pool_card SET excluded = ?2 WHERE id = ?1")?;
    stmt.execute(params![id, excluded])?;
    Ok(())
}

/// Deletes a pool card (none of its copies may be in a library).
pub fn delete(conn: &Connection, id: PoolId) -> Result<()> {
    let mut stmt = conn.prepare_cached("DELETE FROM pool_card WHERE id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// Empties the pool (no library may hold a copy).
pub fn clear(conn: &Connection) -> Result<()> {
    conn.execute_batch("DELETE FROM pool_card;")?;
    Ok(())
}

/// A card on the judges' watch list.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Watched {
    /// Card name.
    pub card: String,
    /// Why the judges watch it.
    pub note: String,
}

/// The whole watch list, by name.
pub fn watch_list(conn: &Connection) -> Result<Vec<Watched>> {
    let mut stmt = conn.prepare_cached("SELECT card_name, note FROM watch ORDER BY card_name")?;
    let rows = stmt.query_map([], |r| Ok(Watched { card: r.get(0)?, note: r.get(1)? }))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Adds a card to the watch list (replacing its note if already there).
pub fn watch_add(conn: &Connection, w: &Watched) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO watch (card_name, note) VALUES (?1, ?2) ON CONFLICT(card_name) DO UPDATE SET note = excluded.note",
    )?;
    stmt.execute(params![w.card, w.note])?;
    Ok(())
}

/// Takes a card off the watch list; returns whether it was there.
pub fn watch_remove(conn: &Connection, card: &str) -> Result<bool> {
    let mut stmt = conn.prepare_cached("DELETE FROM watch WHERE card_name = ?1")?;
    Ok(stmt.execute([card])? > 0)
}
