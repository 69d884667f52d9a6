//! Issue 5: a fixed-movement `round pair` for 4,096 players under 50 ms; Swiss `round pair` (pairing and
//! seating) for 1,024 players after 8 rounds under 0.5 s and for 4,096 players under 5 s.

use super::field::{self, Plan};
use crate::{Figure, must, time_command};
use std::path::Path;
use std::time::Duration;

/// Times each pairing, taking the round back with `round unpair` between runs (the last run stays).
pub fn time_pair(db: &Path, runs: usize) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|i| {
            let took = time_command(db, &["round", "pair"], 1);
            if i + 1 < runs {
                must(db, &["round", "unpair"]);
            }
            took
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// A field with fixed libraries and no round yet.
fn plan(name: &'static str, players: usize, settings: &'static [(&'static str, &'static str)]) -> Plan {
    Plan { name, players, rounds: 0, playing: 0, libraries: true, settings }
}

fn fixed(dir: &Path, out: &mut Vec<Figure>) {
    let target = Duration::from_millis(50);
    let (db, _) = field::build(dir, &plan("fixed4096", 4096, &[("rounds", "10")]), |_, _, _| {});
    out.push(Figure::time("round pair, fixed: round 1 of 4,096 players", time_pair(&db, 7), target));
    for round in 1..=4 {
        field::finish(&db, round);
        must(&db, &["round", "pair"]);
    }
    field::finish(&db, 5);
    out.push(Figure::time("round pair, fixed: round 6 of 4,096 (history checked)", time_pair(&db, 7), target));
    let (db, _) = field::build(dir, &plan("howell4095", 4095, &[("rounds", "10")]), |_, _, _| {});
    out.push(Figure::time("round pair, fixed: round 1 of 4,095 players (odd)", time_pair(&db, 7), target));
}

/// Pairs 8 rounds with the real binary (results written between), then times round 9.
fn swiss(
    dir: &Path,
    out: &mut Vec<Figure>,
    name: &'static str,
    (players, label): (usize, &str),
    runs: usize,
    target: Duration,
) {
    let settings = &[("rounds", "9"), ("movement", "swiss")];
    let (db, _) = field::build(dir, &plan(name, players, settings), |_, _, _| {});
    for round in 1..=8 {
        must(&db, &["round", "pair"]);
        field::finish(&db, round);
    }
    let what = format!("round pair, swiss: round 9 of {label} players");
    out.push(Figure::time(what, time_pair(&db, runs), target));
}

/// Every movement target.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    fixed(dir, out);
    swiss(dir, out, "swiss1024", (1024, "1,024"), 5, Duration::from_millis(500));
    swiss(dir, out, "swiss4096", (4096, "4,096"), 3, Duration::from_secs(5));
}
