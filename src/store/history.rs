//! What `player history` reads besides results, challenges, rulings and penalties: note counts and
//! decision overruns.

use super::{MatchId, PlayerId};
use crate::error::Result;
use rusqlite::Connection;

/// How many template notes a player made in each of their matches (matches without notes left out).
pub fn note_counts(conn: &Connection, player: PlayerId) -> Result<Vec<(MatchId, u32)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT n.match_id, count(*) FROM match m JOIN template_note n ON n.match_id = m.id
         WHERE (m.a_player = ?1 OR m.b_player = ?1) AND n.player_id = ?1
           AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'note' AND v.record_id = n.id)
         GROUP BY n.match_id",
    )?;
    let rows = stmt.query_map([player], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A timed decision that ran over its limit.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Overrun {
    /// The match.
    pub match_id: MatchId,
    /// The match's round.
    pub round: u32,
    /// The match's table.
    pub table: Option<u32>,
    /// When the decision ended.
    pub at: String,
    /// How long it took.
    pub duration_ms: i64,
    /// The limit in force.
    pub limit_ms: i64,
    /// By how much it ran over.
    pub overrun_ms: i64,
}

/// A player's decisions that ran over their limit, oldest first.
pub fn overruns(conn: &Connection, player: PlayerId) -> Result<Vec<Overrun>> {
    let mut stmt = conn.prepare_cached(
        "SELECT d.match_id, m.round, m.table_no, coalesce(d.ended_at, d.started_at), coalesce(d.duration_ms, 0),
                coalesce(d.limit_ms, 0), d.overrun_ms
         FROM match m JOIN decision d ON d.match_id = m.id
         WHERE (m.a_player = ?1 OR m.b_player = ?1) AND d.player_id = ?1 AND d.overrun_ms > 0
         ORDER BY d.started_at, d.id",
    )?;
    let rows = stmt.query_map([player], |r| {
        Ok(Overrun {
            match_id: r.get(0)?,
            round: r.get(1)?,
            table: r.get(2)?,
            at: r.get(3)?,
            duration_ms: r.get(4)?,
            limit_ms: r.get(5)?,
            overrun_ms: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
