//! The libraries' deck sheets: every library's cards sorted by cost, with its Utopia count.

use super::{Event, Frame, Page, render};
use crate::error::Result;
use crate::ops::library::sheets::LibrarySheet;
use crate::render::pages::{SheetCard, sheet_part};
use askama::Template;

/// One library as the page shows it.
struct Deck {
    label: String,
    title: String,
    cards: Vec<SheetCard>,
    sideboard: Vec<SheetCard>,
    utopia: u32,
}

impl From<LibrarySheet> for Deck {
    fn from(s: LibrarySheet) -> Self {
        Deck {
            cards: sheet_part(&s.cards, false),
            sideboard: sheet_part(&s.cards, true),
            utopia: s.library.utopia,
            label: s.label,
            title: s.title,
        }
    }
}

#[derive(Template)]
#[template(path = "site/decks.html")]
struct DecksPage {
    frame: Frame,
    decks: Vec<Deck>,
}

/// `decks.html`: every library (fixed ones by table and seat, sealed ones by player) for deck checks.
pub fn page(ev: &Event, sheets: Vec<LibrarySheet>) -> Result<Page> {
    let decks = sheets.into_iter().map(Deck::from).collect();
    let page = DecksPage { frame: ev.frame("Deck sheets"), decks };
    Ok(Page::of_event("decks.html", "Deck sheets", render(&page)?))
}
