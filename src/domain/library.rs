//! Tournament libraries: the balance measure, the build report and the Utopia count.
//!
//! The rules ("The Decks"): judges pre-create the libraries, 40 cards in each main library and
//! 30 in each Utopia library, placed at tables across from the opposing library; they stay
//! fixed for the whole tournament while players move. Building lives in
//! [`build`], sealed starters in [`sealed`], the pool check in
//! [`super::curation`]; everything is re-exported here.
//!
//! # The balance measure
//!
//! A library's *shape* is 14 counts: its mana-value curve (buckets 0, 1, 2, 3, 4, 5, 6+) and its
//! colour spread (W, U, B, R, G, multicolour, colourless). The *pool profile* is the same 14
//! counts for the whole pool scaled to one library (pool count × size / pool copies).
//! - `distance_from_mean`: L1 distance between a library's shape and the pool profile, in
//!   cards. 0 is a library shaped exactly like the pool; one card in the wrong mana-value bucket
//!   adds up to 2, one card of the wrong colour up to 2 more.
//! - `pair_distance`: L1 distance between the shapes of the two libraries at a table.

pub use super::curation::*;
pub mod build;
pub mod sealed;

pub use build::*;
pub use sealed::*;

use super::cost::ManaCost;
use serde::Serialize;

/// The costs a stored printed cost binds with: each half of a split card, `{0}` for no cost.
pub fn printed_costs(text: Option<&str>) -> Vec<ManaCost> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => vec![ManaCost::zero()],
        Some(t) => t.split("//").map(|half| ManaCost::parse(half).unwrap_or_else(|_| ManaCost::zero())).collect(),
    }
}

/// A physical copy as library building sees it: mana value and colours of the whole card (both halves of a
/// split card together).
pub fn pool_copy(pool_id: i64, name: &str, cost: Option<&str>) -> PoolCopy {
    let costs = printed_costs(cost);
    let mana_value = costs.iter().map(ManaCost::mana_value).sum();
    let mut colors: Vec<char> = costs.iter().flat_map(|c| c.colors()).map(|c| c.as_char()).collect();
    colors.sort_unstable();
    colors.dedup();
    PoolCopy { pool_id, name: name.to_string(), cost: cost.unwrap_or("").to_string(), mana_value, colors }
}

/// Number of buckets in each half of a library's shape.
pub const BUCKETS: usize = 7;

/// One physical copy in the pool (the caller expands counts; lands and excluded cards removed).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolCopy {
    /// Store id of the pool entry this copy belongs to.
    pub pool_id: i64,
    /// Card name.
    pub name: String,
    /// Canonical printed cost.
    pub cost: String,
    /// Mana value.
    pub mana_value: u32,
    /// Colours, a subset of `W U B R G`; empty is colourless (other letters are ignored).
    pub colors: Vec<char>,
}

/// Mana-value bucket: 0..=5 as is, 6 for six and more.
pub fn curve_bucket(mana_value: u32) -> usize {
    (mana_value as usize).min(BUCKETS - 1)
}

/// Colour bucket: 0..=4 for one of W U B R G, 5 multicolour, 6 colourless.
pub fn color_bucket(colors: &[char]) -> usize {
    const ORDER: [char; 5] = ['W', 'U', 'B', 'R', 'G'];
    let mut seen = [false; 5];
    for c in colors {
        if let Some(i) = ORDER.iter().position(|o| o.eq_ignore_ascii_case(c)) {
            seen[i] = true;
        }
    }
    match seen.iter().filter(|s| **s).count() {
        0 => 6,
        1 => seen.iter().position(|s| *s).unwrap_or(6),
        _ => 5,
    }
}

/// The expected shape of one library: pool-wide counts scaled to the library size.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Profile {
    /// Expected cards per mana-value bucket.
    pub curve: [f64; BUCKETS],
    /// Expected cards per colour bucket.
    pub colors: [f64; BUCKETS],
}

/// The pool profile for libraries of `size` cards (all zero for an empty pool).
pub fn pool_profile(pool: &[PoolCopy], size: usize) -> Profile {
    let mut curve = [0.0; BUCKETS];
    let mut colors = [0.0; BUCKETS];
    for copy in pool {
        curve[curve_bucket(copy.mana_value)] += 1.0;
        colors[color_bucket(&copy.colors)] += 1.0;
    }
    let scale = if pool.is_empty() { 0.0 } else { size as f64 / pool.len() as f64 };
    curve.iter_mut().chain(colors.iter_mut()).for_each(|v| *v *= scale);
    Profile { curve, colors }
}

/// The shape of one library and how far it is from the pool profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Balance {
    /// Cards per mana-value bucket (0, 1, 2, 3, 4, 5, 6+).
    pub curve: [u32; BUCKETS],
    /// Cards per colour bucket (W, U, B, R, G, multicolour, colourless).
    pub colors: [u32; BUCKETS],
    /// L1 distance in cards from the pool profile (see the module documentation).
    pub distance_from_mean: f64,
    /// Copies beyond the first of a name in this library (0 when every name is unique).
    pub duplicates: u32,
}

/// The shape of a library and its distance from `mean` (from [`pool_profile`]).
pub fn balance(lib_cards: &[&PoolCopy], mean: &Profile) -> Balance {
    let mut curve = [0u32; BUCKETS];
    let mut colors = [0u32; BUCKETS];
    for copy in lib_cards {
        curve[curve_bucket(copy.mana_value)] += 1;
        colors[color_bucket(&copy.colors)] += 1;
    }
    let distance_from_mean = l1(&curve, &mean.curve) + l1(&colors, &mean.colors);
    let mut names: Vec<&str> = lib_cards.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    let duplicates = names.windows(2).filter(|w| w[0] == w[1]).count() as u32;
    Balance { curve, colors, distance_from_mean, duplicates }
}

fn l1(counts: &[u32; BUCKETS], mean: &[f64; BUCKETS]) -> f64 {
    counts.iter().zip(mean).map(|(c, m)| (*c as f64 - m).abs()).sum()
}

/// L1 distance in cards between the shapes of two libraries (0 = identical curve and colours).
pub fn pair_distance(a: &Balance, b: &Balance) -> f64 {
    let diff = |x: &[u32; BUCKETS], y: &[u32; BUCKETS]| -> u32 { x.iter().zip(y).map(|(p, q)| p.abs_diff(*q)).sum() };
    f64::from(diff(&a.curve, &b.curve) + diff(&a.colors, &b.colors))
}

/// How balanced a set of built libraries is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BuildReport {
    /// Table, seat and balance of every library, in the order given.
    pub per_library: Vec<(u32, char, Balance)>,
    /// The table whose two libraries differ most, and their [`pair_distance`] (`(0, 0.0)` if none).
    pub worst_pair: (u32, f64),
    /// Mean `distance_from_mean` over all libraries.
    pub mean_distance: f64,
}

/// The balance of each library against the pool profile, and the worst table.
///
/// Card indices outside `pool` are skipped.
pub fn build_report(pool: &[PoolCopy], libraries: &[BuiltLibrary], size: usize) -> BuildReport {
    let mean = pool_profile(pool, size);
    let per_library: Vec<(u32, char, Balance)> = libraries
        .iter()
        .map(|lib| {
            let cards: Vec<&PoolCopy> = lib.cards.iter().filter_map(|&i| pool.get(i)).collect();
            (lib.table, lib.seat, balance(&cards, &mean))
        })
        .collect();
    let mean_distance = if per_library.is_empty() {
        0.0
    } else {
        per_library.iter().map(|l| l.2.distance_from_mean).sum::<f64>() / per_library.len() as f64
    };
    BuildReport { worst_pair: worst_pair(&per_library), per_library, mean_distance }
}

fn worst_pair(per_library: &[(u32, char, Balance)]) -> (u32, f64) {
    let mut worst = (0, 0.0);
    for (i, (table, seat, a)) in per_library.iter().enumerate() {
        let partner = per_library[i + 1..].iter().find(|(t, s, _)| t == table && s != seat);
        if let Some((_, _, b)) = partner {
            let d = pair_distance(a, b);
            if d > worst.1 || worst.0 == 0 {
                worst = (*table, d);
            }
        }
    }
    worst
}

/// Cards missing per mana-value bucket (0, 1, ..., 6+) for `libraries` libraries shaped like `target` (one
/// library's shape), against the copies `available`: what a judge would add to the pool to fill them.
pub fn shortfall_by_curve(available: &[PoolCopy], target: &Profile, libraries: usize) -> [u32; BUCKETS] {
    let mut have = [0u32; BUCKETS];
    for c in available {
        have[curve_bucket(c.mana_value)] += 1;
    }
    let mut short = [0u32; BUCKETS];
    for (b, s) in short.iter_mut().enumerate() {
        let need = (target.curve[b] * libraries as f64).round();
        *s = (need - f64::from(have[b])).max(0.0) as u32;
    }
    short
}

/// `14 costing 1, 20 costing 2 and 3 costing 6 or more`: a [`shortfall_by_curve`] in words (empty when none).
pub fn curve_words(counts: &[u32; BUCKETS]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(b, n)| if b + 1 == BUCKETS { format!("{n} costing {b} or more") } else { format!("{n} costing {b}") })
        .collect();
    super::curation::join_names(&parts)
}

/// Basic lands still to find for the Utopia libraries: two per table of `utopia_size` cards,
/// minus the basics the pool already has (never below 0).
pub fn basics_needed(tables: u32, utopia_size: u32, pool_basics: u32) -> u32 {
    tables.saturating_mul(2).saturating_mul(utopia_size).saturating_sub(pool_basics)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn copy(name: &str, mv: u32, colors: &str) -> PoolCopy {
        PoolCopy {
            pool_id: 1,
            name: name.to_string(),
            cost: String::new(),
            mana_value: mv,
            colors: colors.chars().collect(),
        }
    }

    #[test]
    fn buckets_follow_curve_and_colour() {
        let cases: Vec<(u32, &str, usize, usize)> = vec![
            (0, "", 0, 6),
            (1, "W", 1, 0),
            (2, "U", 2, 1),
            (3, "B", 3, 2),
            (4, "R", 4, 3),
            (5, "G", 5, 4),
            (6, "WU", 6, 5),
            (15, "gg", 6, 4),
            (2, "X", 2, 6),
        ];
        for (mv, colors, want_curve, want_colour) in cases {
            let c = copy("c", mv, colors);
            assert_eq!(curve_bucket(c.mana_value), want_curve, "{mv}");
            assert_eq!(color_bucket(&c.colors), want_colour, "{colors}");
        }
    }

    #[test]
    fn balance_measures_distance_from_the_pool_profile() {
        let pool = vec![copy("a", 1, "W"), copy("b", 1, "W"), copy("c", 2, "U"), copy("d", 2, "U")];
        let mean = pool_profile(&pool, 2);
        assert_eq!(mean.curve[1], 1.0);
        assert_eq!(mean.colors[1], 1.0);
        let even = balance(&[&pool[0], &pool[2]], &mean);
        assert_eq!(even.distance_from_mean, 0.0);
        let lopsided = balance(&[&pool[0], &pool[1]], &mean);
        assert_eq!(lopsided.curve[1], 2);
        assert_eq!(lopsided.distance_from_mean, 4.0);
        assert_eq!(pair_distance(&even, &lopsided), 4.0);
        assert_eq!(pair_distance(&even, &even), 0.0);
    }

    #[test]
    fn balance_counts_duplicate_names() {
        let pool = vec![copy("a", 1, "W"), copy("a", 1, "W"), copy("a", 1, "W")];
        let b = balance(&pool.iter().collect::<Vec<_>>(), &pool_profile(&pool, 3));
        assert_eq!(b.duplicates, 2);
    }

    #[test]
    fn report_finds_the_worst_table() {
        let pool = vec![copy("a", 1, "W"), copy("b", 1, "W"), copy("c", 2, "U"), copy("d", 2, "U")];
        let lib = |table, seat, cards: Vec<usize>| BuiltLibrary { table, seat, cards };
        let libs = vec![lib(1, 'A', vec![0]), lib(1, 'B', vec![2]), lib(2, 'A', vec![1]), lib(2, 'B', vec![3, 99])];
        let r = build_report(&pool, &libs, 1);
        assert_eq!(r.per_library.len(), 4);
        assert_eq!(r.worst_pair, (1, 4.0));
        assert_eq!(r.mean_distance, 2.0);
    }

    #[test]
    fn shortfall_names_the_missing_costs() {
        let copies = |mv: u32, n: usize| {
            (0..n).map(move |i| PoolCopy {
                pool_id: i as i64,
                name: format!("c{mv}-{i}"),
                cost: String::new(),
                mana_value: mv,
                colors: vec![],
            })
        };
        let available: Vec<PoolCopy> = copies(1, 10).chain(copies(2, 4)).chain(copies(7, 9)).collect();
        let target = Profile { curve: [0.0, 5.0, 4.0, 0.0, 0.0, 0.0, 1.0], colors: [0.0; BUCKETS] };
        let short = shortfall_by_curve(&available, &target, 4);
        assert_eq!(short, [0, 10, 12, 0, 0, 0, 0]);
        assert_eq!(curve_words(&short), "10 costing 1 and 12 costing 2");
        assert_eq!(curve_words(&[0, 0, 0, 0, 0, 1, 3]), "1 costing 5 and 3 costing 6 or more");
        assert_eq!(curve_words(&[0; BUCKETS]), "");
    }

    #[test]
    fn utopia_basics_needed() {
        let cases = [(8, 30, 0, 480), (8, 30, 100, 380), (1, 30, 500, 0), (0, 30, 0, 0), (u32::MAX, 30, 0, u32::MAX)];
        for (tables, size, have, want) in cases {
            assert_eq!(basics_needed(tables, size, have), want, "{tables} {have}");
        }
    }
}
