//! The one-line answers of the imports, for both front ends: the command line's words and the web's differ only
//! where one names a command or a flag ([`Said`]).

use crate::domain::words::count;
use crate::ops::cards::Imported;
use crate::ops::library::sealed::Registered;
use crate::ops::pool::Added;

/// Whose words: the command line's (it may name its commands and flags) or the web's (what to tick or tap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    /// The terminal.
    CommandLine,
    /// A page or an API answer.
    Web,
}

/// After a card reference's import (`cards import`, `POST /api/cards/import`).
pub fn cards_imported(out: &Imported, shown: &str, replace: bool, said: Said) -> String {
    let dropped = match said {
        Said::CommandLine => "dropped by --replace",
        Said::Web => "dropped by replacing the reference",
    };
    let mut s = format!(
        "imported {} ({}) from {shown}: {} new, {} updated{}; the reference had {} and now has {}",
        count(out.cards, "card"),
        out.format,
        out.added,
        out.updated,
        if replace { format!(", {} {dropped}", out.replaced) } else { String::new() },
        count(out.before, "card"),
        out.after,
    );
    // Tokens, emblems and the like that a card file holds (MTGJSON's, Scryfall's); said only when there are some.
    if out.dropped > 0 {
        s.push_str(&format!("; {} left out", count(out.dropped, "non-card object")));
    }
    if out.unnamed > 0 {
        s.push_str(&format!("; {} left out", count(out.unnamed, "nameless row")));
    }
    if !out.cost_conflicts.is_empty() {
        let named: Vec<String> =
            out.cost_conflicts.iter().take(3).map(|(n, c)| format!("{n} ({})", c.join(" or "))).collect();
        s.push_str(&format!(
            "; {} named with different costs left out, correct the file to keep them: {}",
            count(out.cost_conflicts.len(), "card"),
            named.join(", ")
        ));
    }
    s.push_str(&crate::domain::text::removed_clause(out.control_characters_removed));
    if out.with_text == 0 {
        let reading = match said {
            Said::CommandLine => "`cards show` and `cards find --text` need",
            Said::Web => "reading a card's text needs",
        };
        s.push_str(&format!(
            "; the file has no card texts ({reading} an MTGJSON or Scryfall file, or a CSV with a text column)"
        ));
    }
    if !out.unreadable_costs.is_empty() {
        s.push_str(&format!(
            "; {} with unreadable costs cannot be declared (e.g. {})",
            count(out.unreadable_costs.len(), "card"),
            out.unreadable_costs.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    s
}

/// The head of a pool import's answer (`pool import`, `POST /api/pool/import`): what was added, what the pool
/// holds, the names the reference does not know.
pub fn pool_added(out: &Added, shown: &str) -> String {
    let mut s = format!(
        "added {} of {} from {shown} ({} kept apart); the pool holds {}",
        count(out.copies, "copy"),
        count(out.new_cards, "new card"),
        count(out.land_copies, "land copy"),
        count(out.pool_copies, "copy")
    );
    if !out.unknown.is_empty() {
        s.push_str(&format!("; {} unknown to the reference: {}", out.unknown.len(), out.unknown.join(", ")));
    }
    s
}

/// After a player's sealed libraries were registered (`library register`, `POST /api/library/register`).
pub fn registered(out: &Registered) -> String {
    let mut s = format!(
        "{} {}'s sealed libraries: {} main cards, Utopia {} basic lands",
        if out.replaced { "replaced" } else { "registered" },
        out.player,
        out.main,
        out.utopia
    );
    if !out.sideboard.is_empty() {
        s.push_str(&format!("; sideboard: {}", out.sideboard.join(", ")));
    }
    s.push_str(&crate::domain::text::removed_clause(out.control_characters_removed));
    if out.utopia == 0 {
        s.push_str("; warning: no basic lands, so no Utopia library");
    }
    s
}
