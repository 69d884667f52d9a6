//! `pool watch add/list/remove`: prints what [`crate::ops::pool::watch`] did or reads.

use super::Ctx;
use crate::error::Result;
use crate::ops::pool::watch::{self as ops_watch, WatchInput};
use crate::render::{Listing, done, emit};

pub fn add(ctx: &Ctx, name: String, note: String, force: bool) -> Result<()> {
    let input = WatchInput { name, note, force };
    input.check()?;
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let added = ops_watch::add(&mut store, &actor, input)?;
    done(ctx.format, &added.summary(), serde_json::json!({}))
}

pub fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let all = crate::ops::views::watched(&store)?;
    let mut listing = Listing::new(&["card", "note"]).titled(format!("{} watched cards", all.len()));
    for w in &all {
        listing.row(vec![w.card.clone(), w.note.clone()]);
    }
    listing
        .footer
        .push("a pool cost whose class holds a watched card is abusive (a banned card never is: nobody may declare it); add more with `mmjudge pool watch add NAME`".into());
    emit(ctx.format, &listing, &serde_json::json!({ "watch": all }))
}

pub fn remove(ctx: &Ctx, name: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let card = ops_watch::remove(&mut store, &actor, name)?;
    done(ctx.format, &format!("no longer watching {card}"), serde_json::json!({}))
}
