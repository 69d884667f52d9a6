//! What the live server shows: the event and its round clock, a table (players, libraries, result, clock),
//! where a player sits, the round's pairings and the judges' dashboard. Each view is read in one read
//! transaction; instants are RFC 3339 so a phone computes the time left against the server's now.

use crate::domain::clock::{ClockSettings, TableClock};
use crate::domain::settings::Values;
use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::ops::player_names;
use crate::ops::table::clocks::decisions::Overrun;
use crate::store::matches::{Match, Outcome};
use crate::store::{MatchId, Store, clock, event, library, matches, round};
use crate::time::{stamp, unstamp};
use chrono::{DateTime, Utc};
use rusqlite::Connection;
use std::collections::HashMap;

mod changes;
mod me;
pub use changes::touched_since;
pub use me::{
    BYE_POINTS, ByeView, PlayerState, WaitingReport, byes_in, differ, reports_differ_at_table, round_byes,
    waiting_at_table,
};

/// The current round's state and clock.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RoundView {
    /// Round number.
    pub number: u32,
    /// `paired` (clock not started), `running` or `ended`.
    pub state: &'static str,
    /// When its clock started.
    pub started_at: Option<String>,
    /// When time is called (without extensions).
    pub ends_at: Option<String>,
    /// When the final window starts.
    pub final_window_at: Option<String>,
    /// When the round was closed.
    pub ended_at: Option<String>,
    /// When deck inspection ends and the round's clock starts (RFC 3339), while inspection runs or is to come
    /// (event setting `inspection-minutes`); a page switches to the round's clock by itself at that instant.
    pub inspection_until: Option<String>,
    /// Tables (byes left out).
    pub tables: usize,
    /// Tables with a result.
    pub finished: usize,
}

/// The home page: the event, its current round, and the server's now.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Home {
    /// The event's name.
    pub event: String,
    /// Rounds planned.
    pub rounds: i64,
    /// The current round (None before round 1 is paired).
    pub round: Option<RoundView>,
    /// The event is over (its last planned round played with every result in): its winner and the top of its
    /// final standings; None while it is not.
    pub finished: Option<crate::ops::standings::EventEnd>,
    /// The server's now (RFC 3339).
    pub now: String,
}

/// One seat at a table.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SeatView {
    /// `A` or `B`.
    pub seat: &'static str,
    /// The player.
    pub player: String,
    /// The library played there ("3A"), when the event has libraries.
    pub library: Option<String>,
}

/// A table of the current round.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TableView {
    /// Round number.
    pub round: u32,
    /// Table number.
    pub table: u32,
    /// The match's id.
    #[serde(rename = "match")]
    pub match_id: i64,
    /// Seats A and B.
    pub seats: Vec<SeatView>,
    /// The result in words ("Ana won by life"), once recorded.
    pub result: Option<String>,
    /// `playing`, `finished` or `over-time` (time called at the table and no result yet: its own end passed, or
    /// the round was ended anyway).
    pub state: &'static str,
    /// When time is called at this table (extensions included; the round's close when the round was ended
    /// anyway first), once the round started.
    pub ends_at: Option<String>,
    /// Time was called at the round's close, before the table's own end ("End the round anyway").
    pub called_at_close: bool,
    /// When the table's final window opens (RFC 3339), once the round started: the shorter decision limit is in
    /// force from then (a page switches by itself).
    pub final_window_at: Option<String>,
    /// Extensions given at this table, in seconds.
    pub extension_seconds: i64,
    /// The decision running now: who and since when.
    pub decision: Option<DecisionView>,
    /// The decision limit in force now (seconds), once the round started.
    pub decision_limit: Option<u32>,
    /// The decision limit from `final_window_at` on (seconds), once the round started.
    pub window_limit: Option<u32>,
    /// When the running decision goes over its limit (RFC 3339), by the server's rule: a decision begun before
    /// the final window keeps the earlier of its own limit and the window's opening plus the shorter limit.
    pub decision_deadline: Option<String>,
}

/// A decision running at a table.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DecisionView {
    /// The player deciding.
    pub player: String,
    /// Since when (RFC 3339).
    pub started_at: String,
}

/// Where a player sits in the current round.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PlayerSeat {
    /// The player's name.
    pub name: String,
    /// Round number (0 before round 1 is paired).
    pub round: u32,
    /// The table (None for a bye or when not seated).
    pub table: Option<u32>,
    /// `A` or `B`.
    pub seat: Option<&'static str>,
    /// The library the player plays.
    pub library: Option<String>,
    /// The opponent.
    pub opponent: Option<String>,
    /// Whether the player has the bye.
    pub bye: bool,
    /// The result, once recorded.
    pub result: Option<String>,
    /// When time is called at the table.
    pub ends_at: Option<String>,
    /// The bye, when the player has it: the round, and what it counts as (a win, 3 points).
    pub bye_result: Option<ByeView>,
    /// Where the player sits in the round after this one, once that round is paired (a movement's plan can change:
    /// a late entry may switch the event to Swiss).
    pub next: Option<NextSeat>,
    /// The self-reported result waiting at the player's table, in words ("reported by Ana, waiting for Bo").
    pub self_report: Option<String>,
    /// The two reports at the player's table when they differ, in words ("Ana says ...; Bo says ..."): a judge
    /// decides.
    pub reports_differ: Option<String>,
    /// The one report waiting at the player's table for a player's word, in full (None when none, or two in
    /// conflict).
    pub waiting_report: Option<WaitingReport>,
    /// The player's state when not simply playing: dropped (after which round, when, why), disqualified, a late
    /// entry.
    pub state: Option<PlayerState>,
    /// Since when a judge call from the player's table is open (RFC 3339).
    pub call_since: Option<String>,
    /// The player's result, when it was confirmed in their name on one device or from the reporter's address:
    /// their word stays open ("That's not what happened") until the next round is paired.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flagged: Option<crate::ops::table::device::witness::FlagView>,
    /// While players check in (check-in on, round 1 not paired): whether this player has; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked_in: Option<bool>,
}

/// A player's seat in the next round.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NextSeat {
    /// The table (None for a bye).
    pub table: Option<u32>,
    /// The seat, `A` or `B`.
    pub seat: Option<String>,
    /// Whether it is a bye.
    pub bye: bool,
}

/// The judges' dashboard: the round and every table's state.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Dashboard {
    /// The home view (event, round, now).
    pub home: Home,
    /// Every table of the current round.
    pub tables: Vec<TableView>,
    /// The current round's byes (the tables leave them out).
    pub byes: Vec<ByeView>,
    /// Players' calls for a judge still open in the current round, by table, with their age.
    pub calls: Vec<crate::ops::table::device::calls::WaitingCall>,
    /// Players' self-reported results waiting for the opponent or in conflict, by table.
    pub self_reports: Vec<crate::ops::table::device::self_report::WaitingReports>,
    /// Results of the current round confirmed on a shared device or from the reporter's address, by table (see
    /// `ops::table::device::witness`).
    pub flagged: Vec<crate::ops::table::device::witness::FlagView>,
    /// The players round 1 waits for while check-in is on (by name; empty once round 1 is paired).
    pub not_checked_in: Vec<String>,
    /// The libraries carried this round for players who stay at one table (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub carry: Vec<crate::ops::pairings::Carry>,
}

fn settings_of(values: &Values) -> ClockSettings {
    let n = |k: &str| u32::try_from(values.number(k)).unwrap_or(0);
    ClockSettings {
        round_minutes: n("round-minutes"),
        decision_secs: n("decision-seconds"),
        final_window_minutes: n("final-window-minutes"),
        final_decision_secs: n("final-decision-seconds"),
    }
}

/// The home view at `now`.
pub fn home(store: &Store, now: DateTime<Utc>) -> Result<Home> {
    store.read(|conn| home_in(conn, now))
}

fn home_in(conn: &Connection, now: DateTime<Utc>) -> Result<Home> {
    let values = event::values(conn)?;
    let number = round::current(conn)?;
    let view = match round::get(conn, number)? {
        Some(r) if number > 0 => {
            let (tables, finished) = matches::counts_of_round(conn, number)?;
            let clock =
                r.started_at.as_deref().and_then(|s| unstamp(s).ok()).map(|s| TableClock::new(s, settings_of(&values)));
            let state = match (&r.started_at, &r.ended_at) {
                (_, Some(_)) => "ended",
                (Some(_), None) => "running",
                (None, None) => "paired",
            };
            let inspection_until = clock
                .as_ref()
                .filter(|c| values.number("inspection-minutes") > 0 && r.ended_at.is_none() && c.started > now)
                .map(|c| stamp(c.started));
            Some(RoundView {
                inspection_until,
                number,
                state,
                started_at: r.started_at.clone(),
                ends_at: clock.as_ref().map(|c| stamp(c.end())),
                final_window_at: clock.as_ref().map(|c| stamp(c.final_window_starts())),
                ended_at: r.ended_at.clone(),
                tables,
                finished,
            })
        }
        _ => None,
    };
    let rounds = values.number("rounds");
    let running = view.as_ref().is_some_and(|r| r.state == "running");
    let finished = crate::ops::standings::event_end_if_likely(conn, rounds, number, running)?;
    Ok(Home { event: values.name().to_string(), rounds, round: view, finished, now: stamp(now) })
}

/// The current round's tables, by table number.
pub fn tables(store: &Store, now: DateTime<Utc>) -> Result<Vec<TableView>> {
    store.read(|conn| tables_in(conn, None, now, None))
}

/// The tables of round `round` (None: the current round), by table number; 404 for a round not paired, with the
/// same words as `mmjudge pairings --round N`.
pub fn round_tables(store: &Store, round: Option<u32>, now: DateTime<Utc>) -> Result<Vec<TableView>> {
    store.read(|conn| {
        if round.is_some() {
            crate::ops::pairings::pairings(conn, round)?;
        }
        tables_in(conn, round, now, None)
    })
}

/// One table of the current round; 404 when the round has no such table.
pub fn table(store: &Store, number: u32, now: DateTime<Utc>) -> Result<TableView> {
    store.read(|conn| {
        if let Some(one) = tables_in(conn, None, now, Some(number))?.pop() {
            return Ok(one);
        }
        // The tables there are, for the refusal (those `tables` lists).
        let tables: Vec<u32> = match round::current(conn)? {
            0 => Vec::new(),
            current => {
                matches::of_round(conn, current)?.iter().filter(|m| m.b.is_some()).filter_map(|m| m.table).collect()
            }
        };
        Err(if tables.is_empty() {
            Error::not_found(format!("no table {number}: no round is paired yet"))
        } else {
            Error::not_found(format!("no table {number} in this round: {}", tables_words(tables)))
        })
    })
}

/// The tables of round `asked` (None: the current round), or only table `only` of it.
fn tables_in(conn: &Connection, asked: Option<u32>, now: DateTime<Utc>, only: Option<u32>) -> Result<Vec<TableView>> {
    let number = match asked {
        Some(n) => n,
        None => round::current(conn)?,
    };
    let Some(r) = round::get(conn, number)?.filter(|_| number > 0) else { return Ok(Vec::new()) };
    let names = player_names::names_by_id(conn)?;
    let labels = library::labels(conn)?;
    let settings = settings_of(&event::values(conn)?);
    let started = r.started_at.as_deref().and_then(|s| unstamp(s).ok());
    let closed = r.ended_at.as_deref().map(unstamp).transpose()?;
    // The round's extensions and running decisions in one query each, not two queries a table.
    let mut extensions: HashMap<MatchId, i64> = HashMap::new();
    for e in clock::extensions_of_round(conn, number)?.into_iter().filter(|e| e.voided.is_none()) {
        *extensions.entry(e.match_id).or_default() += e.seconds;
    }
    let running: HashMap<MatchId, clock::DecisionRow> =
        clock::running_in_round(conn, number)?.into_iter().map(|d| (d.match_id, d)).collect();
    let mut out = Vec::new();
    for m in matches::of_round(conn, number)? {
        let (Some(table), Some(b)) = (m.table, m.b) else { continue };
        if only.is_some_and(|t| t != table) {
            continue;
        }
        let name = |p| names.get(&p).cloned().unwrap_or_default();
        let seats = vec![
            SeatView { seat: "A", player: name(m.a), library: m.a_library.and_then(|l| labels.get(&l).cloned()) },
            SeatView { seat: "B", player: name(b), library: m.b_library.and_then(|l| labels.get(&l).cloned()) },
        ];
        let extension_seconds = extensions.get(&m.id).copied().unwrap_or(0);
        let clock = started.map(|s| {
            let mut c = TableClock::new(s, settings).closed_at(closed);
            c.extend(extension_seconds);
            c
        });
        let decision =
            running.get(&m.id).map(|d| DecisionView { player: name(d.player_id), started_at: d.started_at.clone() });
        let state = match (&m.outcome, &clock) {
            (Some(_), _) => "finished",
            (None, Some(c)) if c.is_over(now) => "over-time",
            _ => "playing",
        };
        let decision_deadline = match (running.get(&m.id), &clock) {
            (Some(d), Some(c)) => Some(stamp(crate::domain::clock::decision_deadline(c, unstamp(&d.started_at)?))),
            _ => None,
        };
        out.push(TableView {
            round: number,
            table,
            match_id: m.id.0,
            result: result_text(&m, &seats),
            seats,
            state,
            ends_at: clock.as_ref().map(|c| stamp(c.called())),
            called_at_close: clock.as_ref().is_some_and(TableClock::called_at_close),
            final_window_at: clock.as_ref().map(|c| stamp(c.final_window_starts())),
            extension_seconds,
            decision,
            decision_limit: clock.as_ref().map(|c| c.decision_limit_at(now)),
            window_limit: clock.as_ref().map(|c| c.settings.final_decision_secs),
            decision_deadline,
        });
    }
    out.sort_by_key(|t| t.table);
    Ok(out)
}

/// The tables there are, as runs: "the tables are 1 to 4, 6 and 7", "the only table is 3".
fn tables_words(mut tables: Vec<u32>) -> String {
    tables.sort_unstable();
    tables.dedup();
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for t in tables {
        match runs.last_mut() {
            Some((_, hi)) if *hi + 1 == t => *hi = t,
            _ => runs.push((t, t)),
        }
    }
    let mut words: Vec<String> = Vec::new();
    for &(lo, hi) in &runs {
        match hi - lo {
            0 => words.push(lo.to_string()),
            1 => words.extend([lo.to_string(), hi.to_string()]),
            _ => words.push(format!("{lo} to {hi}")),
        }
    }
    match (runs.as_slice(), words.split_last()) {
        ([(lo, hi)], _) if lo == hi => format!("the only table is {lo}"),
        (_, Some((last, rest))) if !rest.is_empty() => format!("the tables are {} and {last}", rest.join(", ")),
        _ => format!("the tables are {}", words.join(", ")),
    }
}

fn result_text(m: &Match, seats: &[SeatView]) -> Option<String> {
    let reason = m.reason.as_deref().unwrap_or("result");
    let who = |i: usize| seats.get(i).map(|s| s.player.as_str()).unwrap_or("?");
    Some(match m.outcome? {
        Outcome::A => format!("{} won by {reason}", who(0)),
        Outcome::B => format!("{} won by {reason}", who(1)),
        Outcome::Draw if reason == "intentional-draw" => "intentional draw".to_string(),
        Outcome::Draw => format!("draw ({})", reason.replace('-', " ")),
    })
}

/// Where the player a typed name means sits in the current round (404 for an unknown name, 400 for one that
/// matches several players).
pub fn find_player(store: &Store, query: &str, now: DateTime<Utc>) -> Result<PlayerSeat> {
    store.read(|conn| {
        let p = player_names::find(conn, query)?;
        let number = round::current(conn)?;
        let mut seat = PlayerSeat {
            name: p.name.clone(),
            round: number,
            table: None,
            seat: None,
            library: None,
            opponent: None,
            bye: false,
            result: None,
            ends_at: None,
            bye_result: None,
            next: None,
            self_report: None,
            reports_differ: None,
            waiting_report: None,
            state: me::state_of(conn, &p)?,
            call_since: None,
            flagged: None,
            checked_in: me::checked_in(conn, &p)?,
        };
        // The round after this one only once it is paired: a plan is not a seat.
        if number > 0
            && let Some(n) = matches::of_player_in_round(conn, p.id, number + 1)?
        {
            seat.next = Some(match n.table {
                Some(table) => {
                    let s = if n.a == p.id { "A" } else { "B" };
                    NextSeat { table: Some(table), seat: Some(s.to_string()), bye: false }
                }
                None => NextSeat { table: None, seat: None, bye: true },
            });
        }
        let Some(m) = matches::of_player_in_round(conn, p.id, number)? else { return Ok(seat) };
        if m.is_bye() {
            seat.bye = true;
            seat.bye_result = Some(me::bye(number, &p.name));
            return Ok(seat);
        }
        let view = match m.table {
            Some(t) => tables_in(conn, None, now, Some(t))?.pop(),
            None => None,
        };
        if let Some(t) = view {
            let mine = if m.a == p.id { 0 } else { 1 };
            seat.table = Some(t.table);
            seat.seat = t.seats.get(mine).map(|s| s.seat);
            seat.library = t.seats.get(mine).and_then(|s| s.library.clone());
            seat.opponent = t.seats.get(1 - mine).map(|s| s.player.clone());
            seat.result = t.result;
            seat.ends_at = t.ends_at;
            let seated = crate::ops::table::Seated::load(conn, m)?;
            let waiting = crate::ops::table::device::self_report::waiting_at(conn, &seated)?;
            seat.waiting_report = me::waiting_report(conn, &seated)?;
            seat.reports_differ = waiting.as_ref().and_then(me::differ);
            seat.self_report = waiting.map(|w| w.words);
            seat.call_since = crate::ops::table::device::calls::open_at(conn, &seated)?.map(|c| c.since);
            seat.flagged = crate::ops::table::device::witness::flag_for(conn, &seated, p.id)?;
        }
        Ok(seat)
    })
}

/// The judges' dashboard at `now`.
pub fn dashboard(store: &Store, now: DateTime<Utc>) -> Result<Dashboard> {
    store.read(|conn| {
        Ok(Dashboard {
            home: home_in(conn, now)?,
            tables: tables_in(conn, None, now, None)?,
            byes: byes_in(conn, None)?,
            calls: crate::ops::table::device::calls::open_calls(conn, now)?.calls,
            self_reports: crate::ops::table::device::self_report::waiting_now(conn)?,
            flagged: crate::ops::table::device::witness::flags_now(conn)?,
            not_checked_in: me::not_checked_in(conn)?,
            carry: crate::ops::pairings::carried(conn, crate::store::round::current(conn)?)?,
        })
    })
}

/// The decisions of round `round` that went over their limit (as recorded, or as the server saw them when a
/// claim recorded them shorter), oldest first, as `decisions --json` lists overruns (the judges' dashboard shows
/// the current round's).
pub fn round_overruns(store: &Store, round: u32) -> Result<Vec<Overrun>> {
    store.read(|conn| {
        let names = player_names::names_by_id(conn)?;
        let tables: HashMap<_, _> = matches::of_round(conn, round)?.into_iter().map(|m| (m.id, m.table)).collect();
        let mut out = Vec::new();
        for d in clock::overruns_in_round(conn, round)? {
            let (table, player) = (tables.get(&d.match_id).copied().flatten(), names.get(&d.player_id).cloned());
            out.extend(crate::ops::table::clocks::decisions::overrun_of(&d, round, table, player.unwrap_or_default())?);
        }
        Ok(out)
    })
}

/// The changes after the audit entry `after` that phones hear of, as `(audit id, topic name)` in the order of
/// their ids: one per topic, carrying the id of the latest write that named it (a phone reloads what the topic
/// covers, so the earlier ones are in it); with the highest entry now. Each write names its topics when it is
/// made (see `store::Change::topics`); a write naming none (a login, a judge added) is heard by no phone.
pub fn changes_since(store: &Store, after: i64) -> Result<(i64, Vec<(i64, &'static str)>)> {
    store.read(|conn| {
        let last = crate::store::audit::last_id(conn)?;
        let mut latest: Vec<(i64, Topic)> = Vec::new();
        for (id, touched) in crate::store::audit::topics_after(conn, after)? {
            latest.retain(|(_, seen)| *seen != touched.topic);
            latest.push((id, touched.topic));
        }
        Ok((last, latest.into_iter().map(|(id, topic)| (id, topic.as_str())).collect()))
    })
}

/// The highest audit entry now (0 for none).
pub fn last_change(store: &Store) -> Result<i64> {
    store.read(crate::store::audit::last_id)
}

#[cfg(test)]
mod tests;
