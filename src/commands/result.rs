//! `result`, `result fix` and `results`: a match's result at a table, its correction, the round's tables.
//! The rules are in `ops::table::records::result`; this module reads the command line, calls them and prints.

use super::Ctx;
use crate::cli::result::{RecordArgs, ResultArgs, ResultSub, ResultsArgs};
use crate::domain::result::Reason;
use crate::error::{Error, Result};
use crate::ops::corrections::ClearInput;
use crate::ops::table::hhmm;
use crate::ops::table::records::result::{ResultInput, fix_result, record_result, round_results};
use crate::render::{Listing, done, done_with, emit};
use crate::store::matches::Outcome;

/// Runs `result` (or `result fix`, `result clear`).
pub fn run(ctx: &Ctx, args: ResultArgs) -> Result<()> {
    match args.fix {
        Some(ResultSub::Fix { record, force }) => fix(ctx, &record, force),
        Some(ResultSub::Clear { table, round, force }) => clear(ctx, ClearInput { table, round, force }),
        Some(ResultSub::Reports { round }) => reports(ctx, round),
        None => record(ctx, &args.record),
    }
}

/// A typed result, read before the store is opened (`at` is read by the caller).
fn read(args: &RecordArgs) -> Result<ResultInput> {
    let table = args.table.ok_or_else(|| Error::bad_input("which table? mmjudge result TABLE WINNER --by REASON"))?;
    let reason = Reason::parse(args.reason.as_deref().unwrap_or_default()).map_err(Error::bad_input)?;
    let life = match args.life.as_deref() {
        Some([a, b]) => Some((*a, *b)),
        Some(_) => return Err(Error::bad_input("--life takes two totals: seat A's, then seat B's")),
        None => None,
    };
    Ok(ResultInput {
        table,
        round: args.round,
        winner: args.winner.clone(),
        reason,
        life,
        note: args.note.clone(),
        at: None,
        turn: args.turn,
    })
}

fn record(ctx: &Ctx, args: &RecordArgs) -> Result<()> {
    let mut input = read(args)?;
    input.at = args.at.as_deref().map(|a| ctx.at(Some(a))).transpose()?;
    let mut store = ctx.open()?;
    let out = record_result(&mut store, &ctx.actor()?, input)?;
    done_with(ctx.format, &out.summary, &out)
}

fn fix(ctx: &Ctx, args: &RecordArgs, force: bool) -> Result<()> {
    let mut input = read(args)?;
    input.at = args.at.as_deref().map(|a| ctx.at(Some(a))).transpose()?;
    let mut store = ctx.open()?;
    let out = fix_result(&mut store, &ctx.actor()?, input, force)?;
    done_with(ctx.format, &out.summary, &out)
}

/// `result clear TABLE [--round N] [--force]`.
fn clear(ctx: &Ctx, input: ClearInput) -> Result<()> {
    let mut store = ctx.open()?;
    let out = crate::ops::corrections::clear_result(&mut store, &ctx.actor()?, input)?;
    let r = &out.reopened;
    let doc = serde_json::json!({
        "round": r.round, "table": r.table, "match": r.match_id, "was": r.was, "later_rounds": out.later_rounds,
        "standings_moved": out.standings_moved,
    });
    done(ctx.format, &out.summary, doc)
}

/// Prints the round's tables with their results and the ones still playing.
pub fn results(ctx: &Ctx, args: &ResultsArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let view = round_results(&snapshot, args.round)?;
    // The turn at time gets a column only when a table has one.
    let turns = view.tables.iter().any(|t| t.turn.is_some());
    let headers: &[&str] = &["table", "A", "B", "result", "by", "life", "at", "turn"];
    let mut listing = Listing::new(&headers[..if turns { 8 } else { 7 }]);
    for t in &view.tables {
        let shown = match (t.outcome, &t.winner) {
            (None, _) => "playing".to_string(),
            (Some(Outcome::Draw), _) => "draw".into(),
            (_, w) => format!("{} won", w.as_deref().unwrap_or("?")),
        };
        let mut row = vec![
            t.table.to_string(),
            t.a.clone(),
            t.b.clone(),
            shown,
            t.reason.clone().unwrap_or_default(),
            t.life.map(|[x, y]| format!("{x}-{y}")).unwrap_or_default(),
            t.at.as_deref().map(hhmm).unwrap_or_default(),
        ];
        if turns {
            row.push(t.turn.map(|n| n.to_string()).unwrap_or_default());
        }
        listing.row(row);
    }
    for bye in &view.byes {
        let cells = [String::from("bye"), bye.player.clone(), String::new(), "bye".into()];
        listing.row(cells.into_iter().chain(std::iter::repeat_n(String::new(), if turns { 4 } else { 3 })).collect());
    }
    let n = view.round;
    let done_count = view.tables.len() - view.playing.len();
    let have = if done_count == 1 || view.tables.len() == 1 { "has a result" } else { "have results" };
    listing.title =
        Some(format!("Round {n}: {done_count} of {} {have}", crate::domain::words::count(view.tables.len(), "table")));
    listing.footer.push(if view.playing.is_empty() {
        "every table has a result".into()
    } else {
        let list: Vec<String> = view.playing.iter().map(u32::to_string).collect();
        format!("still playing: table{} {}", if view.playing.len() == 1 { "" } else { "s" }, list.join(", "))
    });
    emit(ctx.format, &listing, &view)
}

/// `result reports [--round N]`: the players' self-reports waiting for the opponent or in conflict.
fn reports(ctx: &Ctx, round: Option<u32>) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let view = crate::ops::table::device::self_report::round_reports(&snapshot, round)?;
    let mut listing = Listing::new(&["table", "A", "B", "state", "reported by", "says", "at"]);
    for t in &view.tables {
        let state = if t.state == "conflict" { "in conflict".to_string() } else { t.state.to_string() };
        let p = &t.pairing;
        for r in &t.reports {
            listing.row(vec![
                p.table.to_string(),
                p.a.clone(),
                p.b.clone(),
                state.clone(),
                r.player.clone(),
                r.words.clone(),
                hhmm(&r.at),
            ]);
        }
        if let Some(w) = &t.waiting_for {
            listing.footer.push(format!("table {}: reported by {}, waiting for {w}", p.table, t.reports[0].player));
        } else {
            listing.footer.push(format!("table {}: in conflict, a judge records the result", p.table));
        }
    }
    listing.title = Some(format!("Round {}: self-reported results waiting", view.round));
    if view.tables.is_empty() {
        listing.footer.push("no self-reported result is waiting".into());
    }
    emit(ctx.format, &listing, &view)
}
