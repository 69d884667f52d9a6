//! The pure "what to draw" of the clock screen: lines of text with a tone each.

use chrono::{DateTime, Duration, Utc};

use super::text::{clock_text, floor_secs};
use super::view::ScreenState;
use crate::domain::clock::decision_deadline;

/// What a line is drawn as; the terminal layer maps it to colours (or to plain attributes under NO_COLOR).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Ordinary text.
    Normal,
    /// Secondary text (help, the player not to act).
    Dim,
    /// The player to act.
    Highlight,
    /// A decision with more than 10 s left.
    Calm,
    /// A decision with 10 s or less left.
    Warn,
    /// A decision with 5 s or less left.
    Danger,
    /// A decision past its limit, or the round over.
    Overrun,
}

/// One screen line: its text and how to draw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The text, already laid out (no control characters).
    pub text: String,
    /// How to draw it.
    pub tone: Tone,
}

/// The tone of a decision countdown with `left` remaining.
pub fn countdown_tone(left: Duration) -> Tone {
    match left.num_milliseconds() {
        ms if ms <= 0 => Tone::Overrun,
        ms if ms <= 5_000 => Tone::Danger,
        ms if ms <= 10_000 => Tone::Warn,
        _ => Tone::Calm,
    }
}

/// A bar `width` cells wide, filled in proportion to `left / limit`.
pub fn bar(left: Duration, limit: Duration, width: usize) -> String {
    let (l, t) = (left.num_milliseconds().max(0), limit.num_milliseconds().max(1));
    let filled = ((l.min(t) as u128 * width as u128).div_ceil(t as u128)) as usize;
    format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled))
}

/// What to draw at `now` on a screen `width` columns wide, top to bottom.
pub fn frame(state: &ScreenState, now: DateTime<Utc>, width: u16) -> Vec<Line> {
    let clock = &state.info.clock;
    let w = usize::from(width.max(20));
    let line = |text: String, tone| Line { text, tone };
    let left = clock.time_left(now);
    let round_tone = if clock.is_over(now) { Tone::Overrun } else { Tone::Normal };
    let round = if clock.is_over(now) {
        format!("TIME  (over by {})", clock_text(-left).trim_start_matches('-'))
    } else {
        format!("Round time left  {}", clock_text(left))
    };
    let mut out = vec![
        line(format!("Table {}", state.info.table), Tone::Normal),
        line(round, round_tone),
        match state.paused_at {
            Some(p) => line(
                format!("JUDGE CALL: paused {}  (over 1:00 extends the table)", clock_text(floor_secs(now - p))),
                Tone::Warn,
            ),
            None => line(extension_text(clock.extension_secs), Tone::Dim),
        },
        line(String::new(), Tone::Normal),
    ];
    for (slot, name) in state.info.players.iter().enumerate() {
        let acting = slot == state.to_act;
        let (mark, tone) = if acting { (">", Tone::Highlight) } else { (" ", Tone::Dim) };
        let tag = if acting { "  (to act)" } else { "" };
        out.push(line(format!("{mark} {name}{tag}"), tone));
    }
    out.push(line(String::new(), Tone::Normal));
    out.push(line(limit_text(state, now), Tone::Normal));
    out.extend(decision_lines(state, now, w));
    out.push(line(String::new(), Tone::Normal));
    out.push(line(state.message.clone(), Tone::Normal));
    let help = "space start/stop decision   tab switch player   p judge call   s stall   q quit";
    out.push(line(help.to_string(), Tone::Dim));
    for l in &mut out {
        l.text = l.text.chars().take(w).collect();
    }
    out
}

fn extension_text(secs: i64) -> String {
    if secs == 0 {
        String::from("no extension")
    } else {
        format!("extended by {}", clock_text(Duration::seconds(secs)))
    }
}

fn limit_text(state: &ScreenState, now: DateTime<Utc>) -> String {
    let clock = &state.info.clock;
    let limit = clock.decision_limit_at(now);
    if clock.in_final_window(now) {
        return format!(
            "Decision limit now: {limit} s  (final {})",
            crate::domain::words::count(clock.settings.final_window_minutes, "minute")
        );
    }
    let s = &clock.settings;
    let to_window = clock_text(clock.final_window_starts() - now);
    format!(
        "Decision limit now: {limit} s  ({} s from {}:00 left, in {to_window})",
        s.final_decision_secs, s.final_window_minutes
    )
}

fn decision_lines(state: &ScreenState, now: DateTime<Utc>, w: usize) -> Vec<Line> {
    let (Some(started), Some(left)) = (state.decision_started, state.decision_left(now)) else {
        return vec![
            Line { text: String::from("No decision running (space to start)."), tone: Tone::Dim },
            Line { text: String::new(), tone: Tone::Normal },
        ];
    };
    let name = &state.info.players[state.to_act];
    let paused = if state.paused_at.is_some() { "   PAUSED" } else { "" };
    let status = if left > Duration::zero() {
        // Tenths of a second: the countdown visibly moves at every redraw (about 12 a second).
        let tenths = (left.num_milliseconds() + 99) / 100;
        format!("{name} deciding: {}.{} s left{paused}", tenths / 10, tenths % 10)
    } else {
        format!("{name} OVER by {}{paused}", crate::domain::clock::seconds_text(-left.num_milliseconds()))
    };
    let limit = decision_deadline(&state.info.clock, started) - started;
    let tone = countdown_tone(left);
    vec![Line { text: status, tone }, Line { text: bar(left, limit, w.saturating_sub(2).min(60)), tone }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock_screen::view::Action;
    use crate::clock_screen::view::tests::{Log, at, sec, state, text};

    #[test]
    fn clock_text_rounds_up_and_signs() {
        let cases = [
            (0, "0:00"),
            (1, "0:01"),
            (59_001, "1:00"),
            (600_000, "10:00"),
            (-1_000, "-0:01"),
            (-61_500, "-1:01"),
            (3_600_000, "1:00:00"),
            (50 * 60_000, "50:00"),
        ];
        for (ms, want) in cases {
            assert_eq!(clock_text(Duration::milliseconds(ms)), want, "{ms} ms");
        }
    }

    #[test]
    fn tones_change_at_10_and_5_seconds() {
        let cases = [
            (45_000, Tone::Calm),
            (10_001, Tone::Calm),
            (10_000, Tone::Warn),
            (5_001, Tone::Warn),
            (5_000, Tone::Danger),
            (1, Tone::Danger),
            (0, Tone::Overrun),
            (-3_000, Tone::Overrun),
        ];
        for (ms, want) in cases {
            assert_eq!(countdown_tone(Duration::milliseconds(ms)), want, "{ms} ms");
        }
    }

    #[test]
    fn bars() {
        let s = Duration::seconds;
        let cases = [
            (s(45), "[##########]"),
            (s(0), "[..........]"),
            (s(-4), "[..........]"),
            (s(22), "[#####.....]"),
            (s(1), "[#.........]"),
            (s(99), "[##########]"),
        ];
        for (left, want) in cases {
            assert_eq!(bar(left, s(45), 10), want, "{left:?}");
        }
    }

    #[test]
    fn frame_shows_players_round_limit_and_countdown() {
        let (mut st, mut log) = (state(), Log::default());
        let idle = text(&frame(&st, at(60), 80));
        for want in [
            "Table 7",
            "Round time left  49:00",
            "> Ann  (to act)",
            "  Bob",
            "Decision limit now: 45 s",
            "No decision running",
        ] {
            assert!(idle.contains(want), "missing {want:?} in\n{idle}");
        }
        st.apply(Action::Switch, at(60), &mut log);
        st.apply(Action::StartStop, at(60), &mut log);
        let lines = frame(&st, sec(96.5), 80);
        let t = text(&lines);
        assert!(t.contains("> Bob  (to act)") && t.contains("Bob deciding: 8.5 s left"), "{t}");
        assert!(lines.iter().any(|l| l.tone == Tone::Warn && l.text.starts_with('[')));
        let over = text(&frame(&st, at(107), 80));
        assert!(over.contains("Bob OVER by 2.0 s"), "{over}");
    }

    #[test]
    fn frame_in_final_window_and_after_time() {
        let st = state();
        let window = text(&frame(&st, at(35 * 60), 80));
        assert!(window.contains("Round time left  15:00") && window.contains("limit now: 15 s"), "{window}");
        let late = frame(&st, at(51 * 60), 80);
        assert!(late.iter().any(|l| l.tone == Tone::Overrun && l.text == "TIME  (over by 1:00)"));
        assert!(frame(&st, at(0), 20).iter().all(|l| l.text.chars().count() <= 20));
    }
}
