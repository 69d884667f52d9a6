//! The note sheet as players keep it (tournament rules, "Note Taking"): two columns, one per player, each
//! line `B1: Demonic Tutor`, an unnamed card of a cost as `B1: (unnamed)` (rules, "Discard Rule").

use super::cost::ManaCost;
use super::result::Seat;
use serde::Serialize;

/// The word shown for a card left unnamed.
pub const UNNAMED: &str = "(unnamed)";

/// One note on the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SheetNote {
    /// The note's id (what `challenge --evidence` names).
    pub id: i64,
    /// The declaring player's seat; None for a player no longer seated at the table (after a seat swap), whose
    /// notes are shown apart, under their name.
    pub seat: Option<Seat>,
    /// The printed cost as players write it (`B1`).
    pub shorthand: String,
    /// The declared card; None when unnamed.
    pub card: Option<String>,
    /// When, as people read it (`14:05`).
    pub time: String,
    /// Voided by a judge: shown struck through, counts for nothing.
    pub voided: bool,
    /// The declared card's rules text, when the reference has it (shown on hover in the HTML sheets).
    pub text: Option<String>,
}

impl SheetNote {
    /// `B1: Demonic Tutor`, or `B1: (unnamed)`; a voided note ends with ` (void)`.
    pub fn line(&self) -> String {
        let void = if self.voided { " (void)" } else { "" };
        format!("{}: {}{void}", self.shorthand, self.card.as_deref().unwrap_or(UNNAMED))
    }
}

/// A stored cost (canonical `{1}{B}`, or shorthand from older rows) as players write it: `B1`. Text that is
/// not a cost is shown as it is.
pub fn shorthand(stored: &str) -> String {
    ManaCost::parse(stored).map(|c| c.shorthand()).unwrap_or_else(|_| stored.to_string())
}

/// The sheet's two columns, seat A's then seat B's, each in the order given.
pub fn columns(notes: &[SheetNote]) -> [Vec<&SheetNote>; 2] {
    let of = |seat| notes.iter().filter(|n| n.seat == Some(seat)).collect();
    [of(Seat::A), of(Seat::B)]
}

/// The sheet's lines: line `i` holds each player's `i`-th note (the shorter column runs out first).
pub fn rows<'a>(columns: &[Vec<&'a SheetNote>; 2]) -> Vec<[Option<&'a SheetNote>; 2]> {
    let [a, b] = columns;
    (0..a.len().max(b.len())).map(|i| [a.get(i).copied(), b.get(i).copied()]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(id: i64, seat: Seat, cost: &str, card: Option<&str>) -> SheetNote {
        SheetNote {
            id,
            seat: Some(seat),
            shorthand: shorthand(cost),
            card: card.map(String::from),
            time: "14:05".into(),
            voided: false,
            text: None,
        }
    }

    #[test]
    fn lines_read_as_players_write_them() {
        assert_eq!(note(1, Seat::A, "{1}{B}", Some("Demonic Tutor")).line(), "B1: Demonic Tutor");
        assert_eq!(note(2, Seat::B, "{W}", None).line(), "W: (unnamed)");
        assert_eq!(note(3, Seat::B, "B1", Some("Demonic Tutor")).line(), "B1: Demonic Tutor", "older rows");
        assert_eq!(shorthand("not a cost!"), "not a cost!");
        let voided = SheetNote { voided: true, ..note(4, Seat::A, "{R}", Some("Shock")) };
        assert_eq!(voided.line(), "R: Shock (void)");
    }

    #[test]
    fn two_columns_seat_a_left_in_order() {
        let notes = vec![
            note(1, Seat::B, "{R}", Some("Shock")),
            note(2, Seat::A, "{1}{B}", Some("Demonic Tutor")),
            note(3, Seat::B, "{U}", None),
            note(4, Seat::B, "{W}", Some("Swords to Plowshares")),
        ];
        let cols = columns(&notes);
        assert_eq!(cols[0].iter().map(|n| n.id).collect::<Vec<_>>(), vec![2]);
        assert_eq!(cols[1].iter().map(|n| n.id).collect::<Vec<_>>(), vec![1, 3, 4]);
        let lines = rows(&cols);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].map(|n| n.map(|n| n.id)), [Some(2), Some(1)]);
        assert_eq!(lines[2].map(|n| n.map(|n| n.id)), [None, Some(4)]);
        assert!(rows(&columns(&[])).is_empty());
    }
}
