//! The standings after each played round.

use super::{Event, Frame, Page};
use crate::error::Result;
use crate::ops::standings::Line;
use crate::render::standings::{par, percent};
use askama::Template;

/// One line as shown.
struct Row {
    rank: u32,
    name: String,
    record: String,
    points: u32,
    above_par: Option<String>,
    omw: String,
    gw: String,
    ogw: String,
    dropped: bool,
    /// "entered late: 2 match losses", as the CLI's standings say it; empty for others.
    late: String,
}

#[derive(Template)]
#[template(path = "site/standings.html")]
struct StandingsPage {
    frame: Frame,
    latest: bool,
    with_par: bool,
    rows: Vec<Row>,
}

fn row(l: &Line) -> Row {
    Row {
        rank: l.rank,
        name: l.name.clone(),
        record: l.record(),
        points: l.points,
        above_par: l.above_par.map(par),
        omw: percent(l.omwp),
        gw: percent(l.gwp),
        ogw: percent(l.ogwp),
        dropped: l.dropped,
        late: l.late_words(),
    }
}

/// `round-N-standings.html`: the standings after played round `r`, `lines`.
pub fn page(ev: &Event, r: u32, lines: &[Line]) -> Result<Page> {
    let page = StandingsPage {
        frame: ev.frame(format!("Standings after round {r}")),
        latest: r == ev.results.played,
        with_par: ev.results.tiebreak_par,
        rows: lines.iter().map(row).collect(),
    };
    super::of_round(r, "standings", "standings", &page)
}
