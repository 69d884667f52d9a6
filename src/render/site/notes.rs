//! Note sheets per round: every table's template notes, two columns per table as players keep them.

use super::{Event, Frame, Page};
use crate::error::Result;
use crate::ops::table::records::sheet::NoteSheet;
use crate::render::note_sheet::MatchSheet;
use askama::Template;

#[derive(Template)]
#[template(path = "site/notes.html")]
struct NotesPage {
    frame: Frame,
    sheets: Vec<MatchSheet>,
}

/// `round-N-notes.html`: each table's note sheet of paired round `r` (byes have none).
pub fn page(ev: &Event, r: u32, sheets: &[NoteSheet]) -> Result<Page> {
    let sheets = sheets.iter().map(MatchSheet::of).collect();
    let page = NotesPage { frame: ev.frame(format!("Round {r}: note sheets")), sheets };
    super::of_round(r, "notes", "note sheets", &page)
}
