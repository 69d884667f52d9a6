//! The table's own device (`/table/N` of `mmjudge serve`): a player, known by their code, declares cards, takes
//! back their own last declaration within 30 s, and runs the decision clock, at their own table in the current
//! round only. Declarations are checked by [`crate::ops::table::records::note::add_note_in`], exactly as `mmjudge note`; the clock
//! is [`crate::ops::table::clocks::clock`]'s.

pub mod calls;
pub mod self_report;
pub mod sign_in;
pub mod witness;

use crate::domain::note_sheet::{UNNAMED, shorthand};
use crate::domain::result::Seat;
use crate::domain::topic::Topic;
use crate::error::{Error, Record, Refusal, Result, WayOut};
use crate::ops::card_reference::{self as reference, Printed};
use crate::ops::table::clocks::clock::{self, DecisionStarted, DecisionStopped, HandedOver, StartInput, StopInput};
use crate::ops::table::records::note::{self, NoteInput, UndoOutcome};
use crate::ops::table::{Seated, confirm_hhmm};
use crate::store::{Actor, Change, Store, notes, player_codes};
use rusqlite::Connection;

/// How long a player may take back their own declaration.
pub const UNDO_SECONDS: i64 = 30;
/// The longest client id kept.
const CLIENT_ID_MAX: usize = 80;
/// The words that mark a repeat found inside the write (a retry that raced the first).
const REPEAT: &str = "the declaration was already recorded";

/// The player a code names at a table of the current round: the match and the seat.
pub fn seat_of_code(conn: &Connection, table: u32, code: &str) -> Result<(Seated, Seat)> {
    let code = code.trim();
    if code.is_empty() {
        return Err(Error::bad_input("give your player code (six digits, on your slip)"));
    }
    let seated = Seated::at(conn, table, None)?;
    for seat in [Seat::A, Seat::B] {
        if player_codes::of(conn, seated.player(seat).id)?.as_deref() == Some(code) {
            return Ok((seated, seat));
        }
    }
    Err(Error::forbidden(format!(
        "that code is not one of the two players' at table {table} in round {}: type your own code at your own table, or ask a judge",
        seated.m.round
    )))
}

/// The player a code names at a table, found once per write ([`holder`]): every write of theirs then reads their
/// match as it stands ([`Holder::seated`]) without looking the code up again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// The table.
    pub table: u32,
    /// Their seat there.
    pub seat: Seat,
    /// The player.
    pub player: crate::store::ids::PlayerId,
    /// Their name (the actor of their writes is `NAME (player)`).
    pub name: String,
}

/// The holder of `code` at `table` in the current round (refused as [`seat_of_code`] refuses).
pub fn holder(conn: &Connection, table: u32, code: &str) -> Result<Holder> {
    let (seated, seat) = seat_of_code(conn, table, code)?;
    let p = seated.player(seat);
    Ok(Holder { table, seat, player: p.id, name: p.name.clone() })
}

impl Holder {
    /// The match at the holder's table as it stands now (read in the caller's transaction), with the holder
    /// still in their seat: a table swapped since the code was read is refused as a code not seated there.
    pub fn seated(&self, conn: &Connection) -> Result<(Seated, Seat)> {
        let seated = Seated::at(conn, self.table, None)?;
        if seated.player(self.seat).id != self.player {
            return Err(Error::forbidden(format!(
                "{} is no longer seated at table {} in round {}: type your own code at your own table, or ask a judge",
                self.name, self.table, seated.m.round
            )));
        }
        Ok((seated, self.seat))
    }
}

/// A declaration from the table's device.
#[derive(Debug, Clone)]
pub struct DeviceNoteInput {
    /// The declaring player at their table.
    pub holder: Holder,
    /// The printed cost.
    pub printed: Printed,
    /// The card; `None` for an unnamed card.
    pub card: Option<String>,
    /// The letter, under the alphabet bindings.
    pub letter: Option<char>,
    /// The device's id for this declaration: a retry with the same id is recorded once.
    pub client_id: Option<String>,
}

/// A declaration recorded (or found recorded, for a retry).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeviceNoted {
    /// The note as `mmjudge note --json` gives it (the first outcome, for a retry).
    pub note: serde_json::Value,
    /// Whether this was a retry of a declaration already recorded.
    pub repeat: bool,
    /// The audit log's line (or, for a retry, what happened the first time).
    #[serde(skip)]
    pub summary: String,
}

/// Declares a card (or an unnamed card) for the code's player, checked exactly as `mmjudge note`.
pub fn declare(store: &mut Store, actor: &Actor, input: DeviceNoteInput) -> Result<DeviceNoted> {
    let client = match input.client_id.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) if c.chars().count() > CLIENT_ID_MAX || c.chars().any(char::is_control) => {
            return Err(Error::bad_input(format!("client_id must be at most {CLIENT_ID_MAX} printable characters")));
        }
        c => c.map(String::from),
    };
    if let Some(found) = store.read(|conn| repeat_of(conn, &input, client.as_deref()))? {
        return Ok(found);
    }
    let written = store.write(actor, |tx| {
        let (seated, seat) = input.holder.seated(tx)?;
        if let Some(c) = client.as_deref()
            && player_codes::client_outcome(tx, seated.m.id, c)?.is_some()
        {
            return Err(Error::refused(REPEAT));
        }
        note::clock_running(tx, &seated, actor.at)?;
        if seated.m.outcome.is_some() {
            return Err(Error::refused(format!(
                "{} already has a result ({}): no card is declared after it; a judge copies a late note in",
                seated.label(),
                seated.describe_recorded()
            )));
        }
        let player = seated.player(seat).name.clone();
        let (out, change) = note::add_note_in(
            tx,
            actor,
            NoteInput {
                table: input.holder.table,
                round: None,
                player,
                printed: input.printed.clone(),
                card: input.card.clone(),
                letter: input.letter,
                at: None,
            },
        )?;
        let doc = serde_json::to_value(&out).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
        if let Some(c) = client.as_deref() {
            player_codes::keep_client(tx, seated.m.id, c, out.note, &doc.to_string())?;
        }
        Ok((DeviceNoted { note: doc, repeat: false, summary: out.summary }, change))
    });
    match written {
        Err(e) if e.to_string() == REPEAT => store
            .read(|conn| repeat_of(conn, &input, client.as_deref()))?
            .ok_or_else(|| Error::refused("the declaration was sent twice at once: send it again")),
        other => other,
    }
}

/// The first outcome of a declaration sent before with the same client id, if any.
fn repeat_of(conn: &Connection, input: &DeviceNoteInput, client: Option<&str>) -> Result<Option<DeviceNoted>> {
    let Some(client) = client else { return Ok(None) };
    let (seated, seat) = input.holder.seated(conn)?;
    let Some(text) = player_codes::client_outcome(conn, seated.m.id, client)? else { return Ok(None) };
    let note: serde_json::Value = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
    let me = &seated.player(seat).name;
    if let Some(other) = note["player"].as_str().filter(|p| p != me) {
        return Err(Error::bad_input(format!(
            "client_id \"{client}\" was already used for {other}'s declaration at table {}: send a new client_id",
            input.holder.table
        )));
    }
    let summary = format!("already recorded: note #{} at {}", note["note"], seated.label());
    Ok(Some(DeviceNoted { note, repeat: true, summary }))
}

/// Takes back the code's player's own last declaration at the table: only within [`UNDO_SECONDS`] and only if
/// nothing was declared at the table since; after that a judge voids it (`mmjudge note void ID`).
pub fn take_back(store: &mut Store, actor: &Actor, holder: &Holder) -> Result<UndoOutcome> {
    let table = holder.table;
    store.write(actor, |tx| {
        let (seated, seat) = holder.seated(tx)?;
        let me = seated.player(seat).clone();
        let Some(last) = notes::last_of_match(tx, seated.m.id)? else {
            return Err(Error::refused(format!("{} has no declarations to take back", seated.label())));
        };
        let line = format!("{}: {}", shorthand(&last.cost), last.card.as_deref().unwrap_or(UNNAMED));
        let out = WayOut::VoidRecord { record: Record::Note, id: last.id.0 };
        if last.player != me.id {
            let who = note::player_name(tx, &seated, last.player)?;
            let what = format!(
                "the last declaration at table {table} is {who}'s (note #{} {line}): a player takes back only their own last one",
                last.id.0
            );
            return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
        }
        let age = crate::time::unstamp(&last.at).map(|at| (actor.at - at).num_seconds()).unwrap_or(i64::MAX);
        if age > UNDO_SECONDS {
            let what = format!("note #{} ({line}) was declared more than {UNDO_SECONDS} s ago", last.id.0);
            return Err(Refusal::refused(what).way_out(out).into());
        }
        let cited = notes::cited_by(tx, last.id)?;
        if !cited.is_empty() {
            let what = format!("note #{} ({line}) is evidence in a challenge", last.id.0);
            return Err(Refusal::refused(what).way_out(out).into());
        }
        notes::delete(tx, last.id)?;
        let summary = format!(
            "{} took back note #{} at {}: {line} at {}",
            me.name,
            last.id.0,
            seated.label(),
            confirm_hhmm(&last.at)
        );
        let out = UndoOutcome {
            removed: note::note_view(&seated, &last, &me.name),
            round: seated.m.round,
            table: seated.table(),
            match_id: seated.m.id,
            uncited_from: Vec::new(),
            summary: summary.clone(),
        };
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching(seated.touched(Topic::Note).player(me.id))))
    })
}

/// Starts the holder's decision.
pub fn clock_start(store: &mut Store, actor: &Actor, holder: &Holder) -> Result<DecisionStarted> {
    let input = StartInput { table: holder.table, player: holder.name.clone(), at: None };
    clock::start_decision(store, actor, input)
}

/// Hands the running decision (the holder's) over to the opponent.
pub fn clock_hand_over(store: &mut Store, actor: &Actor, holder: &Holder) -> Result<HandedOver> {
    store.read(|conn| own_decision(conn, holder))?;
    clock::hand_over(store, actor, StopInput { table: holder.table, at: None })
}

/// Stops the decision running at the holder's table.
pub fn clock_stop(store: &mut Store, actor: &Actor, holder: &Holder) -> Result<DecisionStopped> {
    store.read(|conn| holder.seated(conn).map(|_| ()))?;
    clock::stop_decision(store, actor, StopInput { table: holder.table, at: None })
}

/// Refuses a hand-over by the player who is not deciding.
fn own_decision(conn: &Connection, holder: &Holder) -> Result<()> {
    let table = holder.table;
    let (seated, seat) = holder.seated(conn)?;
    let me = seated.player(seat);
    match crate::store::clock::running(conn, seated.m.id)? {
        Some(d) if d.player_id != me.id => Err(Error::refused(format!(
            "it is {}'s decision at table {table}: {} hands it over",
            note::player_name(conn, &seated, d.player_id)?,
            note::player_name(conn, &seated, d.player_id)?
        ))),
        _ => Ok(()),
    }
}

/// Card names for completion: the binding class of `cost` under the event's rule, declarable ones only, those
/// already declared in the game at `table` (current round) left out, matching `query` (by any word's
/// beginning, then anywhere in the name), at most `limit`.
pub fn complete(
    conn: &Connection,
    printed: &Printed,
    letter: Option<char>,
    table: Option<u32>,
    query: &str,
    limit: usize,
) -> Result<Vec<String>> {
    let class = reference::class_printed(conn, printed, letter)?;
    let used: Vec<String> = match table {
        Some(t) => note::declared_in_game(conn, &Seated::at(conn, t, None)?)?
            .into_iter()
            .map(|(c, _)| crate::domain::names::fold(&c))
            .collect(),
        None => Vec::new(),
    };
    let q = crate::domain::names::fold(query.trim());
    let mut first = Vec::new();
    let mut then = Vec::new();
    for card in class.cards {
        let folded = crate::domain::names::fold(&card.name);
        if used.contains(&folded) {
            continue;
        }
        if q.is_empty() || folded.starts_with(&q) || folded.split(' ').any(|w| w.starts_with(&q)) {
            first.push(card.name);
        } else if folded.contains(&q) {
            then.push(card.name);
        }
    }
    first.extend(then);
    first.truncate(limit);
    Ok(first)
}
