//! What cards say: rules text, power/toughness, loyalty, official rulings, and the full-text index
//! (`card_fts`, SQLite FTS5) over names and texts.

use super::CardId;
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// The text fields of a card row.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Details {
    /// Rules text (multi-face cards: every face, joined by a `//` line); None when the reference has none.
    pub text: Option<String>,
    /// Power.
    pub power: Option<String>,
    /// Toughness.
    pub toughness: Option<String>,
    /// Loyalty.
    pub loyalty: Option<String>,
    /// Scryfall Oracle id.
    pub oracle_id: Option<String>,
}

/// One official ruling of a card.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Ruling {
    /// Date, `YYYY-MM-DD`.
    pub date: String,
    /// Text.
    pub text: String,
}

/// The text fields of a card.
pub fn details(conn: &Connection, id: CardId) -> Result<Details> {
    let mut stmt = conn.prepare_cached("SELECT text, power, toughness, loyalty, oracle_id FROM card WHERE id = ?1")?;
    Ok(stmt.query_row([id], |r| {
        Ok(Details {
            text: r.get(0)?,
            power: r.get(1)?,
            toughness: r.get(2)?,
            loyalty: r.get(3)?,
            oracle_id: r.get(4)?,
        })
    })?)
}

/// A card's rulings, oldest first.
pub fn rulings(conn: &Connection, id: CardId) -> Result<Vec<Ruling>> {
    let mut stmt = conn.prepare_cached("SELECT date, text FROM card_ruling WHERE card_id = ?1 ORDER BY idx")?;
    let rows = stmt.query_map([id], |r| Ok(Ruling { date: r.get(0)?, text: r.get(1)? }))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Replaces a card's rulings.
pub fn set_rulings(conn: &Connection, id: CardId, rulings: &[Ruling]) -> Result<()> {
    conn.prepare_cached("DELETE FROM card_ruling WHERE card_id = ?1")?.execute([id])?;
    let mut stmt = conn.prepare_cached("INSERT INTO card_ruling (card_id, idx, date, text) VALUES (?1, ?2, ?3, ?4)")?;
    for (i, r) in rulings.iter().enumerate() {
        stmt.execute(params![id, i as i64, r.date, r.text])?;
    }
    Ok(())
}

/// The id of the card with exactly this name.
pub fn id_by_name(conn: &Connection, name: &str) -> Result<Option<CardId>> {
    let mut stmt = conn.prepare_cached("SELECT id FROM card WHERE name = ?1")?;
    Ok(stmt.query_row([name], |r| r.get(0)).optional()?)
}

/// Removes one card (its faces, keys, rulings and index entry go with it).
pub fn remove(conn: &Connection, id: CardId) -> Result<()> {
    for sql in [
        "DELETE FROM card_key WHERE card_id = ?1",
        "DELETE FROM card_face WHERE card_id = ?1",
        "DELETE FROM card_ruling WHERE card_id = ?1",
        "DELETE FROM card WHERE id = ?1",
    ] {
        conn.prepare_cached(sql)?.execute([id])?;
    }
    Ok(())
}

/// Every Oracle id of the reference with its card ids.
pub fn oracle_ids(conn: &Connection) -> Result<Vec<(String, CardId)>> {
    let mut stmt = conn.prepare_cached("SELECT oracle_id, id FROM card WHERE oracle_id IS NOT NULL")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Whether any card of the reference has rules text (stops at the first).
pub fn has_text(conn: &Connection) -> Result<bool> {
    let mut stmt = conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM card WHERE text IS NOT NULL)")?;
    Ok(stmt.query_row([], |r| r.get(0))?)
}

/// A text-search hit.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TextHit {
    /// The card.
    pub id: CardId,
    /// FTS5's bm25 rank (lower is better).
    pub rank: f64,
    /// The text around the matches, matching words between `«` and `»`.
    pub snippet: String,
}

/// Where a text search looks: the whole reference, or the cards sharing a binding key.
#[derive(Debug, Clone, Default)]
pub struct TextFilter<'a> {
    /// Binding rule and keys of a class (and whether combined split costs count).
    pub class: Option<(&'a str, &'a [String], bool)>,
}

/// The best cards for an FTS5 query (over the `text` and `type_line` columns), best first, with the snippets
/// of those only (a snippet is costly to build).
pub fn search(conn: &Connection, fts_query: &str, filter: &TextFilter<'_>, limit: usize) -> Result<Vec<TextHit>> {
    let ranked: Vec<(CardId, f64)> = match filter.class {
        None => {
            let mut stmt = conn.prepare_cached(
                "SELECT rowid, bm25(card_fts, 0.0, 0.0, 1.0) AS score FROM card_fts WHERE card_fts MATCH ?1
                 ORDER BY score, rowid LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![fts_query, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<rusqlite::Result<_>>()?
        }
        Some((rule, keys, combined)) => {
            let keys_json = serde_json::to_string(keys).unwrap_or_else(|_| "[]".into());
            let mut stmt = conn.prepare_cached(
                "SELECT DISTINCT card_id FROM card_key
                 WHERE rule = ?1 AND key IN (SELECT value FROM json_each(?2)) AND (combined_only = 0 OR ?3)",
            )?;
            let rows = stmt.query_map(params![rule, keys_json, combined], |r| r.get::<_, CardId>(0))?;
            let class: std::collections::HashSet<CardId> = rows.collect::<rusqlite::Result<_>>()?;
            let mut stmt = conn.prepare_cached(
                "SELECT rowid, bm25(card_fts, 0.0, 0.0, 1.0) AS score FROM card_fts WHERE card_fts MATCH ?1
                 ORDER BY score, rowid",
            )?;
            let rows = stmt.query_map(params![fts_query], |r| Ok((r.get::<_, CardId>(0)?, r.get(1)?)))?;
            let mut out = Vec::new();
            for row in rows {
                let (id, score) = row?;
                if class.contains(&id) {
                    out.push((id, score));
                    if out.len() >= limit {
                        break;
                    }
                }
            }
            out
        }
    };
    let mut stmt = conn.prepare_cached(
        "SELECT snippet(card_fts, 2, '«', '»', '…', 16) FROM card_fts WHERE card_fts MATCH ?1 AND rowid = ?2",
    )?;
    let mut hits = Vec::with_capacity(ranked.len());
    for (id, rank) in ranked {
        let snippet: String = stmt.query_row(params![fts_query, id], |r| r.get(0)).optional()?.unwrap_or_default();
        hits.push(TextHit { id, rank, snippet });
    }
    Ok(hits)
}

/// The card one of whose faces has this folded name (a back face, a split half), if exactly one.
pub fn card_of_face(conn: &Connection, folded: &str) -> Result<Option<CardId>> {
    let mut stmt = conn.prepare_cached("SELECT card_id, name FROM card_face")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, CardId>(0)?, r.get::<_, String>(1)?)))?;
    let mut found = Vec::new();
    for row in rows {
        let (id, name) = row?;
        if crate::domain::names::fold(&name) == folded && !found.contains(&id) {
            found.push(id);
        }
    }
    Ok(if found.len() == 1 { found.pop() } else { None })
}

/// A card's binding keys under a rule (keys that exist only through a combined split cost count when
/// `combined`).
pub fn keys_of(conn: &Connection, rule: &str, id: CardId, combined: bool) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT key FROM card_key WHERE rule = ?1 AND card_id = ?2 AND (combined_only = 0 OR ?3) ORDER BY key",
    )?;
    let rows = stmt.query_map(params![rule, id, combined], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The rules text of the card named exactly `name` (any case), when the reference has one.
pub fn text_by_name(conn: &Connection, name: &str) -> Result<Option<String>> {
    let mut stmt = conn.prepare_cached("SELECT text FROM card WHERE name = ?1 COLLATE NOCASE AND text <> ''")?;
    Ok(stmt.query_row([name], |r| r.get(0)).optional()?.flatten())
}

/// The name and excluded kinds of the cards sharing any of `keys` under `rule` that are banned or of an
/// excluded kind (the others need no look: they may be declared).
pub fn class_flagged(conn: &Connection, rule: &str, keys: &[String], combined: bool) -> Result<Vec<(String, String)>> {
    let keys_json = serde_json::to_string(keys).unwrap_or_else(|_| "[]".into());
    let mut stmt = conn.prepare_cached(
        "SELECT c.name, c.kinds FROM card c
         WHERE c.id IN (SELECT k.card_id FROM card_key k
                        WHERE k.rule = ?1 AND k.key IN (SELECT value FROM json_each(?2)) AND (k.combined_only = 0 OR ?3))
           AND (c.kinds <> '' OR c.name IN (SELECT card_name FROM ban))",
    )?;
    let rows = stmt.query_map(params![rule, keys_json, combined], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Holds the full-text index back for the rest of this transaction: the cards written from here on are only noted,
/// and [`index_held`] indexes them all at once (see migrations/card_index_held.sql). For a bulk write only.
pub fn hold_index(conn: &Connection) -> Result<()> {
    conn.prepare_cached("INSERT OR IGNORE INTO card_fts_held (card_id) VALUES (0)")?.execute([])?;
    Ok(())
}

/// Indexes the cards written since [`hold_index`] (their old entries out, their current ones in: one statement
/// each) and ends the hold.
pub fn index_held(conn: &Connection) -> Result<()> {
    for sql in [
        "DELETE FROM card_fts_held WHERE card_id = 0",
        "DELETE FROM card_fts WHERE rowid IN (SELECT card_id FROM card_fts_held)",
        "INSERT INTO card_fts (rowid, name, type_line, text)
         SELECT id, name, type_line, coalesce(text, '') FROM card WHERE id IN (SELECT card_id FROM card_fts_held)",
        "DELETE FROM card_fts_held",
    ] {
        conn.prepare_cached(sql)?.execute([])?;
    }
    Ok(())
}

/// How many cards the full-text index holds, and how many wait in its hold (none once a write is committed).
pub fn index_counts(conn: &Connection) -> Result<(u32, u32)> {
    let mut stmt =
        conn.prepare_cached("SELECT (SELECT count(*) FROM card_fts), (SELECT count(*) FROM card_fts_held)")?;
    Ok(stmt.query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

/// Merges the full-text index into one segment (after a bulk import: searches then read one list per word).
pub fn optimize_index(conn: &Connection) -> Result<()> {
    conn.execute("INSERT INTO card_fts (card_fts) VALUES ('optimize')", [])?;
    Ok(())
}
