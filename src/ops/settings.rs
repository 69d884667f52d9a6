//! Changing the rules mid-event: what a setting change does to the tables still playing.

use crate::domain::words;
use crate::error::Result;
use crate::store::{matches, round};
use crate::time::{confirm_time, unstamp};
use chrono::Duration;
use rusqlite::Connection;

/// The settings that change how the tables in play are judged or timed.
pub const IN_PLAY: &[&str] = &[
    "binding",
    "split-combined",
    "round-minutes",
    "decision-seconds",
    "final-decision-seconds",
    "final-window-minutes",
    "challenge-limit",
    "allow-joke",
    "allow-digital",
    "allow-ante",
    "allow-portal",
];

/// When a round is being played (its clock started, its tables not all with a result) and `key` is one of [`IN_PLAY`] changing
/// from `old` to `new`: what changes for the tables in play, in one clause ("round 2's 3 tables in play:
/// time is called at 15:10 instead of 15:00"). `None` when nothing in play changes.
pub fn mid_round_change(conn: &Connection, key: &str, old: &str, new: &str) -> Result<Option<String>> {
    if old == new || !IN_PLAY.contains(&key) {
        return Ok(None);
    }
    let number = round::current(conn)?;
    if number == 0 {
        return Ok(None);
    }
    let open = matches::open_tables(conn, number)?;
    if open.is_empty() {
        return Ok(None);
    }
    let started = round::get(conn, number)?.and_then(|r| r.started_at).map(|s| unstamp(&s)).transpose()?;
    // Paired, its clock not started: nothing is in play yet, the round is played under the new rule from its start.
    if started.is_none() {
        return Ok(None);
    }
    let minutes = |v: &str| v.parse::<i64>().unwrap_or(0);
    let at = |offset: i64| started.map(|s| confirm_time(s + Duration::minutes(offset)));
    let round_minutes = crate::store::event::values(conn)?.number("round-minutes");
    let what = match key {
        "round-minutes" => match (at(minutes(new)), at(minutes(old))) {
            (Some(n), Some(o)) => format!("time is called at {n} instead of {o}"),
            _ => format!("the round lasts {} instead of {}", mins(new), mins(old)),
        },
        "final-window-minutes" => match (at(round_minutes - minutes(new)), at(round_minutes - minutes(old))) {
            (Some(n), Some(o)) => format!("the final window starts at {n} instead of {o}"),
            _ => format!("the final window lasts {} instead of {}", mins(new), mins(old)),
        },
        "decision-seconds" => format!("each new decision gets {new} s instead of {old} s"),
        "final-decision-seconds" => format!("each new decision in the final window gets {new} s instead of {old} s"),
        "challenge-limit" => format!(
            "a player loses the match at {} instead of {}",
            words::count(minutes(new), "lost challenge"),
            minutes(old)
        ),
        "binding" => format!("declarations are checked under {new} binding instead of {old} (earlier notes stand)"),
        "split-combined" => format!(
            "split cards {} match their combined cost (earlier notes stand)",
            if new == "on" { "now also" } else { "no longer" }
        ),
        _ => {
            let kind = key.trim_start_matches("allow-");
            format!(
                "{kind} cards {} be declared (earlier notes stand)",
                if new == "on" { "may now" } else { "may no longer" }
            )
        }
    };
    let tables = words::count(open.len() as i64, "table");
    Ok(Some(format!("round {number} is being played ({tables} without a result): there {what}")))
}

fn mins(v: &str) -> String {
    words::count(v.parse::<i64>().unwrap_or(0), "minute")
}
