//! The event: creating it, showing and changing its settings, and its ban list ([`bans`]).

mod bans;
mod setup;

pub use bans::{BanInput, Banned, ban_card, bans, lift_ban, seed_default_bans};
pub use setup::{NewSetup, SetUp, set_up, set_up_words};

use crate::domain::settings::{self, SETTINGS};
use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::store::file::{self, Found, Replace};
use crate::store::{Actor, Change, Store, Touched, event as store_event, player, round};
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// `event new NAME`: a new event file.
#[derive(Debug, Clone)]
pub struct NewEvent<'a> {
    /// Where the event file goes.
    pub path: &'a Path,
    /// The event's name.
    pub name: &'a str,
    /// Rounds planned.
    pub rounds: u32,
    /// The seed of every random choice (a fresh one when None).
    pub seed: Option<u64>,
    /// Replace an event already at `path`.
    pub force: bool,
    /// Keep a replaced event beside the new one (false: the demo replacing its own event).
    pub keep: bool,
}

/// A new event file and what became of the file that was there.
pub struct Created {
    /// The new event.
    pub store: Store,
    /// Where an event that was at the path was kept (`event new --force`).
    pub kept: Option<PathBuf>,
    /// The event's name as stored.
    pub name: String,
    /// Rounds planned.
    pub rounds: i64,
    /// The event's seed.
    pub seed: u64,
}

/// Creates a new event file with default settings: the schema, the settings, the ban list, the watch list
/// and the first audit entry in one transaction, in a file built under a temporary name and renamed into
/// place once complete. An empty file, or one an interrupted `event new` left, is replaced; a real event
/// only with `force`, and it is kept beside the new one unless `keep` is false.
pub fn create(actor: &Actor, input: NewEvent) -> Result<Created> {
    let name = input.name.trim();
    if name.is_empty() {
        return Err(crate::error::Refusal::bad_input("the event needs a name")
            .way_out(crate::error::WayOut::Example(crate::error::Example::EventName))
            .into());
    }
    crate::domain::text::check("the event's name", name, false).map_err(Error::BadInput)?;
    crate::domain::bounds::text_length("the event's name", name, crate::domain::bounds::MAX_EVENT_NAME_CHARS)
        .map_err(Error::BadInput)?;
    let rounds_setting = settings::find("rounds").map_err(|e| Error::bad_input(e.0))?;
    let rounds = settings::normalize(rounds_setting, &input.rounds.to_string()).map_err(|e| Error::bad_input(e.0))?;
    let replace = make_room(input.path, input.force, input.keep, actor.at)?;
    let seed = input.seed.unwrap_or_else(fresh_seed);
    let created = crate::time::stamp(actor.at);
    let store = Store::create(input.path, actor, &replace, |tx| {
        for s in SETTINGS {
            store_event::set(tx, s.key, s.default)?;
        }
        store_event::set(tx, "name", name)?;
        store_event::set(tx, "created", &created)?;
        store_event::set(tx, "date", &actor.at.with_timezone(&chrono::Local).format("%Y-%m-%d").to_string())?;
        store_event::set(tx, "rounds", &rounds)?;
        store_event::set(tx, "seed", &seed.to_string())?;
        seed_default_bans(tx)?;
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
    let values = store_event::values(store.conn())?;
    let (name, rounds, seed) = (values.name().to_string(), values.number("rounds"), values.seed());
    Ok(Created { store, kept, name, rounds, seed })
}

/// Decides what happens to the file at `path`: nothing there, an empty file or an unfinished event go; a
/// real event needs `force` and is kept (unless `keep` is false); anything else is refused.
fn make_room(path: &Path, force: bool, keep: bool, at: chrono::DateTime<chrono::Utc>) -> Result<Replace> {
    match file::inspect(path)? {
        Found::Nothing | Found::Unfinished => Ok(Replace::Discard),
        Found::NotEvent(e) => Err(e),
        Found::Event(name) if !force => {
            let what = format!("{} already holds the event \"{name}\"", path.display());
            Err(crate::error::Refusal::refused(what).way_out(crate::error::WayOut::OtherFileOrReplace).into())
        }
        Found::Event(_) if keep => Ok(Replace::Keep(file::kept_name(path, at))),
        Found::Event(_) => Ok(Replace::Discard),
    }
}

/// `serve --new`: the file at `path` may become a new event (nothing there, an empty file, or one an interrupted
/// creation left); a real event, or a file that is not one, is refused.
pub fn ready_for_new(path: &Path) -> Result<()> {
    match file::inspect(path)? {
        Found::Nothing | Found::Unfinished => Ok(()),
        Found::NotEvent(e) => Err(e),
        Found::Event(name) => {
            let what = format!("{} already holds the event \"{name}\"", path.display());
            Err(crate::error::Refusal::refused(what).way_out(crate::error::WayOut::ServeAsItIs).into())
        }
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

/// The event and its settings (`event show`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct EventView {
    /// The event's name.
    pub name: String,
    /// When it was created (RFC 3339).
    pub created: String,
    /// Players in the event.
    pub players: usize,
    /// The round paired last (0 before round 1).
    pub current_round: u32,
    /// Rounds planned.
    #[serde(skip)]
    pub rounds: String,
    /// Every setting, in the settings' order: its value by key.
    #[serde(serialize_with = "settings_map")]
    pub settings: Vec<SettingView>,
}

/// One setting of the event.
#[derive(Debug, Clone)]
pub struct SettingView {
    /// The key typed after `event set`.
    pub key: &'static str,
    /// Its value.
    pub value: String,
    /// What it means.
    pub help: &'static str,
}

fn settings_map<S: serde::Serializer>(all: &[SettingView], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_map(all.iter().map(|x| (x.key, x.value.as_str())))
}

/// `event show`: the event's name, size, progress and every setting.
pub fn show(conn: &Connection) -> Result<EventView> {
    let values = store_event::values(conn)?;
    let players = player::all(conn)?.len();
    let current_round = round::current(conn)?;
    let settings = SETTINGS
        .iter()
        .map(|s| {
            let value = if s.key == "date" { values.date() } else { values.text(s.key) };
            SettingView { key: s.key, value: value.to_string(), help: s.help }
        })
        .collect();
    Ok(EventView {
        name: values.name().to_string(),
        created: values.text("created").to_string(),
        players,
        current_round,
        rounds: values.text("rounds").to_string(),
        settings,
    })
}

/// `event set KEY VALUE [--force]`, checked for form by [`SetInput::new`].
#[derive(Debug, Clone)]
pub struct SetInput {
    /// The setting.
    pub setting: &'static settings::Setting,
    /// The value, normalized.
    pub value: String,
    /// Change it even while it would change a round in play.
    pub force: bool,
}

impl SetInput {
    /// The setting a typed key names and the typed value in its normal form, or why not.
    pub fn new(key: &str, value: &str, force: bool) -> Result<SetInput> {
        let setting = settings::find(key).map_err(|e| Error::not_found(e.0))?;
        let value = settings::normalize(setting, value).map_err(|e| Error::bad_input(e.0))?;
        Ok(SetInput { setting, value, force })
    }
}

/// A changed setting.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SettingChanged {
    /// The setting's key.
    pub key: &'static str,
    /// The value before.
    #[serde(skip)]
    pub old: String,
    /// The value now.
    pub value: String,
    /// What the change does to the round in play (changed with `force`), in words.
    #[serde(skip)]
    pub in_play: Option<String>,
}

/// The audit line and the command's answer: "round-minutes: 50 -> 45".
pub fn setting_changed_words(c: &SettingChanged) -> String {
    changed_with(c, "with --force")
}

/// "key: old -> new" ("key: value (unchanged)" when it was already so), and how a change to the round in play
/// was forced (`forced`) with what it does there.
fn changed_with(c: &SettingChanged, forced: &str) -> String {
    let mut summary = if c.old == c.value {
        format!("{}: {} (unchanged)", c.key, c.value)
    } else {
        format!("{}: {} -> {}", c.key, c.old, c.value)
    };
    if let Some(change) = &c.in_play {
        summary.push_str(&format!(" ({forced}: {change})"));
    }
    summary
}

/// Changes one setting, refusing a value out of bounds, settings that do not fit together, a change of
/// libraries once round 1 is paired, and (unless `force`) a change to the round in play.
pub fn set(store: &mut Store, actor: &Actor, input: SetInput) -> Result<SettingChanged> {
    let SetInput { setting, value, force } = input;
    store.write(actor, |tx| {
        let mut values = store_event::values(tx)?;
        let old = if setting.key == "date" { values.date() } else { values.text(setting.key) }.to_string();
        if setting.key == "libraries" && old != value && round::current(tx)? >= 1 {
            let what = format!(
                "the libraries are locked: round 1 is paired with {old} libraries, so they cannot become {value}"
            );
            let out = WayOut::Unpair(crate::error::Unpair::Libraries);
            return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
        }
        if setting.key == "rounds" {
            let paired = round::current(tx)?;
            if value.parse::<u32>().is_ok_and(|n| n < paired) {
                let what = format!(
                    "{} already paired, so the event cannot have fewer: set rounds to {paired} or more",
                    if paired == 1 { "1 round is".to_string() } else { format!("{paired} rounds are") }
                );
                let out = WayOut::Unpair(crate::error::Unpair::FewerRounds { round: paired });
                return Err(Refusal::refused(what).way_out_after(crate::error::Join::Comma, out).into());
            }
        }
        let in_play = crate::ops::settings::mid_round_change(tx, setting.key, &old, &value)?;
        if let Some(change) = &in_play
            && !force
        {
            let out =
                WayOut::ForceSetting { round: round::current(tx)?, key: setting.key.into(), value: value.clone() };
            return Err(Refusal::refused(change.clone()).way_out_after(crate::error::Join::Semicolon, out).into());
        }
        values.0.insert(setting.key.into(), value.clone());
        settings::check_together(|k| values.number(k)).map_err(|e| Error::refused(e.0))?;
        store_event::set(tx, setting.key, &value)?;
        let changed = SettingChanged { key: setting.key, old, value, in_play };
        let summary = setting_changed_words(&changed);
        Ok((changed, Change::new(summary).touching(Touched::event(Topic::Round))))
    })
}

/// What every printed page repeats at its top (see `render::pages::PrintHead`): the event's name, its day
/// and the round paired last (0 before round 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintHead {
    /// The event's name.
    pub event: String,
    /// The day of the event (`YYYY-MM-DD`).
    pub date: String,
    /// The round paired last (0 before round 1).
    pub round: u32,
}

/// The event's print head as things stand.
pub fn print_head(conn: &Connection) -> Result<PrintHead> {
    let values = store_event::values(conn)?;
    Ok(PrintHead { event: values.name().to_string(), date: values.date().to_string(), round: round::current(conn)? })
}
