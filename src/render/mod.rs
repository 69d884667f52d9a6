//! Rendering: one module per output format behind one trait. Commands build a [`Listing`] (rows for people
//! and CSV) plus a serializable JSON document, and [`emit`] writes it in the format asked for.

pub mod assets;
pub mod cards;
pub mod chart;
mod csv_out;
pub mod curve;
pub mod deadline;
pub mod decisions;
pub use csv_out::{CsvWriter, safe_cell};
mod human;
pub mod imports;
mod json_out;
pub mod me;
pub mod note_sheet;
pub mod pages;
pub mod pairings;
pub mod player_slips;
pub mod points;
pub mod progress;
pub mod projector;
pub mod qr;
pub mod records;
pub mod reports;
pub mod settings;
pub mod site;
pub mod standby;
pub mod standings;
pub mod wanted;
pub mod watch;

use crate::error::{Error, Result};
use serde::Serialize;
use std::io::Write;

/// The output format chosen on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Tables and sentences for people.
    Human,
    /// A stable JSON document (shapes in docs/json.md).
    Json,
    /// CSV with a header row (tabular listings only).
    Csv,
    /// Nothing at all (the demo runs real commands and tells its own story).
    Quiet,
}

/// A tabular listing: a title for people, column headers and rows of cells.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Printed above the table for people (not in CSV).
    pub title: Option<String>,
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows of cells, as many as headers.
    pub rows: Vec<Vec<String>>,
    /// Lines printed below the table for people (totals, hints).
    pub footer: Vec<String>,
}

impl Listing {
    /// A listing with these headers and no rows yet.
    pub fn new(headers: &[&str]) -> Self {
        Listing { headers: headers.iter().map(|h| h.to_string()).collect(), ..Default::default() }
    }

    /// Sets the title.
    pub fn titled(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Adds a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }
}

/// Something that writes a listing and its JSON document in one format.
pub trait Exporter {
    /// Writes the output.
    fn export(&self, out: &mut dyn Write, listing: &Listing, json: &serde_json::Value) -> std::io::Result<()>;
}

fn exporter(format: Format) -> Box<dyn Exporter> {
    match format {
        Format::Human => Box::new(human::Human),
        Format::Json => Box::new(json_out::Json),
        Format::Csv | Format::Quiet => Box::new(csv_out::Csv),
    }
}

/// Writes a listing to standard output in `format`.
pub fn emit<T: Serialize>(format: Format, listing: &Listing, doc: &T) -> Result<()> {
    if format == Format::Quiet {
        return Ok(());
    }
    // Only the JSON format prints the document: tables and CSV never build it.
    let json = match format {
        Format::Json => serde_json::to_value(doc).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?,
        _ => serde_json::Value::Null,
    };
    to_stdout(|out| exporter(format).export(out, listing, &json))
}

/// [`emit`] for a document whose every object lists its keys in sorted order, as a `serde_json::Value`
/// prints them (its map is sorted by key): the JSON is written to standard output as it serializes, with no
/// `Value` built, and the listing is built only for tables and CSV.
pub fn emit_sorted<T: Serialize>(format: Format, listing: impl FnOnce() -> Listing, doc: &T) -> Result<()> {
    match format {
        Format::Quiet => Ok(()),
        Format::Json => to_stdout(|out| {
            serde_json::to_writer_pretty(&mut *out, doc)?;
            out.write_all(b"\n")
        }),
        Format::Human | Format::Csv => emit(format, &listing(), &()),
    }
}

/// Runs `write` on buffered standard output (standard output is line-buffered, and pretty JSON has a line
/// per field); a closed pipe is not an error.
fn to_stdout(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|e| Error::io("standard output", e)),
    }
}

/// [`done`] with an outcome that serializes to the extra fields (an `ops` outcome).
pub fn done_with<T: Serialize>(format: Format, summary: &str, outcome: &T) -> Result<()> {
    let extra = serde_json::to_value(outcome).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    done(format, summary, extra)
}

/// Writes a one-line outcome of a command that changed something: the sentence for people, or
/// `{"ok": true, "summary": ...}` plus `extra` fields in JSON.
pub fn done(format: Format, summary: &str, extra: serde_json::Value) -> Result<()> {
    match format {
        Format::Json => {
            let mut doc = serde_json::json!({ "ok": true, "summary": summary });
            if let (Some(map), serde_json::Value::Object(more)) = (doc.as_object_mut(), extra) {
                map.extend(more);
            }
            println!("{doc}");
        }
        Format::Human | Format::Csv => println!("{}", crate::domain::text::escape(summary, true)),
        Format::Quiet => {}
    }
    Ok(())
}

/// Renders a listing as text for people (used by commands that show several tables).
pub fn human_text(listing: &Listing) -> String {
    human::render(listing)
}
