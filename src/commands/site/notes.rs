//! Note sheets per round: every table's template notes, two columns per table as players keep them.

use super::{Frame, Page, Site};
use crate::error::Result;
use crate::ops::table::sheet::note_sheet_of;
use crate::render::note_sheet::MatchSheet;
use askama::Template;

#[derive(Template)]
#[template(path = "site/notes.html")]
struct NotesPage {
    frame: Frame,
    sheets: Vec<MatchSheet>,
}

/// `round-N-notes.html` for every paired round: each table's note sheet (byes have none).
pub fn pages(site: &Site) -> Result<Vec<Page>> {
    (1..=site.results.paired)
        .map(|r| {
            let mut sheets = Vec::new();
            for m in site.round_matches(r).filter(|m| m.b.is_some() && m.table.is_some()) {
                sheets.push(MatchSheet::of(&note_sheet_of(site.conn, m.clone())?));
            }
            let page = NotesPage { frame: site.frame(format!("Round {r}: note sheets")), sheets };
            Page::of_round(r, "notes", "note sheets", &page)
        })
        .collect()
}
