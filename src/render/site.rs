//! The pages of the event's static web site — standings, pairings, result slips, judges' records and
//! reports — as plain HTML with one stylesheet, no JavaScript (except the projector clock) and no network.
//!
//! Each kind of page is drawn by a function of its module from the event ([`Event`]) and what
//! `ops::site` read for it, with one askama template in `templates/site/` that extends `site/base.html`.
//! [`Html`] hands them to `ops::site::write`, which reads the event and writes the files.

mod cards;
mod clock;
mod decks;
mod index;
mod judging;
mod libraries;
mod notes;
mod pairings;
mod slips;
mod standings;

use crate::error::{Error, Result};
use crate::ops::cards::CardView;
use crate::ops::library::sheets::LibrarySheet;
use crate::ops::site::{Clock, Declared, Draw, Event, Frame, Judging, Page, Pages, SlipShared};
use crate::ops::standings::AfterRound;
use crate::ops::table::records::sheet::NoteSheet;
use crate::store::{MatchId, PlayerId};
use std::collections::{BTreeMap, HashMap};

/// The site's pages as HTML: what `ops::site::write` is given to draw them.
pub struct Html;

impl Draw for Html {
    fn standings(&self, ev: &Event, r: u32, after: &AfterRound) -> Result<Page> {
        standings::page(ev, r, after)
    }
    fn pairings(&self, ev: &Event, r: u32, points: Option<&HashMap<PlayerId, u32>>) -> Result<Page> {
        pairings::by_table(ev, r, points)
    }
    fn by_name(&self, ev: &Event, r: u32, points: Option<&HashMap<PlayerId, u32>>) -> Result<Page> {
        pairings::by_name(ev, r, points)
    }
    fn wall(&self, ev: &Event, r: u32) -> Result<Page> {
        pairings::wall(ev, r)
    }
    fn slips(&self, ev: &Event, r: u32, turns: &BTreeMap<MatchId, u32>, shared: &SlipShared) -> Result<Page> {
        slips::page(ev, r, turns, shared)
    }
    fn notes(&self, ev: &Event, r: u32, sheets: &[NoteSheet]) -> Result<Page> {
        notes::page(ev, r, sheets)
    }
    fn judging(&self, ev: &Event, judging: Judging, declared: Vec<Declared>) -> Result<Page> {
        judging::page(ev, judging, declared)
    }
    fn card(&self, ev: &Event, view: CardView, has_text: bool) -> Result<Page> {
        cards::page(ev, view, has_text)
    }
    fn libraries(&self, ev: &Event) -> Result<Page> {
        libraries::page(ev)
    }
    fn decks(&self, ev: &Event, sheets: Vec<LibrarySheet>) -> Result<Page> {
        decks::page(ev, sheets)
    }
    fn clock(&self, ev: &Event, clock: Clock) -> Result<Page> {
        clock::page(ev, clock)
    }
    fn index(&self, ev: &Event, pages: &[Page]) -> Result<Page> {
        index::page(ev, pages)
    }
}

/// Round `r`'s page of a kind: `round-R-KIND.html`, linked as `link` in the round's row of the index.
fn of_round(r: u32, kind: &str, link: &str, page: &impl askama::Template) -> Result<Page> {
    Ok(Page { file: format!("round-{r}-{kind}.html"), round: Some(r), link: link.into(), html: render(page)? })
}

/// Renders an askama template (within the thread's deadline when the server draws it: see
/// [`super::deadline`]), or says which page could not be written.
fn render(page: &impl askama::Template) -> Result<String> {
    let mut html = Pages::buffer();
    super::deadline::draw_into(page, &mut html)
        .map_err(|e| Error::refused(format!("cannot write a page of the site: {e}")))?;
    Ok(html)
}

/// A match's table for people (`bye` when it had none).
fn table_text(table: Option<u32>) -> String {
    table.map_or_else(|| "bye".into(), |t| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::site::{Audience, MARKER, write};

    /// The site made without the command line, as the server or the demo would: one call of `ops::site::write`
    /// with these pages.
    #[test]
    fn a_site_is_made_by_one_ops_call_with_these_pages() -> Result<()> {
        let (store, _, _) = crate::store::memory_with_one_match()?;
        let dir = tempfile::tempdir().map_err(|e| Error::io("a temporary folder", e))?;
        let site = dir.path().join("site");
        let public = write(&store, &site, false, Audience::Public, &Html)?;
        assert!(public.files.contains(&"round-1-pairings.html".to_string()), "{:?}", public.files);
        assert!(!public.files.contains(&"judging.html".to_string()), "{:?}", public.files);
        let judges = write(&store, &site, false, Audience::Judges, &Html)?;
        for file in ["index.html", "judging.html", "round-1-wall.html", "clock.html", "style.css"] {
            assert!(judges.files.contains(&file.to_string()), "{file}: {:?}", judges.files);
            assert!(site.join(file).is_file(), "{file}");
        }
        let index = std::fs::read_to_string(site.join("index.html")).map_err(|e| Error::io("index.html", e))?;
        assert!(index.contains("round-1-slips.html"), "{index}");
        assert!(site.join(MARKER).is_file());
        Ok(())
    }
}
