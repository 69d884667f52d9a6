//! `ban`: the event's ban list (see [`crate::ops::event`]).

use super::Ctx;
use crate::cli::cards::BanCmd;
use crate::error::Result;
use crate::ops::event::{self as ops_event, BanInput};
use crate::render::{Listing, done, emit};

/// Runs a `ban` verb.
pub fn run(ctx: &Ctx, cmd: BanCmd) -> Result<()> {
    match cmd {
        BanCmd::List => list(ctx),
        BanCmd::Add { name, group, reason, force } => add(ctx, BanInput::new(name, &group, reason, force)?),
        BanCmd::Remove { name } => remove(ctx, &name),
    }
}

fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let all = crate::ops::views::bans(&store)?;
    let mut listing = Listing::new(&["card", "group", "reason"]).titled(format!("{} banned cards", all.len()));
    for b in &all {
        listing.row(vec![b.card.clone(), b.group.clone(), b.reason.clone()]);
    }
    emit(ctx.format, &listing, &serde_json::json!({ "bans": all }))
}

fn add(ctx: &Ctx, input: BanInput) -> Result<()> {
    let mut store = ctx.open()?;
    let banned = ops_event::ban_card(&mut store, &ctx.actor()?, input)?;
    done(ctx.format, &format!("banned {} ({})", banned.card, banned.group), serde_json::json!({}))
}

fn remove(ctx: &Ctx, name: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let card = ops_event::lift_ban(&mut store, &ctx.actor()?, name)?;
    done(ctx.format, &format!("lifted the ban on {card}"), serde_json::json!({}))
}
