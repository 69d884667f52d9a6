//! Big lists that open at what the phone's owner needs: a page of a long list (the pairings, the standings at
//! thousands of players) shows [`ROWS`] rows from `from`, or the rows of the name searched, with a link to the
//! next rows (a page script loads them as the phone scrolls); the rest is never sent unasked.

use crate::domain::names::fold;

/// Rows a page of a long list shows.
pub const ROWS: usize = 100;

/// The most rows a name search shows.
pub const FOUND: usize = 20;

/// `?round=N&name=...&from=N` of a long list's page.
#[derive(Debug, Default, serde::Deserialize)]
pub struct ListQuery {
    /// The round (default: as the command line chooses).
    pub round: Option<u32>,
    /// A name searched (any part of it, case and accents aside).
    pub name: Option<String>,
    /// The first row shown (0 first).
    pub from: Option<usize>,
}

/// What a page of a long list shows.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Window {
    /// The name searched ("" for none).
    pub name: String,
    /// The first row shown and the row after the last.
    pub from: usize,
    /// The row after the last shown.
    pub to: usize,
    /// Rows in the whole list.
    pub total: usize,
    /// The address of the next rows, when there are more.
    pub more: Option<String>,
}

impl ListQuery {
    /// The name searched, trimmed ("" for none).
    pub fn name(&self) -> String {
        self.name.as_deref().map(str::trim).unwrap_or("").to_string()
    }

    /// The window over a list of `total` rows, served at `path` (for the next rows' address).
    pub fn window(&self, path: &str, total: usize) -> Window {
        let from = self.from.unwrap_or(0).min(total);
        let to = (from + ROWS).min(total);
        let more = (to < total).then(|| {
            let mut pairs: Vec<(&str, String)> = Vec::new();
            if let Some(r) = self.round {
                pairs.push(("round", r.to_string()));
            }
            pairs.push(("from", to.to_string()));
            format!("{path}?{}", serde_urlencoded::to_string(pairs).unwrap_or_default())
        });
        Window { name: self.name(), from, to, total, more }
    }
}

/// Whether `name` matches the search `asked` (any part of it, case and accents aside); nothing matches "".
pub fn matches(name: &str, asked: &str) -> bool {
    let asked = fold(asked);
    !asked.is_empty() && fold(name).contains(&asked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_shows_a_hundred_rows_and_links_the_next() {
        let q = ListQuery { round: Some(3), ..ListQuery::default() };
        let w = q.window("/pairings", 250);
        assert_eq!((w.from, w.to, w.more.as_deref()), (0, 100, Some("/pairings?round=3&from=100")));
        let q = ListQuery { from: Some(200), ..ListQuery::default() };
        let w = q.window("/standings", 250);
        assert_eq!((w.from, w.to, w.more), (200, 250, None));
        let q = ListQuery { from: Some(900), ..ListQuery::default() };
        assert_eq!(q.window("/standings", 10).from, 10);
        assert!(matches("Björn Lindqvist", "bjorn") && matches("Ana Souza", " SOU".trim()) && !matches("Ana", ""));
    }
}
