//! Every write through one door (#45): whatever the route, "ok" and "done" mean on the second laptop. A players
//! import, a library build and a check-in with the standby frozen (SIGSTOP) are neither `done` nor ok; after kill
//! -9 of the primary and a promotion, every write answered ok and every job answered `done` is on the promoted
//! laptop exactly once; the old primary restarted with plain `serve` answers no write ok. The frozen runs are an
//! ignored test (`scripts/standby-jobs.sh`); what needs no frozen process runs with every `cargo test`: the gate
//! fails closed, a store failure is a 500 with its cause logged, a restarted primary keeps requiring its standby.

use crate::harness::{Event, example};
use crate::serve::{Server, codes, judge};
use crate::standby::{advertised, caught_up, key, standby};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn signal(pid: u32, sig: &str) {
    let done = std::process::Command::new("kill").args([sig, &pid.to_string()]).status();
    assert!(done.is_ok_and(|s| s.success()), "kill {sig} {pid}");
}

/// One number read from the event file `db`.
fn count(db: &Path, sql: &str, param: &str) -> i64 {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).expect("open");
    conn.query_row(sql, [param], |r| r.get(0)).expect("count")
}

fn watched(db: &Path, card: &str, note: &str) -> i64 {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).expect("open");
    conn.query_row("SELECT count(*) FROM watch WHERE card_name = ?1 AND note = ?2", [card, note], |r| r.get(0))
        .expect("count")
}

fn players_named(db: &Path, name: &str) -> i64 {
    count(db, "SELECT count(*) FROM player WHERE name = ?1", name)
}

fn checked_in(db: &Path, name: &str) -> i64 {
    count(db, "SELECT count(*) FROM player WHERE name = ?1 AND checked_in_at IS NOT NULL", name)
}

fn libraries_of_table(db: &Path, table: &str) -> i64 {
    count(db, "SELECT count(*) FROM library WHERE table_no = CAST(?1 AS INTEGER)", table)
}

/// `mmjudge serve` on the event's file with its log kept in `log` (the terminal's lines).
fn start_logged(ev: &Event, options: &[&str], env: &[(&str, &str)], log: &Path) -> Server {
    Server::start_to(ev, options, env, Stdio::from(std::fs::File::create(log).expect("the log file")))
}

/// A job started by `first` (200 with its outcome, 202 with its number, or the refusal), followed until it
/// ends: its state, its status, and every phase seen on the way.
fn job_of(server: &Server, token: &str, first: &crate::serve::Answer) -> (String, u64, Vec<String>) {
    if first.status != 202 {
        let state = if first.status == 200 { "done" } else { "refused" };
        return (state.into(), u64::from(first.status), Vec::new());
    }
    let id = first.json()["job"].as_u64().expect("a job number");
    let until = Instant::now() + Duration::from_secs(60);
    let mut phases = Vec::new();
    loop {
        let job = server.get_as(&format!("/api/job/{id}"), token).json();
        let phase = job["phase"].as_str().unwrap_or_default().to_string();
        if phases.last() != Some(&phase) {
            phases.push(phase);
        }
        if let Some(status) = job["status"].as_u64() {
            return (job["state"].as_str().unwrap_or_default().to_string(), status, phases);
        }
        let state = job["state"].as_str().unwrap_or_default();
        assert!(matches!(state, "running" | "waiting"), "a job not ended is running or waiting its turn: {job}");
        assert!(Instant::now() < until, "the job ends: {job}");
        std::thread::sleep(Duration::from_millis(30));
    }
}

fn import_players(server: &Server, token: &str, names: &[&str]) -> (String, u64, Vec<String>) {
    let body = format!("name\n{}\n", names.join("\n"));
    let auth = format!("Bearer {token}");
    let a = server.request("POST", "/api/player/import?file=more.csv", &[("Authorization", &auth)], &body);
    job_of(server, token, &a)
}

fn build(server: &Server, token: &str, tables: u32) -> (String, u64, Vec<String>) {
    let a = server.post_json("/api/library/build", Some(token), &json!({ "tables": tables, "fewer": true }));
    job_of(server, token, &a)
}

/// The event before round 1, check-in on, its reference and pool imported, Ana and Bo registered.
fn before_round_one() -> Event {
    Event::cached("standby_door::before_round_one", || {
        let ev = Event::with_pool();
        ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
        ev.run(&["event", "set", "check-in", "on"]).ok();
        ev
    })
}

/// What a writer was answered ok: a player added, or a card watched with its note.
#[derive(Debug, Clone)]
enum Written {
    Player(String),
    Watch(String, String),
}

/// A judge's writer beside the run, until `stop`: writer 0 and 1 add players, writer 2 watches the pool's cards
/// with a note, one write every 20 ms (a 429 waits as a page does); every write answered ok is kept in `ok`.
fn writer(addr: &str, token: &str, round: u64, w: usize, stop: &AtomicBool, ok: &Mutex<Vec<Written>>) {
    let cards: Vec<String> = std::fs::read_to_string(example("pool.csv"))
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next().map(str::to_string))
        .collect();
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        let (path, body, written) = if w < 2 {
            let name = format!("Writer {round}-{w}-{i}");
            ("/api/player/add", json!({ "names": [name] }), Written::Player(name))
        } else {
            let Some(card) = cards.get(i) else { break };
            let note = format!("watched in run {round}");
            ("/api/pool/watch/add", json!({ "name": card, "note": note }), Written::Watch(card.clone(), note))
        };
        match crate::standby::try_post(addr, path, token, &body) {
            Some((200, _)) => {
                if let Ok(mut ok) = ok.lock() {
                    ok.push(written);
                }
                i += 1;
            }
            Some((429, _)) => std::thread::sleep(Duration::from_millis(100)),
            // Refused (503 while the standby is frozen, a watch already there) or no server: the next one.
            _ => i += 1,
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// One run: writes of every kind answered by a primary with `--standby-required` (jobs, a check-in, and three
/// judges' writers beside them all the time), then its standby frozen: a players import, a library build and a
/// check-in are neither done nor ok; the primary killed (kill -9), the frozen standby killed, its file promoted:
/// everything answered ok or done is there exactly once; the old primary restarted with plain `serve` answers no
/// write ok.
fn freeze_the_standby_then_kill_the_primary(round: u64) {
    let stop = AtomicBool::new(false);
    let ok = Mutex::new(Vec::new());
    let ev = std::thread::scope(|s| {
        let ev = jobs_and_a_check_in_beside_writers(round, s, &stop, &ok);
        stop.store(true, Ordering::Relaxed);
        ev
    });
    let b: PathBuf = ev.path("standby.db");
    let ok = ok.into_inner().unwrap_or_default();
    let players = ok.iter().filter(|w| matches!(w, Written::Player(_))).count();
    assert!(players > 0, "round {round}: the writers were answered ok before the freeze");
    for written in &ok {
        let found = match written {
            Written::Player(name) => players_named(&b, name),
            Written::Watch(card, note) => watched(&b, card, note),
        };
        assert_eq!(found, 1, "round {round}: {written:?}, answered ok, is on the promoted laptop once");
    }
}

/// The run's jobs and check-ins (see [`freeze_the_standby_then_kill_the_primary`]), three writers beside them
/// from the first login until the primary is killed; returns the event once the standby's file is promoted and
/// the old primary restarted and checked.
fn jobs_and_a_check_in_beside_writers<'s>(
    round: u64,
    s: &'s std::thread::Scope<'s, '_>,
    stop: &'s AtomicBool,
    ok: &'s Mutex<Vec<Written>>,
) -> Event {
    let ev = before_round_one();
    let pin = judge(&ev, "Kim", "head");
    let code = codes(&ev);
    let key = key(&ev);
    let primary = Server::start_with(&ev, &["--standby-required"], &[("MMJUDGE_STANDBY_WAIT_MS", "1200")]);
    let b: PathBuf = ev.path("standby.db");
    let second = standby(&ev, &primary, &key, &b);
    caught_up(&ev.db(), &b);
    advertised(&primary);
    let token = primary.login("Kim", &pin);
    for w in 0..3 {
        let (addr, token) = (primary.addr.clone(), token.clone());
        s.spawn(move || writer(&addr, &token, round, w, stop, ok));
    }
    std::thread::sleep(Duration::from_millis(300));
    // Answered while the standby follows: done and ok, each held by the standby.
    let (state, status, _) = import_players(&primary, &token, &["Eve", "Fay"]);
    assert_eq!((state.as_str(), status), ("done", 200), "round {round}: the import before the freeze");
    let (state, status, _) = build(&primary, &token, 2);
    assert_eq!((state.as_str(), status), ("done", 200), "round {round}: the build before the freeze");
    let a = primary.post_json("/api/check-in", None, &json!({ "name": "Ana", "code": code["Ana"] }));
    assert_eq!(a.status, 200, "round {round}: {}", a.body);
    // The standby frozen (a closed lid): nothing more is done or ok.
    signal(second.pid(), "-STOP");
    let (state, status, phases) = import_players(&primary, &token, &["Gus"]);
    let seqs = (crate::standby::seq(&ev.db()), crate::standby::seq(&b));
    let last = primary.get_as("/api/job/3", &token).body;
    assert_eq!(
        (state.as_str(), status),
        ("refused", 503),
        "round {round}: the import with the standby frozen: {phases:?} {seqs:?} {last}"
    );
    assert!(phases.iter().any(|p| p == "waiting for the second laptop"), "round {round}: {phases:?}");
    let (state, status, _) = build(&primary, &token, 3);
    assert_eq!((state.as_str(), status), ("refused", 503), "round {round}: the build with the standby frozen");
    let a = primary.post_json("/api/check-in", None, &json!({ "name": "Bo", "code": code["Bo"] }));
    assert_eq!(a.status, 503, "round {round}: the check-in with the standby frozen: {}", a.body);
    assert_eq!(a.json()["standby"], "not applied", "{}", a.body);
    // The primary dies; the frozen standby is ended too, and its file promoted.
    signal(primary.pid(), "-9");
    stop.store(true, Ordering::Relaxed);
    signal(second.pid(), "-9");
    drop(second);
    let db = b.to_str().expect("path");
    let promoted = ev.run(&["--json", "--db", db, "standby", "promote"]).json();
    assert_eq!(promoted["generation"], 2, "{promoted}");
    for name in ["Eve", "Fay"] {
        assert_eq!(
            players_named(&b, name),
            1,
            "round {round}: {name}, imported by a job done, is on the promoted laptop once"
        );
    }
    assert_eq!(libraries_of_table(&b, "2"), 2, "round {round}: the build done is on the promoted laptop");
    assert_eq!(checked_in(&b, "Ana"), 1, "round {round}: Ana's check-in answered ok is on the promoted laptop");
    // The old primary restarted with plain `serve`: it asks where the event is, nobody answers, no write is ok.
    let log = ev.path("restart.log");
    let old = start_logged(&ev, &[], &[("MMJUDGE_STANDBY_WAIT_MS", "500")], &log);
    let token = old.login("Kim", &pin);
    let a = old.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "after the crash" }));
    assert_eq!(a.status, 503, "round {round}: the restarted old primary: {}", a.body);
    assert!(a.json()["error"].as_str().is_some_and(|e| e.contains("does not answer")), "{}", a.body);
    let a = old.post_json("/api/check-in", None, &json!({ "name": "Cy", "code": code["Cy"] }));
    assert_ne!(a.status, 200, "round {round}: a check-in on the restarted old primary: {}", a.body);
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(said.contains("mmjudge standby detach"), "{said}");
    drop(old);
    drop(primary);
    ev
}

/// How many frozen runs (`RUNS`, 20 for the long version; 3 by default).
fn runs() -> u64 {
    crate::harness::runs(3)
}

/// The frozen runs (`scripts/standby-jobs.sh` runs them).
#[test]
#[ignore = "slow: a frozen standby per run; scripts/standby-jobs.sh (RUNS=20 for the long version)"]
fn with_the_standby_frozen_no_job_is_done_and_no_write_ok_and_a_failover_keeps_all_that_was() {
    for round in 0..runs() {
        freeze_the_standby_then_kill_the_primary(round);
    }
}

/// A primary that restarts after a crash does not forget its standby: with plain `serve` it asks where the event
/// is before its first write, refuses writes while nobody answers, and says so in one line naming `mmjudge
/// standby detach`; once detached it writes alone. A key made for a standby that never started blocks nothing.
#[test]
fn a_restarted_primary_keeps_requiring_the_standby_it_had_until_detached() {
    let ev = Event::playing();
    let pin = judge(&ev, "Kim", "head");
    // A key made for a standby that never started: plain `serve` writes.
    let _unused = key(&ev);
    let server = Server::start(&ev);
    let token = server.login("Kim", &pin);
    let a = server.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "no standby ever" }));
    assert_eq!(a.status, 200, "{}", a.body);
    drop(server);
    // A standby follows and acknowledges; both laptops die.
    let key = key(&ev);
    let primary = Server::start(&ev);
    let b = ev.path("standby.db");
    let second = standby(&ev, &primary, &key, &b);
    caught_up(&ev.db(), &b);
    advertised(&primary);
    signal(primary.pid(), "-9");
    drop(second);
    drop(primary);
    // Restarted with plain `serve`: it says so, and refuses writes while nobody answers.
    let log = ev.path("restart.log");
    let old = start_logged(&ev, &[], &[("MMJUDGE_STANDBY_WAIT_MS", "300")], &log);
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    let line: Vec<&str> = said.lines().filter(|l| l.contains("mmjudge standby detach")).collect();
    assert_eq!(line.len(), 1, "one line: {said}");
    let token = old.login("Kim", &pin);
    let a = old.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "after the crash" }));
    assert_eq!(a.status, 503, "{}", a.body);
    assert!(a.json()["error"].as_str().is_some_and(|e| e.contains("does not answer")), "{}", a.body);
    assert_eq!(a.header("retry-after"), Some("2"));
    let status = old.get("/api/standby/status").json();
    assert_eq!(status["standby_required"], true, "{status}");
    drop(old);
    assert_eq!(ev.run(&["rulings", "--json"]).stdout.matches("after the crash").count(), 0, "nothing recorded");
    // Detached: writes go on alone.
    ev.run(&["standby", "detach"]).ok();
    let server = Server::start(&ev);
    let token = server.login("Kim", &pin);
    let a = server.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "alone now" }));
    assert_eq!(a.status, 200, "{}", a.body);
}

/// The gate fails closed: a primary with `--standby-required` that cannot read the replication state refuses the
/// write (503), never takes it unwaited; without the flag, the write's own failure is a 500 with its cause on the
/// terminal, never a refusal.
#[test]
fn the_gate_fails_closed_and_a_store_failure_is_a_500_with_its_cause_logged() {
    let ev = Event::playing();
    let pin = judge(&ev, "Kim", "head");
    let log = ev.path("required.log");
    let server = start_logged(&ev, &["--standby-required"], &[], &log);
    let token = server.login("Kim", &pin);
    let conn = rusqlite::Connection::open(ev.db()).expect("open");
    // The server may hold the file a moment (its first reads): wait for it as the server's own connections do.
    conn.busy_timeout(std::time::Duration::from_secs(5)).expect("a busy timeout");
    conn.execute_batch("ALTER TABLE replication RENAME TO replication_gone").expect("hide the state");
    let a = server.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "unreadable" }));
    assert_eq!(a.status, 503, "{}", a.body);
    assert!(a.json()["error"].as_str().is_some_and(|e| e.contains("cannot read")), "{}", a.body);
    conn.execute_batch("ALTER TABLE replication_gone RENAME TO replication").expect("the state back");
    drop(server);
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(said.contains("replication state could not be read"), "{said}");
    // A store failure (injected: a trigger that fails every new player) in a players import: 500, cause logged.
    let log = ev.path("plain.log");
    let server = start_logged(&ev, &[], &[], &log);
    let token = server.login("Kim", &pin);
    conn.execute_batch(
        "CREATE TRIGGER fail_players BEFORE INSERT ON player BEGIN SELECT RAISE(ABORT, 'the disk failed (injected)'); END",
    )
    .expect("the failure");
    let (state, status, _) = import_players(&server, &token, &["Zed"]);
    assert_eq!((state.as_str(), status), ("refused", 500), "a store failure is no refusal");
    assert_eq!(server.get("/api/standby/status").json()["background_failures"], 1, "counted");
    drop(server);
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(said.contains("the disk failed (injected)"), "the cause is logged: {said}");
    conn.execute_batch("DROP TRIGGER fail_players").expect("undo");
    assert_eq!(players_named(&ev.db(), "Zed"), 0);
}
