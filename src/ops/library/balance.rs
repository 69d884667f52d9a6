//! The balance of libraries: their shape (curve and colours), distance from the pool's profile and from
//! their partner at the table, shared by `library build`, `list`, `show` and `swap`.

use super::label;
use crate::domain::cost::ManaCost;
use crate::domain::library::{BUCKETS, Balance, PoolCopy, Profile, balance, pair_distance, pool_profile};
use crate::domain::library::{pool_copy, printed_costs};
use crate::error::Result;
use crate::ops::player_names::names_by_id;
use crate::store::library::{self as store_library, Library, LibraryCard};
use crate::store::pool as store_pool;
use rusqlite::Connection;
use std::collections::HashMap;

/// Every physical spell copy available for building: not a land, not excluded.
pub fn spell_copies(conn: &Connection) -> Result<Vec<PoolCopy>> {
    let pool = store_pool::all(conn)?;
    // An event written before the bounds may hold more copies than any build needs: refuse, never allocate.
    // Basic lands are bounded apart (the Utopia libraries need many).
    let count = |basic: bool| pool.iter().filter(|c| c.is_basic() == basic).map(|c| u64::from(c.copies)).sum();
    let checked = crate::domain::bounds::pool(count(false)).and_then(|()| crate::domain::bounds::basics(count(true)));
    checked.map_err(|e| crate::error::Refusal::refused(e.to_string()).way_out(crate::error::WayOut::RemoveCopies))?;
    let mut out = Vec::new();
    let mut read = CostReader::default();
    for card in pool.iter().filter(|c| !c.is_land && !c.excluded) {
        let copy = read.copy(card.id.0, &card.name, card.mana_cost.as_deref());
        out.extend(std::iter::repeat_n(copy, card.copies as usize));
    }
    Ok(out)
}

/// The main-library cards of a library as copies (sideboard left out).
pub fn copies_of(cards: &[LibraryCard]) -> Vec<PoolCopy> {
    copies_read(cards, &mut CostReader::default())
}

/// [`copies_of`] with a reader shared by many libraries (each printed cost read once for all of them).
fn copies_read<'a>(cards: &'a [LibraryCard], read: &mut CostReader<'a>) -> Vec<PoolCopy> {
    cards
        .iter()
        .filter(|c| !c.sideboard)
        .map(|c| read.copy(c.pool_id.map_or(0, |p| p.0), &c.name, c.mana_cost.as_deref()))
        .collect()
}

/// [`pool_copy`] for many cards, each distinct printed cost read once (thousands of copies share a few
/// hundred costs).
#[derive(Default)]
struct CostReader<'a> {
    read: HashMap<Option<&'a str>, PoolCopy>,
}

impl<'a> CostReader<'a> {
    fn copy(&mut self, pool_id: i64, name: &str, cost: Option<&'a str>) -> PoolCopy {
        let shape = self.read.entry(cost).or_insert_with(|| pool_copy(0, "", cost));
        PoolCopy { pool_id, name: name.to_string(), ..shape.clone() }
    }
}

/// Sort key for people: mana value, then the cost as printed, then the name.
pub fn cost_order(cost: Option<&str>, name: &str) -> (u32, String, String) {
    let mv = printed_costs(cost).iter().map(ManaCost::mana_value).sum();
    (mv, cost.unwrap_or("").to_string(), name.to_lowercase())
}

/// One library's shape and balance.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LibraryLine {
    /// `3A`, or the player's name.
    pub library: String,
    /// Table (fixed libraries).
    pub table: Option<u32>,
    /// Seat (fixed libraries).
    pub seat: Option<String>,
    /// Main library cards.
    pub cards: usize,
    /// Utopia library size.
    pub utopia: u32,
    /// Cards per mana value 0, 1, 2, 3, 4, 5, 6+.
    pub curve: [u32; BUCKETS],
    /// Cards per colour W, U, B, R, G, multicolour, colourless.
    pub colors: [u32; BUCKETS],
    /// Distance in cards from the pool's profile (see docs/json.md).
    pub distance_from_mean: f64,
    /// Distance in cards from the other library at the table.
    pub pair_distance: Option<f64>,
    /// Copies beyond the first of a name.
    pub duplicates: u32,
}

/// What libraries are measured against: the pool's spells for fixed libraries, all sealed cards together
/// for sealed ones (each scaled to the library's size).
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The judges' spell copies (or, without a pool, every fixed library's cards).
    pub fixed: Vec<PoolCopy>,
    /// Every sealed library's main cards.
    pub sealed: Vec<PoolCopy>,
}

impl Sources {
    /// The sources for these libraries.
    pub fn load(conn: &Connection, libs: &[(Library, String, Vec<PoolCopy>)]) -> Result<Sources> {
        let cards_of = |sealed: bool| -> Vec<PoolCopy> {
            libs.iter()
                .filter(|(l, _, _)| l.table.is_none() == sealed)
                .flat_map(|(_, _, c)| c.iter().cloned())
                .collect()
        };
        let pool = spell_copies(conn)?;
        let fixed = if pool.is_empty() { cards_of(false) } else { pool };
        Ok(Sources { fixed, sealed: cards_of(true) })
    }
}

/// Balance of a set of libraries against their profile: one line each, and the worst table.
pub fn balance_lines(
    libs: &[(Library, String, Vec<PoolCopy>)],
    sources: &Sources,
) -> (Vec<LibraryLine>, Option<(u32, f64)>) {
    let mut profiles: HashMap<(bool, usize), Profile> = HashMap::new();
    let balances: Vec<Balance> = libs
        .iter()
        .map(|(lib, _, c)| {
            let sealed = lib.table.is_none();
            let profile = profiles
                .entry((sealed, c.len()))
                .or_insert_with(|| pool_profile(if sealed { &sources.sealed } else { &sources.fixed }, c.len()));
            balance(&c.iter().collect::<Vec<_>>(), profile)
        })
        .collect();
    let mut worst: Option<(u32, f64)> = None;
    let mut lines = Vec::with_capacity(libs.len());
    for (i, ((lib, name, copies), b)) in libs.iter().zip(&balances).enumerate() {
        let partner = lib
            .table
            .and_then(|t| libs.iter().position(|(other, _, _)| other.table == Some(t) && other.seat != lib.seat));
        let pair = partner.map(|j| pair_distance(b, &balances[j]));
        if let (Some(t), Some(d), Some(j)) = (lib.table, pair, partner)
            && j > i
            && worst.is_none_or(|(_, w)| d > w)
        {
            worst = Some((t, d));
        }
        lines.push(LibraryLine {
            library: name.clone(),
            table: lib.table,
            seat: lib.seat.clone(),
            cards: copies.len(),
            utopia: lib.utopia,
            curve: b.curve,
            colors: b.colors,
            distance_from_mean: round1(b.distance_from_mean),
            pair_distance: pair.map(round1),
            duplicates: b.duplicates,
        });
    }
    (lines, worst)
}

/// Rounded to one decimal, for people and JSON.
pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Every library with its people's name and its main cards as copies.
pub fn load_all(conn: &Connection) -> Result<Vec<(Library, String, Vec<PoolCopy>)>> {
    let players = names_by_id(conn)?;
    let mut by_lib: HashMap<crate::store::LibraryId, Vec<LibraryCard>> = HashMap::new();
    for c in store_library::all_cards(conn)? {
        by_lib.entry(c.library).or_default().push(c);
    }
    let mut read = CostReader::default();
    Ok(store_library::all(conn)?
        .into_iter()
        .map(|lib| {
            let copies = copies_read(by_lib.get(&lib.id).map(Vec::as_slice).unwrap_or(&[]), &mut read);
            let name = label(&lib, &players);
            (lib, name, copies)
        })
        .collect())
}

/// The fixed libraries (table and seat), as [`load_all`] gives them.
pub fn load_fixed(conn: &Connection) -> Result<Vec<(Library, String, Vec<PoolCopy>)>> {
    Ok(load_all(conn)?.into_iter().filter(|(l, _, _)| l.table.is_some()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_order_sorts_by_mana_value_then_cost() {
        let mut v = [cost_order(Some("{2}{U}"), "b"), cost_order(Some("{B}"), "a"), cost_order(None, "z")];
        v.sort();
        assert_eq!(v[0].2, "z");
        assert_eq!(v[1].1, "{B}");
    }
}
