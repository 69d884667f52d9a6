//! Words about a card shared by the terminal (`cards show`) and the site's card pages.

use crate::ops::cards::Status;

/// A card's Mental Magic status in one sentence: banned or excluded first, then its binding class.
pub fn status_words(s: &Status) -> String {
    let mut words = format!(
        "{} card{} share its binding class under {} binding ({} declarable)",
        s.class_size,
        if s.class_size == 1 { "" } else { "s" },
        s.binding,
        s.class_declarable
    );
    if let Some(g) = &s.banned {
        words = format!("banned ({g}); {words}");
    }
    if let Some(k) = &s.excluded {
        words = format!("excluded from this event ({k} cards); {words}");
    }
    words
}
