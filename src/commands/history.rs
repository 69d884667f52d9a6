//! `player history`: everything recorded about a player, newest first (see
//! [`crate::ops::players::history`]).

use super::Ctx;
use crate::error::Result;
use crate::ops::players;
use crate::ops::table::hhmm;
use crate::render::{Listing, emit};

/// Prints a player's history.
pub fn run(ctx: &Ctx, query: &str) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let h = players::history(&snapshot, query)?;
    let r = &h.record;
    let mut listing = Listing::new(&["when", "round", "table", "what", "details"]).titled(format!(
        "History of {} ({}): {} won, {} lost, {} drawn{}; {} penalt{}",
        h.player.name,
        h.player.status,
        r.won,
        r.lost,
        r.drawn,
        if r.playing > 0 { format!(", {} playing", r.playing) } else { String::new() },
        h.penalties,
        if h.penalties == 1 { "y" } else { "ies" }
    ));
    for e in &h.entries {
        listing.row(vec![
            hhmm(&e.at),
            e.round.map(|r| r.to_string()).unwrap_or_default(),
            e.table.map(|t| t.to_string()).unwrap_or_default(),
            e.kind.into(),
            e.what.clone(),
        ]);
    }
    emit(ctx.format, &listing, &h)
}
