//! Voids: records a judge entered by mistake, marked void (who, when, why) instead of deleted. A voided
//! record stays in its table and its listings; every count leaves it out (the queries of the other store
//! modules filter on this table).

use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::HashMap;

/// The kinds of record that can be voided (the `kind` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VoidKind {
    /// A penalty.
    Penalty,
    /// A challenge.
    Challenge,
    /// A ruling.
    Ruling,
    /// A template note.
    Note,
    /// An extension of a table's round time.
    Extension,
    /// A stall logged on the live clock.
    Stall,
}

impl VoidKind {
    /// As stored, and as the judge names it.
    pub fn as_str(self) -> &'static str {
        match self {
            VoidKind::Penalty => "penalty",
            VoidKind::Challenge => "challenge",
            VoidKind::Ruling => "ruling",
            VoidKind::Note => "note",
            VoidKind::Extension => "extension",
            VoidKind::Stall => "stall",
        }
    }
}

/// A void as stored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Voided {
    /// When it was voided (RFC 3339).
    pub at: String,
    /// The judge who voided it.
    pub judge: String,
    /// Why, if the judge said.
    pub reason: Option<String>,
}

/// Marks a record void.
pub fn insert(conn: &Connection, kind: VoidKind, id: i64, v: &Voided) -> Result<()> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO void (kind, record_id, at, judge, reason) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    stmt.execute(params![kind.as_str(), id, v.at, v.judge, v.reason])?;
    Ok(())
}

/// The void of one record, if it was voided.
pub fn get(conn: &Connection, kind: VoidKind, id: i64) -> Result<Option<Voided>> {
    let mut stmt = conn.prepare_cached("SELECT at, judge, reason FROM void WHERE kind = ?1 AND record_id = ?2")?;
    let row = stmt
        .query_row(params![kind.as_str(), id], |r| Ok(Voided { at: r.get(0)?, judge: r.get(1)?, reason: r.get(2)? }));
    Ok(row.optional()?)
}

/// Every void of one kind, by record id (for listings).
pub fn of_kind(conn: &Connection, kind: VoidKind) -> Result<HashMap<i64, Voided>> {
    let mut stmt = conn.prepare_cached("SELECT record_id, at, judge, reason FROM void WHERE kind = ?1")?;
    let rows = stmt.query_map([kind.as_str()], |r| {
        Ok((r.get(0)?, Voided { at: r.get(1)?, judge: r.get(2)?, reason: r.get(3)? }))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A void as JSON: `{"at", "judge", "reason"}`, or null for a record that counts.
pub fn json(v: Option<&Voided>) -> serde_json::Value {
    match v {
        Some(v) => serde_json::json!({ "at": v.at, "judge": v.judge, "reason": v.reason }),
        None => serde_json::Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_void_is_found_and_goes_with_its_record() -> Result<()> {
        let (store, m, [ana, _]) = crate::store::memory_with_one_match()?;
        let conn = store.conn();
        let id = crate::store::clock::add_stall(conn, m, ana, "2026-05-01T10:20:00.000Z")?;
        assert_eq!(get(conn, VoidKind::Stall, id)?, None);
        let v = Voided { at: "2026-05-01T10:30:00.000Z".into(), judge: "Kim".into(), reason: None };
        insert(conn, VoidKind::Stall, id, &v)?;
        assert_eq!(get(conn, VoidKind::Stall, id)?, Some(v.clone()));
        assert_eq!(get(conn, VoidKind::Penalty, id)?, None, "per kind");
        assert!(insert(conn, VoidKind::Stall, id, &v).is_err(), "voided once");
        assert_eq!(of_kind(conn, VoidKind::Stall)?.len(), 1);
        conn.execute("DELETE FROM stall WHERE id = ?1", [id])?;
        assert!(of_kind(conn, VoidKind::Stall)?.is_empty(), "the trigger removes the void with its record");
        Ok(())
    }
}
