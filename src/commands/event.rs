//! `event`: create the event, show and change its settings (see [`crate::ops::event`]).

use super::Ctx;
use crate::cli::event::EventCmd;
use crate::error::Result;
use crate::ops::event::{self as ops_event, NewEvent, SetInput};
use crate::render::{Listing, done, emit};

pub use crate::ops::event::Created;

/// Runs an `event` verb.
pub fn run(ctx: &Ctx, cmd: EventCmd) -> Result<()> {
    match cmd {
        EventCmd::New { name, rounds, seed, force } => new(ctx, &name, rounds, seed, force),
        EventCmd::Show => show(ctx),
        EventCmd::Set { key, value, force } => set(ctx, key, value, force),
    }
}

/// Creates a new event file at `ctx.db` with default settings (see [`crate::ops::event::create`]).
fn create(ctx: &Ctx, name: &str, rounds: u32, seed: Option<u64>, force: bool, keep: bool) -> Result<Created> {
    let input = NewEvent { path: &ctx.db, name, rounds, seed, force, keep };
    ops_event::create(&ctx.actor()?, input)
}

fn new(ctx: &Ctx, name: &str, rounds: u32, seed: Option<u64>, force: bool) -> Result<()> {
    let created = create(ctx, name, rounds, seed, force, true)?;
    let kept = created.kept;
    let kept_text =
        kept.as_ref().map(|k| format!("; the event that was there is kept as {}", k.display())).unwrap_or_default();
    done(
        ctx.format,
        &format!(
            "created event \"{}\" in {} ({}, seed {}){kept_text}",
            created.name,
            ctx.db.display(),
            crate::domain::words::count(created.rounds, "round"),
            created.seed
        ),
        serde_json::json!({ "file": ctx.db.display().to_string(), "seed": created.seed,
                            "kept": kept.map(|k| k.display().to_string()) }),
    )
}

fn show(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let view = ops_event::show(&snapshot)?;
    let mut listing = Listing::new(&["setting", "value", "meaning"]).titled(format!(
        "{} — {}, round {} of {}",
        view.name,
        crate::domain::words::count(view.players, "player"),
        view.current_round,
        view.rounds
    ));
    for s in &view.settings {
        listing.row(vec![s.key.into(), s.value.clone(), s.help.into()]);
    }
    listing.footer.push(format!("created {}; change a setting with `mmjudge event set KEY VALUE`", view.created));
    emit(ctx.format, &listing, &view)
}

fn set(ctx: &Ctx, key: String, value: String, force: bool) -> Result<()> {
    let input = SetInput::new(&key, &value, force)?;
    let mut store = ctx.open()?;
    let changed = ops_event::set(&mut store, &ctx.actor()?, input)?;
    let summary = ops_event::setting_changed_words(&changed);
    done(ctx.format, &summary, serde_json::json!({ "key": changed.key, "value": changed.value }))
}
