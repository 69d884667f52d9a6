//! `library sheets DIR`: one printable deck sheet per library (tick boxes for assembling the library and
//! for deck checks between rounds, the Utopia count), an index page, and one CSV of every library card.

use super::Ctx;
use super::library::label;
use super::library_show::{ShownCard, pool_types, shown_with};
use super::player::names_by_id;
use crate::error::{Error, Result};
use crate::output::{self, Kind};
use crate::render::done;
use crate::render::pages::{DeckSheet, SheetCard, SheetIndex};
use crate::store::library::{self as store_library, Library};
use crate::store::{PlayerId, event};
use rusqlite::Connection;
use std::collections::HashMap;
use std::path::Path;

/// Most round columns of tick boxes on a sheet.
const MAX_ROUND_TICKS: i64 = 8;

/// One library's deck sheet: where it plays, its page's file name and its cards sorted by cost.
#[derive(Debug, Clone)]
pub struct LibrarySheet {
    /// The library.
    pub library: Library,
    /// Its label (`3A`, or the player's name when sealed).
    pub label: String,
    /// Heading (`Table 3 · Seat A`, `Sealed · Ana`).
    pub title: String,
    /// A line under the heading.
    pub note: String,
    /// The file name of its sheet.
    pub file: String,
    /// Its cards, main library first, each part sorted by cost.
    pub cards: Vec<ShownCard>,
}

impl LibrarySheet {
    /// The main library (`sideboard == false`) or the sealed sideboard as sheet lines.
    pub fn part(&self, sideboard: bool) -> Vec<SheetCard> {
        self.cards
            .iter()
            .filter(|c| c.sideboard == sideboard)
            .map(|c| SheetCard {
                cost: c.mana_cost.clone().unwrap_or_default(),
                name: c.name.clone(),
                type_line: c.type_line.clone(),
            })
            .collect()
    }
}

/// Every library's sheet: fixed ones by table and seat, then sealed ones by player name.
pub fn library_sheets(conn: &Connection) -> Result<Vec<LibrarySheet>> {
    let players = names_by_id(conn)?;
    let types = pool_types(conn)?;
    let mut out = Vec::new();
    for lib in store_library::all(conn)? {
        let label = label(&lib, &players);
        let (title, note, file) = describe(&lib, &label, &players);
        let cards = shown_with(conn, &lib, &types)?;
        out.push(LibrarySheet { library: lib, label, title, note, file, cards });
    }
    let sealed_key = |s: &LibrarySheet| {
        (
            s.library.table.is_none(),
            if s.library.table.is_none() { crate::domain::names::fold(&s.label) } else { String::new() },
        )
    };
    out.sort_by_cached_key(sealed_key);
    Ok(out)
}

/// Writes the deck sheets of every library into `dir`; returns how many. Every file is checked before any
/// is written: one that an earlier `library sheets` did not write is replaced only with `force`.
pub fn write_sheets(conn: &Connection, dir: &Path, force: bool) -> Result<usize> {
    let sheets = library_sheets(conn)?;
    if sheets.is_empty() {
        return Err(Error::refused(
            "no libraries yet: build them with `mmjudge library build --tables N` (or `library register` when sealed)",
        ));
    }
    crate::output::check_folder(dir)?;
    if dir.exists() && !dir.is_dir() {
        return Err(Error::refused(format!("{} is a file, not a folder: give a folder for the sheets", dir.display())));
    }
    let values = event::values(conn)?;
    let players = names_by_id(conn)?;
    let mut ticks = vec!["built".to_string()];
    ticks.extend((1..=values.number("rounds").clamp(0, MAX_ROUND_TICKS)).map(|r| format!("R{r}")));
    let mut csv_out = crate::render::CsvWriter::new(Vec::new());
    write_csv_header(&mut csv_out)?;
    let mut index = Vec::new();
    let mut files: Vec<(std::path::PathBuf, Kind, Vec<u8>)> = Vec::new();
    for s in &sheets {
        let lib = &s.library;
        let sheet = DeckSheet {
            event: values.name().to_string(),
            label: s.label.clone(),
            title: s.title.clone(),
            cards: s.part(false),
            sideboard: s.part(true),
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
    let page = SheetIndex { event: values.name().to_string(), sheets: index }
        .render()
        .map_err(|e| Error::refused(format!("cannot render the index page: {e}")))?;
    files.push((dir.join("index.html"), Kind::DeckSheets, page.into_bytes()));
    for (path, kind, _) in &files {
        output::check(path, *kind, force)?;
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    for (path, kind, bytes) in &files {
        output::write(path, *kind, force, bytes)?;
    }
    Ok(sheets.len())
}

fn write_csv_header(w: &mut crate::render::CsvWriter<Vec<u8>>) -> Result<()> {
    w.write_record(output::DECK_SHEETS_CSV_HEADER.split(','))
        .map_err(|e| Error::refused(format!("cannot write the CSV: {e}")))
}

/// Heading, note and file name of a library's sheet.
fn describe(lib: &Library, name: &str, players: &HashMap<PlayerId, String>) -> (String, String, String) {
    match (lib.table, &lib.seat) {
        (Some(t), Some(s)) => (
            format!("Table {t} · Seat {s}"),
            format!("This library stays at table {t}, seat {s}, for the whole event. Tick each card as it goes in."),
            format!("library-{t}{s}.html"),
        ),
        _ => {
            let owner = lib.player.and_then(|p| players.get(&p)).map_or(name, String::as_str);
            (
                format!("Sealed · {owner}"),
                "Sealed library: it travels with its player. The sideboard is listed below the main library.".into(),
                format!("library-sealed-{}.html", slug(owner, lib.id.0)),
            )
        }
    }
}

/// A file-name-safe form of a player's name, with the library id to keep names apart.
fn slug(name: &str, id: i64) -> String {
    let s: String =
        crate::domain::names::fold(name).chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    format!("{}-{id}", s.trim_matches('-'))
}

/// Runs `library sheets DIR`.
pub fn write(ctx: &Ctx, dir: &Path, force: bool) -> Result<()> {
    let store = ctx.open()?;
    let n = store.read(|conn| write_sheets(conn, dir, force))?;
    done(
        ctx.format,
        &format!("wrote {n} deck sheets, index.html and libraries.csv to {}", dir.display()),
        serde_json::json!({ "dir": dir.display().to_string(), "sheets": n }),
    )
}
