//! `result`, `result fix` and `results`: a match's result at a table, its correction, the round's tables.

use super::Ctx;
use super::table::{ResultText, Seated, at_or_now, hhmm, round_or_current};
use crate::cli::result::{RecordArgs, ResultArgs, ResultSub, ResultsArgs};
use crate::domain::result::{Claim, Reason, Verdict, decide};
use crate::error::{Error, Result};
use crate::render::{Listing, done, emit};
use crate::store::matches::{self, Outcome};
use crate::store::{Change, PlayerId};
use rusqlite::Connection;

/// Runs `result` (or `result fix`).
pub fn run(ctx: &Ctx, args: ResultArgs) -> Result<()> {
    match args.fix {
        Some(ResultSub::Fix { record, force }) => fix(ctx, &record, force),
        Some(ResultSub::Clear { table, round, force }) => super::corrections::clear(ctx, table, round, force),
        None => record(ctx, &args.record),
    }
}

/// A typed result, read before the store is opened.
struct Typed<'a> {
    table: u32,
    reason: Reason,
    life: Option<(i64, i64)>,
    args: &'a RecordArgs,
}

fn read(args: &RecordArgs) -> Result<Typed<'_>> {
    let table = args.table.ok_or_else(|| Error::refused("which table? mmjudge result TABLE WINNER --by REASON"))?;
    let reason = Reason::parse(args.reason.as_deref().unwrap_or_default()).map_err(Error::refused)?;
    let life = match args.life.as_deref() {
        Some([a, b]) => Some((*a, *b)),
        Some(_) => return Err(Error::refused("--life takes two totals: seat A's, then seat B's")),
        None => None,
    };
    Ok(Typed { table, reason, life, args })
}

/// The verdict a typed result stands for at this table.
fn verdict(conn: &Connection, seated: &Seated, t: &Typed<'_>) -> Result<Verdict> {
    let given = match t.args.winner.as_deref() {
        Some(w) if w.trim().eq_ignore_ascii_case("draw") => Some(Verdict::Draw),
        Some(w) => Some(Verdict::Won(seated.resolve_player(conn, w)?.0)),
        None => None,
    };
    let claim = Claim { verdict: given, reason: t.reason, life: t.life };
    decide(claim, (&seated.a.name, &seated.b.name))
        .map_err(|e| Error::refused(format!("table {}: {e}", seated.table())))
}

fn record(ctx: &Ctx, args: &RecordArgs) -> Result<()> {
    let typed = read(args)?;
    let at = at_or_now(ctx, args.at.as_deref())?;
    let note = args.note.as_deref().map(str::trim).filter(|n| !n.is_empty());
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let mut seated = Seated::at(tx, typed.table, args.round)?;
        seated.not_before_start(tx, args.at.as_deref(), &at)?;
        if seated.m.outcome.is_some() {
            return Err(Error::refused(format!(
                "{} already has a result: {}; correct it with `mmjudge result fix {} ...`",
                seated.label(),
                seated.describe_recorded(),
                seated.table()
            )));
        }
        let v = verdict(tx, &seated, &typed)?;
        seated.record(tx, v, typed.reason, ResultText { life: typed.life, note, at: &at })?;
        let summary = format!("table {}, round {}: {}", seated.table(), seated.m.round, seated.describe_recorded());
        let doc = result_doc(&seated);
        Ok(((summary.clone(), doc), Change::about(summary, [seated.a.id, seated.b.id])))
    })?;
    done(ctx.format, &summary, doc)
}

fn result_doc(seated: &Seated) -> serde_json::Value {
    serde_json::json!({
        "round": seated.m.round, "table": seated.table(), "match": seated.m.id,
        "a": seated.a.name, "b": seated.b.name, "result": seated.result_json(),
    })
}

fn fix(ctx: &Ctx, args: &RecordArgs, force: bool) -> Result<()> {
    let typed = read(args)?;
    let at = args.at.as_deref().map(|a| at_or_now(ctx, Some(a))).transpose()?;
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let mut seated = Seated::at(tx, typed.table, args.round)?;
        let table = seated.table();
        if seated.m.outcome.is_none() {
            return Err(Error::refused(format!(
                "{} has no result yet: record it with `mmjudge result {table} WINNER --by REASON`",
                seated.label()
            )));
        }
        let later = crate::ops::corrections::later_rounds_paired(tx, seated.m.round, force, "fix it")?;
        let before_words = seated.describe_recorded();
        let before = seated.result_json();
        let v = verdict(tx, &seated, &typed)?;
        let note = args.note.as_deref().map(str::trim).filter(|n| !n.is_empty());
        let note = note.map(String::from).or_else(|| seated.m.note.clone());
        let at = at.clone().or_else(|| seated.m.result_at.clone()).unwrap_or_default();
        seated.not_before_start(tx, args.at.as_deref(), &at)?;
        let unchanged = seated.m.outcome == Some(super::table::outcome_of(v))
            && seated.m.reason.as_deref() == Some(typed.reason.slug())
            && seated.m.life == typed.life
            && seated.m.note == note
            && seated.m.result_at.as_deref() == Some(at.as_str());
        if unchanged {
            return Err(Error::refused(format!("nothing to fix: {} is already {before_words}", seated.label())));
        }
        seated.record(tx, v, typed.reason, ResultText { life: typed.life, note: note.as_deref(), at: &at })?;
        let mut summary = format!(
            "fixed table {table}, round {}: was {before_words}; now {}",
            seated.m.round,
            seated.describe_recorded()
        );
        if !later.is_empty() {
            summary.push_str(&format!(" ({} already paired on the old result, not redone)", rounds_words(&later)));
        }
        let doc = serde_json::json!({
            "round": seated.m.round, "table": table, "match": seated.m.id, "a": seated.a.name, "b": seated.b.name,
            "before": before, "after": seated.result_json(), "later_rounds": later,
        });
        Ok(((summary.clone(), doc), Change::about(summary, [seated.a.id, seated.b.id])))
    })?;
    done(ctx.format, &summary, doc)
}

use crate::ops::corrections::rounds_words;

/// Prints the round's tables with their results and the ones still playing.
pub fn results(ctx: &Ctx, args: &ResultsArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let n = round_or_current(conn, args.round)?;
    let names = super::player::names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let all = matches::of_round(conn, n)?;
    let mut listing = Listing::new(&["table", "A", "B", "result", "by", "life", "at"]);
    let (mut tables, mut byes, mut playing) = (Vec::new(), Vec::new(), Vec::new());
    for m in &all {
        let a = name(m.a);
        let Some(b) = m.b.map(name) else {
            listing.row(vec![
                "bye".into(),
                a.clone(),
                String::new(),
                "bye".into(),
                String::new(),
                "".into(),
                "".into(),
            ]);
            byes.push(serde_json::json!({ "match": m.id, "player": a }));
            continue;
        };
        let table = m.table.unwrap_or(0);
        let winner = match m.outcome {
            Some(Outcome::A) => Some(a.clone()),
            Some(Outcome::B) => Some(b.clone()),
            _ => None,
        };
        let shown = match (m.outcome, &winner) {
            (None, _) => {
                playing.push(table);
                "playing".to_string()
            }
            (Some(Outcome::Draw), _) => "draw".into(),
            (_, w) => format!("{} won", w.as_deref().unwrap_or("?")),
        };
        let life = m.life.map(|(x, y)| format!("{x}-{y}")).unwrap_or_default();
        let at = m.result_at.as_deref().map(hhmm).unwrap_or_default();
        listing.row(vec![
            table.to_string(),
            a.clone(),
            b.clone(),
            shown,
            m.reason.clone().unwrap_or_default(),
            life,
            at,
        ]);
        tables.push(serde_json::json!({
            "table": table, "match": m.id, "a": a, "b": b, "playing": m.outcome.is_none(),
            "outcome": m.outcome, "winner": winner, "reason": m.reason, "life": m.life.map(|(x, y)| [x, y]),
            "note": m.note, "at": m.result_at,
        }));
    }
    let done_count = tables.len() - playing.len();
    let have = if done_count == 1 || tables.len() == 1 { "has a result" } else { "have results" };
    listing.title =
        Some(format!("Round {n}: {done_count} of {} {have}", crate::domain::words::count(tables.len(), "table")));
    listing.footer.push(if playing.is_empty() {
        "every table has a result".into()
    } else {
        let list: Vec<String> = playing.iter().map(u32::to_string).collect();
        format!("still playing: table{} {}", if playing.len() == 1 { "" } else { "s" }, list.join(", "))
    });
    let doc = serde_json::json!({ "round": n, "tables": tables, "byes": byes, "playing": playing });
    emit(ctx.format, &listing, &doc)
}
