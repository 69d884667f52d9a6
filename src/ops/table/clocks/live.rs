//! The live decision clock at one table (the terminal's clock screen, or a phone): each write is its own
//! transaction with its audit line, made the moment it happens, so a crash loses at most the decision in
//! progress. A hand-over is one decision saved and the other player's begun; a long judge-call pause becomes
//! an extension of the table's round clock.

use crate::domain::clock::{Decision, TableClock, decision_outcome_paused};
use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::ops::table::clocks::clock::{finished, name_of, summary, table_clock, timed_match, when, when_text};
use crate::store::clock as store_clock;
use crate::store::matches::Match;
use crate::store::{Actor, Change, PlayerId, Store, Touched, round};
use crate::time::{stamp, unstamp};
use chrono::{DateTime, Duration, Utc};
use rusqlite::Connection;

/// A table of the current round opened for live timing.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveTable {
    /// The table.
    pub table: u32,
    /// The match.
    pub game: Match,
    /// When the round's clock started.
    pub round_start: DateTime<Utc>,
    /// The two players, seat A first.
    pub players: [PlayerId; 2],
    /// Their names.
    pub names: [String; 2],
    /// The table's round clock as it stood when opened.
    pub clock: TableClock,
}

/// Opens `table` of the current round for live timing, after the same checks as a scripted start (round
/// started and open, match undecided, two players), read in one read transaction.
pub fn open_live(store: &Store, table: u32) -> Result<LiveTable> {
    store.read(|conn| open_live_in(conn, table))
}

fn open_live_in(conn: &Connection, table: u32) -> Result<LiveTable> {
    let (game, round_start) = timed_match(conn, table, None)?;
    let Some(b) = game.b else {
        return Err(Error::refused(format!("table {table} has no opponent (a bye): nothing to time")));
    };
    Ok(LiveTable {
        table,
        players: [game.a, b],
        names: [name_of(conn, game.a)?, name_of(conn, b)?],
        clock: table_clock(conn, round_start, &game)?,
        round_start,
        game,
    })
}

/// The decision running at the table, if any: who, and since when.
pub fn running_decision(store: &Store, live: &LiveTable) -> Result<Option<(PlayerId, DateTime<Utc>)>> {
    match store_clock::running(store.conn(), live.game.id)? {
        Some(d) => Ok(Some((d.player_id, unstamp(&d.started_at)?))),
        None => Ok(None),
    }
}

/// The table's extensions in all, in seconds (granted here or at another terminal).
pub fn extension_secs(store: &Store, live: &LiveTable) -> Result<i64> {
    store_clock::extension_secs(store.conn(), live.game.id)
}

/// Records that `who` started deciding at `started`, refusing while a decision runs at the table (one decision
/// per table; the store's index enforces it too), once the round is closed or the match has a result.
pub fn begin_decision(
    store: &mut Store,
    actor: &Actor,
    live: &LiveTable,
    who: PlayerId,
    started: DateTime<Utc>,
) -> Result<i64> {
    let m = &live.game;
    store.write(actor, |conn| {
        if let Some(ended) = round::get(conn, m.round)?.and_then(|r| r.ended_at) {
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
        let id = store_clock::start_decision(conn, m.id, who, &stamp(started))?;
        let summary = format!(
            "table {} (round {}): {} deciding from {} (clock screen)",
            m.table.unwrap_or(0),
            m.round,
            name_of(conn, who)?,
            when(started)
        );
        Ok((id, Change::about(summary, [who]).touching(Touched::of_match(Topic::Clock, m).player(who))))
    })
}

/// Saves the decision of `who` begun with [`begin_decision`] that ran over `(started, ended)` with judge-call
/// pauses of `paused` in all, with its limit and overrun; one stopped, cancelled or replaced at another
/// terminal meanwhile is refused.
pub fn save_decision(
    store: &mut Store,
    actor: &Actor,
    live: &LiveTable,
    who: PlayerId,
    (started, ended): (DateTime<Utc>, DateTime<Utc>),
    paused: Duration,
) -> Result<Decision> {
    let m = &live.game;
    store.write(actor, |conn| {
        let d = decision_outcome_paused(&table_clock(conn, live.round_start, m)?, started, ended, paused);
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
        Ok((d, Change::about(summary, [who]).touching(Touched::of_match(Topic::Clock, m).player(who))))
    })
}

/// Logs a stall of `who` at `at` (a decision over its limit, for a judge to review); returns the stall's id.
pub fn log_stall(store: &mut Store, actor: &Actor, live: &LiveTable, who: PlayerId, at: DateTime<Utc>) -> Result<i64> {
    let m = &live.game;
    store.write(actor, |conn| {
        let id = store_clock::add_stall(conn, m.id, who, &stamp(at))?;
        let summary = format!(
            "table {} (round {}): stall logged for {} on the clock screen (stall #{id})",
            m.table.unwrap_or(0),
            m.round,
            name_of(conn, who)?
        );
        Ok((id, Change::about(summary, [who]).touching(Touched::of_match(Topic::Clock, m).player(who))))
    })
}

/// Extends the table's round clock by `secs` after a judge-call pause of that length (`reason` says why);
/// returns the extension's id.
pub fn pause_extension(store: &mut Store, actor: &Actor, live: &LiveTable, secs: i64, reason: &str) -> Result<i64> {
    let m = &live.game;
    let length = crate::ops::table::clocks::clock::clock_text(Duration::seconds(secs));
    let reason = format!("{reason}: a pause of {length} on the clock screen");
    let at = actor.at;
    store.write(actor, |conn| {
        let id = store_clock::add_extension(conn, m.id, secs, &reason, &stamp(at))?;
        let summary = format!("table {} (round {}): extended by {secs} s for {reason}", m.table.unwrap_or(0), m.round);
        Ok((id, Change::new(summary).touching(Touched::of_match(Topic::Clock, m))))
    })
}
