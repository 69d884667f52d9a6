//! The libraries' curve against the target: the pool's spells and each fixed library counted by mana value
//! (0, 1, ..., 6+), beside the curve a library is measured against and built toward (the pool's spells' own
//! curve scaled to the libraries' size): `library list --json`'s `target_curve` and the curation report's chart.

use super::MAIN_SIZE;
use super::balance::{Sources, load_fixed, round1};
use crate::domain::library::{BUCKETS, curve_bucket, pool_profile};
use crate::error::Result;
use rusqlite::Connection;

/// The pool's and the fixed libraries' counts by mana value, and the target curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Curves {
    /// Cards in a main library the target is scaled to (the fixed libraries' most common size, else 40).
    pub size: usize,
    /// Cards a library of `size` should hold at each mana value, to a tenth (None when the pool has no spells).
    pub target: Option<[f64; BUCKETS]>,
    /// The pool's spell copies (not lands, not excluded) at each mana value.
    pub pool: [u32; BUCKETS],
    /// Each fixed library's cards at each mana value, by table then seat: (label, counts).
    pub libraries: Vec<(String, [u32; BUCKETS])>,
}

/// The curves of the event's pool and fixed libraries.
pub fn curves(conn: &Connection) -> Result<Curves> {
    let libs = load_fixed(conn)?;
    let sources = Sources::load(conn, &libs)?;
    let mut pool = [0u32; BUCKETS];
    for c in &super::balance::spell_copies(conn)? {
        pool[curve_bucket(c.mana_value)] += 1;
    }
    let libraries: Vec<(String, [u32; BUCKETS])> = libs
        .iter()
        .map(|(_, name, copies)| {
            let mut counts = [0u32; BUCKETS];
            copies.iter().for_each(|c| counts[curve_bucket(c.mana_value)] += 1);
            (name.clone(), counts)
        })
        .collect();
    let size = common_size(libs.iter().map(|(_, _, c)| c.len()));
    Ok(Curves { size, target: target_curve(&sources.fixed, size), pool, libraries })
}

/// The target curve for libraries of `size` cards from `source` (to a tenth; None when `source` is empty).
pub fn target_curve(source: &[crate::domain::library::PoolCopy], size: usize) -> Option<[f64; BUCKETS]> {
    (!source.is_empty()).then(|| pool_profile(source, size).curve.map(round1))
}

/// The most common of `sizes` (the larger on a tie), or [`MAIN_SIZE`] when there are none.
pub fn common_size(sizes: impl Iterator<Item = usize>) -> usize {
    let mut counts: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    sizes.for_each(|s| *counts.entry(s).or_default() += 1);
    counts.into_iter().max_by_key(|(s, n)| (*n, *s)).map_or(MAIN_SIZE, |(s, _)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_size_is_the_most_frequent_else_40() {
        assert_eq!(common_size([40, 40, 45].into_iter()), 40);
        assert_eq!(common_size(std::iter::empty()), 40);
        assert_eq!(common_size([30, 45].into_iter()), 45);
    }
}
