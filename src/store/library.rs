//! Libraries and their cards.

use super::{LibraryId, PlayerId, PoolId};
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// A library: at a table and seat (fixed), or with a player (sealed).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Library {
    /// Row id.
    pub id: LibraryId,
    /// Table number (fixed libraries).
    pub table: Option<u32>,
    /// Seat 'A' or 'B' (fixed libraries).
    pub seat: Option<String>,
    /// The owner (sealed libraries).
    pub player: Option<PlayerId>,
    /// Cards in its Utopia library.
    pub utopia: u32,
}

impl Library {
    /// The library's name: table and seat ("3A"), or "sealed #id".
    pub fn label(&self) -> String {
        label_of(self.id, self.table, self.seat.as_deref())
    }
}

/// The label of the library `id` at `table` and `seat` (see [`Library::label`]).
pub fn label_of(id: LibraryId, table: Option<u32>, seat: Option<&str>) -> String {
    match (table, seat) {
        // Written by hand: a listing makes thousands of these, and `format!` costs more than the rest.
        (Some(t), Some(s)) => {
            let mut digits = [0u8; 10];
            let mut at = digits.len();
            let mut n = t;
            loop {
                at -= 1;
                digits[at] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            let mut label = String::with_capacity(digits.len() - at + s.len());
            label.extend(digits[at..].iter().map(|&d| char::from(d)));
            label.push_str(s);
            label
        }
        _ => format!("sealed #{}", id.0),
    }
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Library> {
    Ok(Library { id: r.get(0)?, table: r.get(1)?, seat: r.get(2)?, player: r.get(3)?, utopia: r.get(4)? })
}

/// Every library, by table and seat (sealed ones last).
pub fn all(conn: &Connection) -> Result<Vec<Library>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, table_no, seat, player_id, utopia FROM library ORDER BY table_no IS NULL, table_no, seat, id",
    )?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every library's label (see [`Library::label`]) by id, in no order: what a listing of the tables shows.
pub fn labels(conn: &Connection) -> Result<std::collections::HashMap<LibraryId, String>> {
    let mut stmt = conn.prepare_cached("SELECT id, table_no, seat FROM library")?;
    let rows = stmt.query_map([], |r| {
        let (id, table, seat): (LibraryId, Option<u32>, Option<String>) = (r.get(0)?, r.get(1)?, r.get(2)?);
        Ok((id, label_of(id, table, seat.as_deref())))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The fixed library at a table and seat.
pub fn at(conn: &Connection, table: u32, seat: &str) -> Result<Option<Library>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, table_no, seat, player_id, utopia FROM library WHERE table_no = ?1 AND seat = ?2",
    )?;
    Ok(stmt.query_row(params![table, seat], from_row).optional()?)
}

/// The sealed library of a player.
pub fn of_player(conn: &Connection, p: PlayerId) -> Result<Option<Library>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, table_no, seat, player_id, utopia FROM library WHERE player_id = ?1")?;
    Ok(stmt.query_row([p], from_row).optional()?)
}

/// Number of fixed library tables (tables with both seats built).
pub fn table_count(conn: &Connection) -> Result<u32> {
    let mut stmt = conn.prepare_cached("SELECT count(DISTINCT table_no) FROM library WHERE table_no IS NOT NULL")?;
    Ok(stmt.query_row([], |r| r.get(0))?)
}

/// The tables that have fixed libraries, in order.
pub fn fixed_tables(conn: &Connection) -> Result<Vec<u32>> {
    let mut stmt =
        conn.prepare_cached("SELECT DISTINCT table_no FROM library WHERE table_no IS NOT NULL ORDER BY table_no")?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Adds a library.
pub fn insert(
    conn: &Connection,
    table: Option<u32>,
    seat: Option<&str>,
    player: Option<PlayerId>,
    utopia: u32,
) -> Result<LibraryId> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO library (table_no, seat, player_id, utopia) VALUES (?1, ?2, ?3, ?4)")?;
    stmt.execute(params![table, seat, player, utopia])?;
    Ok(LibraryId(conn.last_insert_rowid()))
}

/// One physical card of a library (or of a sealed sideboard).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LibraryCard {
    /// The library it belongs to.
    pub library: LibraryId,
    /// Position in the library, from 1.
    pub position: u32,
    /// The pool card it was drawn from (None for a player's own sealed cards).
    pub pool_id: Option<PoolId>,
    /// Card name.
    pub name: String,
    /// Printed cost.
    pub mana_cost: Option<String>,
    /// Set aside in a sealed sideboard.
    pub sideboard: bool,
}

fn card_from_row(r: &Row<'_>) -> rusqlite::Result<LibraryCard> {
    Ok(LibraryCard {
        library: r.get(0)?,
        position: r.get(1)?,
        pool_id: r.get(2)?,
        name: r.get(3)?,
        mana_cost: r.get(4)?,
        sideboard: r.get(5)?,
    })
}

/// The cards of one library, by position.
pub fn cards(conn: &Connection, id: LibraryId) -> Result<Vec<LibraryCard>> {
    let mut stmt = conn.prepare_cached(
        "SELECT library_id, position, pool_id, name, mana_cost, sideboard FROM library_card
         WHERE library_id = ?1 ORDER BY position",
    )?;
    let rows = stmt.query_map([id], card_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every library card, by library and position.
pub fn all_cards(conn: &Connection) -> Result<Vec<LibraryCard>> {
    let mut stmt = conn.prepare_cached(
        "SELECT library_id, position, pool_id, name, mana_cost, sideboard FROM library_card
         ORDER BY library_id, position",
    )?;
    let rows = stmt.query_map([], card_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Adds a card to a library.
pub fn insert_card(conn: &Connection, card: &LibraryCard) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO library_card (library_id, position, pool_id, name, mana_cost, sideboard)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    stmt.execute(params![card.library, card.position, card.pool_id, card.name, card.mana_cost, card.sideboard])?;
    Ok(())
}

/// Puts another card at a library position (a judge's swap).
pub fn replace_card(conn: &Connection, card: &LibraryCard) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE library_card SET pool_id = ?3, name = ?4, mana_cost = ?5, sideboard = ?6
         WHERE library_id = ?1 AND position = ?2",
    )?;
    stmt.execute(params![card.library, card.position, card.pool_id, card.name, card.mana_cost, card.sideboard])?;
    Ok(())
}

/// Removes every card of a library.
pub fn clear_cards(conn: &Connection, id: LibraryId) -> Result<()> {
    let mut stmt = conn.prepare_cached("DELETE FROM library_card WHERE library_id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// Sets the size of a library's Utopia library.
pub fn set_utopia(conn: &Connection, id: LibraryId, utopia: u32) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE library SET utopia = ?2 WHERE id = ?1")?;
    stmt.execute(params![id, utopia])?;
    Ok(())
}

/// Deletes a library and its cards.
pub fn delete(conn: &Connection, id: LibraryId) -> Result<()> {
    clear_cards(conn, id)?;
    let mut stmt = conn.prepare_cached("DELETE FROM library WHERE id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// Whether any match has used this library.
pub fn in_matches(conn: &Connection, id: LibraryId) -> Result<bool> {
    let mut stmt = conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM match WHERE a_library = ?1 OR b_library = ?1)")?;
    Ok(stmt.query_row([id], |r| r.get(0))?)
}

/// Copies of each pool card that sit in libraries (pool cards with none are left out).
pub fn copies_in_use(conn: &Connection) -> Result<Vec<(PoolId, u32)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT pool_id, count(*) FROM library_card WHERE pool_id IS NOT NULL GROUP BY pool_id ORDER BY pool_id",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The libraries holding copies of a pool card, by table and seat.
pub fn holding(conn: &Connection, pool_id: PoolId) -> Result<Vec<Library>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT l.id, l.table_no, l.seat, l.player_id, l.utopia FROM library l
         JOIN library_card c ON c.library_id = l.id WHERE c.pool_id = ?1
         ORDER BY l.table_no IS NULL, l.table_no, l.seat, l.id",
    )?;
    let rows = stmt.query_map([pool_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every fixed library as (table, seat, id), by table and seat: the lean rows pairing needs.
pub fn fixed_seats(conn: &Connection) -> Result<Vec<(u32, String, LibraryId)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT table_no, seat, id FROM library WHERE table_no IS NOT NULL AND seat IS NOT NULL ORDER BY table_no, seat",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_table_and_seat_or_sealed() {
        for t in [0, 1, 9, 10, 99, 100, 4096, 65_535, u32::MAX] {
            assert_eq!(label_of(LibraryId(3), Some(t), Some("B")), format!("{t}B"));
        }
        assert_eq!(label_of(LibraryId(7), None, None), "sealed #7");
        assert_eq!(label_of(LibraryId(7), Some(2), None), "sealed #7");
    }
}
