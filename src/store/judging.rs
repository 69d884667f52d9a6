//! Reads of what judges recorded at the tables (challenges, rulings, penalties), for the site.
//! (The table commands own the writes; these reads may move beside them.)

use super::{MatchId, PlayerId};
use crate::error::Result;
use rusqlite::Connection;

/// A challenge heard by a judge.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Challenge {
    /// Row id.
    pub id: i64,
    /// The match it was made in.
    pub match_id: MatchId,
    /// Who challenged.
    pub by: PlayerId,
    /// The point of contention.
    pub about: String,
    /// What the challenger stated.
    pub by_says: Option<String>,
    /// What the other player stated.
    pub other_says: Option<String>,
    /// `upheld` or `denied`.
    pub ruling: String,
    /// The player whose position lost.
    pub loser: PlayerId,
    /// The judge who ruled.
    pub judge: String,
    /// When (RFC 3339).
    pub at: String,
}

/// Every challenge, oldest first.
pub fn challenges(conn: &Connection) -> Result<Vec<Challenge>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, match_id, by_player, about, by_says, other_says, ruling, loser, judge, at FROM challenge ORDER BY at, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Challenge {
            id: r.get(0)?,
            match_id: r.get(1)?,
            by: r.get(2)?,
            about: r.get(3)?,
            by_says: r.get(4)?,
            other_says: r.get(5)?,
            ruling: r.get(6)?,
            loser: r.get(7)?,
            judge: r.get(8)?,
            at: r.get(9)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A judge's ruling that is not a penalty.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Ruling {
    /// The match it concerns.
    pub match_id: MatchId,
    /// What the judge ruled.
    pub text: String,
    /// The judge.
    pub judge: String,
    /// When (RFC 3339).
    pub at: String,
}

/// Every ruling, oldest first.
pub fn rulings(conn: &Connection) -> Result<Vec<Ruling>> {
    let mut stmt = conn.prepare_cached("SELECT match_id, text, judge, at FROM ruling ORDER BY at, id")?;
    let rows =
        stmt.query_map([], |r| Ok(Ruling { match_id: r.get(0)?, text: r.get(1)?, judge: r.get(2)?, at: r.get(3)? }))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A penalty given to a player.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Penalty {
    /// The player.
    pub player: PlayerId,
    /// The match, if given at a table.
    pub match_id: Option<MatchId>,
    /// The infraction.
    pub infraction: String,
    /// The penalty.
    pub penalty: String,
    /// Why it was upgraded, if it was.
    pub upgraded: Option<String>,
    /// The judge's remark.
    pub note: Option<String>,
    /// The judge.
    pub judge: String,
    /// When (RFC 3339).
    pub at: String,
}

/// Every penalty, oldest first.
pub fn penalties(conn: &Connection) -> Result<Vec<Penalty>> {
    let mut stmt = conn.prepare_cached(
        "SELECT player_id, match_id, infraction, penalty, upgraded, note, judge, at FROM penalty ORDER BY at, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Penalty {
            player: r.get(0)?,
            match_id: r.get(1)?,
            infraction: r.get(2)?,
            penalty: r.get(3)?,
            upgraded: r.get(4)?,
            note: r.get(5)?,
            judge: r.get(6)?,
            at: r.get(7)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
