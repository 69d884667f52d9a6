//! Issue 27: a hostile phone must not lock anyone out. Other phones are other loopback addresses (127.0.0.x,
//! Linux only: elsewhere these tests say they are skipped): wrong PINs and wrong codes from one address never
//! refuse another's right one, a storm of logins keeps the server's memory down, the live stream holds what the
//! open-file limit allows and answers the rest 503 while pages and writes still work, and bodies name only
//! their route's fields, each once.

use crate::harness::Event;
use crate::serve::{Server, codes, judge};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Whether other loopback addresses can stand for other phones here; prints why not.
pub(crate) fn other_addresses(test: &str) -> bool {
    if cfg!(target_os = "linux") {
        return true;
    }
    eprintln!("{test}: skipped (other loopback addresses 127.0.0.x stand for other phones on Linux only)");
    false
}

pub(crate) fn ip(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

/// An HTTP answer read by [`send`].
#[derive(Debug)]
pub(crate) struct Got {
    pub status: u16,
    pub head: String,
    pub body: String,
}

/// A blocking connection from `from` (a loopback address) to the server.
pub(crate) fn connect_from(rt: &tokio::runtime::Runtime, from: IpAddr, addr: &str) -> TcpStream {
    let to: SocketAddr = addr.parse().expect("the server's address");
    let socket = rt.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket.bind(SocketAddr::new(from, 0)).expect("bind to the phone's address");
        socket.connect(to).await.expect("connect")
    });
    let s = socket.into_std().expect("a std socket");
    s.set_nonblocking(false).expect("blocking");
    s.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    s
}

/// One request from `from` (a loopback address) to the server, `Connection: close`.
pub(crate) fn send(from: IpAddr, addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Got {
    let mut s = connect_from(&runtime(), from, addr);
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    s.write_all(req.as_bytes()).expect("send");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    Got { status, head: head.to_string(), body: body.to_string() }
}

pub(crate) fn post(from: IpAddr, addr: &str, path: &str, body: &serde_json::Value) -> Got {
    send(from, addr, "POST", path, &[("Content-Type", "application/json")], &body.to_string())
}

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

#[test]
fn one_phones_wrong_pins_never_refuse_another_phones_right_pin() {
    if !other_addresses("one_phones_wrong_pins_never_refuse_another_phones_right_pin") {
        return;
    }
    let ev = Event::new();
    let pin = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let login = |from, pin: &str| post(ip(from), &server.addr, "/api/login", &json!({ "name": "Kim", "pin": pin }));
    // The guessing phone: 12 wrong PINs; from the sixth on it is held back.
    for i in 0..12 {
        let got = login(2, "000000");
        if i < 5 {
            assert_eq!(got.status, 401, "{got:?}");
        } else {
            assert_eq!(got.status, 429, "{got:?}");
            assert!(got.head.to_ascii_lowercase().contains("retry-after:"), "{got:?}");
        }
        // Meanwhile the judge's own phone logs in every time.
        assert_eq!(login(3, &pin).status, 200, "the right PIN from another phone, after {} wrong", i + 1);
    }
    // The guessing phone stays limited, even with the right PIN.
    assert_eq!(login(2, &pin).status, 429);
    // A phone with a typo is limited only after its own five.
    assert_eq!(login(4, "111111").status, 401);
    assert_eq!(login(4, &pin).status, 200);
    // A new PIN starts every address's count afresh: the held-back phone (a venue's shared address) logs in with it.
    let new = ev.run(&["--json", "judge", "pin", "Kim"]).json()["pin"].as_str().expect("a PIN").to_string();
    assert_eq!(login(2, &new).status, 200, "the new PIN from the address held back for the old one");
}

#[test]
fn one_phones_wrong_codes_never_refuse_another_phones_right_code() {
    if !other_addresses("one_phones_wrong_codes_never_refuse_another_phones_right_code") {
        return;
    }
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let code = codes(&ev);
    let server = Server::start(&ev);
    let whose =
        |from, code: &str| post(ip(from), &server.addr, "/api/player/code", &json!({ "table": 1, "code": code }));
    for _ in 0..5 {
        assert_eq!(whose(2, "999999").status, 403);
    }
    assert_eq!(whose(2, "999998").status, 429, "the guessing phone is held back");
    assert_eq!(whose(2, &code["Ana"]).status, 429, "even with a right code");
    assert_eq!(whose(3, &code["Ana"]).status, 200, "another phone's right code works");
    assert_eq!(whose(3, &code["Bo"]).status, 200);
    // A right code clears that phone's count: four wrong, a right one, then four more are still only wrong.
    for _ in 0..4 {
        assert_eq!(whose(4, "999999").status, 403);
    }
    assert_eq!(whose(4, &code["Bo"]).status, 200);
    for _ in 0..4 {
        assert_eq!(whose(4, "999999").status, 403);
    }
}

/// The peak memory (VmHWM) of a process in MB, from /proc.
fn peak_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc status");
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmHWM");
    kb / 1000.0
}

#[test]
fn a_storm_of_200_logins_keeps_the_servers_peak_memory_under_150_mb() {
    if !other_addresses("a_storm_of_200_logins_keeps_the_servers_peak_memory_under_150_mb") {
        return;
    }
    let ev = Event::new();
    let pin = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let addr = server.addr.clone();
    // The judge's own phone logged in earlier: its device cookie.
    let first = post(ip(200), &server.addr, "/api/login", &json!({ "name": "Kim", "pin": pin }));
    let own = first.head.lines().find_map(|l| l.split_once("mmjudge_device=")).map(|(_, v)| v).unwrap_or_default();
    let own = format!("mmjudge_device={}", own.split(';').next().unwrap_or_default());
    // How many times the event file is open in the server at most while the storm lasts: a login waiting its turn
    // to check a PIN holds no connection (the storm once held one a login, 30 MB more at its peak).
    let (pid, db) = (server.pid(), ev.db());
    let storming = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let storming = storming.clone();
        std::thread::spawn(move || {
            let mut most = 0;
            while storming.load(std::sync::atomic::Ordering::Relaxed) {
                let held = std::fs::read_dir(format!("/proc/{pid}/fd"))
                    .map(|fds| {
                        fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok()).filter(|t| *t == db).count()
                    })
                    .unwrap_or(0);
                most = most.max(held);
                std::thread::sleep(Duration::from_millis(5));
            }
            most
        })
    };
    let threads: Vec<_> = (0..200u32)
        .map(|i| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let body = json!({ "name": "Kim", "pin": format!("{:06}", 100_000 + i) }).to_string();
                send(
                    ip(10 + (i % 40) as u8),
                    &addr,
                    "POST",
                    "/api/login",
                    &[("Content-Type", "application/json")],
                    &body,
                )
            })
        })
        .collect();
    let answers: Vec<Got> = threads.into_iter().map(|t| t.join().expect("a login")).collect();
    storming.store(false, std::sync::atomic::Ordering::Relaxed);
    let most = sampler.join().expect("the sampler");
    assert!(most <= 12, "the event file was open {most} times at once during the storm");
    let peak = peak_mb(server.pid());
    let count = |s: u16| answers.iter().filter(|a| a.status == s).count();
    eprintln!("storm: {} wrong, {} held back, {} busy; peak {peak:.0} MB", count(401), count(429), count(503));
    assert!(
        answers.iter().all(|a| [401, 429, 503].contains(&a.status)),
        "{:?}",
        answers.iter().find(|a| a.status == 0)
    );
    assert!(count(401) > 0);
    for busy in answers.iter().filter(|a| a.status == 503) {
        assert!(busy.head.to_ascii_lowercase().contains("retry-after: 2"), "{busy:?}");
        assert!(busy.body.contains("busy"), "{busy:?}");
    }
    assert!(peak < 150.0, "peak memory {peak:.0} MB during 200 logins");
    // The judge's own phone logs in right after, though the storm spent the judge's budget.
    let body = json!({ "name": "Kim", "pin": pin }).to_string();
    let headers = [("Content-Type", "application/json"), ("Cookie", own.as_str())];
    assert_eq!(send(ip(200), &server.addr, "POST", "/api/login", &headers, &body).status, 200);
}

/// Starts the server under `prlimit --nofile=SOFT:HARD`; the server and what it printed.
fn start_limited(ev: &Event, soft: u32, hard: u32) -> Option<(Server, Vec<String>)> {
    let prlimit = Command::new("prlimit").arg("--version").output();
    if !cfg!(target_os = "linux") || prlimit.is_err() {
        eprintln!("open-file limits: skipped (needs Linux and prlimit)");
        return None;
    }
    let mut child = Command::new("prlimit")
        .arg(format!("--nofile={soft}:{hard}"))
        .arg(assert_cmd::cargo::cargo_bin("mmjudge"))
        .args(["serve", "--bind", "127.0.0.1:0", "--quiet"])
        .current_dir(ev.dir.path())
        .env("MMJUDGE_DB", ev.db())
        .env("MMJUDGE_JUDGE", "Test Judge")
        .env("NO_COLOR", "1")
        .env_remove("MMJUDGE_NOW")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mmjudge serve under prlimit");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let mut printed = Vec::new();
    let mut addr = None;
    for line in lines.by_ref().take(12) {
        let line = line.expect("read the server's output");
        printed.push(line.clone());
        if let Some(at) = line.trim().strip_prefix("http://") {
            addr.get_or_insert_with(|| at.trim_end_matches('/').to_string());
        }
        if line.starts_with("live updates:") {
            break;
        }
    }
    std::thread::spawn(move || for _ in lines {});
    let addr = addr.expect("the server printed its address");
    Some((Server::attach(child, addr), printed))
}

/// Lets this test process open as many sockets as its hard limit allows.
pub(crate) fn raise_own_limit() {
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 && lim.rlim_cur < lim.rlim_max {
            lim.rlim_cur = lim.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
    }
}

/// Opens `n` live streams from several loopback addresses; the statuses, with the streams still open.
fn phones(addr: &str, n: usize) -> (Vec<u16>, Vec<TcpStream>) {
    let rt = runtime();
    let mut statuses = Vec::new();
    let mut open = Vec::new();
    for i in 0..n {
        let mut s = connect_from(&rt, ip(10 + (i % 50) as u8), addr);
        s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
        let req = format!("GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
        s.write_all(req.as_bytes()).expect("send");
        let mut buf = [0u8; 64];
        let status = match s.read(&mut buf) {
            Ok(k) if k > 12 => String::from_utf8_lossy(&buf[9..12]).parse().unwrap_or(0),
            _ => 0,
        };
        statuses.push(status);
        if status == 200 {
            open.push(s);
        }
    }
    (statuses, open)
}

#[test]
fn a_soft_limit_of_1024_open_files_under_a_higher_hard_one_holds_1500_phones() {
    raise_own_limit();
    let ev = Event::new();
    let Some((server, printed)) = start_limited(&ev, 1024, 4096) else { return };
    let said = printed.iter().find(|l| l.starts_with("live updates:")).expect("how many phones it holds");
    assert!(said.contains("up to 3968 phones") && said.contains("open files: 4096"), "{said}");
    let (statuses, open) = phones(&server.addr, 1500);
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1500, "every phone on the live stream");
    assert_eq!(server.get("/").status, 200, "a page still loads");
    drop(open);
}

/// A phone on `/events` keeps no connection to the event file: its first read opens one and closes it on the
/// blocking thread. When a stream kept the request's store until its task was next polled, 500 phones connecting
/// at once had over a hundred connections open together (each with its page cache: 77 KB a phone), and SQLite
/// kept their files open after (it cannot close one while another connection holds a lock on the file).
#[cfg(target_os = "linux")]
#[test]
fn phones_on_the_live_stream_hold_no_connection_to_the_event_file() {
    raise_own_limit();
    let ev = Event::new();
    // One address here stands for the whole hall.
    let server = Server::start_with(&ev, &["--streams-per-address", "400"], &[]);
    // All at once, as a hall does when the Wi-Fi comes back: every request sent before any answer is read.
    let req = format!("GET /events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n", server.addr);
    let mut open: Vec<TcpStream> = (0..400).map(|_| TcpStream::connect(&server.addr).expect("connect")).collect();
    for s in &mut open {
        s.write_all(req.as_bytes()).expect("send");
    }
    for s in &mut open {
        s.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
        let mut buf = [0u8; 12];
        s.read_exact(&mut buf).expect("an answer");
        assert_eq!(&buf[9..12], b"200", "every phone on the live stream");
    }
    std::thread::sleep(Duration::from_millis(300));
    let db = ev.db();
    let held = std::fs::read_dir(format!("/proc/{}/fd", server.pid()))
        .expect("the server's open files")
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter(|target| *target == db)
        .count();
    assert!(held <= 12, "{held} files open on the event file with 400 phones listening");
    drop(open);
}

#[test]
fn phones_beyond_the_hard_limit_get_a_quick_503_while_pages_and_writes_still_work() {
    raise_own_limit();
    let ev = Event::new();
    let pin = judge(&ev, "Kim", "head");
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let Some((server, printed)) = start_limited(&ev, 1024, 1024) else { return };
    let said = printed.iter().find(|l| l.starts_with("live updates:")).expect("how many phones it holds");
    assert!(said.contains("up to 896 phones"), "{said}");
    let (statuses, open) = phones(&server.addr, 1000);
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 896, "{:?}", &statuses[890..]);
    assert_eq!(statuses.iter().filter(|s| **s == 503).count(), 104);
    assert_eq!(server.get("/pairings").status, 200, "a page still loads");
    let token = server.login("Kim", &pin);
    let ruling = server.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "Play on." }));
    assert_eq!(ruling.status, 200, "a write still works: {}", ruling.body);
    drop(open);
}

#[test]
fn bodies_name_only_their_routes_fields_each_once() {
    let ev = Event::new();
    let pin = judge(&ev, "Kim", "head");
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    ev.run(&["round", "start"]).ok();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let token = server.login("Kim", &pin);
    let before = ev.dump();
    // A player's write has no "player".
    let as_other = json!({ "table": 1, "code": code["Ana"], "player": "Bo" });
    let refused = server.post_json("/api/clock/start", None, &as_other).error(400);
    assert!(refused.contains("\"player\" is not one this request takes"), "{refused}");
    let twice = r#"{"table":1,"table":2,"code":"123456"}"#;
    let json_type = ("Content-Type", "application/json");
    let a = server.request("POST", "/api/clock/start", &[json_type], twice);
    assert!(a.error(400).contains("\"table\" is given twice"), "{a:?}");
    // A judge's JSON and form.
    let bearer = format!("Bearer {token}");
    let auth = ("Authorization", bearer.as_str());
    let a = server.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "Play on.", "winner": "Bo" }));
    assert!(a.error(400).contains("\"winner\""), "{a:?}");
    // A route whose own fields take `at` names it once among what it takes.
    let a = server.post_json("/api/note", Some(&token), &json!({ "table": 1, "text": "x" }));
    let words = a.error(400);
    assert_eq!(words.matches(" at").count(), 1, "{words}");
    let a = server.request("POST", "/api/ruling", &[json_type, auth], r#"{"table":1,"text":"a","text":"b"}"#);
    assert!(a.error(400).contains("\"text\" is given twice"), "{a:?}");
    let form = ("Content-Type", "application/x-www-form-urlencoded");
    let a = server.request("POST", "/api/ruling", &[form, auth], "table=1&text=a&colour=red");
    assert!(a.status == 303 || a.status == 400, "{a:?}");
    assert!(a.body.contains("colour"), "{a:?}");
    let a = server.request("POST", "/api/ruling", &[form, auth], "table=1&table=2&text=a");
    assert!(a.body.contains("given twice"), "{a:?}");
    // Bidi overrides in free text.
    let a = server.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "Play \u{202e}on" }));
    assert!(a.error(400).contains("U+202E"), "{a:?}");
    assert_eq!(before, ev.dump(), "nothing refused was recorded");
    // A form may carry its CSRF token, its page and a key.
    let ok = "table=1&text=Play+on.&csrf=x&back=%2Fjudge&idempotency_key=k1";
    let a = server.request("POST", "/api/ruling", &[form, auth], ok);
    assert_eq!(a.status, 303, "{a:?}");
}
