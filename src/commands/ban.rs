//! `ban`: the event's ban list.

use super::Ctx;
use crate::cli::cards::BanCmd;
use crate::domain::bans::{BanGroup, default_bans};
use crate::error::{Error, Result};
use crate::render::{Listing, done, emit};
use crate::store::bans::{self, Ban};
use crate::store::{Change, cards};
use rusqlite::Connection;

/// Runs a `ban` verb.
pub fn run(ctx: &Ctx, cmd: BanCmd) -> Result<()> {
    match cmd {
        BanCmd::List => list(ctx),
        BanCmd::Add { name, group, reason, force } => add(ctx, &name, &group, reason.as_deref(), force),
        BanCmd::Remove { name } => remove(ctx, &name),
    }
}

/// Seeds a new event with the ruleset's default ban list.
pub fn seed_defaults(conn: &Connection) -> Result<()> {
    for (card, group) in default_bans() {
        bans::add(conn, &Ban { card: card.to_string(), group: group.as_str().into(), reason: group.reason().into() })?;
    }
    Ok(())
}

fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let all = bans::all(store.conn())?;
    let mut listing = Listing::new(&["card", "group", "reason"]).titled(format!("{} banned cards", all.len()));
    for b in &all {
        listing.row(vec![b.card.clone(), b.group.clone(), b.reason.clone()]);
    }
    emit(ctx.format, &listing, &serde_json::json!({ "bans": all }))
}

fn add(ctx: &Ctx, name: &str, group: &str, reason: Option<&str>, force: bool) -> Result<()> {
    crate::domain::text::check("a card name", name, false).map_err(Error::Refused)?;
    let group: BanGroup =
        group.parse().map_err(|e: crate::domain::bans::UnknownBanGroup| Error::refused(e.to_string()))?;
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let summary = store.write(&actor, |tx| {
        let card = canonical_name(tx, name, force)?;
        let ban =
            Ban { card: card.clone(), group: group.as_str().into(), reason: reason.unwrap_or(group.reason()).into() };
        bans::add(tx, &ban)?;
        let summary = format!("banned {card} ({})", group.as_str());
        Ok((summary.clone(), Change::new(summary)))
    })?;
    done(ctx.format, &summary, serde_json::json!({}))
}

/// The reference's spelling of a card name, or a refusal with the closest names (unless forced).
fn canonical_name(conn: &Connection, name: &str, force: bool) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::refused("give the card's name: mmjudge ban add \"Black Lotus\" --group too-powerful"));
    }
    if let Some(card) = crate::ops::card_reference::lookup(conn, name)? {
        return Ok(card.name);
    }
    if force {
        return Ok(name.to_string());
    }
    if cards::count(conn)? == 0 {
        return Err(Error::refused(format!(
            "no card reference loaded to check \"{name}\": import one with `mmjudge cards import FILE`, or add --force"
        )));
    }
    let close = crate::ops::card_reference::closest(conn, name, 3)?;
    let hint = if close.is_empty() {
        "nothing close; check the spelling with `mmjudge cards find`".to_string()
    } else {
        format!("closest are {}", close.join(", "))
    };
    Err(Error::refused(format!("no card named \"{name}\" in the reference: {hint}; use --force to ban it anyway")))
}

fn remove(ctx: &Ctx, name: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let summary = store.write(&actor, |tx| {
        let card =
            crate::ops::card_reference::lookup(tx, name)?.map(|c| c.name).unwrap_or_else(|| name.trim().to_string());
        if !bans::remove(tx, &card)? {
            return Err(Error::refused(format!("{card} is not banned; see `mmjudge ban list`")));
        }
        let summary = format!("lifted the ban on {card}");
        Ok((summary.clone(), Change::new(summary)))
    })?;
    done(ctx.format, &summary, serde_json::json!({}))
}
