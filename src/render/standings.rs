//! Standings and duplicate figures in words and numbers for people (tables, CSV, the site's pages).

use crate::ops::standings::Progress;

/// A percentage as printed: three decimals.
pub fn pct(x: f64) -> String {
    format!("{x:.3}")
}

/// A percentage for people reading standings: a fraction as a percent with two decimals (`66.67 %`).
pub fn percent(x: f64) -> String {
    format!("{:.2} %", x * 100.0)
}

/// Wins above par as printed: signed, three decimals.
pub fn par(x: f64) -> String {
    let x = if x.abs() < 5e-4 { 0.0 } else { x };
    format!("{x:+.3}")
}

/// Lines saying how far the event has got, for under a table of the standings after `round`.
pub fn progress_note(progress: &Progress, round: u32) -> Vec<String> {
    let mut notes = Vec::new();
    if progress.paired == 0 {
        notes.push("no round has been paired yet".into());
    } else if let Some((r, done, tables)) = progress.playing {
        notes.push(format!("round {r} is being played: {done} of {tables} results in"));
    }
    if round < progress.played {
        notes.push(format!("the latest standings are after round {}", progress.played));
    }
    notes
}
