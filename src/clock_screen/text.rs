//! The clock screen's times as text: whole seconds, rounded as a countdown or a count up shows them.

use chrono::Duration;

/// Whole seconds, rounded up (a countdown shows 1 until it reaches 0).
pub fn ceil_secs(d: Duration) -> i64 {
    let ms = d.num_milliseconds();
    ms.div_euclid(1000) + i64::from(ms.rem_euclid(1000) != 0)
}

/// `d` cut down to whole seconds (for times counting up, such as a pause).
pub fn floor_secs(d: Duration) -> Duration {
    Duration::seconds(d.num_milliseconds().div_euclid(1000))
}

/// `M:SS` (or `H:MM:SS`), with a leading `-` for negative durations; whole seconds, rounded up while
/// counting down so that 0:00 appears only when the time is really up.
pub fn clock_text(d: Duration) -> String {
    let secs = ceil_secs(d);
    let sign = if secs < 0 { "-" } else { "" };
    let a = secs.unsigned_abs();
    let (h, m, s) = (a / 3600, (a / 60) % 60, a % 60);
    if h > 0 { format!("{sign}{h}:{m:02}:{s:02}") } else { format!("{sign}{m}:{s:02}") }
}
