//! CSV with a header row, for spreadsheets.

use super::{Exporter, Listing};
use std::io::Write;

/// The CSV exporter.
pub struct Csv;

impl Exporter for Csv {
    fn export(&self, out: &mut dyn Write, listing: &Listing, _json: &serde_json::Value) -> std::io::Result<()> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(&listing.headers)?;
        for row in &listing.rows {
            w.write_record(row)?;
        }
        w.flush()
    }
}
