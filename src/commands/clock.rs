//! `time`, `clock` and `decisions`: the round clock per table, the decision clock at a table (live screen or
//! scripted start/stop), the projector page, and decision statistics.
//!
//! Shared here: reading the round clock of the current round and one table's clock from the store.

mod decide;
mod screen;
mod stats;

pub use stats::decisions;

use super::Ctx;
use crate::cli::clock::{ClockArgs, TimeArgs};
use crate::domain::clock::{ClockSettings, TableClock};
use crate::domain::settings::Values;
use crate::error::{Error, Result};
use crate::render::projector::ProjectorPage;
use crate::render::{Listing, done, emit};
use crate::store::clock as store_clock;
use crate::store::matches::Match;
use crate::store::round::Round;
use crate::store::{PlayerId, event, matches, player, round};
use crate::time::{clock_time, stamp, unstamp};
use chrono::{DateTime, Duration, Utc};
use rusqlite::Connection;
use std::collections::HashMap;

/// Runs `clock`: the projector page, a scripted start or stop, or the live screen.
pub fn run(ctx: &Ctx, args: ClockArgs) -> Result<()> {
    if let Some(file) = &args.html {
        return projector(ctx, file, args.force);
    }
    let Some(table) = args.table else {
        return Err(Error::refused("which table? mmjudge clock TABLE (or clock --html FILE for the projector)"));
    };
    if args.cancel {
        return cancel(ctx, table);
    }
    match (&args.start, args.stop) {
        (Some(who), _) => decide::start(ctx, table, who, args.at.as_deref()),
        (None, true) => decide::stop(ctx, table, args.at.as_deref()),
        (None, false) => screen::open(ctx, table),
    }
}

/// `clock TABLE --cancel`: discards the decision running at the table.
fn cancel(ctx: &Ctx, table: u32) -> Result<()> {
    let mut store = ctx.open()?;
    let c = crate::ops::clock::cancel_decision(&mut store, &ctx.actor()?, crate::ops::clock::CancelInput { table })?;
    let since = unstamp(&c.started_at).map(crate::time::confirm_time).unwrap_or_default();
    let summary = format!(
        "table {table} (round {}): cancelled the decision {} started at {since}; nothing is recorded",
        c.round, c.player
    );
    let doc = serde_json::to_value(&c).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    done(ctx.format, &summary, doc)
}

/// The event's time settings.
pub fn clock_settings(values: &Values) -> ClockSettings {
    let n = |k: &str| u32::try_from(values.number(k)).unwrap_or(0);
    ClockSettings {
        round_minutes: n("round-minutes"),
        decision_secs: n("decision-seconds"),
        final_window_minutes: n("final-window-minutes"),
        final_decision_secs: n("final-decision-seconds"),
    }
}

/// The current round, or a refusal when none has been paired.
pub fn current_round(conn: &Connection) -> Result<Round> {
    let number = round::current(conn)?;
    match round::get(conn, number)? {
        Some(r) if number > 0 => Ok(r),
        _ => Err(Error::refused("no round has been paired yet: pair one with `mmjudge round pair`")),
    }
}

/// When a round's clock started, or a refusal naming the command that starts it.
pub fn round_started(r: &Round) -> Result<DateTime<Utc>> {
    match &r.started_at {
        Some(at) => unstamp(at),
        None => Err(Error::refused(format!(
            "round {} has not started: start its clock with `mmjudge round start`",
            r.number
        ))),
    }
}

/// One table's round clock: the round's start, the event's settings and that table's extensions.
pub fn table_clock(conn: &Connection, started: DateTime<Utc>, m: &Match) -> Result<TableClock> {
    table_clock_with(conn, started, m, clock_settings(&event::values(conn)?))
}

/// [`table_clock`] with the event's clock settings already read.
fn table_clock_with(
    conn: &Connection,
    started: DateTime<Utc>,
    m: &Match,
    settings: ClockSettings,
) -> Result<TableClock> {
    let mut clock = TableClock::new(started, settings);
    clock.extend(store_clock::extension_secs(conn, m.id)?);
    Ok(clock)
}

/// An instant for people: local `HH:MM:SS`, with the date when it is not today.
pub fn when(at: DateTime<Utc>) -> String {
    let local = at.with_timezone(&chrono::Local);
    let today = crate::time::now().unwrap_or(at).with_timezone(&chrono::Local).date_naive();
    if local.date_naive() == today {
        local.format("%H:%M:%S").to_string()
    } else {
        local.format("%Y-%m-%d %H:%M:%S").to_string()
    }
}

/// A stored instant for people (see [`when`]); the stored text itself if it cannot be read.
pub fn when_text(stored: &str) -> String {
    unstamp(stored).map(when).unwrap_or_else(|_| stored.to_string())
}

/// Refuses a moment before the round's clock started.
pub fn not_before_start(round: u32, at: DateTime<Utc>, started: DateTime<Utc>) -> Result<()> {
    if at < started {
        return Err(Error::refused(format!(
            "{} is before round {round} started ({}): give a later --at",
            when(at),
            when(started)
        )));
    }
    Ok(())
}

/// Checks a moment given with `--at` for a record in round `round` (see [`crate::time::check_record_moment`]):
/// not more than 2 minutes ahead, not before the event was created, not before the round started.
pub fn check_moment(conn: &Connection, round: u32, at: DateTime<Utc>) -> Result<()> {
    let created = event::get(conn, "created")?.and_then(|c| unstamp(&c).ok());
    let started = round::get(conn, round)?.and_then(|r| r.started_at).map(|s| unstamp(&s)).transpose()?;
    crate::time::check_record_moment(at, crate::time::now()?, created, started.map(|s| (round, s)))
}

/// [`check_moment`] for a record of no particular round (a penalty given away from a table).
pub fn check_event_moment(conn: &Connection, at: DateTime<Utc>) -> Result<()> {
    let created = event::get(conn, "created")?.and_then(|c| unstamp(&c).ok());
    crate::time::check_record_moment(at, crate::time::now()?, created, None)
}

/// Stops the decision still running at a match, if any, at `at` (never before it began), saving its
/// duration, limit and overrun. Returns "Name (12.3 s)" for the message. Used when a round ends and when a
/// match gets its result, so a finished game never leaves a clock running.
pub fn stop_running_decision(conn: &Connection, m: &Match, at: DateTime<Utc>) -> Result<Option<String>> {
    let Some(d) = store_clock::running(conn, m.id)? else { return Ok(None) };
    let Some(started) = round::get(conn, m.round)?.and_then(|r| r.started_at) else { return Ok(None) };
    let begun = unstamp(&d.started_at)?;
    let end = at.max(begun);
    let o = crate::domain::clock::decision_outcome(&table_clock(conn, unstamp(&started)?, m)?, begun, end);
    let ended_at = stamp(end);
    let f = store_clock::FinishedDecision {
        ended_at: &ended_at,
        duration_ms: o.duration_ms,
        limit_ms: o.limit_ms,
        overrun_ms: o.overrun_ms,
    };
    store_clock::finish_decision(conn, d.id, &f)?;
    Ok(Some(format!("{} ({})", name_of(conn, d.player_id)?, secs_text(o.duration_ms))))
}

/// A player's name (for messages).
pub fn name_of(conn: &Connection, id: crate::store::PlayerId) -> Result<String> {
    Ok(player::get(conn, id)?.name)
}

/// A player's name from names already loaded (see `player::names_by_id`), read when missing.
pub fn name_in(conn: &Connection, names: &HashMap<PlayerId, String>, id: PlayerId) -> Result<String> {
    names.get(&id).cloned().map_or_else(|| name_of(conn, id), Ok)
}

/// Milliseconds as seconds with one decimal: `52.3 s`.
pub fn secs_text(ms: i64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// `table 3` or `tables 1, 2, 5`.
pub fn tables_text<T: ToString>(tables: &[T]) -> String {
    let list: Vec<String> = tables.iter().map(ToString::to_string).collect();
    format!("table{} {}", if list.len() == 1 { "" } else { "s" }, list.join(", "))
}

/// `M:SS` of a duration (rounded up, `-` when negative), as on the clock screen.
pub fn clock_text(d: Duration) -> String {
    crate::clock_screen::frame::clock_text(d)
}

/// One table's state at an instant, for `time`.
#[derive(Debug, serde::Serialize)]
struct TableTime {
    table: u32,
    players: Vec<String>,
    started: bool,
    extension_secs: i64,
    extensions: Vec<store_clock::Extension>,
    ends_at: String,
    time_left_ms: i64,
    final_window: bool,
    limit_secs: u32,
    over: bool,
    result: Option<String>,
    deciding: Option<serde_json::Value>,
}

/// The event as every table's line reads it, loaded once per `clock` call.
struct Loaded {
    settings: ClockSettings,
    names: HashMap<PlayerId, String>,
}

impl Loaded {
    fn name(&self, conn: &Connection, id: PlayerId) -> Result<String> {
        name_in(conn, &self.names, id)
    }
}

fn table_time(
    conn: &Connection,
    loaded: &Loaded,
    started: DateTime<Utc>,
    m: &Match,
    at: DateTime<Utc>,
) -> Result<TableTime> {
    let clock = table_clock_with(conn, started, m, loaded.settings)?;
    let mut players = vec![loaded.name(conn, m.a)?];
    if let Some(b) = m.b {
        players.push(loaded.name(conn, b)?);
    }
    let deciding = match store_clock::running(conn, m.id)? {
        Some(d) => Some(serde_json::json!({
            "player": loaded.name(conn, d.player_id)?,
            "started_at": d.started_at,
            "elapsed_ms": (at - unstamp(&d.started_at)?).num_milliseconds(),
        })),
        None => None,
    };
    Ok(TableTime {
        table: m.table.unwrap_or(0),
        players,
        started: at >= started,
        extension_secs: clock.extension_secs,
        extensions: store_clock::extensions(conn, m.id)?,
        ends_at: stamp(clock.end()),
        time_left_ms: clock.time_left(at).num_milliseconds(),
        final_window: clock.in_final_window(at),
        limit_secs: clock.decision_limit_at(at),
        over: clock.is_over(at),
        result: m.outcome.map(|o| o.as_str().to_string()),
        deciding,
    })
}

fn status_text(t: &TableTime, closed: bool) -> String {
    match (&t.result, t.over, t.final_window) {
        (None, _, _) if closed => "no result yet (round closed)".into(),
        (Some(r), _, _) if r == "draw" => "finished (draw)".into(),
        (Some(r), _, _) => format!("finished ({} won)", t.players.get(usize::from(r == "B")).map_or("?", |s| s)),
        (None, _, _) if !t.started => "not started yet".into(),
        (None, true, _) => "TIME: finish the turn, then higher life wins".into(),
        (None, false, true) => "final window".into(),
        (None, false, false) => "playing".into(),
    }
}

fn extensions_text(t: &TableTime) -> String {
    if t.extensions.is_empty() {
        return String::new();
    }
    let reasons: Vec<String> = t
        .extensions
        .iter()
        .map(|e| {
            let void = if e.voided.is_some() { ", void" } else { "" };
            format!("#{} {}{void}", e.id, e.reason)
        })
        .collect();
    format!("+{} ({})", clock_text(Duration::seconds(t.extension_secs)), reasons.join("; "))
}

/// `time`: per table of the current round, the time left with its extensions, the final window, the decision
/// limit in force and whether time is over. After `round end`, the figures are those at the end.
pub fn time(ctx: &Ctx, _args: TimeArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let r = current_round(conn)?;
    let started = round_started(&r)?;
    let ended = r.ended_at.as_deref().map(unstamp).transpose()?;
    let at = match ended {
        Some(t) => t,
        None => ctx.now()?,
    };
    let settings = clock_settings(&event::values(conn)?);
    let loaded = Loaded { settings, names: super::player::names_by_id(conn)? };
    let mut tables = Vec::new();
    for m in matches::of_round(conn, r.number)?.iter().filter(|m| m.table.is_some()) {
        tables.push(table_time(conn, &loaded, started, m, at)?);
    }
    let when = match ended {
        Some(e) => format!("closed at {}", clock_time(e)),
        None => format!("now {}", crate::time::clock_time(at)),
    };
    let mut listing =
        Listing::new(&["table", "players", "time left", "ends", "extensions", "limit", "deciding", "status"]).titled(
            format!(
                "Round {} — started {}, {}; {when}",
                r.number,
                clock_time(started),
                crate::domain::words::count(settings.round_minutes, "minute")
            ),
        );
    for t in &tables {
        let finished = t.result.is_some();
        let dash = |s: String| if finished { "-".to_string() } else { s };
        let deciding = t.deciding.as_ref().map_or(String::new(), |d| {
            let ms = d["elapsed_ms"].as_i64().unwrap_or(0);
            format!("{} {}", d["player"].as_str().unwrap_or("?"), secs_text(ms))
        });
        listing.row(vec![
            t.table.to_string(),
            t.players.join(" – "),
            dash(clock_text(Duration::milliseconds(t.time_left_ms))),
            unstamp(&t.ends_at).map(clock_time).unwrap_or_default(),
            extensions_text(t),
            dash(format!("{} s", t.limit_secs)),
            deciding,
            status_text(t, ended.is_some()),
        ]);
    }
    let over: Vec<String> =
        tables.iter().filter(|t| t.over && t.result.is_none()).map(|t| t.table.to_string()).collect();
    if !over.is_empty() {
        listing.footer.push(format!(
            "Over time: {}. Record each with `mmjudge result TABLE --by time --life A B`.",
            tables_text(&over)
        ));
    }
    let doc = serde_json::json!({
        "round": r.number,
        "started_at": stamp(started),
        "ended_at": r.ended_at,
        "at": stamp(at),
        "settings": settings,
        "tables": tables,
    });
    emit(ctx.format, &listing, &doc)
}

/// The projector page of round `number`, started at `started`, with every table's extensions (`clock --html`
/// and the event's site).
pub fn projector_page(conn: &Connection, number: u32, started: DateTime<Utc>) -> Result<ProjectorPage> {
    let values = event::values(conn)?;
    let mut tables = Vec::new();
    for m in matches::of_round(conn, number)? {
        if let Some(t) = m.table {
            tables.push((t, store_clock::extension_secs(conn, m.id)?));
        }
    }
    Ok(ProjectorPage::new(values.name(), number, started, &clock_settings(&values), &tables))
}

/// `clock --html FILE`: the projector page for the current round.
fn projector(ctx: &Ctx, file: &std::path::Path, force: bool) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let r = current_round(conn)?;
    let started = round_started(&r)?;
    let page = projector_page(conn, r.number, started)?;
    let tables = &page.tables;
    let html = page.render().map_err(|e| Error::refused(format!("cannot render the projector page: {e}")))?;
    crate::output::write(file, crate::output::Kind::Projector, force, html.as_bytes())?;
    let extended = tables.iter().filter(|t| t.1 != 0).count();
    done(
        ctx.format,
        &format!(
            "wrote {} (round {}, started {}; {extended} table{} with extensions): open it in a browser on the projector",
            file.display(),
            r.number,
            clock_time(started),
            if extended == 1 { "" } else { "s" }
        ),
        serde_json::json!({ "file": file.display().to_string(), "round": r.number, "tables_extended": extended }),
    )
}
