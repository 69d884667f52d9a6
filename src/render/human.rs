//! Tables for people, drawn as comfy-table's `UTF8_FULL_CONDENSED` style draws them (no colour, so
//! `NO_COLOR` and pipes are always safe). The table is written straight into one string: comfy-table builds
//! a cell, a padded copy and a line for every cell, which at thousands of rows costs more than the rest of
//! the command. Tables it would lay out differently (a cell wider than it measures) still go through it.

use super::{Exporter, Listing};
use comfy_table::{ContentArrangement, Table, presets};
use std::borrow::Cow;
use std::io::Write;
use unicode_width::UnicodeWidthStr;

/// The human exporter.
pub struct Human;

/// Widest column the hand-drawn table takes (comfy-table counts widths in `u16`; wider goes through it).
const WIDEST: usize = 60_000;

/// A listing as a text table with its title and footer. Control characters in any text (an old event's
/// names, a judge's name in the log) are shown as escapes, never sent raw to the terminal.
pub fn render(listing: &Listing) -> String {
    let mut text = String::new();
    if let Some(t) = &listing.title {
        text.push_str(&safe(t));
        text.push('\n');
    }
    if listing.rows.is_empty() {
        text.push_str("(none)\n");
    } else {
        let cells: Vec<Vec<Cow<'_, str>>> = listing.rows.iter().map(|r| r.iter().map(|c| safe(c)).collect()).collect();
        let header = listing.headers.iter().any(|h| !h.is_empty()).then_some(listing.headers.as_slice());
        if !draw(&mut text, header, &cells) {
            text.push_str(&with_comfy_table(header, &cells));
        }
        text.push('\n');
    }
    for line in &listing.footer {
        text.push_str(&safe(line));
        text.push('\n');
    }
    text
}

/// Text with its control characters escaped (a line feed kept), borrowed when there are none.
fn safe(text: &str) -> Cow<'_, str> {
    match crate::domain::text::first_control(text, true) {
        None => Cow::Borrowed(text),
        Some(_) => Cow::Owned(crate::domain::text::escape(text, true)),
    }
}

/// The display width of one line of a cell.
fn width(line: &str) -> usize {
    if line.bytes().all(|b| (b' '..=b'~').contains(&b)) { line.len() } else { line.width() }
}

/// Draws the table (without a final line feed) into `out`; false, with nothing written, when a column is
/// wider than [`WIDEST`] or there is no column at all.
fn draw<H: AsRef<str>>(out: &mut String, header: Option<&[H]>, rows: &[Vec<Cow<'_, str>>]) -> bool {
    let columns = rows.iter().map(Vec::len).chain(header.map(<[H]>::len)).max().unwrap_or(0);
    if columns == 0 {
        return false;
    }
    // Each column is as wide as its widest line, and at least one character.
    let mut widths = vec![1usize; columns];
    let mut measure = |i: usize, cell: &str| {
        for line in cell.split('\n') {
            widths[i] = widths[i].max(width(line));
        }
    };
    if let Some(h) = header {
        h.iter().enumerate().for_each(|(i, c)| measure(i, c.as_ref()));
    }
    for row in rows {
        row.iter().enumerate().for_each(|(i, c)| measure(i, c));
    }
    if widths.iter().any(|&w| w > WIDEST) {
        return false;
    }
    let line_bytes: usize = widths.iter().map(|w| w + 2 + 3).sum::<usize>() + 3;
    out.reserve(line_bytes * (rows.len() + 4));
    rule(out, &widths, ['┌', '─', '┬', '┐']);
    if let Some(h) = header {
        out.push('\n');
        row_lines(out, &widths, h);
        out.push('\n');
        rule(out, &widths, ['╞', '═', '╪', '╡']);
    }
    for row in rows {
        out.push('\n');
        row_lines(out, &widths, row);
    }
    out.push('\n');
    rule(out, &widths, ['└', '─', '┴', '┘']);
    true
}

/// A border line: left corner, fill, junction between columns, right corner.
fn rule(out: &mut String, widths: &[usize], [left, fill, junction, right]: [char; 4]) {
    out.push(left);
    for (i, &w) in widths.iter().enumerate() {
        if i > 0 {
            out.push(junction);
        }
        out.extend(std::iter::repeat_n(fill, w + 2));
    }
    out.push(right);
}

/// The lines of one row (as many as its tallest cell), joined by line feeds, without a final one; missing
/// cells and lines are blank.
fn row_lines<C: AsRef<str>>(out: &mut String, widths: &[usize], row: &[C]) {
    let height = row.iter().map(|c| c.as_ref().bytes().filter(|&b| b == b'\n').count() + 1).max().unwrap_or(1);
    if height == 1 {
        // One line per cell (most rows): each cell is its own line.
        out.push('│');
        for (i, &w) in widths.iter().enumerate() {
            if i > 0 {
                out.push('┆');
            }
            let text = row.get(i).map_or("", |c| c.as_ref());
            out.push(' ');
            out.push_str(text);
            pad(out, w.saturating_sub(width(text)) + 1);
        }
        out.push('│');
        return;
    }
    for line in 0..height {
        if line > 0 {
            out.push('\n');
        }
        out.push('│');
        for (i, &w) in widths.iter().enumerate() {
            if i > 0 {
                out.push('┆');
            }
            let text = row.get(i).and_then(|c| c.as_ref().split('\n').nth(line)).unwrap_or("");
            out.push(' ');
            out.push_str(text);
            pad(out, w.saturating_sub(width(text)) + 1);
        }
        out.push('│');
    }
}

/// Appends `n` spaces.
fn pad(out: &mut String, mut n: usize) {
    const SPACES: &str = "                                                                ";
    while n > 0 {
        let take = n.min(SPACES.len());
        out.push_str(&SPACES[..take]);
        n -= take;
    }
}

/// The same table drawn by comfy-table (for what [`draw`] leaves to it).
fn with_comfy_table<H: AsRef<str>>(header: Option<&[H]>, rows: &[Vec<Cow<'_, str>>]) -> String {
    let mut table = Table::new();
    table.load_style(presets::UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Disabled);
    if let Some(h) = header {
        table.set_header(h.iter().map(|c| c.as_ref().to_string()).collect::<Vec<_>>());
    }
    for row in rows {
        table.add_row(row.iter().map(|c| c.to_string()).collect::<Vec<_>>());
    }
    table.to_string()
}

impl Exporter for Human {
    fn export(&self, out: &mut dyn Write, listing: &Listing, _json: &serde_json::Value) -> std::io::Result<()> {
        out.write_all(render(listing).as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Cells of every kind the listings hold: empty, ASCII, wide and combining characters, line feeds.
    fn cell() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec!["", "a", "Kim", " ", "é", "e\u{301}", "漢", "—", "\n", "1"]),
            0..5,
        )
        .prop_map(|parts| parts.concat())
    }

    fn listing() -> impl Strategy<Value = Listing> {
        let headers = prop::collection::vec(prop::sample::select(vec!["", "rank", "player", "名前"]), 0..5);
        let rows = prop::collection::vec(prop::collection::vec(cell(), 0..6), 1..6);
        (headers, rows).prop_map(|(headers, rows)| Listing {
            title: None,
            headers: headers.into_iter().map(String::from).collect(),
            rows,
            footer: vec![],
        })
    }

    proptest! {
        /// The hand-drawn table is byte for byte comfy-table's.
        #[test]
        fn tables_are_drawn_as_comfy_table_draws_them(l in listing()) {
            let cells: Vec<Vec<Cow<'_, str>>> = l.rows.iter().map(|r| r.iter().map(|c| safe(c)).collect()).collect();
            let header = l.headers.iter().any(|h| !h.is_empty()).then_some(l.headers.as_slice());
            let mut drawn = String::new();
            if draw(&mut drawn, header, &cells) {
                prop_assert_eq!(drawn, with_comfy_table(header, &cells));
            }
        }
    }

    #[test]
    fn a_listing_keeps_its_title_footer_and_escapes() {
        let mut l = Listing::new(&["player", "points"]).titled("Cup\u{1b}");
        l.row(vec!["Ana\u{7}".into(), "3".into()]);
        l.footer.push("done".into());
        let text = render(&l);
        assert!(text.starts_with("Cup\\u{1b}\n┌"), "{text}");
        assert!(text.contains("│ Ana\\u{7} ┆ 3      │"), "{text}");
        assert!(text.ends_with("┘\ndone\n"), "{text}");
    }
}
