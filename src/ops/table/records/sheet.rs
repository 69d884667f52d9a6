//! The note sheet of a game: every template note taken at a table, as players keep them (one column per
//! player, seat A first), with the voided ones marked.

use crate::domain::note_sheet::{SheetNote, columns, shorthand};
use crate::error::Result;
use crate::ops::table::records::note::{NoteView, note_view, player_name, seat_of};
use crate::ops::table::{Pairing, RecordedResult, Seated, hhmm};
use crate::store::matches::{self, Match};
use crate::store::notes::Note;
use crate::store::player::{self, Player};
use crate::store::voids::{self, VoidKind, Voided};
use crate::store::{MatchId, PlayerId, notes};
use rusqlite::Connection;
use std::cell::RefCell;
use std::collections::HashMap;

/// One note of a sheet, with its void if a judge voided it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SheetEntry {
    /// The note.
    #[serde(flatten)]
    pub note: NoteView,
    /// Its void, if voided.
    pub voided: Option<Voided>,
}

/// A game's note sheet.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NoteSheet {
    /// The round, table, match and players.
    #[serde(flatten)]
    pub pairing: Pairing,
    /// The match's result as data.
    pub result: RecordedResult,
    /// Every note, in the order taken.
    pub notes: Vec<SheetEntry>,
    /// The match's result in words ("Ana beat Bo by life"), or "still playing".
    #[serde(skip)]
    pub outcome: String,
    /// "table 3 in round 2 (Ana vs Bo)".
    #[serde(skip)]
    pub label: String,
    /// The notes as the sheet shows them (card text included, for the HTML page).
    #[serde(skip)]
    pub sheet: Vec<SheetNote>,
    /// The event's name (the printable page's heading).
    #[serde(skip)]
    pub event: String,
}

impl NoteSheet {
    /// Seat A's notes, then seat B's, in the order declared.
    pub fn columns(&self) -> [Vec<&SheetNote>; 2] {
        columns(&self.sheet)
    }

    /// The notes of players no longer seated at the table (voided before a seat swap), by player in the order
    /// first met: they stay theirs, shown apart from the two seats' columns.
    pub fn apart(&self) -> Vec<(String, Vec<&SheetNote>)> {
        let mut out: Vec<(String, Vec<&SheetNote>)> = Vec::new();
        for (entry, n) in self.notes.iter().zip(&self.sheet).filter(|(_, n)| n.seat.is_none()) {
            match out.iter_mut().find(|(name, _)| *name == entry.note.player) {
                Some((_, list)) => list.push(n),
                None => out.push((entry.note.player.clone(), vec![n])),
            }
        }
        out
    }
}

/// `notes TABLE [--round N]`: the note sheet of the match at a table.
pub fn note_sheet(conn: &Connection, table: u32, round: Option<u32>) -> Result<NoteSheet> {
    load(conn, Seated::at(conn, table, round)?)
}

/// The note sheet of a match between two players (the event's site shows one per table).
pub fn note_sheet_of(conn: &Connection, m: Match) -> Result<NoteSheet> {
    load(conn, Seated::load(conn, m)?)
}

/// The note sheet of the match with this id.
pub fn note_sheet_by_id(conn: &Connection, id: MatchId) -> Result<NoteSheet> {
    note_sheet_of(conn, crate::store::matches::get(conn, id)?)
}

/// The note sheets of every match of round `round` at a table (byes have none), tables in order: the notes,
/// voids, players and card texts read once for the round, not once a match (the event's site shows them).
pub fn note_sheets_of_round(conn: &Connection, round: u32) -> Result<Vec<NoteSheet>> {
    let players: HashMap<PlayerId, Player> = player::all(conn)?.into_iter().map(|p| (p.id, p)).collect();
    let mut by_match: HashMap<MatchId, Vec<Note>> = HashMap::new();
    for n in notes::of_round(conn, round)? {
        by_match.entry(n.match_id).or_default().push(n);
    }
    let shared = Shared {
        voided: voids::of_kind(conn, VoidKind::Note)?,
        event: crate::store::event::values(conn)?.name().to_string(),
        texts: RefCell::new(HashMap::new()),
    };
    let turns = matches::turns_of_round(conn, round)?;
    let mut sheets = Vec::new();
    for m in matches::of_round(conn, round)? {
        let (Some(b), Some(_)) = (m.b, m.table) else { continue };
        let (Some(a), Some(b)) = (players.get(&m.a), players.get(&b)) else {
            sheets.push(note_sheet_of(conn, m)?);
            continue;
        };
        let taken = by_match.remove(&m.id).unwrap_or_default();
        let turn = turns.get(&m.id).copied();
        sheets.push(sheet_of(conn, Seated { a: a.clone(), b: b.clone(), turn, m }, &taken, &shared)?);
    }
    Ok(sheets)
}

/// What every sheet of a round shares: the voids of notes, the event's name and the card texts read so far.
struct Shared {
    voided: HashMap<i64, Voided>,
    event: String,
    texts: RefCell<HashMap<String, Option<String>>>,
}

impl Shared {
    fn text(&self, conn: &Connection, name: &str) -> Result<Option<String>> {
        if let Some(t) = self.texts.borrow().get(name) {
            return Ok(t.clone());
        }
        let t = crate::store::card_text::text_by_name(conn, name)?;
        self.texts.borrow_mut().insert(name.to_string(), t.clone());
        Ok(t)
    }
}

fn load(conn: &Connection, seated: Seated) -> Result<NoteSheet> {
    let taken = notes::of_match(conn, seated.m.id)?;
    let shared = Shared {
        voided: voids::of_kind(conn, VoidKind::Note)?,
        event: crate::store::event::values(conn)?.name().to_string(),
        texts: RefCell::new(HashMap::new()),
    };
    sheet_of(conn, seated, &taken, &shared)
}

fn sheet_of(conn: &Connection, seated: Seated, taken: &[Note], shared: &Shared) -> Result<NoteSheet> {
    let voided = &shared.voided;
    let mut sheet = Vec::with_capacity(taken.len());
    let mut entries = Vec::with_capacity(taken.len());
    for n in taken {
        let text = match &n.card {
            Some(name) => shared.text(conn, name)?,
            None => None,
        };
        let void = voided.get(&n.id.0);
        sheet.push(SheetNote {
            id: n.id.0,
            seat: seat_of(&seated, n),
            shorthand: shorthand(&n.cost),
            card: n.card.clone(),
            time: hhmm(&n.at),
            voided: void.is_some(),
            text,
        });
        entries.push(SheetEntry {
            note: note_view(&seated, n, &player_name(conn, &seated, n.player)?),
            voided: void.cloned(),
        });
    }
    Ok(NoteSheet {
        pairing: seated.pairing(),
        result: seated.result(),
        notes: entries,
        outcome: seated.describe_recorded(),
        label: seated.label(),
        sheet,
        event: shared.event.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::notes::NewNote;

    #[test]
    fn a_rounds_sheets_read_at_once_are_the_sheets_read_match_by_match() -> Result<()> {
        let (store, m, [ana, bo]) = crate::store::memory_with_one_match()?;
        let conn = store.conn();
        for (player, cost, card, at) in [
            (ana, "{1}{B}", Some("Demonic Tutor"), "2025-05-01T09:10:00.000Z"),
            (bo, "{R}", None, "2025-05-01T09:05:00.000Z"),
            (ana, "{R}", Some("Shock"), "2025-05-01T09:12:00.000Z"),
        ] {
            notes::insert(conn, &NewNote { match_id: m, player, cost, card, at })?;
        }
        let one = note_sheet_by_id(conn, m)?;
        assert_eq!(one.notes.len(), 3);
        assert_eq!(note_sheets_of_round(conn, 1)?, vec![one]);
        assert_eq!(note_sheets_of_round(conn, 2)?, Vec::new());
        Ok(())
    }
}
