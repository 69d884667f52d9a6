//! CSV with a header row, for spreadsheets. Every CSV mmjudge writes goes through [`CsvWriter`], which
//! makes each cell inert in a spreadsheet (see [`safe_cell`]).

use super::{Exporter, Listing};
use std::borrow::Cow;
use std::io::Write;

/// The CSV exporter.
pub struct Csv;

impl Exporter for Csv {
    fn export(&self, out: &mut dyn Write, listing: &Listing, _json: &serde_json::Value) -> std::io::Result<()> {
        let mut w = CsvWriter::new(out);
        w.write_record(&listing.headers)?;
        for row in &listing.rows {
            w.write_record(row)?;
        }
        w.flush()
    }
}

/// A CSV writer whose every cell passes through [`safe_cell`]: the only way mmjudge writes CSV.
pub struct CsvWriter<W: Write> {
    inner: csv::Writer<W>,
}

impl<W: Write> CsvWriter<W> {
    /// A writer into `out`.
    pub fn new(out: W) -> Self {
        CsvWriter { inner: csv::Writer::from_writer(out) }
    }

    /// Writes one row, each cell made safe.
    pub fn write_record<I, T>(&mut self, cells: I) -> csv::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        // Cell by cell, then the end of the record: what `write_record` writes, without a copy of each cell.
        for cell in cells {
            self.inner.write_field(safe_cell(cell.as_ref()).as_bytes())?;
        }
        self.inner.write_record(std::iter::empty::<&[u8]>())
    }

    /// Flushes the rows written so far.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }

    /// Flushes and returns the output.
    pub fn into_inner(self) -> Result<W, String> {
        self.inner.into_inner().map_err(|e| e.error().to_string())
    }
}

/// A cell a spreadsheet shows as text, never runs: a cell starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading `'` (the OWASP advice for CSV injection), unless it is a plain number
/// such as `-3`, `+1.5` or `-12%`, or a lone `-` standing for "none" (data, left as it is). Control characters other than the line feed, tab
/// and carriage return (ESC, NUL, ...) are written as visible escapes.
/// Where a spreadsheet splits cells on `;` (Excel in much of Europe), each `;`-separated part is guarded the
/// same way.
pub fn safe_cell(cell: &str) -> Cow<'_, str> {
    let controls = cell.chars().any(|c| crate::domain::text::is_control(c) && !matches!(c, '\n' | '\t' | '\r'));
    if !cell.split(';').any(risky) && !controls {
        return Cow::Borrowed(cell);
    }
    let mut guarded = String::with_capacity(cell.len() + 2);
    for (i, part) in cell.split(';').enumerate() {
        if i > 0 {
            guarded.push(';');
        }
        if risky(part) {
            guarded.push('\'');
        }
        guarded.push_str(part);
    }
    let mut out = String::with_capacity(guarded.len());
    for c in guarded.chars() {
        if crate::domain::text::is_control(c) && !matches!(c, '\n' | '\t' | '\r') {
            out.push_str(&crate::domain::text::escape(&c.to_string(), false));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether a spreadsheet would run `cell` as a formula.
fn risky(cell: &str) -> bool {
    let placeholder = cell == "-" || cell == "+";
    cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && !plain_number(cell) && !placeholder
}

/// `-3`, `+1.5`, `0.25`, `-12%`: a sign, digits with at most one decimal point, an optional percent sign.
fn plain_number(cell: &str) -> bool {
    let body = cell.strip_prefix(['+', '-']).unwrap_or(cell);
    let body = body.strip_suffix('%').unwrap_or(body);
    let mut parts = body.splitn(2, '.');
    let whole = parts.next().unwrap_or("");
    let frac = parts.next();
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    let any = !whole.is_empty() || frac.is_some_and(|f| !f.is_empty());
    any && digits(whole) && frac.is_none_or(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_and_numbers_kept() {
        assert_eq!(safe_cell("=HYPERLINK(\"http://x\",\"y\")"), "'=HYPERLINK(\"http://x\",\"y\")");
        for risky in ["+cmd", "-1+2", "@SUM(A1)", "\tx", "\r=1", "--", "-x", "=1", "="] {
            assert!(safe_cell(risky).starts_with('\''), "{risky:?}");
        }
        for data in ["-3", "+1.5", "0.25", "-12%", "-.5", "42", "Ana", "B1", "{1}{R}", "", "1-0-0", "x=y", "-", "+"] {
            assert_eq!(safe_cell(data), data, "{data:?}");
        }
        assert_eq!(safe_cell("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(safe_cell("two\nlines"), "two\nlines");
        // Where `;` separates cells (Excel in much of Europe), each part is guarded as a cell of its own.
        assert_eq!(safe_cell("Al;=1+1"), "Al;'=1+1");
        assert_eq!(safe_cell("=a;@b;-3;x"), "'=a;'@b;-3;x");
        assert_eq!(safe_cell("a;b"), "a;b");
    }

    #[test]
    fn the_writer_neutralises_every_cell() {
        let mut w = CsvWriter::new(Vec::new());
        let wrote = w.write_record(["=1+1", "-3", "@x"]);
        assert!(wrote.is_ok());
        let text = w.into_inner().map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
        assert_eq!(text, "'=1+1,-3,'@x\n");
    }
}
