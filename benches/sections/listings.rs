//! Issue 19: listings and the site at the sizes the issue names, each figure in ms and as a ratio to a trivial
//! `event show` on the same file (timed just before; the ratio holds on a loaded machine).
//! - `listings`: 4,096 players after 12 rounds, round 13 playing: `standings` under 35 ms, `time` and
//!   `pairings` under 20 ms.
//! - `site16384`: 16,384 players after 14 rounds: `standings` under 150 ms; `site` under 3 s and 150 MiB.
//! - `demo4096`: `demo --players 4096 --rounds 12` under 12 s (one run: it takes a while).

use super::field::{self, Plan};
use crate::{Expect, Figure, must, time_and_peak, time_command, time_runs};
use std::path::Path;
use std::time::Duration;

const RUNS: usize = 9;

/// A trivial `event show` at 4,096 players when the issue was written: the ratio targets' unit.
const TRIVIAL: Duration = Duration::from_millis(7);

/// Times `args` and pushes its figure and its ratio to `show`.
fn timed(db: &Path, out: &mut Vec<Figure>, (what, args): (&str, &[&str]), show: Duration, target: Duration) {
    let took = time_command(db, args, RUNS);
    out.push(Figure::time(what, took, target));
    out.push(Figure::ratio(took, show, target, TRIVIAL));
}

/// `event show` on `db`, pushed as a figure of its own (the unit of the ratios that follow).
fn show(db: &Path, out: &mut Vec<Figure>, label: &str) -> Duration {
    let show = time_command(db, &["event", "show"], RUNS);
    out.push(Figure::time(format!("event show ({label})"), show, Duration::from_millis(20)));
    show
}

/// 4,096 players, 12 rounds played and round 13 playing (its clock started now).
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let settings = &[("rounds", "14")];
    let plan = Plan { name: "listings4096", players: 4096, rounds: 13, playing: 1, libraries: true, settings };
    let (db, _) = field::build(dir, &plan, |_, _, _| {});
    field::drop_some(&db);
    must(&db, &["round", "start"]);
    let show = show(&db, out, "4,096 players");
    let ms = Duration::from_millis;
    for (what, args, target) in [
        ("standings (4,096 players, 12 rounds)", &["standings"][..], ms(35)),
        ("standings --csv", &["--csv", "standings"], ms(35)),
        ("standings --json", &["--json", "standings"], ms(50)),
        ("time (4,096 players: 2,048 tables)", &["time"], ms(20)),
        ("time --json", &["--json", "time"], ms(30)),
        ("pairings (round 13 of 4,096 players)", &["pairings"], ms(20)),
        ("pairings --round 6", &["pairings", "--round", "6"], ms(20)),
        ("pairings --json", &["--json", "pairings"], ms(30)),
    ] {
        timed(&db, out, (what, args), show, target);
    }
}

/// 16,384 players after 14 rounds: standings and the site (time and peak memory).
pub fn big(dir: &Path, out: &mut Vec<Figure>) {
    let settings = &[("rounds", "14")];
    let plan = Plan { name: "big16384", players: 16384, rounds: 14, playing: 0, libraries: true, settings };
    let (db, _) = field::build(dir, &plan, |_, _, _| {});
    field::drop_some(&db);
    let show = show(&db, out, "16,384 players");
    timed(&db, out, ("standings (16,384 players, 14 rounds)", &["standings"]), show, Duration::from_millis(150));
    for (what, judges) in [("site DIR (16,384 players, 14 rounds)", false), ("site DIR --judges", true)] {
        let site = dir.join(if judges { "big-site-judges" } else { "big-site" }).to_string_lossy().into_owned();
        let args: Vec<&str> = if judges { vec!["site", &site, "--judges"] } else { vec!["site", &site] };
        let mut runs: Vec<(Duration, f64)> = (0..3).map(|_| time_and_peak(&db, &args)).collect();
        runs.sort_by_key(|r| r.0);
        let took = runs[1].0;
        let peak = runs.iter().map(|r| r.1).fold(0.0, f64::max);
        let target = Duration::from_secs(3);
        out.push(Figure::time(what, took, target));
        out.push(Figure::ratio(took, show, target, TRIVIAL));
        out.push(Figure {
            what: "  peak memory (largest of 3 runs)".into(),
            value: peak,
            target: 150.0,
            unit: "MiB",
            at_least: false,
        });
    }
}

/// `demo --players 4096 --rounds 12`, once, in a new folder.
pub fn demo(dir: &Path, out: &mut Vec<Figure>) {
    let here = dir.join("demo-big");
    std::fs::create_dir_all(&here).expect("demo folder");
    let took = time_runs(&here.join("unused.db"), 1, Expect::Ok, |_| {
        let db = here.join("demo.db").to_string_lossy().into_owned();
        let site = here.join("out").to_string_lossy().into_owned();
        ["demo", "--db", &db, "--out", &site, "--players", "4096", "--rounds", "12"].map(String::from).to_vec()
    });
    out.push(Figure::time("demo --players 4096 --rounds 12", took, Duration::from_secs(12)));
}
