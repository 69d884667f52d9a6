//! The note sheet of a game: every template note taken at a table, as players keep them (one column per
//! player, seat A first), with the voided ones marked.

use super::note::{NoteView, note_view, player_name, seat_of};
use super::{RecordedResult, Seated, hhmm};
use crate::domain::note_sheet::{SheetNote, columns, shorthand};
use crate::error::Result;
use crate::store::matches::Match;
use crate::store::voids::{self, VoidKind, Voided};
use crate::store::{MatchId, notes};
use rusqlite::Connection;

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
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The player at seat A.
    pub a: String,
    /// The player at seat B.
    pub b: String,
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

fn load(conn: &Connection, seated: Seated) -> Result<NoteSheet> {
    let taken = notes::of_match(conn, seated.m.id)?;
    let voided = voids::of_kind(conn, VoidKind::Note)?;
    let mut sheet = Vec::with_capacity(taken.len());
    let mut entries = Vec::with_capacity(taken.len());
    for n in &taken {
        let text = match &n.card {
            Some(name) => crate::store::card_text::text_by_name(conn, name)?,
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
        round: seated.m.round,
        table: seated.table(),
        match_id: seated.m.id,
        a: seated.a.name.clone(),
        b: seated.b.name.clone(),
        result: seated.result(),
        notes: entries,
        outcome: seated.describe_recorded(),
        label: seated.label(),
        sheet,
        event: crate::store::event::values(conn)?.name().to_string(),
    })
}
