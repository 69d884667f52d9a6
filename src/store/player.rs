//! Players.

use super::PlayerId;
use crate::domain::names;
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// A player as stored.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Player {
    /// Row id.
    pub id: PlayerId,
    /// Name as entered.
    pub name: String,
    /// The organiser's id (from an import), if any.
    pub ext_id: Option<String>,
    /// E-mail, if any.
    pub email: Option<String>,
    /// First round the player may be paired in.
    pub joined_round: u32,
    /// The last round played before dropping, if dropped (0 = before round 1).
    pub dropped_after: Option<u32>,
    /// Disqualified players leave the standings and the pairings.
    pub disqualified: bool,
    /// The table the player stays at every round (`player seat`), if any.
    pub stays_at: Option<u32>,
}

impl Player {
    /// Whether the player can be paired in round `round`.
    pub fn active_in(&self, round: u32) -> bool {
        !self.disqualified && self.joined_round <= round && self.dropped_after.is_none_or(|d| d >= round)
    }
}

/// A player to add.
#[derive(Debug, Clone)]
pub struct NewPlayer<'a> {
    /// Name (already trimmed and checked).
    pub name: &'a str,
    /// Unique key (see `domain::names::key`).
    pub name_key: &'a str,
    /// Organiser's id.
    pub ext_id: Option<&'a str>,
    /// E-mail.
    pub email: Option<&'a str>,
    /// First round the player may be paired in.
    pub joined_round: u32,
}

/// `SELECT` of every player column followed by the rest of the statement (a literal, never built at run time).
macro_rules! select_player {
    ($tail:literal) => {
        concat!(
            "SELECT id, name, ext_id, email, joined_round, dropped_after, disqualified, stays_at FROM player ",
            $tail
        )
    };
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Player> {
    Ok(Player {
        id: r.get(0)?,
        name: r.get(1)?,
        ext_id: r.get(2)?,
        email: r.get(3)?,
        joined_round: r.get(4)?,
        dropped_after: r.get(5)?,
        disqualified: r.get(6)?,
        stays_at: r.get(7)?,
    })
}

/// Every player, in the order they were added.
pub fn all(conn: &Connection) -> Result<Vec<Player>> {
    let mut stmt = conn.prepare_cached(select_player!("ORDER BY id"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every player's name by id, in no order (pages name thousands of players: the rest of a row is not read).
pub fn names(conn: &Connection) -> Result<std::collections::HashMap<PlayerId, String>> {
    let mut stmt = conn.prepare_cached("SELECT id, name FROM player")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every player, in the order they were added, without the organiser's id and e-mail (None): what the
/// standings read.
pub fn all_for_standings(conn: &Connection) -> Result<Vec<Player>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, name, joined_round, dropped_after, disqualified FROM player ORDER BY id")?;
    let rows = stmt.query_map([], |r| {
        Ok(Player {
            id: r.get(0)?,
            name: r.get(1)?,
            ext_id: None,
            email: None,
            joined_round: r.get(2)?,
            dropped_after: r.get(3)?,
            disqualified: r.get(4)?,
            stays_at: None,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One player by id.
pub fn get(conn: &Connection, id: PlayerId) -> Result<Player> {
    let mut stmt = conn.prepare_cached(select_player!("WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row)?)
}

/// The player whose unique key is `key`, if any.
pub fn by_key(conn: &Connection, key: &str) -> Result<Option<Player>> {
    let mut stmt = conn.prepare_cached(select_player!("WHERE name_key = ?1"))?;
    Ok(stmt.query_row([key], from_row).optional()?)
}

/// Adds a player (its folded name and skeleton are computed here, so every insert keeps them). A player added once
/// round 1 is paired counts as checked in (from round 1's pairing).
pub fn insert(conn: &Connection, p: &NewPlayer<'_>) -> Result<PlayerId> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO player (name, name_key, ext_id, email, joined_round, name_fold, name_skeleton, checked_in_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, (SELECT paired_at FROM round WHERE number = 1))",
    )?;
    let (fold, skeleton) = (names::fold(p.name), names::skeleton(p.name));
    stmt.execute(params![p.name, p.name_key, p.ext_id, p.email, p.joined_round, fold, skeleton])?;
    Ok(PlayerId(conn.last_insert_rowid()))
}

/// Sets or clears the round after which a player dropped (a drop made this way is no result's no-show drop, and
/// has no recorded reason: a judge's). A drop ends the player's stay at one table (`player seat`).
pub fn set_dropped(conn: &Connection, id: PlayerId, after: Option<u32>) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE player SET dropped_after = ?2, drop_reason = NULL, dropped_at = NULL,
                stays_at = CASE WHEN ?2 IS NULL THEN stays_at END
         WHERE id = ?1",
    )?;
    stmt.execute(params![id, after])?;
    let mut stmt = conn.prepare_cached("UPDATE match SET no_show_dropped = NULL WHERE no_show_dropped = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// Drops a player after a round because the `no-show` result of `by` says they did not come; the match keeps
/// the drop so that fixing or clearing the result can take it back.
pub fn drop_for_no_show(conn: &Connection, id: PlayerId, after: u32, by: crate::store::MatchId) -> Result<()> {
    set_dropped(conn, id, Some(after))?;
    let mut stmt = conn.prepare_cached("UPDATE match SET no_show_dropped = ?2 WHERE id = ?1")?;
    stmt.execute(params![by, id])?;
    let mut stmt = conn.prepare_cached("UPDATE player SET drop_reason = 'no-show' WHERE id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// Drops a player before round 1 because they had not checked in when it was paired (`round pair --drop-absent`).
pub fn drop_not_arrived(conn: &Connection, id: PlayerId) -> Result<()> {
    set_dropped(conn, id, Some(0))?;
    let mut stmt = conn.prepare_cached("UPDATE player SET drop_reason = 'not-arrived' WHERE id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// Why a player dropped, as kept: `not-arrived`, `no-show`, or None (a judge's drop, or no drop).
pub fn drop_reason(conn: &Connection, id: PlayerId) -> Result<Option<String>> {
    let mut stmt = conn.prepare_cached("SELECT drop_reason FROM player WHERE id = ?1")?;
    Ok(stmt.query_row([id], |r| r.get(0))?)
}

/// A player's check-in and drop reason, as kept.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Arrival {
    /// When the player was checked in (RFC 3339), if they were.
    pub checked_in_at: Option<String>,
    /// Why they dropped: `not-arrived`, `no-show`, or None (a judge's drop, or no drop).
    pub drop_reason: Option<String>,
}

/// Every player's check-in and drop reason.
pub fn arrivals(conn: &Connection) -> Result<std::collections::HashMap<PlayerId, Arrival>> {
    let mut stmt = conn.prepare_cached("SELECT id, checked_in_at, drop_reason FROM player")?;
    let rows = stmt.query_map([], |r| {
        Ok((r.get::<_, PlayerId>(0)?, Arrival { checked_in_at: r.get(1)?, drop_reason: r.get(2)? }))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One player's check-in and drop reason.
pub fn arrival(conn: &Connection, id: PlayerId) -> Result<Arrival> {
    let mut stmt = conn.prepare_cached("SELECT checked_in_at, drop_reason FROM player WHERE id = ?1")?;
    Ok(stmt.query_row([id], |r| Ok(Arrival { checked_in_at: r.get(0)?, drop_reason: r.get(1)? }))?)
}

/// Counts every player in the event (not dropped, not disqualified) who has not checked in as checked in at `at`:
/// round 1 is paired, and they play.
pub fn check_in_the_rest(conn: &Connection, at: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE player SET checked_in_at = ?1
         WHERE checked_in_at IS NULL AND dropped_after IS NULL AND disqualified = 0",
    )?;
    stmt.execute([at])?;
    Ok(())
}

/// Records when a player's drop was made (RFC 3339), after [`set_dropped`], [`drop_for_no_show`] or
/// [`drop_not_arrived`].
pub fn set_dropped_at(conn: &Connection, id: PlayerId, at: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE player SET dropped_at = ?2 WHERE id = ?1")?;
    stmt.execute(params![id, at])?;
    Ok(())
}

/// When a player's standing drop was made, if kept.
pub fn dropped_at(conn: &Connection, id: PlayerId) -> Result<Option<String>> {
    let mut stmt = conn.prepare_cached("SELECT dropped_at FROM player WHERE id = ?1 AND dropped_after IS NOT NULL")?;
    Ok(stmt.query_row([id], |r| r.get(0)).optional()?.flatten())
}

/// Records a player's check-in at `at` (RFC 3339).
pub fn set_checked_in(conn: &Connection, id: PlayerId, at: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE player SET checked_in_at = ?2 WHERE id = ?1")?;
    stmt.execute(params![id, at])?;
    Ok(())
}

/// The player the `no-show` result of a match dropped, while that drop stands.
pub fn dropped_by_no_show(conn: &Connection, by: crate::store::MatchId) -> Result<Option<PlayerId>> {
    let mut stmt = conn.prepare_cached("SELECT no_show_dropped FROM match WHERE id = ?1")?;
    Ok(stmt.query_row([by], |r| r.get::<_, Option<PlayerId>>(0)).optional()?.flatten())
}

/// Sets (or with None clears) the table a player stays at every round.
pub fn set_stays_at(conn: &Connection, id: PlayerId, table: Option<u32>) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE player SET stays_at = ?2 WHERE id = ?1")?;
    stmt.execute(params![id, table])?;
    Ok(())
}

/// The players who stay at one table, as (player, name, table), by table.
pub fn stays(conn: &Connection) -> Result<Vec<(PlayerId, String, u32)>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, name, stays_at FROM player WHERE stays_at IS NOT NULL ORDER BY stays_at, id")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Ends the stays at tables that have no fixed library at seat A or B any more (a rebuild for fewer tables):
/// returns (name, table) of each.
pub fn end_stays_without_libraries(conn: &Connection) -> Result<Vec<(String, u32)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.name, p.stays_at FROM player p
         WHERE p.stays_at IS NOT NULL
           AND (SELECT count(*) FROM library l WHERE l.table_no = p.stays_at AND l.seat IS NOT NULL) < 2
         ORDER BY p.stays_at",
    )?;
    let ended: Vec<(PlayerId, String, u32)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?;
    for (id, _, _) in &ended {
        set_stays_at(conn, *id, None)?;
    }
    Ok(ended.into_iter().map(|(_, name, table)| (name, table)).collect())
}

/// Lifts a player's disqualification (its penalty was voided).
pub fn clear_disqualified(conn: &Connection, id: PlayerId) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE player SET disqualified = 0 WHERE id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// Marks a player disqualified.
pub fn set_disqualified(conn: &Connection, id: PlayerId) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE player SET disqualified = 1, stays_at = NULL WHERE id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// What is recorded about a player, as (kind, count) for the kinds with any: matches (byes included), notes,
/// decisions, stalls, penalties and challenges (made or lost).
pub fn records(conn: &Connection, id: PlayerId) -> Result<Vec<(&'static str, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT (SELECT count(*) FROM match WHERE a_player = ?1 OR b_player = ?1),
                (SELECT count(*) FROM template_note WHERE player_id = ?1),
                (SELECT count(*) FROM decision WHERE player_id = ?1),
                (SELECT count(*) FROM stall WHERE player_id = ?1),
                (SELECT count(*) FROM penalty WHERE player_id = ?1),
                (SELECT count(*) FROM challenge WHERE by_player = ?1 OR loser = ?1)",
    )?;
    let counts: [i64; 6] =
        stmt.query_row([id], |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?]))?;
    let kinds = ["match", "note", "decision", "stall", "penalty", "challenge"];
    Ok(kinds.into_iter().zip(counts).filter(|(_, n)| *n > 0).collect())
}

/// Deletes a player who has no records (see [`records`]); the audit log keeps its entries.
pub fn delete(conn: &Connection, id: PlayerId) -> Result<()> {
    let mut stmt = conn.prepare_cached("DELETE FROM player WHERE id = ?1")?;
    stmt.execute([id])?;
    Ok(())
}

/// Renames a player.
pub fn rename(conn: &Connection, id: PlayerId, name: &str, key: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE player SET name = ?2, name_key = ?3, name_fold = ?4, name_skeleton = ?5 WHERE id = ?1",
    )?;
    stmt.execute(params![id, name, key, names::fold(name), names::skeleton(name)])?;
    Ok(())
}

/// Fills the folded name and skeleton of players that lack them (an event from before they were kept) and
/// recomputes their `name_key` with [`names::key`], keeping the old key of a player whose new key another
/// player already holds (two such names were both accepted before; they stay, and still resolve).
pub fn fill_name_keys(conn: &Connection) -> Result<()> {
    let todo: Vec<(PlayerId, String)> = {
        let mut stmt = conn.prepare("SELECT id, name FROM player WHERE name_fold IS NULL ORDER BY id")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut fill = conn.prepare(
        "UPDATE player SET name_fold = ?2, name_skeleton = ?3,
           name_key = CASE WHEN EXISTS (SELECT 1 FROM player o WHERE o.name_key = ?4 AND o.id <> ?1)
                           THEN name_key ELSE ?4 END
         WHERE id = ?1",
    )?;
    for (id, name) in todo {
        fill.execute(params![id, names::fold(&name), names::skeleton(&name), names::key(&name)])?;
    }
    Ok(())
}

/// How many players the event has.
pub fn count(conn: &Connection) -> Result<u32> {
    let mut stmt = conn.prepare_cached("SELECT count(*) FROM player")?;
    Ok(stmt.query_row([], |r| r.get(0))?)
}

/// The players a typed name may mean, narrowed inside SQLite: those with a word of the folded name starting
/// with `first_word` (the first folded word typed), with any player whose folded name is not stored yet.
/// The caller ranks them (domain::names::pick).
pub fn named_like(conn: &Connection, first_word: &str) -> Result<Vec<Player>> {
    let mut stmt = conn.prepare_cached(select_player!(
        "WHERE name_fold IS NULL OR name_fold LIKE ?1 || '%' OR name_fold LIKE '% ' || ?1 || '%' ORDER BY id"
    ))?;
    let rows = stmt.query_map([first_word], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The players who may be the same person as a name with this key and skeleton: the same key or the same
/// skeleton (with any player whose skeleton is not stored yet). The caller decides (domain::names).
pub fn same_or_alike(conn: &Connection, key: &str, skeleton: &str) -> Result<Vec<Player>> {
    let mut stmt = conn.prepare_cached(select_player!(
        "WHERE name_key = ?1 OR name_skeleton = ?2 OR name_skeleton IS NULL ORDER BY id"
    ))?;
    let rows = stmt.query_map([key, skeleton], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The `limit` players whose folded names score highest under `score` (evaluated inside SQLite, so the
/// rest of the field is never copied out), best first, with their scores.
pub fn best_scored(
    conn: &Connection,
    score: impl Fn(&str) -> f64 + Send + 'static,
    limit: u32,
) -> Result<Vec<(Player, f64)>> {
    use rusqlite::functions::FunctionFlags;
    conn.create_scalar_function(
        "mm_player_score",
        2,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        move |ctx| {
            let name = ctx.get_raw(1).as_str().unwrap_or("");
            Ok(match ctx.get_raw(0).as_str() {
                Ok(folded) => score(folded),
                Err(_) => score(&names::fold(name)),
            })
        },
    )?;
    let rows = (|| {
        let mut stmt = conn.prepare(
            "SELECT id, name, ext_id, email, joined_round, dropped_after, disqualified, stays_at,
                    mm_player_score(name_fold, name) AS score
             FROM player ORDER BY score DESC, name LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit], |r| Ok((from_row(r)?, r.get::<_, f64>(8)?)))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
    })();
    conn.remove_function("mm_player_score", 2)?;
    Ok(rows?)
}
