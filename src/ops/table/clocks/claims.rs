//! Moments claimed by a page's queue for the decision clock: a tap made while the network was down is sent later
//! with the moment it was made. The rule (a phone's claim cannot erase an overrun): a claimed stop may shorten a
//! decision below what the server saw only when the decision's start was itself a replay (its claimed moment
//! taken, before it arrived); when the start arrived live, the stop is recorded no earlier than its first arrival.
//! Every decision whose claimed moments give another length than the server saw is listed for the judges' table
//! page ([`claimed_at_table`]), both lengths side by side.

use crate::domain::clock::seconds_text as secs_text;
use crate::error::Result;
use crate::store::clock::{self as store_clock, Claim, DecisionRow};
use crate::store::{Claimed, matches, round};
use crate::time::{stamp, unstamp};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// The claim of a replayed write as the decision records it.
pub fn claim_of(c: &Claimed) -> Claim {
    Claim { claimed_at: stamp(c.made), seen_at: stamp(c.seen) }
}

/// The decision running at `table` in the current round, if any.
pub fn running_at(conn: &Connection, table: u32) -> Result<Option<DecisionRow>> {
    let number = round::current(conn)?;
    match matches::at_table(conn, number, table)? {
        Some(m) => store_clock::running(conn, m.id),
        None => Ok(None),
    }
}

/// Whether decision `d`'s start was a replay: its claimed moment was taken, and lies before the server saw it.
pub fn start_is_replay(d: &DecisionRow) -> bool {
    d.start_claim.as_ref().is_some_and(|c| {
        c.claimed_at == d.started_at
            && matches!((unstamp(&c.claimed_at), unstamp(&c.seen_at)), (Ok(made), Ok(seen)) if made < seen)
    })
}

/// The moment decision `d` stops at, for a stop at `at` (`claim`: the stop's claim, if a page's queue replayed
/// it): a claim earlier than the stop's first arrival is kept only when the start was a replay; else the first
/// arrival (never before the start).
pub fn stop_moment(d: &DecisionRow, at: DateTime<Utc>, claim: Option<Claimed>) -> Result<DateTime<Utc>> {
    match claim {
        Some(c) if at < c.seen && !start_is_replay(d) => Ok(c.seen.max(unstamp(&d.started_at)?)),
        _ => Ok(at),
    }
}

/// A decision whose claimed moments give another length than the server saw.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ClaimedDecision {
    /// The decision's id.
    pub decision: i64,
    /// The deciding player.
    pub player: String,
    /// When it started, as recorded (RFC 3339).
    pub started_at: String,
    /// Its length as the moments claimed give it.
    pub claimed_ms: i64,
    /// Its length as the server saw the taps arrive.
    pub seen_ms: i64,
    /// Its length as recorded (the overrun is counted from it).
    pub recorded_ms: i64,
    /// Its overrun as recorded.
    pub overrun_ms: i64,
    /// In words: `Cy: 1.0 s as claimed, 55.0 s as the server saw it; recorded 55.0 s (the claim was not taken:
    /// the start arrived live)`.
    pub words: String,
}

/// The finished decisions at `table` in the current round whose claimed moments give another length than the
/// server saw, oldest first.
pub fn claimed_at_table(conn: &Connection, table: u32) -> Result<Vec<ClaimedDecision>> {
    let number = round::current(conn)?;
    let Some(m) = matches::at_table(conn, number, table)? else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for d in store_clock::decisions(conn, Some(m.id), None)? {
        if d.start_claim.is_none() && d.end_claim.is_none() {
            continue;
        }
        let (Some(ended_at), Some(recorded_ms)) = (&d.ended_at, d.duration_ms) else { continue };
        let ms = |from: &str, to: &str| -> Result<i64> { Ok((unstamp(to)? - unstamp(from)?).num_milliseconds()) };
        let claimed = |c: &Option<Claim>, taken: &str| c.as_ref().map_or(taken.to_string(), |c| c.claimed_at.clone());
        let seen = |c: &Option<Claim>, taken: &str| c.as_ref().map_or(taken.to_string(), |c| c.seen_at.clone());
        let claimed_ms = ms(&claimed(&d.start_claim, &d.started_at), &claimed(&d.end_claim, ended_at))?;
        let seen_ms = ms(&seen(&d.start_claim, &d.started_at), &seen(&d.end_claim, ended_at))?;
        if claimed_ms == seen_ms {
            continue;
        }
        let player = crate::store::player::get(conn, d.player_id)?.name;
        let why = if recorded_ms == claimed_ms {
            if start_is_replay(&d) { " (the claim was taken: the start was sent late too)" } else { "" }
        } else if claimed_ms < recorded_ms && !start_is_replay(&d) {
            " (the claim was not taken: the start arrived live)"
        } else {
            " (the claim was not taken)"
        };
        let words = format!(
            "{player}: {} as claimed, {} as the server saw it; recorded {}{why}",
            secs_text(claimed_ms),
            secs_text(seen_ms),
            secs_text(recorded_ms)
        );
        out.push(ClaimedDecision {
            decision: d.id,
            player,
            started_at: d.started_at.clone(),
            claimed_ms,
            seen_ms,
            recorded_ms,
            overrun_ms: d.overrun_ms.unwrap_or(0),
            words,
        });
    }
    Ok(out)
}
