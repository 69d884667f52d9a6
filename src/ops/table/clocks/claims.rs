//! Moments claimed by a page's queue for the decision clock: a tap made while the network was down is sent later
//! with the moment it was made, and how its page kept it (`"queued"`: `"unreachable"`, or `503` with the status
//! the server kept with the key's first arrival). The rules (the deciding player wants a shorter record, the
//! opponent a longer one, and either may hold the other's code):
//! - a claim lies between the decision's recorded start (for a start: the match's latest decision record and the
//!   round's start) and the key's first arrival, at most [`AT_BACK`] before it; when no claim fits, the moment is
//!   that first arrival (a try answered 503 kept it), never the start clamped;
//! - a start is a replay only when its page said so and the server could check it, or could not
//!   (`unreachable`); a start with a moment and no `queued` arrived live, and a claim never shortens a decision
//!   whose start arrived live;
//! - a hand-over stops the decider at its checked moment and starts the opponent at the hand-over's arrival as the
//!   server saw it, with no claim: the gap between them is nobody's;
//! - a claim annotates, never erases: every decision keeps both lengths ([`claimed_at_table`]), and an overrun as
//!   the server saw it counts as a possible overrun, marked "claimed shorter" ([`seen_overrun_ms`]).

use crate::domain::clock::seconds_text as secs_text;
use crate::error::Result;
use crate::ops::write_keys::AT_BACK;
use crate::store::clock::{self as store_clock, Claim, DecisionRow};
use crate::store::{Claimed, MatchId, matches, round};
use crate::time::{stamp, unstamp};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// The claim of a replayed write as the decision records it (`start`: a start's, which keeps how it was queued).
pub fn claim_of(c: &Claimed, start: bool) -> Claim {
    let queued = if start { c.queued.map(|q| q.as_str().to_string()) } else { None };
    Claim { claimed_at: stamp(c.made), seen_at: stamp(c.seen), queued }
}

/// The decision running at `table` in the current round, if any.
pub fn running_at(conn: &Connection, table: u32) -> Result<Option<DecisionRow>> {
    let number = round::current(conn)?;
    match matches::at_table(conn, number, table)? {
        Some(m) => store_clock::running(conn, m.id),
        None => Ok(None),
    }
}

/// Whether decision `d`'s start was a replay: its page said so (and the server checked a 503), and its claimed
/// moment was taken.
pub fn start_is_replay(d: &DecisionRow) -> bool {
    d.start_claim.as_ref().is_some_and(|c| c.queued.is_some() && c.claimed_at == d.started_at)
}

/// Whether decision `d`'s start was a replay that could not be checked (`unreachable`): always shown with both
/// lengths, its overrun as the server saw it counted.
pub fn start_unchecked(d: &DecisionRow) -> bool {
    d.start_claim.as_ref().is_some_and(|c| c.queued.as_deref() == Some("unreachable"))
}

/// The moment a claim may not lie before, for a start at match `m`: the round's start and the match's latest
/// decision record (read from the decisions, not from the audit).
pub fn start_bound(
    conn: &Connection,
    m: MatchId,
    round_started: Option<DateTime<Utc>>,
) -> Result<Option<DateTime<Utc>>> {
    let last = store_clock::last_moment(conn, m)?.map(|l| unstamp(&l)).transpose()?;
    Ok(match (last, round_started) {
        (Some(l), Some(r)) => Some(l.max(r)),
        (l, r) => l.or(r),
    })
}

/// The moment a start with claim `c` is recorded at (`bound`: see [`start_bound`]): the claim when it is a replay
/// and lies between the bound and the key's first arrival (at most [`AT_BACK`] before it); else that first
/// arrival (this try's when the first lies before the bound).
pub fn start_moment(bound: Option<DateTime<Utc>>, c: &Claimed) -> DateTime<Utc> {
    let seen = if bound.is_none_or(|b| c.seen >= b) { c.seen } else { c.arrival };
    let fits = c.queued.is_some() && bound.is_none_or(|b| c.made >= b) && c.made <= seen && seen - c.made <= AT_BACK;
    if fits { c.made } else { seen }
}

/// The moments of a decision's end sent with claim `c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndMoments {
    /// When the decision stops.
    pub stop: DateTime<Utc>,
    /// When the server saw the end (a hand-over starts the opponent's decision then).
    pub seen: DateTime<Utc>,
}

/// The moments of running decision `d`'s end for a stop (or hand-over) with claim `c`: the claim when the start
/// was a replay and it lies between the recorded start and the key's first arrival (at most [`AT_BACK`] before
/// it); else that first arrival (a try answered 503 kept it; this try's arrival when the first lies before the
/// start), never the start clamped.
pub fn end_moments(d: &DecisionRow, c: &Claimed) -> Result<EndMoments> {
    let started = unstamp(&d.started_at)?;
    let seen = if c.seen >= started { c.seen } else { c.arrival.max(started) };
    let fits = started <= c.made && c.made <= seen && seen - c.made <= AT_BACK;
    let stop = if fits && start_is_replay(d) { c.made } else { seen };
    Ok(EndMoments { stop, seen })
}

/// The length of decision `d` as the server saw its taps arrive, in milliseconds (None while it runs).
pub fn seen_ms(d: &DecisionRow) -> Result<Option<i64>> {
    let Some(ended_at) = &d.ended_at else { return Ok(None) };
    let seen = |c: &Option<Claim>, taken: &str| c.as_ref().map_or(taken.to_string(), |c| c.seen_at.clone());
    let from = unstamp(&seen(&d.start_claim, &d.started_at))?;
    let to = unstamp(&seen(&d.end_claim, ended_at))?;
    Ok(Some((to - from).num_milliseconds()))
}

/// The overrun of decision `d` as the server saw it, when the recorded one is shorter (a claim shortened it):
/// counted as a possible overrun, "claimed shorter". None when it did not go over as the server saw it, or when
/// the recorded overrun is as long.
pub fn seen_overrun_ms(d: &DecisionRow) -> Result<Option<i64>> {
    let (Some(seen), Some(limit)) = (seen_ms(d)?, d.limit_ms) else { return Ok(None) };
    let over = seen - limit;
    Ok((over > 0 && over > d.overrun_ms.unwrap_or(0)).then_some(over))
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
    /// Its overrun as the server saw it, when a claim recorded it shorter (a possible overrun, "claimed shorter").
    pub seen_overrun_ms: Option<i64>,
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
        if claimed_ms == seen_ms && !start_unchecked(&d) {
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
        let seen_overrun = seen_overrun_ms(&d)?;
        let over = match seen_overrun {
            Some(over) => {
                format!("; over by {} as the server saw it: a possible overrun, claimed shorter", secs_text(over))
            }
            None => String::new(),
        };
        let words = format!(
            "{player}: {} as claimed, {} as the server saw it; recorded {}{why}{over}",
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
            seen_overrun_ms: seen_overrun,
            words,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{PlayerId, Queued};

    fn t(s: &str) -> DateTime<Utc> {
        unstamp(&format!("2025-05-01T{s}Z")).unwrap_or_default()
    }

    /// A decision running since `started`, its start claimed as `claim` (`(claimed, seen, queued)`).
    fn running(started: &str, claim: Option<(&str, &str, Option<&str>)>) -> DecisionRow {
        DecisionRow {
            id: 1,
            match_id: MatchId(1),
            player_id: PlayerId(1),
            started_at: stamp(t(started)),
            ended_at: None,
            duration_ms: None,
            limit_ms: None,
            overrun_ms: None,
            start_claim: claim.map(|(c, s, q)| Claim {
                claimed_at: stamp(t(c)),
                seen_at: stamp(t(s)),
                queued: q.map(String::from),
            }),
            end_claim: None,
        }
    }

    fn claimed(made: &str, seen: &str, arrival: &str, queued: Option<Queued>) -> Claimed {
        Claimed { made: t(made), seen: t(seen), arrival: t(arrival), queued }
    }

    #[test]
    fn a_stops_claim_is_taken_only_after_a_replayed_start_and_before_the_keys_first_arrival() {
        let live = running("10:00:00.000", None);
        let replayed = running("10:00:00.000", Some(("10:00:00.000", "10:00:05.000", Some("unreachable"))));
        // Claimed 0.3 s in, arriving 6 s in (no 503 kept): a live start keeps what the server saw.
        let c = claimed("10:00:00.300", "10:00:06.000", "10:00:06.000", None);
        assert_eq!(end_moments(&live, &c).ok().map(|e| e.stop), Some(t("10:00:06.000")));
        assert_eq!(end_moments(&replayed, &c).ok().map(|e| e.stop), Some(t("10:00:00.300")));
        // A claim before the start: the first arrival, never the start clamped.
        let early = claimed("09:59:59.000", "10:00:06.000", "10:00:06.000", None);
        assert_eq!(end_moments(&replayed, &early).ok().map(|e| e.stop), Some(t("10:00:06.000")));
        // A 503 kept at 2 s: that first arrival bounds the claim and is the moment when none fits.
        let busy = claimed("10:00:03.000", "10:00:02.000", "10:00:09.000", None);
        assert_eq!(
            end_moments(&live, &busy).ok(),
            Some(EndMoments { stop: t("10:00:02.000"), seen: t("10:00:02.000") })
        );
        // A first arrival before the decision's start (kept from another decision's time): this try's arrival.
        let stale = claimed("10:00:01.000", "09:59:00.000", "10:00:09.000", None);
        assert_eq!(end_moments(&live, &stale).ok().map(|e| e.seen), Some(t("10:00:09.000")));
    }

    #[test]
    fn a_starts_claim_is_taken_only_when_its_page_said_it_was_replayed_and_after_the_matchs_last_record() {
        let bound = Some(t("10:00:00.000"));
        let live = claimed("10:00:05.000", "10:00:05.001", "10:00:05.001", None);
        assert_eq!(start_moment(bound, &live), t("10:00:05.001"), "the 1 ms \"replay\" is live");
        let offline = claimed("10:00:05.000", "10:00:11.000", "10:00:11.000", Some(Queued::Unreachable));
        assert_eq!(start_moment(bound, &offline), t("10:00:05.000"));
        assert_eq!(start_moment(Some(t("10:00:06.000")), &offline), t("10:00:11.000"), "before the last record");
        let far = claimed("10:00:05.000", "10:03:00.000", "10:03:00.000", Some(Queued::Busy));
        assert_eq!(start_moment(bound, &far), t("10:03:00.000"), "more than two minutes back");
    }
}
