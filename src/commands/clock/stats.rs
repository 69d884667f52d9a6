//! `decisions [--table T] [--player P]`: per player, how many decisions were timed, their median and longest,
//! and the overruns (possible slow play) with the stalls logged on the clock screen (read by
//! `ops::table::clocks::decisions`).

use super::Ctx;
use crate::cli::clock::DecisionsArgs;
use crate::error::Result;
use crate::ops::table::clocks::clock::{secs_text, when_text};
use crate::ops::table::clocks::decisions::{Overrun, PlayerLine, decision_stats};
use crate::render::{Listing, emit};

/// Runs `decisions`.
pub fn decisions(ctx: &Ctx, args: DecisionsArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let stats = decision_stats(&snapshot, args.table, args.player.as_deref())?;
    let listing = listing(&stats.players, &stats.overruns, stats.running, &args);
    emit(ctx.format, &listing, &stats)
}

fn opt_secs(ms: Option<i64>) -> String {
    ms.map(secs_text).unwrap_or_else(|| "-".into())
}

fn listing(lines: &[PlayerLine], overruns: &[Overrun], running: usize, args: &DecisionsArgs) -> Listing {
    let mut scope = Vec::new();
    if let Some(t) = args.table {
        scope.push(format!("table {t}"));
    }
    if let Some(p) = &args.player {
        scope.push(format!("player \"{p}\""));
    }
    let title = if scope.is_empty() { "Decisions".to_string() } else { format!("Decisions — {}", scope.join(", ")) };
    let mut listing =
        Listing::new(&["player", "decisions", "median", "longest", "overruns", "overrun total", "stalls logged"])
            .titled(title);
    for l in lines {
        listing.row(vec![
            l.player.clone(),
            l.summary.count.to_string(),
            opt_secs(l.summary.median_ms),
            opt_secs(l.summary.longest_ms),
            l.summary.overruns.to_string(),
            secs_text(l.summary.overrun_total_ms),
            l.stalls.to_string(),
        ]);
    }
    for o in overruns {
        let table = o.table.map_or_else(|| "-".into(), |t| t.to_string());
        let claimed = match o.claimed_ms {
            Some(ms) => format!(" as the server saw it, claimed shorter ({} recorded)", secs_text(ms)),
            None => String::new(),
        };
        listing.footer.push(format!(
            "overrun: round {} table {table}, {} at {}: {} against {} (+{}){claimed} — possible slow play, for a judge \
             to review",
            o.round,
            o.player,
            when_text(&o.started_at),
            secs_text(o.duration_ms),
            secs_text(o.limit_ms),
            secs_text(o.overrun_ms)
        ));
    }
    if running > 0 {
        listing
            .footer
            .push(format!("{} still running (not counted).", crate::domain::words::count(running as i64, "decision")));
    }
    listing
}
