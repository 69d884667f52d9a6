//! Players' codes: what a player types at their table's device (to declare, to run the decision clock). Each
//! player gets one when added; `player codes` lists them for printing, `player code NAME --new` renews one.

use crate::error::Result;
use crate::ops::player_names;
use crate::store::{Actor, Change, PlayerId, Store, player, player_codes};
use rand::RngExt;
use rusqlite::Connection;

/// A player's code as `player codes` lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlayerCode {
    /// The player's id.
    pub id: PlayerId,
    /// The name.
    pub name: String,
    /// The code (six digits).
    pub code: String,
}

/// `player codes`: every player's code, in the order they were added.
pub fn codes(conn: &Connection) -> Result<Vec<PlayerCode>> {
    let codes: std::collections::HashMap<PlayerId, String> = player_codes::all(conn)?.into_iter().collect();
    Ok(player::all(conn)?
        .into_iter()
        .map(|p| PlayerCode { code: codes.get(&p.id).cloned().unwrap_or_default(), id: p.id, name: p.name })
        .collect())
}

/// The event's name, for the heading of the slips (`player codes --html`).
pub fn event_name(conn: &Connection) -> Result<String> {
    Ok(crate::store::event::values(conn)?.name().to_string())
}

/// `player code NAME`: one player's code.
pub fn code_of(conn: &Connection, query: &str) -> Result<PlayerCode> {
    let p = player_names::find(conn, query)?;
    Ok(PlayerCode { code: player_codes::of(conn, p.id)?.unwrap_or_default(), id: p.id, name: p.name })
}

/// A renewed code.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Renewed {
    /// The player and the new code.
    #[serde(flatten)]
    pub player: PlayerCode,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// `player code NAME --new`: replaces a lost code; the old one stops working at once.
pub fn renew_code(store: &mut Store, actor: &Actor, query: &str) -> Result<Renewed> {
    store.write(actor, |tx| {
        let p = player_names::find(tx, query)?;
        let old = player_codes::of(tx, p.id)?;
        let code = loop {
            let c = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
            if old.as_deref() != Some(c.as_str()) {
                break c;
            }
        };
        player_codes::set(tx, p.id, &code)?;
        let summary = format!("new player code for {} (the old one no longer works)", p.name);
        let out = Renewed { player: PlayerCode { id: p.id, name: p.name, code }, summary: summary.clone() };
        Ok((out, Change::about(summary, [p.id])))
    })
}
