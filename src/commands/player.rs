//! `player`: add, import, list, drop, undrop and rename players; resolving typed names.

use super::Ctx;
use crate::cli::player::PlayerCmd;
use crate::domain::names;
use crate::error::{Error, Result};
use crate::ops::player_names;
use crate::render::{Listing, done, emit};
use crate::store::{Change, PlayerId, player, round};
use rusqlite::Connection;
use std::collections::HashMap;
use std::path::Path;

/// Runs a `player` verb.
pub fn run(ctx: &Ctx, cmd: PlayerCmd) -> Result<()> {
    match cmd {
        PlayerCmd::Add { names } => {
            let rows: Vec<NewRow> = names.into_iter().map(|n| NewRow { name: n, ext_id: None, email: None }).collect();
            add_rows(ctx, &rows, "added")
        }
        PlayerCmd::Import { file } => import(ctx, &file),
        PlayerCmd::List => list(ctx),
        PlayerCmd::Drop { name } => set_drop(ctx, &name, true),
        PlayerCmd::Undrop { name } => set_drop(ctx, &name, false),
        PlayerCmd::Remove { name } => remove(ctx, &name),
        PlayerCmd::Rename { old, new } => rename(ctx, &old, &new),
        PlayerCmd::History { name } => super::history::run(ctx, &name),
    }
}

/// Every player's name by id.
pub fn names_by_id(conn: &Connection) -> Result<HashMap<PlayerId, String>> {
    Ok(player::all(conn)?.into_iter().map(|p| (p.id, p.name)).collect())
}

/// Finds the one player a typed name means (the one resolver, `ops::player_names::find`), or refuses with
/// the players it could mean or the closest names.
pub fn resolve(conn: &Connection, query: &str) -> Result<player::Player> {
    crate::ops::player_names::find(conn, query)
}

/// A player to add, from the command line or a CSV line.
#[derive(Debug, Clone)]
pub struct NewRow {
    /// Name as typed.
    pub name: String,
    /// Organiser's id.
    pub ext_id: Option<String>,
    /// E-mail.
    pub email: Option<String>,
}

/// Checks every row (a usable name, not the same as or a look-alike of a player's or of another row's) and
/// returns the cleaned names, or one problem per bad row, numbered by `line_of`.
fn check_rows(
    conn: &Connection,
    rows: &[NewRow],
    line_of: impl Fn(usize) -> String,
) -> Result<std::result::Result<Vec<String>, Vec<String>>> {
    let mut problems = Vec::new();
    let mut cleaned: Vec<String> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let at = line_of(i);
        match player_names::check_name(conn, &row.name, None)? {
            Err(refusal) => problems.push(format!("{at}{refusal}")),
            Ok(name) => {
                let twin = cleaned.iter().find_map(|c| player_names::same_person(&name, c));
                match twin {
                    Some(player_names::NameRefusal::LookAlike { existing, .. }) => problems
                        .push(format!("{at}\"{name}\" looks the same as \"{existing}\" (letters of another alphabet)")),
                    Some(_) => problems.push(format!("{at}\"{name}\" appears twice")),
                    None => {}
                }
                cleaned.push(name);
            }
        }
    }
    Ok(if problems.is_empty() { Ok(cleaned) } else { Err(problems) })
}

/// Adds players in one transaction; refuses them all if any is bad.
pub fn add_rows(ctx: &Ctx, rows: &[NewRow], verb: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let added = store.write(&actor, |tx| insert_rows(tx, rows, |_| String::new()))?;
    let names: Vec<String> = rows.iter().map(|r| names::clean_name(&r.name).unwrap_or_default()).collect();
    done(
        ctx.format,
        &format!("{verb} {} player{}: {}", added.len(), plural(added.len()), names.join(", ")),
        serde_json::json!({ "added": added }),
    )
}

/// Inserts checked rows inside a transaction (shared by `player add`, `player import` and the demo).
pub fn insert_rows(
    conn: &Connection,
    rows: &[NewRow],
    line_of: impl Fn(usize) -> String,
) -> Result<(Vec<PlayerId>, Change)> {
    if rows.is_empty() {
        return Err(Error::refused("no players given: mmjudge player add NAME..."));
    }
    crate::domain::bounds::players((player::count(conn)? as usize).saturating_add(rows.len()))
        .map_err(Error::Refused)?;
    let cleaned = match check_rows(conn, rows, line_of)? {
        Ok(cleaned) => cleaned,
        Err(problems) => {
            return Err(Error::refused(format!(
                "nothing added: {} bad name{}: {}",
                problems.len(),
                plural(problems.len()),
                problems.join("; ")
            )));
        }
    };
    let current = round::current(conn)?;
    let mut ids = Vec::with_capacity(rows.len());
    for (row, name) in rows.iter().zip(&cleaned) {
        let name = name.as_str();
        let key = names::key(name);
        ids.push(player::insert(
            conn,
            &player::NewPlayer {
                name,
                name_key: &key,
                ext_id: row.ext_id.as_deref().map(str::trim).filter(|s| !s.is_empty()),
                email: row.email.as_deref().map(str::trim).filter(|s| !s.is_empty()),
                joined_round: current + 1,
            },
        )?);
    }
    let late = if current > 0 { format!(" (joining from round {})", current + 1) } else { String::new() };
    let summary = if rows.len() == 1 {
        format!("added player \"{}\"{late}", cleaned[0])
    } else {
        format!("added {} players{late}", rows.len())
    };
    Ok((ids.clone(), Change::about(summary, ids)))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Reads a player CSV (header row; `name` required, `id` and `email` optional), reporting every bad line.
pub fn read_csv(path: &Path) -> Result<Vec<NewRow>> {
    read_csv_counted(path).map(|(rows, _)| rows)
}

/// Like [`read_csv`], also removing control characters from every cell: returns how many were removed.
pub fn read_csv_counted(path: &Path) -> Result<(Vec<NewRow>, usize)> {
    let mut removed = 0usize;
    let mut clean = |cell: &str| {
        let (kept, n) = crate::domain::text::strip(cell, false);
        removed += n;
        kept.trim().to_string()
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .trim(csv::Trim::All)
        .from_path(path)
        .map_err(|e| Error::refused(format!("{}: cannot read: {e}", path.display())))?;
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| Error::refused(format!("{}: cannot read the header row: {e}", path.display())))?
        .iter()
        .map(|h| h.trim().trim_start_matches('\u{feff}').to_lowercase())
        .collect();
    let col = |n: &str| headers.iter().position(|h| h == n);
    let Some(name_col) = col("name") else {
        return Err(Error::refused(format!(
            "{}: no \"name\" column (found: {}): the first line must be a header such as name,id,email",
            path.display(),
            headers.join(", ")
        )));
    };
    let (id_col, email_col) = (col("id"), col("email"));
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        match rec {
            Ok(r) => rows.push(NewRow {
                name: clean(r.get(name_col).unwrap_or("")),
                ext_id: id_col.and_then(|c| r.get(c)).map(&mut clean),
                email: email_col.and_then(|c| r.get(c)).map(&mut clean),
            }),
            Err(e) => problems.push(format!("line {}: {}", i + 2, csv_problem(&e))),
        }
    }
    if !problems.is_empty() {
        return Err(Error::refused(format!("{}: nothing imported: {}", path.display(), problems.join("; "))));
    }
    Ok((rows, removed))
}

/// A CSV reading error in words for a judge (`3 fields where the header has 4`); shared by every import.
pub(crate) fn csv_problem(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields where the header has {expected_len}")
        }
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".into(),
        _ => e.to_string(),
    }
}

fn import(ctx: &Ctx, file: &Path) -> Result<()> {
    let (rows, removed) = read_csv_counted(file)?;
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let shown = file.display().to_string();
    let added = store.write(&actor, |tx| {
        let (ids, mut change) = insert_rows(tx, &rows, |i| format!("line {}: ", i + 2))
            .map_err(|e| Error::refused(format!("{shown}: {e}")))?;
        change.summary = format!("{} from {shown}", change.summary);
        Ok((ids, change))
    })?;
    let cleaned = crate::domain::text::removed_clause(removed);
    done(
        ctx.format,
        &format!("imported {} player{} from {shown}{cleaned}", added.len(), plural(added.len())),
        serde_json::json!({ "added": added, "control_characters_removed": removed }),
    )
}

/// A player's status in words.
pub fn status(p: &player::Player) -> String {
    if p.disqualified {
        "disqualified".into()
    } else if let Some(after) = p.dropped_after {
        if after == 0 { "dropped before round 1".into() } else { format!("dropped after round {after}") }
    } else if p.joined_round > 1 {
        format!("active (joined round {})", p.joined_round)
    } else {
        "active".into()
    }
}

fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let players = player::all(store.conn())?;
    let mut listing = Listing::new(&["#", "name", "id", "email", "status"])
        .titled(crate::domain::words::count(players.len(), "player"));
    let mut doc = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let st = status(p);
        listing.row(vec![
            (i + 1).to_string(),
            p.name.clone(),
            p.ext_id.clone().unwrap_or_default(),
            p.email.clone().unwrap_or_default(),
            st.clone(),
        ]);
        doc.push(serde_json::json!({
            "id": p.id, "name": p.name, "ext_id": p.ext_id, "email": p.email,
            "joined_round": p.joined_round, "dropped_after": p.dropped_after,
            "disqualified": p.disqualified, "status": st,
        }));
    }
    emit(ctx.format, &listing, &serde_json::json!({ "players": doc }))
}

fn set_drop(ctx: &Ctx, query: &str, drop: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let summary = store.write(&actor, |tx| {
        let p = resolve(tx, query)?;
        if p.disqualified {
            return Err(Error::refused(format!("{} is disqualified and cannot be dropped or reinstated", p.name)));
        }
        let summary = match (drop, p.dropped_after) {
            (true, Some(_)) => {
                return Err(Error::refused(format!(
                    "{} has already {}; `player undrop` takes it back",
                    p.name,
                    status(&p)
                )));
            }
            (false, None) => return Err(Error::refused(format!("{} has not dropped", p.name))),
            (true, None) => {
                let current = round::current(tx)?;
                player::set_dropped(tx, p.id, Some(current))?;
                if current == 0 {
                    format!("dropped {} before round 1", p.name)
                } else {
                    format!("dropped {} after round {current} (not paired from round {})", p.name, current + 1)
                }
            }
            (false, Some(_)) => {
                player::set_dropped(tx, p.id, None)?;
                format!("{} is back in the event (paired from the next round)", p.name)
            }
        };
        Ok((summary.clone(), Change::about(summary, [p.id])))
    })?;
    done(ctx.format, &summary, serde_json::json!({}))
}

/// `player remove NAME`: deletes a player entered by mistake (see [`crate::ops::players::remove_player`]).
fn remove(ctx: &Ctx, query: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let p = resolve(store.conn(), query)?;
    let input = crate::ops::players::RemoveInput { player: p.id };
    let removed = crate::ops::players::remove_player(&mut store, &ctx.actor()?, input)?;
    let with = if removed.library_removed { ", with the sealed library registered for them" } else { "" };
    let summary = format!("removed {} from the event{with}", removed.name);
    let doc = serde_json::to_value(&removed).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    done(ctx.format, &summary, doc)
}

fn rename(ctx: &Ctx, old: &str, new: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let summary = store.write(&actor, |tx| {
        let p = resolve(tx, old)?;
        let name = match player_names::check_name(tx, new, Some(p.id))? {
            Ok(name) => name,
            Err(refusal) => return Err(Error::refused(format!("cannot rename {}: {refusal}", p.name))),
        };
        let name = name.as_str();
        let key = names::key(name);
        player::rename(tx, p.id, name, &key)?;
        let summary = format!("renamed \"{}\" to \"{name}\"", p.name);
        Ok((summary.clone(), Change::about(summary, [p.id])))
    })?;
    done(ctx.format, &summary, serde_json::json!({}))
}
