//! The README's tour, typed as a newcomer types it: its commands run in order on the bundled examples and each
//! one works (the lines naming downloads the README says to skip without them are skipped).

use crate::harness::Event;
use std::path::Path;

/// The README.
fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md")
}

/// The command lines of the README from the line containing `from` up to the one containing `to` (excluded), as
/// argument lists (comments cut off, double quotes grouping words): each typed line (`mmjudge ...`) with `false`,
/// each line shown only as an illustration (`# mmjudge ...`) with `true`.
fn commands(readme: &str, from: &str, to: &str) -> Vec<(Vec<String>, bool)> {
    let start = readme.find(from).unwrap_or_else(|| panic!("{from:?} not in the README"));
    let end = readme[start..].find(to).map(|e| start + e).unwrap_or_else(|| panic!("{to:?} not in the README"));
    readme[start..end]
        .lines()
        .filter_map(|l| match l.strip_prefix("# mmjudge ") {
            Some(shown) => Some((shown, true)),
            None => l.strip_prefix("mmjudge ").map(|typed| (typed, false)),
        })
        .map(|(l, shown)| (words(l.split(" #").next().unwrap_or_default()), shown))
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

#[test]
fn the_whole_tour_works_typed_in_order_on_the_bundled_examples() {
    let ev = Event::empty();
    std::os::unix::fs::symlink(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"), ev.path("examples"))
        .expect("link the examples");
    let readme = readme();
    // Every block from section 1 to the judge calls of "Running the event live", in the README's order.
    let tour = commands(&readme, "**1. The event and its rules.**", "Plain HTTP on a shared Wi-Fi");
    let (mut typed, mut refused) = (0, 0);
    for (args, shown) in &tour {
        let line = args.join(" ");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let first = args.first().copied().unwrap_or_default();
        if args.iter().any(|w| *w == "AtomicCards.json" || *w == "rulings.json") || first == "serve" {
            // The downloads the README says to skip without them; `serve` runs until Ctrl-C (tests/cli/serve.rs).
            continue;
        }
        if *shown {
            // A line shown for another moment: the one quoting its refusal must be refused as quoted, here.
            if line == "round pair" {
                let err = ev.refuses(&args);
                assert!(
                    err.contains("18 players need 9 tables but only 8 exist: `mmjudge library add-tables 1`"),
                    "{err}"
                );
                refused += 1;
            }
            continue;
        }
        if line == "clock 7" {
            // The live screen: everything holds for it at this point, and it needs a terminal.
            assert!(ev.refuses(&args).contains("the live clock needs a terminal"), "`mmjudge clock 7`");
            continue;
        }
        let run = ev.run(&args);
        assert_eq!(run.code, 0, "`mmjudge {line}` failed in the README's order: {}", run.stderr);
        typed += 1;
    }
    assert_eq!(refused, 1, "the quoted `round pair` refusal is in the tour");
    assert!(typed >= 90, "{typed} lines typed");
    for line in ["library swap 3A", "round unpair", "round start --now", "result 6 --by time", "round extend void 1"] {
        assert!(tour.iter().any(|(c, shown)| !shown && c.join(" ").starts_with(line)), "{line:?} is typed in the tour");
    }
    // The tour ends where it says: round 2 paired with the late players on 9 tables, the no-show corrected.
    let doc = ev.run(&["--json", "pairings"]).json();
    assert_eq!(doc["tables"].as_array().map(Vec::len), Some(9), "{doc}");
    assert!(ev.run(&["results"]).ok().contains("Nadia Okafor"));
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
    let said = ["at most 10,000 of a card and 1,000,000 of a basic land", "1,000,000 basic lands", "tables (10,000"];
    for bound in said {
        assert!(readme.replace("\n  ", " ").contains(bound), "README bounds: {bound}");
    }
    assert!(readme.replace("\n  ", " ").contains("the demo seats up to 19,998 players"), "README demo bound");
    assert!(ev.refuses(&["library", "build", "--tables", "10001"]).contains("1 to 10,000"));
    let demo = ev.path("demo.db").to_string_lossy().to_string();
    let out = ev.path("demo").to_string_lossy().to_string();
    let refused = ev.refuses(&["--db", &demo, "demo", "--players", "19999", "--out", &out]);
    assert!(refused.contains("at most 19,998 players"), "{refused}");
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

#[test]
fn the_command_lines_in_the_docs_are_ones_the_tool_takes() {
    let ev = Event::new();
    let mut tried = 0;
    for doc in ["docs/http.md", "docs/json.md"] {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(doc)).expect("the doc");
        // Each `mmjudge ...` code span; a synopsis with [optional] parts and `serve` (which runs on) are left out.
        for span in text.split('`').skip(1).step_by(2).filter_map(|s| s.strip_prefix("mmjudge ")) {
            if span.contains('[') || span.starts_with("serve") {
                continue;
            }
            let args = words(span);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = ev.run(&args);
            // A refusal of the event's state is fine here; bad usage is not, unless the span only names a command.
            assert!(
                run.code != 2 || run.stderr.contains("required arguments were not provided"),
                "{doc}: `mmjudge {span}` is not valid usage: {}",
                run.stderr
            );
            tried += 1;
        }
    }
    assert!(tried > 20, "{tried} command lines tried");
}
