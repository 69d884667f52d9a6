//! The server's request log: one line per request on stderr (time, address, method, route pattern, status,
//! milliseconds, who asked), every 500 with its cause; `RUST_LOG` as usual; `serve --quiet` and
//! `demo --serve --quiet` leave out the request lines but not the failures, and still print the addresses.

use crate::harness::Event;
use crate::serve::{Server, codes, judge};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the server wrote on stderr so far, line by line.
#[derive(Clone, Default)]
struct Stderr(Arc<Mutex<Vec<String>>>);

impl Stderr {
    fn lines(&self) -> Vec<String> {
        self.0.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The lines that mention `needle`, once at least `count` of them are there (or the time is up).
    #[track_caller]
    fn wait_for(&self, needle: &str, count: usize) -> Vec<String> {
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            let found: Vec<String> = self.lines().into_iter().filter(|l| l.contains(needle)).collect();
            if found.len() >= count || Instant::now() > end {
                return found;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Runs `cmd` (a server) with stdout and stderr read apart; returns it once it printed its address, with its
/// stdout so far and its stderr as it comes.
fn spawn(mut cmd: Command) -> (Server, Vec<String>, Stderr) {
    cmd.env("NO_COLOR", "1").env_remove("MMJUDGE_NOW").stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start the server");
    let stderr = Stderr::default();
    let (err, into) = (child.stderr.take().expect("stderr"), stderr.clone());
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if let Ok(mut all) = into.0.lock() {
                all.push(line);
            }
        }
    });
    let (tx, rx) = std::sync::mpsc::channel();
    let out = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut printed = Vec::new();
    let addr = loop {
        let Ok(line) = rx.recv_timeout(Duration::from_secs(120)) else {
            let _ = child.kill();
            panic!("the server printed no address:\n{}", printed.join("\n"));
        };
        printed.push(line.clone());
        if let Some(at) = line.trim().strip_prefix("http://") {
            break at.trim_end_matches('/').to_string();
        }
    };
    // The QR code and the last line follow the address.
    let end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < end {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) => {
                let last = line.starts_with("Ctrl-C");
                printed.push(line);
                if last {
                    break;
                }
            }
            Err(_) => continue,
        }
    }
    (Server::attach(child, addr), printed, stderr)
}

fn serve(ev: &Event, options: &[&str], env: &[(&str, &str)]) -> (Server, Vec<String>, Stderr) {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("mmjudge"));
    cmd.current_dir(ev.dir.path())
        .env("MMJUDGE_DB", ev.db())
        .env("MMJUDGE_JUDGE", "Test Judge")
        .env_remove("RUST_LOG")
        .args(["serve", "--bind", "127.0.0.1:0"])
        .args(options)
        .envs(env.iter().copied());
    spawn(cmd)
}

/// Round 1 playing at tables 1 (Ana-Bo) and 2 (Cy-Di).
fn playing() -> Event {
    let ev = crate::cards::with_reference();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["round", "start"]).ok();
    ev
}

/// The fields of a log line: `name=value` (a quoted value unquoted).
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let at = line.find(&format!(" {name}="))? + name.len() + 2;
    let rest = &line[at..];
    match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next(),
        None => rest.split(' ').next(),
    }
}

#[test]
fn every_request_is_one_line_on_stderr_with_its_route_status_time_and_who_asked() {
    let ev = playing();
    let pin = judge(&ev, "Kim", "floor");
    let code = codes(&ev);
    let (server, printed, stderr) = serve(&ev, &[], &[]);
    assert!(printed.iter().any(|l| l.starts_with("mmjudge serves")), "{printed:?}");

    assert_eq!(server.get("/api/time").status, 200);
    let lines = stderr.wait_for("route=/api/time", 1);
    assert_eq!(lines.len(), 1, "one line for one request: {:?}", stderr.lines());
    let line = &lines[0];
    let time = line.split_whitespace().next().unwrap_or_default();
    assert!(time.len() >= 20 && time.as_bytes()[4] == b'-' && time.contains('T'), "the time first: {line}");
    assert!(line.contains(" INFO "), "{line}");
    assert_eq!(field(line, "addr"), Some("127.0.0.1"), "{line}");
    assert_eq!(field(line, "method"), Some("GET"), "{line}");
    assert_eq!(field(line, "status"), Some("200"), "{line}");
    assert!(field(line, "ms").is_some_and(|ms| ms.parse::<u64>().is_ok()), "{line}");
    assert_eq!(field(line, "who"), Some("nobody"), "{line}");

    // The route is the pattern, and a judge is named by their session.
    let token = server.login("Kim", &pin);
    assert_eq!(server.get_as("/judge/table/2", &token).status, 200);
    let line = stderr.wait_for("route=/judge/table/{n}", 1).concat();
    assert_eq!(field(&line, "who"), Some("Kim"), "{line}");
    assert!(!line.contains("/judge/table/2"), "the pattern, not the address: {line}");
    let login = stderr.wait_for("route=/api/login", 1).concat();
    assert_eq!(field(&login, "who"), Some("Kim"), "a login names who logged in: {login}");

    // A player is named by their code (never the code itself), a refusal logged with its status.
    let call = server.post_json("/api/call", None, &json!({ "table": 1, "code": code["Ana"] }));
    assert_eq!(call.status, 200, "{}", call.body);
    let line = stderr.wait_for("route=/api/call ", 1).concat();
    assert_eq!(field(&line, "who"), Some("Ana (player)"), "{line}");
    assert!(!line.contains(&code["Ana"]), "{line}");
    assert_eq!(server.post_json("/api/player/code", None, &json!({ "table": 2, "code": code["Di"] })).status, 200);
    let line = stderr.wait_for("route=/api/player/code ", 1).concat();
    assert_eq!(field(&line, "who"), Some("Di (player)"), "{line}");
    assert_eq!(server.post_json("/api/result", None, &json!({ "table": 1, "by": "life" })).status, 401);
    let line = stderr.wait_for("route=/api/result ", 1).concat();
    assert_eq!((field(&line, "status"), field(&line, "who")), (Some("401"), Some("nobody")), "{line}");
    assert_eq!(server.get("/no/such/page").status, 404);
    assert_eq!(stderr.wait_for("status=404", 1).len(), 1, "{:?}", stderr.lines());
}

#[test]
fn a_500_is_logged_with_its_cause_and_quiet_keeps_it_but_drops_the_request_lines() {
    for quiet in [false, true] {
        let ev = playing();
        let options: &[&str] = if quiet { &["--quiet"] } else { &[] };
        let (server, printed, stderr) = serve(&ev, options, &[]);
        assert!(printed.iter().any(|l| l.starts_with("  http://127.0.0.1:")), "the addresses still print: {printed:?}");
        assert!(printed.iter().any(|l| l.starts_with("Ctrl-C")), "{printed:?}");
        assert_eq!(server.get("/").status, 200);
        assert_eq!(server.get("/api/standings").status, 200);

        // The event file taken away under the server: the next request fails on the server's side.
        std::fs::rename(ev.db(), ev.path("elsewhere.db")).expect("move the event file");
        let failed = server.get("/api/time");
        assert_eq!(failed.status, 500, "{}", failed.body);
        let lines = stderr.wait_for("status=500", 1);
        assert_eq!(lines.len(), 1, "{:?}", stderr.lines());
        let line = &lines[0];
        assert!(line.contains(" ERROR ") && line.contains("route=/api/time"), "{line}");
        let cause = field(line, "cause").unwrap_or_default();
        assert!(cause.contains("no event here yet"), "the cause is written: {line}");

        let ok_lines = stderr.lines().into_iter().filter(|l| l.contains("status=200")).count();
        if quiet {
            assert_eq!(ok_lines, 0, "--quiet drops the request lines: {:?}", stderr.lines());
        } else {
            assert_eq!(ok_lines, 2, "{:?}", stderr.lines());
        }
    }
}

#[test]
fn rust_log_chooses_what_is_written_as_usual() {
    let ev = playing();
    let (server, _, stderr) = serve(&ev, &[], &[("RUST_LOG", "warn")]);
    assert_eq!(server.get("/api/time").status, 200);
    std::fs::rename(ev.db(), ev.path("elsewhere.db")).expect("move the event file");
    assert_eq!(server.get("/api/time").status, 500);
    assert_eq!(stderr.wait_for("status=500", 1).len(), 1, "{:?}", stderr.lines());
    assert!(!stderr.lines().iter().any(|l| l.contains("status=200")), "RUST_LOG=warn: {:?}", stderr.lines());

    let ev = playing();
    let (server, _, stderr) = serve(&ev, &["--quiet"], &[("RUST_LOG", "off")]);
    std::fs::rename(ev.db(), ev.path("elsewhere.db")).expect("move the event file");
    assert_eq!(server.get("/api/time").status, 500);
    std::thread::sleep(Duration::from_millis(300));
    assert!(stderr.lines().is_empty(), "RUST_LOG=off writes nothing: {:?}", stderr.lines());
}

#[test]
fn demo_serve_quiet_serves_without_request_lines() {
    let ev = Event::empty();
    let (db, out) = (ev.path("demo.db"), ev.path("demo-out"));
    let (db_s, out_s) = (db.to_string_lossy().to_string(), out.to_string_lossy().to_string());
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("mmjudge"));
    cmd.current_dir(ev.dir.path())
        .env("MMJUDGE_JUDGE", "Test Judge")
        .env_remove("MMJUDGE_DB")
        .env_remove("RUST_LOG")
        .args(["--db", &db_s, "demo", "--players", "4", "--rounds", "1", "--out", &out_s])
        .args(["--serve", "--bind", "127.0.0.1:0", "--quiet"]);
    let (server, printed, stderr) = spawn(cmd);
    assert!(printed.iter().any(|l| l.starts_with("mmjudge serves")), "{printed:?}");
    assert_eq!(server.get("/").status, 200);
    std::fs::rename(&db, ev.path("elsewhere.db")).expect("move the event file");
    assert_eq!(server.get("/api/time").status, 500);
    assert_eq!(stderr.wait_for("status=500", 1).len(), 1, "the failure is still written: {:?}", stderr.lines());
    assert!(!stderr.lines().iter().any(|l| l.contains("status=200")), "{:?}", stderr.lines());

    // --quiet is --serve's.
    let run = ev.run(&["--db", &db_s, "demo", "--quiet"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn a_request_takes_one_connection_even_for_a_judges_write_and_connections_are_kept_between_requests() {
    let ev = playing();
    let pin = judge(&ev, "Kim", "floor");
    let code = codes(&ev);
    let filter = "warn,mmjudge::request=info,mmjudge::web::kit::state=debug";
    let (server, _, stderr) = serve(&ev, &[], &[("RUST_LOG", filter)]);
    let token = server.login("Kim", &pin);
    stderr.wait_for("route=/api/login", 1);
    let taken = |kept: bool| {
        let word = format!("a connection to the event file taken for a request kept={kept}");
        stderr.lines().iter().filter(|l| l.contains(&word)).count()
    };
    let mut seen = taken(true) + taken(false);
    assert_eq!(seen, 1, "{:?}", stderr.lines());
    // A judge's write (the session read, then the write), a player's write, a refused page (then its error page).
    let result = json!({ "table": 2, "winner": "Cy", "by": "life", "life": [5, 0] });
    let call = json!({ "table": 1, "code": code["Ana"] });
    let requests: [(&str, &dyn Fn() -> u16); 3] = [
        ("route=/api/result ", &|| server.post_json("/api/result", Some(&token), &result).status),
        ("route=/api/call ", &|| server.post_json("/api/call", None, &call).status),
        ("route=/standings ", &|| server.get("/standings?round=x").status),
    ];
    for (route, send) in requests {
        let before = stderr.wait_for(route, 0).len();
        let status = send();
        assert_eq!(status, if route.contains("standings") { 400 } else { 200 }, "{route}");
        stderr.wait_for(route, before + 1);
        seen += 1;
        assert_eq!(taken(true) + taken(false), seen, "{route}: {:?}", stderr.lines());
    }
    // One after the other, the requests took the connection the login gave back: the file was opened once.
    assert_eq!(taken(false), 1, "{:?}", stderr.lines());
}

#[test]
fn the_laptops_routine_calls_stay_off_the_terminal_and_a_standby_without_its_primary_says_how_to_promote_its_file() {
    let ev = playing();
    let key = ev.run(&["--json", "standby", "key"]).json()["key"].as_str().expect("a key").to_string();
    let (primary, _, said) = serve(&ev, &[], &[]);
    let url = format!("http://{}", primary.addr);
    let (second, _, standby_said) = serve(&ev, &["--db", "standby.db", "--standby-of", &url, "--key", &key], &[]);
    assert_eq!(standby_said.wait_for("standby: up to date (change ", 1).len(), 1, "{:?}", standby_said.lines());
    // The standby acknowledges every second (the primary hears it), and none of it is a request line.
    let end = Instant::now() + Duration::from_secs(10);
    while ev.run(&["--json", "standby", "status"]).json()["last_heard"].is_null() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(2_500));
    assert!(!ev.run(&["--json", "standby", "status"]).json()["last_heard"].is_null());
    assert!(!said.lines().iter().any(|l| l.contains("route=/api/standby/ack")), "{:?}", said.lines());
    assert!(
        !standby_said.lines().iter().any(|l| l.contains("route=/api/standby/whoami")),
        "{:?}",
        standby_said.lines()
    );
    // The first laptop dies: the standby's terminal says what to do, with its own file as it was given.
    let killed = Command::new("kill").args(["-9", &primary.pid().to_string()]).status();
    assert!(killed.is_ok_and(|s| s.success()));
    let hint = "; if the first laptop is gone for good: mmjudge --db standby.db standby promote";
    assert_eq!(standby_said.wait_for(hint, 1).len(), 1, "{:?}", standby_said.lines());
    drop(second);
}
