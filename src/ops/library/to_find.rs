//! What to find when the pool is short: for the tables round 1 needs (one for two players), the spell copies the
//! main libraries lack, by mana value as the libraries' curve asks them, and the basic lands the Utopia libraries
//! set out beside the tables; the same figures `library build` refuses with, for the curation report (printed from
//! the phone) to take to the shop's shelves.

use super::{Basics, MAIN_SIZE, UTOPIA_SIZE, basics, supply};
use crate::domain::library::{BUCKETS, pool_profile, shortfall_by_curve};
use crate::error::Result;
use crate::store::{player, pool as store_pool};
use rusqlite::Connection;
use std::collections::HashMap;

/// What to find for `tables` tables.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ToFind {
    /// The tables the players need (one for two players).
    pub tables: u32,
    /// Spell copies the main libraries need (two a table, 40 each).
    pub spells_needed: usize,
    /// Spell copies the pool gives them (excluded cards and unusable costs left out, as the build does).
    pub spells_have: usize,
    /// Spell copies short.
    pub spells_short: usize,
    /// About how many of them at each mana value 0, 1, ..., 6 or more, to keep the libraries' curve.
    pub by_mana_value: [u32; BUCKETS],
    /// The basic lands of the Utopia libraries: to set out beside the tables, not part of the build.
    pub basic_lands: Basics,
}

impl ToFind {
    /// "14 costing 1, 20 costing 2 and 3 costing 6 or more".
    pub fn by_cost_words(&self) -> String {
        crate::domain::library::curve_words(&self.by_mana_value)
    }
}

/// What the pool lacks for the tables the entered players need; None without players or spells in the pool, or
/// when the spells are enough (the Utopia lands alone never make the pool short).
pub fn to_find(conn: &Connection) -> Result<Option<ToFind>> {
    let players = player::count(conn)?;
    let tables = players.div_ceil(2);
    if tables == 0 {
        return Ok(None);
    }
    let supply = supply::supply(conn, false, &HashMap::new())?;
    let libraries = 2 * tables as usize;
    let spells_needed = libraries * MAIN_SIZE;
    let spells_have = supply.copies.len();
    let lands = basics(tables, UTOPIA_SIZE, &store_pool::all(conn)?);
    // The lands alone never make the pool short: the build works without them (they are set out beside the tables).
    if spells_have == 0 || spells_have >= spells_needed {
        return Ok(None);
    }
    let by_mana_value = shortfall_by_curve(&supply.copies, &pool_profile(&supply.copies, MAIN_SIZE), libraries);
    Ok(Some(ToFind {
        tables,
        spells_needed,
        spells_have,
        spells_short: spells_needed.saturating_sub(spells_have),
        by_mana_value,
        basic_lands: lands,
    }))
}
