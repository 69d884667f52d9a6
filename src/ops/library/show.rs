//! What `library list` and `library show` read: every library's balance, one library's cards sorted by cost.

use super::balance::{LibraryLine, Sources, balance_lines, cost_order, load_all};
use super::{find, label};
use crate::error::Result;
use crate::ops::player_names::names_by_id;
use crate::store::library::{self as store_library, Library, LibraryCard};
use crate::store::pool as store_pool;
use crate::store::{PoolId, cards, round};
use rusqlite::Connection;
use std::collections::HashMap;

/// Every library's balance (`library list`).
#[derive(Debug, Clone)]
pub struct LibraryList {
    /// One line per library.
    pub lines: Vec<LibraryLine>,
    /// The table whose two libraries are furthest apart, and how far.
    pub worst: Option<(u32, f64)>,
    /// Round 1 is paired: the libraries are locked.
    pub locked: bool,
    /// Cards a fixed library should hold at each mana value 0, 1, ..., 6+: the pool's spells' curve scaled to the
    /// libraries' size, what `distance_from_mean` measures against (None when the pool has no spells).
    pub target_curve: Option<[f64; crate::domain::library::BUCKETS]>,
}

/// `library list`: every library's shape and balance.
pub fn list(conn: &Connection) -> Result<LibraryList> {
    let libs = load_all(conn)?;
    let sources = Sources::load(conn, &libs)?;
    let (lines, worst) = balance_lines(&libs, &sources);
    let size = super::curve::common_size(libs.iter().filter(|(l, _, _)| l.table.is_some()).map(|(_, _, c)| c.len()));
    let target_curve = super::curve::target_curve(&sources.fixed, size);
    Ok(LibraryList { lines, worst, locked: round::current(conn)? > 0, target_curve })
}

/// One library as `library show` reads it.
#[derive(Debug, Clone)]
pub struct LibraryView {
    /// The library.
    pub library: Library,
    /// Its label (`3A`, or the player's name when sealed).
    pub name: String,
    /// The player of a sealed library.
    pub player: Option<String>,
    /// Its cards, main library first, each part sorted by cost.
    pub cards: Vec<ShownCard>,
    /// Its balance line.
    pub balance: Option<LibraryLine>,
}

/// `library show`: the library a judge names (`3A`, or a player for a sealed library), with its cards.
pub fn show(conn: &Connection, text: &str) -> Result<LibraryView> {
    let lib = find(conn, text)?;
    let players = names_by_id(conn)?;
    let name = label(&lib, &players);
    let cards = shown_cards(conn, &lib)?;
    let libs = load_all(conn)?;
    let (lines, _) = balance_lines(&libs, &Sources::load(conn, &libs)?);
    let balance = lines.into_iter().find(|l| l.library == name);
    let player = lib.player.and_then(|p| players.get(&p)).cloned();
    Ok(LibraryView { library: lib, name, player, cards, balance })
}

/// One card of a library as shown.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ShownCard {
    /// Position in the stored library.
    pub position: u32,
    /// Card name.
    pub name: String,
    /// Printed cost.
    pub mana_cost: Option<String>,
    /// Mana value.
    pub mana_value: u32,
    /// Type line (from the pool or the reference).
    pub type_line: String,
    /// In the sealed sideboard.
    pub sideboard: bool,
}

/// A library's cards sorted by cost, with type lines from the pool or the reference.
pub fn shown_cards(conn: &Connection, lib: &Library) -> Result<Vec<ShownCard>> {
    shown_with(conn, lib, &pool_types(conn)?)
}

/// Every pool card's type line by id (load once for many libraries).
pub fn pool_types(conn: &Connection) -> Result<HashMap<PoolId, String>> {
    Ok(store_pool::all(conn)?.into_iter().map(|c| (c.id, c.type_line)).collect())
}

/// [`shown_cards`] with the pool's type lines already loaded.
pub fn shown_with(conn: &Connection, lib: &Library, pool: &HashMap<PoolId, String>) -> Result<Vec<ShownCard>> {
    shown_from(conn, store_library::cards(conn, lib.id)?, pool, &mut HashMap::new())
}

/// A library's cards (read already, in position order) as [`shown_with`] shows them; `values` keeps each
/// printed cost's mana value, read once for many libraries.
pub fn shown_from(
    conn: &Connection,
    cards: Vec<LibraryCard>,
    pool: &HashMap<PoolId, String>,
    values: &mut HashMap<Option<String>, u32>,
) -> Result<Vec<ShownCard>> {
    let mut keyed = Vec::with_capacity(cards.len());
    for c in cards {
        let type_line = match c.pool_id.and_then(|p| pool.get(&p)) {
            Some(t) => t.clone(),
            None => cards::by_name(conn, &c.name)?.map(|r| r.type_line).unwrap_or_default(),
        };
        let mana_value = match values.get(&c.mana_cost) {
            Some(&v) => v,
            None => *values.entry(c.mana_cost.clone()).or_insert(cost_order(c.mana_cost.as_deref(), "").0),
        };
        let order = (mana_value, c.mana_cost.clone().unwrap_or_default(), c.name.to_lowercase());
        let card = ShownCard {
            position: c.position,
            name: c.name,
            mana_cost: c.mana_cost,
            mana_value: order.0,
            type_line,
            sideboard: c.sideboard,
        };
        keyed.push(((card.sideboard, order), card));
    }
    // Each card's sort key is read once (a stable sort, as before).
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(keyed.into_iter().map(|(_, card)| card).collect())
}
