//! `demo`: a whole simulated tournament through the real commands.

use crate::harness::Event;

#[test]
fn runs_a_whole_event_and_writes_its_site() {
    let ev = Event::empty();
    let out = ev.path("demo-out");
    let db = ev.path("demo.db");
    let (db_s, out_s) = (db.to_string_lossy().to_string(), out.to_string_lossy().to_string());
    let run = ev.run(&["--db", &db_s, "demo", "--players", "9", "--rounds", "4", "--out", &out_s, "--seed", "7"]);
    let text = run.ok().to_string();
    for wanted in [
        "9 players, 4 rounds",
        "Round 1:",
        "Round 4:",
        "refused:",
        "lost two challenges",
        "drops after round 2",
        "minutes of deck inspection first",
        "arrive late: joining from round 2; a match loss for round 1",
        "wins by no-show and",
        "standings after round 4",
    ] {
        assert!(text.contains(wanted), "missing {wanted:?} in:\n{text}");
    }
    assert!(out.join("site/index.html").exists());
    assert!(out.join("libraries/index.html").exists());
    // the event is a real one: every command works on it
    let standings = ev.run(&["--db", &db_s, "--json", "standings"]).json();
    assert_eq!(standings["round"], 4, "{standings}");
    let results = ev.run(&["--db", &db_s, "--json", "results", "--round", "4"]).json();
    assert!(results.to_string().contains("time") || results.to_string().contains("life"));
    let log = ev.run(&["--db", &db_s, "--json", "log"]).json();
    assert!(log["entries"].as_array().map(Vec::len).unwrap_or(0) > 100);
    // the same seed gives the same tournament
    let again = ev.run(&["--db", &db_s, "demo", "--players", "9", "--rounds", "4", "--out", &out_s, "--seed", "7"]);
    let strip = |t: &str| t.lines().filter(|l| !l.starts_with("Done in")).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&text), strip(again.ok()));
}

#[test]
fn refuses_a_demo_of_one_player() {
    let ev = Event::empty();
    let run = ev.run(&["demo", "--players", "1", "--out", &ev.path("o").to_string_lossy()]);
    assert!(run.refused().contains("at least 2 players"));
    assert!(!ev.path("mmjudge-demo.db").exists());
}

#[test]
fn refuses_to_replace_a_real_event_named_by_mmjudge_db() {
    // MMJUDGE_DB points at "Test Open", as after `export MMJUDGE_DB=spring.db` in the README's tour.
    let ev = Event::new();
    ev.run(&["player", "add", "Ana Real"]).ok();
    let out = ev.path("o");
    let msg = ev.refuses(&["demo", "--players", "4", "--rounds", "2", "--out", &out.to_string_lossy()]);
    assert!(msg.contains("Test Open") && msg.contains("--db demo.db"), "{msg}");
    assert!(!out.exists());
}

/// Every kind of judge action the demo takes leaves its audit entry (with the command line the simulated
/// judge would type): a demo that stops taking one of them fails here.
#[test]
fn takes_every_kind_of_judge_action() {
    let ev = Event::empty();
    let (db, out) = (ev.path("demo.db"), ev.path("demo-out"));
    let (db_s, out_s) = (db.to_string_lossy().to_string(), out.to_string_lossy().to_string());
    ev.run(&["--db", &db_s, "demo", "--rounds", "3", "--out", &out_s]).ok();
    let log = ev.run(&["--db", &db_s, "--json", "log"]).json();
    let commands: Vec<String> = log["entries"]
        .as_array()
        .map(|e| e.iter().filter_map(|x| x["command"].as_str().map(String::from)).collect())
        .unwrap_or_default();
    let count = |kind: &str, with: &str| {
        commands.iter().filter(|c| format!("{c} ").starts_with(&format!("mmjudge {kind} ")) && c.contains(with)).count()
    };
    let kinds: [(&str, &str, usize); 20] = [
        ("event new", "", 1),
        ("cards import", "", 2),
        ("player import", "", 1),
        ("pool import", "", 1),
        ("library build", "--tables 8", 1),
        ("round pair", "", 3),
        ("round start", "--at", 3),
        ("clock", "--start", 1),
        ("clock", "--stop", 1),
        ("challenge", "--ruling upheld", 1),
        ("challenge", "--ruling denied", 2),
        ("penalty", "slow-play", 2),
        ("penalty void", "--reason", 1),
        ("result", "--by", 1),
        ("result clear", "", 1),
        ("round end", "--at", 3),
        // The event day's surprises: deck inspection, late players, the table they need, a no-show.
        ("event set", "inspection-minutes 3", 1),
        ("player add", "", 1),
        ("library add-tables", "1", 1),
        ("result", "--by no-show", 1),
    ];
    for (kind, with, at_least) in kinds {
        let n = count(kind, with);
        assert!(n >= at_least, "{n} audit entries of `{kind} ... {with}` (want {at_least} or more)");
    }
    assert_eq!(commands.iter().filter(|c| c.starts_with("mmjudge player drop ")).count(), 1);
    // Declarations come from the tables' own devices (a player's code and the device's client id), as on
    // `mmjudge serve`: the player is the actor, and the code never shows in the log.
    let declared: Vec<&serde_json::Value> = log["entries"]
        .as_array()
        .map(|e| e.iter().filter(|x| x["command"].as_str().is_some_and(|c| c.starts_with("POST /api/note "))).collect())
        .unwrap_or_default();
    assert!(declared.len() > 10, "{} declarations from the tables' devices", declared.len());
    for d in &declared {
        let (who, command) = (d["judge"].as_str().unwrap_or_default(), d["command"].as_str().unwrap_or_default());
        assert!(who.ends_with(" (player)") && command.contains("client_id") && !command.contains("code"), "{d}");
    }
    for by in ["life", "concession", "time"] {
        assert!(count("result", &format!("--by {by}")) > 0, "no result by {by}");
    }
    // The late players carry their match loss for round 1; the absent player is dropped.
    let standings = ev.run(&["--db", &db_s, "--json", "standings"]).json();
    let lines = standings["standings"].as_array().cloned().unwrap_or_default();
    assert_eq!(lines.iter().filter(|l| l["late_losses"] == 1).count(), 2, "{standings}");
    let history = ev.run(&["--db", &db_s, "--json", "results", "--round", "2"]).json();
    assert!(history.to_string().contains("no-show"), "{history}");
    // Every round started with deck inspection: its clock started 3 minutes after `round start --at`.
    let time = ev.run(&["--db", &db_s, "--json", "time"]).json();
    let started = time["started_at"].as_str().and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok());
    let last_start = commands.iter().rev().find_map(|c| c.strip_prefix("mmjudge round start --at "));
    let opened = last_start.and_then(|s| chrono::DateTime::parse_from_rfc3339(s.trim()).ok());
    assert_eq!(started.zip(opened).map(|(s, o)| (s - o).num_minutes()), Some(3), "{time} {last_start:?}");
}

#[test]
fn demo_serve_serves_the_finished_event_as_serve_does() {
    use std::io::{BufRead, BufReader};
    let ev = Event::empty();
    let (db, out) = (ev.path("demo.db"), ev.path("demo-out"));
    let (db_s, out_s) = (db.to_string_lossy().to_string(), out.to_string_lossy().to_string());
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mmjudge"))
        .current_dir(ev.dir.path())
        .env("MMJUDGE_JUDGE", "Test Judge")
        .env("NO_COLOR", "1")
        .env_remove("MMJUDGE_NOW")
        .env_remove("MMJUDGE_DB")
        .args(["--db", &db_s, "demo", "--players", "4", "--rounds", "2", "--out", &out_s])
        .args(["--serve", "--bind", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start mmjudge demo --serve");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    // Read (and keep draining) what the demo and then the server print.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut printed = Vec::new();
    let addr = loop {
        let Ok(line) = rx.recv_timeout(std::time::Duration::from_secs(120)) else {
            let _ = child.kill();
            panic!("demo --serve printed no address:\n{}", printed.join("\n"));
        };
        if let Some(at) = line.trim().strip_prefix("http://") {
            break at.trim_end_matches('/').to_string();
        }
        printed.push(line);
    };
    let server = crate::serve::Server::attach(child, addr.clone());
    let text = printed.join("\n");
    assert!(text.contains("standings after round 2"), "the demo ran to its end first:\n{text}");
    assert!(text.contains(&format!("mmjudge serves {db_s} on:")), "the lines of `mmjudge serve`:\n{text}");
    assert!(addr.starts_with("127.0.0.1:") && !addr.ends_with(":0"), "the real port: {addr}");
    let home = server.get("/");
    assert_eq!(home.status, 200, "{}", home.body);
    assert!(home.body.contains("Mental Magic Demo Open"), "{}", home.body);
    let standings = server.get("/standings");
    assert_eq!(standings.status, 200, "{}", standings.body);
    let players = ev.run(&["--db", &db_s, "--json", "player", "list"]).json();
    let first = players["players"][0]["name"].as_str().expect("a player").to_string();
    assert!(standings.body.contains(&first), "the finished event's standings:\n{}", standings.body);
    assert_eq!(server.get("/api/standings").json()["round"], 2);
}

#[test]
fn bind_is_for_demo_serve_only() {
    let ev = Event::empty();
    let run = ev.run(&["demo", "--players", "4", "--bind", "127.0.0.1:0", "--out", &ev.path("o").to_string_lossy()]);
    assert_eq!(run.code, 2, "a usage error, as clap gives: {}", run.stderr);
    assert!(run.stderr.contains("--serve"), "{}", run.stderr);
    assert!(!ev.path("o").exists() && !ev.path("mmjudge-demo.db").exists());
}

#[test]
fn refuses_a_demo_its_pool_cannot_stock_before_writing_anything_naming_the_bound() {
    let ev = Event::empty();
    let run = ev.run(&["demo", "--players", "19999", "--rounds", "2", "--out", &ev.path("big").to_string_lossy()]);
    let said = run.refused();
    assert!(said.contains("at most 19,998 players") && said.contains("10,000 tables, the bound on tables"), "{said}");
    assert!(said.contains("try --players 19998"), "{said}");
    assert!(!ev.path("big").exists(), "nothing written");
    assert!(!ev.path("mmjudge-demo.db").exists(), "no event file");
}
