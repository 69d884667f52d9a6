//! The pool's edits and listing: `pool import`, `add`, `remove`, `exclude`, `include` and `list`.

use super::import::{self, CardLine};
use super::{Added, add_resolved, holder_labels, import_bytes, in_use, resolve};
use crate::error::{Error, Result};
use crate::store::pool::{self as store_pool, PoolCard};
use crate::store::{Actor, Change, Store};
use rusqlite::Connection;

/// What `pool import` is asked.
#[derive(Debug, Clone)]
pub struct ImportInput {
    /// The card list's bytes (CSV).
    pub bytes: Vec<u8>,
    /// The card list's name as messages show it.
    pub shown: String,
    /// Keep cards the reference does not know.
    pub allow_unknown: bool,
    /// Replace the pool instead of adding to it.
    pub replace: bool,
}

/// `pool import`: adds a card list to the pool (or replaces the pool) in one write.
pub fn import(store: &mut Store, actor: &Actor, input: ImportInput) -> Result<Added> {
    let ImportInput { bytes, shown, allow_unknown, replace } = input;
    store.write(actor, |tx| import_bytes(tx, &bytes, &shown, allow_unknown, replace))
}

/// What `pool add` is asked.
#[derive(Debug, Clone)]
pub struct AddInput {
    /// The card as typed (name, count, cost, type line).
    pub line: CardLine,
    /// Keep a card the reference does not know.
    pub allow_unknown: bool,
}

/// What `pool add` did.
#[derive(Debug, Clone, PartialEq)]
pub struct AddedCard {
    /// The card's name.
    pub card: String,
    /// Copies in the pool now.
    pub copies: u32,
}

impl AddInput {
    /// Refuses adding no copies (a front end may call this before opening the event).
    pub fn check(&self) -> Result<()> {
        if self.line.count == "0" {
            return Err(Error::bad_input("--count 0 adds nothing: give 1 or more copies"));
        }
        Ok(())
    }
}

/// `pool add`: adds copies of one card.
pub fn add(store: &mut Store, actor: &Actor, input: AddInput) -> Result<AddedCard> {
    input.check()?;
    let AddInput { line, allow_unknown } = input;
    store.write(actor, |tx| {
        let res = import::resolve_lines(tx, std::slice::from_ref(&line), allow_unknown)?;
        let card = res.cards.first().cloned().ok_or_else(|| Error::bad_input("no card to add"))?;
        add_resolved(tx, &res)?;
        let now = store_pool::by_name(tx, &card.name)?.map(|c| c.copies).unwrap_or(card.copies);
        let summary = format!("added {} of {} to the pool ({now} now)", card.copies, card.name);
        Ok((AddedCard { card: card.name, copies: now }, Change::new(summary)))
    })
}

/// What `pool remove` did.
#[derive(Debug, Clone, PartialEq)]
pub struct Removed {
    /// The card's name.
    pub card: String,
    /// Copies removed.
    pub removed: u32,
    /// Copies left in the pool.
    pub left: u32,
}

/// Refuses removing no copies (a front end may call this before opening the event).
pub fn check_remove_count(count: Option<u32>) -> Result<()> {
    if count == Some(0) {
        return Err(Error::bad_input("--count 0 removes nothing: give 1 or more copies, or leave --count out for all"));
    }
    Ok(())
}

/// `pool remove`: removes copies of a pool card (all of them without a count), never copies in libraries.
pub fn remove(store: &mut Store, actor: &Actor, query: &str, count: Option<u32>) -> Result<Removed> {
    check_remove_count(count)?;
    store.write(actor, |tx| {
        let card = resolve(tx, query)?;
        let take = count.unwrap_or(card.copies);
        if take > card.copies {
            return Err(Error::bad_input(format!(
                "the pool has {} {} of {}: remove at most that many",
                card.copies,
                if card.copies == 1 { "copy" } else { "copies" },
                card.name
            )));
        }
        let left = card.copies - take;
        let used = in_use(tx)?.get(&card.id).copied().unwrap_or(0);
        if used > left {
            let free = card.copies - used;
            let what = format!(
                "{} of {} {} in {}",
                crate::domain::words::count(used, "copy"),
                card.name,
                if used == 1 { "is" } else { "are" },
                super::holders(tx, card.id)?
            );
            return Err(crate::error::Refusal::refused(what)
                .way_out(crate::error::WayOut::SwapLibraryCards { free: i64::from(free) })
                .into());
        }
        if left == 0 && used == 0 {
            store_pool::delete(tx, card.id)?;
        } else {
            store_pool::set_copies(tx, card.id, left)?;
        }
        let summary = format!("removed {take} of {} from the pool ({left} left)", card.name);
        Ok((Removed { card: card.name, removed: take, left }, Change::new(summary)))
    })
}

/// What `pool exclude` or `pool include` did.
#[derive(Debug, Clone, PartialEq)]
pub struct Excluded {
    /// The card's name.
    pub card: String,
    /// Its copies.
    pub copies: u32,
    /// Now excluded from library building (else back in).
    pub excluded: bool,
    /// Libraries still holding copies of a card just excluded (`1A`, `3B`).
    pub still_in: Vec<String>,
}

/// `pool exclude` (`exclude` true) or `pool include`: leaves a card out of library building, or back in.
pub fn set_excluded(store: &mut Store, actor: &Actor, query: &str, exclude: bool) -> Result<Excluded> {
    store.write(actor, |tx| {
        let card = resolve(tx, query)?;
        if card.excluded == exclude {
            let state = if exclude { "already excluded" } else { "not excluded" };
            return Err(crate::error::Refusal::refused(format!("{} is {state}", card.name))
                .way_out(crate::error::WayOut::ListPool)
                .into());
        }
        store_pool::set_excluded(tx, card.id, exclude)?;
        let still_in =
            if exclude && in_use(tx)?.contains_key(&card.id) { holder_labels(tx, card.id)? } else { Vec::new() };
        let out = Excluded { card: card.name, copies: card.copies, excluded: exclude, still_in };
        Ok((out.clone(), Change::new(excluded_summary(&out))))
    })
}

/// The audit line (and the judge's confirmation) of an exclusion or inclusion.
pub fn excluded_summary(out: &Excluded) -> String {
    let copies = crate::domain::words::count(out.copies, "copy");
    let mut summary = if out.excluded {
        format!("excluded {} ({copies}) from library building", out.card)
    } else {
        format!("{} ({copies}) is back in library building", out.card)
    };
    if !out.still_in.is_empty() {
        summary.push_str(&format!(
            "; copies are still in {}: swap them out or rebuild",
            super::holders_text(&out.still_in)
        ));
    }
    summary
}

/// The pool as `pool list` shows it.
#[derive(Debug, Clone)]
pub struct PoolList {
    /// Every pool card with its copies in libraries.
    pub cards: Vec<(PoolCard, u32)>,
    /// Spell copies for main libraries.
    pub spells: u32,
    /// Land copies, kept apart.
    pub lands: u32,
    /// Excluded spell copies.
    pub excluded: u32,
}

/// `pool list`: every card with its copies in libraries, and the totals.
pub fn list(conn: &Connection) -> Result<PoolList> {
    let used = in_use(conn)?;
    let mut out = PoolList { cards: Vec::new(), spells: 0, lands: 0, excluded: 0 };
    for c in store_pool::all(conn)? {
        match (c.is_land, c.excluded) {
            (true, _) => out.lands += c.copies,
            (false, true) => out.excluded += c.copies,
            (false, false) => out.spells += c.copies,
        }
        let in_libs = used.get(&c.id).copied().unwrap_or(0);
        out.cards.push((c, in_libs));
    }
    Ok(out)
}
