//! The event's ban list.

use crate::domain::bans::{BanGroup, UnknownBanGroup, default_bans};
use crate::error::{Error, Result};
use crate::store::bans::{self, Ban};
use crate::store::{Actor, Change, Store, cards};
use rusqlite::Connection;

/// Seeds a new event with the ruleset's default ban list.
pub fn seed_default_bans(conn: &Connection) -> Result<()> {
    for (card, group) in default_bans() {
        bans::add(conn, &Ban { card: card.to_string(), group: group.as_str().into(), reason: group.reason().into() })?;
    }
    Ok(())
}

/// `ban list`: every banned card.
pub fn bans(conn: &Connection) -> Result<Vec<Ban>> {
    bans::all(conn)
}

/// `ban add NAME --group GROUP [--reason TEXT] [--force]`, checked for form by [`BanInput::new`].
#[derive(Debug, Clone)]
pub struct BanInput {
    /// The card's name as typed.
    pub name: String,
    /// The group.
    pub group: BanGroup,
    /// Why (the group's reason when None).
    pub reason: Option<String>,
    /// Ban a name the card reference does not know.
    pub force: bool,
}

impl BanInput {
    /// A ban from typed text, or why the name or the group cannot be used.
    pub fn new(name: String, group: &str, reason: Option<String>, force: bool) -> Result<BanInput> {
        crate::domain::text::check("a card name", &name, false).map_err(Error::BadInput)?;
        if let Some(r) = &reason {
            crate::domain::text::check("the ban's reason", r, false).map_err(Error::BadInput)?;
            let max = crate::domain::bounds::MAX_REASON_CHARS;
            crate::domain::bounds::text_length("the ban's reason", r, max).map_err(Error::BadInput)?;
        }
        let group: BanGroup = group.parse().map_err(|e: UnknownBanGroup| Error::bad_input(e.to_string()))?;
        Ok(BanInput { name, group, reason, force })
    }
}

/// A card banned.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Banned {
    /// The card, as the reference spells it.
    pub card: String,
    /// Its group.
    pub group: &'static str,
}

/// Bans a card, spelt as the card reference spells it; a name the reference does not know is refused with
/// the closest names unless `force`.
pub fn ban_card(store: &mut Store, actor: &Actor, input: BanInput) -> Result<Banned> {
    let group = input.group;
    store.write(actor, |tx| {
        let card = canonical_name(tx, &input.name, input.force)?;
        let reason = input.reason.as_deref().unwrap_or(group.reason());
        let ban = Ban { card: card.clone(), group: group.as_str().into(), reason: reason.into() };
        bans::add(tx, &ban)?;
        let summary = format!("banned {card} ({})", group.as_str());
        Ok((Banned { card, group: group.as_str() }, Change::new(summary)))
    })
}

/// The reference's spelling of a card name, or a refusal with the closest names (unless forced).
fn canonical_name(conn: &Connection, name: &str, force: bool) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(crate::error::Refusal::bad_input("give the card's name")
            .way_out(crate::error::WayOut::Example(crate::error::Example::BanCard))
            .into());
    }
    if let Some(card) = crate::ops::card_reference::lookup(conn, name)? {
        return Ok(card.name);
    }
    if force {
        return Ok(name.to_string());
    }
    if cards::count(conn)? == 0 {
        let what = format!("no card reference loaded to check \"{name}\"");
        let out = crate::error::WayOut::ImportCards { need: crate::error::Cards::OrForce };
        return Err(crate::error::Refusal::refused(what).way_out(out).into());
    }
    let close = crate::ops::card_reference::closest(conn, name, 3)?;
    if close.is_empty() {
        let what = format!("no card named \"{name}\" in the reference: nothing close");
        let force = crate::error::WayOut::UseForce { to: "ban it anyway".into(), tick: crate::error::Tick::BanUnknown };
        let out = crate::error::WayOut::Both(Box::new(crate::error::WayOut::FindCard), Box::new(force));
        return Err(crate::error::Refusal::not_found(what).way_out_after(crate::error::Join::Semicolon, out).into());
    }
    let hint = format!("closest are {}", close.join(", "));
    let what = format!("no card named \"{name}\" in the reference: {hint}");
    let force = crate::error::WayOut::UseForce { to: "ban it anyway".into(), tick: crate::error::Tick::BanUnknown };
    Err(crate::error::Refusal::not_found(what).way_out_after(crate::error::Join::Semicolon, force).into())
}

/// `ban remove NAME`: lifts the ban on a card; returns the card as the ban list spelt it.
pub fn lift_ban(store: &mut Store, actor: &Actor, name: &str) -> Result<String> {
    store.write(actor, |tx| {
        let card =
            crate::ops::card_reference::lookup(tx, name)?.map(|c| c.name).unwrap_or_else(|| name.trim().to_string());
        if !bans::remove(tx, &card)? {
            return Err(crate::error::Refusal::not_found(format!("{card} is not banned"))
                .way_out_after(crate::error::Join::Semicolon, crate::error::WayOut::ListBans)
                .into());
        }
        let summary = format!("lifted the ban on {card}");
        Ok((card, Change::new(summary)))
    })
}
