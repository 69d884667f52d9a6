//! `clock TABLE`: the live screen, with a [`ClockBackend`] over the event file. Each decision is saved in its
//! own transaction (with its audit entry) the moment it ends, so quitting or a crash loses at most the decision
//! in progress; stalls and long judge-call pauses (as extensions) are saved the same way.

use super::Ctx;
use crate::clock_screen::{ClockBackend, ScreenInfo, run_clock_screen};
use crate::error::{Error, Result};
use crate::ops::table::clock::{begin, name_of, record, table_clock, timed_match};
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

    fn start_decision(&mut self, player_slot: usize, started: DateTime<Utc>) -> std::result::Result<(), String> {
        let who = self.player(player_slot);
        self.write(started, |tx, m| begin(tx, m, who, started))
    }

    fn save_decision(
        &mut self,
        player_slot: usize,
        started: DateTime<Utc>,
        ended: DateTime<Utc>,
        paused: chrono::Duration,
    ) -> std::result::Result<(), String> {
        let (who, round_start) = (self.player(player_slot), self.round_start);
        self.write(ended, |tx, m| Ok(record(tx, m, round_start, who, (started, ended), paused)?.1))
    }

    fn running(&mut self) -> Option<Option<(usize, DateTime<Utc>)>> {
        let d = store_clock::running(self.store.conn(), self.game.id).ok()?;
        let Some(d) = d else { return Some(None) };
        let slot = usize::from(d.player_id == self.players[1]);
        Some(Some((slot, crate::time::unstamp(&d.started_at).ok()?)))
    }

    fn log_stall(&mut self, player_slot: usize, at: DateTime<Utc>) -> std::result::Result<(), String> {
        let who = self.player(player_slot);
        self.write(at, |tx, m| {
            let id = store_clock::add_stall(tx, m.id, who, &stamp(at))?;
            let summary = format!(
                "table {} (round {}): stall logged for {} on the clock screen (stall #{id})",
                m.table.unwrap_or(0),
                m.round,
                name_of(tx, who)?
            );
            Ok(Change::about(summary, [who]))
        })
    }

    fn extend(&mut self, secs: i64, reason: &str) -> std::result::Result<(), String> {
        let at = self.now();
        let length = crate::ops::table::clock::clock_text(chrono::Duration::seconds(secs));
        let reason = format!("{reason}: a pause of {length} on the clock screen");
        self.write(at, |tx, m| {
            store_clock::add_extension(tx, m.id, secs, &reason, &stamp(at))?;
            let summary =
                format!("table {} (round {}): extended by {secs} s for {reason}", m.table.unwrap_or(0), m.round);
            Ok(Change::new(summary))
        })
    }

    fn extension_secs(&mut self) -> Option<i64> {
        store_clock::extension_secs(self.store.conn(), self.game.id).ok()
    }
}

/// Opens the live screen for `table` after the same checks as `--start` (round started and open, match
/// undecided); a decision already running there (started with `--start`) shows on the screen.
pub fn open(ctx: &Ctx, table: u32) -> Result<()> {
    let store = ctx.open()?;
    let conn = store.conn();
    let (game, round_start) = timed_match(conn, table, None)?;
    let Some(b) = game.b else {
        return Err(Error::refused(format!("table {table} has no opponent (a bye): nothing to time")));
    };
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
    let opened = (ctx.now()?, Instant::now());
    let mut backend = StoreBackend { ctx, store, game, round_start, players, opened };
    run_clock_screen(info, &mut backend).map_err(|e| Error::io("the terminal", e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{audit, matches, round};
    use chrono::TimeZone;

    fn t(secs: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2025, 5, 1, 10, 0, 0).single().unwrap_or_default() + chrono::Duration::seconds(secs)
    }

    /// A backend over an in-memory event with Ana and Bo at table 1 of round 1, started at `t(0)`.
    fn backend(ctx: &Ctx) -> Result<StoreBackend<'_>> {
        let (store, id, ids) = crate::store::memory_with_one_match()?;
        round::set_started(store.conn(), 1, Some(&stamp(t(0))))?;
        let game = matches::get(store.conn(), id)?;
        let players = [ids[0], ids[1]];
        Ok(StoreBackend { ctx, store, game, round_start: t(0), players, opened: (t(600), Instant::now()) })
    }

    fn ctx() -> Ctx {
        Ctx {
            db: "memory".into(),
            judge: "Kim".into(),
            format: crate::render::Format::Human,
            command_line: "mmjudge clock 1".into(),
            now: None,
        }
    }

    #[test]
    fn saves_decisions_stalls_and_pauses_each_with_its_audit_entry() -> Result<()> {
        let ctx = ctx();
        let mut b = backend(&ctx)?;
        assert!(b.now() >= t(600) && b.now() < t(660), "the screen's now starts at the injected instant");
        // 52.3 s at 10:10, before the final window: 45 s limit, 7.3 s over.
        let ms = chrono::Duration::milliseconds;
        b.start_decision(0, t(600)).map_err(Error::refused)?;
        b.save_decision(0, t(600), t(600) + ms(52_300), ms(0)).map_err(Error::refused)?;
        b.log_stall(1, t(700)).map_err(Error::refused)?;
        b.extend(90, "judge call").map_err(Error::refused)?;
        // The extension moves the window: a decision at 35:30 into the round is now outside it (45 s limit).
        b.start_decision(1, t(35 * 60 + 30)).map_err(Error::refused)?;
        b.save_decision(1, t(35 * 60 + 30), t(35 * 60 + 50), ms(0)).map_err(Error::refused)?;
        let conn = b.store.conn();
        let ds = store_clock::decisions(conn, Some(b.game.id), None)?;
        let got: Vec<_> = ds.iter().map(|d| (d.player_id, d.duration_ms, d.limit_ms, d.overrun_ms)).collect();
        assert_eq!(
            got,
            vec![
                (b.players[0], Some(52_300), Some(45_000), Some(7_300)),
                (b.players[1], Some(20_000), Some(45_000), Some(0)),
            ]
        );
        assert_eq!(store_clock::stall_counts(conn, None, None)?, vec![(b.players[1], 1)]);
        assert_eq!(
            store_clock::extensions(conn, b.game.id)?[0].reason,
            "judge call: a pause of 1:30 on the clock screen"
        );
        let entries = audit::list(conn, Some(b.players[0]), None)?;
        assert!(entries.iter().any(|e| e.summary.contains("over by 7.3 s")), "{entries:?}");
        assert_eq!(audit::list(conn, None, None)?.len(), 6, "two starts, two decisions, a stall, a pause");
        Ok(())
    }

    #[test]
    fn sees_extensions_granted_from_another_terminal() -> Result<()> {
        let ctx = ctx();
        let mut b = backend(&ctx)?;
        assert_eq!(b.extension_secs(), Some(0));
        store_clock::add_extension(b.store.conn(), b.game.id, 180, "deck check", &stamp(t(900)))?;
        assert_eq!(b.extension_secs(), Some(180), "a `round extend` elsewhere reaches the open screen");
        Ok(())
    }
}
