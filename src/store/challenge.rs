//! Challenges heard by a judge, and the notes used as their evidence.

use super::{MatchId, NoteId, PlayerId};
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// A challenge as stored, with its match's round and table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Challenge {
    /// Row id.
    pub id: i64,
    /// The match.
    pub match_id: MatchId,
    /// The match's round.
    pub round: u32,
    /// The match's table.
    pub table: Option<u32>,
    /// The challenger.
    pub by: PlayerId,
    /// The point of contention.
    pub about: String,
    /// What the challenger stated.
    pub by_says: Option<String>,
    /// What the other player stated.
    pub other_says: Option<String>,
    /// `upheld` (the challenger was right) or `denied`.
    pub ruling: String,
    /// The player whose position lost.
    pub loser: PlayerId,
    /// The judge who heard it.
    pub judge: String,
    /// When.
    pub at: String,
}

/// A challenge to record.
#[derive(Debug, Clone)]
pub struct NewChallenge<'a> {
    /// The match.
    pub match_id: MatchId,
    /// The challenger.
    pub by: PlayerId,
    /// The point of contention.
    pub about: &'a str,
    /// What the challenger stated.
    pub by_says: Option<&'a str>,
    /// What the other player stated.
    pub other_says: Option<&'a str>,
    /// `upheld` or `denied`.
    pub ruling: &'a str,
    /// The player whose position lost.
    pub loser: PlayerId,
    /// The judge.
    pub judge: &'a str,
    /// When (RFC 3339).
    pub at: &'a str,
}

/// `SELECT` of a challenge joined with its match, then the rest of the statement.
macro_rules! select_challenge {
    ($tail:literal) => {
        concat!(
            "SELECT c.id, c.match_id, m.round, m.table_no, c.by_player, c.about, c.by_says, c.other_says, c.ruling, \
             c.loser, c.judge, c.at FROM challenge c JOIN match m ON m.id = c.match_id ",
            $tail
        )
    };
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Challenge> {
    Ok(Challenge {
        id: r.get(0)?,
        match_id: r.get(1)?,
        round: r.get(2)?,
        table: r.get(3)?,
        by: r.get(4)?,
        about: r.get(5)?,
        by_says: r.get(6)?,
        other_says: r.get(7)?,
        ruling: r.get(8)?,
        loser: r.get(9)?,
        judge: r.get(10)?,
        at: r.get(11)?,
    })
}

/// Records a challenge and its evidence; returns its id.
pub fn insert(conn: &Connection, c: &NewChallenge<'_>, evidence: &[NoteId]) -> Result<i64> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO challenge (match_id, by_player, about, by_says, other_says, ruling, loser, judge, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    stmt.execute(params![c.match_id, c.by, c.about, c.by_says, c.other_says, c.ruling, c.loser, c.judge, c.at])?;
    let id = conn.last_insert_rowid();
    let mut link =
        conn.prepare_cached("INSERT OR IGNORE INTO challenge_evidence (challenge_id, note_id) VALUES (?1, ?2)")?;
    for note in evidence {
        link.execute(params![id, note])?;
    }
    Ok(id)
}

/// One challenge by id.
pub fn get(conn: &Connection, id: i64) -> Result<Option<Challenge>> {
    let mut stmt = conn.prepare_cached(select_challenge!("WHERE c.id = ?1"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

/// How many challenges `player` has lost in a match (voided ones left out).
pub fn lost_in_match(conn: &Connection, match_id: MatchId, player: PlayerId) -> Result<u32> {
    let mut stmt = conn.prepare_cached(
        "SELECT count(*) FROM challenge WHERE match_id = ?1 AND loser = ?2
         AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'challenge' AND v.record_id = challenge.id)",
    )?;
    Ok(stmt.query_row(params![match_id, player], |r| r.get(0))?)
}

/// Challenges, oldest first: of one match and/or involving one player (as challenger or at that match).
pub fn list(conn: &Connection, match_id: Option<MatchId>, player: Option<PlayerId>) -> Result<Vec<Challenge>> {
    let mut stmt = conn.prepare_cached(select_challenge!(
        "WHERE (?1 IS NULL OR c.match_id = ?1) AND (?2 IS NULL OR m.a_player = ?2 OR m.b_player = ?2)
         ORDER BY c.at, c.id"
    ))?;
    let rows = stmt.query_map(params![match_id, player], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The notes used as evidence, per challenge id.
pub fn all_evidence(conn: &Connection) -> Result<std::collections::HashMap<i64, Vec<NoteId>>> {
    let mut stmt = conn.prepare_cached("SELECT challenge_id, note_id FROM challenge_evidence ORDER BY 1, 2")?;
    let mut out: std::collections::HashMap<i64, Vec<NoteId>> = std::collections::HashMap::new();
    let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, NoteId>(1)?)))?;
    for row in rows {
        let (c, n) = row?;
        out.entry(c).or_default().push(n);
    }
    Ok(out)
}

/// The notes cited as evidence in one challenge, by id.
pub fn evidence_of(conn: &Connection, challenge: i64) -> Result<Vec<NoteId>> {
    let mut stmt = conn.prepare_cached("SELECT note_id FROM challenge_evidence WHERE challenge_id = ?1 ORDER BY 1")?;
    let rows = stmt.query_map([challenge], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Cites a note as evidence in a challenge; false when it already was.
pub fn add_evidence(conn: &Connection, challenge: i64, note: NoteId) -> Result<bool> {
    let mut stmt =
        conn.prepare_cached("INSERT OR IGNORE INTO challenge_evidence (challenge_id, note_id) VALUES (?1, ?2)")?;
    Ok(stmt.execute(params![challenge, note])? == 1)
}

/// The match a template note belongs to, if the note exists.
pub fn note_match(conn: &Connection, note: NoteId) -> Result<Option<MatchId>> {
    let mut stmt = conn.prepare_cached("SELECT match_id FROM template_note WHERE id = ?1")?;
    Ok(stmt.query_row([note], |r| r.get(0)).optional()?)
}

/// Every challenge of the event that counts (not voided) as (challenger, loser, ruling), for the watch report.
pub fn all_outcomes(conn: &Connection) -> Result<Vec<(PlayerId, PlayerId, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT by_player, loser, ruling FROM challenge
         WHERE NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'challenge' AND v.record_id = challenge.id)
         ORDER BY id",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{matches, player, round};

    #[test]
    fn counts_lost_challenges_per_match_and_checks_evidence() -> Result<()> {
        let store = crate::store::memory()?;
        let conn = store.conn();
        let add = |name: &str| {
            player::insert(
                conn,
                &player::NewPlayer { name, name_key: name, ext_id: None, email: None, joined_round: 1 },
            )
        };
        let (ana, bo) = (add("ana")?, add("bo")?);
        round::insert(conn, 1, "test", "2026-05-01T09:00:00Z")?;
        round::insert(conn, 2, "test", "2026-05-01T10:00:00Z")?;
        assert_eq!(round::after(conn, 1)?, vec![2]);
        let new = matches::NewMatch { round: 1, table: Some(1), a: ana, b: Some(bo), a_library: None, b_library: None };
        let m = matches::insert(conn, &new)?;
        assert_eq!(matches::table_span(conn, 1)?, Some((1, 1)));
        assert_eq!(matches::table_span(conn, 2)?, None);
        let c = |loser, ruling| NewChallenge {
            match_id: m,
            by: ana,
            about: "x",
            by_says: None,
            other_says: None,
            ruling,
            loser,
            judge: "Kim",
            at: "2026-05-01T09:10:00Z",
        };
        insert(conn, &c(ana, "denied"), &[])?;
        insert(conn, &c(bo, "upheld"), &[])?;
        insert(conn, &c(ana, "denied"), &[])?;
        assert_eq!(lost_in_match(conn, m, ana)?, 2);
        assert_eq!(lost_in_match(conn, m, bo)?, 1);
        assert_eq!(list(conn, Some(m), Some(bo))?.len(), 3);
        assert_eq!(note_match(conn, NoteId(1))?, None);
        assert_eq!(all_outcomes(conn)?.len(), 3);
        Ok(())
    }
}
