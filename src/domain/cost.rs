//! Mana costs: reading both notations (`{1}{B}` and the notes' `B1`), printing them back, and
//! matching a printed cost against a declared card's cost (rules MM.3f, MM.3h, MM.3i).

mod color;
mod key;
mod parse;
mod symbol;

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

pub use color::Color;
pub use key::Key;
pub use parse::{CostError, CostProblem};
pub use symbol::Symbol;

/// A mana cost: its symbols kept in Magic's printed order, generic amounts merged into one.
///
/// A card without a mana cost is `None` at the caller; it matches like [`ManaCost::zero`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ManaCost {
    symbols: Vec<Symbol>,
}

impl ManaCost {
    /// Reads a cost in brace form (`{2}{B}{B}`, `{W/U}`, `{2/W}`, `{G/P}`) or note shorthand
    /// (`B1`, `BX`, `RRRR3`, `2WU`, `(W/U)`, `W/U`, `0`), order- and case-insensitive, spaces ignored.
    pub fn parse(input: &str) -> Result<ManaCost, CostError> {
        let fail = |problem| CostError { input: input.to_string(), problem };
        let symbols = parse::read_symbols(input).map_err(fail)?;
        if key::combination_count(&symbols) > key::MAX_KEYS {
            return Err(fail(CostProblem::TooManyCombinations { max: key::MAX_KEYS }));
        }
        Ok(ManaCost::from_symbols(symbols))
    }

    /// The cost `{0}`; also what a card with no mana cost matches as (rule MM.3f).
    pub fn zero() -> ManaCost {
        ManaCost { symbols: vec![Symbol::Generic(0)] }
    }

    /// Builds a cost from symbols in any order: generic amounts are summed and everything is put
    /// in printed order. `{0}` stays only when nothing else is there.
    pub fn from_symbols(symbols: impl IntoIterator<Item = Symbol>) -> ManaCost {
        let mut generic = 0u32;
        let mut rest = Vec::new();
        for sym in symbols {
            match sym {
                Symbol::Generic(n) => generic = generic.saturating_add(n),
                other => rest.push(other),
            }
        }
        if generic > 0 || rest.is_empty() {
            rest.push(Symbol::Generic(generic));
        }
        let order = color::printed_order(color::mask_of(rest.iter().flat_map(|s| s.colors_iter())));
        let mut position = [0usize; 5];
        for (i, c) in order.iter().enumerate() {
            position[c.index()] = i;
        }
        rest.sort_by_key(|s| s.rank(|c: Color| position[c.index()]));
        ManaCost { symbols: rest }
    }

    /// The symbols in printed order.
    pub fn symbols(&self) -> &[Symbol] {
        &self.symbols
    }

    /// The cost as Magic prints it: `{X}{2}{W}{U}`, `{1}{G/W}{G/W}`, `{0}`.
    pub fn canonical(&self) -> String {
        self.symbols.iter().map(Symbol::to_string).collect()
    }

    /// The cost as written in players' notes: coloured letters, then X, then the generic number:
    /// `B1`, `BX`, `RRRR3`, `WU2`, `(W/U)(W/U)1`, `0`.
    pub fn shorthand(&self) -> String {
        let is_last = |s: &Symbol| matches!(s, Symbol::X | Symbol::Y | Symbol::Z | Symbol::Generic(_));
        let letters = self.symbols.iter().filter(|s| !is_last(s));
        let variables = self.symbols.iter().filter(|s| matches!(s, Symbol::X | Symbol::Y | Symbol::Z));
        let generic = self.symbols.iter().filter(|s| matches!(s, Symbol::Generic(_)));
        letters.chain(variables).chain(generic).map(|s| s.shorthand()).collect()
    }

    /// Mana value: X counts 0, `{2/W}` counts 2, half mana counts 0.
    pub fn mana_value(&self) -> u32 {
        self.symbols.iter().fold(0u32, |acc, s| acc.saturating_add(s.mana_value()))
    }

    /// The colours of the cost, in printed order (`{W/U}` is white and blue).
    pub fn colors(&self) -> Vec<Color> {
        color::printed_order(color::mask_of(self.symbols.iter().flat_map(|s| s.colors_iter())))
    }

    /// How many symbols carry `color` (a hybrid `{W/U}` counts for both white and blue).
    pub fn colored_count(&self, color: Color) -> u32 {
        let n = self.symbols.iter().filter(|s| s.colors_iter().any(|c| c == color)).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// How many symbols carry any colour (each hybrid counts once).
    pub fn colored_total(&self) -> u32 {
        let n = self.symbols.iter().filter(|s| s.color_pair().0.is_some()).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The generic amount (`{3}` of `{3}{R}`); the `2` of `{2/R}` is not included.
    pub fn generic(&self) -> u32 {
        self.symbols
            .iter()
            .map(|s| match s {
                Symbol::Generic(n) => *n,
                _ => 0,
            })
            .sum()
    }

    /// Number of `{X}` symbols.
    pub fn x_count(&self) -> u32 {
        let n = self.symbols.iter().filter(|s| **s == Symbol::X).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The cost of casting both halves of a split card together: `{1}{R}` + `{1}{U}` = `{2}{U}{R}`.
    pub fn combined(&self, other: &ManaCost) -> ManaCost {
        ManaCost::from_symbols(self.symbols.iter().chain(&other.symbols).copied())
    }

    /// Every plain cost this cost matches as, deduplicated and sorted: each hybrid symbol picks
    /// either half (`{2/R}` gives `{2}` or `{R}`), phyrexian symbols count as their colour.
    /// Flame Javelin `{2/R}{2/R}{2/R}` gives `{R}{R}{R}`, `{2}{R}{R}`, `{4}{R}`, `{6}`.
    pub fn keys(&self) -> Vec<Key> {
        key::expand(&self.symbols)
    }
}

/// True when a printed cost and a declared card's cost share a plain reading (rules MM.3h, MM.3i).
pub fn costs_match(printed: &ManaCost, declared: &ManaCost) -> bool {
    keys_intersect(&printed.keys(), &declared.keys())
}

/// True when two sorted key lists share a key.
pub fn keys_intersect<T: Ord>(a: &[T], b: &[T]) -> bool {
    let (mut i, mut j) = (0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// The cost a card matches as: its mana cost, or `{0}` when it has none (rule MM.3f).
pub fn cost_or_zero(cost: Option<&ManaCost>) -> ManaCost {
    cost.cloned().unwrap_or_else(ManaCost::zero)
}

impl fmt::Display for ManaCost {
    /// The canonical brace form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical())
    }
}

impl FromStr for ManaCost {
    type Err = CostError;

    /// Same as [`ManaCost::parse`].
    fn from_str(s: &str) -> Result<ManaCost, CostError> {
        ManaCost::parse(s)
    }
}

impl Serialize for ManaCost {
    /// Serialized as its canonical text.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.canonical())
    }
}

#[cfg(test)]
mod tests;
