//! Players' codes: what a player types at their table's device (to declare, to run the decision clock). Each
//! player gets one when added; `player codes` lists them for printing, `player code NAME --new` renews one.

use crate::error::Result;
use crate::ops::player_names;
use crate::store::{Actor, Change, PlayerId, Store, player, player_codes};
use rand::RngExt;
use rusqlite::Connection;

/// Whether a typed code has a code's shape (six digits, spaces around it aside): one that has not can be no one's
/// code, so it is answered without being checked or counted as a guess.
pub fn well_formed(code: &str) -> bool {
    let c = code.trim();
    c.len() == 6 && c.bytes().all(|b| b.is_ascii_digit())
}

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

/// The most slips one print of the codes holds: a larger event prints its codes in parts (each drawn well
/// within a page's time limit on the server, and a sheaf a judge can cut).
pub const SLIPS_PER_PART: usize = 500;

/// Which part of the codes' print a page holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Part {
    /// This part (from 1).
    pub number: usize,
    /// How many parts the print has.
    pub of: usize,
    /// The first slip's place among all (from 1).
    pub first: usize,
    /// The last slip's place.
    pub last: usize,
}

/// How many parts the codes of `players` players print in.
pub fn parts(players: usize) -> usize {
    players.div_ceil(SLIPS_PER_PART).max(1)
}

/// Part `number` (from 1) of the codes `all`, in their order; refused with the parts there are when it is not one
/// of them.
pub fn part_of(all: Vec<PlayerCode>, number: usize) -> Result<(Vec<PlayerCode>, Part)> {
    let of = parts(all.len());
    if number == 0 || number > of {
        let which = if of == 1 { "one part, part 1".to_string() } else { format!("parts 1 to {of}") };
        return Err(crate::error::Error::not_found(format!(
            "the players' codes print in {which} ({} slips at most a part): there is no part {number}",
            SLIPS_PER_PART
        )));
    }
    let first = (number - 1) * SLIPS_PER_PART;
    let slips: Vec<PlayerCode> = all.into_iter().skip(first).take(SLIPS_PER_PART).collect();
    let last = first + slips.len();
    Ok((slips, Part { number, of, first: first + 1, last }))
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
