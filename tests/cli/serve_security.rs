//! `mmjudge serve` on a shared network: HTTPS with the organiser's certificate, the login form's CSRF token,
//! slow clients cut off, the "page not found" page, settings from a head judge's phone, live updates that
//! name the change they report, and the login address `judge add` prints.

use crate::harness::Event;
use crate::serve::{Server, audit_vias, judge, login_form, page_login};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_rustls::rustls;

const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

/// A self-signed certificate for localhost, written as PEM files in the event's folder: (cert, key, DER).
fn self_signed(ev: &Event, prefix: &str) -> (String, String, Vec<u8>) {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string(), "127.0.0.1".to_string()])
        .expect("a self-signed certificate");
    let cert = format!("{prefix}cert.pem");
    let key = format!("{prefix}key.pem");
    ev.file(&cert, &made.cert.pem());
    ev.file(&key, &made.signing_key.serialize_pem());
    (cert, key, made.cert.der().to_vec())
}

/// GET `path` over TLS, trusting only `der`; the raw answer.
fn get_over_tls(addr: &str, der: &[u8], path: &str) -> String {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(rustls::pki_types::CertificateDer::from(der.to_vec())).expect("trust the test certificate");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from("localhost").expect("name");
    let conn = rustls::ClientConnection::new(Arc::new(config), name).expect("a TLS client");
    let sock = TcpStream::connect(addr).expect("connect");
    sock.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
    let mut tls = rustls::StreamOwned::new(conn, sock);
    let req = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    tls.write_all(req.as_bytes()).expect("send over TLS");
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tls.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            // A server that closes without a close_notify: what came is the answer.
            Err(_) => break,
        }
    }
    String::from_utf8_lossy(&raw).into_owned()
}

#[test]
fn serve_tls_answers_over_https_with_the_organisers_certificate() {
    let ev = Event::new();
    let (cert, key, der) = self_signed(&ev, "");
    let server = Server::start_with(&ev, &["--tls", &cert, &key], &[]);
    let answer = get_over_tls(&server.addr, &der, "/");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("Test Open"), "{answer}");
    let login = get_over_tls(&server.addr, &der, "/login");
    let cookie = login.lines().find(|l| l.to_ascii_lowercase().starts_with("set-cookie:")).unwrap_or_default();
    assert!(
        cookie.contains("mmjudge_login=") && cookie.ends_with("; Secure"),
        "cookies are Secure over HTTPS: {login}"
    );
    let missing = get_over_tls(&server.addr, &der, "/no-such-page");
    assert!(missing.starts_with("HTTP/1.1 404") && missing.contains("Page not found"), "{missing}");
    // Plain HTTP on the HTTPS port gets no page.
    let plain = server.get("/");
    assert_ne!(plain.status, 200, "{plain:?}");
}

/// The value of a header in a raw answer (its head only), by its name in any case.
fn raw_header(answer: &str, name: &str) -> Option<String> {
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    head.lines().skip(1).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_string())
    })
}

#[test]
fn over_https_phones_are_told_to_keep_to_https_for_a_day_and_never_over_plain_http() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    let (cert, key, der) = self_signed(&ev, "");
    let server = Server::start_with(&ev, &["--tls", &cert, &key], &[]);
    // Pages, the API, a page not found and a refusal: every answer says so.
    for path in ["/", "/login", "/api/pairings", "/no-such-page", "/api/me?name=Zed"] {
        let answer = get_over_tls(&server.addr, &der, path);
        assert_eq!(
            raw_header(&answer, "strict-transport-security").as_deref(),
            Some("max-age=86400"),
            "{path}: {answer}"
        );
    }
    drop(server);
    let plain = Server::start(&ev);
    for path in ["/", "/login", "/api/pairings", "/no-such-page"] {
        let answer = plain.get(path);
        assert!(answer.status != 0, "{path}: {answer:?}");
        assert_eq!(answer.header("strict-transport-security"), None, "not over plain HTTP: {path}");
    }
}

#[test]
fn serve_tls_refuses_missing_or_wrong_files_in_one_line_naming_the_file() {
    let ev = Event::new();
    let (cert, key, _) = self_signed(&ev, "");
    let (_, other_key, _) = self_signed(&ev, "other-");
    ev.file("notes.txt", "not a certificate\n");
    let serve = |c: &str, k: &str| ev.refuses(&["serve", "--bind", "127.0.0.1:0", "--tls", c, k]);
    let msg = serve("nope.pem", &key);
    assert!(msg.contains("nope.pem") && msg.contains("does not exist") && msg.contains("--tls CERT KEY"), "{msg}");
    let msg = serve(&cert, "nokey.pem");
    assert!(msg.contains("nokey.pem") && msg.contains("does not exist"), "{msg}");
    let msg = serve("notes.txt", &key);
    assert!(msg.contains("notes.txt holds no PEM certificate"), "{msg}");
    let msg = serve(&cert, &cert);
    assert!(msg.contains("cert.pem holds no PEM key"), "{msg}");
    let msg = serve(&key, &key);
    assert!(msg.contains("key.pem holds no PEM certificate"), "certificate and key swapped: {msg}");
    let msg = serve(&cert, &other_key);
    assert!(msg.contains("other-key.pem does not go with the certificate"), "{msg}");
    let half = ev.run(&["serve", "--tls", &cert]);
    assert_eq!(half.code, 2, "clap asks for both files: {}", half.stderr);
}

#[test]
fn a_client_that_never_finishes_its_headers_is_cut_off() {
    let ev = Event::new();
    let server = Server::start_with(&ev, &[], &[("MMJUDGE_HEADER_TIMEOUT_MS", "300")]);
    let mut slow = TcpStream::connect(&server.addr).expect("connect");
    slow.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    slow.write_all(b"GET / HT").expect("half a request line");
    let started = Instant::now();
    let mut rest = Vec::new();
    let closed = slow.read_to_end(&mut rest);
    assert!(closed.is_ok() || started.elapsed() < Duration::from_secs(9), "the server closed the connection");
    assert!(started.elapsed() < Duration::from_secs(5), "cut after the header timeout: {:?}", started.elapsed());
    assert!(!String::from_utf8_lossy(&rest).contains("200 OK"), "no page for half a request");
    // A whole request is still answered.
    assert_eq!(server.get("/").status, 200);
}

#[test]
fn an_idle_kept_alive_connection_is_closed_after_the_header_timeout() {
    let ev = Event::new();
    let server = Server::start_with(&ev, &[], &[("MMJUDGE_HEADER_TIMEOUT_MS", "300")]);
    let mut idle = TcpStream::connect(&server.addr).expect("connect");
    idle.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    idle.write_all(b"GET /api/time HTTP/1.1\r\nHost: x\r\n\r\n").expect("a request kept alive");
    let mut first = [0u8; 4096];
    let n = idle.read(&mut first).expect("its answer");
    assert!(String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"), "answered");
    // Then nothing more: the server closes the connection instead of holding it for the phone.
    let started = Instant::now();
    let mut rest = Vec::new();
    let closed = idle.read_to_end(&mut rest);
    assert!(closed.is_ok(), "closed by the server: {closed:?}");
    assert!(started.elapsed() < Duration::from_secs(5), "closed after the header timeout: {:?}", started.elapsed());
}

#[test]
fn a_standby_acknowledgement_trickling_its_body_is_cut_at_the_request_limit() {
    // Without a key: the body is read before the stream's token is checked, so a phone could hold a connection
    // (and a file descriptor) for ever by sending a byte now and then.
    let ev = Event::new();
    let server = Server::start_with(&ev, &[], &[("MMJUDGE_REQUEST_TIMEOUT_MS", "400")]);
    let mut slow = TcpStream::connect(&server.addr).expect("connect");
    slow.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    let head = "POST /api/standby/ack HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 16000\r\n\r\n{\"seq\":1";
    slow.write_all(head.as_bytes()).expect("the head");
    let started = Instant::now();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    // A space every 100 ms, until the server answers or closes.
    while started.elapsed() < Duration::from_secs(8) {
        let _ = slow.set_read_timeout(Some(Duration::from_millis(100)));
        match slow.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        if !answer.is_empty() || slow.write_all(b" ").is_err() {
            break;
        }
    }
    let said = String::from_utf8_lossy(&answer).to_string();
    assert!(started.elapsed() < Duration::from_secs(3), "cut at the limit, not held: {:?} {said}", started.elapsed());
    assert!(said.starts_with("HTTP/1.1 503") || said.is_empty(), "{said}");
    assert_eq!(server.get("/api/time").status, 200);
}

#[test]
fn the_login_form_needs_its_pre_session_token_and_is_audited_as_its_own_route() {
    let ev = Event::new();
    let pin = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    let (pre, token) = login_form(&server);
    assert!(pre.starts_with("mmjudge_login=") && pre.ends_with(&token), "{pre} / {token}");
    let set = server.get("/login").header("set-cookie").unwrap_or_default().to_string();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict") && set.contains("Path=/login"), "{set}");

    let before = ev.dump();
    let good = format!("name=Lee&pin={pin}");
    let other = format!("{}{}", if token.starts_with('0') { '1' } else { '0' }, &token[1..]);
    let forged = [
        server.request("POST", "/login", &[FORM], &good),
        server.request("POST", "/login", &[FORM], &format!("{good}&csrf={token}")),
        server.request("POST", "/login", &[FORM, ("Cookie", &pre)], &good),
        server.request("POST", "/login", &[FORM, ("Cookie", &pre)], &format!("{good}&csrf={other}")),
    ];
    for a in &forged {
        assert_eq!(a.status, 403, "{}", a.body);
        assert!(a.body.contains("CSRF"), "{}", a.body);
        assert!(!a.headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("set-cookie") && v.contains("mmjudge_session")));
    }
    assert_eq!(before, ev.dump(), "a refused login form changes nothing (no session, no audit)");

    let ok = server.request("POST", "/login", &[FORM, ("Cookie", &pre)], &format!("{good}&csrf={token}"));
    assert_eq!(ok.status, 303, "{}", ok.body);
    let vias = audit_vias(&ev);
    assert!(vias.iter().any(|(j, c, v)| j == "Lee" && c == "POST /login" && v == "web 127.0.0.1"), "{vias:?}");
    assert!(!vias.iter().any(|(_, c, _)| c == "POST /api/login"), "{vias:?}");
}

#[test]
fn every_form_that_posts_carries_a_csrf_token() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    ev.run(&["round", "start"]).ok();
    let pin = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let (cookie, _) = page_login(&server, "Kim", &pin);
    let mut posting = 0;
    for path in ["/", "/me?name=Ana", "/pairings", "/standings", "/clock?table=1", "/login", "/judge", "/judge/table/1"]
    {
        let page = server.request("GET", path, &[("Cookie", &cookie)], "");
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        for form in page.body.split("<form").skip(1) {
            let form = form.split("</form>").next().unwrap_or_default();
            // A player's form (self-report, call) carries the player's code as its proof, not a session.
            let players_form = form.contains("name=\"code\"");
            if form.contains("method=\"post\"") && !players_form {
                posting += 1;
                assert!(form.contains("name=\"csrf\" value=\""), "{path}: a form without its token: {form}");
            }
        }
    }
    assert!(posting >= 8, "the judges' pages have their forms: {posting}");
}

#[test]
fn mistyped_page_addresses_answer_the_page_not_found_page_and_api_paths_json() {
    let ev = Event::new();
    let server = Server::start(&ev);
    for path in ["/no/such/page", "/pairing", "/judge/tables/1?x=1"] {
        let a = server.get(path);
        assert_eq!(a.status, 404, "{path}");
        assert!(a.header("content-type").is_some_and(|c| c.starts_with("text/html")), "{path}: {a:?}");
        assert!(a.body.contains("Page not found") && a.body.contains("href=\"/pairings\""), "{}", a.body);
    }
    assert!(server.get("/no/such/page").body.contains("/no/such/page"));
    let api = server.get("/api/nothing");
    assert!(api.header("content-type").is_some_and(|c| c.starts_with("application/json")), "{api:?}");
    assert!(api.error(404).contains("no page /api/nothing"));
    assert!(server.request("POST", "/api/nothing", &[], "").error(404).contains("no page"));
}

#[test]
fn head_judges_change_settings_from_the_api_as_event_set_does() {
    let ev = Event::new();
    let head = judge(&ev, "Kim", "head");
    let floor = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    let (kim, lee) = (server.login("Kim", &head), server.login("Lee", &floor));
    let set = |token: Option<&str>, body: serde_json::Value| server.post_json("/api/event/set", token, &body);
    let before = ev.dump();
    let body = serde_json::json!({ "key": "round-minutes", "value": "40" });
    assert!(set(Some(&lee), body.clone()).error(403).contains("changing a setting is for head judges"));
    set(None, body.clone()).error(401);
    assert!(set(Some(&kim), serde_json::json!({ "key": "roundz", "value": "3" })).error(404).contains("rounds"));
    assert!(
        set(Some(&kim), serde_json::json!({ "key": "round-minutes", "value": "-5" }))
            .error(400)
            .contains("round-minutes")
    );
    assert!(set(Some(&kim), serde_json::json!({ "key": "round-minutes" })).error(400).contains("JSON"));
    assert_eq!(before, ev.dump(), "refused settings change nothing");

    let done = set(Some(&kim), body);
    assert_eq!(done.status, 200, "{}", done.body);
    let doc = done.json();
    assert_eq!(
        (doc["ok"].clone(), doc["key"].clone(), doc["value"].clone()),
        (true.into(), "round-minutes".into(), "40".into())
    );
    let cli = ev.run(&["--json", "event", "set", "binding", "Alphabet"]).json();
    let web = set(Some(&kim), serde_json::json!({ "key": "decision-seconds", "value": 45 })).json();
    assert_eq!(web["value"], "45", "a JSON number is read as typed");
    assert_eq!(cli.as_object().map(|o| o.contains_key("key")), web.as_object().map(|o| o.contains_key("key")));
    let show = ev.run(&["--json", "event", "show"]).json();
    assert_eq!(show["settings"]["round-minutes"], "40");
    assert_eq!(show["settings"]["decision-seconds"], "45");

    // A head judge's page form, with its CSRF token.
    let (cookie, csrf) = page_login(&server, "Kim", &head);
    let before = ev.dump();
    let forged = server.request("POST", "/api/event/set", &[("Cookie", &cookie), FORM], "key=rounds&value=4");
    assert_eq!(forged.status, 403, "{}", forged.body);
    assert_eq!(before, ev.dump());
    let body = format!("key=rounds&value=4&csrf={csrf}&back=/judge");
    assert_eq!(server.request("POST", "/api/event/set", &[("Cookie", &cookie), FORM], &body).status, 303);
    assert_eq!(ev.run(&["--json", "event", "show"]).json()["settings"]["rounds"], "4");

    // A rule of play while a round is being played: 409 unless forced, as on the command line.
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    ev.run(&["round", "start"]).ok();
    let before = ev.dump();
    let mid = serde_json::json!({ "key": "decision-seconds", "value": "30" });
    let said = set(Some(&kim), mid).error(409);
    assert!(
        said.ends_with(
            "; a head judge can change it anyway: tick “Change it although round 1 is being played” beside Decision \
             limit in Settings on the Judges page"
        ),
        "{said}"
    );
    assert_eq!(before, ev.dump());
    let forced = set(Some(&kim), serde_json::json!({ "key": "decision-seconds", "value": "30", "force": true }));
    assert_eq!(forced.status, 200, "{}", forced.body);
    // The answer is in the page's words: the setting's plain name and what it does now, no flag.
    let said = forced.json()["summary"].as_str().unwrap_or_default().to_string();
    assert!(said.starts_with("Decision limit: 45 seconds → 30 seconds; round 1 is being played"), "{}", forced.body);
    assert!(!said.contains("--force"), "{}", forced.body);

    let writes: Vec<_> =
        audit_vias(&ev).into_iter().filter(|(_, c, _)| c.starts_with("POST /api/event/set {")).collect();
    assert_eq!(writes.len(), 4, "{writes:?}");
    assert!(writes.iter().all(|(j, _, v)| j == "Kim" && v == "web 127.0.0.1"), "{writes:?}");
    assert!(writes[0].1.contains(r#""key":"round-minutes""#), "{writes:?}");
}

/// One server-sent event: its name, id and data.
#[derive(Debug, Clone, PartialEq)]
struct Sent {
    name: String,
    id: Option<String>,
    data: String,
}

/// `GET /events`, with a `Last-Event-ID` when given.
struct Stream {
    reader: BufReader<TcpStream>,
}

impl Stream {
    fn open(server: &Server, last_id: Option<&str>) -> Stream {
        let mut s = TcpStream::connect(&server.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_millis(200))).expect("timeout");
        let last = last_id.map(|id| format!("Last-Event-ID: {id}\r\n")).unwrap_or_default();
        let req = format!("GET /events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n{last}\r\n", server.addr);
        s.write_all(req.as_bytes()).expect("send");
        Stream { reader: BufReader::new(s) }
    }

    /// The events sent until one named `name` (included), within `within`.
    fn until(&mut self, name: &str, within: Duration) -> Vec<Sent> {
        let end = Instant::now() + within;
        let mut seen: Vec<Sent> = Vec::new();
        let mut current: Option<Sent> = None;
        let mut line = String::new();
        while Instant::now() < end {
            line.clear();
            match self.reader.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {
                    let l = line.trim_end();
                    if let Some(n) = l.strip_prefix("event: ") {
                        current = Some(Sent { name: n.to_string(), id: None, data: String::new() });
                    } else if let (Some(i), Some(c)) = (l.strip_prefix("id: "), current.as_mut()) {
                        c.id = Some(i.to_string());
                    } else if let (Some(d), Some(c)) = (l.strip_prefix("data: "), current.as_mut()) {
                        c.data = d.to_string();
                    } else if l.is_empty()
                        && let Some(c) = current.take()
                    {
                        let done = c.name == name;
                        seen.push(c);
                        if done {
                            return seen;
                        }
                    }
                }
                Err(_) => continue,
            }
        }
        panic!("no `{name}` event within {within:?}; saw {seen:?}");
    }
}

/// The audit id of the last entry whose command starts with `start`.
fn audit_id(ev: &Event, start: &str) -> String {
    let doc = ev.run(&["--json", "log"]).json();
    let entries = doc["entries"].as_array().cloned().unwrap_or_default();
    let e = entries.iter().rev().find(|e| e["command"].as_str().is_some_and(|c| c.starts_with(start)));
    e.map(|e| e["id"].to_string()).unwrap_or_else(|| panic!("no entry {start}: {doc}"))
}

#[test]
fn each_live_update_carries_the_audit_id_of_its_change_and_a_reconnecting_phone_gets_what_it_missed() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let server = Server::start(&ev);
    let mut phone = Stream::open(&server, None);
    let hello = phone.until("hello", Duration::from_secs(10));
    let hello_id = hello.last().and_then(|h| h.id.clone()).expect("hello carries the latest audit id");
    assert_eq!(hello_id, audit_id(&ev, "mmjudge player add"), "{hello:?}");

    ev.run(&["round", "start"]).ok();
    let round = phone.until("round", Duration::from_secs(10)).pop().expect("round");
    assert_eq!(round.id.as_deref(), Some(audit_id(&ev, "mmjudge round start").as_str()), "{round:?}");
    ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    let result = phone.until("result", Duration::from_secs(10)).pop().expect("result");
    let result_id = audit_id(&ev, "mmjudge result 1");
    assert_eq!(result.id.as_deref(), Some(result_id.as_str()), "{result:?}");
    // Its data says what changed and where, with the table's new row of the pairings.
    let data: serde_json::Value = serde_json::from_str(&result.data).expect("JSON data");
    assert_eq!(data["id"].to_string(), result_id, "{data}");
    assert_eq!(
        (data["topic"].as_str(), data["round"].as_u64(), data["table"].as_u64()),
        (Some("result"), Some(1), Some(1))
    );
    assert!(
        data["row"].as_str().is_some_and(|r| r.starts_with("<tr data-table=\"1\"") && r.contains("Ana won")),
        "{data}"
    );
    drop(phone);

    // Asleep while a ruling and a correction are made; on waking it sends the last id it had.
    ev.run(&["ruling", "1", "Bo may not take back the attack"]).ok();
    ev.run(&["result", "clear", "1"]).ok();
    let mut woke = Stream::open(&server, Some(&result_id));
    let missed = woke.until("result", Duration::from_secs(10));
    let names: Vec<(&str, Option<&str>)> = missed.iter().map(|s| (s.name.as_str(), s.id.as_deref())).collect();
    let (ruling, clear) = (audit_id(&ev, "mmjudge ruling"), audit_id(&ev, "mmjudge result clear"));
    assert_eq!(names[1..], [("note", Some(ruling.as_str())), ("result", Some(clear.as_str()))], "{missed:?}");
    assert_eq!(names[0], ("hello", Some(clear.as_str())));

    // An id this event never gave (another event's, or garbage): reload everything.
    for stale in ["999999", "x"] {
        let mut lost = Stream::open(&server, Some(stale));
        let sent = lost.until("round", Duration::from_secs(10));
        assert_eq!(sent.len(), 2, "hello, then reload: {sent:?}");
        assert_eq!(sent[1].id, None, "a reload carries no id: {sent:?}");
    }
}

#[test]
fn judge_add_links_to_the_address_serve_announces_and_says_url_overrides_it() {
    let ev = Event::new();
    let out = ev.run(&["judge", "add", "Kim", "--role", "head"]).ok().to_string();
    let link = out.lines().find_map(|l| l.strip_prefix("log in at ")).expect("a login link").to_string();
    assert!(out.contains("--url ADDRESS overrides it"), "{out}");
    let host = link.strip_prefix("http://").and_then(|r| r.split(':').next()).expect("a host").to_string();
    assert!(link.contains(":8080/login?name=Kim#pin="), "serve's default port: {link}");
    // serve on every network announces the same host first.
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("mmjudge"));
    cmd.current_dir(ev.dir.path())
        .env("MMJUDGE_DB", ev.db())
        .env("NO_COLOR", "1")
        .args(["serve", "--bind", "0.0.0.0:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().expect("serve");
    let stdout = child.stdout.take().expect("stdout");
    let first = BufReader::new(stdout)
        .lines()
        .take(5)
        .map_while(Result::ok)
        .find_map(|l| l.trim().strip_prefix("http://").map(String::from))
        .expect("serve announces an address");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(first.split(':').next(), Some(host.as_str()), "{first} / {link}");

    let given =
        ev.run(&["judge", "add", "Lee", "--role", "floor", "--url", "https://judge.example:8443/"]).ok().to_string();
    assert!(given.contains("log in at https://judge.example:8443/login?name=Lee#pin="), "{given}");
    assert!(!given.contains("overrides"), "{given}");
}

#[test]
fn player_codes_reissue_replaces_a_lost_code_as_player_code_new_does() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana Souza", "Bo"]).ok();
    let old = ev.run(&["--json", "player", "code", "ana"]).json();
    let new = ev.run(&["--json", "player", "codes", "--reissue", "ana"]).json();
    assert_eq!(new["name"], "Ana Souza");
    assert_ne!(new["code"], old["code"], "a new code");
    assert_eq!(ev.run(&["--json", "player", "code", "ana"]).json()["code"], new["code"], "the new one is kept");
    let listed = ev.run(&["--json", "player", "codes"]).json().to_string();
    assert!(
        listed.contains(new["code"].as_str().unwrap_or("?")) && !listed.contains(old["code"].as_str().unwrap_or("?"))
    );
    let again = ev.run(&["--json", "player", "code", "ana", "--new"]).json();
    let keys = |d: &serde_json::Value| d.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>());
    assert_eq!(keys(&new), keys(&again), "the same answer as `player code NAME --new`");
    let human = ev.run(&["player", "codes", "--reissue", "Bo"]).ok().to_string();
    assert!(human.starts_with("Bo: new code ") && human.contains("the old one no longer works"), "{human}");
    assert!(ev.refuses(&["player", "codes", "--reissue", "Zed"]).contains("unknown player \"Zed\""));
    let log = audit_vias(&ev);
    assert!(log.iter().any(|(_, c, _)| c.contains("player codes --reissue Bo")), "audited as typed: {log:?}");
}
