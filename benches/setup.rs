//! Further bench sections (pool, libraries, movement, table, standings, site, demo) register here.

use super::Section;

/// The sections beyond the card reference.
pub fn sections() -> Vec<(&'static str, Section)> {
    Vec::new()
}
