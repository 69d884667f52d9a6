//! One table at a glance: the match, its result, its round clock and running decision, its template notes,
//! and the challenges, penalties and rulings recorded there (what a judge's or a player's screen shows).

use crate::error::Result;
use crate::ops::player_names;
use crate::ops::round::time::{TableTime, table_time};
use crate::ops::table::records::challenge::{ChallengeRow, challenges};
use crate::ops::table::records::penalty::{PenaltyRow, penalties};
use crate::ops::table::records::ruling::{RulingRow, rulings};
use crate::ops::table::records::sheet::{SheetEntry, note_sheet_of};
use crate::ops::table::{Pairing, RecordFilter, RecordedResult, Seated};
use crate::store::round;
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// Everything recorded at one table of a round.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TableView {
    /// The round, table, match and players.
    #[serde(flatten)]
    pub pairing: Pairing,
    /// The result as data.
    pub result: RecordedResult,
    /// The result in words ("Ana beat Bo by life"), or "still playing".
    pub outcome: String,
    /// The table's round clock at the view's instant (at the close once the round is closed); none before
    /// the round's clock starts.
    pub clock: Option<TableTime>,
    /// The template notes, in the order taken.
    pub notes: Vec<SheetEntry>,
    /// The challenges heard here.
    pub challenges: Vec<ChallengeRow>,
    /// The penalties given at this match.
    pub penalties: Vec<PenaltyRow>,
    /// The rulings logged here.
    pub rulings: Vec<RulingRow>,
}

/// The table `table` of `round` (default: the current one) at the instant `now`.
pub fn view(conn: &Connection, table: u32, round_no: Option<u32>, now: DateTime<Utc>) -> Result<TableView> {
    let seated = Seated::at(conn, table, round_no)?;
    let filter = RecordFilter { table: Some(table), round: round_no, player: None };
    let r = round::get(conn, seated.m.round)?;
    let clock = match r.as_ref().and_then(|r| r.started_at.as_deref()) {
        Some(started) => {
            let started = crate::time::unstamp(started)?;
            let closed = r.as_ref().and_then(|r| r.ended_at.as_deref()).map(crate::time::unstamp).transpose()?;
            let names = player_names::names_by_id(conn)?;
            let settings = crate::ops::table::clocks::clock::clock_settings(&crate::store::event::values(conn)?);
            Some(table_time(conn, (&names, settings), (started, closed), &seated.m, closed.unwrap_or(now))?)
        }
        None => None,
    };
    let mut given = penalties(conn, None)?.penalties;
    given.retain(|p| p.match_id == Some(seated.m.id));
    Ok(TableView {
        pairing: seated.pairing(),
        result: seated.result(),
        outcome: seated.describe_recorded(),
        clock,
        notes: note_sheet_of(conn, seated.m.clone())?.notes,
        challenges: challenges(conn, &filter)?.challenges,
        penalties: given,
        rulings: rulings(conn, &filter)?.rulings,
    })
}
