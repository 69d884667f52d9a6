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

/// The pages' scripts (#45): one listener sends the forms that post to `/api/` (app.js's `sendForms`: through the
/// page's queue, queue.js's `shownOnce` or at once), and a refused write is worded one way, by common.js alone: its
/// one line read from the answer (`mm.refusalOf`), "Not done: " before it (`mm.refused`), and one line for a write
/// the network did not carry and no queue keeps (`mm.OFFLINE`).
#[test]
fn the_pages_send_forms_from_one_listener_and_word_a_refusal_one_way() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/web");
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("templates/web").flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "js") {
            continue;
        }
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(&path).expect("a script");
        let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let sends_api_forms = code.matches(r#"action.indexOf("/api/")"#).count();
        if sends_api_forms > usize::from(name == "app.js") || (name == "app.js" && sends_api_forms != 1) {
            problems.push(format!("{name} sends the pages' /api/ forms: only app.js's one listener does"));
        }
        if name != "common.js" {
            for (words, what) in [
                ("\"Not done: \"", "a refused write's words (use mm.refused)"),
                ("not recorded: ", "a refused write's words (use mm.refused)"),
                ("refused (", "a refusal's fallback (use mm.refusalOf)"),
                ("this phone is offline", "the offline line (use mm.OFFLINE)"),
                ("alert.textContent", "a refusal read from a page (use mm.refusalOf)"),
            ] {
                if code.contains(words) {
                    problems.push(format!("{name} words {what} itself"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "the pages' scripts:\n{}", problems.join("\n"));
}
