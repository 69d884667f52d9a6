//! The bench sections, in the order they run; `cargo bench -- NAME` runs those whose name contains NAME.

use super::Section;
use super::sections::{
    attacks, card_text, cards, clock, demo, device, library, listings, movement, pairing, serve, serve_bounds, standby,
    standings, table,
};

/// Every section: (name, what builds its event and times its commands).
pub fn sections() -> Vec<(&'static str, Section)> {
    vec![
        ("cards", cards::run),
        ("cards-text", card_text::run),
        ("library", library::run),
        ("movement", movement::run),
        ("pairing", pairing::run),
        ("table", table::run),
        ("clock", clock::run),
        ("standings", standings::run),
        ("demo", demo::run),
        ("serve", serve::run),
        ("serve-bounds", serve_bounds::run),
        ("device", device::run),
        ("standby", standby::run),
        ("listings", listings::run),
        ("site16384", listings::big),
        ("demo4096", listings::demo),
        ("attacks", attacks::run),
    ]
}
