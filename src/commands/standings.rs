//! `standings`: Magic's tournament-rules standings after a round (see [`crate::ops::standings`]).

use super::Ctx;
use crate::cli::standings::StandingsArgs;
use crate::error::Result;
use crate::ops::standings::{self, Standings};
use crate::render::standings::{par, pct, percent, progress_note};
use crate::render::{Format, Listing, emit};

/// Prints the standings after `--round N`, or after the last round with every result in.
pub fn run(ctx: &Ctx, args: StandingsArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let view = standings::standings(&snapshot, args.round)?;
    emit(ctx.format, &listing(&view, ctx.format), &view)
}

/// The table; percentages for people (`66.67 %`), CSV keeps the fractions (`0.667`).
fn listing(view: &Standings, format: Format) -> Listing {
    let shown = if format == Format::Csv { pct } else { percent };
    let mut headers = vec!["rank", "player", "record", "points", "OMW%", "GW%", "OGW%"];
    if view.tiebreak_par {
        headers.insert(4, "above par");
    }
    headers.push("status");
    let title = match view.round {
        0 => format!("{}: standings before round 1", view.event),
        r => format!("{}: standings after round {r}", view.event),
    };
    let mut listing = Listing::new(&headers).titled(title);
    for l in &view.standings {
        let mut row = vec![l.rank.to_string(), l.name.clone(), l.record(), l.points.to_string()];
        if let Some(p) = l.above_par.filter(|_| view.tiebreak_par) {
            row.push(par(p));
        }
        row.extend([shown(l.omwp), shown(l.gwp), shown(l.ogwp)]);
        row.push(l.status());
        listing.row(row);
    }
    listing.footer = progress_note(&view.progress, view.round);
    listing
}
