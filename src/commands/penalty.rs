//! `penalty`, `penalties` and `ruling`: what judges rule at a table.

use super::Ctx;
use crate::cli::corrections::{VoidResultSub, VoidSub};
use crate::cli::penalty::{PenaltiesArgs, PenaltyArgs, PenaltyCmd, RulingArgs, RulingCmd};
use crate::domain::penalty::{Infraction, PenaltyKind};
use crate::error::{Error, Result};
use crate::ops::corrections::{self, VoidInput};
use crate::ops::table::hhmm;
use crate::ops::table::records::penalty::{PenaltyInput, record_penalty};
use crate::ops::table::records::ruling::{RulingInput, record_ruling};
use crate::render::records::void_cell;
use crate::render::{Listing, done_with, emit};
use crate::store::voids::VoidKind;

/// Voids a record and prints what that changed.
fn void(ctx: &Ctx, kind: VoidKind, input: VoidInput) -> Result<()> {
    let mut store = ctx.open()?;
    let out = corrections::void(&mut store, &ctx.actor()?, kind, input)?;
    done_with(ctx.format, &out.summary, &out)
}

/// `penalty ...` or `penalty void ID`.
pub fn run(ctx: &Ctx, cmd: PenaltyCmd) -> Result<()> {
    match (cmd.void, cmd.record) {
        (Some(VoidResultSub::Void(v)), _) => {
            void(ctx, VoidKind::Penalty, VoidInput { id: v.id, reason: v.reason, force: v.force })
        }
        (None, Some(args)) => record(ctx, &args),
        (None, None) => Err(Error::bad_input("mmjudge penalty PLAYER INFRACTION, or mmjudge penalty void ID")),
    }
}

/// Records a penalty, upgraded per the guide; a Game Loss, Match Loss or Disqualification ends the
/// player's match, and a Disqualification removes the player from the standings and pairings.
fn record(ctx: &Ctx, args: &PenaltyArgs) -> Result<()> {
    let infraction = Infraction::parse(&args.infraction)
        .map_err(|e| Error::bad_input(format!("{e} (`mmjudge penalty --help` lists every infraction)")))?;
    let penalty: Option<PenaltyKind> =
        args.penalty.as_deref().map(str::parse).transpose().map_err(|e| Error::bad_input(format!("{e}")))?;
    let input = PenaltyInput {
        player: args.player.clone(),
        infraction,
        penalty,
        note: args.note.clone(),
        table: args.table,
        round: args.round,
        at: args.at.as_deref().map(|a| ctx.at(Some(a))).transpose()?,
    };
    let mut store = ctx.open()?;
    let out = record_penalty(&mut store, &ctx.actor()?, input)?;
    done_with(ctx.format, &out.summary, &out)
}

/// Lists penalties, optionally of one player.
pub fn list(ctx: &Ctx, args: &PenaltiesArgs) -> Result<()> {
    let store = ctx.open()?;
    let list = crate::ops::views::penalties(&store, args.player.as_deref())?;
    let title = match &list.of {
        Some(name) => format!("Penalties of {name}"),
        None => "Penalties".into(),
    };
    let mut listing =
        Listing::new(&["#", "player", "infraction", "penalty", "round", "table", "why", "judge", "at", "void"])
            .titled(title);
    for p in &list.penalties {
        let why = [p.upgraded.clone(), p.note.clone()].into_iter().flatten().collect::<Vec<_>>().join("; ");
        listing.row(vec![
            p.id.to_string(),
            p.player.clone(),
            p.infraction.clone(),
            p.penalty.clone(),
            p.round.map(|r| r.to_string()).unwrap_or_default(),
            p.table.map(|t| t.to_string()).unwrap_or_default(),
            why,
            p.judge.clone(),
            hhmm(&p.at),
            void_cell(p.voided.as_ref()),
        ]);
    }
    let n = list.penalties.len();
    let void = list.penalties.iter().filter(|p| p.voided.is_some()).count();
    let void = if void > 0 { format!(" ({void} void)") } else { String::new() };
    listing.footer.push(format!("{n} penalt{}{void}", if n == 1 { "y" } else { "ies" }));
    emit(ctx.format, &listing, &list)
}

/// `ruling ...` or `ruling void ID`.
pub fn ruling(ctx: &Ctx, cmd: RulingCmd) -> Result<()> {
    match (cmd.void, cmd.record) {
        (Some(VoidSub::Void(v)), _) => {
            void(ctx, VoidKind::Ruling, VoidInput { id: v.id, reason: v.reason, force: v.force })
        }
        (None, Some(args)) => log_ruling(ctx, &args),
        (None, None) => Err(Error::bad_input("mmjudge ruling TABLE TEXT, or mmjudge ruling void ID")),
    }
}

/// Logs a ruling at a table.
fn log_ruling(ctx: &Ctx, args: &RulingArgs) -> Result<()> {
    let input = RulingInput {
        table: args.table,
        round: args.round,
        text: args.text.clone(),
        at: args.at.as_deref().map(|a| ctx.at(Some(a))).transpose()?,
    };
    let mut store = ctx.open()?;
    let out = record_ruling(&mut store, &ctx.actor()?, input)?;
    done_with(ctx.format, &out.summary, &out)
}
