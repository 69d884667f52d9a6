//! `notes TABLE`: the note sheet of a game, as players keep it (two columns, one per player, seat A left),
//! for people, JSON, CSV or a printable HTML page; [`sheet_html`] renders it for the event's site.

use super::Ctx;
use super::notes::{note_json, player_name, seat_of};
use super::table::{Seated, hhmm};
use crate::cli::note::NotesArgs;
use crate::domain::note_sheet::{SheetNote, columns, rows, shorthand};
use crate::error::{Error, Result};
use crate::render::note_sheet::{Column, NoteSheetPage};
use crate::render::{Listing, done, emit};
use crate::store::matches::Match;
use crate::store::notes::{self, Note};
use crate::store::voids::{self, VoidKind};
use crate::store::{MatchId, event, matches};
use rusqlite::Connection;

/// A game's notes, loaded once for every output.
struct Loaded {
    seated: Seated,
    notes: Vec<Note>,
    sheet: Vec<SheetNote>,
}

fn load(conn: &Connection, seated: Seated) -> Result<Loaded> {
    let notes = notes::of_match(conn, seated.m.id)?;
    let voided = voids::of_kind(conn, VoidKind::Note)?;
    let mut sheet = Vec::with_capacity(notes.len());
    for n in &notes {
        let text = match &n.card {
            Some(name) => crate::store::card_text::text_by_name(conn, name)?,
            None => None,
        };
        sheet.push(SheetNote {
            id: n.id.0,
            seat: seat_of(&seated, n),
            shorthand: shorthand(&n.cost),
            card: n.card.clone(),
            time: hhmm(&n.at),
            voided: voided.contains_key(&n.id.0),
            text,
        });
    }
    Ok(Loaded { seated, notes, sheet })
}

/// Prints a table's note sheet, or writes it as HTML with `--html FILE`.
pub fn sheet(ctx: &Ctx, args: &NotesArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let loaded = load(conn, Seated::at(conn, args.table, args.round)?)?;
    if let Some(file) = &args.html {
        let html = page(conn, &loaded)?;
        crate::output::write(file, crate::output::Kind::NoteSheet, args.force, html.as_bytes())?;
        let s = &loaded.seated;
        return done(
            ctx.format,
            &format!(
                "wrote {} ({} at {}): open it in a browser or print it",
                file.display(),
                notes_words(loaded.notes.len()),
                s.label()
            ),
            serde_json::json!({ "file": file.display().to_string(), "round": s.m.round, "table": s.table(),
                                "match": s.m.id, "notes": loaded.notes.len() }),
        );
    }
    let s = &loaded.seated;
    let cols = columns(&loaded.sheet);
    let (a, b) = (format!("{} (A)", s.a.name), format!("{} (B)", s.b.name));
    let mut listing = Listing::new(&["#", &a, "at", "#", &b, "at"]).titled(format!("Template notes at {}", s.label()));
    for [left, right] in rows(&cols) {
        let mut line = cells(left);
        line.extend(cells(right));
        listing.row(line);
    }
    listing.footer.push(format!(
        "{}; {}; the match: {}",
        count_words(&s.a.name, &cols[0]),
        count_words(&s.b.name, &cols[1]),
        s.describe_recorded()
    ));
    if !loaded.notes.is_empty() {
        listing.footer.push(format!("# is the note id that `mmjudge challenge {} ... --evidence ID` cites", s.table()));
    }
    let mut doc_notes = Vec::with_capacity(loaded.notes.len());
    let voided = voids::of_kind(conn, VoidKind::Note)?;
    for n in &loaded.notes {
        let mut d = note_json(s, n, &player_name(conn, s, n.player)?);
        d["voided"] = voids::json(voided.get(&n.id.0));
        doc_notes.push(d);
    }
    let doc = serde_json::json!({
        "round": s.m.round, "table": s.table(), "match": s.m.id, "a": s.a.name, "b": s.b.name,
        "result": s.result_json(), "notes": doc_notes,
    });
    emit(ctx.format, &listing, &doc)
}

/// The three cells of one player's note on a line (empty when that column has run out).
fn cells(n: Option<&SheetNote>) -> Vec<String> {
    match n {
        Some(n) => vec![n.id.to_string(), n.line(), n.time.clone()],
        None => vec![String::new(), String::new(), String::new()],
    }
}

/// "1 note", "3 notes".
fn notes_words(n: usize) -> String {
    format!("{n} note{}", if n == 1 { "" } else { "s" })
}

/// "Ana: 3 notes (1 unnamed)".
fn count_words(name: &str, col: &[&SheetNote]) -> String {
    let unnamed = col.iter().filter(|n| n.card.is_none() && !n.voided).count();
    let void = col.iter().filter(|n| n.voided).count();
    let mut s = format!("{name}: {}", notes_words(col.len() - void));
    if unnamed > 0 {
        s.push_str(&format!(" ({unnamed} unnamed)"));
    }
    if void > 0 {
        s.push_str(&format!(" and {void} void"));
    }
    s
}

/// The note sheet of one match as a printable HTML page (`notes --html`).
pub fn sheet_html(conn: &Connection, match_id: MatchId) -> Result<String> {
    let m = matches::get(conn, match_id)?;
    let loaded = load(conn, Seated::load(conn, m)?)?;
    page(conn, &loaded)
}

/// One match's note sheet: its table, its result in words and its two columns (seat A first).
#[derive(Debug, Clone, PartialEq)]
pub struct MatchSheet {
    /// The table.
    pub table: u32,
    /// The match's result in words, or "still playing".
    pub outcome: String,
    /// Seat A's column, then seat B's.
    pub columns: Vec<Column>,
}

/// The note sheet of a match with two players (the event's site shows one per table).
pub fn match_sheet(conn: &Connection, m: Match) -> Result<MatchSheet> {
    let loaded = load(conn, Seated::load(conn, m)?)?;
    let s = &loaded.seated;
    Ok(MatchSheet { table: s.table(), outcome: s.describe_recorded(), columns: sheet_columns(&loaded) })
}

/// The two columns of a loaded sheet, seat A first.
fn sheet_columns(loaded: &Loaded) -> Vec<Column> {
    let s = &loaded.seated;
    let [a, b] = columns(&loaded.sheet);
    let column = |seat: &str, name: &str, notes: Vec<&SheetNote>| Column {
        seat: seat.to_string(),
        player: name.to_string(),
        notes: notes.into_iter().cloned().collect(),
    };
    vec![column("A", &s.a.name, a), column("B", &s.b.name, b)]
}

fn page(conn: &Connection, loaded: &Loaded) -> Result<String> {
    let s = &loaded.seated;
    let page = NoteSheetPage {
        event: event::values(conn)?.name().to_string(),
        round: s.m.round,
        table: s.table(),
        outcome: s.describe_recorded(),
        columns: sheet_columns(loaded),
    };
    page.render().map_err(|e| Error::refused(format!("cannot render the note sheet: {e}")))
}
