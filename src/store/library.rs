//! Libraries and their cards.

use super::{LibraryId, PlayerId};
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
        match (self.table, &self.seat) {
            (Some(t), Some(s)) => format!("{t}{s}"),
            _ => format!("sealed #{}", self.id.0),
        }
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

/// Every fixed library as (table, seat, id), by table and seat: the lean rows pairing needs.
pub fn fixed_seats(conn: &Connection) -> Result<Vec<(u32, String, LibraryId)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT table_no, seat, id FROM library WHERE table_no IS NOT NULL AND seat IS NOT NULL ORDER BY table_no, seat",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
