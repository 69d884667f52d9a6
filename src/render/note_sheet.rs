//! The printable note sheet of one game: two columns, one per player, as players keep them. Shares
//! `templates/style.css` with the event's other pages; every user text is escaped by askama.

use crate::domain::note_sheet::SheetNote;
use crate::ops::table::records::sheet::NoteSheet;
use askama::Template;

/// One player's column.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// `A` or `B`; empty for a player no longer seated at the table (their notes, voided before a seat swap).
    pub seat: String,
    /// The player's name.
    pub player: String,
    /// The player's notes in the order declared.
    pub notes: Vec<SheetNote>,
}

/// One match's note sheet as the site's note pages show it: its table, its result in words and its two
/// columns (seat A first).
#[derive(Debug, Clone, PartialEq)]
pub struct MatchSheet {
    /// The table.
    pub table: u32,
    /// The match's result in words, or "still playing".
    pub outcome: String,
    /// Seat A's column, then seat B's.
    pub columns: Vec<Column>,
}

impl MatchSheet {
    /// The sheet of a match read by [`crate::ops::table::records::sheet::note_sheet_of`].
    pub fn of(s: &NoteSheet) -> Self {
        MatchSheet { table: s.pairing.table, outcome: s.outcome.clone(), columns: columns(s) }
    }
}

/// The two columns of a sheet, seat A first.
pub fn columns(s: &NoteSheet) -> Vec<Column> {
    let [a, b] = s.columns();
    let column = |seat: &str, name: &str, notes: Vec<&SheetNote>| Column {
        seat: seat.to_string(),
        player: name.to_string(),
        notes: notes.into_iter().cloned().collect(),
    };
    let mut out = vec![column("A", &s.pairing.a, a), column("B", &s.pairing.b, b)];
    out.extend(s.apart().into_iter().map(|(name, notes)| column("", &name, notes)));
    out
}

/// Everything the note sheet page shows.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "notes.html")]
pub struct NoteSheetPage {
    /// The line repeated at the top of every printed sheet (event, day, round).
    pub head: String,
    /// Event name.
    pub event: String,
    /// Round number.
    pub round: u32,
    /// Table number.
    pub table: u32,
    /// The match's result in words, or "still playing".
    pub outcome: String,
    /// Seat A's column, then seat B's (then any player's no longer seated here).
    pub columns: Vec<Column>,
}

impl NoteSheetPage {
    /// The printable page of table `s`'s note sheet under the print head `head` (`notes TABLE --html` and the
    /// judges' print on the server).
    pub fn of(s: &NoteSheet, head: &crate::render::pages::PrintHead) -> Self {
        NoteSheetPage {
            head: head.line(Some(s.pairing.round), &format!("table {} · note sheet", s.pairing.table)),
            event: s.event.clone(),
            round: s.pairing.round,
            table: s.pairing.table,
            outcome: s.outcome.clone(),
            columns: columns(s),
        }
    }

    /// The page as HTML.
    pub fn render(&self) -> Result<String, askama::Error> {
        Template::render(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::result::Seat;

    fn note(id: i64, card: Option<&str>) -> SheetNote {
        SheetNote {
            id,
            seat: Some(Seat::A),
            shorthand: "B1".into(),
            card: card.map(String::from),
            time: "14:05".into(),
            voided: false,
            text: None,
        }
    }

    fn page(player: &str, notes: Vec<SheetNote>) -> String {
        NoteSheetPage {
            head: String::new(),
            event: "Spring <Open>".into(),
            round: 3,
            table: 4,
            outcome: "still playing".into(),
            columns: vec![
                Column { seat: "A".into(), player: player.into(), notes },
                Column { seat: "B".into(), player: "Bo".into(), notes: vec![] },
            ],
        }
        .render()
        .unwrap_or_default()
    }

    #[test]
    fn two_columns_with_lines_times_and_ids() {
        let html = page("Ana", vec![note(7, Some("Demonic Tutor")), note(9, None)]);
        for want in ["Table 4", "Round 3", "Ana", "Bo", "B1:", "Demonic Tutor", "(unnamed)", "14:05", "#7", "No notes"]
        {
            assert!(html.contains(want), "missing {want}");
        }
        assert!(html.find("Ana") < html.find("Bo"), "seat A first");
        assert!(html.contains("@media print"), "the shared stylesheet is inlined");
    }

    #[test]
    fn a_voided_note_is_struck_through() {
        let html = page("Ana", vec![SheetNote { voided: true, ..note(7, Some("Demonic Tutor")) }]);
        assert!(html.contains("<del>Demonic Tutor</del>"), "{html}");
        assert!(html.contains("class=\"void\""), "{html}");
    }

    #[test]
    fn escapes_user_text_and_stays_self_contained() {
        let html = page("<script>alert(1)</script>", vec![note(1, Some("Fire & <Ice>"))]);
        assert!(!html.contains("<script>alert"), "{html}");
        assert!(html.contains("&#60;script&#62;"));
        assert!(html.contains("Fire &#38; &#60;Ice&#62;"));
        assert!(html.contains("Spring &#60;Open&#62;"));
        for banned in ["http://", "https://", "<link", "src=", "@import"] {
            assert!(!html.contains(banned), "external reference {banned}");
        }
    }
}
