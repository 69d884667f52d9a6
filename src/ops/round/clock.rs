//! The round's clock: starting it, closing it (stopping the decisions still running), and extra time for one
//! table.

use crate::domain::clock::TableClock;
use crate::domain::topic::Topic;
use crate::domain::words;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::said::Said;
use crate::ops::table::clocks::clock::{
    check_moment, clock_settings, clock_text, current_round, not_before_start, round_started, stop_running_decision,
    table_clock, tables_text, when_text,
};
use crate::ops::table::find_match;
use crate::store::clock as store_clock;
use crate::store::{Actor, Change, Store, Touched, event, matches, round};
use crate::time::{confirm_time, stamp, unstamp};
use chrono::{DateTime, Duration, Utc};

/// A started round clock.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoundStarted {
    /// The round.
    pub round: u32,
    /// When its clock started (RFC 3339): after deck inspection, when the event has one.
    pub started_at: String,
    /// When deck inspection started (RFC 3339; null without inspection, event setting `inspection-minutes`).
    pub inspection_from: Option<String>,
    /// When time is called (RFC 3339).
    pub ends_at: String,
    /// When the final window opens (RFC 3339).
    pub final_window_at: String,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
    /// The same in the web's words (no command to type).
    #[serde(skip)]
    pub web_summary: String,
}

/// `round start [--at TIME]`: records when the current round's clock started (`at`, if given, is at most 12
/// hours ahead and not before the event was created). With `inspection-minutes N`, `at` is when deck
/// inspection starts and the round's clock starts N minutes later (or at `round start --now`).
pub fn start_round(store: &mut Store, actor: &Actor, at: Option<DateTime<Utc>>) -> Result<RoundStarted> {
    if let Some(given) = at {
        let fix = "a start may be scheduled at most 12 hours ahead: give the moment the round starts";
        crate::time::not_ahead(given, actor.at, crate::time::START_AHEAD, fix)?;
    }
    let given = at.is_some();
    let at = at.unwrap_or(actor.at);
    store.write(actor, |tx| {
        let r = current_round(tx)?;
        if given {
            let created = event::get(tx, "created")?.and_then(|c| unstamp(&c).ok());
            crate::time::check_record_moment(at, at, created, None)?;
        }
        if let Some(started) = &r.started_at {
            let what = format!("round {} already started at {}: its clock runs", r.number, when_text(started));
            return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, WayOut::SeeTime).into());
        }
        if let Some(ended) = &r.ended_at {
            return Err(Error::refused(format!(
                "round {} was closed at {} with every table's result, its clock never run: pair the next round \
                 with `mmjudge round pair`, or take the close back with `mmjudge round reopen`",
                r.number,
                when_text(ended)
            )));
        }
        let values = event::values(tx)?;
        let inspection = values.number("inspection-minutes");
        let (inspection_from, at) = match inspection {
            0 => (None, at),
            n => (Some(at), at + Duration::minutes(n)),
        };
        round::set_started(tx, r.number, Some(&stamp(at)))?;
        let clock = TableClock::new(at, clock_settings(&values));
        let mut opening = match inspection_from {
            // A start set for later (`--at` ahead of now) says so.
            None if at > actor.at => Said::new(format!("round {} starts at {}", r.number, confirm_time(at))),
            None => Said::new(format!("round {} started at {}", r.number, confirm_time(at))),
            Some(from) => Said::new(format!(
                "round {}: deck inspection from {} for {}; the round's clock starts at {}",
                r.number,
                confirm_time(from),
                words::count(inspection, "minute"),
                confirm_time(at)
            )),
        };
        if inspection_from.is_some() {
            opening.hint(
                " (`mmjudge round start --now` starts it early)",
                " (Start the clock now, on the dashboard, starts it early)",
            );
        }
        let rest = format!(
            ": time is called at {}, the final {} ({} s decisions) from {}",
            confirm_time(clock.end()),
            words::count(clock.settings.final_window_minutes, "minute"),
            clock.settings.final_decision_secs,
            confirm_time(clock.final_window_starts())
        );
        let out = RoundStarted {
            round: r.number,
            started_at: stamp(at),
            inspection_from: inspection_from.map(stamp),
            ends_at: stamp(clock.end()),
            final_window_at: stamp(clock.final_window_starts()),
            summary: format!("{}{rest}", opening.cli),
            web_summary: format!("{}{rest}", opening.web),
        };
        let summary = out.summary.clone();
        Ok((out, Change::new(summary).touching(Touched::round(Topic::Round, r.number))))
    })
}

/// `round start --now`: ends deck inspection early; the round's clock starts now. Refused when the round
/// has not been started (`round start`) or its clock already runs.
pub fn start_round_now(store: &mut Store, actor: &Actor) -> Result<RoundStarted> {
    let now = actor.at;
    store.write(actor, |tx| {
        let r = current_round(tx)?;
        let Some(scheduled) = r.started_at.as_deref().map(unstamp).transpose()? else {
            let what = format!("round {} has not been started", r.number);
            return Err(Refusal::refused(what).way_out(WayOut::StartInspection).into());
        };
        if scheduled <= now {
            let what = format!("round {} already started at {}: its clock runs", r.number, confirm_time(scheduled));
            return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, WayOut::SeeTime).into());
        }
        round::set_started(tx, r.number, Some(&stamp(now)))?;
        let clock = TableClock::new(now, clock_settings(&event::values(tx)?));
        let summary = format!(
            "round {}: started early at {} (was {}): time is called at {}, the final window from {}",
            r.number,
            confirm_time(now),
            confirm_time(scheduled),
            confirm_time(clock.end()),
            confirm_time(clock.final_window_starts())
        );
        let out = RoundStarted {
            round: r.number,
            started_at: stamp(now),
            inspection_from: None,
            ends_at: stamp(clock.end()),
            final_window_at: stamp(clock.final_window_starts()),
            web_summary: summary.clone(),
            summary: summary.clone(),
        };
        Ok((out, Change::new(summary).touching(Touched::round(Topic::Round, r.number))))
    })
}

/// A closed round clock.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoundEnded {
    /// The round.
    pub round: u32,
    /// When it was closed (RFC 3339).
    pub ended_at: String,
    /// The tables still without a result.
    pub without_result: Vec<u32>,
    /// How many decisions still running were stopped.
    pub stopped_decisions: usize,
    /// Those decisions: "table 3: Ana (12.3 s)".
    #[serde(skip)]
    pub stopped: Vec<String>,
    /// Tables whose players' judge call is still open (absent when none): the call stays listed until a judge
    /// closes it or the next round is paired.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub open_calls: Vec<u32>,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
    /// The same in the web's words (no command to type).
    #[serde(skip)]
    pub web_summary: String,
}

/// `round end [--at TIME] [--force]`: closes the current round's clock, stops any decision still running at
/// that moment; refused while tables have no result, unless `force`.
pub fn end_round(store: &mut Store, actor: &Actor, at: Option<DateTime<Utc>>, force: bool) -> Result<RoundEnded> {
    let given = at.is_some();
    let at = at.unwrap_or(actor.at);
    store.write(actor, |tx| {
        let r = current_round(tx)?;
        if let Some(ended) = &r.ended_at {
            return Err(Error::refused(format!("round {} was already closed at {}", r.number, when_text(ended))));
        }
        if r.started_at.is_none() && matches::open_tables(tx, r.number)?.is_empty() {
            return end_unstarted(tx, r.number, at);
        }
        let started = round_started(&r)?;
        if started > actor.at {
            // Its clock has not begun (deck inspection, or a start set for later): no moment can close it yet.
            let waiting = if event::values(tx)?.number("inspection-minutes") > 0 {
                format!("is in deck inspection until {}", confirm_time(started))
            } else {
                format!("has not begun (its clock starts at {})", confirm_time(started))
            };
            let what = format!("round {} {waiting}", r.number);
            return Err(Refusal::refused(what).way_out(WayOut::StartNowThenClose).into());
        }
        not_before_start(r.number, at, started)?;
        if given {
            check_moment(tx, r.number, at)?;
        }
        let open = matches::open_tables(tx, r.number)?;
        if !open.is_empty() && !force {
            let what = format!(
                "round {} still has {} without a result ({})",
                r.number,
                words::count(open.len() as i64, "table"),
                tables_text(&open)
            );
            let out = WayOut::Either(vec![WayOut::RecordEachOpen, WayOut::EndRoundForce]);
            return Err(Refusal::refused(what).way_out(out).into());
        }
        round::set_ended(tx, r.number, Some(&stamp(at)))?;
        let mut open_tables = Vec::new();
        let mut stopped = Vec::new();
        for m in matches::of_round(tx, r.number)? {
            let Some(table) = m.table else { continue };
            if m.outcome.is_none() {
                open_tables.push(table);
            }
            if let Some(who) = stop_running_decision(tx, &m, at)? {
                stopped.push(format!("table {table}: {who}"));
            }
        }
        let mut summary = Said::new(format!("round {} closed at {}", r.number, confirm_time(at)));
        if open_tables.is_empty() {
            summary.push("; every table has a result");
        } else {
            summary.push(&format!("; time called at {}: no result yet", tables_text(&open_tables)));
            summary.hint(" (record each with `mmjudge result TABLE ...`)", " (record each on its table's page)");
        }
        if !stopped.is_empty() {
            summary.push(&format!("; stopped the decisions still running: {}", stopped.join(", ")));
        }
        let mut open_calls = Vec::new();
        for c in crate::store::self_reports::open_calls(tx, r.number)? {
            if let Some(t) = matches::get(tx, c.match_id)?.table {
                open_calls.push(t);
            }
        }
        if !open_calls.is_empty() {
            summary.push(&format!("; judge calls still open at {}", tables_text(&open_calls)));
            summary.hint(" (close each with `mmjudge call close TABLE`)", " (close each on its table's page)");
        }
        let out = RoundEnded {
            open_calls,
            round: r.number,
            ended_at: stamp(at),
            without_result: open_tables,
            stopped_decisions: stopped.len(),
            stopped,
            summary: summary.cli.clone(),
            web_summary: summary.web,
        };
        Ok((out, Change::new(summary.cli).touching(Touched::round(Topic::Round, r.number))))
    })
}

/// Ends a round whose clock never ran but whose every match has a result (concessions, no-shows, penalties,
/// intentional draws): it is ended at `at`, with no start.
fn end_unstarted(tx: &rusqlite::Connection, number: u32, at: DateTime<Utc>) -> Result<(RoundEnded, Change)> {
    round::set_ended(tx, number, Some(&stamp(at)))?;
    let summary =
        format!("round {number} closed at {} without its clock having run; every table has a result", confirm_time(at));
    let out = RoundEnded {
        round: number,
        ended_at: stamp(at),
        without_result: Vec::new(),
        stopped_decisions: 0,
        stopped: Vec::new(),
        open_calls: Vec::new(),
        web_summary: summary.clone(),
        summary: summary.clone(),
    };
    Ok((out, Change::new(summary)))
}

/// Reads a number of minutes (> 0, decimals allowed) as whole seconds.
pub fn extension_seconds(minutes: &str) -> Result<i64> {
    let text = minutes.trim();
    let value: f64 = text.parse().map_err(|_| {
        let out = WayOut::Example(crate::error::Example::ExtensionMinutes);
        Error::from(Refusal::bad_input(format!("\"{text}\" is not a number of minutes")).way_out(out))
    })?;
    let secs = (value * 60.0).round();
    if !value.is_finite() || secs < 1.0 {
        return Err(Error::bad_input(format!(
            "an extension must be more than 0 minutes, not {text}: give the extra minutes, e.g. 5"
        )));
    }
    if secs > f64::from(crate::domain::bounds::MAX_MINUTES) * 60.0 {
        return Err(Error::bad_input(format!(
            "{text} minutes is more than a day: an extension is at most 1,440 minutes; give the extra minutes, e.g. 5"
        )));
    }
    Ok(secs as i64)
}

/// Extra round time for one table of the current round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtendInput {
    /// The table.
    pub table: u32,
    /// How much, in seconds (see [`extension_seconds`]).
    pub seconds: i64,
    /// Why (a deck check, a long ruling).
    pub reason: String,
}

/// A granted extension.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Extended {
    /// The extension's id.
    pub extension: i64,
    /// The table.
    pub table: u32,
    /// The round.
    pub round: u32,
    /// This extension, in seconds.
    pub seconds: i64,
    /// The table's extensions in all, in seconds.
    pub total_seconds: i64,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// `round extend TABLE MINUTES --reason TEXT`: extra round time for one table (refused once the round is
/// closed or the match has a result).
pub fn extend_table(store: &mut Store, actor: &Actor, input: ExtendInput) -> Result<Extended> {
    let reason = input.reason.trim();
    if reason.is_empty() {
        return Err(Refusal::bad_input("say why the table gets more time, e.g. \"deck check\"")
            .flags("say why with --reason, e.g. --reason \"deck check\"")
            .into());
    }
    crate::domain::text::check("the reason", reason, false).map_err(Error::bad_input)?;
    crate::domain::bounds::text_length("the reason", reason, crate::domain::bounds::MAX_REASON_CHARS)
        .map_err(Error::bad_input)?;
    let (table, secs) = (input.table, input.seconds);
    let now = actor.at;
    store.write(actor, |tx| {
        let r = current_round(tx)?;
        let m = find_match(tx, table, None)?;
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
        let touched = Touched::of_match(Topic::Clock, &m);
        let out = Extended {
            extension: id,
            table,
            round: r.number,
            seconds: secs,
            total_seconds: total,
            summary: summary.clone(),
        };
        Ok((out, Change::about(summary, players).touching(touched)))
    })
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
