//! Counted words read as English: "1 copy", "1 player", "sat once", never "1 copies" or "card(s)".

use crate::harness::Event;

#[test]
fn counts_of_one_are_singular() {
    let ev = Event::empty();
    let out = ev.run(&["event", "new", "Tiny", "--rounds", "1"]);
    assert!(out.ok().contains("(1 round, seed"), "{}", out.stdout);
    ev.run(&["player", "add", "Ana"]).ok();
    let list = ev.run(&["player", "list"]).ok().to_string();
    assert!(list.contains("1 player") && !list.contains("1 players"), "{list}");
    let cards = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cards.csv");
    ev.run(&["cards", "import", &cards.to_string_lossy()]).ok();
    assert!(ev.run(&["pool", "add", "Shock"]).ok().contains("Shock (1 copy now)"));
    let pool = ev.run(&["pool", "list"]).ok().to_string();
    assert!(pool.contains("Pool: 1 card, 1 copy") && pool.contains("1 spell copy for main libraries"), "{pool}");
    assert!(pool.contains("0 land copies kept apart"), "{pool}");
}

#[test]
fn no_output_says_s_in_brackets() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut bad = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                for (i, line) in text.lines().enumerate() {
                    let quoted = line.split('"').skip(1).step_by(2).any(|s| s.contains("(s)") || s.contains("(es)"));
                    if quoted {
                        bad.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "use domain::words::count instead of \"(s)\":\n{}", bad.join("\n"));
}

#[test]
fn one_table_is_singular_in_results_pairing_and_building() {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let results = ev.run(&["results"]).ok().to_string();
    assert!(results.contains("Round 1: 0 of 1 table has a result"), "{results}");
    ev.sql("UPDATE match SET result = 'A', reason = 'concession', result_at = '2026-05-01T12:00:00Z';");
    let results = ev.run(&["results"]).ok().to_string();
    assert!(results.contains("Round 1: 1 of 1 table has a result"), "{results}");

    let ev = Event::new();
    ev.fake_libraries(1);
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
    let msg = ev.refuses(&["round", "pair"]);
    assert!(msg.contains("4 players need 2 tables but only 1 exists"), "{msg}");

    let ev = Event::new();
    let cards = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cards.csv");
    ev.run(&["cards", "import", &cards.to_string_lossy()]).ok();
    ev.run(&["pool", "add", "Shock"]).ok();
    let msg = ev.refuses(&["library", "build", "--tables", "1"]);
    assert!(msg.contains("the pool is too small for 1 table:"), "{msg}");
}
