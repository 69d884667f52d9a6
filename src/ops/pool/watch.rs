//! The watch list: cards whose presence in a class makes a pool cost abusive (`pool watch add/list/remove`).

use crate::domain::names::{self, Resolved};
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::card_reference as reference;
use crate::store::pool::{self as store_pool, Watched};
use crate::store::{Actor, Change, Store};
use rusqlite::Connection;

/// What `pool watch add` is asked.
#[derive(Debug, Clone)]
pub struct WatchInput {
    /// The card, as typed.
    pub name: String,
    /// Why it is watched.
    pub note: String,
    /// Watch a name the reference does not know.
    pub force: bool,
}

impl WatchInput {
    /// Refuses a name no card can have (a front end may call this before opening the event).
    pub fn check(&self) -> Result<()> {
        crate::domain::text::check("a card name", &self.name, false).map_err(Error::BadInput)?;
        crate::domain::text::check("the note", &self.note, false).map_err(Error::BadInput)?;
        crate::domain::bounds::text_length("the note", &self.note, crate::domain::bounds::MAX_REASON_CHARS)
            .map_err(Error::BadInput)
    }
}

/// A card now watched.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WatchAdded {
    /// The card's name as the reference spells it.
    pub card: String,
    /// It is banned: no player may declare it, so it makes no cost abusive.
    pub banned: bool,
}

impl WatchAdded {
    /// The reply in words.
    pub fn summary(&self) -> String {
        let card = &self.card;
        if self.banned {
            format!(
                "watching {card}: it is banned, so no player may declare it and it flags no cost abusive \
                 (`pool check` lists it as information)"
            )
        } else {
            format!("watching {card}: pool costs whose class holds it are flagged abusive")
        }
    }
}

/// `pool watch add`: watches a card of the reference (or, forced, any name).
pub fn add(store: &mut Store, actor: &Actor, input: WatchInput) -> Result<WatchAdded> {
    input.check()?;
    let WatchInput { name, note, force } = input;
    let name = name.as_str();
    store.write(actor, |tx| {
        let card = match reference::lookup(tx, name)? {
            Some(c) => c.name,
            None if force && !name.trim().is_empty() => name.trim().to_string(),
            None => {
                reference::require(tx)?;
                let what = format!(
                    "\"{}\" is not in the card reference{}: correct the name",
                    name.trim(),
                    crate::domain::names::closest_hint(&reference::closest(tx, name, 3)?)
                );
                let force = WayOut::ForceTo { to: "watch it anyway".into(), tick: crate::error::Tick::WatchUnknown };
                return Err(Refusal::not_found(what).way_out_after(crate::error::Join::Or, force).into());
            }
        };
        store_pool::watch_add(tx, &Watched { card: card.clone(), note: note.trim().to_string() })?;
        let banned = reference::is_banned(&reference::banned_names(tx)?, &card);
        let added = WatchAdded { card, banned };
        let summary = added.summary();
        Ok((added, Change::new(summary)))
    })
}

/// `pool watch list`: the watched cards.
pub fn list(conn: &Connection) -> Result<Vec<Watched>> {
    store_pool::watch_list(conn)
}

/// `pool watch remove`: stops watching the card a typed name means; returns its name.
pub fn remove(store: &mut Store, actor: &Actor, name: &str) -> Result<String> {
    store.write(actor, |tx| {
        let all = store_pool::watch_list(tx)?;
        let items: Vec<(String, String)> = all.iter().map(|w| (w.card.clone(), w.card.clone())).collect();
        let card = match names::resolve(name, &items) {
            Resolved::One(c) => c,
            _ => {
                let list: Vec<&str> = all.iter().map(|w| w.card.as_str()).collect();
                let what = format!(
                    "\"{}\" is not on the watch list ({})",
                    name.trim(),
                    if list.is_empty() { "it is empty".to_string() } else { list.join(", ") }
                );
                return Err(crate::error::Refusal::not_found(what).way_out(crate::error::WayOut::ListWatch).into());
            }
        };
        store_pool::watch_remove(tx, &card)?;
        let summary = format!("no longer watching {card}");
        Ok((card, Change::new(summary)))
    })
}
