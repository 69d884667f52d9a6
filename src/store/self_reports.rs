//! Players' self-reported results waiting for the opponent's word, and players' calls for a judge.

use super::matches::Outcome;
use super::{MatchId, PlayerId};
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// A result one player reported, waiting for the opponent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The match.
    pub match_id: MatchId,
    /// The player who reported it.
    pub player: PlayerId,
    /// Who won, as they say.
    pub outcome: Outcome,
    /// Why the game ended (a reason's slug).
    pub reason: String,
    /// Life totals (A, B), when given.
    pub life: Option<(i64, i64)>,
    /// When (RFC 3339).
    pub at: String,
    /// Its number (what a confirmation names; set when kept, 0 before).
    pub id: i64,
    /// Where it was sent from.
    pub origin: Origin,
}

/// Where a player's report (or confirmation) was sent from: the device (its cookie's hash; None without one),
/// the network address, and whether it acted with a table's sign-in rather than a typed code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The device cookie's hash.
    pub device: Option<String>,
    /// The network address.
    pub address: Option<String>,
    /// Whether it was sent with a table's sign-in.
    pub signed_in: bool,
    /// Whether it came without a device cookie (the server gave its device one with the answer); not kept.
    pub fresh: bool,
}

fn report_of(r: &Row<'_>) -> rusqlite::Result<Report> {
    let outcome: String = r.get(2)?;
    let (a, b): (Option<i64>, Option<i64>) = (r.get(4)?, r.get(5)?);
    Ok(Report {
        match_id: r.get(0)?,
        player: r.get(1)?,
        outcome: Outcome::parse(&outcome).unwrap_or(Outcome::Draw),
        reason: r.get(3)?,
        life: a.zip(b),
        at: r.get(6)?,
        id: r.get::<_, Option<i64>>(7)?.unwrap_or(0),
        origin: Origin { device: r.get(8)?, address: r.get(9)?, signed_in: r.get::<_, i64>(10)? != 0, fresh: false },
    })
}

/// The reports waiting at a match, oldest first.
pub fn of_match(conn: &Connection, m: MatchId) -> Result<Vec<Report>> {
    let mut stmt = conn.prepare_cached(
        "SELECT match_id, player_id, outcome, reason, life_a, life_b, at, report_no, device, address, signed_in
         FROM self_report WHERE match_id = ?1 ORDER BY at, player_id",
    )?;
    let rows = stmt.query_map([m], report_of)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The reports waiting in a round, by table then time.
pub fn of_round(conn: &Connection, round: u32) -> Result<Vec<Report>> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.match_id, r.player_id, r.outcome, r.reason, r.life_a, r.life_b, r.at, r.report_no, r.device,
             r.address, r.signed_in
         FROM self_report r JOIN match m ON m.id = r.match_id
         WHERE m.round = ?1 ORDER BY m.table_no, r.at, r.player_id",
    )?;
    let rows = stmt.query_map([round], report_of)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Keeps a player's report (replacing their own earlier one at the match).
pub fn put(conn: &Connection, r: &Report) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO self_report (match_id, player_id, outcome, reason, life_a, life_b, at, report_no, device,
             address, signed_in)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, (SELECT coalesce(max(report_no), 0) + 1 FROM self_report), ?8, ?9, ?10)
         ON CONFLICT(match_id, player_id) DO UPDATE SET outcome = excluded.outcome, reason = excluded.reason,
             life_a = excluded.life_a, life_b = excluded.life_b, at = excluded.at, report_no = excluded.report_no,
             device = excluded.device, address = excluded.address, signed_in = excluded.signed_in",
    )?;
    let life = (r.life.map(|l| l.0), r.life.map(|l| l.1));
    let o = &r.origin;
    stmt.execute(params![
        r.match_id,
        r.player,
        r.outcome.as_str(),
        r.reason,
        life.0,
        life.1,
        r.at,
        o.device,
        o.address,
        i64::from(o.signed_in)
    ])?;
    Ok(())
}

/// A result confirmed on a device both players acted on, or from the reporter's network address: the other
/// player's word stays open until the next round is paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flag {
    /// The match.
    pub match_id: MatchId,
    /// `table-device` or `same-address`.
    pub kind: String,
    /// Who reported.
    pub reporter: PlayerId,
    /// Whose confirmation it was.
    pub confirmer: PlayerId,
    /// When (RFC 3339).
    pub at: String,
    /// When the confirming player said that is not what happened (RFC 3339).
    pub disputed_at: Option<String>,
}

fn flag_of(r: &Row<'_>) -> rusqlite::Result<Flag> {
    Ok(Flag {
        match_id: r.get(0)?,
        kind: r.get(1)?,
        reporter: r.get(2)?,
        confirmer: r.get(3)?,
        at: r.get(4)?,
        disputed_at: r.get(5)?,
    })
}

/// Flags a confirmed result (replacing the match's earlier flag).
pub fn flag(conn: &Connection, f: &Flag) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT OR REPLACE INTO result_flag (match_id, kind, reporter_id, confirmer_id, at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    stmt.execute(params![f.match_id, f.kind, f.reporter, f.confirmer, f.at])?;
    Ok(())
}

/// The flagged results of a round, by table.
pub fn flags_of_round(conn: &Connection, round: u32) -> Result<Vec<Flag>> {
    let mut stmt = conn.prepare_cached(
        "SELECT f.match_id, f.kind, f.reporter_id, f.confirmer_id, f.at, f.disputed_at FROM result_flag f
         JOIN match m ON m.id = f.match_id WHERE m.round = ?1 ORDER BY m.table_no",
    )?;
    let rows = stmt.query_map([round], flag_of)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The flag of match `m`'s result, if any.
pub fn flag_of_match(conn: &Connection, m: MatchId) -> Result<Option<Flag>> {
    let mut stmt = conn.prepare_cached(
        "SELECT match_id, kind, reporter_id, confirmer_id, at, disputed_at FROM result_flag WHERE match_id = ?1",
    )?;
    Ok(stmt.query_row([m], flag_of).optional()?)
}

/// Records that the confirming player disputes match `m`'s flagged result, at `at`.
pub fn dispute(conn: &Connection, m: MatchId, at: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE result_flag SET disputed_at = ?2 WHERE match_id = ?1")?;
    stmt.execute(params![m, at])?;
    Ok(())
}

/// Removes a match's waiting reports (a result was recorded); returns how many there were.
pub fn settle(conn: &Connection, m: MatchId) -> Result<usize> {
    let mut stmt = conn.prepare_cached("DELETE FROM self_report WHERE match_id = ?1")?;
    Ok(stmt.execute([m])?)
}

/// A player's call for a judge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// Row id.
    pub id: i64,
    /// The match (so the table and round).
    pub match_id: MatchId,
    /// The player who called.
    pub player: PlayerId,
    /// Since when (RFC 3339).
    pub at: String,
}

fn call_of(r: &Row<'_>) -> rusqlite::Result<Call> {
    Ok(Call { id: r.get(0)?, match_id: r.get(1)?, player: r.get(2)?, at: r.get(3)? })
}

/// The open call at a match, if any.
pub fn open_call(conn: &Connection, m: MatchId) -> Result<Option<Call>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, match_id, player_id, at FROM judge_call WHERE match_id = ?1 AND closed_at IS NULL",
    )?;
    Ok(stmt.query_row([m], call_of).optional()?)
}

/// The open calls in a round, by table.
pub fn open_calls(conn: &Connection, round: u32) -> Result<Vec<Call>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.match_id, c.player_id, c.at FROM judge_call c JOIN match m ON m.id = c.match_id
         WHERE m.round = ?1 AND c.closed_at IS NULL ORDER BY m.table_no, c.at",
    )?;
    let rows = stmt.query_map([round], call_of)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Opens a call; returns its id.
pub fn open(conn: &Connection, m: MatchId, player: PlayerId, at: &str) -> Result<i64> {
    let mut stmt = conn.prepare_cached("INSERT INTO judge_call (match_id, player_id, at) VALUES (?1, ?2, ?3)")?;
    stmt.execute(params![m, player, at])?;
    Ok(conn.last_insert_rowid())
}

/// Closes the calls still open in a round (a new round is paired): when and by which judge; how many.
pub fn close_open_of_round(conn: &Connection, round: u32, at: &str, judge: &str) -> Result<usize> {
    let mut stmt = conn.prepare_cached(
        "UPDATE judge_call SET closed_at = ?2, closed_by = ?3
         WHERE closed_at IS NULL AND match_id IN (SELECT id FROM match WHERE round = ?1)",
    )?;
    Ok(stmt.execute(params![round, at, judge])?)
}

/// Closes a call: when and by which judge.
pub fn close(conn: &Connection, id: i64, at: &str, judge: &str) -> Result<()> {
    let mut stmt = conn
        .prepare_cached("UPDATE judge_call SET closed_at = ?2, closed_by = ?3 WHERE id = ?1 AND closed_at IS NULL")?;
    stmt.execute(params![id, at, judge])?;
    Ok(())
}
