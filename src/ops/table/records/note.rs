//! Template notes at a table, checked with the template rules (MM.3, MM.3e, MM.4e; tournament rules "Card
//! Templating", "Note Taking", "Using Templates", "Discard Rule"): adding one, taking back the last one.
//!
//! A match that already has a result still takes notes and undos: judges copy players' sheets in after the
//! game (for a challenge or a ruling), so a late note is allowed and the outcome says the match is over.

use crate::domain::note_sheet::{UNNAMED, shorthand};
use crate::domain::result::Seat;
use crate::domain::template::PriorDeclaration;
use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::card_names::resolve_card_name;
use crate::ops::card_reference as reference;
use crate::ops::table::{Seated, confirm_hhmm, hhmm, moment};
use crate::store::notes::{self, NewNote, Note};
use crate::store::voids::{self, VoidKind};
use crate::store::{Actor, Change, MatchId, NoteId, PlayerId, Store, player};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// A template note as the judge copies it from a player's sheet.
#[derive(Debug, Clone)]
pub struct NoteInput {
    /// The table.
    pub table: u32,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// The declaring player (a name or its beginning, matched against the two players first).
    pub player: String,
    /// The printed cost of the card.
    pub printed: reference::Printed,
    /// The card declared; `None` for a discarded card left unnamed.
    pub card: Option<String>,
    /// The letter the name begins with, when the template needs it.
    pub letter: Option<char>,
    /// When it was declared, if not now.
    pub at: Option<DateTime<Utc>>,
}

/// A recorded note.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NoteOutcome {
    /// The note's id (what `challenge --evidence` cites).
    pub note: NoteId,
    /// The card name as typed (trimmed), if named.
    pub typed: Option<String>,
    /// How the typed name was taken when it is not spelled as the reference ("taken as ...").
    pub taken: Option<String>,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The declaring player.
    pub player: String,
    /// Their seat.
    pub seat: Seat,
    /// The printed cost, canonical.
    pub cost: String,
    /// The cost as players write it.
    pub shorthand: String,
    /// The card's reference name; `None` when unnamed.
    pub card: Option<String>,
    /// Whether the card is left unnamed.
    pub unnamed: bool,
    /// When (RFC 3339).
    pub at: String,
    /// Whether the match already had a result (a note copied in late).
    pub late: bool,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// Which table's last note to take back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UndoInput {
    /// The table.
    pub table: u32,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// Even though a challenge cites it as evidence (the citation goes with it).
    pub force: bool,
}

/// A note as a view shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NoteView {
    /// The note's id.
    pub id: NoteId,
    /// The declaring player's seat; null for a player no longer seated here (a note voided before a seat swap).
    pub seat: Option<Seat>,
    /// The declaring player.
    pub player: String,
    /// The printed cost, canonical.
    pub cost: String,
    /// The cost as players write it.
    pub shorthand: String,
    /// The card; `None` when unnamed.
    pub card: Option<String>,
    /// Whether the card is left unnamed.
    pub unnamed: bool,
    /// When (RFC 3339).
    pub at: String,
    /// When, as local `HH:MM`.
    pub time: String,
}

/// A removed note.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UndoOutcome {
    /// The note taken back.
    pub removed: NoteView,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The challenges that cited it (only with `force`).
    pub uncited_from: Vec<i64>,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// `note TABLE PLAYER COST CARD`: records a template note, refusing a card that does not fit the cost (or
/// letter) or that was already declared in this game.
pub fn add_note(store: &mut Store, actor: &Actor, input: NoteInput) -> Result<NoteOutcome> {
    store.write(actor, |tx| add_note_in(tx, actor, input))
}

/// Refuses a declaration on a round whose clock has not started: not started at all, deck inspection still
/// running, or a start set for later. No card is played before the round begins (MM.3: the game starts with the
/// clock). A judge logging a note late gives `--at`, a moment that must itself be after the clock started.
pub(in crate::ops) fn clock_running(tx: &Connection, seated: &Seated, at: DateTime<Utc>) -> Result<()> {
    let number = seated.m.round;
    let started = match crate::store::round::get(tx, number)? {
        Some(r) => r.started_at.as_deref().map(crate::time::unstamp).transpose()?,
        None => None,
    };
    let Some(started) = started else {
        let why = format!("round {number} has not started: no card is declared before its clock starts");
        let out = WayOut::StartRound { named: false };
        return Err(Refusal::refused(why).rule("MM.3").way_out_after(crate::error::Join::Semicolon, out).into());
    };
    match crate::ops::table::clocks::clock::before_round_clock(tx, number, at, started)? {
        Some(wait) => {
            let why = format!("{wait}: no card is declared before round {number}'s clock starts; wait for it");
            Err(Refusal::refused(why).rule("MM.3").way_out_after(crate::error::Join::Or, WayOut::StartRoundNow).into())
        }
        None => Ok(()),
    }
}

/// [`add_note`] in the caller's transaction (a declaration from the table's device also keeps its client id
/// in the same write): the outcome and the audit entry's change.
pub fn add_note_in(tx: &Connection, actor: &Actor, input: NoteInput) -> Result<(NoteOutcome, Change)> {
    let at = moment(input.at, actor);
    {
        let seated = Seated::at(tx, input.table, input.round)?;
        seated.not_before_start(tx, input.at)?;
        clock_running(tx, &seated, input.at.unwrap_or(actor.at))?;
        let (seat, p) = seated.resolve_player(tx, &input.player).map(|(s, p)| (s, p.clone()))?;
        let (card, taken) = match input.card.as_deref() {
            None => (None, None),
            Some(name) => {
                let (card, taken) = declarable(tx, &seated, &input.printed, input.letter, name)?;
                (Some(card), taken)
            }
        };
        let cost = input.printed.canonical();
        let new = NewNote { match_id: seated.m.id, player: p.id, cost: &cost, card: card.as_deref(), at: &at };
        let id = notes::insert(tx, &new)?;
        let line = format!("{}: {}", input.printed.shorthand(), card.as_deref().unwrap_or(UNNAMED));
        let mut summary = format!("note #{} at {}: {} {line} at {}", id.0, seated.label(), p.name, confirm_hhmm(&at));
        if let Some(taken) = &taken {
            summary.push_str(&format!(" ({taken})"));
        }
        summary.push_str(&late_words(&seated));
        let out = NoteOutcome {
            note: id,
            typed: input.card.as_deref().map(|c| c.trim().to_string()),
            taken,
            round: seated.m.round,
            table: seated.table(),
            match_id: seated.m.id,
            player: p.name,
            seat,
            cost,
            shorthand: input.printed.shorthand(),
            unnamed: card.is_none(),
            card,
            at,
            late: seated.m.outcome.is_some(),
            summary: summary.clone(),
        };
        let touched = seated.touched(Topic::Note).player(p.id);
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching(touched)))
    }
}

/// The reference name of `name` if it may be declared for a card of cost `printed` at this table now, with
/// what the judge is told when the card is not spelled as typed ("taken as Nevinyrral's Disk").
fn declarable(
    conn: &Connection,
    seated: &Seated,
    printed: &reference::Printed,
    letter: Option<char>,
    name: &str,
) -> Result<(String, Option<String>)> {
    let matched = resolve_card_name(conn, name)?;
    let prior = match matched.card() {
        Some(card) => prior_declaration(conn, seated, &card.name)?,
        None => None,
    };
    match reference::check_match(conn, printed, letter, name, &matched, prior.as_ref())? {
        Ok(card) => Ok((card.name, matched.note())),
        Err(refusal) => Err(crate::ops::cards::refusal_error(&refusal)),
    }
}

/// "; the match already has a result (...): noted late", or nothing while the match is playing.
fn late_words(seated: &Seated) -> String {
    if seated.m.outcome.is_some() {
        format!("; the match already has a result ({}): noted late", seated.describe_recorded())
    } else {
        String::new()
    }
}

/// The name of a note's player: one of the two seated players, else looked up.
pub fn player_name(conn: &Connection, seated: &Seated, id: PlayerId) -> Result<String> {
    match seated.seat_of(id) {
        Some(seat) => Ok(seated.player(seat).name.clone()),
        None => Ok(player::get(conn, id)?.name),
    }
}

/// The seat of a note's player; None for a player no longer seated here (after a seat swap, which only a table
/// whose notes are all voided allows).
pub fn seat_of(seated: &Seated, note: &Note) -> Option<Seat> {
    seated.seat_of(note.player)
}

/// The earlier declaration of `card` (a reference name) in the game at this table, if any: by whom and
/// when (local `HH:MM`).
pub fn prior_declaration(conn: &Connection, seated: &Seated, card: &str) -> Result<Option<PriorDeclaration>> {
    match notes::declaration_of(conn, seated.m.id, card)? {
        Some(n) => Ok(Some(PriorDeclaration { by: player_name(conn, seated, n.player)?, at: hhmm(&n.at) })),
        None => Ok(None),
    }
}

/// Every card declared so far in a match (voided notes left out), by reference name, with its first declaration.
pub fn declared_in_game(conn: &Connection, seated: &Seated) -> Result<Vec<(String, PriorDeclaration)>> {
    let mut out: Vec<(String, PriorDeclaration)> = Vec::new();
    let voided = voids::of_kind(conn, VoidKind::Note)?;
    for n in notes::of_match(conn, seated.m.id)? {
        let Some(card) = n.card.filter(|_| !voided.contains_key(&n.id.0)) else { continue };
        if out.iter().any(|(c, _)| c.eq_ignore_ascii_case(&card)) {
            continue;
        }
        out.push((card, PriorDeclaration { by: player_name(conn, seated, n.player)?, at: hhmm(&n.at) }));
    }
    Ok(out)
}

/// [`declared_in_game`] for every match of round `r` at once (one read for the round, not one per match), by
/// match; `name` gives the name of a player not seated at the match.
pub fn declared_in_round(
    conn: &Connection,
    r: u32,
    name: impl Fn(PlayerId) -> Result<String>,
) -> Result<std::collections::HashMap<MatchId, Vec<(String, PriorDeclaration)>>> {
    let voided = voids::of_kind(conn, VoidKind::Note)?;
    let mut out: std::collections::HashMap<MatchId, Vec<(String, PriorDeclaration)>> = Default::default();
    for n in notes::of_round(conn, r)? {
        let Some(card) = n.card.filter(|_| !voided.contains_key(&n.id.0)) else { continue };
        let seen = out.entry(n.match_id).or_default();
        if seen.iter().any(|(c, _)| c.eq_ignore_ascii_case(&card)) {
            continue;
        }
        seen.push((card, PriorDeclaration { by: name(n.player)?, at: hhmm(&n.at) }));
    }
    Ok(out)
}

/// `note undo TABLE`: removes the last note taken at a table (refused while a challenge cites it, unless
/// `force`, which removes the citation too).
pub fn undo_note(store: &mut Store, actor: &Actor, input: UndoInput) -> Result<UndoOutcome> {
    store.write(actor, |tx| {
        let seated = Seated::at(tx, input.table, input.round)?;
        let Some(last) = notes::last_of_match(tx, seated.m.id)? else {
            return Err(Error::refused(format!("{} has no notes to undo", seated.label())));
        };
        let who = player_name(tx, &seated, last.player)?;
        let line = format!("{}: {}", shorthand(&last.cost), last.card.as_deref().unwrap_or(UNNAMED));
        let cited = notes::cited_by(tx, last.id)?;
        if !cited.is_empty() && !input.force {
            let what = format!("note #{} ({who} {line}) is evidence in {}", last.id.0, challenges_words(&cited));
            let way_out =
                WayOut::ForceAnyway { to: "remove it and its citation".into(), tick: crate::error::Tick::RemoveCited };
            return Err(Refusal::refused(what).way_out(way_out).into());
        }
        notes::delete(tx, last.id)?;
        let mut summary =
            format!("removed note #{} at {}: {who} {line} at {}", last.id.0, seated.label(), confirm_hhmm(&last.at));
        if !cited.is_empty() {
            summary.push_str(&format!(" (no longer evidence in {})", challenges_words(&cited)));
        }
        summary.push_str(&late_words(&seated));
        let out = UndoOutcome {
            removed: note_view(&seated, &last, &who),
            round: seated.m.round,
            table: seated.table(),
            match_id: seated.m.id,
            uncited_from: cited,
            summary: summary.clone(),
        };
        let touched = seated.touched(Topic::Note).player(last.player);
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching(touched)))
    })
}

fn challenges_words(ids: &[i64]) -> String {
    let list: Vec<String> = ids.iter().map(|i| format!("#{i}")).collect();
    format!("challenge{} {}", if ids.len() == 1 { "" } else { "s" }, list.join(", "))
}

/// A note as views show it.
pub fn note_view(seated: &Seated, n: &Note, player: &str) -> NoteView {
    NoteView {
        id: n.id,
        seat: seat_of(seated, n),
        player: player.to_string(),
        cost: n.cost.clone(),
        shorthand: shorthand(&n.cost),
        card: n.card.clone(),
        unnamed: n.card.is_none(),
        at: n.at.clone(),
        time: hhmm(&n.at),
    }
}
