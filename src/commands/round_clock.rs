//! `round start`, `round end` and `round extend`: the current round's clock.

use super::Ctx;
use super::clock::{
    clock_settings, clock_text, current_round, not_before_start, round_started, table_clock, tables_text, when_text,
};
use crate::commands::table::resolve_match;
use crate::domain::clock::TableClock;
use crate::domain::words;
use crate::error::{Error, Result};
use crate::render::done;
use crate::store::clock as store_clock;
use crate::store::{Change, event, matches, round};
use crate::time::{confirm_time, stamp, unstamp};
use chrono::Duration;

/// `round start [--at TIME]`: records when the current round's clock started.
pub fn start(ctx: &Ctx, at: Option<&str>) -> Result<()> {
    let given = at.is_some();
    let at = ctx.at(at)?;
    if given {
        let fix = "a start may be scheduled at most 12 hours ahead: give the moment the round starts";
        crate::time::not_ahead(at, ctx.now()?, crate::time::START_AHEAD, fix)?;
    }
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let r = current_round(tx)?;
        if given {
            not_before_created(tx, at)?;
        }
        if let Some(started) = &r.started_at {
            return Err(Error::refused(format!(
                "round {} already started at {}: its clock runs; see `mmjudge time`",
                r.number,
                when_text(started)
            )));
        }
        round::set_started(tx, r.number, Some(&stamp(at)))?;
        let clock = TableClock::new(at, clock_settings(&event::values(tx)?));
        let summary = format!(
            "round {} started at {}: time is called at {}, the final {} ({} s decisions) from {}",
            r.number,
            confirm_time(at),
            confirm_time(clock.end()),
            crate::domain::words::count(clock.settings.final_window_minutes, "minute"),
            clock.settings.final_decision_secs,
            confirm_time(clock.final_window_starts())
        );
        let doc = serde_json::json!({
            "round": r.number, "started_at": stamp(at), "ends_at": stamp(clock.end()),
            "final_window_at": stamp(clock.final_window_starts()),
        });
        Ok(((summary.clone(), doc), Change::new(summary)))
    })?;
    done(ctx.format, &summary, doc)
}

/// `round end [--at TIME]`: closes the current round's clock, stops any decision still running at that moment,
/// and lists the tables still without a result.
pub fn end(ctx: &Ctx, at: Option<&str>, force: bool) -> Result<()> {
    let given = at.is_some();
    let at = ctx.at(at)?;
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let r = current_round(tx)?;
        let started = round_started(&r)?;
        if let Some(ended) = &r.ended_at {
            return Err(Error::refused(format!("round {} was already closed at {}", r.number, when_text(ended))));
        }
        not_before_start(r.number, at, started)?;
        if given {
            super::clock::check_moment(tx, r.number, at)?;
        }
        let open = matches::open_tables(tx, r.number)?;
        if !open.is_empty() && !force {
            return Err(Error::refused(format!(
                "round {} still has {} without a result ({}): record each with `mmjudge result TABLE ...`, or \
                 close the round anyway with `mmjudge round end --force`",
                r.number,
                words::count(open.len() as i64, "table"),
                tables_text(&open)
            )));
        }
        round::set_ended(tx, r.number, Some(&stamp(at)))?;
        let mut open_tables = Vec::new();
        let mut stopped = Vec::new();
        for m in matches::of_round(tx, r.number)? {
            let Some(table) = m.table else { continue };
            if m.outcome.is_none() {
                open_tables.push(table);
            }
            if let Some(who) = super::clock::stop_running_decision(tx, &m, at)? {
                stopped.push(format!("table {table}: {who}"));
            }
        }
        let mut summary = format!("round {} closed at {}", r.number, confirm_time(at));
        if open_tables.is_empty() {
            summary.push_str("; every table has a result");
        } else {
            summary.push_str(&format!(
                "; still without a result: {} (record each with `mmjudge result TABLE ...`)",
                tables_text(&open_tables)
            ));
        }
        if !stopped.is_empty() {
            summary.push_str(&format!("; stopped the decisions still running: {}", stopped.join(", ")));
        }
        let doc = serde_json::json!({
            "round": r.number, "ended_at": stamp(at), "without_result": open_tables, "stopped_decisions": stopped.len(),
        });
        Ok(((summary.clone(), doc), Change::new(summary)))
    })?;
    done(ctx.format, &summary, doc)
}

/// `round reopen`: undoes `round end` (see [`crate::ops::round::reopen_round`]).
pub fn reopen(ctx: &Ctx) -> Result<()> {
    let mut store = ctx.open()?;
    let r = crate::ops::round::reopen_round(&mut store, &ctx.actor()?)?;
    let when = unstamp(&r.was_closed_at).map(crate::time::confirm_time).unwrap_or_default();
    let summary = format!(
        "reopened round {} (it was closed at {when}): its clock runs on as if it had never been closed; \
         decisions can be timed again",
        r.round
    );
    let doc = serde_json::to_value(&r).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    done(ctx.format, &summary, doc)
}

/// Refuses a moment before the event was created.
fn not_before_created(conn: &rusqlite::Connection, at: chrono::DateTime<chrono::Utc>) -> Result<()> {
    let created = event::get(conn, "created")?.and_then(|c| unstamp(&c).ok());
    crate::time::check_record_moment(at, at, created, None)
}

/// Reads a number of minutes (> 0, decimals allowed) as whole seconds.
fn extension_seconds(minutes: &str) -> Result<i64> {
    let text = minutes.trim();
    let value: f64 = text.parse().map_err(|_| {
        Error::refused(format!(
            "\"{text}\" is not a number of minutes: e.g. `mmjudge round extend 3 5 --reason \"deck check\"`"
        ))
    })?;
    let secs = (value * 60.0).round();
    if !value.is_finite() || secs < 1.0 {
        return Err(Error::refused(format!(
            "an extension must be more than 0 minutes, not {text}: give the extra minutes, e.g. 5"
        )));
    }
    if secs > f64::from(crate::domain::bounds::MAX_MINUTES) * 60.0 {
        return Err(Error::refused(format!(
            "{text} minutes is more than a day: an extension is at most 1,440 minutes; give the extra minutes, e.g. 5"
        )));
    }
    Ok(secs as i64)
}

/// `round extend TABLE MINUTES --reason TEXT`: extra round time for one table.
pub fn extend(ctx: &Ctx, table: u32, minutes: &str, reason: &str) -> Result<()> {
    let secs = extension_seconds(minutes)?;
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().any(char::is_control) {
        return Err(Error::refused("say why with --reason, e.g. --reason \"deck check\""));
    }
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let now = actor.at;
    let (summary, doc) = store.write(&actor, |tx| {
        let r = current_round(tx)?;
        let m = resolve_match(tx, table, None)?;
        if let Some(ended) = &r.ended_at {
            return Err(Error::refused(format!(
                "round {} was closed at {}: nothing to extend",
                r.number,
                when_text(ended)
            )));
        }
        if m.outcome.is_some() {
            return Err(Error::refused(format!("the match at table {table} already has a result: nothing to extend")));
        }
        let id = store_clock::add_extension(tx, m.id, secs, reason, &stamp(now))?;
        let total = store_clock::extension_secs(tx, m.id)?;
        let ends = match &r.started_at {
            Some(s) => {
                let clock = table_clock(tx, unstamp(s)?, &m)?;
                format!("; it now ends at {}", confirm_time(clock.end()))
            }
            None => String::new(),
        };
        let summary = format!(
            "extension #{id}: table {table} (round {}) extended by {} for {reason} (in all +{}){ends}",
            r.number,
            clock_text(Duration::seconds(secs)),
            clock_text(Duration::seconds(total))
        );
        let players: Vec<_> = [Some(m.a), m.b].into_iter().flatten().collect();
        let doc = serde_json::json!({
            "extension": id, "table": table, "round": r.number, "seconds": secs, "total_seconds": total,
        });
        Ok(((summary.clone(), doc), Change::about(summary, players)))
    })?;
    done(ctx.format, &summary, doc)
}

#[cfg(test)]
mod tests {
    use super::extension_seconds;

    #[test]
    fn minutes_to_seconds() {
        assert_eq!(extension_seconds("5").ok(), Some(300));
        assert_eq!(extension_seconds(" 2.5 ").ok(), Some(150));
        for bad in ["0", "-3", "0.001", "x", "NaN", "inf", "", "1e9"] {
            assert!(extension_seconds(bad).is_err(), "{bad}");
        }
    }
}
