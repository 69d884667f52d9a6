//! The library report: each table's library A against library B, for the judges' audit.

use super::{Event, Frame, Page, render};
use crate::error::Result;
use crate::ops::reports;
use crate::render::standings::pct;
use askama::Template;
use std::collections::HashMap;

/// One table as shown.
struct Row {
    table: u32,
    library_a: String,
    library_b: String,
    record: String,
    a_rate: String,
    b_rate: String,
    p_value: String,
    lopsided: bool,
}

#[derive(Template)]
#[template(path = "site/libraries.html")]
struct LibrariesPage {
    frame: Frame,
    fixed: bool,
    games: usize,
    left_out: usize,
    not_games: Option<String>,
    alpha: f64,
    rows: Vec<Row>,
    /// Each library's results against par with its interval, drawn (empty before any game).
    chart: String,
    /// The libraries whose interval leaves out par, by label.
    off_par: Vec<String>,
    /// The chart's numbers: (library, games, wins-losses-draws, win rate, interval).
    numbers: Vec<(String, u32, String, String, String)>,
    /// Seat A against seat B, drawn, and in words.
    seats: String,
    seat_words: String,
}

/// `libraries.html`: the duplicate report of the fixed libraries over every result recorded.
pub fn page(site: &Event) -> Result<Page> {
    let fixed = site.settings.text("libraries") == "fixed";
    let doc = reports::library_report(&site.results);
    // Each library's win rate by label, found once (the first line of a label, as `win_rate` finds it).
    let mut rates: HashMap<&str, f64> = HashMap::new();
    for l in doc.libraries.iter().rev() {
        rates.insert(l.library.as_str(), l.record.win_rate);
    }
    let rate = |label: &str| rates.get(label).copied().unwrap_or(0.0);
    let rows = doc
        .tables
        .iter()
        .map(|t| Row {
            table: t.record.table,
            library_a: t.library_a.clone(),
            library_b: t.library_b.clone(),
            record: format!("{}-{}-{}", t.record.a_wins, t.record.b_wins, t.record.draws),
            a_rate: pct(rate(&t.library_a)),
            b_rate: pct(rate(&t.library_b)),
            p_value: pct(t.record.p_value),
            lopsided: t.record.lopsided,
        })
        .collect();
    let chart = if doc.libraries.is_empty() { String::new() } else { crate::render::reports::against_par(&doc)? };
    let off_par = crate::render::reports::off_par(&doc);
    let numbers = crate::render::reports::library_numbers(&doc);
    let seats = if doc.seat_a.games == 0 { String::new() } else { crate::render::reports::seats(&doc)? };
    let seat_words = crate::render::reports::seat_words(&doc);
    let page = LibrariesPage {
        frame: site.frame("Library report"),
        fixed,
        games: doc.games,
        left_out: doc.left_out,
        not_games: reports::not_games_words(&doc.not_games_by_reason),
        alpha: doc.alpha,
        rows,
        chart,
        off_par,
        numbers,
        seats,
        seat_words,
    };
    Ok(Page::of_event("libraries.html", "Library report", render(&page)?))
}
