//! Issue 6: every at-the-table command under 30 ms as a whole process on 512 players after 9 rounds (rounds 1-8
//! finished, round 9 playing), with 16 template notes of real cards a game, decisions, challenges, rulings and
//! penalties, and the reference imported. Issue 19: each also as a ratio to `event show` on the same file.

use super::field::{self, Game, Plan, name};
use crate::{Expect, Figure, must, reference, time_command, time_runs};
use std::path::Path;
use std::time::Duration;

const RUNS: usize = 9;
/// The declaration the timed `note` runs make (kept out of the prefilled notes): (cost, card).
const FRESH: (&str, &str) = ("B1", "Demonic Tutor");

/// Builds the event and times each command on a fresh table or player each run.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let plan = Plan { name: "table", players: 512, rounds: 9, playing: 1, libraries: false, settings: &[] };
    let db = field::new_event(dir, &plan);
    must(&db, &["cards", "import", &reference().to_string_lossy()]);
    let cards = field::spells(&db, 4000, &[FRESH.1]);
    let games = field::fill(&db, &plan, |tx, rng, game| field::judged(tx, rng, game, &cards, 16));
    // The round playing has its clock running (no card is declared before it).
    field::start_round(&db, plan.rounds, chrono::Utc::now() - chrono::Duration::minutes(10));
    let games: Vec<&Game> = games.iter().filter(|g| g.b.is_some()).collect();
    // Each kind of write gets its own block of tables, so no run meets another's result or note.
    let at = |block: usize, i: usize| {
        let g = games[(block * RUNS + i) % games.len()];
        (g.table.to_string(), name(g.a), name(g.b.unwrap_or(g.a)))
    };
    let tables: Vec<(String, String, String)> = (0..8 * RUNS).map(|k| at(k / RUNS, k % RUNS)).collect();
    let t = |block: usize, i: usize| &tables[block * RUNS + i];
    let html = dir.join("sheet.html").to_string_lossy().into_owned();
    // Issue 19: every figure also as a ratio to a trivial `event show` on the same file (the writes are at
    // the fsync floor: they should stay where they are).
    let show = time_command(&db, &["event", "show"], RUNS);
    out.push(Figure::time("event show (512 players)", show, Duration::from_millis(20)));
    let mut time = |what: &str, expect: Expect, make: &dyn Fn(usize) -> Vec<String>| {
        let took = time_runs(&db, RUNS, expect, make);
        let target = Duration::from_millis(30);
        out.push(Figure::time(what, took, target));
        out.push(Figure::ratio(took, show, target, Duration::from_millis(7)));
    };
    time("result T WINNER --by life", Expect::Ok, &|i| {
        v(&["result", &t(0, i).0, &t(0, i).1, "--by", "life", "--life", "7", "0"])
    });
    time("result fix T draw --round 8 --force", Expect::Ok, &|i| {
        v(&["result", "fix", &t(1, i).0, "draw", "--by", "intentional-draw", "--round", "8", "--force"])
    });
    time("challenge T --by P --about ... --ruling denied", Expect::Ok, &|i| {
        v(&["challenge", &t(2, i).0, "--by", &t(2, i).2, "--about", "Shock was used", "--ruling", "denied"])
    });
    time("penalty P slow-play", Expect::Ok, &|i| v(&["penalty", &t(3, i).2, "slow-play"]));
    time("ruling T TEXT", Expect::Ok, &|i| v(&["ruling", &t(3, i).0, "the attack stands"]));
    let (cost, card) = FRESH;
    time("note T P B1 \"Demonic Tutor\"", Expect::Ok, &|i| v(&["note", &t(4, i).0, &t(4, i).1, cost, card]));
    time("note (duplicate: refused)", Expect::Refused, &|i| v(&["note", &t(4, i).0, &t(4, i).2, cost, card]));
    time("note (unknown card: refused, closest names)", Expect::Refused, &|i| {
        v(&["note", &t(5, i).0, &t(5, i).1, "B1", "Demonic Toaster"])
    });
    time("note undo T", Expect::Ok, &|i| v(&["note", "undo", &t(4, i).0]));
    time("notes T", Expect::Ok, &|i| v(&["notes", &t(6, i).0]));
    time("notes T --json", Expect::Ok, &|i| v(&["--json", "notes", &t(6, i).0]));
    time("notes T --html FILE", Expect::Ok, &|i| v(&["notes", &t(6, i).0, "--html", &html]));
    time("player history P", Expect::Ok, &|i| v(&["player", "history", &t(7, i).1]));
    time("player history P --json", Expect::Ok, &|i| v(&["--json", "player", "history", &t(7, i).2]));
    time("results (round 9)", Expect::Ok, &|_| v(&["results"]));
    time("results --round 3 --json", Expect::Ok, &|_| v(&["--json", "results", "--round", "3"]));
    time("challenges", Expect::Ok, &|_| v(&["challenges"]));
    time("challenges --watch", Expect::Ok, &|_| v(&["challenges", "--watch"]));
    time("penalties", Expect::Ok, &|_| v(&["penalties"]));
}

/// Owned arguments.
fn v(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}
