//! Corrections and records: `round extend` (and its void), `stall void`, and the `rulings` and `stalls`
//! listings. The rules are in `ops::corrections` and `ops::table`; this module reads the command line, calls
//! them and prints.

use super::Ctx;
use crate::cli::corrections::{RulingsArgs, StallCmd, StallsArgs, VoidSub};
use crate::cli::round::ExtendCmd;
use crate::error::{Error, Result};
use crate::ops::corrections::{self as ops, VoidInput};
use crate::ops::table::RecordFilter;
use crate::ops::table::hhmm;
use crate::render::records::{count_words, void_cell};
use crate::render::{Listing, done_with, emit};
use crate::store::voids::VoidKind;

/// `round extend ...` or `round extend void ID`.
pub fn extend(ctx: &Ctx, cmd: ExtendCmd) -> Result<()> {
    match (cmd.void, cmd.grant) {
        (Some(VoidSub::Void(v)), _) => void(ctx, VoidKind::Extension, v.id, v.reason, v.force),
        (None, Some(a)) => {
            let secs = crate::ops::round::clock::extension_seconds(&a.minutes)?;
            let input = crate::ops::round::clock::ExtendInput { table: a.table, seconds: secs, reason: a.reason };
            let mut store = ctx.open()?;
            let out = crate::ops::round::clock::extend_table(&mut store, &ctx.actor()?, input)?;
            done_with(ctx.format, &out.summary, &out)
        }
        (None, None) => {
            Err(Error::bad_input("mmjudge round extend TABLE MINUTES --reason TEXT, or mmjudge round extend void ID"))
        }
    }
}

/// `stall void ID`.
pub fn stall(ctx: &Ctx, cmd: StallCmd) -> Result<()> {
    match cmd {
        StallCmd::Void(v) => void(ctx, VoidKind::Stall, v.id, v.reason, v.force),
    }
}

/// Voids one record and prints what that changed.
fn void(ctx: &Ctx, kind: VoidKind, id: i64, reason: Option<String>, force: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let out = ops::void(&mut store, &ctx.actor()?, kind, VoidInput { id, reason, force })?;
    done_with(ctx.format, &out.summary, &out)
}

/// `rulings [--table T] [--round N] [--player P]`.
pub fn rulings(ctx: &Ctx, args: &RulingsArgs) -> Result<()> {
    let store = ctx.open()?;
    let filter = RecordFilter { table: args.table, round: args.round, player: args.player.clone() };
    let list = crate::ops::views::rulings(&store, &filter)?;
    let title = match &list.at {
        Some(label) => format!("Rulings at {label}"),
        None => "Rulings".to_string(),
    };
    let mut listing = Listing::new(&["#", "round", "table", "ruling", "judge", "at", "void"]).titled(title);
    for r in &list.rulings {
        listing.row(vec![
            r.id.to_string(),
            r.round.to_string(),
            r.table.map(|t| t.to_string()).unwrap_or_default(),
            r.text.clone(),
            r.judge.clone(),
            hhmm(&r.at),
            void_cell(r.voided.as_ref()),
        ]);
    }
    let void = list.rulings.iter().filter(|r| r.voided.is_some()).count();
    listing.footer.push(count_words(list.rulings.len(), void, "ruling"));
    emit(ctx.format, &listing, &list)
}

/// `stalls [--table T] [--round N] [--player P]`.
pub fn stalls(ctx: &Ctx, args: &StallsArgs) -> Result<()> {
    let store = ctx.open()?;
    let filter = RecordFilter { table: args.table, round: args.round, player: args.player.clone() };
    let list = crate::ops::views::stalls(&store, &filter)?;
    let title = match &list.at {
        Some(label) => format!("Stalls logged at {label}"),
        None => "Stalls logged on the live clock".to_string(),
    };
    let mut listing = Listing::new(&["#", "round", "table", "player", "at", "void"]).titled(title);
    for s in &list.stalls {
        listing.row(vec![
            s.id.to_string(),
            s.round.to_string(),
            s.table.map(|t| t.to_string()).unwrap_or_default(),
            s.player.clone(),
            hhmm(&s.at),
            void_cell(s.voided.as_ref()),
        ]);
    }
    let void = list.stalls.iter().filter(|s| s.voided.is_some()).count();
    listing.footer.push(count_words(list.stalls.len(), void, "stall"));
    emit(ctx.format, &listing, &list)
}
