//! `mmjudge serve`: HTTP tests against the real binary on 127.0.0.1 and a free port, with a small blocking
//! HTTP/1.1 client over `TcpStream` (every request `Connection: close`).

use crate::harness::Event;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A running server; killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// The body's bytes as they came (compressed, chunked), counted.
    pub sent: usize,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }

    /// The one-line error of a refused request, after checking its status.
    #[track_caller]
    pub fn error(&self, status: u16) -> String {
        assert_eq!(self.status, status, "{}", self.body);
        let doc = self.json();
        let msg = doc["error"].as_str().unwrap_or_else(|| panic!("no error in {doc}")).to_string();
        assert_eq!(msg.lines().count(), 1, "{msg}");
        msg
    }
}

/// What a refused request shows: its JSON `error`, or its page's text (scripts and tags aside).
pub fn refusal_text(a: &Answer) -> String {
    if let Ok(doc) = serde_json::from_str::<serde_json::Value>(&a.body) {
        return doc.get("error").and_then(|e| e.as_str()).unwrap_or_default().to_string();
    }
    page_text(&a.body)
}

/// A page's text as it reads on the screen: without its scripts, styles and tags.
pub fn page_text(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        text.push_str(&rest[..at]);
        rest = &rest[at..];
        let lower = rest.get(..8).unwrap_or(rest).to_ascii_lowercase();
        let end = if lower.starts_with("<script") {
            rest.to_ascii_lowercase().find("</script>").map(|e| e + "</script>".len())
        } else if lower.starts_with("<style") {
            rest.to_ascii_lowercase().find("</style>").map(|e| e + "</style>".len())
        } else {
            rest.find('>').map(|e| e + 1)
        };
        rest = &rest[end.unwrap_or(rest.len())..];
        text.push(' ');
    }
    text.push_str(rest);
    text
}

/// Every refusal line a test reads (a JSON `error`, a page's `role="alert"` text) fails the test when it tells a
/// phone to type a command: no `mmjudge `, no backquote, no `--flag` (see `router::names_a_command`).
#[track_caller]
fn no_command_in_refusal(a: &Answer, method: &str, path: &str) {
    let html = a.header("Content-Type").is_some_and(|t| t.starts_with("text/html"));
    if (a.status < 400 && !html) || a.header("Content-Encoding").is_some() {
        return;
    }
    let lines = if html { alert_lines(&a.body) } else { vec![refusal_text(a)] };
    for text in lines {
        assert!(
            !crate::router::names_a_command(&text),
            "{method} {path} answered {} with a command line: {text}",
            a.status
        );
    }
}

/// The text of each `role="alert"` element of a page (up to its first closing tag), entities as sent.
pub fn alert_lines(html: &str) -> Vec<String> {
    html.match_indices("role=\"alert\"")
        .filter_map(|(at, _)| {
            let rest = &html[at..];
            let start = rest.find('>')? + 1;
            let end = rest[start..].find("</").map_or(rest.len(), |e| start + e);
            Some(page_text(&rest[start..end]))
        })
        .collect()
}

impl Server {
    /// Starts `mmjudge serve --bind 127.0.0.1:0` on the event and reads the address it prints.
    pub fn start(ev: &Event) -> Server {
        Server::start_with(ev, &[], &[])
    }

    /// [`Server::start`] with more options (`--tls CERT KEY`) and environment variables; the address printed
    /// may be `http://` or `https://`.
    pub fn start_with(ev: &Event, options: &[&str], env: &[(&str, &str)]) -> Server {
        let stderr =
            if std::env::var_os("MMJUDGE_TEST_SERVER_STDERR").is_some() { Stdio::inherit() } else { Stdio::null() };
        Server::start_to(ev, options, env, stderr)
    }

    /// [`Server::start_with`] with the server's terminal lines (its stderr) sent to `stderr` (a log file).
    pub fn start_to(ev: &Event, options: &[&str], env: &[(&str, &str)], stderr: Stdio) -> Server {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("mmjudge"));
        cmd.current_dir(ev.dir.path())
            .env("MMJUDGE_DB", ev.db())
            .env("MMJUDGE_JUDGE", "Test Judge")
            .env("NO_COLOR", "1")
            .env_remove("MMJUDGE_NOW")
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(options)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(stderr);
        let mut child = cmd.spawn().expect("start mmjudge serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let mut addr = None;
        for line in lines.by_ref().take(10) {
            let line = line.expect("read the server's output");
            if let Some(at) = line.trim().strip_prefix("http://").or_else(|| line.trim().strip_prefix("https://")) {
                addr = Some(at.trim_end_matches('/').to_string());
                break;
            }
        }
        // Keep reading (and dropping) what the server prints so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let addr = addr.expect("the server printed its address");
        assert!(addr.starts_with("127.0.0.1:") && !addr.ends_with(":0"), "the real port is printed: {addr}");
        Server { child, addr }
    }

    /// A server started otherwise (`demo --serve`), at the address it printed; killed when dropped.
    pub fn attach(child: Child, addr: String) -> Server {
        Server { child, addr }
    }

    /// The server process's id (to read its memory).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// One request; `headers` as `("Name", "value")`.
    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", self.addr);
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        s.write_all(req.as_bytes()).expect("send");
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("read");
        let text = String::from_utf8_lossy(&raw).into_owned();
        let sent = raw.windows(4).position(|w| w == b"\r\n\r\n").map_or(0, |at| raw.len() - at - 4);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let mut head_lines = head.lines();
        let status = head_lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|c| c.parse().ok()).unwrap_or(0);
        let headers = head_lines
            .filter_map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_string(), v.trim().to_string())))
            .collect();
        let answer = Answer { status, headers, body: body.to_string(), sent };
        no_command_in_refusal(&answer, method, path);
        answer
    }

    pub fn get(&self, path: &str) -> Answer {
        self.request("GET", path, &[], "")
    }

    pub fn get_as(&self, path: &str, token: &str) -> Answer {
        self.request("GET", path, &[("Authorization", &format!("Bearer {token}"))], "")
    }

    pub fn post_json(&self, path: &str, token: Option<&str>, body: &serde_json::Value) -> Answer {
        let auth = token.map(|t| format!("Bearer {t}")).unwrap_or_default();
        let mut headers = vec![("Content-Type", "application/json")];
        if token.is_some() {
            headers.push(("Authorization", auth.as_str()));
        }
        self.request("POST", path, &headers, &body.to_string())
    }

    /// Logs in through the API; returns the token.
    #[track_caller]
    pub fn login(&self, name: &str, pin: &str) -> String {
        let a = self.post_json("/api/login", None, &serde_json::json!({ "name": name, "pin": pin }));
        assert_eq!(a.status, 200, "{}", a.body);
        a.json()["token"].as_str().expect("token").to_string()
    }
}

/// The `Cookie` header of device `n`'s device cookie (a phone known by its cookie).
pub fn device_cookie(n: u8) -> String {
    format!("mmjudge_device={}", format!("{n:02x}").repeat(16))
}

/// Adds a judge with the CLI; returns the PIN.
pub fn judge(ev: &Event, name: &str, role: &str) -> String {
    let doc = ev.run(&["--json", "judge", "add", name, "--role", role]).json();
    doc["pin"].as_str().expect("pin").to_string()
}

/// A live-update stream (`GET /events`).
pub struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    pub fn open(server: &Server) -> Events {
        let mut s = TcpStream::connect(&server.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_millis(200))).expect("timeout");
        let req = format!("GET /events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n", server.addr);
        s.write_all(req.as_bytes()).expect("send");
        let mut ev = Events { reader: BufReader::new(s) };
        ev.wait_for("hello", Duration::from_secs(10));
        ev
    }

    /// Reads events until one named `name` arrives (or the time is up); returns the names seen.
    pub fn wait_for(&mut self, name: &str, within: Duration) -> Vec<String> {
        let end = Instant::now() + within;
        let mut seen = Vec::new();
        let mut line = String::new();
        while Instant::now() < end {
            line.clear();
            match self.reader.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {
                    if let Some(n) = line.trim_end().strip_prefix("event: ") {
                        seen.push(n.to_string());
                        if n == name {
                            return seen;
                        }
                    }
                }
                Err(_) => continue, // the read timeout: look at the clock and read again
            }
        }
        panic!("no `{name}` event within {within:?}; saw {seen:?}");
    }
}

pub fn audit_vias(ev: &Event) -> Vec<(String, String, String)> {
    let doc = ev.run(&["--json", "log"]).json();
    doc["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or_default().to_string();
            (s("judge"), s("command"), s("via"))
        })
        .collect()
}

#[test]
fn a_judge_logs_in_and_out_and_a_login_ends_when_it_expires_or_the_pin_changes() {
    let ev = Event::new();
    let pin = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    assert!(server.get("/api/judge").error(401).contains("not logged in"));
    let wrong = server.post_json("/api/login", None, &serde_json::json!({ "name": "Kim", "pin": "000000x" }));
    assert!(wrong.error(401).contains("wrong judge name or PIN"));
    let unknown = server.post_json("/api/login", None, &serde_json::json!({ "name": "Nobody", "pin": pin }));
    assert!(unknown.error(401).contains("wrong judge name or PIN"), "the same words: names cannot be guessed");
    assert!(server.post_json("/api/login", None, &serde_json::json!({ "name": "Kim" })).error(400).contains("JSON"));

    let token = server.login("kim", &pin);
    let dash = server.get_as("/api/judge", &token);
    assert_eq!(dash.status, 200, "{}", dash.body);
    assert_eq!(dash.json()["judge"], "Kim");
    assert_eq!(dash.json()["role"], "head");
    let out = server.request("POST", "/api/logout", &[("Authorization", &format!("Bearer {token}"))], "");
    assert_eq!(out.status, 200, "{}", out.body);
    assert!(server.get_as("/api/judge", &token).error(401).contains("log in again"));

    // A login ends after its 12 hours (moved into the past here) ...
    let token = server.login("Kim", &pin);
    ev.sql("UPDATE judge_session SET expires = '2020-01-01T00:00:00.000Z';");
    assert!(server.get_as("/api/judge", &token).error(401).contains("ended after 12 hours"));
    // ... and when the PIN is renewed or the judge removed.
    let token = server.login("Kim", &pin);
    assert_eq!(server.get_as("/api/judge", &token).status, 200);
    let new_pin = ev.run(&["--json", "judge", "pin", "Kim"]).json()["pin"].as_str().expect("pin").to_string();
    assert_eq!(server.get_as("/api/judge", &token).status, 401);
    let old = server.post_json("/api/login", None, &serde_json::json!({ "name": "Kim", "pin": pin }));
    if pin != new_pin {
        old.error(401);
    }
    let token = server.login("Kim", &new_pin);
    // Another head judge first: the last one is never removed.
    ev.run(&["judge", "add", "Lee", "--role", "head"]).ok();
    ev.run(&["judge", "remove", "kim"]).ok();
    assert_eq!(server.get_as("/api/judge", &token).status, 401);

    let vias = audit_vias(&ev);
    let logins: Vec<_> = vias.iter().filter(|(_, c, _)| c == "POST /api/login").collect();
    assert_eq!(logins.len(), 4, "{vias:?}");
    assert!(logins.iter().all(|(j, _, v)| j == "Kim" && v == "web 127.0.0.1"), "{vias:?}");
    assert!(vias.iter().any(|(_, c, v)| c == "POST /api/logout" && v == "web 127.0.0.1"), "{vias:?}");
}

#[test]
fn the_page_login_sets_a_strict_cookie_and_forms_need_the_csrf_token() {
    let ev = Event::new();
    let pin = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    let to_login = server.get("/judge");
    assert_eq!(to_login.status, 303);
    assert_eq!(to_login.header("location"), Some("/login"));
    let form = server.get("/login?name=Lee");
    assert_eq!(form.status, 200);
    assert!(form.body.contains("value=\"Lee\""), "{}", form.body);

    let form_type = ("Content-Type", "application/x-www-form-urlencoded");
    let (pre, token) = login_form(&server);
    let pre = ("Cookie", pre.as_str());
    let bad = server.request("POST", "/login", &[form_type, pre], &format!("name=Lee&pin=999999x&csrf={token}"));
    assert_eq!(bad.status, 401);
    assert!(bad.body.contains("wrong judge name or PIN"), "{}", bad.body);
    let ok = server.request("POST", "/login", &[form_type, pre], &format!("name=Lee&pin={pin}&csrf={token}"));
    assert_eq!(ok.status, 303, "{}", ok.body);
    assert_eq!(ok.header("location"), Some("/judge"));
    let set = ok.header("set-cookie").expect("a session cookie").to_string();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict") && set.contains("Max-Age=43200"), "{set}");
    let cookie = set.split(';').next().expect("cookie").to_string();

    let page = server.request("GET", "/judge", &[("Cookie", &cookie)], "");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Lee (floor judge)"), "{}", page.body);
    let csrf = page
        .body
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("the logout form carries a CSRF token")
        .to_string();
    let forged = server.request("POST", "/logout", &[("Cookie", &cookie), form_type], "csrf=wrong");
    assert_eq!(forged.status, 403, "{}", forged.body);
    assert!(forged.body.contains("CSRF") && forged.body.contains("<nav>"), "a page's form is refused in a page");
    assert_eq!(server.request("GET", "/judge", &[("Cookie", &cookie)], "").status, 200, "still logged in");
    let out = server.request("POST", "/logout", &[("Cookie", &cookie), form_type], &format!("csrf={csrf}"));
    assert_eq!(out.status, 303);
    assert!(out.header("set-cookie").is_some_and(|c| c.contains("Max-Age=0")));
    assert_eq!(server.request("GET", "/judge", &[("Cookie", &cookie)], "").status, 303);
}

#[test]
fn wrong_pins_are_limited_per_address() {
    let ev = Event::new();
    let pin = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    for _ in 0..5 {
        let a = server.post_json("/api/login", None, &serde_json::json!({ "name": "Kim", "pin": "1" }));
        a.error(401);
    }
    let before = ev.dump();
    let a = server.post_json("/api/login", None, &serde_json::json!({ "name": "Kim", "pin": pin }));
    assert!(a.error(429).contains("too many wrong PINs"));
    assert_eq!(before, ev.dump(), "a refused login changes nothing");
}

#[test]
fn errors_map_to_their_status_with_one_line() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana Souza", "Ana Lima", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana Souza", "Bo")]);
    let server = Server::start(&ev);
    assert!(server.get("/api/no/such/thing").error(404).contains("no page /api/no/such/thing"));
    assert_eq!(server.get("/favicon.ico").status, 204, "browsers ask for an icon on every page: no error");
    assert_eq!(
        server.get("/api/me?name=Zed").error(404),
        "unknown player \"Zed\": closest are Ana Lima, Ana Souza, Bo; check the spelling or ask a judge"
    );
    assert!(server.get("/api/me?name=Ana").error(400).contains("matches several players"));
    assert!(server.get("/api/me").error(400).contains("give your name"));
    let bad = server.get("/clock?table=x");
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("not a table number") && bad.body.contains("<nav>"), "{}", bad.body);
    let missing = server.get("/clock?table=9");
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("no table 9") && missing.body.contains("<nav>"), "{}", missing.body);
    let me = server.get("/me?name=Zed");
    assert_eq!(me.status, 404);
    assert!(
        me.body.contains("Zed")
            && me.body.contains(": closest are Ana Lima, Ana Souza, Bo; check the spelling or ask a judge"),
        "{}",
        me.body
    );
    let huge = "x".repeat(40_000);
    assert_eq!(server.request("POST", "/api/login", &[("Content-Type", "application/json")], &huge).status, 413);
}

#[test]
fn a_player_finds_their_table_seat_library_and_opponent() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana Souza", "Bo Nilsson", "Cy", "Di"]).ok();
    ev.fake_libraries(2);
    ev.seat_round(1, &[(1, "Ana Souza", "Bo Nilsson"), (2, "Cy", "Di")]);
    ev.sql(
        "UPDATE match SET a_library = (SELECT id FROM library WHERE table_no = match.table_no AND seat = 'A'),
                          b_library = (SELECT id FROM library WHERE table_no = match.table_no AND seat = 'B');",
    );
    ev.run(&["round", "start", "--at", "2025-05-01T10:00:00Z"]).ok();
    let server = Server::start(&ev);
    let me = server.get("/api/me?name=bo");
    assert_eq!(me.status, 200, "{}", me.body);
    let doc = me.json();
    assert_eq!(doc["name"], "Bo Nilsson");
    assert_eq!(doc["round"], 1);
    assert_eq!(doc["table"], 1);
    assert_eq!(doc["seat"], "B");
    assert_eq!(doc["library"], "1B");
    assert_eq!(doc["opponent"], "Ana Souza");
    assert_eq!(doc["ends_at"], "2025-05-01T10:50:00.000Z");
    let page = server.get("/me?name=di");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<strong>table 2</strong>, seat B"), "{}", page.body);
    assert!(page.body.contains("data-deadline=\"2025-05-01T10:50:00.000Z\""), "{}", page.body);
    let time = server.get("/api/time").json();
    assert_eq!(time["round"]["state"], "running");
    assert_eq!(time["round"]["ends_at"], "2025-05-01T10:50:00.000Z");
    assert!(time["now"].as_str().is_some_and(|n| n.ends_with('Z')));
    let pairings = server.get("/pairings");
    assert!(pairings.body.contains("By name") && pairings.body.contains("Nilsson"), "{}", pairings.body);
    let clock = server.get("/clock?table=2");
    assert!(clock.body.contains("Table 2") && clock.body.contains("data-deadline"), "{}", clock.body);
    let assets = mmjudge::render::assets::all().map(|(_, address)| address);
    for page in ["/", "/pairings", "/clock", "/me", "/login"].into_iter().chain(assets) {
        assert_eq!(server.get(page).status, 200, "{page}");
    }
    let home = server.get("/");
    assert!(home.header("content-security-policy").is_some_and(|c| c.contains("default-src 'self'")));
    // Assets carry a hash of their content in their names and are kept for good; pages are asked for again.
    let common = mmjudge::render::assets::url("common.js");
    assert!(home.body.contains(&format!(r#"<script src="{common}" defer>"#)), "{}", home.body);
    let script = server.get(common);
    assert_eq!(script.header("cache-control"), Some("public, max-age=31536000, immutable"));
    assert!(script.body.contains("window.mmjudge"));
    assert_eq!(home.header("cache-control"), Some("no-cache"));
    assert_eq!(server.get("/assets/common.js").status, 404, "only the hashed name is served");
    assert_eq!(server.get("/assets/common.0000000000.js").status, 404);
    assert!(!home.body.contains("http://") && !home.body.contains("https://"), "nothing loaded from elsewhere");
}

#[test]
fn a_change_made_with_the_command_line_reaches_the_phones_live() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let server = Server::start(&ev);
    let mut events = Events::open(&server);
    ev.run(&["round", "start"]).ok();
    events.wait_for("round", Duration::from_secs(10));
    ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    events.wait_for("result", Duration::from_secs(10));
    assert!(server.get("/api/tables").json()["tables"][0]["result"].as_str().is_some_and(|r| r.contains("Ana won")));
}

/// The `csrf` field of a page's form.
pub fn csrf_of(body: &str) -> String {
    body.split("name=\"csrf\" value=\"").nth(1).and_then(|r| r.split('"').next()).expect("a CSRF field").to_string()
}

/// Opens the login page: its pre-session cookie (`name=value`) and the token its form repeats.
pub fn login_form(server: &Server) -> (String, String) {
    let form = server.get("/login");
    assert_eq!(form.status, 200, "{}", form.body);
    let cookie = form.header("set-cookie").and_then(|c| c.split(';').next()).expect("a pre-session cookie");
    (cookie.to_string(), csrf_of(&form.body))
}

/// Logs in through the page form; returns the cookie (`name=value`) and the session's CSRF token.
pub fn page_login(server: &Server, name: &str, pin: &str) -> (String, String) {
    let form_type = ("Content-Type", "application/x-www-form-urlencoded");
    let (pre, token) = login_form(server);
    let body = format!("name={name}&pin={pin}&csrf={token}");
    let ok = server.request("POST", "/login", &[form_type, ("Cookie", &pre)], &body);
    assert_eq!(ok.status, 303, "{}", ok.body);
    let cookie = ok.header("set-cookie").and_then(|c| c.split(';').next()).expect("cookie").to_string();
    let page = server.request("GET", "/judge", &[("Cookie", &cookie)], "");
    (cookie, csrf_of(&page.body))
}

#[test]
fn head_judges_void_and_clear_floor_judges_may_not_and_each_write_is_audited_with_its_address() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    ev.run(&["ruling", "1", "Bo may not take back the attack"]).ok();
    ev.run(&["ruling", "1", "Ana must reveal the declared card"]).ok();
    ev.run(&["round", "start"]).ok();
    ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    let head = judge(&ev, "Kim", "head");
    let floor = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    let (kim, lee) = (server.login("Kim", &head), server.login("Lee", &floor));
    let before = ev.dump();
    let void = |token: &str, body: serde_json::Value| server.post_json("/api/void", Some(token), &body);
    assert!(void(&lee, serde_json::json!({ "kind": "ruling", "id": 1 })).error(403).contains("for head judges"));
    assert!(
        server
            .post_json("/api/result/clear", Some(&lee), &serde_json::json!({ "table": 1 }))
            .error(403)
            .contains("head")
    );
    assert!(void(&kim, serde_json::json!({ "kind": "bogus", "id": 1 })).error(400).contains("not a kind of record"));
    assert!(void(&kim, serde_json::json!({ "kind": "ruling" })).error(400).contains("JSON"));
    let unauthenticated = server.post_json("/api/void", None, &serde_json::json!({ "kind": "ruling", "id": 1 }));
    unauthenticated.error(401);
    assert_eq!(before, ev.dump(), "refused writes change nothing");

    let done = void(&kim, serde_json::json!({ "kind": "ruling", "id": 1, "reason": "wrong table" }));
    assert_eq!(done.status, 200, "{}", done.body);
    let doc = done.json();
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["kind"], "ruling");
    assert_eq!(doc["voided"]["judge"], "Kim");
    assert_eq!(doc["voided"]["reason"], "wrong table");
    let before = ev.dump();
    void(&kim, serde_json::json!({ "kind": "ruling", "id": 1 })).error(409);
    assert_eq!(before, ev.dump());

    let cleared = server.post_json("/api/result/clear", Some(&kim), &serde_json::json!({ "table": 1 }));
    assert_eq!(cleared.status, 200, "{}", cleared.body);
    assert!(cleared.json()["was"].as_str().is_some_and(|w| w.contains("Ana")), "{}", cleared.body);
    assert!(
        server
            .post_json("/api/result/clear", Some(&kim), &serde_json::json!({ "table": 1 }))
            .error(409)
            .contains("no result")
    );

    // The same write from a page's form: the CSRF field, then back to the page.
    let (cookie, csrf) = page_login(&server, "Kim", &head);
    let form_type = ("Content-Type", "application/x-www-form-urlencoded");
    let forged = server.request("POST", "/api/void", &[("Cookie", &cookie), form_type], "kind=ruling&id=2");
    assert_eq!(forged.status, 403, "{}", forged.body);
    assert!(forged.body.contains("CSRF"));
    let body = format!("kind=ruling&id=2&csrf={csrf}&back=/judge");
    let by_form = server.request("POST", "/api/void", &[("Cookie", &cookie), form_type], &body);
    assert_eq!(by_form.status, 303, "{}", by_form.body);
    assert!(by_form.header("location").is_some_and(|l| l.starts_with("/judge?done=")), "{:?}", by_form.headers);

    let writes: Vec<_> = audit_vias(&ev)
        .into_iter()
        .filter(|(_, c, _)| c.starts_with("POST /api/void {") || c.starts_with("POST /api/result/clear {"))
        .collect();
    assert_eq!(writes.len(), 3, "{writes:?}");
    assert!(writes.iter().all(|(j, _, v)| j == "Kim" && v == "web 127.0.0.1"), "{writes:?}");
    assert!(writes[0].1.contains(r#""reason":"wrong table""#), "the fields are in the log: {writes:?}");
    assert!(writes[2].1.contains(r#""kind":"ruling""#) && !writes[2].1.contains("csrf"), "{writes:?}");
}

/// Each player's code, by name (`player codes --json`).
pub fn codes(ev: &Event) -> std::collections::HashMap<String, String> {
    let doc = ev.run(&["--json", "player", "codes"]).json();
    doc["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| (p["name"].as_str().unwrap_or_default().to_string(), p["code"].as_str().unwrap_or_default().into()))
        .collect()
}
