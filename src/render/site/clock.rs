//! The projector clock of the latest round (the one page with JavaScript), as `clock --html` writes it.

use super::{Clock, Event, Frame, Page, render};
use crate::error::Result;
use crate::render::projector::ProjectorPage;
use askama::Template;

/// What the clock page says before the round has started.
#[derive(Template)]
#[template(path = "site/placeholder.html")]
struct NotStarted {
    frame: Frame,
    what: String,
    how: String,
}

/// `clock.html`: the latest round's projector clock with every table's extensions, or a line saying how to
/// start it.
pub fn page(site: &Event, clock: Clock) -> Result<Page> {
    let current = site.results.paired;
    let html = match clock {
        Some((start, f)) => render(
            &ProjectorPage::new(&f.event, current, start, &f.settings, &f.tables).with_inspection(f.inspection_minutes),
        )?,
        None => render(&NotStarted {
            frame: site.frame("Projector clock"),
            what: "The round clock for the projector appears here once a round has started.".into(),
            how: "mmjudge round start starts the current round's clock; write the site again after it.".into(),
        })?,
    };
    Ok(Page::of_event("clock.html", "Projector clock", html))
}
