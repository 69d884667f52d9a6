//! Property tests through the real binary: random typed arguments and random import files never crash
//! mmjudge, a refusal is one line on standard error, never echoes a control character, and leaves the event
//! file exactly as it was. Few cases (32 per test) keep the suite fast; the pure parsers get many more in
//! the library's own property tests.

use crate::cards::with_reference;
use crate::harness::{Event, example};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn messy() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => proptest::char::range('a', 'z'),
            2 => proptest::char::range('0', '9'),
            2 => proptest::sample::select(vec![',', '"', '{', '}', '/', ' ', '=', '+', '-', '@', ':', '\'']),
            1 => proptest::sample::select(vec!['\n', '\r', '\t', '\u{1b}', '\u{7f}', '\u{85}', '\u{202e}']),
            1 => proptest::sample::select(vec!['R', 'U', 'B', 'X', 'Æ', '—']),
        ],
        0..16,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0i64..12).prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        Just("4294967295".to_string()),
        Just("99999999999999999999999".to_string()),
        messy(),
    ]
}

fn runner() -> TestRunner {
    TestRunner::new(Config { cases: 32, failure_persistence: None, ..Config::default() })
}

/// Runs one command and checks what any command must do, whatever it was given.
fn holds_up(ev: &Event, args: &[&str]) -> Result<(), TestCaseError> {
    let before = ev.dump();
    let run = ev.run(args);
    prop_assert!(matches!(run.code, 0..=2), "{args:?} ended with {}: {}", run.code, run.stderr);
    prop_assert!(!run.stderr.contains('\u{1b}') && !run.stdout.contains('\u{1b}'), "{args:?}: raw ESC printed");
    if run.code != 0 {
        prop_assert_eq!(before, ev.dump(), "a refused command changed the event: {:?}", args);
    }
    if run.code == 1 {
        prop_assert!(run.stderr.starts_with("error: "), "{args:?}: {}", run.stderr);
        prop_assert_eq!(run.stderr.trim_end().lines().count(), 1, "{:?}: {}", args, run.stderr);
    }
    Ok(())
}

/// An event with the bundled reference and pool, two players seated at table 1 of round 1.
fn seated() -> Event {
    let ev = with_reference();
    ev.run(&["pool", "import", &example("pool.csv")]).ok();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo")]);
    ev
}

#[test]
fn typed_arguments_never_crash_and_refusals_change_nothing() {
    let ev = seated();
    let strategy = (0usize..16, number(), number(), messy());
    let outcome = runner().run(&strategy, |(pick, a, b, t)| {
        let t = t.replace('\0', "");
        let lines: [Vec<&str>; 16] = [
            vec!["pool", "add", &t, "--count", &a],
            vec!["pool", "add", &t, "--count", &a, "--allow-unknown", "--cost", &b, "--type", &t],
            vec!["result", &a, &t, "--by", "time", "--life", &a, &b],
            vec!["note", &a, "ana", &b, &t],
            vec!["ruling", &a, &t],
            vec!["challenge", &a, "--by", &t, "--about", &t, "--ruling", "denied"],
            vec!["penalty", "bo", "slow", "--note", &t],
            vec!["event", "set", "rounds", &a],
            vec!["event", "set", "name", &t],
            vec!["event", "set", "seed", &b],
            vec!["round", "extend", &a, &b, "--reason", &t],
            vec!["library", "build", "--tables", &a, "--seed", &b],
            vec!["standings", "--round", &a],
            vec!["log", "--since", &t],
            vec!["--judge", &t, "cards", "check", &b, &t],
            vec!["clock", &a, "--start", &t, "--at", &b],
        ];
        holds_up(&ev, &lines[pick])
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
}

fn csv_cell(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// A CSV with this header and rows of random cells, or random bytes.
fn file_text() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..200),
        proptest::collection::vec((messy(), number(), messy(), messy()), 0..6).prop_map(|rows| {
            let mut csv = String::from("name,count,mana_cost,type_line\n");
            for (n, k, c, t) in &rows {
                csv.push_str(&format!("{},{},{},{}\n", csv_cell(n), csv_cell(k), csv_cell(c), csv_cell(t)));
            }
            csv.into_bytes()
        }),
    ]
}

#[test]
fn imported_files_never_crash_and_refusals_change_nothing() {
    let ev = seated();
    let sealed = with_reference();
    sealed.run(&["event", "set", "libraries", "sealed"]).ok();
    sealed.run(&["player", "add", "Ana"]).ok();
    let outcome = runner().run(&(file_text(), 0usize..5), |(bytes, pick)| {
        let path = ev.path("input.csv");
        std::fs::write(&path, &bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let p = path.to_string_lossy().to_string();
        match pick {
            0 => holds_up(&ev, &["pool", "import", &p]),
            1 => holds_up(&ev, &["pool", "import", &p, "--allow-unknown"]),
            2 => holds_up(&ev, &["player", "import", &p]),
            3 => holds_up(&ev, &["cards", "import", &p]),
            _ => holds_up(&sealed, &["library", "register", "Ana", &p, "--allow-unknown"]),
        }
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
}
