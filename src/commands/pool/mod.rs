//! `pool`: the judges' physical cards (import, list, add, remove, exclude, include), the curation report
//! (`pool check`, in [`check`]) and the watch list (in [`watch`]). The rules and store calls are in
//! [`crate::ops::pool`]; these files parse, call them and print.

mod check;
mod watch;

use super::Ctx;
use crate::cli::pool::{PoolCmd, WatchCmd};
use crate::error::{Error, Result};
use crate::ops::pool::edit::{AddInput, AddedCard, ImportInput, PoolList, Removed};
use crate::ops::pool::import::CardLine;
use crate::ops::pool::{self};
use crate::render::{Listing, done, emit};
use crate::store::pool::PoolCard;
use std::path::Path;

/// Runs a `pool` verb.
pub fn run(ctx: &Ctx, cmd: PoolCmd) -> Result<()> {
    match cmd {
        PoolCmd::Import { file, allow_unknown, replace } => import(ctx, &file, allow_unknown, replace),
        PoolCmd::List => list(ctx),
        PoolCmd::Add { name, count, cost, type_line, allow_unknown } => {
            let line = CardLine { at: String::new(), name, count: count.to_string(), mana_cost: cost, type_line };
            add(ctx, line, allow_unknown)
        }
        PoolCmd::Remove { name, count } => remove(ctx, &name, count),
        PoolCmd::Check { all, html, force } => check::run(ctx, all, html.as_deref(), force),
        PoolCmd::Exclude { name } => set_excluded(ctx, &name, true),
        PoolCmd::Include { name } => set_excluded(ctx, &name, false),
        PoolCmd::Watch(WatchCmd::Add { name, note, force }) => watch::add(ctx, name, note, force),
        PoolCmd::Watch(WatchCmd::List) => watch::list(ctx),
        PoolCmd::Watch(WatchCmd::Remove { name }) => watch::remove(ctx, &name),
    }
}

fn import(ctx: &Ctx, file: &Path, allow_unknown: bool, replace: bool) -> Result<()> {
    let bytes = std::fs::read(file).map_err(|e| Error::io(file, e))?;
    let shown = file.display().to_string();
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let input = ImportInput { bytes, shown: shown.clone(), allow_unknown, replace };
    let added = pool::edit::import(&mut store, &actor, input)?;
    let mut summary = crate::render::imports::pool_added(&added, &shown);
    let mut notes = Vec::new();
    if !added.cost_notes.is_empty() {
        notes.push(format!(
            "the reference's cost was kept for {}: {}",
            crate::domain::words::count(added.cost_notes.len() as i64, "card"),
            added.cost_notes.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
        ));
    }
    summary.push_str(&crate::domain::text::removed_clause(added.control_characters_removed));
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

fn add(ctx: &Ctx, line: CardLine, allow_unknown: bool) -> Result<()> {
    let input = AddInput { line, allow_unknown };
    input.check()?;
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let AddedCard { card: name, copies } = pool::edit::add(&mut store, &actor, input)?;
    done(
        ctx.format,
        &format!("added to the pool: {name} ({} now)", crate::domain::words::count(copies, "copy")),
        serde_json::json!({ "card": name, "copies": copies }),
    )
}

fn remove(ctx: &Ctx, query: &str, count: Option<u32>) -> Result<()> {
    pool::edit::check_remove_count(count)?;
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let Removed { card, removed, left } = pool::edit::remove(&mut store, &actor, query, count)?;
    let summary = format!("removed {removed} of {card} from the pool ({left} left)");
    done(ctx.format, &summary, serde_json::json!({}))
}

fn set_excluded(ctx: &Ctx, query: &str, exclude: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let out = pool::edit::set_excluded(&mut store, &actor, query, exclude)?;
    done(ctx.format, &pool::edit::excluded_summary(&out), serde_json::json!({}))
}

fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let PoolList { cards, spells, lands, excluded } = crate::ops::views::pool(&store)?;
    let mut listing = Listing::new(&["card", "cost", "type", "copies", "in libraries", "status"]);
    let mut doc = Vec::new();
    for (c, in_libs) in &cards {
        let status = status(c);
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
