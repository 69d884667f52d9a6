//! Issue 34: the bounds on guessing hold against a phone with many addresses (127.0.x.y loopback addresses stand
//! for them, Linux only: elsewhere these tests say they are skipped). Every judge's PIN and every player's code
//! has a budget of wrong tries over all addresses together; a device that succeeded for it before still gets in.
//! Issue 44: every answer within its time, its drawing included: a print past the request limit is answered 503
//! and stops being drawn, and large prints are drawn off the threads that answer the other phones, and a storm
//! of wrong standby keys takes no more of the event file's connections than its turns allow.

use crate::harness::Event;
use crate::serve::{Server, codes, judge};
use crate::serve_hostile::{Got, connect_from, other_addresses, post, raise_own_limit, runtime, send};
use serde_json::json;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::process::Stdio;
use std::time::Duration;

/// The `n`th phone's own address (127.0.1.1, 127.0.1.2, ...): 250 of them and more.
fn phone(n: u32) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 1 + (n / 250) as u8, 1 + (n % 250) as u8))
}

/// The device cookie an answer set (`mmjudge_device=...`).
pub(crate) fn device_cookie(got: &Got) -> String {
    got.head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .find_map(|(_, v)| v.trim().split(';').next().filter(|c| c.starts_with("mmjudge_device=")))
        .unwrap_or_else(|| panic!("a device cookie: {got:?}"))
        .to_string()
}

pub(crate) fn post_from(from: IpAddr, addr: &str, path: &str, cookie: Option<&str>, body: &serde_json::Value) -> Got {
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(c) = cookie {
        headers.push(("Cookie", c));
    }
    send(from, addr, "POST", path, &headers, &body.to_string())
}

fn count(answers: &[Got], status: u16) -> usize {
    answers.iter().filter(|a| a.status == status).count()
}

/// The wrong tries the file holds for a target (`judge 1`, `player 2`).
pub(crate) fn spent(ev: &Event, target: &str) -> f64 {
    let conn = rusqlite::Connection::open(ev.db()).expect("open db");
    conn.query_row("SELECT level FROM guess_budget WHERE target = ?1", [target], |r| r.get(0)).unwrap_or(0.0)
}

#[test]
fn two_hundred_and_fifty_addresses_guessing_a_pin_stay_within_its_budget_while_the_judges_phone_gets_in() {
    if !other_addresses("two_hundred_and_fifty_addresses_guessing_a_pin_stay_within_its_budget") {
        return;
    }
    let ev = Event::new();
    let pin = judge(&ev, "Kim", "head");
    // The servers' clock stands still: a budget drains one try every 7.2 s, which a slow machine's run would
    // otherwise see (a try freed before the restart's check).
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let clock = [("MMJUDGE_NOW", now.as_str())];
    let mut server = Server::start_with(&ev, &[], &clock);
    let login = |s: &Server, from, cookie: Option<&str>, pin: &str| {
        post_from(from, &s.addr, "/api/login", cookie, &json!({ "name": "Kim", "pin": pin }))
    };
    // The judge's own phone logged in earlier in the day.
    let first = login(&server, phone(1000), None, &pin);
    assert_eq!(first.status, 200, "{first:?}");
    let own = device_cookie(&first);
    // 250 addresses, two wrong PINs each.
    let mut answers = Vec::new();
    for n in 0..250 {
        for k in 0..2 {
            answers.push(login(&server, phone(n), None, &format!("{:06}", 100_000 + 2 * n + k)));
        }
    }
    let (wrong, held) = (count(&answers, 401), count(&answers, 429));
    eprintln!("250 addresses: {wrong} wrong PINs checked, {held} held back");
    assert_eq!(wrong + held, 500, "{:?}", answers.iter().find(|a| ![401, 429].contains(&a.status)));
    // 100 at once (the clock stands still: none drains while the test runs).
    assert_eq!(wrong, 100, "PINs checked for one judge");
    let held_back = answers.iter().find(|a| a.status == 429).expect("held back");
    assert!(held_back.head.to_ascii_lowercase().contains("retry-after:"), "{held_back:?}");
    assert!(spent(&ev, "judge 1") >= 99.0, "the count is in the file");
    // The right PIN from a phone that never logged in waits too; the judge's own phone gets in.
    assert_eq!(login(&server, phone(300), None, &pin).status, 429);
    assert_eq!(login(&server, phone(1000), Some(&own), &pin).status, 200, "the judge's own phone");
    assert_eq!(login(&server, phone(301), Some(&own), &pin).status, 200, "on another address too");
    // A restart does not empty the count.
    drop(server);
    server = Server::start_with(&ev, &[], &clock);
    assert_eq!(login(&server, phone(302), None, &pin).status, 429, "after a restart");
    assert_eq!(login(&server, phone(1000), Some(&own), &pin).status, 200);
    // A new PIN starts afresh.
    drop(server);
    let new_pin = ev.run(&["--json", "judge", "pin", "Kim"]).json()["pin"].as_str().expect("a PIN").to_string();
    server = Server::start_with(&ev, &[], &clock);
    assert_eq!(login(&server, phone(303), None, &new_pin).status, 200, "a new PIN, a new budget");
}

#[test]
fn two_hundred_and_fifty_addresses_guessing_a_tables_codes_stay_within_its_budget_while_the_tables_device_gets_in() {
    if !other_addresses("two_hundred_and_fifty_addresses_guessing_a_tables_codes_stay_within_its_budget") {
        return;
    }
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let code = codes(&ev);
    // The server's clock stands still (see the PIN's test above).
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let server = Server::start_with(&ev, &[], &[("MMJUDGE_NOW", now.as_str())]);
    let whose = |from, cookie: Option<&str>, code: &str| {
        post_from(from, &server.addr, "/api/player/code", cookie, &json!({ "table": 1, "code": code }))
    };
    // The table's device signs both players in.
    let first = whose(phone(1000), None, &code["Ana"]);
    assert_eq!(first.status, 200, "{first:?}");
    let device = device_cookie(&first);
    assert_eq!(whose(phone(1000), Some(&device), &code["Bo"]).status, 200);
    let wrong_code = |n: u32| {
        let c = format!("{:06}", 100_000 + n);
        if c == code["Ana"] || c == code["Bo"] { "000000".to_string() } else { c }
    };
    let mut answers = Vec::new();
    for n in 0..250 {
        for k in 0..2 {
            answers.push(whose(phone(n), None, &wrong_code(2 * n + k)));
        }
    }
    let (wrong, held) = (count(&answers, 403), count(&answers, 429));
    eprintln!("250 addresses: {wrong} wrong codes checked at table 1, {held} held back");
    assert_eq!(wrong + held, 500);
    assert_eq!(wrong, 100, "codes checked at one table");
    assert!(spent(&ev, "player 1") >= 99.0 && spent(&ev, "player 2") >= 99.0, "both players' counts");
    assert_eq!(whose(phone(300), None, &code["Ana"]).status, 429, "a right code from an unknown device waits");
    assert_eq!(whose(phone(1000), Some(&device), &code["Ana"]).status, 200, "the table's device gets in");
    assert_eq!(whose(phone(1000), Some(&device), &code["Bo"]).status, 200);
    // A player's write from the table's device still goes through.
    let start =
        post_from(phone(1000), &server.addr, "/api/call", Some(&device), &json!({ "table": 1, "code": code["Bo"] }));
    assert_eq!(start.status, 200, "{start:?}");
}

#[test]
fn check_in_counts_wrong_codes_by_the_player_the_name_finds_whatever_its_spelling() {
    if !other_addresses("check_in_counts_wrong_codes_by_the_player_the_name_finds") {
        return;
    }
    let ev = Event::new();
    ev.run(&["player", "add", "Zoë Lambert", "Zed Lamb", "Ana"]).ok();
    ev.run(&["event", "set", "check-in", "on"]).ok();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let check_in = |from, name: &str, code: &str| {
        post(from, &server.addr, "/api/check-in", &json!({ "name": name, "code": code }))
    };
    let wrong = if code["Zoë Lambert"] == "999999" { "999998" } else { "999999" };
    // Six spellings of one name from one address: five wrong codes in all, then held back.
    let spellings = ["Zoë Lambert", "zoe", "lambert", "ZOË", "zoe lambert", "Lambert"];
    let answers: Vec<Got> = spellings.iter().map(|s| check_in(phone(1), s, wrong)).collect();
    let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
    assert_eq!(statuses, [403, 403, 403, 403, 403, 429], "{answers:?}");
    assert_eq!(check_in(phone(1), "Zoë", &code["Zoë Lambert"]).status, 429, "held back, even with the right code");
    // A name that finds nobody, or several players, answers as a wrong code, counted per address.
    let nobody = check_in(phone(2), "Nobody Here", wrong);
    let several = check_in(phone(2), "la", wrong);
    let wrong_one = check_in(phone(3), "Ana", wrong);
    assert_eq!((nobody.status, several.status, wrong_one.status), (403, 403, 403));
    assert_eq!(nobody.body, wrong_one.body, "names cannot be probed");
    assert_eq!(several.body, wrong_one.body);
    // Another phone checks Zoë in.
    assert_eq!(check_in(phone(4), "zoe", &code["Zoë Lambert"]).status, 200);
}

/// Opens a live stream from `from`: its status, and the stream while it is open.
fn stream(rt: &tokio::runtime::Runtime, from: IpAddr, addr: &str) -> (u16, Option<TcpStream>) {
    let mut s = connect_from(rt, from, addr);
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    let req = format!("GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    s.write_all(req.as_bytes()).expect("send");
    let mut buf = [0u8; 12];
    let status = match s.read_exact(&mut buf) {
        Ok(()) => String::from_utf8_lossy(&buf[9..12]).parse().unwrap_or(0),
        Err(_) => 0,
    };
    (status, (status == 200).then_some(s))
}

#[test]
fn a_thousand_streams_from_one_address_leave_the_other_phones_their_page_and_stream() {
    if !other_addresses("a_thousand_streams_from_one_address_leave_the_other_phones_their_page_and_stream") {
        return;
    }
    raise_own_limit();
    let ev = Event::new();
    let server = Server::start(&ev);
    let rt = runtime();
    let mut open = Vec::new();
    let mut statuses = Vec::new();
    for _ in 0..1000 {
        let (status, s) = stream(&rt, phone(1), &server.addr);
        statuses.push(status);
        open.extend(s);
    }
    let count = |want: u16| statuses.iter().filter(|s| **s == want).count();
    assert_eq!((count(200), count(503)), (64, 936), "one address holds 64 streams (serve --streams-per-address)");
    // Another phone opens its page and its stream.
    let page = send(phone(2), &server.addr, "GET", "/", &[], "");
    assert_eq!(page.status, 200);
    let (status, other) = stream(&rt, phone(2), &server.addr);
    assert_eq!(status, 200, "another address's stream");
    drop(open);
    drop(other);
}

#[test]
fn a_storm_of_503s_is_one_summary_line_a_second_on_the_terminal_even_when_quiet() {
    if !other_addresses("a_storm_of_503s_is_one_summary_line_a_second_on_the_terminal_even_when_quiet") {
        return;
    }
    use std::io::BufRead;
    let ev = Event::new();
    let log = ev.dir.path().join("server.log");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mmjudge"))
        .args(["serve", "--bind", "127.0.0.1:0", "--quiet", "--streams-per-address", "1"])
        .current_dir(ev.dir.path())
        .env("MMJUDGE_DB", ev.db())
        .env("NO_COLOR", "1")
        .env_remove("MMJUDGE_NOW")
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(&log).expect("a log file"))
        .spawn()
        .expect("start mmjudge serve");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = std::io::BufReader::new(stdout).lines();
    let addr = lines
        .by_ref()
        .take(10)
        .map_while(Result::ok)
        .find_map(|l| l.trim().strip_prefix("http://").map(|a| a.trim_end_matches('/').to_string()))
        .expect("the server's address");
    std::thread::spawn(move || for _ in lines {});
    let server = Server::attach(child, addr);
    let rt = runtime();
    let (first, held) = stream(&rt, phone(1), &server.addr);
    assert_eq!(first, 200);
    let started = std::time::Instant::now();
    let busy = (0..200).filter(|_| stream(&rt, phone(1), &server.addr).0 == 503).count();
    assert_eq!(busy, 200);
    let seconds = started.elapsed().as_secs() + 1;
    std::thread::sleep(Duration::from_millis(1500));
    let written = std::fs::read_to_string(&log).expect("the log");
    let lines: Vec<&str> = written.lines().filter(|l| l.contains("503")).collect();
    assert!(!lines.is_empty() && lines.len() as u64 <= seconds + 1, "{written}");
    assert!(lines.iter().all(|l| l.contains("WARN") && l.contains("busy in the last second")), "{written}");
    assert!(!written.contains("ERROR"), "{written}");
    drop(held);
}

#[test]
fn two_thousand_self_reports_from_one_code_with_new_keys_are_paced_and_write_once() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    ev.run(&["round", "start"]).ok();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let audits = || {
        let conn = rusqlite::Connection::open(ev.db()).expect("open db");
        conn.query_row("SELECT count(*) FROM audit", [], |r| r.get::<_, i64>(0)).expect("audit count")
    };
    let before = audits();
    let body = json!({ "table": 1, "code": code["Ana"], "winner": "Ana", "by": "concession" }).to_string();
    let started = std::time::Instant::now();
    let mut statuses = std::collections::BTreeMap::new();
    let mut paced = None;
    for i in 0..2000 {
        let key = format!("k{i}");
        let headers = [("Content-Type", "application/json"), ("Idempotency-Key", key.as_str())];
        let a = server.request("POST", "/api/self-report", &headers, &body);
        *statuses.entry(a.status).or_insert(0) += 1;
        if a.status == 429 && paced.is_none() {
            paced = Some(a);
        }
    }
    let seconds = started.elapsed().as_secs() as usize + 1;
    eprintln!("2,000 self-reports in {seconds} s: {statuses:?}");
    let ok = statuses.get(&200).copied().unwrap_or(0);
    assert!((60..=61 + seconds).contains(&ok), "a burst of 60, then one a second: {statuses:?}");
    assert_eq!(ok + statuses.get(&429).copied().unwrap_or(0), 2000, "{statuses:?}");
    let paced = paced.expect("paced");
    assert!(paced.header("retry-after").is_some(), "{paced:?}");
    assert!(paced.body.contains("too many writes at once"), "{}", paced.body);
    assert_eq!(audits() - before, 1, "the same report again writes nothing");
    // Another table's players, and judges, are not paced by it.
    let pin = judge(&ev, "Kim", "head");
    let token = server.login("Kim", &pin);
    let ruling = server.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "Play on." }));
    assert_eq!(ruling.status, 200, "{}", ruling.body);
}

#[test]
fn free_text_refuses_invisible_and_direction_characters_in_the_webs_words() {
    let ev = Event::new();
    let pin = judge(&ev, "Kim", "head");
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    ev.run(&["round", "start"]).ok();
    let server = Server::start(&ev);
    let token = server.login("Kim", &pin);
    let before = ev.dump();
    let classes = [
        ('\u{7}', "U+0007"),
        ('\u{7f}', "DEL"),
        ('\u{85}', "U+0085"),
        ('\u{202e}', "U+202E"),
        ('\u{2067}', "U+2067"),
        ('\u{200e}', "U+200E"),
        ('\u{200f}', "U+200F"),
        ('\u{61c}', "U+061C"),
        ('\u{2028}', "U+2028"),
        ('\u{2029}', "U+2029"),
        ('\u{200b}', "U+200B"),
        ('\u{2060}', "U+2060"),
        ('\u{feff}', "U+FEFF"),
    ];
    for (c, named) in classes {
        let text = format!("deck{c}check");
        let ruling = server.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": text }));
        let extend =
            server.post_json("/api/extend", Some(&token), &json!({ "table": 1, "minutes": 2, "reason": text }));
        for a in [&ruling, &extend] {
            let said = a.error(400);
            assert!(said.contains(named), "{named}: {said}");
            assert!(!said.contains("--") && !said.contains('`'), "the web's words: {said}");
        }
        let cli = ev.run(&["round", "extend", "1", "2", "--reason", &text]).refused().to_string();
        assert!(cli.contains(named), "{named}: {cli}");
    }
    assert_eq!(before, ev.dump(), "nothing refused was recorded");
    // The joiners some scripts need stay.
    let kept = server.post_json("/api/ruling", Some(&token), &json!({ "table": 1, "text": "क्\u{200d}ष and \u{200c}" }));
    assert_eq!(kept.status, 200, "{}", kept.body);
}

#[test]
fn one_address_holds_at_most_three_connections_a_stream_and_the_others_still_get_their_page() {
    if !other_addresses("one_address_holds_at_most_three_connections_a_stream") {
        return;
    }
    raise_own_limit();
    let ev = Event::new();
    let server = Server::start(&ev);
    let rt = runtime();
    // 200 idle connections from one address (the default 64 streams an address: 192 connections).
    let mut open: Vec<TcpStream> = (0..200).map(|_| connect_from(&rt, phone(1), &server.addr)).collect();
    // Looked at within the header timeout (5 s), after which idle connections are closed anyway.
    std::thread::sleep(Duration::from_millis(300));
    let mut closed = 0;
    for s in &mut open {
        s.set_nonblocking(true).expect("nonblocking");
        let mut buf = [0u8; 1];
        if matches!(s.read(&mut buf), Ok(0)) {
            closed += 1;
        }
    }
    assert_eq!(closed, 8, "the connections beyond 192 are closed at once");
    // Another phone's page is answered meanwhile; once the idle ones go, the first address's too.
    assert_eq!(send(phone(2), &server.addr, "GET", "/", &[], "").status, 200);
    drop(open);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(send(phone(1), &server.addr, "GET", "/", &[], "").status, 200);
}

/// The CPU time a process has used, in clock ticks (its `utime` and `stime` in `/proc/PID/stat`).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the server's /proc stat");
    // After the command's name (in parentheses): the state is field 3, utime field 14 and stime field 15.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok()).expect("a number in /proc stat");
    field(14) + field(15)
}

/// `n` players named `Player 1`... added with one import.
fn import_players(ev: &Event, n: usize) {
    let names: String = (1..=n).map(|i| format!("Player {i}\n")).collect();
    let file = ev.file("players.csv", &format!("name\n{names}"));
    ev.run(&["player", "import", &file.to_string_lossy()]).ok();
}

/// The answers of `paths` asked at once, each with `headers`.
fn at_once(server: &Server, paths: &[String], headers: &[(&str, &str)]) -> Vec<crate::serve::Answer> {
    std::thread::scope(|s| {
        let asked: Vec<_> = paths.iter().map(|p| s.spawn(move || server.request("GET", p, headers, ""))).collect();
        asked.into_iter().map(|a| a.join().expect("a request's thread")).collect()
    })
}

#[test]
fn a_print_past_the_request_limit_is_answered_503_and_its_drawing_stops_there() {
    if !cfg!(target_os = "linux") {
        eprintln!("a_print_past_the_request_limit_is_answered_503: skipped (reads the server's CPU time in /proc)");
        return;
    }
    // 4,000 players: the codes print in 8 parts of 500 slips, each some hundreds of ms of QR codes and page.
    let ev = Event::new();
    import_players(&ev, 4000);
    let pin = judge(&ev, "Kim", "head");
    let parts: Vec<String> = (1..=8).map(|n| format!("/judge/print/codes?part={n}")).collect();
    // The eight parts drawn whole at once, with the usual limit: the CPU they take. (The login, whose PIN hash
    // may take longer than the short limit below in a test build, is kept in the file for the next server.)
    let (token, whole) = {
        let server = Server::start(&ev);
        let token = server.login("Kim", &pin);
        let before = cpu_ticks(server.pid());
        let drawn = at_once(&server, &parts, &[("Authorization", &format!("Bearer {token}"))]);
        assert!(drawn.iter().all(|a| a.status == 200), "{:?}", drawn.iter().map(|a| a.status).collect::<Vec<_>>());
        (token, cpu_ticks(server.pid()) - before)
    };
    // The same parts on a server whose requests may take 150 ms.
    let log = ev.dir.path().join("server.log");
    let stderr = Stdio::from(std::fs::File::create(&log).expect("the log file"));
    let server = Server::start_to(&ev, &[], &[("MMJUDGE_REQUEST_TIMEOUT_MS", "150"), ("RUST_LOG", "warn")], stderr);
    let before = cpu_ticks(server.pid());
    let started = std::time::Instant::now();
    let late = at_once(&server, &parts, &[("Authorization", &format!("Bearer {token}"))]);
    let took = started.elapsed();
    for a in &late {
        assert_eq!(a.status, 503, "{}", a.body);
        assert_eq!(a.json()["error"], "the server took too long on this request: try again");
    }
    assert!(took < Duration::from_secs(2), "answered at the limit, not when drawn: {took:?}");
    // Another request is answered at once: the threads that drew are free again.
    let time = server.get("/api/time");
    assert_eq!(time.status, 200, "{}", time.body);
    // The drawings stopped at their deadline: the server spent a fraction of what drawing them whole takes.
    std::thread::sleep(Duration::from_secs(1));
    let spent = cpu_ticks(server.pid()) - before;
    eprintln!("the codes print's 8 parts: {whole} ticks of CPU drawn whole, {spent} stopped at 150 ms");
    assert!(spent * 2 < whole, "the drawings went on after their 503: {spent} ticks, {whole} drawn whole");
    let written = std::fs::read_to_string(&log).expect("the log");
    assert!(written.contains("a drawing stopped at its request's deadline"), "the stop is said: {written}");
    // The 503s' cause: the time limit's layer or the drawing itself, whichever saw the deadline first.
    let said = ["the request took longer than 150 ms", "the drawing passed the request's deadline and stopped"];
    assert!(said.iter().any(|cause| written.contains(cause)), "{written}");
}

#[test]
fn while_two_large_prints_are_drawn_a_page_and_a_judges_write_are_answered_at_once() {
    // 12,000 players at 6,000 tables: the pairings print is about 3.5 MB, and brotli'd in a test build it takes
    // seconds. Before, a print was drawn and compressed on the server's two async threads: with two at once a
    // page waited 2.8 s of their 5 s.
    let ev = Event::new();
    import_players(&ev, 12_000);
    ev.fake_libraries(6000);
    ev.run(&["round", "pair"]).ok();
    ev.run(&["round", "start"]).ok();
    let pin = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let token = server.login("Kim", &pin);
    let bearer = format!("Bearer {token}");
    let headers = [("Authorization", bearer.as_str()), ("Accept-Encoding", "br, gzip")];
    let drawing = std::sync::atomic::AtomicUsize::new(2);
    let busy = || drawing.load(std::sync::atomic::Ordering::SeqCst) > 0;
    // Until both prints are in: a page, and apart a judge's write, every 100 ms, each timed.
    let sampled = |ask: &dyn Fn() -> u16| {
        let mut answers = Vec::new();
        while busy() {
            let asked = std::time::Instant::now();
            answers.push((ask(), asked.elapsed()));
            std::thread::sleep(Duration::from_millis(100));
        }
        answers
    };
    let (prints, pages, writes) = std::thread::scope(|s| {
        let prints: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let asked = std::time::Instant::now();
                    let a = server.request("GET", "/judge/print/pairings", &headers, "");
                    drawing.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                    (a, asked.elapsed())
                })
            })
            .collect();
        let pages = s.spawn(|| sampled(&|| server.request("GET", "/", &[("Accept-Encoding", "br, gzip")], "").status));
        let ruling = json!({ "table": 1, "text": "Play on." });
        let writes = sampled(&|| server.post_json("/api/ruling", Some(&token), &ruling).status);
        let pages = pages.join().expect("the pages' thread");
        (prints.into_iter().map(|p| p.join().expect("a print's thread")).collect::<Vec<_>>(), pages, writes)
    });
    for (p, _) in &prints {
        assert_eq!((p.status, p.header("content-encoding")), (200, Some("br")), "{}", p.body.len());
    }
    let drawn_in = prints.iter().map(|p| p.1).min().unwrap_or_default();
    let slowest = |answers: &[(u16, Duration)]| answers.iter().map(|a| a.1).max().unwrap_or_default();
    eprintln!(
        "while two pairings prints were drawn ({drawn_in:?}): {} pages (slowest {:?}), {} writes (slowest {:?})",
        pages.len(),
        slowest(&pages),
        writes.len(),
        slowest(&writes)
    );
    assert!(pages.len() >= 3 && writes.len() >= 3, "the prints took long enough to be sampled: {pages:?}");
    assert!(pages.iter().chain(&writes).all(|a| a.0 == 200), "{pages:?} {writes:?}");
    // Measured against the prints' own time (a machine twice as fast draws both twice as fast).
    assert!(slowest(&pages) * 3 < drawn_in, "a page waited for the prints: {pages:?}");
    assert!(slowest(&writes) * 3 < drawn_in, "a write waited for the prints: {writes:?}");
}

/// The server's open descriptors on the event file: one a connection to it.
fn connections_to(pid: u32, file: &std::path::Path) -> usize {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return 0 };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok()).filter(|target| target == file).count()
}

#[test]
fn a_storm_of_wrong_standby_keys_waits_its_turns_and_opens_no_connection_for_each_key() {
    if !other_addresses("a_storm_of_wrong_standby_keys") {
        return;
    }
    let ev = Event::new();
    ev.run(&["standby", "key"]).ok();
    let server = Server::start(&ev);
    let file = std::fs::canonicalize(ev.db()).expect("the event file");
    let before = connections_to(server.pid(), &file);
    // 256 phones each send a wrong key at once; the server's connections to the file are counted meanwhile.
    let rt = runtime();
    let done = std::sync::atomic::AtomicBool::new(false);
    let (answers, most) = std::thread::scope(|s| {
        let watch = s.spawn(|| {
            let mut most = 0;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                most = most.max(connections_to(server.pid(), &file));
            }
            most
        });
        let mut sockets: Vec<TcpStream> = (0..256).map(|i| connect_from(&rt, phone(i), &server.addr)).collect();
        for (i, s) in sockets.iter_mut().enumerate() {
            let req = format!(
                "GET /api/standby/log?after=0&follower=phone{i} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {:048x}\r\n\
                 Connection: close\r\n\r\n",
                i + 1
            );
            s.write_all(req.as_bytes()).expect("send");
        }
        let answers: Vec<u16> = sockets
            .iter_mut()
            .map(|s| {
                let mut raw = String::new();
                let _ = s.read_to_string(&mut raw);
                raw.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
            })
            .collect();
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        (answers, watch.join().expect("the watcher"))
    });
    assert!(answers.iter().all(|s| *s == 401), "every wrong key refused: {answers:?}");
    // Two keys checked at once, each on one connection; before, each wrong key took one (243 of 256 open at once).
    assert!(
        most <= before + 2,
        "the storm opened {most} connections to the event file ({before} before): keys wait their turns, two at once"
    );
    assert_eq!(server.get("/api/time").status, 200);
}
