//! Penalties after the infraction procedure guide.

use super::{MatchId, PlayerId};
use crate::error::Result;
use rusqlite::{Connection, Row, params};

/// A penalty as stored, with its match's round and table when it was given at one.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Penalty {
    /// Row id.
    pub id: i64,
    /// The penalised player.
    pub player: PlayerId,
    /// The match it was given at, if any.
    pub match_id: Option<MatchId>,
    /// That match's round.
    pub round: Option<u32>,
    /// That match's table.
    pub table: Option<u32>,
    /// Infraction slug.
    pub infraction: String,
    /// Penalty slug as issued (after any upgrade or override).
    pub penalty: String,
    /// Why it differs from the infraction's default, if it does.
    pub upgraded: Option<String>,
    /// The judge's note.
    pub note: Option<String>,
    /// The judge.
    pub judge: String,
    /// When.
    pub at: String,
}

/// A penalty to record.
#[derive(Debug, Clone)]
pub struct NewPenalty<'a> {
    /// The penalised player.
    pub player: PlayerId,
    /// The match, if any.
    pub match_id: Option<MatchId>,
    /// Infraction slug.
    pub infraction: &'a str,
    /// Penalty slug.
    pub penalty: &'a str,
    /// Upgrade or override explanation.
    pub upgraded: Option<&'a str>,
    /// The judge's note.
    pub note: Option<&'a str>,
    /// The judge.
    pub judge: &'a str,
    /// When (RFC 3339).
    pub at: &'a str,
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Penalty> {
    Ok(Penalty {
        id: r.get(0)?,
        player: r.get(1)?,
        match_id: r.get(2)?,
        round: r.get(3)?,
        table: r.get(4)?,
        infraction: r.get(5)?,
        penalty: r.get(6)?,
        upgraded: r.get(7)?,
        note: r.get(8)?,
        judge: r.get(9)?,
        at: r.get(10)?,
    })
}

/// Records a penalty; returns its id.
pub fn insert(conn: &Connection, p: &NewPenalty<'_>) -> Result<i64> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO penalty (player_id, match_id, infraction, penalty, upgraded, note, judge, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    stmt.execute(params![p.player, p.match_id, p.infraction, p.penalty, p.upgraded, p.note, p.judge, p.at])?;
    Ok(conn.last_insert_rowid())
}

/// How many Warnings `player` has already received for `infraction` in the event.
pub fn prior_warnings(conn: &Connection, player: PlayerId, infraction: &str) -> Result<u32> {
    let mut stmt = conn.prepare_cached(
        "SELECT count(*) FROM penalty WHERE player_id = ?1 AND infraction = ?2 AND penalty = 'warning'
         AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'penalty' AND v.record_id = penalty.id)",
    )?;
    Ok(stmt.query_row(params![player, infraction], |r| r.get(0))?)
}

/// Penalties, oldest first, optionally of one player.
pub fn list(conn: &Connection, player: Option<PlayerId>) -> Result<Vec<Penalty>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.player_id, p.match_id, m.round, m.table_no, p.infraction, p.penalty, p.upgraded, p.note,
                p.judge, p.at
         FROM penalty p LEFT JOIN match m ON m.id = p.match_id
         WHERE ?1 IS NULL OR p.player_id = ?1 ORDER BY p.at, p.id",
    )?;
    let rows = stmt.query_map([player], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The disqualification of a player, if any, as (penalty id, when).
pub fn disqualification(conn: &Connection, player: PlayerId) -> Result<Option<(i64, String)>> {
    use rusqlite::OptionalExtension;
    let mut stmt = conn.prepare_cached(
        "SELECT id, at FROM penalty WHERE player_id = ?1 AND penalty = 'disqualification'
         AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'penalty' AND v.record_id = penalty.id)
         ORDER BY id LIMIT 1",
    )?;
    Ok(stmt.query_row([player], |r| Ok((r.get(0)?, r.get(1)?))).optional()?)
}

/// One penalty by id.
pub fn get(conn: &Connection, id: i64) -> Result<Option<Penalty>> {
    use rusqlite::OptionalExtension;
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.player_id, p.match_id, m.round, m.table_no, p.infraction, p.penalty, p.upgraded, p.note,
                p.judge, p.at
         FROM penalty p LEFT JOIN match m ON m.id = p.match_id WHERE p.id = ?1",
    )?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

/// A player's penalties for one infraction that count (not voided), in the order they were recorded (the
/// order their upgrades were counted in, even for one logged late with an earlier time).
pub fn live_of(conn: &Connection, player: PlayerId, infraction: &str) -> Result<Vec<Penalty>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.player_id, p.match_id, m.round, m.table_no, p.infraction, p.penalty, p.upgraded, p.note,
                p.judge, p.at
         FROM penalty p LEFT JOIN match m ON m.id = p.match_id
         WHERE p.player_id = ?1 AND p.infraction = ?2
           AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'penalty' AND v.record_id = p.id)
         ORDER BY p.id",
    )?;
    let rows = stmt.query_map(params![player, infraction], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Changes the penalty issued (after a void changed the count of earlier Warnings).
pub fn set_issued(conn: &Connection, id: i64, penalty: &str, upgraded: Option<&str>) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE penalty SET penalty = ?2, upgraded = ?3 WHERE id = ?1")?;
    stmt.execute(params![id, penalty, upgraded])?;
    Ok(())
}

/// How many penalties that end a match (Game Loss, Match Loss, Disqualification) a player still has at a
/// match (voided ones left out).
pub fn match_enders(conn: &Connection, match_id: MatchId, player: PlayerId) -> Result<u32> {
    let mut stmt = conn.prepare_cached(
        "SELECT count(*) FROM penalty p WHERE p.match_id = ?1 AND p.player_id = ?2
           AND p.penalty IN ('game-loss', 'match-loss', 'disqualification')
           AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'penalty' AND v.record_id = p.id)",
    )?;
    Ok(stmt.query_row(params![match_id, player], |r| r.get(0))?)
}
