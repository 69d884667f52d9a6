//! `time`, `clock` and `decisions`: the round clock per table, the decision clock at a table (live screen or
//! scripted start/stop), the projector page, and decision statistics.
//! The clocks' rules and reads are in `ops::table::clocks::clock`.

mod decide;
mod screen;
mod stats;

pub use stats::decisions;

use super::Ctx;
use crate::cli::clock::{ClockArgs, TimeArgs};
use crate::error::{Error, Result};
use crate::ops::round::time::{TableTime, round_times};
use crate::ops::table::clocks::clock::{clock_text, secs_text, tables_text};
use crate::render::projector::ProjectorPage;
use crate::render::{Listing, done, emit};
use crate::time::{clock_time, unstamp};
use chrono::Duration;

/// Runs `clock`: the projector page, a scripted start or stop, or the live screen.
pub fn run(ctx: &Ctx, args: ClockArgs) -> Result<()> {
    if let Some(file) = &args.html {
        return projector(ctx, file, args.force);
    }
    let Some(table) = args.table else {
        return Err(Error::bad_input("which table? mmjudge clock TABLE (or clock --html FILE for the projector)"));
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
    let c = crate::ops::table::clocks::clock::cancel_decision(
        &mut store,
        &ctx.actor()?,
        crate::ops::table::clocks::clock::CancelInput { table },
    )?;
    let since = unstamp(&c.started_at).map(crate::time::confirm_time).unwrap_or_default();
    let summary = format!(
        "table {table} (round {}): cancelled the decision {} started at {since}; nothing is recorded",
        c.round, c.player
    );
    let doc = serde_json::to_value(&c).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    done(ctx.format, &summary, doc)
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
    let view = round_times(&snapshot, ctx.now()?)?;
    let at = unstamp(&view.at)?;
    let Some(started) = view.started_at.as_deref().map(unstamp).transpose()? else {
        let title = format!(
            "Round {} — closed at {} without its clock having run: every table has a result",
            view.round,
            clock_time(at)
        );
        return emit(ctx.format, &Listing::new(&["table", "status"]).titled(title), &view);
    };
    let closed = view.ended_at.is_some();
    let when = if closed { format!("closed at {}", clock_time(at)) } else { format!("now {}", clock_time(at)) };
    let title = match view.inspection_left_ms {
        Some(left) => format!(
            "Round {} — deck inspection, {} left; the round's clock starts {}, {}; {when}",
            view.round,
            clock_text(Duration::milliseconds(left)),
            clock_time(started),
            crate::domain::words::count(view.settings.round_minutes, "minute")
        ),
        None => format!(
            "Round {} — {} {}, {}; {when}",
            view.round,
            if started > at { "starts" } else { "started" },
            clock_time(started),
            crate::domain::words::count(view.settings.round_minutes, "minute")
        ),
    };
    let mut listing =
        Listing::new(&["table", "players", "time left", "ends", "extensions", "limit", "deciding", "status"])
            .titled(title);
    for t in &view.tables {
        let finished = t.result.is_some();
        let dash = |s: String| if finished { "-".to_string() } else { s };
        let deciding =
            t.deciding.as_ref().map_or(String::new(), |d| format!("{} {}", d.player, secs_text(d.elapsed_ms)));
        listing.row(vec![
            t.table.to_string(),
            t.players.join(" – "),
            dash(clock_text(Duration::milliseconds(t.time_left_ms))),
            unstamp(&t.ends_at).map(clock_time).unwrap_or_default(),
            extensions_text(t),
            dash(format!("{} s", t.limit_secs)),
            deciding,
            status_text(t, closed),
        ]);
    }
    let over: Vec<String> =
        view.tables.iter().filter(|t| t.over && t.result.is_none()).map(|t| t.table.to_string()).collect();
    if !over.is_empty() {
        listing.footer.push(format!(
            "Over time: {}. Record each with `mmjudge result TABLE --by time --life A B`.",
            tables_text(&over)
        ));
    }
    emit(ctx.format, &listing, &view)
}

/// `clock --html FILE`: the projector page for the current round.
fn projector(ctx: &Ctx, file: &std::path::Path, force: bool) -> Result<()> {
    let store = ctx.open()?;
    let (number, started, f) = crate::ops::views::projector_clock(&store)?;
    let page =
        ProjectorPage::new(&f.event, number, started, &f.settings, &f.tables).with_inspection(f.inspection_minutes);
    let tables = &page.tables;
    let html = page.render().map_err(|e| Error::refused(format!("cannot render the projector page: {e}")))?;
    crate::output::write(file, crate::output::Kind::Projector, force, html.as_bytes())?;
    let extended = tables.iter().filter(|t| t.1 != 0).count();
    done(
        ctx.format,
        &format!(
            "wrote {} (round {}, started {}; {extended} table{} with extensions): open it in a browser on the projector",
            file.display(),
            number,
            clock_time(started),
            if extended == 1 { "" } else { "s" }
        ),
        serde_json::json!({ "file": file.display().to_string(), "round": number, "tables_extended": extended }),
    )
}
