//! In-process tests of the server's router: every route's refusals, sent with `tower::ServiceExt::oneshot` to
//! `web::routes::router` (no port, no server process). The events are made once with the real binary, kept as
//! bytes and copied into a fresh folder for each test; each phone is a loopback address of its own.
//!
//! A case is a request, who sends it, and the status and words expected; [`Site::refusals`] sends a table of
//! them, checks each refusal's form (under `/api/` the JSON `{"error": "one line"}`, a page's refusal an HTML
//! page) and that the event file is unchanged, and reports every case that failed at once.

mod answers;
mod bodies;
mod charts;
mod coverage;
mod failover;
mod free_text;
mod head_judge;
mod jobs;
mod judges;
mod keys;
mod limits;
mod login_link;
mod moments;
mod pages;
mod players;
mod prints;
mod setup;
mod sign_in;
mod standby;
mod standings;
mod tags;
mod wanted;
mod witness;

use crate::harness::Event;
use axum::body::Body;
use axum::http::{Request, header};
use mmjudge::web::{App, routes};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use tower::ServiceExt;

/// A case whose refusal is not yet the one its table expects: what it answers today.
pub struct Today {
    /// The case, by its label.
    pub case: &'static str,
    /// Today's status.
    pub status: u16,
    /// Words today's refusal says.
    pub words: &'static str,
    /// Whether today's refusal is a page (else the JSON `{"error"}`).
    pub page: bool,
}

/// The refusals that differ today from what their case expects, each to be removed when the server answers as
/// the case says (the suite then checks the case itself).
pub const TODAY: &[Today] = &[];

/// Whether a refusal's words (a JSON `error`, a `role="alert"` line) show the command line: `mmjudge `, a
/// backquote, or a `--flag` (a command line in double quotes says `mmjudge ` too).
pub fn names_a_command(text: &str) -> bool {
    text.contains("mmjudge ") || text.contains('`') || names_a_flag(text)
}

/// Whether the words hold a `--flag`: two hyphens that begin a word and are followed by a letter.
fn names_a_flag(text: &str) -> bool {
    text.match_indices("--").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + 2..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '-') && after.is_some_and(|c| c.is_ascii_lowercase())
    })
}

/// The players' site address the app announces.
const SITE: &str = "http://192.0.2.1:8080/";

/// The PIN of each judge of the fixtures, and each player's code.
pub struct People {
    /// Kim, head judge.
    pub kim: String,
    /// Lee, floor judge.
    pub lee: String,
    /// Codes by player name.
    pub codes: HashMap<String, String>,
}

/// An event file made with the binary, kept as bytes.
struct Fixture {
    bytes: Vec<u8>,
}

/// The two fixtures: round 1 paired (tables 1 Ana–Bo, 2 Cy–Di, 3 Ed–Fy) but its clock not started; and the
/// same round playing (see [`playing`]).
struct Fixtures {
    paired: Fixture,
    playing: Fixture,
    people: People,
}

/// The players of the fixtures, by table.
pub const TABLES: [(u32, &str, &str); 3] = [(1, "Ana", "Bo"), (2, "Cy", "Di"), (3, "Ed", "Fy")];

fn fixtures() -> &'static Fixtures {
    static ONCE: OnceLock<Fixtures> = OnceLock::new();
    ONCE.get_or_init(|| {
        let ev = crate::cards::with_reference();
        ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di", "Ed", "Fy"]).ok();
        ev.seat_round(1, &TABLES);
        let people = People {
            kim: crate::serve::judge(&ev, "Kim", "head"),
            lee: crate::serve::judge(&ev, "Lee", "floor"),
            codes: crate::serve::codes(&ev),
        };
        let paired = Fixture { bytes: snapshot(&ev) };
        // Playing: the round's clock started now; table 3 has its result; a ruling at table 1 voided, another
        // standing; a declaration at table 2 (note 1) and a challenge heard at table 1 (challenge 1).
        ev.run(&["round", "start"]).ok();
        ev.run(&["result", "3", "ed", "--by", "concession"]).ok();
        ev.run(&["ruling", "1", "Bo may not take back the attack"]).ok();
        ev.run(&["ruling", "void", "1", "--reason", "wrong table"]).ok();
        ev.run(&["ruling", "1", "Ana must reveal the declared card"]).ok();
        ev.run(&["note", "2", "cy", "B1", "Demonic Tutor"]).ok();
        ev.run(&["challenge", "1", "--by", "bo", "--about", "B1", "--ruling", "denied"]).ok();
        let playing = Fixture { bytes: snapshot(&ev) };
        Fixtures { paired, playing, people }
    })
}

/// The event file's bytes, its log folded in first.
fn snapshot(ev: &Event) -> Vec<u8> {
    let conn = rusqlite::Connection::open(ev.db()).expect("open the fixture");
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())).expect("checkpoint");
    drop(conn);
    std::fs::read(ev.db()).expect("read the fixture")
}

/// Who sends a request.
#[derive(Debug, Clone)]
pub enum Actor {
    /// A judge's bearer token.
    Bearer(String),
    /// A judge's session cookie (pages; writes then need the CSRF token).
    Cookie(String),
}

/// One request.
#[derive(Debug, Clone)]
pub struct Req {
    pub method: &'static str,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The phone: 127.0.0.X.
    pub phone: u8,
}

impl Req {
    pub fn get(path: &str) -> Req {
        Req { method: "GET", path: path.into(), headers: Vec::new(), body: Vec::new(), phone: 1 }
    }

    pub fn post(path: &str) -> Req {
        Req { method: "POST", path: path.into(), headers: Vec::new(), body: Vec::new(), phone: 1 }
    }

    /// A JSON body.
    pub fn json(self, body: Value) -> Req {
        self.raw("application/json", body.to_string())
    }

    /// A body sent as it is, with its content type.
    pub fn raw(mut self, content_type: &str, body: impl Into<Vec<u8>>) -> Req {
        self.headers.push((header::CONTENT_TYPE.to_string(), content_type.into()));
        self.body = body.into();
        self
    }

    /// A page's form.
    pub fn form(self, body: &str) -> Req {
        self.raw("application/x-www-form-urlencoded", body.as_bytes().to_vec())
    }

    pub fn header(mut self, name: &str, value: &str) -> Req {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// With the device cookie of device `n` (a phone known by its cookie, see `web::kit::auth::Device`).
    pub fn device(self, n: u8) -> Req {
        self.header("Cookie", &format!("mmjudge_device={}", format!("{n:02x}").repeat(16)))
    }

    /// From phone 127.0.0.X.
    pub fn phone(mut self, x: u8) -> Req {
        self.phone = x;
        self
    }

    /// Sent by `who`.
    pub fn by(self, who: &Actor) -> Req {
        match who {
            Actor::Bearer(t) => self.header("Authorization", &format!("Bearer {t}")),
            Actor::Cookie(t) => self.header("Cookie", &format!("mmjudge_session={t}")),
        }
    }

    /// Whether this request is a page's (its refusal is an HTML page): a form, or an address outside `/api/`.
    pub fn wants_page(&self) -> bool {
        let form = self
            .headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("content-type") && v.starts_with("application/x-www-form-urlencoded"));
        form || !(self.path == "/api" || self.path.starts_with("/api/"))
    }
}

/// An answer.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    #[track_caller]
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }
}

/// A fresh copy of a fixture with its own app (its own wrong-PIN and wrong-code counts) and runtime.
pub struct Site {
    pub ev: Event,
    pub people: &'static People,
    app: std::cell::RefCell<Arc<App>>,
    runtime: tokio::runtime::Runtime,
}

impl Site {
    /// Round 1 paired, its clock not started.
    pub fn paired() -> Site {
        Site::of(&fixtures().paired)
    }

    /// Round 1 playing (see [`fixtures`]).
    pub fn playing() -> Site {
        Site::of(&fixtures().playing)
    }

    fn of(f: &Fixture) -> Site {
        let people = &fixtures().people;
        let ev = Event::empty();
        std::fs::write(ev.db(), &f.bytes).expect("copy the fixture");
        let app = std::cell::RefCell::new(Arc::new(App::new(ev.db(), SITE.into())));
        let runtime =
            tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime for the tests");
        Site { ev, people, app, runtime }
    }

    /// A new app on the same event file: no wrong PINs or codes counted.
    pub fn restart(&self) {
        self.app.replace(Arc::new(App::new(self.ev.db(), SITE.into())));
    }

    /// The app the router serves (what it keeps in memory).
    pub fn app(&self) -> Arc<App> {
        self.app.borrow().clone()
    }

    /// Sends one request to the router.
    pub fn send(&self, req: Req) -> Reply {
        let mut builder = Request::builder().method(req.method).uri(&req.path);
        for (k, v) in &req.headers {
            builder = builder.header(k, v);
        }
        let mut request = builder.body(Body::from(req.body)).expect("a request");
        let addr = SocketAddr::from(([127, 0, 0, req.phone], 50_000 + u16::from(req.phone)));
        request.extensions_mut().insert(axum::extract::ConnectInfo(addr));
        let router = routes::router(self.app.borrow().clone());
        self.runtime.block_on(async move {
            let res = router.oneshot(request).await.expect("the router answers");
            let (parts, body) = res.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX).await.expect("the body");
            let headers = parts
                .headers
                .iter()
                .map(|(k, v)| (k.to_string(), String::from_utf8_lossy(v.as_bytes()).into_owned()))
                .collect();
            Reply { status: parts.status.as_u16(), headers, body: String::from_utf8_lossy(&bytes).into_owned() }
        })
    }

    /// Logs a judge in through `POST /api/login`; the bearer token.
    #[track_caller]
    pub fn login(&self, name: &str, pin: &str) -> String {
        let a = self.send(Req::post("/api/login").json(json!({ "name": name, "pin": pin })));
        assert_eq!(a.status, 200, "{}", a.body);
        a.json()["token"].as_str().expect("token").to_string()
    }

    /// Kim (head judge) and Lee (floor judge), logged in.
    pub fn judges(&self) -> (Actor, Actor) {
        (Actor::Bearer(self.login("Kim", &self.people.kim)), Actor::Bearer(self.login("Lee", &self.people.lee)))
    }

    /// A player's code.
    pub fn code(&self, name: &str) -> String {
        self.people.codes.get(name).unwrap_or_else(|| panic!("no code for {name}")).clone()
    }

    /// Sends every case; fails listing each one whose answer was not the refusal expected, and if the event
    /// file changed.
    #[track_caller]
    pub fn refusals(&self, cases: Vec<Case>) {
        let before = self.ev.dump();
        let failed: Vec<String> = cases.into_iter().filter_map(|c| self.check(c).err()).collect();
        assert!(failed.is_empty(), "{} case(s) failed:\n{}", failed.len(), failed.join("\n"));
        assert_eq!(before, self.ev.dump(), "refused requests changed the event file");
    }

    /// [`Site::refusals`], each case on a new app (wrong codes counted apart: five at one table hold it back).
    #[track_caller]
    pub fn refusals_apart(&self, cases: Vec<Case>) {
        let before = self.ev.dump();
        let failed: Vec<String> = cases
            .into_iter()
            .filter_map(|c| {
                self.restart();
                self.check(c).err()
            })
            .collect();
        assert!(failed.is_empty(), "{} case(s) failed:\n{}", failed.len(), failed.join("\n"));
        assert_eq!(before, self.ev.dump(), "refused requests changed the event file");
    }

    /// Sends one case and checks its answer.
    pub fn check(&self, case: Case) -> Result<(), String> {
        let label = case.label();
        let (mut status, mut words, mut page) = (case.status, case.words, case.req.wants_page());
        if let Some(today) = TODAY.iter().find(|t| t.case == label) {
            (status, words, page) = (today.status, today.words, today.page);
        }
        let reply = self.send(case.req);
        let text = refusal_text(&reply, page).map_err(|why| format!("{label}: {why}"))?;
        if reply.status != status {
            return Err(format!("{label}: answered {} ({text})", reply.status));
        }
        if !text.to_lowercase().contains(&words.to_lowercase()) {
            return Err(format!("{label}: {text:?} does not say {words:?}"));
        }
        if names_a_command(&text) {
            offended(&label, &text);
            return Err(format!("{label}: shows a command line or a backquote: {text}"));
        }
        Ok(())
    }
}

/// Prints a refusal that shows a command (seen with `--nocapture`; the report lists them).
fn offended(label: &str, text: &str) {
    eprintln!("NAMES A COMMAND: {label:?} => {text}");
}

/// The refusal's words: the JSON `error` (one line, the only field) of an `/api/` request, or the text of the
/// refused page (its HTML, which loads no inline script); an error when the answer has not that form.
pub fn refusal_text(reply: &Reply, page: bool) -> Result<String, String> {
    let content_type = reply.header("content-type").unwrap_or("");
    if page {
        if !content_type.starts_with("text/html") || !reply.body.contains("<html") {
            return Err(format!("{} not a page ({content_type}): {}", reply.status, reply.body));
        }
        return Ok(page_message(&reply.body));
    }
    if !content_type.starts_with("application/json") {
        return Err(format!("{} not JSON ({content_type}): {}", reply.status, reply.body));
    }
    let doc: Value = serde_json::from_str(&reply.body).map_err(|e| format!("{e}: {}", reply.body))?;
    let Some(error) = doc.get("error").and_then(Value::as_str) else {
        return Err(format!("{} has no error: {doc}", reply.status));
    };
    if doc.as_object().map_or(0, |m| m.len()) != 1 {
        return Err(format!("more than the error: {doc}"));
    }
    if error.trim().is_empty() || error.lines().count() != 1 {
        return Err(format!("not one line: {error:?}"));
    }
    Ok(error.to_string())
}

/// A refused page's message (its `role="alert"` paragraph, else its text), entities decoded.
pub fn page_message(html: &str) -> String {
    let text = match html.split_once("role=\"alert\">").and_then(|(_, rest)| rest.split_once("</p>")) {
        Some((message, _)) => message.to_string(),
        None => {
            let mut out = String::new();
            let mut in_tag = false;
            for c in html.split_once("<body").map_or(html, |(_, b)| b).chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => {
                        in_tag = false;
                        out.push(' ');
                    }
                    c if !in_tag => out.push(c),
                    _ => {}
                }
            }
            out.split_whitespace().collect::<Vec<_>>().join(" ")
        }
    };
    text.replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// A request and the refusal expected.
pub struct Case {
    pub req: Req,
    pub status: u16,
    /// Words the refusal says (any case).
    pub words: &'static str,
}

impl Case {
    /// `METHOD PATH (how) STATUS "words"`: the list [`TODAY`] names cases by it
    /// (cases of one label are refused alike).
    pub fn label(&self) -> String {
        let r = &self.req;
        let has = |name: &str, value: &str| {
            r.headers.iter().any(|(k, v)| k.eq_ignore_ascii_case(name) && v.starts_with(value))
        };
        let by = if has("content-type", "application/x-www-form-urlencoded") {
            " (form)"
        } else if has("cookie", "mmjudge_session=") {
            " (cookie)"
        } else if serde_json::from_slice::<Value>(&r.body).is_ok_and(|v| v.get("code").is_some()) {
            " (code)"
        } else {
            ""
        };
        format!("{} {}{by} {} {:?}", r.method, r.path, self.status, self.words)
    }
}

/// A case: `req` refused with `status`, saying `words`.
pub fn case(req: Req, status: u16, words: &'static str) -> Case {
    Case { req, status, words }
}
