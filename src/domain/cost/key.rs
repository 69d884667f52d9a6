//! Matching keys: plain costs that hybrid and phyrexian costs expand into (rules MM.3h, MM.3i).

use std::collections::BTreeSet;
use std::fmt;

use serde::{Serialize, Serializer};

use super::ManaCost;
use super::color::Color;
use super::parse::{CostError, CostProblem};
use super::symbol::{Half, Symbol};

/// Most keys one cost expands into; parsing refuses costs that would need more.
pub(crate) const MAX_KEYS: usize = 4096;

/// A fully plain cost: what a cost stands for once every hybrid symbol has picked a half.
///
/// Two costs match when they share a key. Keys print as canonical braces (`{2}{U}{R}`) and read
/// back with [`Key::parse_display`], so they can be stored as text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// Total generic mana (the `2` of `{2/W}` counts here when that half is picked).
    pub generic: u32,
    /// Number of `{X}`; X matches only X.
    pub x: u8,
    /// Number of `{Y}`.
    pub y: u8,
    /// Number of `{Z}`.
    pub z: u8,
    /// Number of `{C}`.
    pub colorless: u8,
    /// Number of `{S}`.
    pub snow: u8,
    /// Coloured symbols per colour, WUBRG order (phyrexian symbols count as their colour).
    pub colored: [u8; 5],
    /// Half-mana symbols (`{HW}`) per colour, WUBRG order.
    pub half: [u8; 5],
}

impl Key {
    /// Reads a key back from its display form; refuses costs with hybrid or phyrexian symbols.
    pub fn parse_display(text: &str) -> Result<Key, CostError> {
        let cost = ManaCost::parse(text)?;
        if let Some(sym) = cost.symbols().iter().find(|s| !is_plain(**s)) {
            return Err(CostError {
                input: text.to_string(),
                problem: CostProblem::NotPlain { symbol: sym.to_string() },
            });
        }
        Ok(plain_key(cost.symbols()))
    }

    /// Number of coloured symbols (half symbols included), whatever their colour.
    pub fn colored_total(&self) -> u32 {
        let full: u32 = self.colored.iter().map(|&n| u32::from(n)).sum();
        full + self.half.iter().map(|&n| u32::from(n)).sum::<u32>()
    }

    /// The key as a cost (no hybrid symbols).
    pub fn to_cost(&self) -> ManaCost {
        let mut symbols = vec![Symbol::Generic(self.generic)];
        let counted = [
            (self.x, Symbol::X),
            (self.y, Symbol::Y),
            (self.z, Symbol::Z),
            (self.colorless, Symbol::Colorless),
            (self.snow, Symbol::Snow),
        ];
        for (n, sym) in counted {
            symbols.extend(std::iter::repeat_n(sym, usize::from(n)));
        }
        for c in Color::ALL {
            let i = c.index();
            symbols.extend(std::iter::repeat_n(Symbol::Colored(c), usize::from(self.colored[i])));
            symbols.extend(std::iter::repeat_n(Symbol::Half(c), usize::from(self.half[i])));
        }
        ManaCost::from_symbols(symbols)
    }

    /// Adds one plain symbol.
    fn add(&mut self, sym: Symbol) {
        match sym {
            Symbol::Generic(n) => self.generic = self.generic.saturating_add(n),
            Symbol::X => self.x = self.x.saturating_add(1),
            Symbol::Y => self.y = self.y.saturating_add(1),
            Symbol::Z => self.z = self.z.saturating_add(1),
            Symbol::Colorless => self.colorless = self.colorless.saturating_add(1),
            Symbol::Snow => self.snow = self.snow.saturating_add(1),
            Symbol::Colored(c) | Symbol::Phyrexian(c) => bump(&mut self.colored, c, 1),
            Symbol::Half(c) => bump(&mut self.half, c, 1),
            _ => {}
        }
    }

    /// Adds `n` copies of one hybrid half.
    fn add_half(&mut self, half: Half, n: u8) {
        match half {
            Half::Generic(g) => self.generic = self.generic.saturating_add(g.saturating_mul(u32::from(n))),
            Half::Colored(c) => bump(&mut self.colored, c, n),
            Half::Colorless => self.colorless = self.colorless.saturating_add(n),
        }
    }
}

fn bump(counts: &mut [u8; 5], c: Color, n: u8) {
    counts[c.index()] = counts[c.index()].saturating_add(n);
}

/// True for symbols a key holds as written (not hybrid, not phyrexian).
fn is_plain(sym: Symbol) -> bool {
    !matches!(
        sym,
        Symbol::Hybrid(..)
            | Symbol::TwoHybrid(_)
            | Symbol::Phyrexian(_)
            | Symbol::HybridPhyrexian(..)
            | Symbol::ColorlessHybrid(_)
    )
}

/// The key of a cost, ignoring any hybrid symbols.
fn plain_key(symbols: &[Symbol]) -> Key {
    let mut key = Key::default();
    for &sym in symbols {
        key.add(sym);
    }
    key
}

/// Identical hybrid symbols grouped with their counts: `n` copies of one hybrid give only `n + 1`
/// distinct readings, which keeps the expansion small.
fn hybrid_groups(symbols: &[Symbol]) -> Vec<(Half, Half, u8)> {
    let mut groups: Vec<(Symbol, u8)> = Vec::new();
    for &sym in symbols.iter().filter(|s| s.halves().is_some()) {
        match groups.iter_mut().find(|(s, _)| *s == sym) {
            Some((_, n)) => *n = n.saturating_add(1),
            None => groups.push((sym, 1)),
        }
    }
    groups.into_iter().filter_map(|(sym, n)| sym.halves().map(|(a, b)| (a, b, n))).collect()
}

/// How many readings a cost has before duplicates are removed (saturating).
pub(crate) fn combination_count(symbols: &[Symbol]) -> usize {
    hybrid_groups(symbols).iter().fold(1usize, |acc, &(_, _, n)| acc.saturating_mul(usize::from(n) + 1))
}

/// Every plain reading of a cost, deduplicated and sorted; at most [`MAX_KEYS`].
pub(crate) fn expand(symbols: &[Symbol]) -> Vec<Key> {
    if symbols.iter().all(|s| s.halves().is_none()) {
        return vec![plain_key(symbols)];
    }
    let mut keys = BTreeSet::from([plain_key(symbols)]);
    for (first, second, n) in hybrid_groups(symbols) {
        let mut next = BTreeSet::new();
        'fill: for key in &keys {
            for picked_first in 0..=n {
                let mut k = *key;
                k.add_half(first, picked_first);
                k.add_half(second, n - picked_first);
                next.insert(k);
                if next.len() >= MAX_KEYS {
                    break 'fill;
                }
            }
        }
        keys = next;
    }
    keys.into_iter().collect()
}

impl fmt::Display for Key {
    /// Canonical braces, e.g. `{2}{U}{R}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_cost().canonical())
    }
}

impl Serialize for Key {
    /// Serialized as its display text.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
