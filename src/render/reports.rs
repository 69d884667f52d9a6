//! The duplicate report of the libraries as a page (`report libraries --html FILE`) and its chart, which the
//! judges' site draws too: each library's results against par with its exact interval.

use crate::error::{Error, Result};
use crate::ops::reports::{self, LibraryReport};
use crate::render::chart::{IntervalChart, IntervalRow, percent};
use askama::Template;

/// `report libraries --html FILE`: the chart, its numbers, and seat A against seat B.
#[derive(Template)]
#[template(path = "report_libraries.html")]
pub struct LibraryReportPage {
    head: String,
    event: String,
    games: usize,
    level: String,
    chart: String,
    off_par: Vec<String>,
    numbers: Vec<(String, u32, String, String, String)>,
    seat_a: String,
    seat_b: String,
    seats: String,
    seat_words: String,
    not_games: Option<String>,
}

impl LibraryReportPage {
    /// The page of `doc` for the event `event`, with its print head.
    pub fn new(doc: &LibraryReport, event: &str, head: String) -> Result<LibraryReportPage> {
        let (a, b): (u32, u32) = doc.tables.iter().fold((0, 0), |(a, b), t| (a + t.record.a_wins, b + t.record.b_wins));
        let share = |x: u32| if a + b == 0 { "0 %".to_string() } else { percent(f64::from(x) / f64::from(a + b)) };
        Ok(LibraryReportPage {
            head,
            event: event.to_string(),
            games: doc.games,
            level: percent(1.0 - doc.alpha),
            chart: if doc.libraries.is_empty() { String::new() } else { against_par(doc)? },
            off_par: off_par(doc),
            numbers: library_numbers(doc),
            seat_a: format!("{a} ({})", share(a)),
            seat_b: format!("{b} ({})", share(b)),
            seats: if doc.seat_a.games == 0 { String::new() } else { seats(doc)? },
            seat_words: seat_words(doc),
            not_games: reports::not_games_words(&doc.not_games_by_reason),
        })
    }

    /// The page as HTML.
    pub fn render(&self) -> Result<String> {
        Template::render(self).map_err(|e| Error::refused(format!("cannot render the library report: {e}")))
    }
}

/// The libraries whose interval leaves out par, by label.
pub fn off_par(doc: &LibraryReport) -> Vec<String> {
    doc.libraries.iter().filter(|l| l.record.off_par()).map(|l| l.library.clone()).collect()
}

/// The chart's numbers: (library, games, wins-losses-draws, win rate, interval).
pub fn library_numbers(doc: &LibraryReport) -> Vec<(String, u32, String, String, String)> {
    doc.libraries
        .iter()
        .map(|l| {
            let r = &l.record;
            let interval = format!("{} to {}", percent(r.interval[0]), percent(r.interval[1]));
            (l.library.clone(), r.games, format!("{}-{}-{}", r.wins, r.losses, r.draws), percent(r.win_rate), interval)
        })
        .collect()
}

/// Each library's win rate (a draw half a win) against par, 50 %, with its exact interval at the report's level.
pub fn against_par(doc: &LibraryReport) -> Result<String> {
    let rows: Vec<IntervalRow> = doc
        .libraries
        .iter()
        .map(|l| IntervalRow {
            label: l.library.clone(),
            value: l.record.win_rate,
            lo: l.record.interval[0],
            hi: l.record.interval[1],
            count: l.record.games,
        })
        .collect();
    let level = percent(1.0 - doc.alpha);
    let desc = format!(
        "Each library's share of the games won with it (a draw counts half) against par, 50 %, with its exact {level} \
         interval: a library is off par only when its whole interval lies on one side of 50 %."
    );
    let chart = IntervalChart::new("Each library against par", &desc, "games won with the library", "par", 0.5, &rows);
    chart.render().map_err(|e| Error::refused(format!("cannot draw the library chart: {e}")))
}

/// Seat A against seat B in words: which seat, if either, won more than chance explains.
pub fn seat_words(doc: &LibraryReport) -> String {
    let s = &doc.seat_a;
    let level = percent(1.0 - doc.alpha);
    let a = format!("{} ({} to {})", percent(s.win_rate), percent(s.interval[0]), percent(s.interval[1]));
    let verdict = if s.interval[0] > 0.5 {
        "seat A won more than chance explains"
    } else if s.interval[1] < 0.5 {
        "seat B won more than chance explains"
    } else {
        "neither seat won more than chance explains"
    };
    format!("Seat A's share of {} games is {a}, {level} exact interval: {verdict}.", s.games)
}

/// Seat A's share of the games (a draw half a win) and seat B's, its mirror, against par with the exact interval.
pub fn seats(doc: &LibraryReport) -> Result<String> {
    let s = &doc.seat_a;
    let row = |label: &str, value: f64, lo: f64, hi: f64| IntervalRow {
        label: label.to_string(),
        value,
        lo,
        hi,
        count: s.games,
    };
    let rows = [
        row("seat A", s.win_rate, s.interval[0], s.interval[1]),
        row("seat B", 1.0 - s.win_rate, 1.0 - s.interval[1], 1.0 - s.interval[0]),
    ];
    let level = percent(1.0 - doc.alpha);
    let desc = format!(
        "Seat A's share of the games between a table's two libraries (a draw counts half) and seat B's, against \
         par, 50 %, with the exact {level} interval: a seat is favoured only when its whole interval lies above 50 %."
    );
    let chart = IntervalChart::new("Seat A against seat B", &desc, "games won from the seat", "par", 0.5, &rows);
    chart.render().map_err(|e| Error::refused(format!("cannot draw the seat chart: {e}")))
}
