//! Matches (one game each) and byes.

use super::{LibraryId, MatchId, PlayerId};
use crate::error::Result;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// Who won a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player at seat A won (also a bye).
    A,
    /// The player at seat B won.
    B,
    /// A draw.
    Draw,
}

impl Outcome {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::A => "A",
            Outcome::B => "B",
            Outcome::Draw => "draw",
        }
    }

    /// From its stored word.
    pub fn parse(s: &str) -> Option<Outcome> {
        match s {
            "A" => Some(Outcome::A),
            "B" => Some(Outcome::B),
            "draw" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// A match as stored. A bye has no table and no B player.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Match {
    /// Row id.
    pub id: MatchId,
    /// Round number.
    pub round: u32,
    /// Table number (None for a bye).
    pub table: Option<u32>,
    /// The player at seat A (the player with the bye).
    pub a: PlayerId,
    /// The player at seat B (None for a bye).
    pub b: Option<PlayerId>,
    /// Library used by seat A.
    pub a_library: Option<LibraryId>,
    /// Library used by seat B.
    pub b_library: Option<LibraryId>,
    /// The result, once recorded.
    pub outcome: Option<Outcome>,
    /// Why (life, decking, time, bye, ...).
    pub reason: Option<String>,
    /// Life totals at the end (A, B), when recorded.
    pub life: Option<(i64, i64)>,
    /// A judge's remark.
    pub note: Option<String>,
    /// When the result was recorded.
    pub result_at: Option<String>,
}

impl Match {
    /// Whether this is a bye.
    pub fn is_bye(&self) -> bool {
        self.b.is_none()
    }

    /// Whether the player sits at this match.
    pub fn has(&self, p: PlayerId) -> bool {
        self.a == p || self.b == Some(p)
    }

    /// The opponent of `p` at this match.
    pub fn opponent(&self, p: PlayerId) -> Option<PlayerId> {
        if self.a == p {
            self.b
        } else if self.b == Some(p) {
            Some(self.a)
        } else {
            None
        }
    }
}

/// A match to insert.
#[derive(Debug, Clone)]
pub struct NewMatch {
    /// Round number.
    pub round: u32,
    /// Table (None for a bye).
    pub table: Option<u32>,
    /// Seat A player.
    pub a: PlayerId,
    /// Seat B player (None for a bye).
    pub b: Option<PlayerId>,
    /// Seat A library.
    pub a_library: Option<LibraryId>,
    /// Seat B library.
    pub b_library: Option<LibraryId>,
}

/// `SELECT` of every match column followed by the rest of the statement.
macro_rules! select_match {
    ($tail:literal) => {
        concat!(
            "SELECT id, round, table_no, a_player, b_player, a_library, b_library, result, reason, life_a, life_b, note, result_at FROM match ",
            $tail
        )
    };
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Match> {
    let outcome: Option<String> = r.get(7)?;
    let life_a: Option<i64> = r.get(9)?;
    let life_b: Option<i64> = r.get(10)?;
    Ok(Match {
        id: r.get(0)?,
        round: r.get(1)?,
        table: r.get(2)?,
        a: r.get(3)?,
        b: r.get(4)?,
        a_library: r.get(5)?,
        b_library: r.get(6)?,
        outcome: outcome.as_deref().and_then(Outcome::parse),
        reason: r.get(8)?,
        life: life_a.zip(life_b),
        note: r.get(11)?,
        result_at: r.get(12)?,
    })
}

/// Inserts a match (or a bye: no table, no B; its result is set by the caller).
pub fn insert(conn: &Connection, m: &NewMatch) -> Result<MatchId> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO match (round, table_no, a_player, b_player, a_library, b_library) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    stmt.execute(params![m.round, m.table, m.a, m.b, m.a_library, m.b_library])?;
    Ok(MatchId(conn.last_insert_rowid()))
}

/// One match by id.
pub fn get(conn: &Connection, id: MatchId) -> Result<Match> {
    let mut stmt = conn.prepare_cached(select_match!("WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row)?)
}

/// The matches of a round: tables in order, byes last.
pub fn of_round(conn: &Connection, round: u32) -> Result<Vec<Match>> {
    let mut stmt = conn.prepare_cached(select_match!("WHERE round = ?1 ORDER BY table_no IS NULL, table_no, id"))?;
    let rows = stmt.query_map([round], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The byes of a round (matches without a seat B), in the order [`of_round`] lists them.
pub fn byes_of_round(conn: &Connection, round: u32) -> Result<Vec<Match>> {
    let mut stmt = conn.prepare_cached(select_match!(
        "WHERE round = ?1 AND b_player IS NULL ORDER BY table_no IS NULL, table_no, id"
    ))?;
    let rows = stmt.query_map([round], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every match of the event, by round then table, with only what standings read: players, table and result,
/// and with `libraries` also the libraries and the result's reason (what wins above par reads); life totals,
/// remarks and result times are left out (None). The result is matched as it is stored, without a string per
/// match, and the matches are sorted here, not by SQLite (its sorter costs more than reading every match).
pub fn for_standings(conn: &Connection, libraries: bool) -> Result<Vec<Match>> {
    let sql = if libraries {
        "SELECT id, round, table_no, a_player, b_player, result, a_library, b_library, reason FROM match"
    } else {
        "SELECT id, round, table_no, a_player, b_player, result FROM match"
    };
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map([], |r| {
        let outcome = match r.get_ref(5)? {
            ValueRef::Text(b"A") => Some(Outcome::A),
            ValueRef::Text(b"B") => Some(Outcome::B),
            ValueRef::Text(b"draw") => Some(Outcome::Draw),
            _ => None,
        };
        let (a_library, b_library, reason) =
            if libraries { (r.get(6)?, r.get(7)?, r.get(8)?) } else { (None, None, None) };
        Ok(Match {
            id: r.get(0)?,
            round: r.get(1)?,
            table: r.get(2)?,
            a: r.get(3)?,
            b: r.get(4)?,
            a_library,
            b_library,
            outcome,
            reason,
            life: None,
            note: None,
            result_at: None,
        })
    })?;
    let mut all: Vec<Match> = rows.collect::<rusqlite::Result<_>>()?;
    all.sort_unstable_by_key(|m| (m.round, m.table.is_none(), m.table, m.id));
    Ok(all)
}

/// Every match of the event, by round then table.
pub fn all(conn: &Connection) -> Result<Vec<Match>> {
    let mut stmt = conn.prepare_cached(select_match!("ORDER BY round, table_no IS NULL, table_no, id"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every match a player played or had a bye in, by round.
pub fn of_player(conn: &Connection, p: PlayerId) -> Result<Vec<Match>> {
    let mut stmt = conn.prepare_cached(select_match!("WHERE a_player = ?1 OR b_player = ?1 ORDER BY round"))?;
    let rows = stmt.query_map([p], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The match at a table in a round.
pub fn at_table(conn: &Connection, round: u32, table: u32) -> Result<Option<Match>> {
    let mut stmt = conn.prepare_cached(select_match!("WHERE round = ?1 AND table_no = ?2"))?;
    Ok(stmt.query_row(params![round, table], from_row).optional()?)
}

/// A result to record.
#[derive(Debug, Clone)]
pub struct ResultRecord<'a> {
    /// Who won.
    pub outcome: Outcome,
    /// Why (life, decking, ...).
    pub reason: &'a str,
    /// Life totals (A, B).
    pub life: Option<(i64, i64)>,
    /// A judge's remark.
    pub note: Option<&'a str>,
    /// When (RFC 3339).
    pub at: &'a str,
}

/// Records (or overwrites) a match's result.
pub fn set_result(conn: &Connection, id: MatchId, r: &ResultRecord<'_>) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE match SET result = ?2, reason = ?3, life_a = ?4, life_b = ?5, note = ?6, result_at = ?7 WHERE id = ?1",
    )?;
    stmt.execute(params![id, r.outcome.as_str(), r.reason, r.life.map(|l| l.0), r.life.map(|l| l.1), r.note, r.at])?;
    Ok(())
}

/// Sets (or clears) the turn a match was on when time was called.
pub fn set_turn(conn: &Connection, id: MatchId, turn: Option<u32>) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE match SET turn_at_time = ?2 WHERE id = ?1")?;
    stmt.execute(params![id, turn])?;
    Ok(())
}

/// The turn a match was on when time was called, when recorded.
pub fn turn_of(conn: &Connection, id: MatchId) -> Result<Option<u32>> {
    let mut stmt = conn.prepare_cached("SELECT turn_at_time FROM match WHERE id = ?1")?;
    Ok(stmt.query_row([id], |r| r.get::<_, Option<u32>>(0)).optional()?.flatten())
}

/// The turns at time recorded in a round, by match.
pub fn turns_of_round(conn: &Connection, round: u32) -> Result<std::collections::BTreeMap<MatchId, u32>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, turn_at_time FROM match WHERE round = ?1 AND turn_at_time IS NOT NULL")?;
    let rows = stmt.query_map([round], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Takes a match's result back: the match is playing again.
pub fn clear_result(conn: &Connection, id: MatchId) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE match SET result = NULL, reason = NULL, life_a = NULL, life_b = NULL, note = NULL, result_at = NULL,
         turn_at_time = NULL WHERE id = ?1",
    )?;
    stmt.execute([id])?;
    Ok(())
}

/// Swaps two players' places in a round's matches (used by `round swap`).
pub fn set_players(conn: &Connection, id: MatchId, a: PlayerId, b: Option<PlayerId>) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE match SET a_player = ?2, b_player = ?3 WHERE id = ?1")?;
    stmt.execute(params![id, a, b])?;
    Ok(())
}

/// A round's tables (its matches other than byes) and those with a result: one count, not every match read.
pub fn counts_of_round(conn: &Connection, round: u32) -> Result<(usize, usize)> {
    let mut stmt =
        conn.prepare_cached("SELECT count(*), count(result) FROM match WHERE round = ?1 AND b_player IS NOT NULL")?;
    let (tables, finished): (i64, i64) = stmt.query_row([round], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok((usize::try_from(tables).unwrap_or(0), usize::try_from(finished).unwrap_or(0)))
}

/// The lowest and highest table numbers of a round (None when it has no tables).
pub fn table_span(conn: &Connection, round: u32) -> Result<Option<(u32, u32)>> {
    let mut stmt = conn.prepare_cached("SELECT min(table_no), max(table_no) FROM match WHERE round = ?1")?;
    let (lo, hi): (Option<u32>, Option<u32>) = stmt.query_row([round], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(lo.zip(hi))
}

/// A player's match (or bye) in a round, if paired.
pub fn of_player_in_round(conn: &Connection, p: PlayerId, round: u32) -> Result<Option<Match>> {
    let mut stmt = conn.prepare_cached(select_match!("WHERE round = ?1 AND (a_player = ?2 OR b_player = ?2)"))?;
    Ok(stmt.query_row(params![round, p], from_row).optional()?)
}

/// Sets the libraries of a match's two seats (sealed libraries follow their players in `round swap`).
pub fn set_libraries(conn: &Connection, id: MatchId, a: Option<LibraryId>, b: Option<LibraryId>) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE match SET a_library = ?2, b_library = ?3 WHERE id = ?1")?;
    stmt.execute(params![id, a, b])?;
    Ok(())
}

/// Tables of a round where something was already recorded besides a result: notes, challenges,
/// rulings, penalties, extensions, timed decisions or stalls (taking the round back would lose them).
pub fn tables_with_records(conn: &Connection, round: u32) -> Result<Vec<u32>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT m.table_no FROM match m WHERE m.round = ?1 AND m.table_no IS NOT NULL AND (
            EXISTS (SELECT 1 FROM template_note x WHERE x.match_id = m.id)
            OR EXISTS (SELECT 1 FROM challenge x WHERE x.match_id = m.id)
            OR EXISTS (SELECT 1 FROM ruling x WHERE x.match_id = m.id)
            OR EXISTS (SELECT 1 FROM penalty x WHERE x.match_id = m.id)
            OR EXISTS (SELECT 1 FROM extension x WHERE x.match_id = m.id)
            OR EXISTS (SELECT 1 FROM decision x WHERE x.match_id = m.id)
            OR EXISTS (SELECT 1 FROM stall x WHERE x.match_id = m.id))
         ORDER BY m.table_no",
    )?;
    let rows = stmt.query_map([round], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What a match already holds of its game besides a result, each count leaving voided records out: what binds
/// the players seated there (a swap of seats would leave it with the wrong players).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameRecords {
    /// Template notes.
    pub notes: i64,
    /// Challenges.
    pub challenges: i64,
    /// Penalties given at the match.
    pub penalties: i64,
    /// Rulings.
    pub rulings: i64,
    /// Extensions of the table's round time.
    pub extensions: i64,
    /// Stalls logged on the live clock.
    pub stalls: i64,
    /// Decisions timed and finished.
    pub decisions: i64,
    /// A decision still running (0 or 1).
    pub running: i64,
    /// Players' result reports waiting for the opponent.
    pub reports: i64,
    /// Judge calls still open.
    pub calls: i64,
}

/// [`GameRecords`] of one match, in one read.
pub fn game_records(conn: &Connection, id: MatchId) -> Result<GameRecords> {
    let mut stmt = conn.prepare_cached(
        "SELECT
            (SELECT count(*) FROM template_note x WHERE x.match_id = ?1
                AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'note' AND v.record_id = x.id)),
            (SELECT count(*) FROM challenge x WHERE x.match_id = ?1
                AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'challenge' AND v.record_id = x.id)),
            (SELECT count(*) FROM penalty x WHERE x.match_id = ?1
                AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'penalty' AND v.record_id = x.id)),
            (SELECT count(*) FROM ruling x WHERE x.match_id = ?1
                AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'ruling' AND v.record_id = x.id)),
            (SELECT count(*) FROM extension x WHERE x.match_id = ?1
                AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'extension' AND v.record_id = x.id)),
            (SELECT count(*) FROM stall x WHERE x.match_id = ?1
                AND NOT EXISTS (SELECT 1 FROM void v WHERE v.kind = 'stall' AND v.record_id = x.id)),
            (SELECT count(*) FROM decision x WHERE x.match_id = ?1 AND x.ended_at IS NOT NULL),
            (SELECT count(*) FROM decision x WHERE x.match_id = ?1 AND x.ended_at IS NULL),
            (SELECT count(*) FROM self_report x WHERE x.match_id = ?1),
            (SELECT count(*) FROM judge_call x WHERE x.match_id = ?1 AND x.closed_at IS NULL)",
    )?;
    Ok(stmt.query_row([id], |r| {
        Ok(GameRecords {
            notes: r.get(0)?,
            challenges: r.get(1)?,
            penalties: r.get(2)?,
            rulings: r.get(3)?,
            extensions: r.get(4)?,
            stalls: r.get(5)?,
            decisions: r.get(6)?,
            running: r.get(7)?,
            reports: r.get(8)?,
            calls: r.get(9)?,
        })
    })?)
}

/// Who sat where in one match, and its result: the lean row the movement needs for its history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seating {
    /// Round number.
    pub round: u32,
    /// Table (None for a bye).
    pub table: Option<u32>,
    /// Seat A player (the player with the bye).
    pub a: PlayerId,
    /// Seat B player (None for a bye).
    pub b: Option<PlayerId>,
    /// The result, once recorded.
    pub outcome: Option<Outcome>,
    /// The table seat A's library belongs to, for fixed libraries (a game played elsewhere for a player who
    /// stays at one table has its libraries carried there); None for a bye or a sealed library.
    pub libraries_of: Option<u32>,
}

/// Every match of rounds 1..=`up_to`, by round then table (byes first: the order of the round's index).
/// Read in the table's own order and sorted here: walking the round index would look every row up twice.
pub fn seatings(conn: &Connection, up_to: u32) -> Result<Vec<Seating>> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.id, m.round, m.table_no, m.a_player, m.b_player, m.result, l.table_no
         FROM match m NOT INDEXED LEFT JOIN library l ON l.id = m.a_library WHERE m.round <= ?1",
    )?;
    let mut rows = stmt.query([up_to])?;
    let mut seatings: Vec<(i64, Seating)> = Vec::new();
    while let Some(r) = rows.next()? {
        let outcome = r.get_ref(5)?.as_str_or_null().map_err(rusqlite::Error::from)?.and_then(Outcome::parse);
        let (round, table, a, b, libraries_of) = (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(6)?);
        let seating = Seating { round, table, a, b, outcome, libraries_of };
        seatings.push((r.get(0)?, seating));
    }
    seatings.sort_unstable_by_key(|(id, s)| (s.round, s.table, *id));
    Ok(seatings.into_iter().map(|(_, s)| s).collect())
}

/// Tables of a round whose match has no result yet, in order (byes always have one).
pub fn open_tables(conn: &Connection, round: u32) -> Result<Vec<u32>> {
    let mut stmt = conn.prepare_cached(
        "SELECT table_no FROM match WHERE round = ?1 AND result IS NULL AND table_no IS NOT NULL ORDER BY table_no",
    )?;
    let rows = stmt.query_map([round], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The seats of one round (its matches as [`Seating`]s), in [`of_round`]'s order: tables in order, byes last.
pub fn seatings_of_round(conn: &Connection, round: u32) -> Result<Vec<Seating>> {
    // In the index's order (round, table), which SQLite reads without sorting; the rows without a table
    // (byes) come first there and are moved last here.
    let mut stmt = conn.prepare_cached(
        "SELECT m.table_no, m.a_player, m.b_player, m.result, l.table_no
         FROM match m LEFT JOIN library l ON l.id = m.a_library WHERE m.round = ?1 ORDER BY m.table_no, m.id",
    )?;
    let rows = stmt.query_map([round], |r| {
        Ok(Seating {
            round,
            table: r.get(0)?,
            a: r.get(1)?,
            b: r.get(2)?,
            outcome: r.get_ref(3)?.as_str_or_null()?.and_then(Outcome::parse),
            libraries_of: r.get(4)?,
        })
    })?;
    Ok(byes_last(rows.collect::<rusqlite::Result<_>>()?, |m: &Seating| m.table))
}

/// Rows read in the round index's order (round, table) have the byes (no table) first: moves them last.
fn byes_last<T>(mut all: Vec<T>, table: impl Fn(&T) -> Option<u32>) -> Vec<T> {
    let byes = all.iter().take_while(|m| table(m).is_none()).count();
    all.rotate_left(byes);
    all
}

/// The fixed libraries of round `round` played away from their own table (for players who stay at one table), as
/// (their own table, seat, the table played at), by the table played at.
pub fn carried_libraries(conn: &Connection, round: u32) -> Result<Vec<(u32, String, u32)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT l.table_no, l.seat, m.table_no FROM match m JOIN library l ON l.id IN (m.a_library, m.b_library)
         WHERE m.round = ?1 AND m.table_no IS NOT NULL AND l.table_no IS NOT NULL AND l.seat IS NOT NULL
           AND l.table_no != m.table_no
         ORDER BY m.table_no, l.table_no, l.seat",
    )?;
    let rows = stmt.query_map([round], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One seat of a match as a round's pairings show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatLine {
    /// The player.
    pub player: PlayerId,
    /// The player's name (None when no player has that id).
    pub name: Option<String>,
    /// The folded name (`domain::names::fold`) as stored with the name; None when not stored yet.
    pub name_fold: Option<String>,
    /// The library's label ("3A", "sealed #7"), or "-" when the seat has none.
    pub library: String,
}

/// One match of a round with what its pairings show: names and library labels (read with the match, so
/// nothing else of the event is loaded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingLine {
    /// Table number (None for a bye).
    pub table: Option<u32>,
    /// Seat A (the player with the bye).
    pub a: SeatLine,
    /// Seat B (None for a bye).
    pub b: Option<SeatLine>,
    /// The result, once recorded.
    pub outcome: Option<Outcome>,
}

/// The matches of a round with their players' names and libraries' labels, in [`of_round`]'s order: tables in
/// order, byes last.
pub fn pairing_lines(conn: &Connection, round: u32) -> Result<Vec<PairingLine>> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.table_no, m.result,
                m.a_player, pa.name, pa.name_fold, la.id, la.table_no, la.seat,
                m.b_player, pb.name, pb.name_fold, lb.id, lb.table_no, lb.seat
         FROM match m
         LEFT JOIN player pa ON pa.id = m.a_player
         LEFT JOIN library la ON la.id = m.a_library
         LEFT JOIN player pb ON pb.id = m.b_player
         LEFT JOIN library lb ON lb.id = m.b_library
         WHERE m.round = ?1 ORDER BY m.table_no, m.id",
    )?;
    let seat = |r: &Row<'_>, at: usize| -> rusqlite::Result<SeatLine> {
        let library = match r.get::<_, Option<LibraryId>>(at + 3)? {
            Some(id) => super::library::label_of(id, r.get(at + 4)?, r.get_ref(at + 5)?.as_str_or_null()?),
            None => "-".to_string(),
        };
        Ok(SeatLine { player: r.get(at)?, name: r.get(at + 1)?, name_fold: r.get(at + 2)?, library })
    };
    let rows = stmt.query_map([round], |r| {
        let b = match r.get::<_, Option<PlayerId>>(8)? {
            Some(_) => Some(seat(r, 8)?),
            None => None,
        };
        Ok(PairingLine {
            table: r.get(0)?,
            a: seat(r, 2)?,
            b,
            outcome: r.get_ref(1)?.as_str_or_null()?.and_then(Outcome::parse),
        })
    })?;
    // Read in the index's order (round, table) without a sort; the byes (no table) come first and go last.
    Ok(byes_last(rows.collect::<rusqlite::Result<_>>()?, |m: &PairingLine| m.table))
}
