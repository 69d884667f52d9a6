//! Libraries for the field the event really has: `library add-tables K` builds K more tables' libraries from
//! what is left in the pool, shaped like the libraries in play and without touching any of them (allowed after
//! round 1: nobody has played the new tables); [`seats_for`] is the check pairing makes, naming that command.

use super::balance::{LibraryLine, Sources, balance_lines, load_fixed, round1, spell_copies};
use super::supply::{self, LeftOut, Supply};
use super::{Basics, WorstPair, left_out_names, store_cards};
use crate::domain::library::{BuildError, PoolCopy, build_libraries_toward, pool_profile};
use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::store::library as store_library;
use crate::store::{Actor, Change, Store, Touched, event, pool as store_pool};
use rusqlite::Connection;

/// What `library add-tables` is asked.
#[derive(Debug, Clone, Copy)]
pub struct AddTablesInput {
    /// Tables to add (two main libraries each).
    pub tables: u32,
    /// The shuffle's seed (the event's seed when none).
    pub seed: Option<u64>,
    /// Build cards of unusable costs in (left out by default).
    pub keep_unusable: bool,
}

impl AddTablesInput {
    /// Refuses adding nothing (a front end may call this before opening the event).
    pub fn check(&self) -> Result<()> {
        if self.tables == 0 {
            return Err(Error::bad_input("add-tables 0 adds nothing: give the number of tables to add, e.g. 1"));
        }
        Ok(())
    }
}

/// What `library add-tables` did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct AddedTables {
    pub seed: u64,
    /// Tables added.
    pub added: u32,
    /// The first new table.
    pub first_table: u32,
    /// Tables with libraries now.
    pub tables: u32,
    pub size: usize,
    pub utopia: u32,
    /// The new libraries only (the others are as they were).
    pub libraries: Vec<LibraryLine>,
    pub mean_distance: f64,
    pub worst_pair: Option<WorstPair>,
    /// Basic lands for the new Utopia libraries.
    pub basics: Basics,
    pub spells_left: usize,
    pub unusable_in_libraries: Vec<String>,
    pub left_out: Vec<LeftOut>,
}

/// What `library add-tables` did, in words: "added table 8: 2 main libraries of 40 cards from what was left in
/// the pool (seed 7); tables 1 to 7 are unchanged".
pub fn added_tables_words(added: &AddedTables) -> String {
    let range = if added.added == 1 {
        format!("table {}", added.first_table)
    } else {
        format!("tables {} to {}", added.first_table, added.tables)
    };
    format!(
        "added {range}: {} of {} from what was left in the pool (seed {}); tables 1 to {} are unchanged",
        crate::domain::words::count(added.libraries.len(), "main library"),
        crate::domain::words::count(added.size, "card"),
        added.seed,
        added.first_table.saturating_sub(1)
    )
}

/// `library add-tables`: builds the libraries of K more tables in one write.
pub fn add_tables(store: &mut Store, actor: &Actor, input: AddTablesInput) -> Result<AddedTables> {
    input.check()?;
    let mut added = store.write(actor, |tx| add_in(tx, input))?;
    if input.keep_unusable {
        added.unusable_in_libraries = super::unusable_in_libraries(store.conn())?;
    }
    Ok(added)
}

fn add_in(tx: &Connection, input: AddTablesInput) -> Result<(AddedTables, Change)> {
    let AddTablesInput { tables: k, seed, keep_unusable } = input;
    let values = event::values(tx)?;
    if values.text("libraries") == "sealed" {
        let what = "this event uses sealed libraries, which travel with their players";
        let out = crate::error::WayOut::RegisterLibrary { whose: crate::error::Whose::NewPlayer };
        return Err(crate::error::Refusal::refused(what).way_out(out).into());
    }
    let existing = load_fixed(tx)?;
    let Some(last) = existing.iter().filter_map(|(l, _, _)| l.table).max() else {
        return Err(crate::error::Refusal::refused("no libraries are built yet")
            .way_out(crate::error::WayOut::BuildAll)
            .into());
    };
    let first = last + 1;
    let seed = seed.unwrap_or(values.seed());
    // The new libraries take the size of those in play, and their shape as the target.
    let model = &existing[0];
    let (size, utopia) = (model.2.len().max(1), model.0.utopia);
    let in_play: Vec<PoolCopy> = existing.iter().flat_map(|(_, _, c)| c.iter().cloned()).collect();
    let target = pool_profile(&in_play, size);
    let supply = supply::supply(tx, keep_unusable, &super::super::pool::in_use(tx)?)?;
    let libs = build_libraries_toward(&supply.copies, k, size, seed, &target)
        .map_err(|e| too_small(e, &supply, &target, k, size))?;
    for mut lib in libs {
        lib.table += last;
        let id = store_library::insert(tx, Some(lib.table), Some(&lib.seat.to_string()), None, utopia)?;
        store_cards(tx, id, &supply.copies, &lib)?;
    }
    let stored = load_fixed(tx)?;
    let (lines, _) = balance_lines(&stored, &Sources { fixed: spell_copies(tx)?, sealed: Vec::new() });
    let new: Vec<LibraryLine> = lines.into_iter().filter(|l| l.table.is_some_and(|t| t >= first)).collect();
    let worst = new
        .iter()
        .filter(|l| l.seat.as_deref() == Some("A"))
        .filter_map(|l| Some(WorstPair { table: l.table?, distance: l.pair_distance? }))
        .fold(None, |w: Option<WorstPair>, p| if w.is_none_or(|w| p.distance > w.distance) { Some(p) } else { w });
    let mean = new.iter().map(|l| l.distance_from_mean).sum::<f64>() / new.len().max(1) as f64;
    let pool_cards = store_pool::all(tx)?;
    let basics_in_pool: u32 = pool_cards.iter().filter(|c| c.is_basic()).map(|c| c.copies).sum();
    let set_out = (last * 2).saturating_mul(utopia);
    let spare = basics_in_pool.saturating_sub(set_out);
    let needed = k.saturating_mul(2).saturating_mul(utopia);
    let added = AddedTables {
        seed,
        added: k,
        first_table: first,
        tables: last + k,
        size,
        utopia,
        libraries: new,
        mean_distance: round1(mean),
        worst_pair: worst,
        basics: Basics { needed, in_pool: spare, to_find: needed.saturating_sub(spare) },
        spells_left: supply.copies.len() - 2 * k as usize * size,
        unusable_in_libraries: Vec::new(),
        left_out: supply.left_out.clone(),
    };
    let range = if k == 1 { format!("table {first}") } else { format!("tables {first} to {}", last + k) };
    let mut summary = format!(
        "added {range}: {} of {size} cards from what was left in the pool (seed {seed}); tables 1 to {last} unchanged",
        crate::domain::words::count(2 * k, "library")
    );
    if !supply.left_out.is_empty() {
        summary.push_str(&format!("; left out for unusable costs: {}", left_out_names(&supply.left_out)));
    }
    Ok((added, Change::new(summary).touching(Touched::event(Topic::Round))))
}

/// Why what is left in the pool cannot fill the new libraries: how many cards short, and of which costs.
fn too_small(e: BuildError, supply: &Supply, target: &crate::domain::library::Profile, k: u32, size: usize) -> Error {
    let BuildError::PoolTooSmall { needed, have, .. } = e else {
        return Error::refused(e.to_string());
    };
    let what = |keep: &str| {
        let shortage = supply::shortage(supply, target, 2 * k as usize, size, keep);
        format!(
            "the pool is too small to add {}: their libraries need {needed} spell copies, {have} are left in the \
             pool ({shortage})",
            count_tables(k as usize)
        )
    };
    let most = have / (2 * size);
    crate::error::Refusal::refused(what(supply::KEEP_WEB))
        .flags(what(supply::KEEP_CLI))
        .way_out_after(crate::error::Join::Semicolon, crate::error::WayOut::AddCardsOrFewer { most })
        .into()
}

fn count_tables(n: usize) -> String {
    crate::domain::words::count(n, "table")
}

/// Refuses a round of `players` when the fixed libraries cannot seat its matches (one player may have the bye),
/// naming the command that adds the tables missing. Without fixed libraries (none built yet, or a sealed event)
/// it says nothing: pairing has its own advice there.
pub fn seats_for(conn: &Connection, players: usize) -> Result<()> {
    if event::values(conn)?.text("libraries") == "sealed" {
        return Ok(());
    }
    let seats = store_library::fixed_seats(conn)?;
    // Tables 1, 2, ... up to the first that lacks a library at seat A or B.
    let mut both = vec![[false; 2]; seats.len() + 1];
    for (table, seat, _) in &seats {
        let at = both.get_mut(*table as usize).zip(["A", "B"].iter().position(|s| s == seat));
        if let Some((places, i)) = at {
            places[i] = true;
        }
    }
    let tables = both.iter().skip(1).take_while(|p| p[0] && p[1]).count() as u32;
    let matches = u32::try_from(players / 2).unwrap_or(u32::MAX);
    if tables == 0 || matches <= tables {
        return Ok(());
    }
    let more = matches - tables;
    // Before round 1 nothing is played yet: rebuilding every library for the whole field is the other way.
    let rebuild = (crate::store::round::current(conn)? == 0).then_some(matches);
    let what = format!(
        "{players} players need {} but only {tables} {}",
        count_tables(matches as usize),
        if tables == 1 { "exists" } else { "exist" },
    );
    Err(crate::error::Refusal::refused(what).way_out(crate::error::WayOut::AddTables { more, rebuild }).into())
}
