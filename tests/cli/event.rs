//! `event`, `log`, `backup` and store-level refusals.

use crate::harness::{Event, dump};

#[test]
fn creates_an_event_and_shows_its_settings() {
    let ev = Event::new();
    let doc = ev.run(&["--json", "event", "show"]).json();
    assert_eq!(doc["name"], "Test Open");
    assert_eq!(doc["settings"]["rounds"], "5");
    assert_eq!(doc["settings"]["round-minutes"], "50");
    assert_eq!(doc["settings"]["decision-seconds"], "45");
    assert_eq!(doc["settings"]["final-window-minutes"], "15");
    assert_eq!(doc["settings"]["final-decision-seconds"], "15");
    assert_eq!(doc["settings"]["challenge-limit"], "2");
    assert_eq!(doc["settings"]["binding"], "standard");
    assert_eq!(doc["settings"]["movement"], "auto");
    assert_eq!(doc["settings"]["seed"], "42");
    let human = ev.run(&["event", "show"]).ok().to_string();
    assert!(human.contains("Test Open") && human.contains("round-minutes"), "{human}");
}

#[test]
fn db_path_comes_from_flag_then_env() {
    let ev = Event::empty();
    let other = ev.path("other.db");
    let other_s = other.to_string_lossy().to_string();
    ev.run(&["--db", &other_s, "event", "new", "Flag Open"]).ok();
    assert!(other.exists());
    assert!(!ev.db().exists(), "--db must win over MMJUDGE_DB");
    ev.run(&["event", "new", "Env Open"]).ok();
    assert!(ev.db().exists());
}

#[test]
fn refuses_to_create_over_an_event_without_force() {
    let ev = Event::new();
    let msg = ev.refuses(&["event", "new", "Second"]);
    assert!(msg.contains("--force"), "{msg}");
    ev.run(&["event", "new", "Second", "--force"]).ok();
    assert_eq!(ev.run(&["--json", "event", "show"]).json()["name"], "Second");
}

#[test]
fn sets_settings_and_audits_them() {
    let ev = Event::new();
    ev.run(&["event", "set", "round-minutes", "40"]).ok();
    ev.run(&["event", "set", "binding", "Alphabet"]).ok();
    let doc = ev.run(&["--json", "event", "show"]).json();
    assert_eq!(doc["settings"]["round-minutes"], "40");
    assert_eq!(doc["settings"]["binding"], "alphabet");
    let log = ev.run(&["--json", "log"]).json();
    let entries = log["entries"].as_array().cloned().unwrap_or_default();
    let last = entries.last().cloned().unwrap_or_default();
    assert_eq!(last["summary"], "binding: standard -> alphabet");
    assert_eq!(last["judge"], "Test Judge");
    assert!(last["command"].as_str().unwrap_or("").starts_with("mmjudge event set binding"));
}

#[test]
fn refuses_bad_settings_and_changes_nothing() {
    let ev = Event::new();
    assert!(ev.refuses(&["event", "set", "roundz", "3"]).contains("did you mean \"rounds\""));
    assert!(ev.refuses(&["event", "set", "round-minutes", "-5"]).contains("round-minutes"));
    assert!(ev.refuses(&["event", "set", "decision-seconds", "0"]).contains("decision-seconds"));
    assert!(ev.refuses(&["event", "set", "movement", "zigzag"]).contains("mitchell"));
    assert!(ev.refuses(&["event", "set", "final-window-minutes", "90"]).contains("round-minutes"));
}

#[test]
fn refuses_a_directory_or_a_file_that_is_not_an_event() {
    let ev = Event::empty();
    std::fs::create_dir(ev.path("adir")).expect("dir");
    let msg = ev.run(&["--db", "adir", "event", "show"]).refused().to_string();
    assert!(msg.contains("directory"), "{msg}");
    let junk = ev.file("junk.db", "this is not sqlite at all, just text that is long enough to be a header......");
    let before = std::fs::read(&junk).expect("read");
    let msg = ev.run(&["--db", "junk.db", "player", "list"]).refused().to_string();
    assert!(msg.contains("not an SQLite database"), "{msg}");
    assert_eq!(before, std::fs::read(&junk).expect("read"), "the file must not change");
    let msg = ev.run(&["--db", "nothing.db", "player", "list"]).refused().to_string();
    assert!(msg.contains("event new"), "{msg}");
    assert!(!ev.path("nothing.db").exists(), "reading must not create a file");
}

#[test]
fn refuses_a_foreign_database_and_a_newer_schema() {
    let ev = Event::new();
    {
        let conn = rusqlite::Connection::open(ev.path("foreign.db")).expect("open");
        conn.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1);").expect("create");
    }
    let msg = ev.run(&["--db", "foreign.db", "player", "list"]).refused().to_string();
    assert!(msg.contains("another program"), "{msg}");
    {
        let conn = rusqlite::Connection::open(ev.db()).expect("open");
        conn.pragma_update(None, "user_version", 999).expect("bump");
    }
    let before = dump(&ev.db());
    let msg = ev.run(&["player", "add", "Ana"]).refused().to_string();
    assert!(msg.contains("newer mmjudge"), "{msg}");
    assert_eq!(before, dump(&ev.db()));
}

#[test]
fn backup_writes_a_consistent_copy() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.run(&["backup", "copy.db"]).ok();
    let copy = ev.run(&["--db", "copy.db", "--json", "player", "list"]).json();
    assert_eq!(copy["players"].as_array().map(Vec::len), Some(2));
    assert!(ev.refuses(&["backup", "copy.db"]).contains("already exists"));
}

#[test]
fn log_filters_by_player_and_time() {
    let ev = Event::new();
    ev.run_with(&["player", "add", "Ana"], &[("MMJUDGE_NOW", "2026-05-01T10:00:00Z")]).ok();
    ev.run_with(&["player", "add", "Bo"], &[("MMJUDGE_NOW", "2026-05-01T11:00:00Z")]).ok();
    let ana = ev.run(&["--json", "log", "--player", "ana"]).json();
    let entries = ana["entries"].as_array().cloned().unwrap_or_default();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["summary"], "added player \"Ana\"");
    let since = ev.run(&["--json", "log", "--since", "2026-05-01T10:30:00Z"]).json();
    let summaries: Vec<String> = since["entries"]
        .as_array()
        .map(|a| a.iter().filter_map(|e| e["summary"].as_str().map(String::from)).collect())
        .unwrap_or_default();
    assert!(summaries.contains(&"added player \"Bo\"".to_string()), "{summaries:?}");
    assert!(!summaries.contains(&"added player \"Ana\"".to_string()), "{summaries:?}");
    // Nothing since a moment: the table says which moment it read, not a bare "(none)".
    let none = ev.run(&["log", "--since", "2026-05-02"]).ok().to_string();
    assert!(none.contains("nothing changed since 2026-05-02 00:00"), "{none}");
}

#[test]
fn bad_usage_exits_2_with_one_line() {
    let ev = Event::new();
    // The harness sets MMJUDGE_DB and MMJUDGE_JUDGE: the usage line does not show them as needed.
    for (args, says) in [
        (
            &["event", "frobnicate"][..],
            "error: unrecognized subcommand 'frobnicate'; usage: mmjudge event [OPTIONS] <COMMAND>",
        ),
        (
            &["round", "extend", "4", "3"],
            "error: the following required arguments were not provided: --reason <TEXT>; usage: mmjudge round extend --reason <TEXT> <TABLE> <MINUTES>",
        ),
        (
            &["challenge", "1", "--by", "ana", "--about", "x", "--ruling", "maybe"],
            "error: invalid value 'maybe' for '--ruling <RULING>'; [possible values: upheld, denied]",
        ),
    ] {
        let run = ev.run(args);
        assert_eq!((run.code, run.stderr.as_str()), (2, format!("{says}\n").as_str()), "{args:?}");
    }
    let run = ev.run(&["challenge", "1"]);
    let says = "error: the following required arguments were not provided: --by <PLAYER>, --about <TEXT>, --ruling <RULING>; usage: mmjudge challenge --by <PLAYER> --about <TEXT> --ruling <RULING> <TABLE>\n";
    assert_eq!((run.code, run.stderr.as_str()), (2, says));
    // `mmjudge` or a group alone shows its help.
    for (args, usage) in
        [(&[][..], "Usage: mmjudge [OPTIONS] <COMMAND>"), (&["round"], "Usage: mmjudge round [OPTIONS] <COMMAND>")]
    {
        let run = ev.run(args);
        assert_eq!(run.code, 2);
        assert!(run.stderr.contains(usage) && run.stderr.contains("Commands:"), "{}", run.stderr);
    }
}

#[test]
fn several_judges_writing_at_once_never_see_a_locked_database() {
    let ev = Event::new();
    let ev = std::sync::Arc::new(ev);
    let threads: Vec<_> = (0..3)
        .map(|judge| {
            let ev = ev.clone();
            std::thread::spawn(move || {
                for i in 0..8 {
                    let name = format!("Judge{judge} Player{i}");
                    let run = ev.run(&["--judge", &format!("J{judge}"), "player", "add", &name]);
                    assert_eq!(run.code, 0, "{}", run.stderr);
                    let read = ev.run(&["player", "list"]);
                    assert_eq!(read.code, 0, "{}", read.stderr);
                }
            })
        })
        .collect();
    for t in threads {
        assert!(t.join().is_ok());
    }
    let doc = ev.run(&["--json", "player", "list"]).json();
    assert_eq!(doc["players"].as_array().map(Vec::len), Some(24));
    let log = ev.run(&["--json", "log"]).json();
    assert_eq!(log["entries"].as_array().map(Vec::len), Some(25), "every write audited once");
}

#[test]
fn backup_into_a_missing_folder_names_the_folder() {
    let ev = Event::new();
    let dest = ev.path("no-such-folder/copy.db");
    let msg = ev.refuses(&["backup", &dest.to_string_lossy()]);
    assert!(msg.contains("no-such-folder") && msg.contains("does not exist"), "{msg}");
    assert!(!msg.contains("database error"), "{msg}");
}

#[test]
fn the_library_mode_is_locked_once_round_1_is_paired() {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let msg = ev.refuses(&["event", "set", "libraries", "sealed"]);
    assert!(msg.contains("round 1 is paired") && msg.contains("round unpair"), "{msg}");
    // Setting the mode it already has changes nothing and is not refused.
    ev.run(&["event", "set", "libraries", "fixed"]).ok();
}

#[test]
fn rounds_cannot_be_set_below_the_rounds_already_paired() {
    let ev = Event::playing();
    ev.finish_round(1);
    ev.run(&["round", "pair"]).ok();
    let msg = ev.refuses(&["event", "set", "rounds", "1"]);
    let want = "error: 2 rounds are already paired, so the event cannot have fewer: set rounds to 2 or more, or first \
                take round 2 back with `mmjudge round unpair` (while it has no results)";
    assert_eq!(msg.trim_end(), want);
    assert!(ev.run(&["event", "show"]).ok().contains("round 2 of 5"));
    // As many rounds as are paired is allowed, and so is the way out the message gives.
    assert_eq!(ev.run(&["event", "set", "rounds", "2"]).ok().trim(), "rounds: 5 -> 2");
    ev.run(&["round", "unpair"]).ok();
    assert_eq!(ev.run(&["event", "set", "rounds", "1"]).ok().trim(), "rounds: 2 -> 1");
    assert_eq!(ev.run(&["event", "set", "rounds", "1"]).ok().trim(), "rounds: 1 (unchanged)");
    assert!(ev.refuses(&["event", "set", "rounds", "0"]).contains("rounds"));
}
