//! Pages other command groups fill in: note sheets per match, the libraries' deck sheets, the projector
//! clock. Each is one builder; replace its body (and its template) when the group's data is wired.

use super::{Frame, Page, Site, render};
use crate::domain::clock::ClockSettings;
use crate::error::Result;
use crate::render::projector::ProjectorPage;
use crate::store::round;
use askama::Template;

/// A page whose content arrives with another command group.
#[derive(Template)]
#[template(path = "site/placeholder.html")]
struct Placeholder {
    frame: Frame,
    what: String,
    how: String,
}

fn placeholder(
    site: &Site,
    file: String,
    round: Option<u32>,
    link: &str,
    title: String,
    what: &str,
    how: &str,
) -> Result<Page> {
    let page = Placeholder { frame: site.frame(title), what: what.into(), how: how.into() };
    Ok(Page { file, round, link: link.into(), html: render(&page)? })
}

/// `round-N-notes.html`: the note sheets of each paired round, one per match (hook for the table group:
/// read `template_note` per match and render two columns, one per player).
pub fn note_sheets(site: &Site) -> Result<Vec<Page>> {
    (1..=site.results.paired)
        .map(|r| {
            placeholder(
                site,
                format!("round-{r}-notes.html"),
                Some(r),
                "note sheets",
                format!("Round {r}: note sheets"),
                "The note sheet of each match: every template declared, per player, with its time.",
                "mmjudge notes TABLE --round N shows one table's sheet.",
            )
        })
        .collect()
}

/// `decks.html`: each fixed library's cards, for deck checks (hook for the library group).
pub fn deck_sheets(site: &Site) -> Result<Vec<Page>> {
    Ok(vec![placeholder(
        site,
        "decks.html".into(),
        None,
        "Deck sheets",
        "Deck sheets".into(),
        "Each library's cards, by table and seat, for deck checks.",
        "mmjudge library sheets prints them.",
    )?])
}

/// `clock.html`: the projector clock of the latest round once it has started (the one page with
/// JavaScript). Extensions are left off until the clock group feeds them here.
pub fn clock(site: &Site) -> Result<Vec<Page>> {
    let current = site.results.paired;
    let started = round::get(site.conn, current)?.and_then(|r| r.started_at);
    let Some(start) = started.and_then(|s| crate::time::unstamp(&s).ok()) else {
        return Ok(vec![placeholder(
            site,
            "clock.html".into(),
            None,
            "Projector clock",
            "Projector clock".into(),
            "The round clock for the projector appears here once a round has started.",
            "mmjudge round start starts the current round's clock; write the site again after it.",
        )?]);
    };
    let number = |k: &str| u32::try_from(site.settings.number(k)).unwrap_or(0);
    let settings = ClockSettings {
        round_minutes: number("round-minutes"),
        decision_secs: number("decision-seconds"),
        final_window_minutes: number("final-window-minutes"),
        final_decision_secs: number("final-decision-seconds"),
    };
    let page = ProjectorPage::new(&site.event, current, start, &settings, &[]);
    Ok(vec![Page { file: "clock.html".into(), round: None, link: "Projector clock".into(), html: render(&page)? }])
}
