//! A round's pairings (see [`crate::ops::pairings`]) as printable pages: by table, then by player.

use askama::Template;

use crate::ops::pairings::Pairings;
pub use crate::ops::pairings::{PlayerLine, TableLine};

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
    /// The line repeated at the top of every printed sheet (event, day, round).
    pub head: String,
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
    /// The libraries carried for players who stay at one table, in words (empty when none).
    pub carry: String,
    /// Players who stay at one table but play at another this round, in words.
    pub away: Vec<String>,
    /// The tables with libraries and no game this round, in words (empty when none).
    pub idle: String,
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
}

/// The wall sheet of one round: every player by name in large type, then their table.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "pairings_wall.html")]
pub struct WallPage {
    /// The line repeated at the top of every printed sheet (event, day, round).
    pub head: String,
    /// Event name.
    pub event: String,
    /// Round number.
    pub round: u32,
    /// (name, table or "bye", seat) in the sheet's order.
    pub rows: Vec<(String, String, String)>,
    /// How the rows are sorted, in words.
    pub order: &'static str,
    /// The libraries carried for players who stay at one table, in words (empty when none).
    pub carry: String,
}

/// One player's seat on a wall sheet.
pub struct WallSeat<'a> {
    /// The player (ties between equal names go by it).
    pub id: i64,
    /// The name as written.
    pub name: &'a str,
    /// The table, or none for a bye.
    pub table: Option<u32>,
    /// The seat letter.
    pub seat: Option<char>,
}

impl WallPage {
    /// The wall sheet of `p`: sorted by the name as written, or by its last word (`by_last`), ties by the
    /// whole name; byes in the same order as everyone else.
    pub fn new(p: &Pairings, head: String, by_last: bool) -> Self {
        let seats = p.players.iter().map(|x| WallSeat { id: x.id, name: &x.name, table: x.table, seat: x.seat });
        let mut page = WallPage::of_seats(head, p.event.clone(), p.round, seats, by_last);
        page.carry = crate::ops::pairings::carry_words(&p.carry);
        page
    }

    /// The wall sheet of round `round` from each player's seat, in any order (sorted as [`WallPage::new`]
    /// says).
    pub fn of_seats<'a>(
        head: String,
        event: String,
        round: u32,
        seats: impl IntoIterator<Item = WallSeat<'a>>,
        by_last: bool,
    ) -> Self {
        let mut seats: Vec<WallSeat> = seats.into_iter().collect();
        let last = |n: &str| crate::domain::names::fold(n.split_whitespace().last().unwrap_or(n));
        seats.sort_by_cached_key(|x| {
            let whole = crate::domain::names::fold(x.name);
            (if by_last { last(x.name) } else { whole.clone() }, whole, x.id)
        });
        let table = |t: Option<u32>| t.map(|t| t.to_string()).unwrap_or_else(|| "bye".into());
        WallPage {
            head,
            event,
            round,
            rows: seats
                .into_iter()
                .map(|x| (x.name.to_string(), table(x.table), x.seat.map(String::from).unwrap_or_default()))
                .collect(),
            order: if by_last { "by last name" } else { "by name" },
            carry: String::new(),
        }
    }

    /// The page as HTML.
    pub fn render(&self) -> Result<String, askama::Error> {
        Template::render(self)
    }
}

impl From<Pairings> for PairingsPage {
    fn from(p: Pairings) -> Self {
        PairingsPage {
            head: String::new(),
            event: p.event,
            round: p.round,
            movement: p.movement,
            tables: p.tables,
            players: p.players,
            carry: crate::ops::pairings::carry_words(&p.carry),
            away: p.away,
            idle: crate::ops::pairings::idle_words(&p.idle),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_escapes_names_and_lists_both_ways() {
        let view = Pairings {
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
            carry: vec![crate::ops::pairings::Carry { from: 4, library: "4A".into(), to: 1 }],
            away: vec![],
            idle: vec![],
        };
        let json = view.json();
        // The typed document, written directly, prints the bytes its `Value` prints.
        let direct = serde_json::to_string_pretty(&view.doc()).unwrap_or_default();
        assert_eq!(direct, serde_json::to_string_pretty(&json).unwrap_or_default());
        assert!(direct.contains("\"seat\": \"B\"") && direct.contains("\"result\": null"), "{direct}");
        let page = PairingsPage::from(view);
        let html = page.render().unwrap_or_default();
        assert!(html.contains("Open &#60;2026&#62;") || html.contains("Open &lt;2026&gt;"), "{html}");
        assert!(html.contains("Ana &#38; Bo") || html.contains("Ana &amp; Bo"));
        assert!(html.contains("table 4, seat B") && html.contains("sits out (bye)"));
        assert!(html.contains("@media print"));
        assert!(html.contains("Libraries to carry") && html.contains("4A from table 4 to table 1"), "{html}");
        assert_eq!(json["players"][1]["next"]["bye"], true);
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
