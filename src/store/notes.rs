//! Template notes: the declarations made in a game (`B1: Demonic Tutor`) and unnamed cards of a cost.

use super::{MatchId, NoteId, PlayerId};
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// A template note as stored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Note {
    /// Row id (what `challenge --evidence` names).
    pub id: NoteId,
    /// The match (one game).
    pub match_id: MatchId,
    /// The player who declared the card.
    pub player: PlayerId,
    /// The printed cost, canonical (`{1}{B}`).
    pub cost: String,
    /// The declared card's reference name; None for an unnamed card of that cost.
    pub card: Option<String>,
    /// When it was declared (RFC 3339).
    pub at: String,
}

/// A note to record.
#[derive(Debug, Clone, Copy)]
pub struct NewNote<'a> {
    /// The match.
    pub match_id: MatchId,
    /// The declaring player.
    pub player: PlayerId,
    /// The printed cost, canonical.
    pub cost: &'a str,
    /// The declared card's reference name (None: unnamed).
    pub card: Option<&'a str>,
    /// When (RFC 3339).
    pub at: &'a str,
}

/// `SELECT` of every note column followed by the rest of the statement.
macro_rules! select_note {
    ($tail:literal) => {
        concat!("SELECT id, match_id, player_id, cost, card_name, at FROM template_note ", $tail)
    };
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Note> {
    Ok(Note { id: r.get(0)?, match_id: r.get(1)?, player: r.get(2)?, cost: r.get(3)?, card: r.get(4)?, at: r.get(5)? })
}

/// Records a note; returns its id, never one a removed note had (see migrations/note_ids_never_reused.sql).
pub fn insert(conn: &Connection, n: &NewNote<'_>) -> Result<NoteId> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO template_note (id, match_id, player_id, cost, card_name, at) VALUES (
             1 + max(coalesce((SELECT max(id) FROM template_note), 0),
                     coalesce((SELECT last_id FROM id_high_water WHERE tbl = 'template_note'), 0)),
             ?1, ?2, ?3, ?4, ?5)",
    )?;
    stmt.execute(params![n.match_id, n.player, n.cost, n.card, n.at])?;
    Ok(NoteId(conn.last_insert_rowid()))
}

/// The notes of a match in the order they were declared (time, then entry order).
pub fn of_match(conn: &Connection, match_id: MatchId) -> Result<Vec<Note>> {
    let mut stmt = conn.prepare_cached(select_note!("WHERE match_id = ?1 ORDER BY at, id"))?;
    let rows = stmt.query_map([match_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The notes of every match of a round, by match, each match's in the order they were declared.
pub fn of_round(conn: &Connection, round: u32) -> Result<Vec<Note>> {
    let mut stmt = conn.prepare_cached(select_note!(
        "WHERE match_id IN (SELECT id FROM match WHERE round = ?1) ORDER BY match_id, at, id"
    ))?;
    let rows = stmt.query_map([round], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One note by id.
pub fn get(conn: &Connection, id: NoteId) -> Result<Option<Note>> {
    let mut stmt = conn.prepare_cached(select_note!("WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

/// The first declaration of a card (by reference name, any case) in a match that counts (not voided), if any.
pub fn declaration_of(conn: &Connection, match_id: MatchId, card: &str) -> Result<Option<Note>> {
    let mut stmt = conn.prepare_cached(select_note!(
        "WHERE match_id = ?1 AND card_name = ?2 COLLATE NOCASE
           AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'note' AND v.record_id = template_note.id)
         ORDER BY at, id LIMIT 1"
    ))?;
    Ok(stmt.query_row(params![match_id, card], from_row).optional()?)
}

/// The note entered last at a match (highest id), if any.
pub fn last_of_match(conn: &Connection, match_id: MatchId) -> Result<Option<Note>> {
    let mut stmt = conn.prepare_cached(select_note!("WHERE match_id = ?1 ORDER BY id DESC LIMIT 1"))?;
    Ok(stmt.query_row([match_id], from_row).optional()?)
}

/// The latest moment a note at a match was recorded at, if any: a declaration replayed from a page's queue may
/// not claim a moment before it.
pub fn last_moment(conn: &Connection, match_id: MatchId) -> Result<Option<String>> {
    let mut stmt = conn.prepare_cached("SELECT max(at) FROM template_note WHERE match_id = ?1")?;
    Ok(stmt.query_row([match_id], |r| r.get(0))?)
}

/// The challenges that cite a note as evidence, by id.
pub fn cited_by(conn: &Connection, note: NoteId) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached("SELECT challenge_id FROM challenge_evidence WHERE note_id = ?1 ORDER BY 1")?;
    let rows = stmt.query_map([note], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The challenges not voided that cite a note as evidence, by id.
pub fn cited_by_standing(conn: &Connection, note: NoteId) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT challenge_id FROM challenge_evidence e WHERE note_id = ?1 AND NOT EXISTS
             (SELECT 1 FROM void v WHERE v.kind = 'challenge' AND v.record_id = e.challenge_id) ORDER BY 1",
    )?;
    let rows = stmt.query_map([note], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Deletes a note (its evidence links go with it).
pub fn delete(conn: &Connection, note: NoteId) -> Result<()> {
    let mut stmt = conn.prepare_cached("DELETE FROM template_note WHERE id = ?1")?;
    stmt.execute([note])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::matches::{self, NewMatch};
    use crate::store::{memory, player};

    #[test]
    fn records_finds_and_removes_notes() -> crate::error::Result<()> {
        let store = memory()?;
        let conn = store.conn();
        conn.execute_batch(
            "INSERT INTO player (name, name_key) VALUES ('Ana', 'ana'), ('Bo', 'bo');
             INSERT INTO round (number, movement, paired_at) VALUES (1, 'test', '2026-05-01T09:00:00.000Z');",
        )?;
        let (ana, bo) = (player::all(conn)?[0].id, player::all(conn)?[1].id);
        let m = matches::insert(
            conn,
            &NewMatch { round: 1, table: Some(1), a: ana, b: Some(bo), a_library: None, b_library: None },
        )?;
        let note = |p, card, at| NewNote { match_id: m, player: p, cost: "{1}{B}", card, at };
        let first = insert(conn, &note(ana, Some("Demonic Tutor"), "2026-05-01T09:20:00.000Z"))?;
        let late = insert(conn, &note(bo, None, "2026-05-01T09:10:00.000Z"))?;
        let listed: Vec<NoteId> = of_match(conn, m)?.iter().map(|n| n.id).collect();
        assert_eq!(listed, vec![late, first], "in declaration order");
        assert_eq!(declaration_of(conn, m, "demonic tutor")?.map(|n| n.player), Some(ana));
        assert_eq!(declaration_of(conn, m, "Shock")?, None);
        assert_eq!(last_of_match(conn, m)?.map(|n| n.id), Some(late), "entered last");
        assert!(cited_by(conn, late)?.is_empty());
        delete(conn, late)?;
        assert_eq!(of_match(conn, m)?.len(), 1);
        Ok(())
    }
}
