//! The one-line answers of the set-up steps in the web's words: what the command line says, with what to tap
//! where it names a command.

use crate::domain::words::count;
use crate::ops::cards::{Imported, RulingsImported};
use crate::ops::library::Built;
use crate::ops::library::sealed::Registered;
use crate::ops::pool::Added;
use crate::render::imports::{self, Said};

/// After a card reference's import.
pub fn cards_imported(out: &Imported, shown: &str, replace: bool) -> String {
    imports::cards_imported(out, shown, replace, Said::Web)
}

/// After rulings' import.
pub fn rulings_imported(out: &RulingsImported, shown: &str) -> String {
    let mut s = format!(
        "imported {} for {} from {shown}; {} for cards not in the reference",
        count(out.rulings - out.unmatched, "ruling"),
        count(out.cards, "card"),
        count(out.unmatched, "ruling")
    );
    if out.cards_without_oracle_id > 0 {
        s.push_str(&format!(
            "; {} cards have no Scryfall Oracle id and got none (import them from a Scryfall or MTGJSON file)",
            out.cards_without_oracle_id
        ));
    }
    s
}

/// After a pool's import.
pub fn pool_imported(out: &Added, shown: &str) -> String {
    let mut s = imports::pool_added(out, shown);
    if !out.cost_notes.is_empty() {
        s.push_str(&format!(
            "; the reference's cost was kept for {}: {}",
            count(out.cost_notes.len(), "card"),
            out.cost_notes.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
        ));
    }
    s.push_str(&crate::domain::text::removed_clause(out.control_characters_removed));
    if out.zero_lines > 0 {
        s.push_str(&format!("; {} with a count of 0 skipped", count(out.zero_lines, "line")));
    }
    s
}

/// After a player's sealed libraries were registered.
pub fn registered(out: &Registered) -> String {
    imports::registered(out)
}

/// After the libraries were built.
pub fn built(out: &Built) -> String {
    let mut s = format!(
        "built {} of {} for {} (seed {}); {} spell copies stay in the pool; Utopia: {} basic lands to set out (the pool holds {}: find {} more)",
        count(out.libraries.len(), "main library"),
        count(out.size, "card"),
        count(out.tables, "table"),
        out.seed,
        out.spells_left,
        out.basics.needed,
        out.basics.in_pool,
        out.basics.to_find
    );
    s.push_str(&out.stays_ended_words());
    if !out.removed.is_empty() {
        s.push_str(&format!("; removed libraries {}", out.removed.join(", ")));
    }
    if !out.left_out.is_empty() {
        s.push_str(&format!(
            "; left out for unusable costs (see the curation report): {}; to build them in, tick Keep unusable cards in and build again",
            crate::ops::library::left_out_names(&out.left_out)
        ));
    }
    if !out.unusable_in_libraries.is_empty() {
        s.push_str(&format!(
            "; kept in though their costs are unusable: {} (swap them out of their libraries)",
            out.unusable_in_libraries.join(", ")
        ));
    }
    s
}
