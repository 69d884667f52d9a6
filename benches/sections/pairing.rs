//! Issue 19: Swiss `round pair` (pairing, seating, writing) at 1,024 / 4,096 / 8,192 / 16,384 players after 8
//! rounds with fixed libraries, each in ms and as a ratio to a trivial `event show` on the same file (the ratio
//! holds on a loaded machine). Targets: under 60 ms at 4,096 and under 400 ms at 16,384 players.

use super::field::{self, Plan};
use super::movement::time_pair;
use crate::{Figure, time_command};
use std::path::Path;
use std::time::Duration;

/// The trivial command every figure is compared with (7 ms at 4,096 players when the issue was written).
const TRIVIAL_MS: f64 = 7.0;

/// One field: 8 finished rounds written with SQL, then round 9 paired by the real binary.
fn size(dir: &Path, out: &mut Vec<Figure>, (name, players, label): (&'static str, usize, &str), target: Duration) {
    let settings = &[("rounds", "9"), ("movement", "swiss")];
    let plan = Plan { name, players, rounds: 8, playing: 0, libraries: true, settings };
    let (db, _) = field::build(dir, &plan, |_, _, _| {});
    let show = time_command(&db, &["event", "show"], 9);
    let runs = if players > 8192 { 3 } else { 5 };
    let pair = time_pair(&db, runs);
    let ratio = pair.as_secs_f64() / show.as_secs_f64().max(1e-6);
    out.push(Figure::time(format!("event show ({label} players)"), show, Duration::from_millis(20)));
    out.push(Figure::time(format!("round pair, swiss: round 9 of {label} players"), pair, target));
    let ratio_target = target.as_secs_f64() * 1000.0 / TRIVIAL_MS;
    out.push(Figure {
        what: format!("  as a ratio to event show ({label})"),
        value: ratio,
        target: ratio_target,
        unit: "x",
        at_least: false,
    });
}

/// Every pairing size.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let ms = Duration::from_millis;
    size(dir, out, ("pair1024", 1024, "1,024"), ms(30));
    size(dir, out, ("pair4096", 4096, "4,096"), ms(60));
    size(dir, out, ("pair8192", 8192, "8,192"), ms(150));
    size(dir, out, ("pair16384", 16384, "16,384"), ms(400));
}
