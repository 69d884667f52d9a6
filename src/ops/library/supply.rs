//! What the pool supplies to a build: the spell copies a library may take (not lands, not excluded, not
//! already in a library when tables are added), with the cards of unusable costs left out unless the judge
//! keeps them; and, when the pool is short, by how many cards and of which costs.

use super::balance::spell_copies;
use crate::domain::library::{PoolCopy, Profile, curve_words, shortfall_by_curve};
use crate::error::Result;
use crate::store::PoolId;
use crate::store::pool::{self as store_pool, PoolCard};
use rusqlite::Connection;
use std::collections::{HashMap, HashSet};

/// A pool card left out of building for its unusable cost (the pool check's unusable class).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LeftOut {
    /// The card's name.
    pub card: String,
    /// Its printed cost (`{3}{R}{R}{R}{R}`; empty for no cost).
    pub cost: String,
    /// Its copies left out.
    pub copies: u32,
}

/// The spell copies a build may take, and what was left out.
#[derive(Debug, Clone, Default)]
pub struct Supply {
    /// The copies, one per physical card.
    pub copies: Vec<PoolCopy>,
    /// Cards of unusable costs left out (empty with `--keep-unusable`).
    pub left_out: Vec<LeftOut>,
    /// Spell copies excluded by the judges (`pool exclude`).
    pub excluded: u32,
}

impl Supply {
    /// The copies left out for their unusable costs.
    pub fn left_out_copies(&self) -> u32 {
        self.left_out.iter().map(|l| l.copies).sum()
    }
}

/// The spell copies a build may take: every spell copy not excluded, less those already in a library
/// (`in_use`, for tables added to the ones in play), less the cards of unusable costs unless `keep_unusable`
/// (without a card reference no class is known, so nothing is left out).
pub fn supply(conn: &Connection, keep_unusable: bool, in_use: &HashMap<PoolId, u32>) -> Result<Supply> {
    let pool = store_pool::all(conn)?;
    let excluded = pool.iter().filter(|c| c.excluded && !c.is_land).map(|c| c.copies).sum();
    let unusable: Vec<&PoolCard> = if keep_unusable || crate::store::cards::count(conn)? == 0 {
        Vec::new()
    } else {
        let spells: Vec<PoolCard> = pool.iter().filter(|c| !c.is_land && !c.excluded).cloned().collect();
        let names: HashSet<String> = crate::ops::curation::unusable_among(conn, &spells)?.into_iter().collect();
        pool.iter().filter(|c| !c.is_land && !c.excluded && names.contains(&c.name)).collect()
    };
    let mut left = in_use.clone();
    let mut left_out = Vec::new();
    for card in &unusable {
        let free = card.copies.saturating_sub(left.get(&card.id).copied().unwrap_or(0));
        if free > 0 {
            left_out.push(LeftOut {
                card: card.name.clone(),
                cost: card.mana_cost.clone().unwrap_or_default(),
                copies: free,
            });
        }
        left.insert(card.id, card.copies);
    }
    let mut copies = Vec::new();
    for copy in spell_copies(conn)? {
        let id = PoolId(copy.pool_id);
        match left.get_mut(&id) {
            Some(n) if *n > 0 => *n -= 1,
            _ => copies.push(copy),
        }
    }
    Ok(Supply { copies, left_out, excluded })
}

/// How the command line keeps unusable costs in, and how the web does (the set-up page's box).
pub const KEEP_CLI: &str = "--keep-unusable";
/// See [`KEEP_CLI`].
pub const KEEP_WEB: &str = "ticking Keep unusable cards in";

/// Why the supply cannot fill `libraries` libraries of `size` shaped like `target`: how many cards are short
/// and of which costs, and what else the pool holds that a judge could use.
/// `keep`: how the front end keeps unusable costs in (the command line's `--keep-unusable`, the web's box).
pub fn shortage(supply: &Supply, target: &Profile, libraries: usize, size: usize, keep: &str) -> String {
    let needed = libraries.saturating_mul(size);
    let have = supply.copies.len();
    let by_cost = curve_words(&shortfall_by_curve(&supply.copies, target, libraries));
    let mut text = format!("{} short", needed.saturating_sub(have));
    if !by_cost.is_empty() {
        text.push_str(&format!(": about {by_cost} to keep the libraries' curve"));
    }
    let mut apart = Vec::new();
    if supply.excluded > 0 {
        let verb = if supply.excluded == 1 { "is" } else { "are" };
        let copies = crate::domain::words::noun_for(supply.excluded, "copy");
        apart.push(format!("{} more {copies} {verb} excluded", supply.excluded));
    }
    let unusable = supply.left_out_copies();
    if unusable > 0 {
        let (of, verb) = if unusable == 1 { ("an unusable cost", "is") } else { ("unusable costs", "are") };
        let copies = crate::domain::words::count(unusable, "copy");
        apart.push(format!("{copies} of {of} {verb} left out, which {keep} builds in"));
    }
    if !apart.is_empty() {
        text.push_str(&format!("; {}", apart.join(", ")));
    }
    text
}
