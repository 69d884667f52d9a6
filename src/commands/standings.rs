//! `standings`: Magic's tournament-rules standings after a round (see [`crate::ops::standings`]).

use super::Ctx;
use crate::cli::standings::StandingsArgs;
use crate::error::Result;
use crate::ops::standings::{self, Standings};
use crate::render::standings::{SortedStandings, par, pct, percent, push_digits, standings_notes};
use crate::render::{Format, Listing, emit_sorted};

/// Prints the standings after `--round N`, or after the last round with every result in.
pub fn run(ctx: &Ctx, args: StandingsArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let view = standings::standings(&snapshot, args.round)?;
    emit_sorted(ctx.format, || listing(&view, ctx.format), &SortedStandings::of(&view))
}

/// The table; percentages for people (`66.67 %`), CSV keeps the fractions (`0.667`).
fn listing(view: &Standings, format: Format) -> Listing {
    let shown = if format == Format::Csv { pct } else { percent };
    let mut headers = vec!["rank", "player", "record", "points", "OMW%", "GW%", "OGW%"];
    if view.tiebreak_par {
        headers.insert(4, "above par");
    }
    headers.push("status");
    let title = match (view.round, &view.winner) {
        (0, _) => format!("{}: standings before round 1", view.event),
        (r, Some(winners)) if view.is_final => {
            format!("{}: final standings after round {r}; {}", view.event, standings::winner_words(winners))
        }
        (r, _) => format!("{}: standings after round {r}", view.event),
    };
    let mut listing = Listing::new(&headers).titled(title);
    listing.rows.reserve_exact(view.standings.len());
    let number = |n: u32| {
        let mut text = String::with_capacity(4);
        push_digits(&mut text, u64::from(n), 1);
        text
    };
    for l in &view.standings {
        let mut row = Vec::with_capacity(headers.len());
        let mut record = String::with_capacity(8);
        for (i, n) in [l.wins, l.losses, l.draws].into_iter().enumerate() {
            if i > 0 {
                record.push('-');
            }
            push_digits(&mut record, u64::from(n), 1);
        }
        row.extend([number(l.rank), l.name.clone(), record, number(l.points)]);
        if let Some(p) = l.above_par.filter(|_| view.tiebreak_par) {
            row.push(par(p));
        }
        // OGW% equals OMW% while a match is one game: printed once, copied.
        let omw = shown(l.omwp);
        let ogw = if l.ogwp.to_bits() == l.omwp.to_bits() { omw.clone() } else { shown(l.ogwp) };
        row.extend([omw, shown(l.gwp), ogw]);
        row.push(l.status());
        listing.row(row);
    }
    listing.footer = standings_notes(view);
    listing
}
