//! The standings after each played round.

use super::{Event, Frame, Page};
use crate::error::Result;
use crate::ops::standings::{AfterRound, DidNotPlay, Line};
use crate::render::standings::{needs_result_note, par, percent};
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
    /// The players of the round who played nothing up to it (not ranked).
    did_not_play: Vec<DidNotPlay>,
    /// The matches that need a result, in words.
    needs_result: Vec<String>,
    /// The players who entered after the round (name, the round they joined).
    entered_later: Vec<(String, u32)>,
    /// The round the standings are after.
    round: u32,
    /// The final standings' winner in words ("Ana wins the event"), when these are the final standings.
    winner: Option<String>,
    /// The points of the top 16 after each round up to this one, drawn (#47).
    chart: String,
    /// The chart's numbers: (rank, player, points after each round).
    numbers: Vec<(u32, String, Vec<String>)>,
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

/// `round-N-standings.html`: the standings after played round `r`.
pub fn page(ev: &Event, r: u32, after: &AfterRound) -> Result<Page> {
    let last = ev.finished && r == ev.results.paired;
    let title = if last { "Final standings".to_string() } else { format!("Standings after round {r}") };
    let winners = crate::ops::standings::EventEnd::of(r, &after.lines).winners;
    let points = crate::ops::standings::by_round::of_round(&ev.results, r, after, last, None);
    let chart = crate::render::points::PointsChart::new(&points).render()?;
    let numbers = points
        .lines
        .iter()
        .map(|l| {
            let cells = l.points.iter().map(|p| p.map_or_else(|| "-".to_string(), |v| v.to_string())).collect();
            (l.rank, l.name.clone(), cells)
        })
        .collect();
    let page = StandingsPage {
        chart,
        numbers,
        winner: last.then(|| crate::ops::standings::winner_words(&winners)),
        frame: ev.frame(title),
        latest: r == ev.results.played,
        with_par: ev.results.tiebreak_par,
        rows: after.lines.iter().map(row).collect(),
        did_not_play: after.did_not_play.clone(),
        entered_later: after.entered_later.clone(),
        round: r,
        needs_result: after.needs_result.iter().map(|m| sentence(&needs_result_note(m))).collect(),
    };
    super::of_round(r, "standings", "standings", &page)
}

/// A note begun with a capital, for a page ("Round 1, table 2 ... needs a result").
fn sentence(note: &str) -> String {
    let mut chars = note.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
