//! Hostile input: bounded numbers, spreadsheet formulas in CSV output, control characters typed or
//! imported, and the card importers' checks (conflicting costs, nameless rows, rows that are not cards).

use crate::cards::with_reference;
use crate::harness::{Event, example};

const ESC: &str = "\u{1b}";

/// Asserts a refusal that names its bound and left the event file as it was.
#[track_caller]
fn refused_with(ev: &Event, args: &[&str], bound: &str) {
    let msg = ev.refuses(args);
    assert!(msg.contains(bound), "{args:?}: {msg}");
}

#[test]
fn copy_counts_are_bounded_when_typed_added_up_or_imported() {
    let ev = with_reference();
    refused_with(&ev, &["pool", "add", "Shock", "--count", "4294967295"], "1 to 1,000,000");
    refused_with(&ev, &["pool", "add", "Shock", "--count", "0"], "1 to 1,000,000");
    refused_with(&ev, &["pool", "remove", "Shock", "--count", "1000001"], "1 to 1,000,000");
    refused_with(&ev, &["pool", "add", "Shock", "--count", "10001"], "a card has at most 10,000 copies");
    ev.run(&["pool", "add", "Shock", "--count", "10000"]).ok();
    refused_with(&ev, &["pool", "add", "Shock"], "at most 10,000 copies");
    let big = ev.file("big.csv", "name,count\nCounterspell,50000\n");
    refused_with(&ev, &["pool", "import", &big.to_string_lossy()], "a card has at most 10,000 copies");
    let summed = ev.file("summed.csv", "name,count\nBrainstorm,6000\nBrainstorm,6000\n");
    refused_with(&ev, &["pool", "import", &summed.to_string_lossy()], "at most 10,000 copies");
    let huge = ev.file("huge.csv", "name,count\nBrainstorm,99999999999999999999999\n");
    refused_with(&ev, &["pool", "import", &huge.to_string_lossy()], "more than 1,000,000");
    // Basic lands are bounded apart: one may stock the Utopia libraries of every table.
    let lands = ev.file("lands.csv", "name,count\nIsland,600000\n");
    ev.run(&["pool", "import", &lands.to_string_lossy()]).ok();
    refused_with(&ev, &["pool", "add", "Island", "--count", "400001"], "a basic land has at most 1,000,000 copies");
    // An event written before the bounds: library build refuses instead of allocating 4 billion copies.
    ev.sql("UPDATE pool_card SET copies = 4294967295 WHERE name = 'Shock';");
    refused_with(&ev, &["library", "build", "--tables", "1"], "at most 1,000,000");
}

#[test]
fn a_pool_holds_at_most_a_million_copies() {
    let ev = with_reference();
    let reference = std::fs::read_to_string(example("cards.csv")).unwrap_or_default();
    let mut reader = csv::Reader::from_reader(reference.as_bytes());
    // Basic lands are bounded apart: 1,001 other cards.
    let names: Vec<String> = reader
        .records()
        .filter_map(|r| r.ok().filter(|r| !r.iter().any(|f| f.contains("Basic Land")))?.get(0).map(str::to_string))
        .take(1001)
        .collect();
    assert_eq!(names.len(), 1001);
    let mut pool = String::from("name,count\n");
    for n in &names {
        pool.push_str(&format!("\"{}\",1000\n", n.replace('"', "\"\"")));
    }
    let file = ev.file("huge-pool.csv", &pool);
    refused_with(&ev, &["pool", "import", &file.to_string_lossy()], "at most 1,000,000");
}

#[test]
fn tables_rounds_players_and_life_totals_are_bounded() {
    let ev = Event::new();
    refused_with(&ev, &["library", "build", "--tables", "10001"], "1 to 10,000");
    refused_with(&ev, &["library", "build", "--tables", "0"], "1 to 10,000");
    refused_with(&ev, &["event", "set", "rounds", "31"], "from 1 to 30");
    refused_with(&ev, &["standings", "--round", "31"], "1 to 30");
    refused_with(&ev, &["notes", "10001"], "1 to 10,000");
    refused_with(&ev, &["result", "1", "draw", "--by", "time", "--life", "1000001", "3"], "from 0 to 1,000,000");
    refused_with(&ev, &["result", "1", "draw", "--by", "time", "--life", "3", "-1001"], "from 0 to 1,000,000");
    refused_with(&ev, &["movement", "preview", "--players", "100001"], "100,000");
    let empty = Event::empty();
    let run = empty.run(&["event", "new", "X", "--rounds", "31"]);
    assert!(run.refused().contains("1 to 30"), "{}", run.stderr);
    assert!(!empty.db().exists(), "a refused event new leaves no file");
}

#[test]
fn an_event_holds_at_most_100000_players() {
    let ev = Event::new();
    let mut csv = String::from("name\n");
    for i in 0..100_001 {
        csv.push_str(&format!("P{i}\n"));
    }
    let file = ev.file("crowd.csv", &csv);
    refused_with(&ev, &["player", "import", &file.to_string_lossy()], "at most 100,000");
}

#[test]
fn a_sealed_library_holds_at_most_200_cards() {
    let ev = with_reference();
    ev.run(&["event", "set", "libraries", "sealed"]).ok();
    ev.run(&["player", "add", "Ana"]).ok();
    let product = ev.file("ana.csv", "name,count\nForest,8\nShock,150\nBrainstorm,51\n");
    refused_with(&ev, &["library", "register", "Ana", &product.to_string_lossy()], "at most 200");
    let lands = ev.file("lands.csv", "name,count\nForest,201\nShock,1\n");
    refused_with(&ev, &["library", "register", "Ana", &lands.to_string_lossy()], "at most 200");
}

#[test]
fn seeds_take_any_64_bit_number() {
    let ev = Event::empty();
    ev.run(&["event", "new", "X", "--seed", "18446744073709551615"]).ok();
    let seed = |ev: &Event| ev.run(&["--json", "event", "show"]).json()["settings"]["seed"].clone();
    assert_eq!(seed(&ev), "18446744073709551615");
    ev.run(&["event", "set", "seed", "-1"]).ok();
    assert_eq!(seed(&ev), "18446744073709551615");
    ev.run(&["event", "set", "seed", "9223372036854775808"]).ok();
    assert_eq!(seed(&ev), "9223372036854775808");
    refused_with(&ev, &["event", "set", "seed", "18446744073709551616"], "18446744073709551615");
    refused_with(&ev, &["library", "build", "--tables", "1", "--seed", "x"], "64-bit");
}

#[test]
fn csv_listings_neutralise_formulas_and_keep_numbers() {
    let ev = Event::new();
    let link = "=HYPERLINK(\"http://evil.example\",\"click\")";
    ev.run(&["player", "add", link, "@SUM(1+1)", "Bo", "Cy"]).ok();
    ev.seed_played_rounds(&[&[(link, "Bo", "A"), ("@SUM(1+1)", "Cy", "B")]]);
    let csv = ev.run(&["--csv", "standings"]).ok().to_string();
    assert!(csv.contains("'=HYPERLINK("), "{csv}");
    assert!(csv.contains("'@SUM(1+1)"), "{csv}");
    assert!(!csv.lines().any(|l| l.split(',').any(|c| c.starts_with('=') || c.starts_with('@'))), "{csv}");
    let players = ev.run(&["--csv", "player", "list"]).ok().to_string();
    assert!(players.contains("'=HYPERLINK("), "{players}");
}

#[test]
fn deck_sheet_csv_neutralises_formulas() {
    let ev = with_reference();
    ev.run(&["event", "set", "libraries", "sealed"]).ok();
    ev.run(&["player", "add", "Ana"]).ok();
    let product = ev.file(
        "ana.csv",
        "name,count,mana_cost,type_line\nForest,8,,\nShock,2,,\n\"=cmd|' /C calc'!A0\",1,{R},Instant\n",
    );
    ev.run(&["library", "register", "Ana", &product.to_string_lossy(), "--allow-unknown"]).ok();
    let dir = ev.path("sheets");
    ev.run(&["library", "sheets", &dir.to_string_lossy()]).ok();
    let csv = std::fs::read_to_string(dir.join("libraries.csv")).unwrap_or_default();
    assert!(csv.contains("'=cmd|"), "{csv}");
    assert!(!csv.contains(",=cmd"), "{csv}");
}

#[test]
fn typed_control_characters_are_refused_and_never_echoed() {
    let ev = Event::new();
    let clear = format!("{ESC}[2J");
    for args in [
        vec!["--judge", clear.as_str(), "player", "add", "Ana"],
        vec!["player", "add", "Ana", "--", clear.as_str()],
        vec!["event", "set", "name", clear.as_str()],
        vec!["pool", "watch", "add", "Shock", "--note", clear.as_str(), "--force"],
    ] {
        let msg = ev.refuses(&args);
        assert!(msg.contains("control character (ESC)") && !msg.contains(ESC), "{args:?}: {msg}");
        assert!(msg.contains("\\u{1b}[2J"), "the argument is shown escaped: {msg}");
    }
    let before = ev.dump();
    let run = ev.run_with(&["player", "add", "Ana"], &[("MMJUDGE_JUDGE", &clear)]);
    assert!(run.refused().contains("judge's name") && !run.stderr.contains(ESC), "{}", run.stderr);
    assert_eq!(before, ev.dump());
    for args in [
        &["event", "set", "name", "Spring\nOpen"][..],
        &["pool", "watch", "add", "Two\nLines", "--force"],
        &["ban", "add", "Two\nLines", "--group", "too-powerful", "--force"],
    ] {
        assert!(ev.refuses(args).contains("line break"), "{args:?}");
    }
    let cards = with_reference();
    let msg = cards.refuses(&["pool", "add", "Two\nLines", "--cost", "R", "--type", "Instant", "--allow-unknown"]);
    assert!(msg.contains("line break"), "{msg}");
    let empty = Event::empty();
    assert!(empty.run(&["event", "new", &format!("X{ESC}")]).refused().contains("ESC"));
    assert!(!empty.db().exists());
}

#[test]
fn errors_and_the_log_show_control_characters_escaped() {
    let ev = Event::new();
    let db = ev.path(&format!("ev{ESC}[2J.db"));
    let run = ev.run_with(&["standings"], &[("MMJUDGE_DB", &db.to_string_lossy())]);
    assert!(run.refused().contains("ev\\u{1b}[2J.db"), "{}", run.stderr);
    assert!(!run.stderr.contains(ESC));
    // An event written before these checks may hold one: the log shows it escaped.
    ev.sql(&format!("UPDATE audit SET judge = 'Kim{ESC}[2J' WHERE id = 1;"));
    let log = ev.run(&["log"]).ok().to_string();
    assert!(log.contains("Kim\\u{1b}[2J") && !log.contains(ESC), "{log}");
    let csv = ev.run(&["--csv", "log"]).ok().to_string();
    assert!(!csv.contains(ESC), "{csv}");
}

#[test]
fn imported_files_lose_their_control_characters_with_a_count() {
    let ev = with_reference();
    let pool = ev.file("pool.csv", &format!("name,count\nSho{ESC}ck,2\nBrain\u{0}storm,1\n"));
    let out = ev.run(&["--json", "pool", "import", &pool.to_string_lossy()]).json();
    assert_eq!(out["control_characters_removed"], 2, "{out}");
    let list = ev.run(&["--json", "pool", "list"]).ok().to_string();
    assert!(list.contains("\"Shock\"") && list.contains("\"Brainstorm\""), "{list}");
    let players = ev.file("players.csv", &format!("name,email\nAna,ana{ESC}@x.org\n"));
    let out = ev.run(&["player", "import", &players.to_string_lossy()]).ok().to_string();
    assert!(out.contains("removed 1 control character"), "{out}");
    let cards = ev.file("cards.csv", &format!("name,mana_cost,type_line\nSh{ESC}[31mock,{{R}},Instant\n"));
    let out = ev.run(&["--json", "cards", "import", &cards.to_string_lossy()]).json();
    assert_eq!(out["control_characters_removed"], 1, "{out}");
    assert_eq!(out["cards"], 1);
    let found = ev.run(&["cards", "find", "[31mock"]).ok().to_string();
    assert!(!found.contains(ESC), "{found}");
}

#[test]
fn card_imports_report_conflicting_costs_nameless_rows_and_non_cards() {
    let ev = Event::new();
    let file = ev.file(
        "cards.csv",
        "name,mana_cost,type_line,layout,faces,flags\n\
         Shock,{R},Instant,normal,,\n\
         Shock,{1}{R},Instant,normal,,\n\
         ,{U},Instant,normal,,\n\
         Sticker Sheet,,,normal,,\n\
         Bail Out,{B},,normal,,no-type\n\
         Brainstorm,{U},Instant,normal,,\n",
    );
    let out = ev.run(&["--json", "cards", "import", &file.to_string_lossy()]).json();
    assert_eq!(out["cards"], 2, "Brainstorm and Bail Out: {out}");
    assert_eq!(out["unnamed"], 1);
    assert_eq!(out["dropped"], 1, "the row with no type line");
    assert_eq!(out["cost_conflicts"][0][0], "Shock");
    assert_eq!(out["cost_conflicts"][0][1], serde_json::json!(["{1}{R}", "{R}"]));
    let human = ev.run(&["cards", "import", &file.to_string_lossy()]).ok().to_string();
    assert!(human.contains("different costs left out") && human.contains("Shock ({1}{R} or {R})"), "{human}");
    assert!(human.contains("1 nameless row left out"), "{human}");
    assert!(ev.run(&["cards", "check", "R", "Shock"]).code == 1, "Shock was left out");
    let set = ev.file(
        "set.json",
        r#"{"data":{"code":"UNF","type":"funny","cards":[
        {"name":"Shock","layout":"normal","manaCost":"{R}","type":"Instant"},
        {"name":"Shock","layout":"normal","manaCost":"{2}{R}","type":"Instant"},
        {"name":"Blank","layout":"normal","manaCost":"{W}","type":""},
        {"name":"","layout":"normal","manaCost":"{W}","type":"Instant"},
        {"name":"Aerialephant","layout":"normal","manaCost":"{3}{W}","type":"Creature — Elephant"}]}}"#,
    );
    let out = ev.run(&["--json", "cards", "import", &set.to_string_lossy()]).json();
    assert_eq!((out["cards"].clone(), out["unnamed"].clone(), out["dropped"].clone()), (1.into(), 1.into(), 1.into()));
    assert_eq!(out["cost_conflicts"][0][0], "Shock", "{out}");
}

#[test]
fn the_bundled_examples_still_import_unchanged() {
    let ev = Event::new();
    let out = ev.run(&["--json", "cards", "import", &example("cards.csv")]).json();
    assert_eq!((out["unnamed"].clone(), out["control_characters_removed"].clone()), (0.into(), 0.into()));
    assert_eq!(out["cost_conflicts"], serde_json::json!([]));
}

#[test]
fn csv_cells_stay_inert_where_a_spreadsheet_splits_on_semicolons() {
    // Excel in much of Europe opens a .csv with `;` as the separator: `Al;=cmd|...` would be two cells there,
    // the second a live formula.
    let ev = Event::new();
    let dde = "Al;=cmd|' /C calc'!A0";
    ev.run(&["player", "add", dde, "Bo;@SUM(1+1)"]).ok();
    let players = ev.run(&["--csv", "player", "list"]).ok().to_string();
    for line in players.lines() {
        for cell in line.split([',', ';']) {
            assert!(!cell.starts_with(['=', '@', '+']), "{cell:?} in {players}");
        }
    }
    assert!(players.contains("Al;'=cmd|' /C calc'!A0"), "{players}");
}

#[test]
fn free_text_is_bounded_with_the_fields_label_as_on_the_web() {
    let ev = with_reference();
    let long = |n: usize| "a".repeat(n);
    let (name, event_name, reason) = (long(81), long(121), long(501));
    refused_with(&ev, &["player", "add", &name], "is 81 characters long: at most 80; shorten it");
    refused_with(&ev, &["event", "set", "name", &event_name], "the name is 121 characters long: at most 120");
    let ban = ["ban", "add", "Shock", "--group", "too-powerful", "--reason", &reason];
    refused_with(&ev, &ban, "the ban's reason is 501 characters long: at most 500");
    refused_with(&ev, &["pool", "watch", "add", "Shock", "--note", &reason], "the note is 501 characters long");
    // At the bound, taken.
    ev.run(&["player", "add", &long(80)]).ok();
    ev.run(&["event", "set", "name", &long(120)]).ok();
    ev.run(&["ban", "add", "Shock", "--group", "too-powerful", "--reason", &long(500)]).ok();
}
