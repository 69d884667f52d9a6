//! A round's pairings as printable pages (by table, then by player) and as a JSON document.

use askama::Template;

/// One table of the round.
#[derive(Debug, Clone, PartialEq)]
pub struct TableLine {
    /// Table number.
    pub table: u32,
    /// Player at seat A.
    pub a: String,
    /// Seat A's library ("3A").
    pub a_library: String,
    /// Player at seat B.
    pub b: String,
    /// Seat B's library.
    pub b_library: String,
    /// "A won", "B won", "draw", or empty while playing.
    pub result: String,
}

/// One player of the round.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerLine {
    /// Player id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Table, or None for a bye.
    pub table: Option<u32>,
    /// Seat 'A' or 'B' (None for a bye).
    pub seat: Option<char>,
    /// The library played ("3A", or a sealed library).
    pub library: String,
    /// The opponent's name (empty for a bye).
    pub opponent: String,
    /// Next round: Some(Some((table, seat))), Some(None) for a bye, None when not known.
    pub next: Option<Option<(u32, char)>>,
}

impl PlayerLine {
    /// "table 4, seat B", "sits out (bye)", or empty.
    pub fn next_words(&self) -> String {
        match self.next {
            Some(Some((t, s))) => format!("table {t}, seat {s}"),
            Some(None) => "sits out (bye)".into(),
            None => String::new(),
        }
    }

    /// Table as text ("bye" for a bye).
    pub fn table_words(&self) -> String {
        self.table.map(|t| t.to_string()).unwrap_or_else(|| "bye".into())
    }

    /// Seat as text.
    pub fn seat_words(&self) -> String {
        self.seat.map(String::from).unwrap_or_default()
    }
}

/// The printable pairings of one round.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "pairings.html")]
pub struct PairingsPage {
    /// Event name.
    pub event: String,
    /// Round number.
    pub round: u32,
    /// The movement that paired it.
    pub movement: String,
    /// Tables in order.
    pub tables: Vec<TableLine>,
    /// Players alphabetically, byes last.
    pub players: Vec<PlayerLine>,
}

impl PairingsPage {
    /// The page as HTML.
    pub fn render(&self) -> Result<String, askama::Error> {
        Template::render(self)
    }

    /// Players who sit out.
    pub fn byes(&self) -> Vec<&PlayerLine> {
        self.players.iter().filter(|p| p.table.is_none()).collect()
    }

    /// Whether any player has a next seat to show.
    pub fn has_next(&self) -> bool {
        self.players.iter().any(|p| p.next.is_some())
    }

    /// The JSON document (docs/json.md, `pairings`).
    pub fn json(&self) -> serde_json::Value {
        let tables: Vec<serde_json::Value> = self
            .tables
            .iter()
            .map(|t| {
                serde_json::json!({
                    "table": t.table,
                    "a": { "name": t.a, "library": t.a_library },
                    "b": { "name": t.b, "library": t.b_library },
                    "result": if t.result.is_empty() { None } else { Some(&t.result) },
                })
            })
            .collect();
        let players: Vec<serde_json::Value> = self
            .players
            .iter()
            .map(|p| {
                let next = match p.next {
                    Some(Some((t, s))) => serde_json::json!({ "table": t, "seat": s.to_string(), "bye": false }),
                    Some(None) => serde_json::json!({ "table": null, "seat": null, "bye": true }),
                    None => serde_json::Value::Null,
                };
                serde_json::json!({
                    "id": p.id, "name": p.name, "bye": p.table.is_none(), "table": p.table,
                    "seat": p.seat.map(String::from),
                    "library": if p.table.is_some() { Some(&p.library) } else { None },
                    "opponent": if p.opponent.is_empty() { None } else { Some(&p.opponent) },
                    "next": next,
                })
            })
            .collect();
        serde_json::json!({
            "event": self.event, "round": self.round, "movement": self.movement,
            "tables": tables, "players": players,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_escapes_names_and_lists_both_ways() {
        let page = PairingsPage {
            event: "Open <2026>".into(),
            round: 2,
            movement: "square".into(),
            tables: vec![TableLine {
                table: 1,
                a: "Ana & Bo".into(),
                a_library: "1A".into(),
                b: "Cy".into(),
                b_library: "1B".into(),
                result: String::new(),
            }],
            players: vec![
                PlayerLine {
                    id: 1,
                    name: "Ana & Bo".into(),
                    table: Some(1),
                    seat: Some('A'),
                    library: "1A".into(),
                    opponent: "Cy".into(),
                    next: Some(Some((4, 'B'))),
                },
                PlayerLine {
                    id: 3,
                    name: "Dee".into(),
                    table: None,
                    seat: None,
                    library: String::new(),
                    opponent: String::new(),
                    next: Some(None),
                },
            ],
        };
        let html = page.render().unwrap_or_default();
        assert!(html.contains("Open &#60;2026&#62;") || html.contains("Open &lt;2026&gt;"), "{html}");
        assert!(html.contains("Ana &#38; Bo") || html.contains("Ana &amp; Bo"));
        assert!(html.contains("table 4, seat B") && html.contains("sits out (bye)"));
        assert!(html.contains("@media print"));
        assert_eq!(page.json()["players"][1]["next"]["bye"], true);
    }

    /// The seat column of the wall page keeps the table's large type: the note sheets' small,
    /// dimmed seat label must not reach it (both pages share one stylesheet).
    #[test]
    fn seat_column_is_not_styled_as_a_note_sheet_label() {
        let css = include_str!("../../templates/style.css");
        let unscoped = css.lines().any(|l| l.trim_start().starts_with(".seat"));
        assert!(!unscoped, "an unscoped .seat rule shrinks the pairings page's seat column");
    }
}
