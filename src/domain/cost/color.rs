//! The five colours of Magic and the order in which printed costs list them.

use serde::Serialize;

/// One of the five colours of Magic, in WUBRG order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Color {
    /// White, `W`.
    W,
    /// Blue, `U`.
    U,
    /// Black, `B`.
    B,
    /// Red, `R`.
    R,
    /// Green, `G`.
    G,
}

impl Color {
    /// All five colours in WUBRG order.
    pub const ALL: [Color; 5] = [Color::W, Color::U, Color::B, Color::R, Color::G];

    /// The colour written by `c` (`W`, `U`, `B`, `R`, `G`, any case), if any.
    pub fn from_char(c: char) -> Option<Color> {
        match c.to_ascii_uppercase() {
            'W' => Some(Color::W),
            'U' => Some(Color::U),
            'B' => Some(Color::B),
            'R' => Some(Color::R),
            'G' => Some(Color::G),
            _ => None,
        }
    }

    /// The capital letter that writes this colour.
    pub fn as_char(self) -> char {
        match self {
            Color::W => 'W',
            Color::U => 'U',
            Color::B => 'B',
            Color::R => 'R',
            Color::G => 'G',
        }
    }

    /// Position in WUBRG order (0..5), used to index per-colour counts.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour at WUBRG position `i` (taken modulo 5).
    fn from_index(i: usize) -> Color {
        Color::ALL[i % 5]
    }
}

/// A set of colours as a bit mask (bit `Color::index`).
pub(crate) fn mask_of(colors: impl IntoIterator<Item = Color>) -> u8 {
    colors.into_iter().fold(0, |m, c| m | (1 << c.index()))
}

/// Where each colour of `mask` begins in printed order, as WUBRG offsets.
///
/// Magic prints the colours of a cost in a fixed order:
/// - two colours: allied pairs clockwise on the colour wheel (`WU UB BR RG GW`), enemy pairs by
///   skipping one (`WB UR BG RW GU`);
/// - three colours: shards clockwise from their centre's neighbour (`WUB UBR BRG RGW GWU`), wedges
///   by skipping one each time (`WBG URW BGU RWB GUR`);
/// - four colours: starting after the missing colour (`WUBR UBRG BRGW RGWU GWUB`);
/// - five colours: `WUBRG`.
///
/// Every case above is "start somewhere, then step around the wheel by a fixed stride (1 or 2)",
/// except four colours, which are contiguous (stride 1). So the order is found by trying every
/// start with stride 1, then with stride 2, and keeping the first walk that visits exactly the
/// colours of `mask` (each colour set has exactly one such walk).
pub(crate) fn printed_order(mask: u8) -> Vec<Color> {
    let n = mask.count_ones() as usize;
    if n <= 1 {
        return Color::ALL.into_iter().filter(|c| mask & (1 << c.index()) != 0).collect();
    }
    for stride in [1usize, 2] {
        for start in 0..5 {
            let walk: Vec<Color> = (0..n).map(|k| Color::from_index(start + k * stride)).collect();
            if mask_of(walk.iter().copied()) == mask {
                return walk;
            }
        }
    }
    // Unreachable for valid masks (every subset of five colours is a stride-1 or stride-2 walk);
    // fall back to WUBRG rather than panicking.
    Color::ALL.into_iter().filter(|c| mask & (1 << c.index()) != 0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(s: &str) -> String {
        let mask = mask_of(s.chars().filter_map(Color::from_char));
        printed_order(mask).into_iter().map(Color::as_char).collect()
    }

    #[test]
    fn printed_colour_orders() {
        let table = [
            // allied and enemy pairs
            ("UW", "WU"),
            ("BU", "UB"),
            ("RB", "BR"),
            ("GR", "RG"),
            ("WG", "GW"),
            ("BW", "WB"),
            ("RU", "UR"),
            ("GB", "BG"),
            ("WR", "RW"),
            ("UG", "GU"),
            // shards
            ("BUW", "WUB"),
            ("RBU", "UBR"),
            ("GRB", "BRG"),
            ("WGR", "RGW"),
            ("UWG", "GWU"),
            // wedges
            ("GBW", "WBG"),
            ("WRU", "URW"),
            ("UGB", "BGU"),
            ("BWR", "RWB"),
            ("RUG", "GUR"),
            // four and five colours
            ("WUBR", "WUBR"),
            ("GUBR", "UBRG"),
            ("WGBR", "BRGW"),
            ("WUGR", "RGWU"),
            ("WUBG", "GWUB"),
            ("GRBUW", "WUBRG"),
            ("G", "G"),
            ("", ""),
        ];
        for (given, want) in table {
            assert_eq!(order(given), want, "colours {given}");
        }
    }

    #[test]
    fn from_char_round_trips() {
        for c in Color::ALL {
            assert_eq!(Color::from_char(c.as_char()), Some(c));
            assert_eq!(Color::from_char(c.as_char().to_ascii_lowercase()), Some(c));
        }
        assert_eq!(Color::from_char('C'), None);
    }
}
