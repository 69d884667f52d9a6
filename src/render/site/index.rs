//! The index: the event's state and a link to every page.

use super::{Event, Frame, Page, render};
use crate::error::Result;
use askama::Template;

/// A link in the index.
struct Link {
    file: String,
    text: String,
}

/// One round's row: one cell per column (empty when that page does not exist for the round).
struct RoundRow {
    round: u32,
    cells: Vec<Option<String>>,
}

#[derive(Template)]
#[template(path = "site/index.html")]
struct IndexPage {
    frame: Frame,
    status: Vec<String>,
    latest: Option<Link>,
    columns: Vec<String>,
    rounds: Vec<RoundRow>,
    event_pages: Vec<Link>,
    players: usize,
}

/// `index.html`, linking `pages` (round pages in a table, newest round first).
pub fn page(site: &Event, pages: &[Page]) -> Result<Page> {
    let mut columns: Vec<String> = Vec::new();
    for p in pages.iter().filter(|p| p.round.is_some()) {
        if !columns.contains(&p.link) {
            columns.push(p.link.clone());
        }
    }
    let rounds = (1..=site.results.paired)
        .rev()
        .map(|r| RoundRow {
            round: r,
            cells: columns
                .iter()
                .map(|c| pages.iter().find(|p| p.round == Some(r) && &p.link == c).map(|p| p.file.clone()))
                .collect(),
        })
        .collect();
    let event_pages = pages
        .iter()
        .filter(|p| p.round.is_none() && !p.link.is_empty())
        .map(|p| Link { file: p.file.clone(), text: p.link.clone() })
        .collect();
    let played = site.results.played;
    let latest = (played > 0).then(|| Link {
        file: format!("round-{played}-standings.html"),
        text: if site.finished { "Final standings".to_string() } else { format!("Standings after round {played}") },
    });
    let rounds_planned = site.settings.text("rounds").to_string();
    let mut status = vec![match site.results.paired {
        0 => {
            format!("{} planned, none paired yet", crate::domain::words::count(site.settings.number("rounds"), "round"))
        }
        p => format!("round {p} of {rounds_planned} paired"),
    }];
    status.extend(
        crate::render::standings::progress_note(&site.results.progress(), played)
            .into_iter()
            .filter(|n| !n.starts_with("no round")),
    );
    if site.finished {
        let winners = crate::ops::standings::EventEnd::of(played, &site.results.standings_of_round(played).lines);
        status.push(format!("the event is over: {}", winners.winner_words()));
    }
    let status = status.into_iter().map(|s| sentence(&s)).collect();
    let page = IndexPage {
        frame: site.frame(site.settings.name()),
        status,
        latest,
        columns,
        rounds,
        event_pages,
        players: site.results.players.len(),
    };
    Ok(Page::of_event("index.html", "Index", render(&page)?))
}

/// A phrase as a sentence: capital first letter, full stop.
fn sentence(phrase: &str) -> String {
    let mut chars = phrase.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
    format!("{first}{}.", chars.as_str())
}
