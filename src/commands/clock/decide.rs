//! `clock TABLE --start PLAYER` / `clock TABLE --stop`: the decision clock without the screen. A decision in
//! progress is a `decision` row with no end; stopping it computes its limit and overrun with the table's clock
//! as it stands (its extensions included).

use super::{
    Ctx, check_moment, current_round, name_of, not_before_start, round_started, secs_text, table_clock, when, when_text,
};
use crate::commands::table::resolve_match;
use crate::domain::clock::{Decision, decision_outcome, decision_outcome_paused};
use crate::error::{Error, Result};
use crate::ops::player_names;
use crate::render::done;
use crate::store::clock::{self as store_clock, FinishedDecision};
use crate::store::matches::Match;
use crate::store::{Change, PlayerId, player};
use crate::time::{stamp, unstamp};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// The match at `table` in the current round, checked for timing decisions at `at`: the round's clock has
/// started (and `at` is not before it), it is not closed, and the match has no result yet.
pub fn timed_match(conn: &Connection, table: u32, at: Option<DateTime<Utc>>) -> Result<(Match, DateTime<Utc>)> {
    let r = current_round(conn)?;
    let m = resolve_match(conn, table, None)?;
    let started = round_started(&r)?;
    if let Some(ended) = &r.ended_at {
        return Err(Error::refused(format!(
            "round {} was closed at {}: its decisions can no longer be timed",
            r.number,
            when_text(ended)
        )));
    }
    if m.outcome.is_some() {
        return Err(Error::refused(format!(
            "the match at table {table} already has a result: its decisions are no longer timed"
        )));
    }
    if let Some(at) = at {
        not_before_start(r.number, at, started)?;
    }
    Ok((m, started))
}

/// Records that `who` started deciding at match `m` (the live screen), refusing while a decision runs there
/// (one decision per table; the store's index enforces it too).
pub fn begin(conn: &Connection, m: &Match, who: PlayerId, started: DateTime<Utc>) -> Result<Change> {
    if let Some(ended) = crate::store::round::get(conn, m.round)?.and_then(|r| r.ended_at) {
        return Err(Error::refused(format!("round {} was closed at {}", m.round, when_text(&ended))));
    }
    if crate::store::matches::get(conn, m.id)?.outcome.is_some() {
        return Err(Error::refused("the match has a result: its decisions are no longer timed"));
    }
    if let Some(d) = store_clock::running(conn, m.id)? {
        return Err(Error::refused(format!(
            "{} is already deciding at this table (since {})",
            name_of(conn, d.player_id)?,
            when_text(&d.started_at)
        )));
    }
    store_clock::start_decision(conn, m.id, who, &stamp(started))?;
    let summary = format!(
        "table {} (round {}): {} deciding from {} (clock screen)",
        m.table.unwrap_or(0),
        m.round,
        name_of(conn, who)?,
        when(started)
    );
    Ok(Change::about(summary, [who]))
}

/// Records a decision of `who` at match `m` that ran over `(started, ended)` with judge-call pauses of
/// `paused` in all, and returns it with its audit summary (one transaction, by the caller's `Store::write`).
/// Used by the live screen: it finishes the decision the screen started (see [`begin`]); one stopped, cancelled
/// or replaced at another terminal meanwhile is refused (the screen says so).
pub fn record(
    conn: &Connection,
    m: &Match,
    round_start: DateTime<Utc>,
    who: PlayerId,
    (started, ended): (DateTime<Utc>, DateTime<Utc>),
    paused: chrono::Duration,
) -> Result<(Decision, Change)> {
    let d = decision_outcome_paused(&table_clock(conn, round_start, m)?, started, ended, paused);
    let ended_at = stamp(ended);
    match store_clock::running(conn, m.id)? {
        Some(r) if r.player_id == who && r.started_at == stamp(started) => {
            store_clock::finish_decision(conn, r.id, &finished(&d, &ended_at))?;
        }
        Some(r) => {
            return Err(Error::refused(format!(
                "the decision at this table changed at another terminal ({} deciding since {})",
                name_of(conn, r.player_id)?,
                when_text(&r.started_at)
            )));
        }
        None => {
            return Err(Error::refused("the decision was stopped or cancelled at another terminal"));
        }
    }
    let summary = summary(conn, m, who, &d)?;
    Ok((d, Change::about(summary, [who])))
}

fn finished<'a>(d: &Decision, ended_at: &'a str) -> FinishedDecision<'a> {
    FinishedDecision { ended_at, duration_ms: d.duration_ms, limit_ms: d.limit_ms, overrun_ms: d.overrun_ms }
}

/// One line about a finished decision, for the audit log and the judge.
fn summary(conn: &Connection, m: &Match, who: PlayerId, d: &Decision) -> Result<String> {
    let name = name_of(conn, who)?;
    let table = m.table.unwrap_or(0);
    let over = if d.is_stall() {
        format!(", over by {} (possible slow play, for a judge to review)", secs_text(d.overrun_ms))
    } else {
        String::new()
    };
    Ok(format!(
        "table {table} (round {}): {name} decided in {} (limit {}){over}",
        m.round,
        secs_text(d.duration_ms),
        secs_text(d.limit_ms)
    ))
}

/// `clock TABLE --start PLAYER [--at TIME]`.
pub fn start(ctx: &Ctx, table: u32, who: &str, at: Option<&str>) -> Result<()> {
    let given = at.is_some();
    let at = ctx.at(at)?;
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let (m, _) = timed_match(tx, table, Some(at))?;
        if given {
            check_moment(tx, m.round, at)?;
        }
        let p = match m.b {
            Some(b) => {
                let seated = [player::get(tx, m.a)?, player::get(tx, b)?];
                let at = player_names::AtTable { round: m.round, table, players: [&seated[0], &seated[1]] };
                let i = player_names::find_at_table(tx, at, who)?;
                seated[i].clone()
            }
            None => return Err(Error::refused(format!("table {table} has no match between two players"))),
        };
        if let Some(d) = store_clock::running(tx, m.id)? {
            return Err(Error::refused(format!(
                "{} is already deciding at table {table} (since {}): stop it first with `mmjudge clock {table} --stop`",
                name_of(tx, d.player_id)?,
                when_text(&d.started_at)
            )));
        }
        let id = store_clock::start_decision(tx, m.id, p.id, &stamp(at))?;
        let summary = format!("table {table} (round {}): {} deciding from {}", m.round, p.name, when(at));
        let doc = serde_json::json!({ "decision": id, "table": table, "player": p.name, "started_at": stamp(at) });
        Ok(((summary.clone(), doc), Change::about(summary, [p.id])))
    })?;
    done(ctx.format, &summary, doc)
}

/// `clock TABLE --stop [--at TIME]`.
pub fn stop(ctx: &Ctx, table: u32, at: Option<&str>) -> Result<()> {
    let given = at.is_some();
    let at = ctx.at(at)?;
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let (m, round_start) = stoppable_match(tx, table, at)?;
        if given {
            check_moment(tx, m.round, at)?;
        }
        let Some(running) = store_clock::running(tx, m.id)? else {
            return Err(Error::refused(format!(
                "no decision is running at table {table}: start one with `mmjudge clock {table} --start PLAYER`"
            )));
        };
        let started = unstamp(&running.started_at)?;
        if at < started {
            return Err(Error::refused(format!(
                "{} is before the decision started ({}): give a later --at",
                when(at),
                when_text(&running.started_at)
            )));
        }
        let d = decision_outcome(&table_clock(tx, round_start, &m)?, started, at);
        store_clock::finish_decision(tx, running.id, &finished(&d, &stamp(at)))?;
        let summary = summary(tx, &m, running.player_id, &d)?;
        let doc = serde_json::json!({
            "decision": running.id, "table": table, "player": name_of(tx, running.player_id)?,
            "started_at": running.started_at, "ended_at": stamp(at),
            "duration_ms": d.duration_ms, "limit_ms": d.limit_ms, "overrun_ms": d.overrun_ms,
        });
        Ok(((summary.clone(), doc), Change::about(summary, [running.player_id])))
    })?;
    done(ctx.format, &summary, doc)
}

/// The match at `table` for stopping a decision at `at`: like [`timed_match`], except that a closed round or a
/// recorded result does not prevent stopping the decision that was running.
fn stoppable_match(conn: &Connection, table: u32, at: DateTime<Utc>) -> Result<(Match, DateTime<Utc>)> {
    let r = current_round(conn)?;
    let m = resolve_match(conn, table, None)?;
    let started = round_started(&r)?;
    not_before_start(r.number, at, started)?;
    Ok((m, started))
}
