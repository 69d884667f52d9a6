//! The library report: each table's library A against library B, for the judges' audit.

use super::{Frame, Page, Pages, Site, render};
use crate::error::Result;
use crate::ops::reports;
use crate::render::standings::pct;
use askama::Template;

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
}

/// `libraries.html`: the duplicate report of the fixed libraries over every result recorded.
pub fn page(site: &Site, out: &mut Pages) -> Result<()> {
    let fixed = site.settings.text("libraries") == "fixed";
    let doc = reports::library_report(&site.results);
    let rate = |label: &str| doc.win_rate(label);
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
    let page = LibrariesPage {
        frame: site.frame("Library report"),
        fixed,
        games: doc.games,
        left_out: doc.left_out,
        not_games: reports::not_games_words(&doc.not_games_by_reason),
        alpha: doc.alpha,
        rows,
    };
    out.put(Page::of_event("libraries.html", "Library report", render(&page)?))
}
