//! One module per command group: short glue between the command line, the store, the domain and the
//! renderers.

pub mod ban;
pub mod call;
pub mod card_show;
pub mod cards;
pub mod challenge;
pub mod clock;
pub mod corrections;
pub mod demo;
pub mod event;
pub mod history;
#[cfg(test)]
mod input_props;
pub mod judge;
pub mod library;
pub mod log;
pub mod movement;
pub mod note_sheet;
pub mod notes;
pub mod open;
pub mod pairings;
pub mod penalty;
pub mod player;
pub mod pool;
pub mod report;
pub mod result;
pub mod round;
pub mod round_clock;
pub mod rules;
pub mod serve;
pub mod site;
pub mod standby;
pub mod standings;

use crate::cli::round::RoundCmd;
use crate::cli::{Cli, Command};
use crate::error::Result;
use crate::render::Format;
use crate::store::{Actor, Store};
use chrono::{DateTime, Utc};
use std::path::PathBuf;

/// What every command knows: where the event is, who is judging, how to print, what was typed.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The event file.
    pub db: PathBuf,
    /// The judge for the audit log.
    pub judge: String,
    /// Output format.
    pub format: Format,
    /// The command line as typed (for the audit log).
    pub command_line: String,
    /// A fixed "now" (the demo's simulated clock); None = the real or `MMJUDGE_NOW` instant.
    pub now: Option<DateTime<Utc>>,
}

impl Ctx {
    /// Builds the context from the parsed command line and the process's arguments.
    pub fn from_cli(cli: &Cli, args: &[String]) -> Ctx {
        let db = cli.db.clone().unwrap_or_else(|| PathBuf::from("mmjudge.db"));
        let judge = cli
            .judge
            .clone()
            .filter(|j| !j.trim().is_empty())
            .or_else(|| std::env::var("USER").ok())
            .or_else(|| std::env::var("USERNAME").ok())
            .unwrap_or_else(|| "judge".into());
        let format = if cli.json {
            Format::Json
        } else if cli.csv {
            Format::Csv
        } else {
            Format::Human
        };
        let shown = std::iter::once("mmjudge").chain(args.iter().skip(1).map(String::as_str));
        let command_line = shown.map(quote_arg).collect::<Vec<_>>().join(" ");
        Ctx { db, judge, format, command_line, now: None }
    }

    /// Opens the event file.
    pub fn open(&self) -> Result<Store> {
        Store::open(&self.db)
    }

    /// Now: the context's fixed instant, else `MMJUDGE_NOW`, else the clock.
    pub fn now(&self) -> Result<DateTime<Utc>> {
        match self.now {
            Some(t) => Ok(t),
            None => crate::time::now(),
        }
    }

    /// Parses an `--at` value (RFC 3339, or HH:MM today), or returns now when none was given.
    pub fn at(&self, at: Option<&str>) -> Result<DateTime<Utc>> {
        let now = self.now()?;
        match at {
            Some(text) => crate::time::parse_at(text, now),
            None => Ok(now),
        }
    }

    /// The actor for a write happening now (or at the injected now).
    pub fn actor(&self) -> Result<Actor> {
        Ok(self.actor_at(self.now()?))
    }

    /// The actor for a write stamped at `at`.
    pub fn actor_at(&self, at: DateTime<Utc>) -> Actor {
        Actor { judge: self.judge.clone(), command_line: self.command_line.clone(), at, via: "cli".into(), claim: None }
    }
}

fn quote_arg(a: &str) -> String {
    if !a.is_empty() && a.chars().all(|c| c.is_alphanumeric() || "-_./:=,+@".contains(c)) {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// Runs one parsed command.
pub fn dispatch(cli: Cli, ctx: &Ctx) -> Result<()> {
    crate::domain::text::check("the judge's name (--judge or MMJUDGE_JUDGE)", &ctx.judge, false)
        .map_err(crate::error::Error::BadInput)?;
    // Under `serve --standby-required`, a write typed on the primary waits for the second laptop as the server's do.
    let waits = !matches!(cli.command, Command::Serve(_) | Command::Open(_) | Command::Standby(_) | Command::Demo(_));
    let before = if waits { crate::ops::standby::sync::before_write(&ctx.db) } else { None };
    run(cli, ctx)?;
    standby::wait_for_the_second_laptop(ctx, before);
    Ok(())
}

fn run(cli: Cli, ctx: &Ctx) -> Result<()> {
    let db_given = cli.db;
    match cli.command {
        Command::Event(cmd) => event::run(ctx, cmd),
        Command::Player(crate::cli::player::PlayerCmd::History { name }) => history::run(ctx, &name),
        Command::Player(cmd) => player::run(ctx, cmd),
        Command::Cards(cmd) => match cards::run(ctx, cmd)? {
            Some(texts) => card_show::run(ctx, texts),
            None => Ok(()),
        },
        Command::Ban(cmd) => ban::run(ctx, cmd),
        Command::Rules(args) => rules::run(ctx, &args),
        Command::Time(args) => clock::time(ctx, args),
        Command::Clock(args) => clock::run(ctx, args),
        Command::Decisions(args) => clock::decisions(ctx, args),
        Command::Result(args) => result::run(ctx, args),
        Command::Results(args) => result::results(ctx, &args),
        Command::Note(args) => notes::run(ctx, args),
        Command::Notes(args) => note_sheet::sheet(ctx, &args),
        Command::Challenge(cmd) => challenge::run(ctx, cmd),
        Command::Challenges(args) => challenge::list(ctx, &args),
        Command::Penalty(cmd) => penalty::run(ctx, cmd),
        Command::Penalties(args) => penalty::list(ctx, &args),
        Command::Ruling(cmd) => penalty::ruling(ctx, cmd),
        Command::Rulings(args) => corrections::rulings(ctx, &args),
        Command::Stall(cmd) => corrections::stall(ctx, cmd),
        Command::Stalls(args) => corrections::stalls(ctx, &args),
        Command::Pool(cmd) => pool::run(ctx, cmd),
        Command::Library(cmd) => library::run(ctx, cmd),
        Command::Round(RoundCmd::Start { at, now }) => round_clock::start(ctx, at.as_deref(), now),
        Command::Round(RoundCmd::End { at, force }) => round_clock::end(ctx, at.as_deref(), force),
        Command::Round(RoundCmd::Reopen) => round_clock::reopen(ctx),
        Command::Round(RoundCmd::Extend(cmd)) => corrections::extend(ctx, cmd),
        Command::Round(cmd) => round::run(ctx, cmd),
        Command::Pairings(args) => pairings::run(ctx, args),
        Command::Movement(cmd) => movement::run(ctx, cmd),
        Command::Log(args) => log::run(ctx, args),
        Command::Backup(args) => backup(ctx, &args.file, args.force),
        Command::Standings(args) => standings::run(ctx, args),
        Command::Report(cmd) => report::run(ctx, cmd),
        Command::Site(args) => site::run(ctx, args),
        Command::Demo(args) => demo::run(ctx, args),
        Command::Judge(cmd) => judge::run(ctx, cmd),
        Command::Serve(args) => serve::run(ctx, &args),
        Command::Open(args) => open::run(ctx, db_given, &args),
        Command::Standby(cmd) => standby::run(ctx, cmd),
        Command::Call(cmd) => call::run(ctx, cmd),
    }
}

fn backup(ctx: &Ctx, dest: &std::path::Path, force: bool) -> Result<()> {
    crate::output::check(dest, crate::output::Kind::Backup, force)?;
    let store = ctx.open()?;
    store.backup(dest)?;
    crate::render::done(
        ctx.format,
        &format!("backed up {} to {}", ctx.db.display(), dest.display()),
        serde_json::json!({ "file": dest.display().to_string() }),
    )
}
