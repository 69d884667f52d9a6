//! Tables for people (comfy-table); no colour, so `NO_COLOR` and pipes are always safe.

use super::{Exporter, Listing};
use comfy_table::{ContentArrangement, Table, presets};
use std::io::Write;

/// The human exporter.
pub struct Human;

/// A listing as a text table with its title and footer. Control characters in any text (an old event's
/// names, a judge's name in the log) are shown as escapes, never sent raw to the terminal.
pub fn render(listing: &Listing) -> String {
    let safe = |t: &str| crate::domain::text::escape(t, true);
    let mut text = String::new();
    if let Some(t) = &listing.title {
        text.push_str(&safe(t));
        text.push('\n');
    }
    if listing.rows.is_empty() {
        text.push_str("(none)\n");
    } else {
        let mut table = Table::new();
        table.load_style(presets::UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Disabled);
        if listing.headers.iter().any(|h| !h.is_empty()) {
            table.set_header(&listing.headers);
        }
        for row in &listing.rows {
            table.add_row(row.iter().map(|c| safe(c)));
        }
        text.push_str(&table.to_string());
        text.push('\n');
    }
    for line in &listing.footer {
        text.push_str(&safe(line));
        text.push('\n');
    }
    text
}

impl Exporter for Human {
    fn export(&self, out: &mut dyn Write, listing: &Listing, _json: &serde_json::Value) -> std::io::Result<()> {
        out.write_all(render(listing).as_bytes())
    }
}
