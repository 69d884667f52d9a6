//! `pool`: the judges' physical cards (import, list, add, remove, exclude, include) and the watch list.
//! The curation report (`pool check`) is in [`super::curation`].

use super::Ctx;
use crate::ops::pool::import::CardLine;
use crate::ops::pool::{add_resolved, holders, import_bytes, in_use, resolve};
use super::reference;
use crate::cli::pool::{PoolCmd, WatchCmd};
use crate::domain::names::{self, Resolved};
use crate::error::{Error, Result};
use crate::render::{Listing, done, emit};
use crate::store::pool::{self as store_pool, PoolCard, Watched};
use crate::store::Change;
use std::path::Path;

/// Runs a `pool` verb.
pub fn run(ctx: &Ctx, cmd: PoolCmd) -> Result<()> {
    match cmd {
        PoolCmd::Import { file, allow_unknown, replace } => import(ctx, &file, allow_unknown, replace),
        PoolCmd::List => list(ctx),
        PoolCmd::Add { name, count, cost, type_line, allow_unknown } => {
            let line = CardLine { at: String::new(), name, count: count.to_string(), mana_cost: cost, type_line };
            add(ctx, &line, allow_unknown)
        }
        PoolCmd::Remove { name, count } => remove(ctx, &name, count),
        PoolCmd::Check { all, html, force } => super::curation::run(ctx, all, html.as_deref(), force),
        PoolCmd::Exclude { name } => set_excluded(ctx, &name, true),
        PoolCmd::Include { name } => set_excluded(ctx, &name, false),
        PoolCmd::Watch(WatchCmd::Add { name, note, force }) => watch_add(ctx, &name, &note, force),
        PoolCmd::Watch(WatchCmd::List) => watch_list(ctx),
        PoolCmd::Watch(WatchCmd::Remove { name }) => watch_remove(ctx, &name),
    }
}

fn import(ctx: &Ctx, file: &Path, allow_unknown: bool, replace: bool) -> Result<()> {
    let bytes = std::fs::read(file).map_err(|e| Error::io(file, e))?;
    let shown = file.display().to_string();
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let added = store.write(&actor, |tx| import_bytes(tx, &bytes, &shown, allow_unknown, replace))?;
    let mut summary = format!(
        "added {} of {} from {shown} ({} kept apart); the pool holds {}",
        crate::domain::words::count(added.copies, "copy"),
        crate::domain::words::count(added.new_cards, "new card"),
        crate::domain::words::count(added.land_copies, "land copy"),
        crate::domain::words::count(added.pool_copies, "copy")
    );
    if !added.unknown.is_empty() {
        summary.push_str(&format!("; {} unknown to the reference: {}", added.unknown.len(), added.unknown.join(", ")));
    }
    let mut notes = Vec::new();
    if !added.cost_notes.is_empty() {
        notes.push(format!(
            "the reference's cost was kept for {}: {}",
            crate::domain::words::count(added.cost_notes.len() as i64, "card"),
            added.cost_notes.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
        ));
    }
    if added.control_characters_removed > 0 {
        summary.push_str(&format!(
            "; removed {} from the file's text",
            crate::domain::words::count(added.control_characters_removed, "control character")
        ));
    }
    if added.zero_lines > 0 {
        notes.push(format!("{} with a count of 0 skipped", crate::domain::words::count(added.zero_lines, "line")));
    }
    notes.push("next: `mmjudge pool check` for the curation report".into());
    done(ctx.format, &summary, serde_json::to_value(&added).unwrap_or_default())?;
    if ctx.format == crate::render::Format::Human {
        notes.iter().for_each(|n| println!("{n}"));
    }
    Ok(())
}

fn add(ctx: &Ctx, line: &CardLine, allow_unknown: bool) -> Result<()> {
    if line.count == "0" {
        return Err(Error::refused("--count 0 adds nothing: give 1 or more copies"));
    }
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let (name, copies) = store.write(&actor, |tx| {
        let res = crate::ops::pool::import::resolve_lines(tx, std::slice::from_ref(line), allow_unknown)?;
        let card = res.cards.first().cloned().ok_or_else(|| Error::refused("no card to add"))?;
        add_resolved(tx, &res)?;
        let now = store_pool::by_name(tx, &card.name)?.map(|c| c.copies).unwrap_or(card.copies);
        let summary = format!("added {} of {} to the pool ({now} now)", card.copies, card.name);
        Ok(((card.name, now), Change::new(summary)))
    })?;
    done(
        ctx.format,
        &format!("added to the pool: {name} ({} now)", crate::domain::words::count(copies, "copy")),
        serde_json::json!({ "card": name, "copies": copies }),
    )
}

/// "1 copy", "3 copies".
pub fn copies(n: u32) -> String {
    format!("{n} {}", if n == 1 { "copy" } else { "copies" })
}

fn remove(ctx: &Ctx, query: &str, count: Option<u32>) -> Result<()> {
    if count == Some(0) {
        return Err(Error::refused("--count 0 removes nothing: give 1 or more copies, or leave --count out for all"));
    }
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let summary = store.write(&actor, |tx| {
        let card = resolve(tx, query)?;
        let take = count.unwrap_or(card.copies);
        if take > card.copies {
            return Err(Error::refused(format!(
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
            let hint = if free > 0 { format!("remove at most {free} (--count {free}), or ") } else { String::new() };
            return Err(Error::refused(format!(
                "{} of {} {} in {}: {hint}swap them out first (`mmjudge library swap`)",
                copies(used),
                card.name,
                if used == 1 { "is" } else { "are" },
                holders(tx, card.id)?
            )));
        }
        if left == 0 && used == 0 {
            store_pool::delete(tx, card.id)?;
        } else {
            store_pool::set_copies(tx, card.id, left)?;
        }
        let summary = format!("removed {take} of {} from the pool ({left} left)", card.name);
        Ok((summary.clone(), Change::new(summary)))
    })?;
    done(ctx.format, &summary, serde_json::json!({}))
}

fn set_excluded(ctx: &Ctx, query: &str, exclude: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let summary = store.write(&actor, |tx| {
        let card = resolve(tx, query)?;
        if card.excluded == exclude {
            let state = if exclude { "already excluded" } else { "not excluded" };
            return Err(Error::refused(format!("{} is {state}: see `mmjudge pool list`", card.name)));
        }
        store_pool::set_excluded(tx, card.id, exclude)?;
        let mut summary = if exclude {
            format!(
                "excluded {} ({}) from library building",
                card.name,
                crate::domain::words::count(card.copies, "copy")
            )
        } else {
            format!("{} ({}) is back in library building", card.name, crate::domain::words::count(card.copies, "copy"))
        };
        if exclude && in_use(tx)?.contains_key(&card.id) {
            summary.push_str(&format!("; copies are still in {}: swap them out or rebuild", holders(tx, card.id)?));
        }
        Ok((summary.clone(), Change::new(summary)))
    })?;
    done(ctx.format, &summary, serde_json::json!({}))
}

fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let conn = store.conn();
    let cards = store_pool::all(conn)?;
    let used = in_use(conn)?;
    let mut listing = Listing::new(&["card", "cost", "type", "copies", "in libraries", "status"]);
    let mut doc = Vec::new();
    let (mut spells, mut lands, mut excluded) = (0u32, 0u32, 0u32);
    for c in &cards {
        let in_libs = used.get(&c.id).copied().unwrap_or(0);
        let status = status(c);
        match (c.is_land, c.excluded) {
            (true, _) => lands += c.copies,
            (false, true) => excluded += c.copies,
            (false, false) => spells += c.copies,
        }
        listing.row(vec![
            c.name.clone(),
            c.mana_cost.clone().unwrap_or_default(),
            c.type_line.clone(),
            c.copies.to_string(),
            in_libs.to_string(),
            status.clone(),
        ]);
        doc.push(serde_json::json!({
            "name": c.name, "mana_cost": c.mana_cost, "type_line": c.type_line, "copies": c.copies,
            "in_libraries": in_libs, "is_land": c.is_land, "is_basic": c.is_basic(), "excluded": c.excluded,
            "known": c.known, "status": status,
        }));
    }
    let total = spells + lands + excluded;
    listing.title = Some(format!(
        "Pool: {}, {}",
        crate::domain::words::count(cards.len() as i64, "card"),
        crate::domain::words::count(total, "copy")
    ));
    listing.footer.push(format!(
        "{} for main libraries, {} kept apart, {}",
        crate::domain::words::count(spells, "spell copy"),
        crate::domain::words::count(lands, "land copy"),
        crate::domain::words::count(excluded, "excluded copy")
    ));
    emit(
        ctx.format,
        &listing,
        &serde_json::json!({
            "cards": doc,
            "totals": { "copies": total, "spells": spells, "lands": lands, "excluded": excluded },
        }),
    )
}

fn status(c: &PoolCard) -> String {
    let mut words = Vec::new();
    if c.is_land {
        words.push(if c.is_basic() { "basic land" } else { "land" });
    }
    if c.excluded {
        words.push("excluded");
    }
    if !c.known {
        words.push("unknown to the reference");
    }
    words.join(", ")
}

fn watch_add(ctx: &Ctx, name: &str, note: &str, force: bool) -> Result<()> {
    crate::domain::text::check("a card name", name, false).map_err(Error::Refused)?;
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let summary = store.write(&actor, |tx| {
        let card = match reference::lookup(tx, name)? {
            Some(c) => c.name,
            None if force && !name.trim().is_empty() => name.trim().to_string(),
            None => {
                reference::require(tx)?;
                return Err(Error::refused(format!(
                    "\"{}\" is not in the card reference (closest: {}): correct the name, or --force to watch it anyway",
                    name.trim(),
                    reference::closest(tx, name, 3)?.join(", ")
                )));
            }
        };
        store_pool::watch_add(tx, &Watched { card: card.clone(), note: note.trim().to_string() })?;
        let summary = format!("watching {card}: pool costs whose class holds it are flagged abusive");
        Ok((summary.clone(), Change::new(summary)))
    })?;
    done(ctx.format, &summary, serde_json::json!({}))
}

fn watch_list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let all = store_pool::watch_list(store.conn())?;
    let mut listing = Listing::new(&["card", "note"]).titled(format!("{} watched cards", all.len()));
    for w in &all {
        listing.row(vec![w.card.clone(), w.note.clone()]);
    }
    listing
        .footer
        .push("cards banned as too powerful count as watched too; add more with `mmjudge pool watch add NAME`".into());
    emit(ctx.format, &listing, &serde_json::json!({ "watch": all }))
}

fn watch_remove(ctx: &Ctx, name: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let summary = store.write(&actor, |tx| {
        let all = store_pool::watch_list(tx)?;
        let items: Vec<(String, String)> = all.iter().map(|w| (w.card.clone(), w.card.clone())).collect();
        let card = match names::resolve(name, &items) {
            Resolved::One(c) => c,
            _ => {
                let list: Vec<&str> = all.iter().map(|w| w.card.as_str()).collect();
                return Err(Error::refused(format!(
                    "\"{}\" is not on the watch list ({}): see `mmjudge pool watch list`",
                    name.trim(),
                    if list.is_empty() { "it is empty".to_string() } else { list.join(", ") }
                )));
            }
        };
        store_pool::watch_remove(tx, &card)?;
        let summary = format!("no longer watching {card}");
        Ok((summary.clone(), Change::new(summary)))
    })?;
    done(ctx.format, &summary, serde_json::json!({}))
}
