//! `clock TABLE --start PLAYER` / `clock TABLE --stop`: the decision clock without the screen (the rules are
//! in `ops::table::clocks::clock`).

use super::Ctx;
use crate::error::Result;
use crate::ops::table::clocks::clock::{StartInput, StopInput, start_decision, stop_decision};
use crate::render::done_with;

/// `clock TABLE --start PLAYER [--at TIME]`.
pub fn start(ctx: &Ctx, table: u32, who: &str, at: Option<&str>) -> Result<()> {
    let at = at.map(|a| ctx.at(Some(a))).transpose()?;
    let mut store = ctx.open()?;
    let out = start_decision(&mut store, &ctx.actor()?, StartInput { table, player: who.to_string(), at })?;
    done_with(ctx.format, &out.summary, &out)
}

/// `clock TABLE --stop [--at TIME]`.
pub fn stop(ctx: &Ctx, table: u32, at: Option<&str>) -> Result<()> {
    let at = at.map(|a| ctx.at(Some(a))).transpose()?;
    let mut store = ctx.open()?;
    let out = stop_decision(&mut store, &ctx.actor()?, StopInput { table, at })?;
    done_with(ctx.format, &out.summary, &out)
}
