//! `player`: add, import, list, drop, undrop, rename and remove players, and a player's history (see
//! [`crate::ops::players`]).

use super::Ctx;
use crate::cli::player::PlayerCmd;
use crate::error::{Error, Result};
use crate::ops::players::{self, NewRow, RenameInput};
use crate::render::{Listing, done, emit};
use std::path::Path;

pub use crate::ops::players::read_csv_counted;

/// Runs a `player` verb (`player history` is its own module, [`super::history`], dispatched to directly).
pub fn run(ctx: &Ctx, cmd: PlayerCmd) -> Result<()> {
    match cmd {
        PlayerCmd::Add { names } => add(ctx, names),
        PlayerCmd::Import { file } => import(ctx, &file),
        PlayerCmd::List => list(ctx),
        PlayerCmd::CheckIn { name } => check_in(ctx, &name),
        PlayerCmd::Drop { name } => set_drop(ctx, &name, true),
        PlayerCmd::Undrop { name } => set_drop(ctx, &name, false),
        PlayerCmd::Remove { name } => remove(ctx, &name),
        PlayerCmd::Rename { old, new } => rename(ctx, old, new),
        PlayerCmd::Seat { name, table, .. } => seat(ctx, name, table),
        PlayerCmd::Codes { reissue: Some(name), .. } => code(ctx, &name, true),
        PlayerCmd::Codes { reissue: None, html, url, force, part } => codes(ctx, html.as_deref(), url, force, part),
        PlayerCmd::Code { name, new } => code(ctx, &name, new),
        PlayerCmd::History { .. } => Err(Error::bad_input("`player history` is run by its own command module")),
    }
}

fn add(ctx: &Ctx, names: Vec<String>) -> Result<()> {
    let rows: Vec<NewRow> = names.into_iter().map(|n| NewRow { name: n, ext_id: None, email: None }).collect();
    let mut store = ctx.open()?;
    let added = players::add_players(&mut store, &ctx.actor()?, &rows)?;
    done(ctx.format, &players::added_words(&added, false), serde_json::json!({ "added": added.added }))
}

fn import(ctx: &Ctx, file: &Path) -> Result<()> {
    let input = players::read_import(file)?;
    let mut store = ctx.open()?;
    let imported = players::import_players(&mut store, &ctx.actor()?, &input)?;
    let cleaned = crate::domain::text::removed_clause(imported.control_characters_removed);
    let n = imported.added.len();
    done(
        ctx.format,
        &format!("imported {} from {}{cleaned}", crate::domain::words::count(n, "player"), input.file),
        serde_json::to_value(&imported).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?,
    )
}

fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    // With check-in on, a column says who has checked in, and a line who round 1 still waits for.
    let (all, check_in, absent) = crate::ops::views::players_at_check_in(&store)?;
    let mut heads = vec!["#", "name", "id", "email", "status"];
    // A column for the players who stay at one table, when any does.
    let stays = all.iter().any(|p| p.stays_at.is_some());
    if stays {
        heads.push("stays at table");
    }
    if check_in {
        heads.push("checked in");
    }
    let mut listing = Listing::new(&heads).titled(crate::domain::words::count(all.len(), "player"));
    for (i, p) in all.iter().enumerate() {
        let mut row = vec![
            (i + 1).to_string(),
            p.name.clone(),
            p.ext_id.clone().unwrap_or_default(),
            p.email.clone().unwrap_or_default(),
            p.status.clone(),
        ];
        if stays {
            row.push(p.stays_at.map(|t| t.to_string()).unwrap_or_default());
        }
        if check_in {
            row.push(if p.checked_in { "yes" } else { "no" }.to_string());
        }
        listing.row(row);
    }
    if !absent.is_empty() {
        let names: Vec<&str> = absent.iter().map(|p| p.name.as_str()).collect();
        listing.footer.push(format!(
            "not checked in yet: {} (`mmjudge player check-in NAME`; `mmjudge round pair --drop-absent` pairs those \
             present)",
            names.join(", ")
        ));
    }
    emit(ctx.format, &listing, &serde_json::json!({ "players": all }))
}

/// `player check-in NAME`: a judge checks a player in (see [`crate::ops::players::check_in`]).
fn check_in(ctx: &Ctx, query: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let out = players::check_in::check_in(&mut store, &ctx.actor()?, query)?;
    crate::render::done_with(ctx.format, &out.summary, &out)
}

fn set_drop(ctx: &Ctx, query: &str, drop: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let dropped = if drop {
        players::drop_player(&mut store, &actor, query)?
    } else {
        players::undrop_player(&mut store, &actor, query)?
    };
    done(ctx.format, &players::dropped_words(&dropped), serde_json::json!({}))
}

/// `player remove NAME`: deletes a player entered by mistake (see [`crate::ops::players::remove_player`]).
fn remove(ctx: &Ctx, query: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let p = crate::ops::views::player(&store, query)?;
    let input = crate::ops::players::RemoveInput { player: p.id };
    let removed = crate::ops::players::remove_player(&mut store, &ctx.actor()?, input)?;
    let with = if removed.library_removed { ", with the sealed library registered for them" } else { "" };
    let summary = format!("removed {} from the event{with}", removed.name);
    let doc = serde_json::to_value(&removed).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    done(ctx.format, &summary, doc)
}

/// `player seat NAME --table N` / `--clear` (see [`crate::ops::players::seat_player`]).
fn seat(ctx: &Ctx, player: String, table: Option<u32>) -> Result<()> {
    let mut store = ctx.open()?;
    let seated = players::seat_player(&mut store, &ctx.actor()?, players::SeatInput { player, table })?;
    crate::render::done_with(ctx.format, &players::seated_words(&seated), &seated)
}

fn rename(ctx: &Ctx, old: String, new: String) -> Result<()> {
    let mut store = ctx.open()?;
    let renamed = players::rename_player(&mut store, &ctx.actor()?, RenameInput { player: old, new })?;
    done(ctx.format, &format!("renamed \"{}\" to \"{}\"", renamed.old, renamed.new), serde_json::json!({}))
}

fn codes(ctx: &Ctx, html: Option<&Path>, url: Option<String>, force: bool, part: Option<u32>) -> Result<()> {
    let store = ctx.open()?;
    let (all, event) = crate::ops::views::codes(&store)?;
    let (all, part) = match part {
        Some(n) => {
            let (slips, part) = crate::ops::players::codes::part_of(all, n as usize)?;
            (slips, Some(part))
        }
        None => (all, None),
    };
    if let Some(file) = html {
        let base = url.unwrap_or_else(crate::render::qr::default_url);
        let mut page = crate::render::player_slips::SlipsPage::new(&event, &base, &all);
        if let Some(p) = part {
            page = page.in_part(p);
        }
        let page = page.render().map_err(|e| Error::refused(format!("cannot render the player slips: {e}")))?;
        crate::output::write(file, crate::output::Kind::PlayerSlips, force, page.as_bytes())?;
    }
    // With --html the codes went to the file: the terminal (maybe a shared screen) shows only what was written,
    // unless a machine format is asked for.
    if let (Some(file), crate::render::Format::Human) = (html, ctx.format) {
        let slips = crate::domain::words::count(all.len(), "slip");
        println!(
            "wrote {slips} to {} (print, cut apart and hand out: each player's code is theirs alone)",
            file.display()
        );
        return Ok(());
    }
    let mut listing = Listing::new(&["#", "name", "code"]).titled(crate::domain::words::count(all.len(), "player"));
    for (i, p) in all.iter().enumerate() {
        listing.row(vec![(i + 1).to_string(), p.name.clone(), p.code.clone()]);
    }
    emit(ctx.format, &listing, &serde_json::json!({ "players": all }))
}

fn code(ctx: &Ctx, query: &str, new: bool) -> Result<()> {
    if new {
        let mut store = ctx.open()?;
        let out = players::codes::renew_code(&mut store, &ctx.actor()?, query)?;
        let summary = format!("{}: new code {} (the old one no longer works)", out.player.name, out.player.code);
        return crate::render::done_with(ctx.format, &summary, &out);
    }
    let store = ctx.open()?;
    let p = crate::ops::views::code_of(&store, query)?;
    crate::render::done_with(ctx.format, &format!("{}: code {}", p.name, p.code), &p)
}
