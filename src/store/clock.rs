//! The clock's tables: extensions of a table's round time, timed decisions and logged stalls.

use super::{MatchId, PlayerId};
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// Extra round time given to one table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Extension {
    /// Row id.
    pub id: i64,
    /// The match (table) it extends.
    pub match_id: MatchId,
    /// How long, in seconds (always > 0).
    pub seconds: i64,
    /// Why (deck check, judge call, ...).
    pub reason: String,
    /// When it was given (RFC 3339).
    pub at: String,
    /// Its void, if a judge voided it (then it counts for nothing).
    pub voided: Option<super::voids::Voided>,
}

/// `SELECT` of an extension with its void, then the rest of the statement.
macro_rules! select_extension {
    ($tail:literal) => {
        concat!(
            "SELECT e.id, e.match_id, e.seconds, e.reason, e.at, v.at, v.judge, v.reason FROM extension e ",
            "LEFT JOIN void v ON v.kind = 'extension' AND v.record_id = e.id ",
            $tail
        )
    };
}

fn extension_from_row(r: &Row<'_>) -> rusqlite::Result<Extension> {
    let void_at: Option<String> = r.get(5)?;
    let voided = match void_at {
        Some(at) => Some(super::voids::Voided { at, judge: r.get(6)?, reason: r.get(7)? }),
        None => None,
    };
    Ok(Extension { id: r.get(0)?, match_id: r.get(1)?, seconds: r.get(2)?, reason: r.get(3)?, at: r.get(4)?, voided })
}

/// Records an extension; returns its id.
pub fn add_extension(conn: &Connection, m: MatchId, seconds: i64, reason: &str, at: &str) -> Result<i64> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO extension (match_id, seconds, reason, at) VALUES (?1, ?2, ?3, ?4)")?;
    stmt.execute(params![m, seconds, reason, at])?;
    Ok(conn.last_insert_rowid())
}

/// A match's extensions, oldest first, voided ones included (marked).
pub fn extensions(conn: &Connection, m: MatchId) -> Result<Vec<Extension>> {
    let mut stmt = conn.prepare_cached(select_extension!("WHERE e.match_id = ?1 ORDER BY e.id"))?;
    let rows = stmt.query_map([m], extension_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The extensions of every match of a round, oldest first, voided ones included (marked).
pub fn extensions_of_round(conn: &Connection, round: u32) -> Result<Vec<Extension>> {
    let mut stmt =
        conn.prepare_cached(select_extension!("JOIN match m ON m.id = e.match_id WHERE m.round = ?1 ORDER BY e.id"))?;
    let rows = stmt.query_map([round], extension_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The sum of a match's extensions that count (not voided), in seconds.
pub fn extension_secs(conn: &Connection, m: MatchId) -> Result<i64> {
    let mut stmt = conn.prepare_cached(
        "SELECT coalesce(sum(seconds), 0) FROM extension WHERE match_id = ?1
         AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'extension' AND v.record_id = extension.id)",
    )?;
    Ok(stmt.query_row([m], |r| r.get(0))?)
}

/// A timed decision; `ended_at` is None while it is in progress.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DecisionRow {
    /// Row id.
    pub id: i64,
    /// The match it was taken in.
    pub match_id: MatchId,
    /// Who was deciding.
    pub player_id: PlayerId,
    /// When the decision started (RFC 3339).
    pub started_at: String,
    /// When it ended (None: in progress).
    pub ended_at: Option<String>,
    /// Its length in milliseconds (once ended).
    pub duration_ms: Option<i64>,
    /// The limit applied, in milliseconds (once ended).
    pub limit_ms: Option<i64>,
    /// Time taken past the limit, in milliseconds (once ended; > 0 is a possible slow-play event).
    pub overrun_ms: Option<i64>,
    /// The start's moment as a page's queue claimed it, and when the server first saw that start (see
    /// `migrations/claimed_moments.sql`); None when the start is its arrival or a judge's typed moment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_claim: Option<Claim>,
    /// The same for the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_claim: Option<Claim>,
}

/// A moment a page's queue claimed for a write, and when the server first saw that write (RFC 3339 both).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Claim {
    /// The moment claimed (`at`).
    pub claimed_at: String,
    /// When the server first saw the write.
    pub seen_at: String,
    /// A start's replay as its page said and the server checked it (`unreachable`, `503`); None for a start
    /// that arrived live, and for an end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queued: Option<String>,
}

/// `SELECT` of every decision column followed by the rest of the statement.
macro_rules! select_decision {
    ($tail:literal) => {
        concat!(
            "SELECT decision.id, decision.match_id, decision.player_id, decision.started_at, decision.ended_at, ",
            "decision.duration_ms, decision.limit_ms, decision.overrun_ms, decision.started_claimed_at, ",
            "decision.started_seen_at, decision.ended_claimed_at, decision.ended_seen_at, decision.started_queued ",
            "FROM decision ",
            $tail
        )
    };
}

fn decision_from_row(r: &Row<'_>) -> rusqlite::Result<DecisionRow> {
    Ok(DecisionRow {
        id: r.get(0)?,
        match_id: r.get(1)?,
        player_id: r.get(2)?,
        started_at: r.get(3)?,
        ended_at: r.get(4)?,
        duration_ms: r.get(5)?,
        limit_ms: r.get(6)?,
        overrun_ms: r.get(7)?,
        start_claim: claim(r.get(8)?, r.get(9)?).map(|c| Claim { queued: r.get(12).ok().flatten(), ..c }),
        end_claim: claim(r.get(10)?, r.get(11)?),
    })
}

fn claim(claimed_at: Option<String>, seen_at: Option<String>) -> Option<Claim> {
    Some(Claim { claimed_at: claimed_at?, seen_at: seen_at?, queued: None })
}

/// Records the moment a page's queue claimed for the start of decision `id` and when the server saw it.
pub fn claim_start(conn: &Connection, id: i64, c: &Claim) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE decision SET started_claimed_at = ?2, started_seen_at = ?3, started_queued = ?4 WHERE id = ?1",
    )?;
    stmt.execute(params![id, c.claimed_at, c.seen_at, c.queued])?;
    Ok(())
}

/// Records the moment a page's queue claimed for the end of decision `id` and when the server saw it.
pub fn claim_end(conn: &Connection, id: i64, c: &Claim) -> Result<()> {
    let mut stmt =
        conn.prepare_cached("UPDATE decision SET ended_claimed_at = ?2, ended_seen_at = ?3 WHERE id = ?1")?;
    stmt.execute(params![id, c.claimed_at, c.seen_at])?;
    Ok(())
}

/// A finished decision to record.
#[derive(Debug, Clone)]
pub struct FinishedDecision<'a> {
    /// When it ended (RFC 3339).
    pub ended_at: &'a str,
    /// Its length in milliseconds.
    pub duration_ms: i64,
    /// The limit applied, in milliseconds.
    pub limit_ms: i64,
    /// Time past the limit, in milliseconds.
    pub overrun_ms: i64,
}

/// Records the start of a decision (the decision in progress at that table).
pub fn start_decision(conn: &Connection, m: MatchId, p: PlayerId, started_at: &str) -> Result<i64> {
    let mut stmt = conn.prepare_cached("INSERT INTO decision (match_id, player_id, started_at) VALUES (?1, ?2, ?3)")?;
    stmt.execute(params![m, p, started_at])?;
    Ok(conn.last_insert_rowid())
}

/// Records the end of a decision started with [`start_decision`].
pub fn finish_decision(conn: &Connection, id: i64, f: &FinishedDecision<'_>) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE decision SET ended_at = ?2, duration_ms = ?3, limit_ms = ?4, overrun_ms = ?5 WHERE id = ?1",
    )?;
    stmt.execute(params![id, f.ended_at, f.duration_ms, f.limit_ms, f.overrun_ms])?;
    Ok(())
}

/// Records a whole decision at once (the live screen saves each one when it ends).
pub fn insert_decision(
    conn: &Connection,
    m: MatchId,
    p: PlayerId,
    started_at: &str,
    f: &FinishedDecision<'_>,
) -> Result<i64> {
    let id = start_decision(conn, m, p, started_at)?;
    finish_decision(conn, id, f)?;
    Ok(id)
}

/// The decision in progress at a match, if any (at most one: `decision_one_running` is a unique index). Without an
/// ORDER BY the statement is prepared once: with one, SQLite re-plans it on every new match id.
pub fn running(conn: &Connection, m: MatchId) -> Result<Option<DecisionRow>> {
    let mut stmt = conn.prepare_cached(select_decision!("WHERE match_id = ?1 AND ended_at IS NULL"))?;
    Ok(stmt.query_row([m], decision_from_row).optional()?)
}

/// The finished decisions of round `round` that went over their limit or carry a claimed moment (whose overrun as
/// the server saw it counts too), oldest first (the judges' dashboard:
/// one indexed query instead of every decision of the event).
pub fn overruns_in_round(conn: &Connection, round: u32) -> Result<Vec<DecisionRow>> {
    let mut stmt = conn.prepare_cached(select_decision!(
        "WHERE ended_at IS NOT NULL AND (overrun_ms > 0 OR started_claimed_at IS NOT NULL OR ended_claimed_at IS NOT NULL)
         AND match_id IN (SELECT id FROM match WHERE round = ?1) ORDER BY started_at, id"
    ))?;
    let rows = stmt.query_map([round], decision_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The decisions in progress at the matches of a round, oldest first (a match's latest is the one
/// [`running`] gives).
pub fn running_in_round(conn: &Connection, round: u32) -> Result<Vec<DecisionRow>> {
    let mut stmt = conn.prepare_cached(select_decision!(
        "JOIN match m ON m.id = decision.match_id WHERE m.round = ?1 AND decision.ended_at IS NULL ORDER BY decision.id"
    ))?;
    let rows = stmt.query_map([round], decision_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The latest moment recorded of match `m`'s clock (a decision's start or end, or a judge's cancellation), if
/// any: a claimed start lies after it.
pub fn last_moment(conn: &Connection, m: MatchId) -> Result<Option<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT max(at) FROM (
             SELECT max(started_at, coalesce(ended_at, started_at)) AS at FROM decision WHERE match_id = ?1
             UNION ALL SELECT cancelled_at FROM cancelled_decision WHERE match_id = ?1)",
    )?;
    Ok(stmt.query_row([m], |r| r.get(0))?)
}

/// Cancels decision `d` (one started by mistake) at `at`: nothing is recorded for the player, and the
/// cancellation is kept as a record of the match's clock (see [`last_moment`]).
pub fn cancel_decision(conn: &Connection, d: &DecisionRow, at: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO cancelled_decision (match_id, player_id, started_at, cancelled_at) VALUES (?1, ?2, ?3, ?4)",
    )?;
    stmt.execute(params![d.match_id, d.player_id, d.started_at, at])?;
    let mut stmt = conn.prepare_cached("DELETE FROM decision WHERE id = ?1")?;
    stmt.execute([d.id])?;
    Ok(())
}

/// Every decision of the event (optionally of one match and/or one player), oldest first.
pub fn decisions(conn: &Connection, m: Option<MatchId>, p: Option<PlayerId>) -> Result<Vec<DecisionRow>> {
    let mut stmt = conn.prepare_cached(select_decision!(
        "WHERE (?1 IS NULL OR match_id = ?1) AND (?2 IS NULL OR player_id = ?2) ORDER BY started_at, id"
    ))?;
    let rows = stmt.query_map(params![m, p], decision_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One extension by id.
pub fn extension(conn: &Connection, id: i64) -> Result<Option<Extension>> {
    let mut stmt = conn.prepare_cached(select_extension!("WHERE e.id = ?1"))?;
    Ok(stmt.query_row([id], extension_from_row).optional()?)
}

/// A stall logged on the live clock.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Stall {
    /// Row id.
    pub id: i64,
    /// The match.
    pub match_id: MatchId,
    /// The match's round.
    pub round: u32,
    /// The match's table.
    pub table: Option<u32>,
    /// The player who stalled.
    pub player_id: PlayerId,
    /// When (RFC 3339).
    pub at: String,
}

/// `SELECT` of a stall joined with its match, then the rest of the statement.
macro_rules! select_stall {
    ($tail:literal) => {
        concat!("SELECT s.id, s.match_id, m.round, m.table_no, s.player_id, s.at FROM stall s JOIN match m ON m.id = s.match_id ", $tail)
    };
}

fn stall_from_row(r: &Row<'_>) -> rusqlite::Result<Stall> {
    Ok(Stall {
        id: r.get(0)?,
        match_id: r.get(1)?,
        round: r.get(2)?,
        table: r.get(3)?,
        player_id: r.get(4)?,
        at: r.get(5)?,
    })
}

/// One stall by id.
pub fn stall(conn: &Connection, id: i64) -> Result<Option<Stall>> {
    let mut stmt = conn.prepare_cached(select_stall!("WHERE s.id = ?1"))?;
    Ok(stmt.query_row([id], stall_from_row).optional()?)
}

/// Every stall logged (optionally at one match and/or by one player), oldest first, voided ones included.
pub fn stalls(conn: &Connection, m: Option<MatchId>, p: Option<PlayerId>) -> Result<Vec<Stall>> {
    let mut stmt = conn.prepare_cached(select_stall!(
        "WHERE (?1 IS NULL OR s.match_id = ?1) AND (?2 IS NULL OR s.player_id = ?2) ORDER BY s.at, s.id"
    ))?;
    let rows = stmt.query_map(params![m, p], stall_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Records a stall logged on the spot; returns its id.
pub fn add_stall(conn: &Connection, m: MatchId, p: PlayerId, at: &str) -> Result<i64> {
    let mut stmt = conn.prepare_cached("INSERT INTO stall (match_id, player_id, at) VALUES (?1, ?2, ?3)")?;
    stmt.execute(params![m, p, at])?;
    Ok(conn.last_insert_rowid())
}

/// How many stalls that count (not voided) were logged (optionally at one match and/or for one player), per player.
pub fn stall_counts(conn: &Connection, m: Option<MatchId>, p: Option<PlayerId>) -> Result<Vec<(PlayerId, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT player_id, count(*) FROM stall WHERE (?1 IS NULL OR match_id = ?1) AND (?2 IS NULL OR player_id = ?2)
           AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'stall' AND v.record_id = stall.id)
         GROUP BY player_id ORDER BY player_id",
    )?;
    let rows = stmt.query_map(params![m, p], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seated() -> Result<(crate::store::Store, MatchId, PlayerId)> {
        let (store, m, [ana, _]) = crate::store::memory_with_one_match()?;
        Ok((store, m, ana))
    }

    #[test]
    fn decisions_run_then_finish() -> Result<()> {
        let (store, m, ana) = seated()?;
        let conn = store.conn();
        assert_eq!(running(conn, m)?, None);
        let id = start_decision(conn, m, ana, "2026-05-01T10:00:00.000Z")?;
        assert_eq!(running(conn, m)?.map(|d| d.id), Some(id));
        let f = FinishedDecision {
            ended_at: "2026-05-01T10:00:50.000Z",
            duration_ms: 50_000,
            limit_ms: 45_000,
            overrun_ms: 5_000,
        };
        finish_decision(conn, id, &f)?;
        assert_eq!(running(conn, m)?, None);
        let all = decisions(conn, Some(m), Some(ana))?;
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].overrun_ms, Some(5_000));
        assert!(decisions(conn, None, Some(PlayerId(99)))?.is_empty());
        Ok(())
    }

    #[test]
    fn extensions_add_up_and_stalls_count() -> Result<()> {
        let (store, m, ana) = seated()?;
        let conn = store.conn();
        assert_eq!(extension_secs(conn, m)?, 0);
        add_extension(conn, m, 120, "deck check", "2026-05-01T10:05:00.000Z")?;
        add_extension(conn, m, 75, "judge call", "2026-05-01T10:15:00.000Z")?;
        assert_eq!(extension_secs(conn, m)?, 195);
        assert_eq!(extensions(conn, m)?.len(), 2);
        add_stall(conn, m, ana, "2026-05-01T10:20:00.000Z")?;
        add_stall(conn, m, ana, "2026-05-01T10:21:00.000Z")?;
        assert_eq!(stall_counts(conn, Some(m), None)?, vec![(ana, 2)]);
        Ok(())
    }
}
