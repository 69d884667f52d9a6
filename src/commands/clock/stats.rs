//! `decisions [--table T] [--player P]`: per player, how many decisions were timed, their median and longest,
//! and the overruns (possible slow play) with the stalls logged on the clock screen (read by
//! `ops::table::clocks::decisions`).

use super::Ctx;
use crate::cli::clock::DecisionsArgs;
use crate::error::Result;
use crate::ops::table::clocks::clock::{secs_text, when_text};
use crate::ops::table::clocks::decisions::{DecisionStats, decision_stats, slow_play};
use crate::render::decisions::{SlowPlayPage, SlowPlayView};
use crate::render::{Format, Listing, emit};

/// Runs `decisions`.
pub fn decisions(ctx: &Ctx, args: DecisionsArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let stats = decision_stats(&snapshot, args.table, args.player.as_deref(), args.all)?;
    if let Some(file) = &args.html {
        let sp = slow_play(&snapshot, args.player.as_deref())?;
        let print = crate::ops::event::print_head(&snapshot)?;
        let event = crate::store::event::values(&snapshot)?.name().to_string();
        let page = SlowPlayPage::new(SlowPlayView::new(&sp)?, &event, print.line(None, "slow play"));
        crate::output::write(file, crate::output::Kind::SlowPlay, args.force, page.render()?.as_bytes())?;
    }
    let listing = listing(&stats, &args);
    emit(ctx.format, &listing, &stats)?;
    if let (Some(file), Format::Human) = (&args.html, ctx.format) {
        println!("wrote {} (the players ranked by overruns, each drawn; print it or open it)", file.display());
    }
    Ok(())
}

fn opt_secs(ms: Option<i64>) -> String {
    ms.map(secs_text).unwrap_or_else(|| "-".into())
}

fn listing(stats: &DecisionStats, args: &DecisionsArgs) -> Listing {
    let (lines, overruns, running) = (&stats.players, &stats.overruns, stats.running);
    let all = stats.decisions.as_deref().unwrap_or_default();
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
    for d in all {
        listing.footer.push(format!("decision: {}, {}", d.player, crate::render::decisions::decision_words(d)));
    }
    if running > 0 {
        listing
            .footer
            .push(format!("{} still running (not counted).", crate::domain::words::count(running as i64, "decision")));
    }
    listing
}
