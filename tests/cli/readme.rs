//! The README's tour, typed as a newcomer types it: its commands run in order on the bundled examples and each
//! one works (the lines naming downloads the README says to skip without them are skipped).

use crate::harness::Event;
use std::path::Path;

/// The README.
fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md")
}

/// The `mmjudge` command lines of the README from the line containing `from` up to the one containing `to`
/// (excluded), as argument lists: comments cut off, double quotes grouping words.
fn commands(readme: &str, from: &str, to: &str) -> Vec<Vec<String>> {
    let start = readme.find(from).unwrap_or_else(|| panic!("{from:?} not in the README"));
    let end = readme[start..].find(to).map(|e| start + e).unwrap_or_else(|| panic!("{to:?} not in the README"));
    readme[start..end]
        .lines()
        .filter_map(|l| l.strip_prefix("mmjudge "))
        .map(|l| words(l.split(" #").next().unwrap_or_default()))
        .collect()
}

/// Splits a shell line into words (double quotes only, as the README writes them).
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut started) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            ' ' if !quoted => {
                if started {
                    out.push(std::mem::take(&mut word));
                }
                started = false;
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    out
}

/// Runs each command in the folder of `ev` and checks that it works.
#[track_caller]
fn run_all(ev: &Event, commands: &[Vec<String>]) {
    for args in commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = ev.run(&args);
        assert_eq!(run.code, 0, "`mmjudge {}` failed in the README's order: {}", args.join(" "), run.stderr);
    }
}

#[test]
fn the_tour_works_in_order_on_the_bundled_examples() {
    let ev = Event::empty();
    std::os::unix::fs::symlink(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"), ev.path("examples"))
        .expect("link the examples");
    let readme = readme();
    let downloads = |c: &Vec<String>| !c.iter().any(|w| w == "AtomicCards.json" || w == "rulings.json");
    let setup: Vec<Vec<String>> = commands(&readme, "**1. The event and its rules.**", "When the pool is short")
        .into_iter()
        .filter(downloads)
        .collect();
    assert!(setup.iter().any(|c| c.first().is_some_and(|w| w == "library") && c.get(1).is_some_and(|w| w == "swap")));
    run_all(&ev, &setup);
    let players = commands(&readme, "**4. Players.**", "mmjudge player add");
    let pair = commands(&readme, "mmjudge round pair", "mmjudge pairings --html");
    run_all(&ev, &[players, pair].concat());

    // Section 6 up to the live screen: inspection set before the round starts, then ended early.
    let clock = commands(&readme, "**6. The round clock", "mmjudge clock 7  ");
    assert!(clock.iter().any(|c| c.join(" ") == "round start --now"), "{clock:?}");
    run_all(&ev, &clock);
    // The scripted decision clock starts now, whenever typed (a moment given with --at must be already past);
    // the rest of the section follows it as typed.
    let start = commands(&readme, "mmjudge clock 7 --start", "On the live screen");
    assert!(start.iter().all(|c| !c.iter().any(|w| w == "--at")), "{start:?}");
    let doc = ev.run(&["--json", "pairings"]).json();
    let seat_a = doc["tables"][6]["a"]["name"].as_str().unwrap_or_default().to_string();
    let start: Vec<Vec<String>> = start
        .into_iter()
        .map(|c| c.into_iter().map(|w| if w == "ana" { seat_a.clone() } else { w }).collect())
        .collect();
    run_all(&ev, &start);
}

#[test]
fn the_life_totals_are_explained_in_seat_order_where_first_shown() {
    let readme = readme();
    let first = readme.lines().find(|l| l.contains("--life")).unwrap_or_default();
    assert!(first.contains("seat order, seat A's then seat B's"), "{first}");
}

#[test]
fn the_bounds_are_those_the_tool_checks() {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let readme = readme();
    assert!(readme.contains("life totals (0 to 1,000,000)") && readme.contains("a round 1 to 600"), "README bounds");
    assert!(
        ev.refuses(&["result", "1", "ana", "--by", "time", "--life", "3", "-1"]).contains("life totals are 0 or more")
    );
    assert!(
        ev.refuses(&["result", "1", "ana", "--by", "time", "--life", "1000001", "0"]).contains("from 0 to 1,000,000")
    );
    assert!(ev.refuses(&["event", "set", "round-minutes", "601"]).contains("from 1 to 600"));
    assert!(ev.refuses(&["event", "set", "inspection-minutes", "61"]).contains("from 0 to 60"));
    assert!(ev.refuses(&["round", "extend", "1", "1441", "--reason", "x"]).contains("at most 1,440 minutes"));
}
