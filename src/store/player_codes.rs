//! Players' codes (what a player types at the table's device) and the client ids of declarations sent from
//! one (a retry is recorded once).

use super::{MatchId, NoteId, PlayerId};
use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// Every player's code, by name order of the player table (id).
pub fn all(conn: &Connection) -> Result<Vec<(PlayerId, String)>> {
    let mut stmt = conn.prepare_cached("SELECT player_id, code FROM player_code ORDER BY player_id")?;
    let rows = stmt.query_map([], |r| Ok((PlayerId(r.get(0)?), r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A player's code, if the player has one.
pub fn of(conn: &Connection, player: PlayerId) -> Result<Option<String>> {
    let mut stmt = conn.prepare_cached("SELECT code FROM player_code WHERE player_id = ?1")?;
    Ok(stmt.query_row([player.0], |r| r.get(0)).optional()?)
}

/// Gives a player a new code (the old one stops working); the new code starts with a fresh count of wrong tries.
pub fn set(conn: &Connection, player: PlayerId, code: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO player_code (player_id, code) VALUES (?1, ?2)
         ON CONFLICT(player_id) DO UPDATE SET code = excluded.code",
    )?;
    stmt.execute(params![player.0, code])?;
    super::guesses::forget(conn, &super::guesses::player(player.0))
}

/// The outcome kept for a declaration's client id at a match, if it was recorded.
pub fn client_outcome(conn: &Connection, m: MatchId, client_id: &str) -> Result<Option<String>> {
    let mut stmt = conn.prepare_cached("SELECT outcome FROM note_client WHERE match_id = ?1 AND client_id = ?2")?;
    Ok(stmt.query_row(params![m.0, client_id], |r| r.get(0)).optional()?)
}

/// Keeps a declaration's client id with its note and outcome.
pub fn keep_client(conn: &Connection, m: MatchId, client_id: &str, note: NoteId, outcome: &str) -> Result<()> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO note_client (match_id, client_id, note_id, outcome) VALUES (?1, ?2, ?3, ?4)")?;
    stmt.execute(params![m.0, client_id, note.0, outcome])?;
    Ok(())
}
