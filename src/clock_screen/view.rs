//! The clock screen's state and its reactions to keys (no terminal I/O).

use chrono::{DateTime, Duration, Utc};

use super::text::{ceil_secs, clock_text};
use super::{ClockBackend, ScreenInfo};
use crate::domain::clock::{decision_deadline, decision_outcome_paused, pause_extension_secs, seconds_text};

/// A key the clock screen reacts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Space: start or stop (and save) a decision of the player to act.
    StartStop,
    /// Tab: switch the player to act (a decision in progress is saved first).
    Switch,
    /// `p`: pause or resume for a judge call.
    Pause,
    /// `s`: log a stall for the player to act.
    Stall,
    /// `q`: quit (a pause is resumed and a decision in progress saved first).
    Quit,
}

/// Whether the screen goes on after an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep running.
    Continue,
    /// Leave the screen.
    Quit,
}

/// The live state of one table's clock screen.
#[derive(Debug, Clone, PartialEq)]
pub struct ScreenState {
    /// The table, its players and its clock (extensions are added as they are granted).
    pub info: ScreenInfo,
    /// Slot (0 or 1) of the player to act.
    pub to_act: usize,
    /// Start of the decision in progress (a judge-call pause never moves it).
    pub decision_started: Option<DateTime<Utc>>,
    /// Judge-call pauses inside the decision in progress, in all (not counted in its length).
    pub decision_paused: Duration,
    /// Start of the judge-call pause in progress.
    pub paused_at: Option<DateTime<Utc>>,
    /// Whether the bell already rang for the decision in progress.
    pub bell_rung: bool,
    /// The last thing that happened, shown at the bottom.
    pub message: String,
}

impl ScreenState {
    /// A fresh screen: player 0 to act, no decision, no pause.
    pub fn new(info: ScreenInfo) -> Self {
        Self {
            info,
            to_act: 0,
            decision_started: None,
            decision_paused: Duration::zero(),
            paused_at: None,
            bell_rung: false,
            message: String::from("Ready."),
        }
    }

    /// The instant decisions are measured at: frozen at the pause start while a judge call is on.
    fn decision_now(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        self.paused_at.unwrap_or(now)
    }

    /// Time left for the decision in progress (negative when over), if one is running.
    pub fn decision_left(&self, now: DateTime<Utc>) -> Option<Duration> {
        let started = self.decision_started?;
        Some(decision_deadline(&self.info.clock, started) + self.decision_paused - self.decision_now(now))
    }

    /// Whether the bell must ring now (the decision just reached 0); rings once per decision.
    pub fn tick(&mut self, now: DateTime<Utc>) -> bool {
        match self.decision_left(now) {
            Some(left) if left <= Duration::zero() && !self.bell_rung => {
                self.bell_rung = true;
                true
            }
            _ => false,
        }
    }

    /// Reacts to one key at `now`, calling the backend to record what happened.
    pub fn apply(&mut self, action: Action, now: DateTime<Utc>, backend: &mut dyn ClockBackend) -> Flow {
        match action {
            Action::StartStop if self.paused_at.is_some() => {
                self.message = String::from("Paused for a judge call: press p to resume first.");
            }
            Action::StartStop => match self.decision_started {
                Some(_) => self.stop_decision(now, backend),
                None => self.start_decision(now, backend),
            },
            Action::Switch => {
                self.stop_decision(now, backend);
                self.to_act = 1 - self.to_act.min(1);
                self.message = format!("{} to act.", self.info.players[self.to_act]);
            }
            Action::Pause => match self.paused_at {
                Some(_) => self.resume(now, backend),
                None => {
                    self.paused_at = Some(now);
                    self.message = String::from("Judge call: paused (p to resume).");
                }
            },
            Action::Stall => {
                let name = self.info.players[self.to_act].clone();
                self.message = match backend.log_stall(self.to_act, now) {
                    Ok(()) => format!("Stall logged for {name}."),
                    Err(e) => format!("Could not log the stall for {name}: {e}"),
                };
            }
            Action::Quit => {
                self.resume(now, backend);
                self.stop_decision(now, backend);
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn start_decision(&mut self, now: DateTime<Utc>, backend: &mut dyn ClockBackend) {
        let name = &self.info.players[self.to_act];
        if let Err(e) = backend.start_decision(self.to_act, now) {
            self.message = format!("NOT started for {name}: {e}");
            return;
        }
        self.decision_started = Some(now);
        self.decision_paused = Duration::zero();
        self.bell_rung = false;
        let limit = decision_deadline(&self.info.clock, now) - now;
        self.message = format!("{name} deciding ({} s).", ceil_secs(limit));
    }

    /// Follows the decision the store says runs at the table (`None`: none runs): one started at another
    /// terminal is shown, one stopped or cancelled there is dropped from the screen.
    pub fn sync_running(&mut self, running: Option<(usize, DateTime<Utc>)>) {
        let same = |a: DateTime<Utc>, b: DateTime<Utc>| a.timestamp_millis() == b.timestamp_millis();
        match (running, self.decision_started) {
            (Some((slot, started)), current)
                if !current.is_some_and(|c| same(c, started)) || slot.min(1) != self.to_act =>
            {
                self.to_act = slot.min(1);
                self.decision_started = Some(started);
                self.decision_paused = Duration::zero();
                self.bell_rung = false;
                self.message = format!("{} deciding (started at another terminal).", self.info.players[self.to_act]);
            }
            (None, Some(_)) => {
                self.decision_started = None;
                self.decision_paused = Duration::zero();
                self.message = String::from("The decision was stopped or cancelled at another terminal.");
            }
            _ => {}
        }
    }

    /// Stops and saves the decision in progress, if any.
    fn stop_decision(&mut self, now: DateTime<Utc>, backend: &mut dyn ClockBackend) {
        let Some(started) = self.decision_started.take() else {
            return;
        };
        let ended = self.decision_now(now);
        let paused = std::mem::replace(&mut self.decision_paused, Duration::zero());
        let d = decision_outcome_paused(&self.info.clock, started, ended, paused);
        let name = &self.info.players[self.to_act];
        let over = if d.is_stall() { format!(", over by {}", seconds_text(d.overrun_ms)) } else { String::new() };
        let summary = format!("{name}: {} (limit {}{over})", seconds_text(d.duration_ms), seconds_text(d.limit_ms));
        self.message = match backend.save_decision(self.to_act, started, ended, paused) {
            Ok(()) => format!("Saved {summary}."),
            Err(e) => format!("NOT saved {summary}: {e}"),
        };
    }

    /// Ends the pause in progress, if any: extends the table for a long one and shifts the decision start.
    fn resume(&mut self, now: DateTime<Utc>, backend: &mut dyn ClockBackend) {
        let Some(paused) = self.paused_at.take() else {
            return;
        };
        let len = (now - paused).max(Duration::zero());
        if self.decision_started.is_some() {
            self.decision_paused += len;
        }
        let ext = pause_extension_secs(len);
        if ext == 0 {
            self.message = format!("Resumed after {} (no extension).", clock_text(len));
            return;
        }
        self.message = match backend.extend(ext, "judge call") {
            Ok(()) => {
                self.info.clock.extend(ext);
                format!("Resumed: table extended by {}.", clock_text(Duration::seconds(ext)))
            }
            Err(e) => format!("Resumed, but the extension was NOT saved: {e}"),
        };
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::clock_screen::frame::Line;
    use crate::domain::clock::{ClockSettings, TableClock};
    use chrono::TimeZone;

    /// Records every call; fails them all when `fail` is set.
    #[derive(Default)]
    pub(crate) struct Log {
        pub(crate) decisions: Vec<(usize, DateTime<Utc>, DateTime<Utc>)>,
        pub(crate) paused: Vec<Duration>,
        stalls: Vec<(usize, DateTime<Utc>)>,
        extensions: Vec<(i64, String)>,
        fail: bool,
    }

    impl ClockBackend for Log {
        fn now(&self) -> DateTime<Utc> {
            t0()
        }
        fn save_decision(
            &mut self,
            slot: usize,
            started: DateTime<Utc>,
            ended: DateTime<Utc>,
            paused: Duration,
        ) -> Result<(), String> {
            if self.fail {
                return Err("disk full".into());
            }
            self.decisions.push((slot, started, ended));
            self.paused.push(paused);
            Ok(())
        }
        fn log_stall(&mut self, slot: usize, at: DateTime<Utc>) -> Result<(), String> {
            self.stalls.push((slot, at));
            Ok(())
        }
        fn extend(&mut self, secs: i64, reason: &str) -> Result<(), String> {
            if self.fail {
                return Err("disk full".into());
            }
            self.extensions.push((secs, reason.to_string()));
            Ok(())
        }
    }

    pub(crate) fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2025, 6, 7, 10, 0, 0).single().unwrap_or_default()
    }

    pub(crate) fn at(secs: i64) -> DateTime<Utc> {
        t0() + Duration::seconds(secs)
    }

    pub(crate) fn sec(s: f64) -> DateTime<Utc> {
        t0() + Duration::milliseconds((s * 1000.0) as i64)
    }

    pub(crate) fn state() -> ScreenState {
        let clock = TableClock::new(t0(), ClockSettings::default());
        ScreenState::new(ScreenInfo { table: 7, players: ["Ann".into(), "Bob".into()], clock })
    }

    pub(crate) fn text(lines: &[Line]) -> String {
        lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn decision_start_stop_saves_and_bell_rings_once() {
        let (mut st, mut log) = (state(), Log::default());
        assert_eq!(st.apply(Action::StartStop, at(10), &mut log), Flow::Continue);
        assert!(!st.tick(at(54)));
        assert!(st.tick(at(55)));
        assert!(!st.tick(at(56)));
        st.apply(Action::StartStop, sec(62.5), &mut log);
        assert_eq!(log.decisions, vec![(0, at(10), sec(62.5))]);
        assert!(st.message.contains("over by 7.5 s"), "{}", st.message);
        assert_eq!(st.decision_started, None);
        assert_eq!(st.to_act, 0, "stopping does not pass the turn");
    }

    #[test]
    fn switch_saves_running_decision_then_changes_player() {
        let (mut st, mut log) = (state(), Log::default());
        st.apply(Action::StartStop, at(0), &mut log);
        st.apply(Action::Switch, at(20), &mut log);
        assert_eq!((st.to_act, log.decisions.len()), (1, 1));
        st.apply(Action::Stall, at(30), &mut log);
        st.apply(Action::Switch, at(31), &mut log);
        assert_eq!((st.to_act, log.decisions.len()), (0, 1));
        assert_eq!(log.stalls, vec![(1, at(30))]);
    }

    #[test]
    fn long_pause_extends_and_freezes_the_decision() {
        let (mut st, mut log) = (state(), Log::default());
        st.apply(Action::StartStop, at(0), &mut log);
        st.apply(Action::Pause, at(10), &mut log);
        assert_eq!(st.decision_left(at(100)), Some(Duration::seconds(35)), "frozen while paused");
        st.apply(Action::StartStop, at(50), &mut log);
        assert!(st.decision_started.is_some(), "space is ignored while paused");
        st.apply(Action::Pause, at(100), &mut log);
        assert_eq!(log.extensions, vec![(90, "judge call".to_string())]);
        assert_eq!(st.info.clock.extension_secs, 90);
        assert_eq!(st.decision_left(at(100)), Some(Duration::seconds(35)), "resumes where it stopped");
        st.apply(Action::StartStop, at(120), &mut log);
        assert_eq!(log.decisions, vec![(0, at(0), at(120))], "the pause never moves the decision's start");
        assert_eq!(log.paused, vec![Duration::seconds(90)]);
        assert!(st.message.contains("Saved Ann: 30.0 s"), "the pause is not counted: {}", st.message);
    }

    #[test]
    fn short_pause_and_failed_backend() {
        let (mut st, mut log) = (state(), Log::default());
        st.apply(Action::Pause, at(0), &mut log);
        st.apply(Action::Pause, at(60), &mut log);
        assert!(log.extensions.is_empty());
        log.fail = true;
        st.apply(Action::Pause, at(100), &mut log);
        st.apply(Action::Pause, at(200), &mut log);
        assert_eq!(st.info.clock.extension_secs, 0, "not extended when the backend refused");
        assert!(st.message.contains("NOT saved"), "{}", st.message);
    }

    #[test]
    fn saved_message_gives_the_limit_as_precisely_as_the_overrun() {
        let (mut st, mut log) = (state(), Log::default());
        let started = at(2091) + Duration::milliseconds(476);
        st.apply(Action::StartStop, started, &mut log);
        st.apply(Action::StartStop, started + Duration::seconds(27), &mut log);
        assert!(st.message.contains("27.0 s (limit 23.5 s, over by 3.5 s)"), "{}", st.message);
    }

    #[test]
    fn follows_decisions_started_and_stopped_at_another_terminal() {
        let mut st = state();
        st.sync_running(Some((1, at(30))));
        assert_eq!((st.to_act, st.decision_started), (1, Some(at(30))));
        assert!(st.message.contains("Bob deciding (started at another terminal)"), "{}", st.message);
        assert_eq!(st.decision_left(at(40)), Some(Duration::seconds(35)));
        st.sync_running(Some((1, at(30))));
        assert_eq!(st.decision_started, Some(at(30)), "the same decision stays");
        st.sync_running(None);
        assert_eq!(st.decision_started, None);
        assert!(st.message.contains("another terminal"), "{}", st.message);
    }

    #[test]
    fn quit_resumes_and_saves_first() {
        let (mut st, mut log) = (state(), Log::default());
        st.apply(Action::StartStop, at(0), &mut log);
        st.apply(Action::Pause, at(5), &mut log);
        assert_eq!(st.apply(Action::Quit, at(80), &mut log), Flow::Quit);
        assert_eq!(log.extensions.len(), 1);
        assert_eq!(log.decisions, vec![(0, at(0), at(80))]);
        assert_eq!(log.paused, vec![Duration::seconds(75)]);
    }
}
