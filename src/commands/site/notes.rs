//! Note sheets per round: every table's template notes, two columns per table as players keep them.

use super::{Frame, Page, Pages, Site};
use crate::error::Result;
use crate::ops::table::sheet::note_sheets_of_round;
use crate::render::note_sheet::MatchSheet;
use askama::Template;

#[derive(Template)]
#[template(path = "site/notes.html")]
struct NotesPage {
    frame: Frame,
    sheets: Vec<MatchSheet>,
}

/// `round-N-notes.html` for every paired round: each table's note sheet (byes have none).
pub fn pages(site: &Site, out: &mut Pages) -> Result<()> {
    for r in 1..=site.results.paired {
        let sheets = note_sheets_of_round(site.conn, r)?.iter().map(MatchSheet::of).collect();
        let page = NotesPage { frame: site.frame(format!("Round {r}: note sheets")), sheets };
        out.put(Page::of_round(r, "notes", "note sheets", &page)?)?;
    }
    Ok(())
}
