//! `notes TABLE`: the note sheet of a game, as players keep it (two columns, one per player, seat A left),
//! for people, JSON, CSV or a printable HTML page. The sheet is read by `ops::table::records::sheet`.

use super::Ctx;
use crate::cli::note::NotesArgs;
use crate::domain::note_sheet::SheetNote;
use crate::error::{Error, Result};
use crate::ops::table::records::sheet::{NoteSheet, note_sheet};
use crate::render::note_sheet::NoteSheetPage;
use crate::render::{Format, Listing, done, emit};

/// Prints a table's note sheet, or writes it as HTML with `--html FILE`.
pub fn sheet(ctx: &Ctx, args: &NotesArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let s = note_sheet(conn, args.table, args.round)?;
    let p = &s.pairing;
    if let Some(file) = &args.html {
        let html = page(&s, &crate::ops::event::print_head(conn)?)?;
        crate::output::write(file, crate::output::Kind::NoteSheet, args.force, html.as_bytes())?;
        return done(
            ctx.format,
            &format!(
                "wrote {} ({} at {}): open it in a browser or print it",
                file.display(),
                notes_words(s.notes.len()),
                s.label
            ),
            serde_json::json!({ "file": file.display().to_string(), "round": p.round, "table": p.table,
                                "match": p.match_id, "notes": s.notes.len() }),
        );
    }
    let cols = s.columns();
    let (a, b) = (format!("{} (A)", p.a), format!("{} (B)", p.b));
    let mut listing = Listing::new(&["#", &a, "at", "#", &b, "at"]).titled(format!("Template notes at {}", s.label));
    for [left, right] in crate::domain::note_sheet::rows(&cols) {
        let mut line = cells(left);
        line.extend(cells(right));
        listing.row(line);
    }
    listing.footer.push(format!(
        "{}; {}; the match: {}",
        count_words(&p.a, &cols[0]),
        count_words(&p.b, &cols[1]),
        s.outcome
    ));
    for (name, notes) in s.apart() {
        let lines: Vec<String> = notes.iter().map(|n| format!("#{} {} at {}", n.id, n.line(), n.time)).collect();
        let apart = format!("{} before a seat swap, {name}", apart_words(&notes));
        if ctx.format == Format::Csv {
            // A spreadsheet has no footer: each note a row of its own, under the two seats' notes.
            for n in &notes {
                let note = format!("{apart}: {}", n.line());
                listing.row(vec![n.id.to_string(), note, n.time.clone(), String::new(), String::new(), String::new()]);
            }
        }
        listing.footer.push(format!("{apart}: {}", lines.join("; ")));
    }
    if !s.notes.is_empty() {
        listing.footer.push(format!("# is the note id that `mmjudge challenge {} ... --evidence ID` cites", p.table));
    }
    emit(ctx.format, &listing, &s)
}

/// The three cells of one player's note on a line (empty when that column has run out).
fn cells(n: Option<&SheetNote>) -> Vec<String> {
    match n {
        Some(n) => vec![n.id.to_string(), n.line(), n.time.clone()],
        None => vec![String::new(), String::new(), String::new()],
    }
}

/// "voided" when every note of a player no longer seated here was voided (as a seat swap asks), else "taken".
fn apart_words(notes: &[&SheetNote]) -> &'static str {
    if notes.iter().all(|n| n.voided) { "voided" } else { "taken" }
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

fn page(s: &NoteSheet, head: &crate::render::pages::PrintHead) -> Result<String> {
    NoteSheetPage::of(s, head).render().map_err(|e| Error::refused(format!("cannot render the note sheet: {e}")))
}
