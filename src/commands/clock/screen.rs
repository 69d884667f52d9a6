//! `clock TABLE`: the live screen, with a [`ClockBackend`] over the event file. Each decision is saved in its
//! own transaction (with its audit entry) the moment it ends, so quitting or a crash loses at most the decision
//! in progress; stalls and long judge-call pauses (as extensions) are saved the same way.

use super::Ctx;
use crate::clock_screen::{ClockBackend, ScreenInfo, run_clock_screen};
use crate::error::{Error, Result};
use crate::ops::table::clocks::live::{self, LiveTable};
use crate::store::{PlayerId, Store};
use chrono::{DateTime, Utc};
use std::io::IsTerminal;
use std::time::Instant;

/// The clock screen's link to the event file.
struct StoreBackend<'a> {
    ctx: &'a Ctx,
    store: Store,
    live: LiveTable,
    /// The instant the screen opened (the real now, or `MMJUDGE_NOW`) and the monotonic clock read then:
    /// the screen's now is the first plus the time elapsed on the second, so it never jumps.
    opened: (DateTime<Utc>, Instant),
}

impl StoreBackend<'_> {
    fn player(&self, slot: usize) -> PlayerId {
        self.live.players[slot.min(1)]
    }
}

/// An error as the line the screen shows.
fn line<T>(r: Result<T>) -> std::result::Result<(), String> {
    r.map(|_| ()).map_err(|e| e.to_string())
}

impl ClockBackend for StoreBackend<'_> {
    fn now(&self) -> DateTime<Utc> {
        let elapsed = chrono::Duration::from_std(self.opened.1.elapsed()).unwrap_or_default();
        self.opened.0 + elapsed
    }

    fn start_decision(&mut self, player_slot: usize, started: DateTime<Utc>) -> std::result::Result<(), String> {
        let who = self.player(player_slot);
        line(live::begin_decision(&mut self.store, &self.ctx.actor_at(started), &self.live, who, started))
    }

    fn save_decision(
        &mut self,
        player_slot: usize,
        started: DateTime<Utc>,
        ended: DateTime<Utc>,
        paused: chrono::Duration,
    ) -> std::result::Result<(), String> {
        let who = self.player(player_slot);
        let actor = self.ctx.actor_at(ended);
        line(live::save_decision(&mut self.store, &actor, &self.live, who, (started, ended), paused))
    }

    fn running(&mut self) -> Option<Option<(usize, DateTime<Utc>)>> {
        let d = live::running_decision(&self.store, &self.live).ok()?;
        Some(d.map(|(who, since)| (usize::from(who == self.live.players[1]), since)))
    }

    fn log_stall(&mut self, player_slot: usize, at: DateTime<Utc>) -> std::result::Result<(), String> {
        let who = self.player(player_slot);
        line(live::log_stall(&mut self.store, &self.ctx.actor_at(at), &self.live, who, at))
    }

    fn extend(&mut self, secs: i64, reason: &str) -> std::result::Result<(), String> {
        let actor = self.ctx.actor_at(self.now());
        line(live::pause_extension(&mut self.store, &actor, &self.live, secs, reason))
    }

    fn extension_secs(&mut self) -> Option<i64> {
        live::extension_secs(&self.store, &self.live).ok()
    }
}

/// Opens the live screen for `table` after the same checks as `--start` (round started and open, match
/// undecided); a decision already running there (started with `--start`) shows on the screen.
pub fn open(ctx: &Ctx, table: u32) -> Result<()> {
    let store = ctx.open()?;
    let live = live::open_live(&store, table)?;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(Error::refused(format!(
            "the live clock needs a terminal: run `mmjudge clock {table}` in one, or script it with --start PLAYER / --stop"
        )));
    }
    let info = ScreenInfo { table, players: live.names.clone(), clock: live.clock.clone() };
    let opened = (ctx.now()?, Instant::now());
    let mut backend = StoreBackend { ctx, store, live, opened };
    run_clock_screen(info, &mut backend).map_err(|e| Error::io("the terminal", e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::clock as store_clock;
    use crate::store::{audit, round};
    use crate::time::stamp;
    use chrono::TimeZone;

    fn t(secs: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2025, 5, 1, 10, 0, 0).single().unwrap_or_default() + chrono::Duration::seconds(secs)
    }

    /// A backend over an in-memory event with Ana and Bo at table 1 of round 1, started at `t(0)`.
    fn backend(ctx: &Ctx) -> Result<StoreBackend<'_>> {
        let (store, _, _) = crate::store::memory_with_one_match()?;
        round::set_started(store.conn(), 1, Some(&stamp(t(0))))?;
        let live = live::open_live(&store, 1)?;
        Ok(StoreBackend { ctx, store, live, opened: (t(600), Instant::now()) })
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
        let ds = store_clock::decisions(conn, Some(b.live.game.id), None)?;
        let got: Vec<_> = ds.iter().map(|d| (d.player_id, d.duration_ms, d.limit_ms, d.overrun_ms)).collect();
        assert_eq!(
            got,
            vec![
                (b.live.players[0], Some(52_300), Some(45_000), Some(7_300)),
                (b.live.players[1], Some(20_000), Some(45_000), Some(0)),
            ]
        );
        assert_eq!(store_clock::stall_counts(conn, None, None)?, vec![(b.live.players[1], 1)]);
        assert_eq!(
            store_clock::extensions(conn, b.live.game.id)?[0].reason,
            "judge call: a pause of 1:30 on the clock screen"
        );
        let entries = audit::list(conn, Some(b.live.players[0]), None)?;
        assert!(entries.iter().any(|e| e.summary.contains("over by 7.3 s")), "{entries:?}");
        assert_eq!(audit::list(conn, None, None)?.len(), 6, "two starts, two decisions, a stall, a pause");
        Ok(())
    }

    #[test]
    fn sees_extensions_granted_from_another_terminal() -> Result<()> {
        let ctx = ctx();
        let mut b = backend(&ctx)?;
        assert_eq!(b.extension_secs(), Some(0));
        store_clock::add_extension(b.store.conn(), b.live.game.id, 180, "deck check", &stamp(t(900)))?;
        assert_eq!(b.extension_secs(), Some(180), "a `round extend` elsewhere reaches the open screen");
        Ok(())
    }
}
