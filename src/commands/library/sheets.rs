//! `library sheets DIR`: one printable deck sheet per library (tick boxes for assembling the library and
//! for deck checks between rounds, the Utopia count), an index page, and one CSV of every library card.

use super::Ctx;
use crate::error::{Error, Result};
use crate::ops::views::DeckSheets;
use crate::output::{self, Kind};
use crate::render::done;
use crate::render::pages::{DeckSheet, SheetIndex, sheet_part};
use std::path::Path;

/// Most round columns of tick boxes on a sheet.
const MAX_ROUND_TICKS: i64 = 8;

/// Writes the deck sheets of every library into `dir`; returns how many. Every file is checked before any
/// is written: one that an earlier `library sheets` did not write is replaced only with `force`.
fn write_sheets(read: DeckSheets, dir: &Path, force: bool) -> Result<usize> {
    let DeckSheets { sheets, values, head, players } = read;
    if sheets.is_empty() {
        return Err(Error::refused(
            "no libraries yet: build them with `mmjudge library build --tables N` (or `library register` when sealed)",
        ));
    }
    crate::output::check_folder(dir)?;
    if dir.exists() && !dir.is_dir() {
        return Err(Error::refused(format!("{} is a file, not a folder: give a folder for the sheets", dir.display())));
    }
    let mut ticks = vec!["built".to_string()];
    ticks.extend((1..=values.number("rounds").clamp(0, MAX_ROUND_TICKS)).map(|r| format!("R{r}")));
    let mut csv_out = crate::render::CsvWriter::new(Vec::new());
    write_csv_header(&mut csv_out)?;
    let mut index = Vec::new();
    let mut files: Vec<(std::path::PathBuf, Kind, Vec<u8>)> = Vec::new();
    for s in &sheets {
        let lib = &s.library;
        let sheet = DeckSheet {
            head: head.line(None, &format!("library {}", s.label)),
            event: values.name().to_string(),
            label: s.label.clone(),
            title: s.title.clone(),
            cards: sheet_part(&s.cards, false),
            sideboard: sheet_part(&s.cards, true),
            utopia: lib.utopia,
            ticks: ticks.clone(),
            note: s.note.clone(),
        };
        let html = sheet.render().map_err(|e| Error::refused(format!("cannot render a deck sheet: {e}")))?;
        files.push((dir.join(&s.file), Kind::DeckSheets, html.into_bytes()));
        for c in &s.cards {
            let row = [
                s.label.clone(),
                lib.table.map(|t| t.to_string()).unwrap_or_default(),
                lib.seat.clone().unwrap_or_default(),
                lib.player.and_then(|p| players.get(&p)).cloned().unwrap_or_default(),
                c.position.to_string(),
                c.name.clone(),
                c.mana_cost.clone().unwrap_or_default(),
                c.mana_value.to_string(),
                c.type_line.clone(),
                if c.sideboard { "yes" } else { "no" }.to_string(),
                lib.utopia.to_string(),
            ];
            csv_out.write_record(&row).map_err(|e| Error::refused(format!("cannot write the CSV: {e}")))?;
        }
        index.push((s.file.clone(), s.label.clone(), s.title.clone(), sheet.cards.len(), lib.utopia));
    }
    let bytes = csv_out.into_inner().map_err(|e| Error::refused(format!("cannot write the CSV: {e}")))?;
    files.push((dir.join("libraries.csv"), Kind::DeckSheetsCsv, bytes));
    let page = SheetIndex { head: head.line(None, "deck sheets"), event: values.name().to_string(), sheets: index }
        .render()
        .map_err(|e| Error::refused(format!("cannot render the index page: {e}")))?;
    files.push((dir.join("index.html"), Kind::DeckSheets, page.into_bytes()));
    for (path, kind, _) in &files {
        output::check(path, *kind, force)?;
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    // Written together: flushed to disk at once, renamed into place once all are written.
    let mut batch = output::Batch::new();
    for (path, kind, bytes) in &files {
        batch.add(path, *kind, bytes)?;
    }
    batch.commit()?;
    // What an interrupted run left (hidden temporary files of a process that is gone).
    output::sweep_leftovers(dir);
    Ok(sheets.len())
}

fn write_csv_header(w: &mut crate::render::CsvWriter<Vec<u8>>) -> Result<()> {
    w.write_record(output::DECK_SHEETS_CSV_HEADER.split(','))
        .map_err(|e| Error::refused(format!("cannot write the CSV: {e}")))
}

/// Runs `library sheets DIR`.
pub fn write(ctx: &Ctx, dir: &Path, force: bool) -> Result<()> {
    let store = ctx.open()?;
    let n = write_sheets(crate::ops::views::deck_sheets(&store)?, dir, force)?;
    done(
        ctx.format,
        &format!("wrote {n} deck sheets, index.html and libraries.csv to {}", dir.display()),
        serde_json::json!({ "dir": dir.display().to_string(), "sheets": n }),
    )
}
