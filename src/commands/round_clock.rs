//! `round start`, `round end` and `round reopen`: the current round's clock (the rules are in
//! `ops::round::clock` and `ops::round`).

use super::Ctx;
use crate::error::Result;
use crate::ops::round::clock::{end_round, start_round, start_round_now};
use crate::render::done_with;

/// `round start [--at TIME]`: records when the current round's clock started.
pub fn start(ctx: &Ctx, at: Option<&str>, now: bool) -> Result<()> {
    let at = at.map(|a| ctx.at(Some(a))).transpose()?;
    let mut store = ctx.open()?;
    let out =
        if now { start_round_now(&mut store, &ctx.actor()?)? } else { start_round(&mut store, &ctx.actor()?, at)? };
    done_with(ctx.format, &out.summary, &out)
}

/// `round end [--at TIME]`: closes the current round's clock, stops any decision still running at that moment,
/// and lists the tables still without a result.
pub fn end(ctx: &Ctx, at: Option<&str>, force: bool) -> Result<()> {
    let at = at.map(|a| ctx.at(Some(a))).transpose()?;
    let mut store = ctx.open()?;
    let out = end_round(&mut store, &ctx.actor()?, at, force)?;
    done_with(ctx.format, &out.summary, &out)
}

/// `round reopen`: undoes `round end` (see [`crate::ops::round::reopen_round`]).
pub fn reopen(ctx: &Ctx) -> Result<()> {
    let mut store = ctx.open()?;
    let r = crate::ops::round::reopen_round(&mut store, &ctx.actor()?)?;
    crate::render::done_with(ctx.format, &crate::ops::round::reopened_words(&r), &r)
}
