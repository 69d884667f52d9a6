//! Further bench sections (pool, libraries, movement, table, standings, site, demo) register here.

use super::Figure;
use std::path::Path;

/// The sections beyond the card reference.
pub fn sections() -> Vec<(&'static str, fn(&Path, &mut Vec<Figure>))> {
    Vec::new()
}
