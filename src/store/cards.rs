//! The card reference: cards, their faces, and binding-class keys.

use super::CardId;
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// A card of the reference.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Card {
    /// Row id.
    pub id: CardId,
    /// Oracle name ("Fire // Ice" for split cards, the front face for double-faced cards).
    pub name: String,
    /// Printed cost in braces (split: "{1}{R} // {1}{U}"); None when the card has no mana cost.
    pub mana_cost: Option<String>,
    /// Type line.
    pub type_line: String,
    /// Layout (normal, split, transform, adventure, ...).
    pub layout: String,
    /// A land card.
    pub is_land: bool,
    /// A basic land.
    pub is_basic: bool,
    /// Excluded kinds (joke, digital, ante, portal).
    pub kinds: Vec<String>,
}

/// One face of a multi-faced card.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Face {
    /// Face name.
    pub name: String,
    /// Face cost, if any.
    pub mana_cost: Option<String>,
    /// Face type line.
    pub type_line: String,
    /// Face rules text, if the reference has it.
    pub text: Option<String>,
    /// Power.
    pub power: Option<String>,
    /// Toughness.
    pub toughness: Option<String>,
    /// Loyalty.
    pub loyalty: Option<String>,
}

/// A card to insert.
#[derive(Debug, Clone)]
pub struct NewCard<'a> {
    /// Name.
    pub name: &'a str,
    /// Folded name (domain::names::fold).
    pub name_fold: &'a str,
    /// Cost text.
    pub mana_cost: Option<&'a str>,
    /// Type line.
    pub type_line: &'a str,
    /// Layout.
    pub layout: &'a str,
    /// Land card.
    pub is_land: bool,
    /// Basic land.
    pub is_basic: bool,
    /// Excluded kinds, space-separated.
    pub kinds: &'a str,
    /// Set codes, space-separated.
    pub sets: &'a str,
    /// Rules text (a multi-face card's faces joined by a `//` line); None when unknown.
    pub text: Option<&'a str>,
    /// Power.
    pub power: Option<&'a str>,
    /// Toughness.
    pub toughness: Option<&'a str>,
    /// Loyalty.
    pub loyalty: Option<&'a str>,
    /// Scryfall Oracle id.
    pub oracle_id: Option<&'a str>,
}

macro_rules! select_card {
    ($tail:literal) => {
        concat!(
            "SELECT c.id, c.name, c.mana_cost, c.type_line, c.layout, c.is_land, c.is_basic, c.kinds FROM card c ",
            $tail
        )
    };
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Card> {
    let kinds: String = r.get(7)?;
    Ok(Card {
        id: r.get(0)?,
        name: r.get(1)?,
        mana_cost: r.get(2)?,
        type_line: r.get(3)?,
        layout: r.get(4)?,
        is_land: r.get(5)?,
        is_basic: r.get(6)?,
        kinds: kinds.split_whitespace().map(String::from).collect(),
    })
}

/// Deletes the whole reference (faces and keys go with it).
pub fn clear(conn: &Connection) -> Result<()> {
    conn.execute_batch("DELETE FROM card_key; DELETE FROM card_face; DELETE FROM card_ruling; DELETE FROM card;")?;
    Ok(())
}

/// Inserts a card.
pub fn insert(conn: &Connection, c: &NewCard<'_>) -> Result<CardId> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO card (name, name_fold, mana_cost, type_line, layout, is_land, is_basic, kinds, sets,
                           text, power, toughness, loyalty, oracle_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?;
    stmt.execute(params![
        c.name,
        c.name_fold,
        c.mana_cost,
        c.type_line,
        c.layout,
        c.is_land,
        c.is_basic,
        c.kinds,
        c.sets,
        c.text,
        c.power,
        c.toughness,
        c.loyalty,
        c.oracle_id
    ])?;
    Ok(CardId(conn.last_insert_rowid()))
}

/// Inserts a face of a card.
pub fn insert_face(conn: &Connection, card: CardId, idx: usize, face: &Face) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO card_face (card_id, idx, name, mana_cost, type_line, text, power, toughness, loyalty)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    let f = face;
    stmt.execute(params![card, idx as i64, f.name, f.mana_cost, f.type_line, f.text, f.power, f.toughness, f.loyalty])?;
    Ok(())
}

/// Inserts a binding-class key of a card under a rule.
pub fn insert_key(conn: &Connection, rule: &str, key: &str, card: CardId, combined_only: bool) -> Result<()> {
    let mut stmt = conn
        .prepare_cached("INSERT OR IGNORE INTO card_key (rule, key, card_id, combined_only) VALUES (?1, ?2, ?3, ?4)")?;
    stmt.execute(params![rule, key, card, combined_only])?;
    Ok(())
}

/// Number of cards in the reference.
pub fn count(conn: &Connection) -> Result<u32> {
    let mut stmt = conn.prepare_cached("SELECT count(*) FROM card")?;
    Ok(stmt.query_row([], |r| r.get(0))?)
}

/// The card with exactly this name (case-insensitive), if any.
pub fn by_name(conn: &Connection, name: &str) -> Result<Option<Card>> {
    let mut stmt = conn.prepare_cached(select_card!("WHERE c.name = ?1 COLLATE NOCASE"))?;
    Ok(stmt.query_row([name], from_row).optional()?)
}

/// Cards whose folded name is exactly `fold`.
pub fn by_fold(conn: &Connection, fold: &str) -> Result<Vec<Card>> {
    let mut stmt = conn.prepare_cached(select_card!("WHERE c.name_fold = ?1 ORDER BY c.name"))?;
    let rows = stmt.query_map([fold], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One card by id.
pub fn get(conn: &Connection, id: CardId) -> Result<Card> {
    let mut stmt = conn.prepare_cached(select_card!("WHERE c.id = ?1"))?;
    Ok(stmt.query_row([id], from_row)?)
}

/// The faces of a card, in order (empty for ordinary cards).
pub fn faces(conn: &Connection, id: CardId) -> Result<Vec<Face>> {
    let mut stmt = conn.prepare_cached(
        "SELECT name, mana_cost, type_line, text, power, toughness, loyalty FROM card_face WHERE card_id = ?1 ORDER BY idx",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok(Face {
            name: r.get(0)?,
            mana_cost: r.get(1)?,
            type_line: r.get(2)?,
            text: r.get(3)?,
            power: r.get(4)?,
            toughness: r.get(5)?,
            loyalty: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The id, name and folded name of the cards whose folded name passes `keep` (evaluated inside SQLite, so
/// the names that fail are never copied out).
pub fn names_where(
    conn: &Connection,
    keep: impl Fn(&str) -> bool + Send + 'static,
) -> Result<Vec<(CardId, String, String)>> {
    use rusqlite::functions::FunctionFlags;
    conn.create_scalar_function(
        "mm_keep",
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        move |ctx| {
            let folded = ctx.get_raw(0).as_str().unwrap_or("");
            Ok(keep(folded))
        },
    )?;
    let rows = (|| {
        let mut stmt = conn.prepare("SELECT id, name, name_fold FROM card WHERE mm_keep(name_fold) ORDER BY id")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
    })();
    conn.remove_function("mm_keep", 1)?;
    Ok(rows?)
}

/// The card id, card name and face name of the faces whose name passes `keep` (evaluated inside SQLite, so
/// the faces that fail are never copied out).
pub fn faces_where(
    conn: &Connection,
    keep: impl Fn(&str) -> bool + Send + 'static,
) -> Result<Vec<(CardId, String, String)>> {
    use rusqlite::functions::FunctionFlags;
    conn.create_scalar_function(
        "mm_keep_face",
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        move |ctx| Ok(keep(ctx.get_raw(0).as_str().unwrap_or(""))),
    )?;
    let rows = (|| {
        let mut stmt = conn.prepare(
            "SELECT f.card_id, c.name, f.name FROM card_face f JOIN card c ON c.id = f.card_id
             WHERE mm_keep_face(f.name) ORDER BY f.card_id, f.idx",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
    })();
    conn.remove_function("mm_keep_face", 1)?;
    Ok(rows?)
}

/// Every card's id, name and folded name (for bulk lookups of many names at once).
pub fn names(conn: &Connection) -> Result<Vec<(CardId, String, String)>> {
    let mut stmt = conn.prepare_cached("SELECT id, name, name_fold FROM card ORDER BY id")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The cards sharing any of `keys` under `rule` (a binding class), by name. Keys that exist only through a
/// split card's combined cost count only when `combined` is true.
pub fn class(conn: &Connection, rule: &str, keys: &[String], combined: bool) -> Result<Vec<Card>> {
    let keys_json = serde_json::to_string(keys).unwrap_or_else(|_| "[]".into());
    let mut stmt = conn.prepare_cached(select_card!(
        "WHERE c.id IN (SELECT k.card_id FROM card_key k
                        WHERE k.rule = ?1 AND k.key IN (SELECT value FROM json_each(?2))
                          AND (k.combined_only = 0 OR ?3))
         ORDER BY c.name"
    ))?;
    let rows = stmt.query_map(params![rule, keys_json, combined], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many cards share any of `keys` under `rule` (banned cards and excluded kinds included): a cheap upper
/// bound of a binding class's size.
pub fn class_count(conn: &Connection, rule: &str, keys: &[String], combined: bool) -> Result<u32> {
    let keys_json = serde_json::to_string(keys).unwrap_or_else(|_| "[]".into());
    let mut stmt = conn.prepare_cached(
        "SELECT count(DISTINCT k.card_id) FROM card_key k
         WHERE k.rule = ?1 AND k.key IN (SELECT value FROM json_each(?2)) AND (k.combined_only = 0 OR ?3)",
    )?;
    Ok(stmt.query_row(params![rule, keys_json, combined], |r| r.get(0))?)
}
