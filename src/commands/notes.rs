//! `note` and `note undo`: template notes at a table, checked with the template rules (MM.3, MM.3e, MM.4e;
//! tournament rules "Card Templating", "Note Taking", "Using Templates", "Discard Rule").
//!
//! A match that already has a result still takes notes and undos: judges copy players' sheets in after the
//! game (for a challenge or a ruling), so a late note is allowed and the outcome line says the match is over.

use super::Ctx;
use super::table::{Seated, at_or_now, hhmm};
use crate::cli::note::{NoteArgs, NoteSub, RecordNote};
use crate::domain::note_sheet::{UNNAMED, shorthand};
use crate::domain::result::Seat;
use crate::domain::template::PriorDeclaration;
use crate::error::{Error, Result};
use crate::ops::card_names::resolve_card_name;
use crate::ops::card_reference as reference;
use crate::render::done;
use crate::store::notes::{self, NewNote, Note};
use crate::store::{Change, PlayerId, player};
use rusqlite::Connection;

pub use super::note_sheet::{sheet, sheet_html};

/// Runs `note` (or `note undo`).
pub fn run(ctx: &Ctx, args: NoteArgs) -> Result<()> {
    match args.undo {
        Some(NoteSub::Undo { table, round, force }) => undo(ctx, table, round, force),
        Some(NoteSub::Void(v)) => {
            super::corrections::void(ctx, crate::store::voids::VoidKind::Note, v.id, v.reason, false)
        }
        None => record(ctx, &args.record),
    }
}

/// A note as typed, read before the store is opened.
struct Typed<'a> {
    table: u32,
    player: &'a str,
    printed: reference::Printed,
    card: Option<&'a str>,
}

fn read(r: &RecordNote) -> Result<Typed<'_>> {
    let usage = "mmjudge note TABLE PLAYER COST \"CARD\" (or --unnamed)";
    let table = r.table.ok_or_else(|| Error::refused(format!("which table? {usage}")))?;
    let player = r.player.as_deref().ok_or_else(|| Error::refused(format!("which player? {usage}")))?;
    let cost = r.cost.as_deref().ok_or_else(|| Error::refused(format!("which cost? {usage}")))?;
    let printed = reference::Printed::parse(cost)?;
    let card = match (r.unnamed, r.card.as_deref()) {
        (true, _) => None,
        (false, Some(name)) => Some(name),
        (false, None) => {
            return Err(Error::refused(format!(
                "which card? mmjudge note {table} {player} {cost} \"CARD\", or --unnamed for a discarded card \
                 left unnamed"
            )));
        }
    };
    Ok(Typed { table, player, printed, card })
}

fn record(ctx: &Ctx, r: &RecordNote) -> Result<()> {
    let typed = read(r)?;
    let at = at_or_now(ctx, r.at.as_deref())?;
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let seated = Seated::at(tx, typed.table, r.round)?;
        seated.not_before_start(tx, r.at.as_deref(), &at)?;
        let (seat, p) = seated.resolve_player(tx, typed.player).map(|(s, p)| (s, p.clone()))?;
        let (card, taken) = match typed.card {
            None => (None, None),
            Some(name) => {
                let (card, taken) = declarable(tx, &seated, &typed.printed, r.letter, name)?;
                (Some(card), taken)
            }
        };
        let cost = typed.printed.canonical();
        let new = NewNote { match_id: seated.m.id, player: p.id, cost: &cost, card: card.as_deref(), at: &at };
        let id = notes::insert(tx, &new)?;
        let line = format!("{}: {}", typed.printed.shorthand(), card.as_deref().unwrap_or(UNNAMED));
        let mut summary = format!("note #{} at {}: {} {line} at {}", id.0, seated.label(), p.name, super::table::confirm_hhmm(&at));
        if let Some(taken) = &taken {
            summary.push_str(&format!(" ({taken})"));
        }
        summary.push_str(&late_words(&seated));
        let doc = serde_json::json!({
            "note": id, "typed": typed.card.map(str::trim), "taken": taken, "round": seated.m.round, "table": seated.table(), "match": seated.m.id,
            "player": p.name, "seat": seat, "cost": cost, "shorthand": typed.printed.shorthand(),
            "card": card, "unnamed": card.is_none(), "at": at, "late": seated.m.outcome.is_some(),
        });
        Ok(((summary.clone(), doc), Change::about(summary, [seated.a.id, seated.b.id])))
    })?;
    done(ctx.format, &summary, doc)
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
        Err(refusal) => Err(Error::refused(refusal.to_string())),
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

/// The seat of a note's player (a player no longer seated here, after a swap, is shown at seat A).
pub fn seat_of(seated: &Seated, note: &Note) -> Seat {
    seated.seat_of(note.player).unwrap_or(Seat::A)
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
    let voided = crate::store::voids::of_kind(conn, crate::store::voids::VoidKind::Note)?;
    for n in notes::of_match(conn, seated.m.id)? {
        let Some(card) = n.card.filter(|_| !voided.contains_key(&n.id.0)) else { continue };
        if out.iter().any(|(c, _)| c.eq_ignore_ascii_case(&card)) {
            continue;
        }
        out.push((card, PriorDeclaration { by: player_name(conn, seated, n.player)?, at: hhmm(&n.at) }));
    }
    Ok(out)
}

fn undo(ctx: &Ctx, table: u32, round: Option<u32>, force: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let seated = Seated::at(tx, table, round)?;
        let Some(last) = notes::last_of_match(tx, seated.m.id)? else {
            return Err(Error::refused(format!("{} has no notes to undo", seated.label())));
        };
        let who = player_name(tx, &seated, last.player)?;
        let line = format!("{}: {}", shorthand(&last.cost), last.card.as_deref().unwrap_or(UNNAMED));
        let cited = notes::cited_by(tx, last.id)?;
        if !cited.is_empty() && !force {
            return Err(Error::refused(format!(
                "note #{} ({who} {line}) is evidence in {}: add --force to remove it and its citation",
                last.id.0,
                challenges_words(&cited)
            )));
        }
        notes::delete(tx, last.id)?;
        let mut summary = format!(
            "removed note #{} at {}: {who} {line} at {}",
            last.id.0,
            seated.label(),
            super::table::confirm_hhmm(&last.at)
        );
        if !cited.is_empty() {
            summary.push_str(&format!(" (no longer evidence in {})", challenges_words(&cited)));
        }
        summary.push_str(&late_words(&seated));
        let doc = serde_json::json!({
            "removed": note_json(&seated, &last, &who), "round": seated.m.round, "table": seated.table(),
            "match": seated.m.id, "uncited_from": cited,
        });
        Ok(((summary.clone(), doc), Change::about(summary, [seated.a.id, seated.b.id])))
    })?;
    done(ctx.format, &summary, doc)
}

fn challenges_words(ids: &[i64]) -> String {
    let list: Vec<String> = ids.iter().map(|i| format!("#{i}")).collect();
    format!("challenge{} {}", if ids.len() == 1 { "" } else { "s" }, list.join(", "))
}

/// A note as JSON (the shape of `notes --json`).
pub fn note_json(seated: &Seated, n: &Note, player: &str) -> serde_json::Value {
    serde_json::json!({
        "id": n.id, "seat": seat_of(seated, n), "player": player, "cost": n.cost, "shorthand": shorthand(&n.cost),
        "card": n.card, "unnamed": n.card.is_none(), "at": n.at, "time": hhmm(&n.at),
    })
}
