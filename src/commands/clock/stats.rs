//! `decisions [--table T] [--player P]`: per player, how many decisions were timed, their median and longest,
//! and the overruns (possible slow play) with the stalls logged on the clock screen.

use super::{Ctx, name_in, secs_text};
use crate::cli::clock::DecisionsArgs;
use crate::commands::table::resolve_match;
use crate::domain::clock_stats::{Summary, Timed, summarize};
use crate::error::Result;
use crate::render::{Listing, emit};
use crate::store::clock::{self as store_clock, DecisionRow};
use crate::store::{MatchId, PlayerId, matches};
use std::collections::BTreeMap;

/// One player's line.
#[derive(Debug, serde::Serialize)]
struct PlayerLine {
    player: String,
    #[serde(flatten)]
    summary: Summary,
    stalls: i64,
}

/// One overrun, for a judge to review.
#[derive(Debug, serde::Serialize)]
struct Overrun {
    round: u32,
    table: Option<u32>,
    player: String,
    started_at: String,
    duration_ms: i64,
    limit_ms: i64,
    overrun_ms: i64,
}

/// Runs `decisions`.
pub fn decisions(ctx: &Ctx, args: DecisionsArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let game: Option<MatchId> = match args.table {
        Some(t) => Some(resolve_match(conn, t, None)?.id),
        None => None,
    };
    let who: Option<PlayerId> = match &args.player {
        Some(p) => Some(crate::commands::player::resolve(conn, p)?.id),
        None => None,
    };
    let rows = store_clock::decisions(conn, game, who)?;
    let stalls: BTreeMap<PlayerId, i64> = store_clock::stall_counts(conn, game, who)?.into_iter().collect();
    let mut by_player: BTreeMap<PlayerId, Vec<&DecisionRow>> = BTreeMap::new();
    for d in rows.iter().filter(|d| d.ended_at.is_some()) {
        by_player.entry(d.player_id).or_default().push(d);
    }
    for p in stalls.keys() {
        by_player.entry(*p).or_default();
    }
    let names = crate::commands::player::names_by_id(conn)?;
    let name = |p: PlayerId| name_in(conn, &names, p);
    let mut lines = Vec::new();
    for (p, ds) in &by_player {
        let summary = summarize(&ds.iter().copied().map(timed).collect::<Vec<_>>());
        lines.push(PlayerLine { player: name(*p)?, summary, stalls: stalls.get(p).copied().unwrap_or(0) });
    }
    lines.sort_by(|a, b| b.summary.overruns.cmp(&a.summary.overruns).then(a.player.cmp(&b.player)));
    let overruns = overrun_list(conn, &rows, &name)?;
    let running = rows.iter().filter(|d| d.ended_at.is_none()).count();
    let listing = listing(&lines, &overruns, running, &args);
    let all: Vec<Timed> = rows.iter().filter(|d| d.ended_at.is_some()).map(timed).collect();
    let doc = serde_json::json!({
        "total": summarize(&all),
        "running": running,
        "players": lines,
        "overruns": overruns,
    });
    emit(ctx.format, &listing, &doc)
}

/// A finished decision as the summary counts it.
fn timed(d: &DecisionRow) -> Timed {
    Timed { duration_ms: d.duration_ms.unwrap_or(0), overrun_ms: d.overrun_ms.unwrap_or(0) }
}

fn overrun_list(
    conn: &rusqlite::Connection,
    rows: &[DecisionRow],
    name: &dyn Fn(PlayerId) -> Result<String>,
) -> Result<Vec<Overrun>> {
    let mut out = Vec::new();
    for d in rows.iter().filter(|d| d.overrun_ms.unwrap_or(0) > 0) {
        let m = matches::get(conn, d.match_id)?;
        out.push(Overrun {
            round: m.round,
            table: m.table,
            player: name(d.player_id)?,
            started_at: d.started_at.clone(),
            duration_ms: d.duration_ms.unwrap_or(0),
            limit_ms: d.limit_ms.unwrap_or(0),
            overrun_ms: d.overrun_ms.unwrap_or(0),
        });
    }
    Ok(out)
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
        listing.footer.push(format!(
            "overrun: round {} table {table}, {} at {}: {} against {} (+{}) — possible slow play, for a judge to review",
            o.round,
            o.player,
            super::when_text(&o.started_at),
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
