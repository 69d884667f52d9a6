//! `note`, `note undo` and `note void`: template notes at a table. The template rules are checked in
//! `ops::table::records::note`; this module reads the command line, calls it and prints.

use super::Ctx;
use crate::cli::note::{NoteArgs, NoteSub, RecordNote};
use crate::error::{Error, Result};
use crate::ops::card_reference::Printed;
use crate::ops::corrections::{self, VoidInput};
use crate::ops::table::records::note::{NoteInput, UndoInput, add_note, undo_note};
use crate::render::done_with;
use crate::store::voids::VoidKind;

/// Runs `note` (or `note undo`, `note void`).
pub fn run(ctx: &Ctx, args: NoteArgs) -> Result<()> {
    match args.undo {
        Some(NoteSub::Undo { table, round, force }) => {
            let mut store = ctx.open()?;
            let out = undo_note(&mut store, &ctx.actor()?, UndoInput { table, round, force })?;
            done_with(ctx.format, &out.summary, &out)
        }
        Some(NoteSub::Void(v)) => {
            let mut store = ctx.open()?;
            let input = VoidInput { id: v.id, reason: v.reason, force: v.force };
            let out = corrections::void(&mut store, &ctx.actor()?, VoidKind::Note, input)?;
            done_with(ctx.format, &out.summary, &out)
        }
        None => record(ctx, &args.record),
    }
}

/// A note as typed, read before the store is opened.
fn read(ctx: &Ctx, r: &RecordNote) -> Result<NoteInput> {
    let usage = "mmjudge note TABLE PLAYER COST \"CARD\" (or --unnamed)";
    let table = r.table.ok_or_else(|| Error::bad_input(format!("which table? {usage}")))?;
    let player = r.player.as_deref().ok_or_else(|| Error::bad_input(format!("which player? {usage}")))?;
    let cost = r.cost.as_deref().ok_or_else(|| Error::bad_input(format!("which cost? {usage}")))?;
    let printed = Printed::parse(cost)?;
    let card = match (r.unnamed, r.card.as_deref()) {
        (true, _) => None,
        (false, Some(name)) => Some(name.to_string()),
        (false, None) => {
            return Err(Error::bad_input(format!(
                "which card? mmjudge note {table} {player} {cost} \"CARD\", or --unnamed for a discarded card \
                 left unnamed"
            )));
        }
    };
    let at = r.at.as_deref().map(|a| ctx.at(Some(a))).transpose()?;
    Ok(NoteInput { table, round: r.round, player: player.to_string(), printed, card, letter: r.letter, at })
}

fn record(ctx: &Ctx, r: &RecordNote) -> Result<()> {
    let input = read(ctx, r)?;
    let mut store = ctx.open()?;
    let out = add_note(&mut store, &ctx.actor()?, input)?;
    done_with(ctx.format, &out.summary, &out)
}
