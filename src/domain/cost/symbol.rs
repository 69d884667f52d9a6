//! One mana symbol of a printed cost.

use std::fmt;

use serde::Serialize;

use super::color::Color;

/// One mana symbol, as printed between braces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Symbol {
    /// A generic amount: `{0}`, `{2}`, `{10}`.
    Generic(u32),
    /// `{X}`.
    X,
    /// `{Y}` (joke sets only).
    Y,
    /// `{Z}` (joke sets only).
    Z,
    /// One coloured mana: `{B}`.
    Colored(Color),
    /// A two-colour hybrid, stored in printed order: `{W/U}` (never `{U/W}`).
    Hybrid(Color, Color),
    /// A monocoloured hybrid: `{2/W}` (also read from `{W/2}`).
    TwoHybrid(Color),
    /// A phyrexian symbol: `{G/P}`.
    Phyrexian(Color),
    /// A hybrid phyrexian symbol, stored in printed order: `{B/G/P}`.
    HybridPhyrexian(Color, Color),
    /// A colourless hybrid: `{C/W}` (Ulalek).
    ColorlessHybrid(Color),
    /// Colourless mana: `{C}`.
    Colorless,
    /// Snow mana: `{S}`.
    Snow,
    /// Half a coloured mana: `{HW}` (Little Girl).
    Half(Color),
}

/// What one half of a hybrid symbol stands for when costs are matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Half {
    /// A generic amount (the `2` of `{2/W}`).
    Generic(u32),
    /// One coloured mana.
    Colored(Color),
    /// One colourless mana (the `C` of `{C/W}`).
    Colorless,
}

impl Symbol {
    /// A hybrid of two distinct colours, its halves put in printed order (`{U/W}` becomes `{W/U}`).
    pub(crate) fn hybrid(a: Color, b: Color, phyrexian: bool) -> Symbol {
        let (a, b) = printed_pair(a, b);
        if phyrexian { Symbol::HybridPhyrexian(a, b) } else { Symbol::Hybrid(a, b) }
    }

    /// The colours this symbol carries, first colour first.
    pub fn colors(self) -> Vec<Color> {
        let (first, second) = self.color_pair();
        first.into_iter().chain(second).collect()
    }

    /// The colours this symbol carries, as an iterator.
    pub(crate) fn colors_iter(self) -> impl Iterator<Item = Color> {
        let (first, second) = self.color_pair();
        first.into_iter().chain(second)
    }

    /// The first and second colour of this symbol, without allocating.
    pub(crate) fn color_pair(self) -> (Option<Color>, Option<Color>) {
        match self {
            Symbol::Colored(c)
            | Symbol::TwoHybrid(c)
            | Symbol::Phyrexian(c)
            | Symbol::ColorlessHybrid(c)
            | Symbol::Half(c) => (Some(c), None),
            Symbol::Hybrid(a, b) | Symbol::HybridPhyrexian(a, b) => (Some(a), Some(b)),
            _ => (None, None),
        }
    }

    /// This symbol's contribution to mana value (`{2/W}` counts 2, `X` and `{HW}` count 0).
    pub fn mana_value(self) -> u32 {
        match self {
            Symbol::Generic(n) => n,
            Symbol::X | Symbol::Y | Symbol::Z | Symbol::Half(_) => 0,
            Symbol::TwoHybrid(_) => 2,
            _ => 1,
        }
    }

    /// The two ways a hybrid symbol can be read, or `None` for a symbol with only one reading.
    pub(crate) fn halves(self) -> Option<(Half, Half)> {
        match self {
            Symbol::Hybrid(a, b) | Symbol::HybridPhyrexian(a, b) => Some((Half::Colored(a), Half::Colored(b))),
            Symbol::TwoHybrid(c) => Some((Half::Generic(2), Half::Colored(c))),
            Symbol::ColorlessHybrid(c) => Some((Half::Colorless, Half::Colored(c))),
            _ => None,
        }
    }

    /// Sorting rank inside a printed cost: variables, generic, colourless, colours, snow.
    /// `position` gives a colour's place in the cost's printed colour order.
    pub(crate) fn rank(self, position: impl Fn(Color) -> usize) -> (u8, usize, u8, usize) {
        let kind = match self {
            Symbol::X => return (0, 0, 0, 0),
            Symbol::Y => return (1, 0, 0, 0),
            Symbol::Z => return (2, 0, 0, 0),
            Symbol::Generic(_) => return (3, 0, 0, 0),
            Symbol::Colorless => return (4, 0, 0, 0),
            Symbol::Snow => return (6, 0, 0, 0),
            Symbol::Colored(_) => 0,
            Symbol::Half(_) => 1,
            Symbol::Phyrexian(_) => 2,
            Symbol::TwoHybrid(_) => 3,
            Symbol::ColorlessHybrid(_) => 4,
            Symbol::Hybrid(..) => 5,
            Symbol::HybridPhyrexian(..) => 6,
        };
        let (first, second) = self.color_pair();
        let first = first.map_or(0, &position);
        let second = second.map_or(0, &position);
        (5, first, kind, second)
    }

    /// The symbol as written in a player's notes: `B`, `X`, `2`, `(W/U)`, `(2/W)`, `(G/P)`.
    pub fn shorthand(self) -> String {
        match self {
            Symbol::Generic(_)
            | Symbol::X
            | Symbol::Y
            | Symbol::Z
            | Symbol::Colored(_)
            | Symbol::Colorless
            | Symbol::Snow => self.inner(),
            _ => format!("({})", self.inner()),
        }
    }

    /// The text between the braces.
    fn inner(self) -> String {
        match self {
            Symbol::Generic(n) => n.to_string(),
            Symbol::X => "X".into(),
            Symbol::Y => "Y".into(),
            Symbol::Z => "Z".into(),
            Symbol::Colored(c) => c.as_char().to_string(),
            Symbol::Hybrid(a, b) => format!("{}/{}", a.as_char(), b.as_char()),
            Symbol::TwoHybrid(c) => format!("2/{}", c.as_char()),
            Symbol::Phyrexian(c) => format!("{}/P", c.as_char()),
            Symbol::HybridPhyrexian(a, b) => format!("{}/{}/P", a.as_char(), b.as_char()),
            Symbol::ColorlessHybrid(c) => format!("C/{}", c.as_char()),
            Symbol::Colorless => "C".into(),
            Symbol::Snow => "S".into(),
            Symbol::Half(c) => format!("H{}", c.as_char()),
        }
    }
}

impl fmt::Display for Symbol {
    /// The brace form: `{2}`, `{W/U}`, `{G/P}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", self.inner())
    }
}

/// Two distinct colours in the order Magic prints them as a pair (`W U`, `W B`, `R W`, `G W` ...).
fn printed_pair(a: Color, b: Color) -> (Color, Color) {
    // Clockwise distance from a to b on the wheel: 1 or 2 means a comes first.
    let forward = (b.index() + 5 - a.index()) % 5;
    if forward <= 2 { (a, b) } else { (b, a) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::*;

    #[test]
    fn hybrid_pairs_take_printed_order() {
        let table = [
            (U, W, "{W/U}"),
            (B, U, "{U/B}"),
            (R, B, "{B/R}"),
            (G, R, "{R/G}"),
            (W, G, "{G/W}"),
            (B, W, "{W/B}"),
            (R, U, "{U/R}"),
            (G, B, "{B/G}"),
            (W, R, "{R/W}"),
            (U, G, "{G/U}"),
        ];
        for (a, b, want) in table {
            assert_eq!(Symbol::hybrid(a, b, false).to_string(), want);
            assert_eq!(Symbol::hybrid(b, a, false).to_string(), want);
        }
        assert_eq!(Symbol::hybrid(G, B, true).to_string(), "{B/G/P}");
    }

    #[test]
    fn mana_values_and_shorthand() {
        let table = [
            (Symbol::Generic(3), 3, "3"),
            (Symbol::X, 0, "X"),
            (Symbol::TwoHybrid(W), 2, "(2/W)"),
            (Symbol::Phyrexian(G), 1, "(G/P)"),
            (Symbol::Hybrid(W, U), 1, "(W/U)"),
            (Symbol::Half(W), 0, "(HW)"),
            (Symbol::Colorless, 1, "C"),
        ];
        for (sym, mv, short) in table {
            assert_eq!(sym.mana_value(), mv, "{sym}");
            assert_eq!(sym.shorthand(), short, "{sym}");
        }
    }
}
