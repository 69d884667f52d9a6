//! `clock TABLE`: the live screen, with a [`ClockBackend`] over the event file. Each decision is saved in its
//! own transaction (with its audit entry) the moment it ends, so quitting or a crash loses at most the decision
//! in progress; stalls and long judge-call pauses (as extensions) are saved the same way.

use super::decide::{record, timed_match};
use super::{Ctx, name_of, table_clock};
use crate::clock_screen::{ClockBackend, ScreenInfo, run_clock_screen};
use crate::error::{Error, Result};
use crate::store::clock as store_clock;
use crate::store::matches::Match;
use crate::store::{Change, PlayerId, Store};
use crate::time::stamp;
use chrono::{DateTime, Utc};
use std::io::IsTerminal;
use std::time::Instant;

/// The clock screen's link to the event file.
struct StoreBackend<'a> {
    ctx: &'a Ctx,
    store: Store,
    game: Match,
    round_start: DateTime<Utc>,
    players: [PlayerId; 2],
    /// The instant the screen opened (the real now, or `MMJUDGE_NOW`) and the monotonic clock read then:
    /// the screen's now is the first plus the time elapsed on the second, so it never jumps.
    opened: (DateTime<Utc>, Instant),
}

impl StoreBackend<'_> {
    /// Runs one write as the judge at `at`, turning an error into the line the screen shows.
    fn write(
        &mut self,
        at: DateTime<Utc>,
        f: impl FnOnce(&rusqlite::Transaction, &Match) -> Result<Change>,
    ) -> std::result::Result<(), String> {
        let game = self.game.clone();
        self.store.write(&self.ctx.actor_at(at), |tx| Ok(((), f(tx, &game)?))).map_err(|e| e.to_string())
    }

    fn player(&self, slot: usize) -> PlayerId {
        self.players[slot.min(1)]
    }
}

impl ClockBackend for StoreBackend<'_> {
    fn now(&self) -> DateTime<Utc> {
        let elapsed = chrono::Duration::from_std(self.opened.1.elapsed()).unwrap_or_default();
        self.opened.0 + elapsed
    }

    fn save_decision(
        &mut self,
        player_slot: usize,
        started: DateTime<Utc>,
        ended: DateTime<Utc>,
    ) -> std::result::Result<(), String> {
        let (who, round_start) = (self.player(player_slot), self.round_start);
        self.write(ended, |tx, m| Ok(record(tx, m, round_start, who, started, ended)?.1))
    }

    fn log_stall(&mut self, player_slot: usize, at: DateTime<Utc>) -> std::result::Result<(), String> {
        let who = self.player(player_slot);
        self.write(at, |tx, m| {
            store_clock::add_stall(tx, m.id, who, &stamp(at))?;
            let summary = format!(
                "table {} (round {}): stall logged for {} on the clock screen",
                m.table.unwrap_or(0),
                m.round,
                name_of(tx, who)?
            );
            Ok(Change::about(summary, [who]))
        })
    }

    fn extend(&mut self, secs: i64, reason: &str) -> std::result::Result<(), String> {
        let at = self.now();
        let reason = format!("{reason} (pause on the clock screen)");
        self.write(at, |tx, m| {
            store_clock::add_extension(tx, m.id, secs, &reason, &stamp(at))?;
            let summary =
                format!("table {} (round {}): extended by {secs} s for {reason}", m.table.unwrap_or(0), m.round);
            Ok(Change::new(summary))
        })
    }
}

/// Opens the live screen for `table` after the same checks as `--start` (round started and open, match
/// undecided), and refuses while a decision started with `--start` is running there.
pub fn open(ctx: &Ctx, table: u32) -> Result<()> {
    let store = ctx.open()?;
    let conn = store.conn();
    let (game, round_start) = timed_match(conn, table, None)?;
    let Some(b) = game.b else {
        return Err(Error::refused(format!("table {table} has no opponent (a bye): nothing to time")));
    };
    if let Some(d) = store_clock::running(conn, game.id)? {
        return Err(Error::refused(format!(
            "{} is deciding at table {table} (started with --start at {}): stop it first with `mmjudge clock {table} --stop`",
            name_of(conn, d.player_id)?,
            d.started_at
        )));
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(Error::refused(format!(
            "the live clock needs a terminal: run `mmjudge clock {table}` in one, or script it with --start PLAYER / --stop"
        )));
    }
    let info = ScreenInfo {
        table,
        players: [name_of(conn, game.a)?, name_of(conn, b)?],
        clock: table_clock(conn, round_start, &game)?,
    };
    let players = [game.a, b];
    let opened = (crate::time::now()?, Instant::now());
    let mut backend = StoreBackend { ctx, store, game, round_start, players, opened };
    run_clock_screen(info, &mut backend).map_err(|e| Error::io("the terminal", e))
}
