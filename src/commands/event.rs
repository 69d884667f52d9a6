//! `event`: create the event, show and change its settings.

use super::Ctx;
use crate::cli::event::EventCmd;
use crate::domain::settings::{self, SETTINGS};
use crate::error::{Error, Result};
use crate::render::{Listing, done, emit};
use crate::store::file::{self, Found, Replace};
use crate::store::{Change, Store, event as store_event, player, round};
use std::path::{Path, PathBuf};

/// Runs an `event` verb.
pub fn run(ctx: &Ctx, cmd: EventCmd) -> Result<()> {
    match cmd {
        EventCmd::New { name, rounds, seed, force } => new(ctx, &name, rounds, seed, force),
        EventCmd::Show => show(ctx),
        EventCmd::Set { key, value, force } => set(ctx, &key, &value, force),
    }
}

/// A new event file and what became of the file that was there.
pub struct Created {
    /// The new event.
    pub store: Store,
    /// Where an event that was at the path was kept (`event new --force`).
    pub kept: Option<PathBuf>,
}

/// Creates a new event file with default settings (used by `event new` and `demo`): the schema, the
/// settings, the ban list, the watch list and the first audit entry in one transaction, in a file built
/// under a temporary name and renamed into place once complete. An empty file, or one an interrupted
/// `event new` left, is replaced; a real event only with `force`, and it is kept beside the new one unless
/// `keep` is false (the demo replacing its own event).
pub fn create(ctx: &Ctx, name: &str, rounds: u32, seed: Option<u64>, force: bool, keep: bool) -> Result<Created> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::refused("the event needs a name: mmjudge event new \"Spring Mental Magic Open\""));
    }
    crate::domain::text::check("the event's name", name, false).map_err(Error::Refused)?;
    let rounds_setting = settings::find("rounds").map_err(|e| Error::refused(e.0))?;
    let rounds = settings::normalize(rounds_setting, &rounds.to_string()).map_err(|e| Error::refused(e.0))?;
    let actor = ctx.actor()?;
    let replace = make_room(&ctx.db, force, keep, actor.at)?;
    let seed = seed.unwrap_or_else(fresh_seed);
    let created = crate::time::stamp(actor.at);
    let store = Store::create(&ctx.db, &actor, &replace, |tx| {
        for s in SETTINGS {
            store_event::set(tx, s.key, s.default)?;
        }
        store_event::set(tx, "name", name)?;
        store_event::set(tx, "created", &created)?;
        store_event::set(tx, "rounds", &rounds)?;
        store_event::set(tx, "seed", &seed.to_string())?;
        super::ban::seed_defaults(tx)?;
        crate::ops::pool::seed_watch_defaults(tx)?;
        Ok(Change::new(format!(
            "created event \"{name}\": {}, seed {seed}",
            crate::domain::words::count(rounds.parse::<i64>().unwrap_or(0), "round")
        )))
    })?;
    let kept = match replace {
        Replace::Keep(path) => Some(path),
        Replace::Discard => None,
    };
    Ok(Created { store, kept })
}

fn new(ctx: &Ctx, name: &str, rounds: u32, seed: Option<u64>, force: bool) -> Result<()> {
    let Created { store, kept } = create(ctx, name, rounds, seed, force, true)?;
    let values = store_event::values(store.conn())?;
    let kept_text =
        kept.as_ref().map(|k| format!("; the event that was there is kept as {}", k.display())).unwrap_or_default();
    done(
        ctx.format,
        &format!(
            "created event \"{}\" in {} ({}, seed {}){kept_text}",
            values.name(),
            ctx.db.display(),
            crate::domain::words::count(values.number("rounds"), "round"),
            values.seed()
        ),
        serde_json::json!({ "file": ctx.db.display().to_string(), "seed": values.seed(),
                            "kept": kept.map(|k| k.display().to_string()) }),
    )
}

/// Decides what happens to the file at `path`: nothing there, an empty file or an unfinished event go; a
/// real event needs `force` and is kept (unless `keep` is false); anything else is refused.
fn make_room(path: &Path, force: bool, keep: bool, at: chrono::DateTime<chrono::Utc>) -> Result<Replace> {
    match file::inspect(path)? {
        Found::Nothing | Found::Unfinished => Ok(Replace::Discard),
        Found::NotEvent(e) => Err(e),
        Found::Event(name) if !force => Err(Error::refused(format!(
            "{} already holds the event \"{name}\": use another --db file, or --force to replace it (the old event is kept beside it)",
            path.display()
        ))),
        Found::Event(_) if keep => Ok(Replace::Keep(file::kept_name(path, at))),
        Found::Event(_) => Ok(Replace::Discard),
    }
}

/// A seed for a new event: nine digits a judge can write down, from the clock and the process id.
fn fresh_seed() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0);
    let mut x = nanos ^ (u64::from(std::process::id()) << 32) ^ 0x9e37_79b9_7f4a_7c15;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x % 1_000_000_000
}

fn show(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let values = store_event::values(conn)?;
    let players = player::all(conn)?;
    let current = round::current(conn)?;
    let mut listing = Listing::new(&["setting", "value", "meaning"]).titled(format!(
        "{} — {}, round {} of {}",
        values.name(),
        crate::domain::words::count(players.len(), "player"),
        current,
        values.text("rounds")
    ));
    let mut doc = serde_json::Map::new();
    for s in SETTINGS {
        listing.row(vec![s.key.into(), values.text(s.key).into(), s.help.into()]);
        doc.insert(s.key.into(), serde_json::Value::String(values.text(s.key).into()));
    }
    listing
        .footer
        .push(format!("created {}; change a setting with `mmjudge event set KEY VALUE`", values.text("created")));
    emit(
        ctx.format,
        &listing,
        &serde_json::json!({
            "name": values.name(),
            "created": values.text("created"),
            "players": players.len(),
            "current_round": current,
            "settings": doc,
        }),
    )
}

fn set(ctx: &Ctx, key: &str, value: &str, force: bool) -> Result<()> {
    let setting = settings::find(key).map_err(|e| Error::refused(e.0))?;
    let value = settings::normalize(setting, value).map_err(|e| Error::refused(e.0))?;
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let summary = store.write(&actor, |tx| {
        let mut values = store_event::values(tx)?;
        let old = values.text(setting.key).to_string();
        if setting.key == "libraries" && old != value && round::current(tx)? >= 1 {
            return Err(Error::refused(format!(
                "the libraries are locked: round 1 is paired with {old} libraries, so they cannot become {value}; \
                 take the rounds back with `mmjudge round unpair` first"
            )));
        }
        let in_play = crate::ops::settings::mid_round_change(tx, setting.key, &old, &value)?;
        if let Some(change) = &in_play
            && !force
        {
            return Err(Error::refused(format!(
                "{change}; to change {} now anyway: `mmjudge event set {} {value} --force`",
                setting.key, setting.key
            )));
        }
        values.0.insert(setting.key.into(), value.clone());
        settings::check_together(|k| values.number(k)).map_err(|e| Error::refused(e.0))?;
        store_event::set(tx, setting.key, &value)?;
        let mut summary = format!("{}: {old} -> {value}", setting.key);
        if let Some(change) = in_play {
            summary.push_str(&format!(" (with --force: {change})"));
        }
        Ok((summary.clone(), Change::new(summary)))
    })?;
    done(ctx.format, &summary, serde_json::json!({ "key": setting.key, "value": value }))
}
