//! JSON documents, pretty-printed, one per command.

use super::{Exporter, Listing};
use std::io::Write;

/// The JSON exporter.
pub struct Json;

impl Exporter for Json {
    fn export(&self, out: &mut dyn Write, _listing: &Listing, json: &serde_json::Value) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, json)?;
        out.write_all(b"\n")
    }
}
