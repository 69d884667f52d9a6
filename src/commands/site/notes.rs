//! Note sheets per round: every table's template notes, two columns per table as players keep them.

use super::{Event, Frame, Page, Site};
use crate::error::Result;
use crate::ops::table::sheet::{NoteSheet, note_sheets_of_round};
use crate::render::note_sheet::MatchSheet;
use askama::Template;

#[derive(Template)]
#[template(path = "site/notes.html")]
struct NotesPage {
    frame: Frame,
    sheets: Vec<MatchSheet>,
}

/// The note sheets of round `r`'s tables, read from the event file.
pub fn sheets(site: &Site, r: u32) -> Result<Vec<NoteSheet>> {
    note_sheets_of_round(site.conn, r)
}

/// `round-N-notes.html`: each table's note sheet of paired round `r` (byes have none).
pub fn page(ev: &Event, r: u32, sheets: &[NoteSheet]) -> Result<Page> {
    let sheets = sheets.iter().map(MatchSheet::of).collect();
    let page = NotesPage { frame: ev.frame(format!("Round {r}: note sheets")), sheets };
    Page::of_round(r, "notes", "note sheets", &page)
}
