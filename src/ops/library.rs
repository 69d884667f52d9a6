//! Libraries: building the balanced main libraries, finding a library by its label or its player, and the
//! rules every edit checks (libraries lock once round 1 is paired). Balance measures are in [`balance`],
//! views in [`show`] and [`sheets`], swaps in [`swap`], sealed registration in [`sealed`], what the pool
//! supplies in [`supply`], more tables for a larger field in [`tables`].

pub mod balance;
pub mod curve;
pub mod sealed;
pub mod sheets;
pub mod show;
pub mod supply;
pub mod swap;
pub mod tables;
pub mod to_find;

pub use tables::{AddTablesInput, AddedTables, add_tables, seats_for};

use crate::domain::library::{BuildError, BuiltLibrary, PoolCopy, basics_needed, build_libraries, pool_profile};
use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::store::library::{self as store_library, Library, LibraryCard};
use crate::store::pool::{self as store_pool, PoolCard};
use crate::store::{Actor, Change, PoolId, Store, Touched, event, round};
use balance::{LibraryLine, Sources, balance_lines, load_fixed, round1};
use rusqlite::Connection;
use std::collections::HashMap;

/// Cards in a main library (rules, "The Decks").
pub const MAIN_SIZE: usize = 40;
/// Basic lands in a Utopia library (rules, "The Decks").
pub const UTOPIA_SIZE: u32 = 30;

/// Refuses an edit of the libraries once round 1 is paired, unless forced; returns the audit note.
pub fn check_unlocked(conn: &Connection, force: bool, what: &str) -> Result<String> {
    let current = round::current(conn)?;
    if current == 0 {
        return Ok(String::new());
    }
    if !force {
        let to = format!("{what} anyway (the audit log records it)");
        let tick = if what == "rebuild them" { crate::error::Tick::BuildAgain } else { crate::error::Tick::SwapAgain };
        let locked = format!("the libraries are locked: round {current} is paired");
        return Err(crate::error::Refusal::refused(locked)
            .way_out_after(crate::error::Join::Semicolon, crate::error::WayOut::ForceAnyway { to, tick })
            .into());
    }
    Ok(format!(" (forced: round {current} is paired)"))
}

/// Reads a table-and-seat label: `3A`, `3a`, ` 12 b `.
pub fn parse_label(text: &str) -> Option<(u32, char)> {
    let t = text.trim();
    let (at, seat) = t.char_indices().last()?;
    let seat = seat.to_ascii_uppercase();
    let table: u32 = t[..at].trim().parse().ok()?;
    (table > 0 && (seat == 'A' || seat == 'B')).then_some((table, seat))
}

/// The library a judge names: `3A` (any case), or a player's name for a sealed library.
pub fn find(conn: &Connection, text: &str) -> Result<Library> {
    if let Some((table, seat)) = parse_label(text) {
        if let Some(lib) = store_library::at(conn, table, &seat.to_string())? {
            return Ok(lib);
        }
        let tables = store_library::table_count(conn)?;
        let refusal = if tables == 0 {
            crate::error::Refusal::not_found(format!("no library {table}{seat}: no libraries are built yet"))
                .way_out(crate::error::WayOut::BuildLibraries { tables: None })
        } else {
            crate::error::Refusal::not_found(format!("no library {table}{seat}: libraries are 1A to {tables}B"))
                .way_out(crate::error::WayOut::ListLibraries)
        };
        return Err(refusal.into());
    }
    // A sealed library is named by its player, found as every command finds a typed player.
    let sealed = event::values(conn)?.text("libraries") == "sealed";
    let has_sealed = sealed || store_library::all(conn)?.iter().any(|l| l.player.is_some());
    if !has_sealed {
        return Err(Error::not_found(format!(
            "\"{}\" is not a library: name one by table and seat, e.g. 3A",
            text.trim()
        )));
    }
    let p = crate::ops::player_names::find(conn, text)?;
    store_library::of_player(conn, p.id)?.ok_or_else(|| {
        let out = crate::error::WayOut::RegisterLibrary { whose: crate::error::Whose::Player };
        Error::from(crate::error::Refusal::not_found(format!("{} has no sealed library", p.name)).way_out(out))
    })
}

/// A library's name for people: `3A`, or the player's name for a sealed library.
pub fn label(lib: &Library, players: &HashMap<crate::store::PlayerId, String>) -> String {
    match lib.player.and_then(|p| players.get(&p)) {
        Some(name) if lib.table.is_none() => name.clone(),
        _ => lib.label(),
    }
}

/// Basic lands for the Utopia libraries.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Basics {
    /// Basic lands all Utopia libraries need.
    pub needed: u32,
    /// Basic land copies in the pool.
    pub in_pool: u32,
    /// Basic lands still to find.
    pub to_find: u32,
}

/// The basic lands the Utopia libraries of `tables` tables need (`utopia` each), against those in the pool.
pub fn basics(tables: u32, utopia: u32, pool: &[PoolCard]) -> Basics {
    let in_pool = pool.iter().filter(|c| c.is_basic()).map(|c| c.copies).sum();
    Basics {
        needed: tables.saturating_mul(2).saturating_mul(utopia),
        in_pool,
        to_find: basics_needed(tables, utopia, in_pool),
    }
}

/// What `library build` did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Built {
    pub seed: u64,
    pub tables: u32,
    pub size: usize,
    pub utopia: u32,
    pub libraries: Vec<LibraryLine>,
    pub mean_distance: f64,
    pub worst_pair: Option<WorstPair>,
    pub basics: Basics,
    pub spells_left: usize,
    pub unusable_in_libraries: Vec<String>,
    pub removed: Vec<String>,
    /// Cards of unusable costs left out of building (empty with `--keep-unusable`).
    pub left_out: Vec<supply::LeftOut>,
    /// Players whose table lost its libraries: they no longer stay at it (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stays_ended: Vec<StayEnded>,
}

/// A player's stay at a table ended because the table has no libraries any more.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StayEnded {
    /// The player's name.
    pub name: String,
    /// The table they stayed at.
    pub table: u32,
}

impl Built {
    /// "; Ana no longer stays at table 9 (it has no libraries now)" (empty when none).
    pub fn stays_ended_words(&self) -> String {
        self.stays_ended
            .iter()
            .map(|s| format!("; {} no longer stays at table {} (it has no libraries now)", s.name, s.table))
            .collect()
    }
}

/// The two libraries of a table furthest apart.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct WorstPair {
    pub table: u32,
    pub distance: f64,
}

/// What `library build` is asked.
#[derive(Debug, Clone, Copy)]
pub struct BuildInput {
    /// Tables to build for (two main libraries each).
    pub tables: u32,
    /// The shuffle's seed (the event's seed when none).
    pub seed: Option<u64>,
    /// Rebuild even though round 1 is paired.
    pub force: bool,
    /// Cards in each main library ([`MAIN_SIZE`] by the tournament rules).
    pub size: usize,
    /// Basic lands in each Utopia library ([`UTOPIA_SIZE`] by the tournament rules).
    pub utopia: u32,
    /// Build cards of unusable costs in (left out by default).
    pub keep_unusable: bool,
}

impl BuildInput {
    /// A build of `tables` tables with the tournament rules' sizes, unusable costs left out.
    pub fn new(tables: u32) -> BuildInput {
        BuildInput { tables, seed: None, force: false, size: MAIN_SIZE, utopia: UTOPIA_SIZE, keep_unusable: false }
    }

    /// Refuses a build of nothing (a front end may call this before opening the event).
    pub fn check(&self) -> Result<()> {
        if self.tables == 0 {
            return Err(Error::bad_input(
                "--tables 0 builds nothing: give the number of tables (players / 2, rounded up)",
            ));
        }
        if self.size == 0 || self.size > crate::domain::bounds::MAX_LIBRARY {
            return Err(Error::bad_input(format!(
                "--size {} is not a library size: give 1 to {} cards (the tournament rules say {MAIN_SIZE})",
                self.size,
                crate::domain::bounds::MAX_LIBRARY
            )));
        }
        if self.utopia == 0 || self.utopia as usize > crate::domain::bounds::MAX_LIBRARY {
            return Err(Error::bad_input(format!(
                "--utopia {} is not a Utopia library size: give 1 to {} basic lands (the tournament rules say {UTOPIA_SIZE})",
                self.utopia,
                crate::domain::bounds::MAX_LIBRARY
            )));
        }
        Ok(())
    }
}

/// `library build`: builds and stores the balanced main libraries in one write, then names the cards of
/// unusable costs that landed in them.
pub fn build(store: &mut Store, actor: &Actor, input: BuildInput) -> Result<Built> {
    input.check()?;
    let mut built = store.write(actor, |tx| build_in(tx, input))?;
    if input.keep_unusable {
        built.unusable_in_libraries = unusable_in_libraries(store.conn())?;
    }
    Ok(built)
}

/// Cards of unusable cost groups (pool check) with copies in the libraries.
pub(crate) fn unusable_in_libraries(conn: &Connection) -> Result<Vec<String>> {
    if crate::store::cards::count(conn)? == 0 {
        return Ok(Vec::new());
    }
    let used = super::pool::in_use(conn)?;
    let in_libraries: Vec<PoolCard> = store_pool::all(conn)?.into_iter().filter(|c| used.contains_key(&c.id)).collect();
    crate::ops::curation::unusable_among(conn, &in_libraries)
}

/// Builds and stores the libraries inside a transaction.
fn build_in(tx: &Connection, input: BuildInput) -> Result<(Built, Change)> {
    let BuildInput { tables, seed, force, size, utopia, keep_unusable } = input;
    let values = event::values(tx)?;
    if values.text("libraries") == "sealed" {
        let out = crate::error::WayOut::RegisterLibrary { whose: crate::error::Whose::Each };
        return Err(crate::error::Refusal::refused("this event uses sealed libraries").way_out(out).into());
    }
    let note = check_unlocked(tx, force, "rebuild them")?;
    let seed = seed.unwrap_or(values.seed());
    let pool_cards = store_pool::all(tx)?;
    let supply = supply::supply(tx, keep_unusable, &HashMap::new())?;
    let pool = &supply.copies;
    let libs = build_libraries(pool, tables, size, seed).map_err(|e| too_small(e, &supply, &pool_cards, input))?;
    let removed = store_built(tx, pool, &libs, tables, utopia)?;
    let stays_ended: Vec<StayEnded> = crate::store::player::end_stays_without_libraries(tx)?
        .into_iter()
        .map(|(name, table)| StayEnded { name, table })
        .collect();
    let stored = load_fixed(tx)?;
    let (lines, worst) = balance_lines(&stored, &Sources { fixed: pool.clone(), sealed: Vec::new() });
    let mean = lines.iter().map(|l| l.distance_from_mean).sum::<f64>() / lines.len().max(1) as f64;
    let built = Built {
        seed,
        tables,
        size,
        utopia,
        libraries: lines,
        mean_distance: round1(mean),
        worst_pair: worst.map(|(table, distance)| WorstPair { table, distance }),
        basics: basics(tables, utopia, &pool_cards),
        spells_left: pool.len() - 2 * tables as usize * size,
        unusable_in_libraries: Vec::new(),
        removed: removed.clone(),
        left_out: supply.left_out.clone(),
        stays_ended,
    };
    let mut summary = format!(
        "built {} of {size} cards for {} (seed {seed}){note}",
        crate::domain::words::count(2 * tables, "library"),
        crate::domain::words::count(tables, "table")
    );
    if !removed.is_empty() {
        summary.push_str(&format!("; removed libraries {}", removed.join(", ")));
    }
    if !supply.left_out.is_empty() {
        summary.push_str(&format!("; left out for unusable costs: {}", left_out_names(&supply.left_out)));
    }
    summary.push_str(&built.stays_ended_words());
    Ok((built, Change::new(summary).touching(Touched::event(Topic::Round))))
}

/// `Flame Wave ({3}{R}{R}{R}{R}), Absorb ({W}{U}{U})`.
pub fn left_out_names(left_out: &[supply::LeftOut]) -> String {
    left_out.iter().map(|l| format!("{} ({})", l.card, l.cost)).collect::<Vec<_>>().join(", ")
}

/// Why the pool cannot fill the libraries, per constraint: how many cards are short, and of which costs.
fn too_small(e: BuildError, supply: &supply::Supply, pool: &[PoolCard], input: BuildInput) -> Error {
    let BuildError::PoolTooSmall { needed, have, .. } = e else {
        return Error::refused(e.to_string());
    };
    let BuildInput { tables, size, utopia, .. } = input;
    let b = basics(tables, utopia, pool);
    let libraries = 2 * tables as usize;
    let what = |keep: &str| {
        let shortage = supply::shortage(supply, &pool_profile(&supply.copies, size), libraries, size, keep);
        let lands = match b.to_find {
            0 => format!("the pool holds {}", b.in_pool),
            n => format!("the pool holds {}; {n} more to find", b.in_pool),
        };
        format!(
            "the pool is too small for {}: main libraries need {needed} spell copies, the pool has {have} \
             ({shortage}); the Utopia libraries are {} basic lands to set out beside the tables ({lands})",
            crate::domain::words::count(tables, "table"),
            b.needed,
        )
    };
    let most = have / (2 * size);
    crate::error::Refusal::refused(what(supply::KEEP_WEB))
        .flags(what(supply::KEEP_CLI))
        .way_out_after(crate::error::Join::Semicolon, crate::error::WayOut::AddCardsOrBuildFewer { most })
        .into()
}

/// Writes built libraries: fixed libraries keep their rows (matches may point at them), get new cards in
/// cost order, and tables beyond the new count are removed.
fn store_built(
    tx: &Connection,
    pool: &[PoolCopy],
    libs: &[BuiltLibrary],
    tables: u32,
    utopia: u32,
) -> Result<Vec<String>> {
    let mut removed = Vec::new();
    for lib in store_library::all(tx)? {
        let beyond = lib.table.is_some_and(|t| t > tables);
        if beyond || lib.table.is_none() {
            if store_library::in_matches(tx, lib.id)? {
                return Err(Error::refused(format!(
                    "library {} has been played in a match: build at least {} tables",
                    lib.label(),
                    lib.table.unwrap_or(tables)
                )));
            }
            store_library::delete(tx, lib.id)?;
            removed.push(lib.label());
        }
    }
    for built in libs {
        let seat = built.seat.to_string();
        let id = match store_library::at(tx, built.table, &seat)? {
            Some(existing) => {
                store_library::clear_cards(tx, existing.id)?;
                store_library::set_utopia(tx, existing.id, utopia)?;
                existing.id
            }
            None => store_library::insert(tx, Some(built.table), Some(&seat), None, utopia)?,
        };
        store_cards(tx, id, pool, built)?;
    }
    Ok(removed)
}

/// Writes a built library's cards into library `id`, in cost order.
fn store_cards(tx: &Connection, id: crate::store::LibraryId, pool: &[PoolCopy], built: &BuiltLibrary) -> Result<()> {
    let mut cards: Vec<&PoolCopy> = built.cards.iter().filter_map(|&i| pool.get(i)).collect();
    // The copy's mana value is the one `cost_order` reads from its printed cost: each key is built once.
    cards.sort_by_cached_key(|c| (c.mana_value, c.cost.clone(), c.name.to_lowercase()));
    for (pos, c) in cards.iter().enumerate() {
        store_library::insert_card(
            tx,
            &LibraryCard {
                library: id,
                position: pos as u32 + 1,
                pool_id: Some(PoolId(c.pool_id)),
                name: c.name.clone(),
                mana_cost: Some(c.cost.clone()).filter(|c| !c.is_empty()),
                sideboard: false,
            },
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_bounds_stock_every_table_the_table_bound_allows() {
        use crate::domain::bounds::{MAX_BASICS, MAX_POOL, MAX_TABLES};
        let tables = u64::from(MAX_TABLES);
        assert!(MAX_POOL >= tables * 2 * MAIN_SIZE as u64, "the spells of two main libraries per table");
        assert!(MAX_BASICS >= tables * 2 * u64::from(UTOPIA_SIZE), "the basic lands of two Utopia libraries");
    }

    #[test]
    fn labels_read_table_and_seat_in_any_case() {
        assert_eq!(parse_label("3A"), Some((3, 'A')));
        assert_eq!(parse_label(" 12b "), Some((12, 'B')));
        assert_eq!(parse_label("3 a"), Some((3, 'A')));
        for bad in ["", "A", "3", "3C", "0A", "-1A", "x3A", "ä"] {
            assert_eq!(parse_label(bad), None, "{bad}");
        }
    }
}
