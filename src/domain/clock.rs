//! Round clock and decision limits ("Time" in the Mental Magic tournament rules), on an injected instant.
//!
//! The rules: during the initial part of a round a player may consider what to play for at most
//! `decision_secs` (45 s); during the final `final_window_minutes` (15 min) of a round, for at most
//! `final_decision_secs` (15 s). Longer is stalling. All four figures are event settings.
//!
//! Nothing here reads the clock: every function takes the instant it reasons about.
//!
//! Boundaries adopted here:
//! - **Final window**: it opens when exactly `final_window_minutes` are left, so a table with exactly 15:00 left
//!   is *inside* the window; it stays open after time is called (the active player finishing the turn still
//!   has the short limit).
//! - **Decisions across the window**: see [`decision_deadline`].
//! - **Judge-call pauses**: see [`pause_extension_secs`]. The round clock itself never stops; a table is given
//!   back the time it lost by an extension, which moves its end (and so its final window) later.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

/// A judge-call pause must last longer than this (in seconds) to extend the table's round time.
pub const PAUSE_EXTENSION_THRESHOLD_SECS: i64 = 60;

/// The event's time settings: round length, the normal decision limit, the final window and its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClockSettings {
    /// Length of a round, in minutes (50).
    pub round_minutes: u32,
    /// Longest decision before the final window, in seconds (45).
    pub decision_secs: u32,
    /// Length of the final window at the end of a round, in minutes (15).
    pub final_window_minutes: u32,
    /// Longest decision inside the final window, in seconds (15).
    pub final_decision_secs: u32,
}

impl Default for ClockSettings {
    fn default() -> Self {
        Self { round_minutes: 50, decision_secs: 45, final_window_minutes: 15, final_decision_secs: 15 }
    }
}

/// Why a set of [`ClockSettings`] cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockSettingsError {
    /// A round of zero minutes.
    #[error("round length is 0 minutes: set the round length to at least 1 minute")]
    EmptyRound,
    /// A decision limit of zero seconds.
    #[error("a decision limit is 0 seconds: set both decision limits to at least 1 second")]
    NoDecisionTime,
    /// The final window is longer than the round.
    #[error("final window ({window} min) is longer than the round ({round} min): shorten the final window")]
    WindowLongerThanRound {
        /// Final window, in minutes.
        window: u32,
        /// Round length, in minutes.
        round: u32,
    },
}

impl ClockSettings {
    /// Checks the settings make sense together (a round, non-zero limits, a window that fits in the round).
    pub fn validate(&self) -> Result<(), ClockSettingsError> {
        if self.round_minutes == 0 {
            return Err(ClockSettingsError::EmptyRound);
        }
        if self.decision_secs == 0 || self.final_decision_secs == 0 {
            return Err(ClockSettingsError::NoDecisionTime);
        }
        if self.final_window_minutes > self.round_minutes {
            return Err(ClockSettingsError::WindowLongerThanRound {
                window: self.final_window_minutes,
                round: self.round_minutes,
            });
        }
        Ok(())
    }

    /// The round length as a duration.
    pub fn round_length(&self) -> Duration {
        Duration::minutes(i64::from(self.round_minutes))
    }

    /// The final window as a duration.
    pub fn final_window(&self) -> Duration {
        Duration::minutes(i64::from(self.final_window_minutes))
    }
}

/// One table's round clock: when the round started, the extensions this table was given, and the settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableClock {
    /// The recorded start of the round (the same for every table).
    pub started: DateTime<Utc>,
    /// Sum of this table's extensions in seconds, including judge-call pauses over a minute.
    pub extension_secs: i64,
    /// The event's time settings.
    pub settings: ClockSettings,
    /// When the round was closed (`round end`, forced or not), if it was: time is called there at every table
    /// still playing.
    pub closed: Option<DateTime<Utc>>,
}

impl TableClock {
    /// A table clock with no extension yet, in a round not closed.
    pub fn new(started: DateTime<Utc>, settings: ClockSettings) -> Self {
        Self { started, extension_secs: 0, settings, closed: None }
    }

    /// This clock in a round closed at `closed` (None: still open). Nothing is recorded at the table: a round
    /// reopened gives its clocks back as they were.
    pub fn closed_at(mut self, closed: Option<DateTime<Utc>>) -> Self {
        self.closed = closed;
        self
    }

    /// Adds `secs` seconds (may be negative, to correct a mistake) to this table's extensions.
    pub fn extend(&mut self, secs: i64) {
        self.extension_secs = self.extension_secs.saturating_add(secs);
    }

    /// When the table's time runs out: start + round length + extensions (the final window is counted back from
    /// it). Time may be called earlier, at the round's close: see [`TableClock::called`].
    pub fn end(&self) -> DateTime<Utc> {
        self.started + self.settings.round_length() + Duration::seconds(self.extension_secs)
    }

    /// When time is called at this table: the earlier of its end and the round's close (a round ended anyway,
    /// with tables still playing, calls time at those tables). The one rule for clocks, table states, `time`
    /// and results by time.
    pub fn called(&self) -> DateTime<Utc> {
        self.closed.map_or(self.end(), |c| c.min(self.end()))
    }

    /// Round time left at `now`; negative once time has been called.
    pub fn time_left(&self, now: DateTime<Utc>) -> Duration {
        self.called() - now
    }

    /// Whether time has been called at `now` (no time left; exactly 0:00 left counts as over).
    pub fn is_over(&self, now: DateTime<Utc>) -> bool {
        now >= self.called()
    }

    /// Whether time was called at the round's close, before the table's own end ("End the round anyway").
    pub fn called_at_close(&self) -> bool {
        self.closed.is_some_and(|c| c < self.end())
    }

    /// The instant the final window opens at this table: its end minus the final window.
    pub fn final_window_starts(&self) -> DateTime<Utc> {
        self.end() - self.settings.final_window()
    }

    /// Whether `now` is inside the final window. Exactly `final_window_minutes` left is inside; after time is
    /// called the table stays in the window.
    pub fn in_final_window(&self, now: DateTime<Utc>) -> bool {
        now >= self.final_window_starts()
    }

    /// The decision limit in force at `now`, in seconds.
    pub fn decision_limit_at(&self, now: DateTime<Utc>) -> u32 {
        if self.in_final_window(now) { self.settings.final_decision_secs } else { self.settings.decision_secs }
    }
}

/// A length of time in seconds for people, the one rounding of every front end (decisions, limits, overruns):
/// to the nearest tenth, halves up ("53.5 s"; 8 450 ms is "8.5 s").
pub fn seconds_text(ms: i64) -> String {
    let tenths = (ms.unsigned_abs() + 50) / 100;
    let sign = if ms < 0 && tenths > 0 { "-" } else { "" };
    format!("{sign}{}.{} s", tenths / 10, tenths % 10)
}

/// When a decision started at `started` becomes stalling.
///
/// Rule adopted: a decision started inside the final window gets `final_decision_secs` (15 s). A decision
/// started before the window keeps the *smaller* of its own `decision_secs` (45 s) and `final_decision_secs`
/// counted from the moment the window opens:
/// `deadline = min(start + 45 s, window_start + 15 s)`. So a decision started at 15:10 left ends at 14:45 left
/// (window open + 15 s), not at 14:25 left (start + 45 s); one started at 15:50 left keeps start + 45 s
/// (15:05 left), which is earlier than window open + 15 s (14:45 left).
///
/// The window used is the table's as it stands now (with its current extensions).
pub fn decision_deadline(clock: &TableClock, started: DateTime<Utc>) -> DateTime<Utc> {
    let window_start = clock.final_window_starts();
    let short = Duration::seconds(i64::from(clock.settings.final_decision_secs));
    if started >= window_start {
        return started + short;
    }
    let long = started + Duration::seconds(i64::from(clock.settings.decision_secs));
    long.min(window_start + short)
}

/// How a finished decision went: its length, the limit applied to it and by how much it overran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// How long the player took, in milliseconds (0 if the end was recorded before the start).
    pub duration_ms: i64,
    /// The limit effectively applied (deadline − start), in milliseconds; see [`decision_deadline`].
    pub limit_ms: i64,
    /// Time taken past the deadline, in milliseconds (0 when within the limit).
    pub overrun_ms: i64,
}

impl Decision {
    /// The limit effectively applied, in seconds.
    pub fn limit_secs(&self) -> f64 {
        self.limit_ms as f64 / 1000.0
    }

    /// Whether the decision overran its limit (stalling under the rules).
    pub fn is_stall(&self) -> bool {
        self.overrun_ms > 0
    }
}

/// The outcome of a decision from `started` to `ended` at this table. An `ended` before `started` (a clock
/// mistake) counts as a decision of zero length.
pub fn decision_outcome(clock: &TableClock, started: DateTime<Utc>, ended: DateTime<Utc>) -> Decision {
    decision_outcome_paused(clock, started, ended, Duration::zero())
}

/// [`decision_outcome`] for a decision interrupted by judge-call pauses of `paused` in all: the decision keeps
/// its real start (and so its limit), and the pauses do not count in its length.
pub fn decision_outcome_paused(
    clock: &TableClock,
    started: DateTime<Utc>,
    ended: DateTime<Utc>,
    paused: Duration,
) -> Decision {
    let limit = decision_deadline(clock, started) - started;
    let length = (ended - started - paused.max(Duration::zero())).max(Duration::zero());
    Decision {
        duration_ms: length.num_milliseconds(),
        limit_ms: limit.num_milliseconds(),
        overrun_ms: (length - limit).num_milliseconds().max(0),
    }
}

/// The extension (in seconds) a judge-call pause of `pause_len` earns the table.
///
/// Rule adopted: a pause of *more than* one minute extends the table's round time by its whole length
/// (rounded up to the second, so the table never loses time); a pause of one minute or less earns nothing.
pub fn pause_extension_secs(pause_len: Duration) -> i64 {
    if pause_len <= Duration::seconds(PAUSE_EXTENSION_THRESHOLD_SECS) {
        return 0;
    }
    let ms = pause_len.num_milliseconds();
    ms / 1000 + i64::from(ms % 1000 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn start() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2025, 6, 7, 10, 0, 0).single().unwrap_or_default()
    }

    fn clock() -> TableClock {
        TableClock::new(start(), ClockSettings::default())
    }

    /// The instant at which `clock` shows `secs` seconds left.
    fn left(clock: &TableClock, secs: i64) -> DateTime<Utc> {
        clock.end() - Duration::seconds(secs)
    }

    #[test]
    fn seconds_are_shown_to_the_tenth_halves_up() {
        assert_eq!(seconds_text(53_960), "54.0 s");
        assert_eq!(seconds_text(8_450), "8.5 s");
        assert_eq!(seconds_text(8_449), "8.4 s");
        assert_eq!(seconds_text(0), "0.0 s");
        assert_eq!(seconds_text(-1_250), "-1.3 s");
    }

    #[test]
    fn a_round_closed_early_calls_time_at_its_close_and_reopened_gives_the_clock_back() {
        let open = clock();
        let close = start() + Duration::minutes(10);
        let closed = open.clone().closed_at(Some(close));
        assert_eq!(closed.called(), close);
        assert!(closed.called_at_close());
        assert!(closed.is_over(close));
        assert_eq!(closed.time_left(close), Duration::zero());
        // The final window and decision limits are the table's own, counted from its end.
        assert_eq!(closed.final_window_starts(), open.final_window_starts());
        // A close after the table's end changes nothing: time was called at the end.
        let late = open.clone().closed_at(Some(open.end() + Duration::minutes(5)));
        assert_eq!(late.called(), open.end());
        assert!(!late.called_at_close());
        // Reopened (no close): the clock as it was.
        assert_eq!(closed.closed_at(None), open);
    }

    #[test]
    fn defaults_are_the_rules_figures() {
        let s = ClockSettings::default();
        assert_eq!((s.round_minutes, s.decision_secs, s.final_window_minutes, s.final_decision_secs), (50, 45, 15, 15));
        assert_eq!(s.validate(), Ok(()));
    }

    #[test]
    fn settings_validation() {
        let base = ClockSettings::default();
        let cases = [
            (ClockSettings { round_minutes: 0, ..base }, Err(ClockSettingsError::EmptyRound)),
            (ClockSettings { decision_secs: 0, ..base }, Err(ClockSettingsError::NoDecisionTime)),
            (ClockSettings { final_decision_secs: 0, ..base }, Err(ClockSettingsError::NoDecisionTime)),
            (
                ClockSettings { final_window_minutes: 51, ..base },
                Err(ClockSettingsError::WindowLongerThanRound { window: 51, round: 50 }),
            ),
            (ClockSettings { final_window_minutes: 50, ..base }, Ok(())),
            (ClockSettings { final_window_minutes: 0, ..base }, Ok(())),
        ];
        for (settings, want) in cases {
            assert_eq!(settings.validate(), want, "{settings:?}");
        }
    }

    #[test]
    fn end_and_window_follow_settings_and_extensions() {
        let mut c = clock();
        assert_eq!(c.end(), start() + Duration::minutes(50));
        assert_eq!(c.final_window_starts(), start() + Duration::minutes(35));
        c.extend(90);
        assert_eq!(c.end(), start() + Duration::seconds(50 * 60 + 90));
        assert_eq!(c.final_window_starts(), start() + Duration::seconds(35 * 60 + 90));
        c.settings.round_minutes = 30;
        c.settings.final_window_minutes = 5;
        assert_eq!(c.final_window_starts(), start() + Duration::seconds(25 * 60 + 90));
    }

    #[test]
    fn window_boundary_and_limits() {
        let c = clock();
        // (seconds left, in final window, limit, over)
        let cases = [
            (50 * 60, false, 45, false),
            (15 * 60 + 1, false, 45, false),
            (15 * 60, true, 15, false), // exactly 15:00 left is inside the window
            (15 * 60 - 1, true, 15, false),
            (1, true, 15, false),
            (0, true, 15, true), // 0:00 left: time is called
            (-30, true, 15, true),
        ];
        for (secs, window, limit, over) in cases {
            let now = left(&c, secs);
            assert_eq!(c.in_final_window(now), window, "{secs} s left");
            assert_eq!(c.decision_limit_at(now), limit, "{secs} s left");
            assert_eq!(c.is_over(now), over, "{secs} s left");
        }
        // Just a millisecond before 15:00 left is still outside.
        let before = left(&c, 15 * 60) - Duration::milliseconds(1);
        assert!(!c.in_final_window(before));
    }

    #[test]
    fn negative_time_left() {
        let c = clock();
        let now = c.end() + Duration::seconds(75);
        assert_eq!(c.time_left(now), Duration::seconds(-75));
        assert!(c.is_over(now));
        assert_eq!(c.time_left(start()), Duration::minutes(50));
    }

    #[test]
    fn decision_deadlines() {
        let c = clock();
        let window = c.final_window_starts();
        // (started at seconds left, deadline at seconds left)
        let cases = [
            (30 * 60, 30 * 60 - 45),      // well before the window: 45 s
            (15 * 60 + 50, 15 * 60 + 5),  // start + 45 s (15:05 left) is before window + 15 s (14:45 left)
            (15 * 60 + 30, 14 * 60 + 45), // start + 45 s = 14:45 left = window + 15 s: the same
            (15 * 60 + 10, 14 * 60 + 45), // window + 15 s (14:45 left) beats start + 45 s (14:25 left)
            (15 * 60 + 1, 14 * 60 + 45),  // one second before the window: 16 s in all
            (15 * 60, 14 * 60 + 45),      // exactly at the window: 15 s
            (10 * 60, 10 * 60 - 15),      // inside the window: 15 s
            (-20, -35),                   // after time is called: still 15 s
        ];
        for (started, deadline) in cases {
            let got = decision_deadline(&c, left(&c, started));
            assert_eq!(got, left(&c, deadline), "decision started at {started} s left");
        }
        assert_eq!(decision_deadline(&c, left(&c, 15 * 60 + 10)), window + Duration::seconds(15));
    }

    #[test]
    fn decision_outcomes() {
        let c = clock();
        let s = |secs| left(&c, secs);
        let ms = Duration::milliseconds;
        // (start, end, duration_ms, limit_ms, overrun_ms)
        let cases = [
            (s(1800), s(1800) + ms(44_999), 44_999, 45_000, 0),
            (s(1800), s(1800) + ms(45_000), 45_000, 45_000, 0),
            (s(1800), s(1800) + ms(52_300), 52_300, 45_000, 7_300),
            (s(910), s(910) + ms(30_000), 30_000, 25_000, 5_000), // started at 15:10 left
            (s(600), s(600) + ms(15_001), 15_001, 15_000, 1),
            (s(600), s(600) - ms(500), 0, 15_000, 0), // end before start: zero length
        ];
        for (started, ended, duration_ms, limit_ms, overrun_ms) in cases {
            let d = decision_outcome(&c, started, ended);
            assert_eq!(d, Decision { duration_ms, limit_ms, overrun_ms });
            assert_eq!(d.is_stall(), overrun_ms > 0);
        }
        assert_eq!(decision_outcome(&c, s(910), s(900)).limit_secs(), 25.0);
        // A 90 s judge call inside a decision: same start and limit, the pause not counted.
        let d = decision_outcome_paused(&c, s(1800), s(1800) + ms(140_000), Duration::seconds(90));
        assert_eq!(d, Decision { duration_ms: 50_000, limit_ms: 45_000, overrun_ms: 5_000 });
    }

    #[test]
    fn pause_extensions() {
        let ms = Duration::milliseconds;
        let cases = [
            (ms(0), 0),
            (ms(59_999), 0),
            (ms(60_000), 0), // exactly one minute: not more than a minute
            (ms(60_001), 61),
            (ms(61_000), 61),
            (ms(180_000), 180),
            (ms(-5_000), 0),
        ];
        for (len, want) in cases {
            assert_eq!(pause_extension_secs(len), want, "{len:?}");
        }
    }

    #[test]
    fn pause_across_the_window() {
        // A 3-minute judge call from 16:00 left to 13:00 left: the table is extended by 3:00 and is back at
        // 16:00 left, outside the window, with the 45 s limit again.
        let mut c = clock();
        let (paused, resumed) = (left(&c, 16 * 60), left(&c, 13 * 60));
        assert!(c.in_final_window(resumed));
        c.extend(pause_extension_secs(resumed - paused));
        assert_eq!(c.time_left(resumed), Duration::minutes(16));
        assert!(!c.in_final_window(resumed));
        assert_eq!(c.decision_limit_at(resumed), 45);
        // A 40 s call from 15:20 left to 14:40 left earns nothing: the table is in the window.
        let mut c = clock();
        let (paused, resumed) = (left(&c, 15 * 60 + 20), left(&c, 14 * 60 + 40));
        c.extend(pause_extension_secs(resumed - paused));
        assert_eq!(c.extension_secs, 0);
        assert!(c.in_final_window(resumed));
        assert_eq!(c.decision_limit_at(resumed), 15);
    }

    #[test]
    fn extension_pushes_table_out_of_the_window() {
        let mut c = clock();
        let now = left(&c, 14 * 60 + 50);
        assert!(c.in_final_window(now));
        let short_deadline = decision_deadline(&c, now);
        c.extend(120);
        assert_eq!(c.time_left(now), Duration::seconds(16 * 60 + 50));
        assert!(!c.in_final_window(now));
        assert_eq!(c.decision_limit_at(now), 45);
        assert_eq!(decision_deadline(&c, now), now + Duration::seconds(45));
        assert!(decision_deadline(&c, now) > short_deadline);
        // Extending by exactly the time into the window lands on 15:00 left: inside again.
        let mut c = clock();
        let now = left(&c, 14 * 60 + 50);
        c.extend(10);
        assert!(c.in_final_window(now));
    }
}
