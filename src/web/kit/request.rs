//! What is true of a request and how it is answered: its route's row ([`Route`]), who asked ([`Who`]), its body's
//! limit ([`BODY_LIMIT`]) and kind ([`is_form`]), and its one answer, refused ([`ApiError`], also for blocking work
//! that failed: [`blocking`]) or done ([`Answer`]), with the words a judge's form shows after it ([`FormsDone`]).
//!
//! What is true of a route ([`Route`]: the name its writes are audited under, whether it takes a key, a moment,
//! CORS, an ETag...): the table itself, with each route's handler, is the router's (`web::routes`), registered
//! here once; the outermost layer puts the request's row on it for every layer and extractor inside, the row of
//! the route axum's router matched (its `MatchedPath`: every layer runs after routing, so no address is matched
//! twice).
//!
//! Refused: the one mapping from mmjudge's errors to HTTP, `Error::kind().http_status()` and
//! `{"error": "one line"}`, plus 429 for too many wrong tries, the words for requests axum refused before any
//! handler ran, and the facts a page acts on (`Retry-After`, `"moved_to"`, `"standby_of"`) as typed fields. Every
//! error answer carries what it said as a response extension ([`Said`]): the error-page layer turns a page's
//! refusal into an HTML page from it, and the request log writes a 500's cause from it, without either reading the
//! answer's body again.
//!
//! Done: `{"ok": true, "summary": "...", ...}` with the outcome's fields, as the command line's `--json` prints
//! it, and what the write runner and the standby add (`"repeat"`, `"at"`, `"standby"`).
//!
//! What a judge's form did, shown on the page it goes back to: the write runner keeps each write's answer in
//! the web's words under its audit entry's id ([`FormsDone`]), the form's 303 goes back with `?done=ID`, and the page
//! shows that outcome until the next action (the live refresh re-reads the same address, so it stays). After a
//! restart the page falls back to the audit entry itself.

use crate::error::{Error, Result};
use crate::ops::write_keys::Timed;
use axum::Json;
use axum::extract::{FromRequestParts, Request};
use axum::http::Extensions;
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, OnceLock};

/// The largest request body accepted (a result, a note or a login is far smaller).
pub const BODY_LIMIT: usize = 16 * 1024;

/// The longest a request may take (the live stream, the site's zip and uploads excepted; a test may set
/// another: `App::request_limit`). A page's drawing stops at it too (see `super::drawn::Deadline`).
pub const REQUEST_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The one line of a request answered past its time limit.
pub const TOO_LONG: &str = "the server took too long on this request: try again";

/// The header a phone sends its write's key in.
pub const HEADER: &str = "idempotency-key";

/// An error answer: its status, its one-line message, when to try again, the facts a page acts on, and for a
/// failure of the server what caused it.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// One line, as the phone shows it.
    pub message: String,
    /// What went wrong, for the server's log (500s only; never sent to the phone).
    pub cause: Option<String>,
    /// Seconds to wait before sending it again (the `Retry-After` header of a 429 or 503).
    pub retry_after: Option<u64>,
    /// Facts beside `"error"` in the JSON answer that a page acts on (`"moved_to"`, `"standby_of"`, `"standby"`).
    pub facts: serde_json::Map<String, serde_json::Value>,
    /// Held back for wrong PINs or codes (the [`WRONG_TRIES`] header).
    pub wrong_tries: bool,
}

/// The header of a 429 held back for wrong PINs or codes: a page's queue drops the try rather than keeping it.
pub const WRONG_TRIES: &str = "mmjudge-wrong-tries";

/// What an error answer said, kept on the response (see the module's comment).
#[derive(Debug, Clone)]
pub struct Said {
    /// The one line sent.
    pub message: String,
    /// The cause of a 500, for the log.
    pub cause: Option<String>,
}

/// A write the standby has not applied in time.
pub const NOT_APPLIED: &str = "Not confirmed yet: the event's second laptop has not saved this. Your page keeps it and \
                               sends it again by itself; it will not be recorded twice.";

impl ApiError {
    /// An answer with this status and this one line.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            cause: None,
            retry_after: None,
            facts: serde_json::Map::new(),
            wrong_tries: false,
        }
    }

    /// The same, to be sent again after `secs` seconds.
    pub fn retry_after(mut self, secs: u64) -> Self {
        self.retry_after = Some(secs);
        self
    }

    /// The same, with a fact beside `"error"` in its JSON.
    pub fn fact(mut self, name: &str, value: &str) -> Self {
        self.facts.insert(name.into(), serde_json::Value::String(value.into()));
        self
    }

    /// Marks a 429 held back for wrong PINs or codes (the header [`WRONG_TRIES`]): a page drops such a try instead
    /// of keeping it to send again (the wait is minutes, and the try may be wrong again).
    pub fn for_wrong_tries(mut self) -> Self {
        self.wrong_tries = true;
        self
    }

    /// 429: too many tries; wait `secs` seconds.
    pub fn too_many(what: &str, secs: u64) -> Self {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, format!("too many wrong {what}: wait {secs} s and try again"))
            .retry_after(secs)
    }

    /// 503: the server is too busy for this right now; try again in `secs` seconds (the answer's `Retry-After`).
    pub fn busy(what: &str, secs: u64) -> Self {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("{what}: the server is busy, try again in {secs} s"))
            .retry_after(secs)
    }

    /// 503 `"standby": "not applied"`: the event's second laptop has not applied the write in time (see
    /// `web::kit::state::Db::run`): sent again with its key, it is not recorded twice.
    pub fn not_applied() -> Self {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, NOT_APPLIED).retry_after(2).fact("standby", "not applied")
    }

    /// 500 for a failure of the server itself.
    pub fn internal(what: &str) -> Self {
        ApiError::internal_because(what, what)
    }

    /// 500 for a failure of the server itself, with its cause for the log.
    pub fn internal_because(what: &str, cause: impl Into<String>) -> Self {
        ApiError {
            cause: Some(cause.into()),
            ..ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the server failed ({what}): try again"))
        }
    }

    /// 503: the request took longer than its time limit ([`REQUEST_LIMIT`]); `cause` for the log.
    pub fn too_long(cause: impl Into<String>) -> Self {
        ApiError { cause: Some(cause.into()), ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, TOO_LONG) }
    }

    /// 413: a body over [`BODY_LIMIT`].
    pub fn too_large() -> Self {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request is too large (at most {} KB): send only the fields needed", BODY_LIMIT / 1024),
        )
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        let status = StatusCode::from_u16(e.kind().http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let text = e.web_message();
        let message = text.lines().next().unwrap_or("error").to_string();
        let cause = status.is_server_error().then(|| cause_of(&e));
        ApiError { cause, ..ApiError::new(status, message) }
    }
}

/// A failure's cause for the log: its words, and what the system or SQLite said underneath.
fn cause_of(e: &Error) -> String {
    match e {
        Error::Io { source, .. } => format!("{e} ({source})"),
        Error::Sqlite(inner) => format!("{e} ({inner:?})"),
        other => other.to_string(),
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let wrong_tries = self.wrong_tries;
        let mut doc = serde_json::Map::new();
        doc.insert("error".into(), serde_json::Value::String(self.message.clone()));
        doc.extend(self.facts);
        let said = Said { message: self.message, cause: self.cause };
        let mut res = (self.status, Json(serde_json::Value::Object(doc))).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(secs));
        }
        if wrong_tries {
            res.headers_mut().insert(WRONG_TRIES, axum::http::HeaderValue::from_static("1"));
        }
        res.extensions_mut().insert(said);
        res
    }
}

/// Runs blocking work off the async threads; a panic or a cancelled task becomes a 500.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> crate::error::Result<T> + Send + 'static,
) -> std::result::Result<T, ApiError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(done) => done.map_err(ApiError::from),
        Err(e) => {
            let cause = match e.try_into_panic() {
                Ok(panic) => match panic.downcast::<String>() {
                    Ok(text) => format!("a panic: {text}"),
                    Err(panic) => match panic.downcast::<&'static str>() {
                        Ok(text) => format!("a panic: {text}"),
                        Err(_) => "a panic".to_string(),
                    },
                },
                Err(_) => "the task was cancelled".to_string(),
            };
            Err(ApiError::internal_because("a request's work stopped", cause))
        }
    }
}

/// A body that is not the JSON expected: 400 with what was wrong (413 when too large).
pub fn bad_json(e: &axum::extract::rejection::JsonRejection) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError { status: e.status(), ..ApiError::too_large() };
    }
    let text = e.body_text();
    ApiError::new(StatusCode::BAD_REQUEST, not_the_json(text.lines().next().unwrap_or("unreadable")))
}

/// The one line for a body that is not the JSON expected, with what was wrong (serde's words, its backquoted
/// field names in double quotes: a phone never shows a backquote).
pub fn not_the_json(why: &str) -> String {
    format!("the request's body is not the JSON expected ({}): see docs/http.md", why.replace('`', "\""))
}

/// A request axum refused before any handler ran (a query string, a path or a form that is not the one
/// expected): its status, in the site's words.
pub fn rejected(status: StatusCode, text: &str) -> ApiError {
    ApiError::new(status, rejection_message(text))
}

/// The one line for a request axum refused before any handler ran (its own text names the field but not the
/// fix): a query string's field, a body sent without its content type, a path that is not a number.
pub fn rejection_message(text: &str) -> String {
    // axum and serde quote field names with backquotes: a phone never shows one.
    rejection_words(text).replace('`', "\"")
}

fn rejection_words(text: &str) -> String {
    let first = text.lines().next().unwrap_or("").trim();
    if let Some(rest) = first.strip_prefix("Failed to deserialize query string: ") {
        let (field, why) = rest.split_once(": ").unwrap_or(("", rest));
        return match field {
            "round" => "round: give a round number such as 3".into(),
            "table" => "table: give a table number such as 3".into(),
            "" => format!("the address's query string is not the one expected ({why}): see docs/http.md"),
            _ => format!("{field}: {why} (see docs/http.md)"),
        };
    }
    if first.contains("Content-Type") {
        return "send the body as JSON with the header Content-Type: application/json".into();
    }
    if first.starts_with("Invalid URL") || first.starts_with("Wrong number of path arguments") {
        return "the address is not one of this site's: check it, or start from /".into();
    }
    if first.is_empty() { "the request was refused: see docs/http.md".into() } else { first.to_string() }
}

/// A write's JSON answer.
#[derive(Debug, Clone)]
pub struct Answer {
    doc: serde_json::Map<String, serde_json::Value>,
    /// Fields sent in this answer only, never kept with the write's key (a new player code: shown once).
    once: serde_json::Map<String, serde_json::Value>,
    /// Fields shown once and never kept with the write's key (a PIN, its login link and QR code).
    secret: Vec<String>,
}

impl Answer {
    /// `{"ok": true, "summary": summary}`.
    pub fn ok(summary: &str) -> Answer {
        let mut doc = serde_json::Map::new();
        doc.insert("ok".into(), serde_json::Value::Bool(true));
        doc.insert("summary".into(), serde_json::Value::String(summary.to_string()));
        Answer { doc, once: serde_json::Map::new(), secret: Vec::new() }
    }

    /// [`Answer::ok`] with every field of the outcome `out` (an outcome that is not a JSON object adds none).
    pub fn of<T: Serialize>(summary: &str, out: &T) -> Result<Answer> {
        Answer::ok(summary).with(out)
    }

    /// The summary, as answered.
    pub fn summary(&self) -> &str {
        self.doc.get("summary").and_then(|s| s.as_str()).unwrap_or_default()
    }

    /// Adds every field of `more` (a JSON object; its fields win over the same names already there).
    pub fn with<T: Serialize>(mut self, more: &T) -> Result<Answer> {
        let value = serde_json::to_value(more).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
        if let serde_json::Value::Object(fields) = value {
            self.doc.extend(fields);
        }
        Ok(self)
    }

    /// Adds `field` to this answer only: a repeat of the write (answered from what was kept) leaves it out.
    pub fn shown_once(mut self, field: &str, value: &str) -> Answer {
        self.once.insert(field.into(), serde_json::Value::String(value.into()));
        self
    }

    /// Adds every field of `more` as shown once: answered now, left out of what is kept for a repeat
    /// ([`Answer::kept`]), which says `"shown_once"` instead.
    pub fn with_secret<T: Serialize>(self, more: &T) -> Result<Answer> {
        let value = serde_json::to_value(more).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
        let names: Vec<String> = value.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
        let mut answer = self.with(&value)?;
        answer.secret.extend(names);
        Ok(answer)
    }

    /// The answer's JSON (without the fields of [`Answer::shown_once`]).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Object(self.doc.clone())
    }

    /// What is kept with the write's key for a repeat: the answer without its fields shown once, and a
    /// `"shown_once"` line saying what to do instead (they are stored nowhere in clear).
    pub fn kept(&self) -> serde_json::Value {
        let mut doc = self.doc.clone();
        if !self.secret.is_empty() {
            for name in &self.secret {
                doc.remove(name);
            }
            doc.insert(
                "shown_once".into(),
                serde_json::Value::String(format!(
                    "{} shown once only, with the first answer: make a new PIN to see one again",
                    self.secret.join(", ")
                )),
            );
        }
        serde_json::Value::Object(doc)
    }
}

impl IntoResponse for Answer {
    fn into_response(mut self) -> Response {
        self.doc.extend(self.once);
        Json(serde_json::Value::Object(self.doc)).into_response()
    }
}

/// A route: its address (`{n}` stands for one segment), the name its writes are audited and keyed under, and
/// what is true of it.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// The address, as the router takes it.
    pub path: &'static str,
    /// `POST /api/result`: how its writes are named in the audit and scope their keys (an alias, such as
    /// `/api/clock/pass`, is named as the route it stands for).
    pub name: &'static str,
    /// Its reads carry an ETag and answer 304.
    pub etag: bool,
    /// Pages on the standby reach it across origins (CORS, no credentials).
    pub cors: bool,
    /// A write replayed from a page's queue may claim the moment it was made, as this kind of timed write.
    pub at: Option<Timed>,
    /// It takes a file as its body (outside the body and time limits).
    pub upload: bool,
    /// It may take longer than the request limit (the site as a zip).
    pub unlimited: bool,
    /// A judge's own (a shared cache keeps none of it).
    pub judges: bool,
    /// A login or logout: a session, not a change of the event (taken on a standby when it is a login; never
    /// waited for the standby).
    pub session: bool,
    /// It writes nothing though it is a POST (a table's sign-in checks a code): taken on a standby too.
    pub checks_only: bool,
    /// The two laptops' routine calls: logged at debug when they go well.
    pub chatter: bool,
    /// It answers before the event is set up (`serve --new`).
    pub before_setup: bool,
    /// Streamed for its whole life (the live events, the standby's routes): outside compression and ETags.
    pub stream: bool,
}

impl Route {
    pub const fn new(path: &'static str, name: &'static str) -> Route {
        Route {
            path,
            name,
            etag: false,
            cors: false,
            at: None,
            upload: false,
            unlimited: false,
            judges: false,
            session: false,
            checks_only: false,
            chatter: false,
            before_setup: false,
            stream: false,
        }
    }

    /// Registers the routes table (the router does, once; the table is the same for every router).
    pub fn register(routes: Vec<Route>) {
        let _ = ROUTES.get_or_init(|| {
            let by_path = routes.iter().enumerate().map(|(i, r)| (r.path, i)).collect();
            Table { all: routes, by_path }
        });
    }

    /// Every route, once a router registered them (the server builds its router before it answers anything; code
    /// that runs without one reads `web::routes::routes()`).
    pub fn all() -> &'static [Route] {
        ROUTES.get().map_or(&[], |t| t.all.as_slice())
    }

    /// The row of the route axum's router matched, named by its pattern (`MatchedPath`, such as
    /// `/judge/table/{n}`): the router alone matches an address, this only reads the row it was registered with.
    pub fn matched(pattern: &str) -> Option<&'static Route> {
        let table = ROUTES.get()?;
        table.by_path.get(pattern).and_then(|&i| table.all.get(i))
    }

    /// The routes whose replayed writes may claim their moment, as one attribute's value (`data-takes-at` on every
    /// page's `<body>`, read by `queue.js`).
    pub fn takes_at_list() -> String {
        Route::all().iter().filter(|r| r.at.is_some()).map(|r| r.path).collect::<Vec<_>>().join(" ")
    }

    /// The request's [`Route`] (as the outermost layer put it, from the route axum's router matched;
    /// [`Route::UNKNOWN`] for an address that is none).
    pub fn of(req: &Request) -> Route {
        Route::on(req.extensions())
    }

    /// The [`Route`] a request's extensions hold (for extractors, which see the request's parts).
    pub fn on(extensions: &axum::http::Extensions) -> Route {
        extensions.get::<Route>().copied().unwrap_or(Route::UNKNOWN)
    }

    /// What a request to an address that is no route is (a mistyped page: its 404 is a page).
    pub const UNKNOWN: Route = Route::new("", "");
}

/// Every route (without its handler), as the router's table registered it, and each one's place by its pattern.
static ROUTES: OnceLock<Table> = OnceLock::new();

/// The routes table as registered.
struct Table {
    all: Vec<Route>,
    by_path: std::collections::HashMap<&'static str, usize>,
}

/// A handler's own route (as the outermost layer found it).
impl<S: Send + Sync> FromRequestParts<S> for Route {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Route::on(&parts.extensions))
    }
}

/// Who asked, as the extractors learn it (a judge's session, a player's code); `nobody` until then.
#[derive(Debug, Clone, Default)]
pub struct Who(Arc<Mutex<Option<String>>>);

impl Who {
    /// Records who asked, for the request's log line (nothing when the request is not logged).
    pub fn set(extensions: &Extensions, name: impl Into<String>) {
        if let Some(Who(slot)) = extensions.get::<Who>()
            && let Ok(mut held) = slot.lock()
        {
            *held = Some(name.into());
        }
    }

    /// Records who asked through this request's slot.
    pub fn is(&self, name: impl Into<String>) {
        if let Ok(mut held) = self.0.lock() {
            *held = Some(name.into());
        }
    }

    pub fn name(&self) -> String {
        self.0.lock().ok().and_then(|held| held.clone()).unwrap_or_else(|| "nobody".to_string())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Who {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<Who>().cloned().unwrap_or_default())
    }
}

/// How many recent outcomes are kept.
const DONE_KEPT: usize = 256;

/// The recent outcomes in the web's words, by audit id.
#[derive(Debug, Default)]
pub struct FormsDone {
    recent: VecDeque<(i64, String)>,
}

impl FormsDone {
    /// Keeps `summary` as the outcome of entry `id` (the oldest is forgotten beyond [`DONE_KEPT`]).
    pub fn keep(&mut self, id: i64, summary: String) {
        if self.recent.len() >= DONE_KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back((id, summary));
    }

    /// The outcome of entry `id`, if kept.
    pub fn of(&self, id: i64) -> Option<String> {
        self.recent.iter().rev().find(|(i, _)| *i == id).map(|(_, s)| s.clone())
    }
}

/// `done` of a page's address: the audit id of the write the page answers.
#[derive(Debug, Default, serde::Deserialize)]
pub struct DoneQuery {
    /// The audit id.
    pub done: Option<String>,
}

/// The phone's address, as the listener put it on the request (500 when it is missing: the server's own fault).
pub fn client_addr(extensions: &Extensions) -> std::result::Result<std::net::SocketAddr, ApiError> {
    let connected = extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>();
    connected.map(|c| c.0).ok_or_else(|| ApiError::internal("no client address"))
}

/// Who a web write is audited as: `who` (a judge's name, or a player's with " (player)"), the command line the
/// audit shows (the route's name and the fields sent), now, and `web ADDRESS`.
pub fn web_actor(who: &str, command_line: &str, addr: std::net::SocketAddr) -> Result<crate::store::Actor> {
    Ok(crate::store::Actor {
        judge: who.to_string(),
        command_line: command_line.to_string(),
        at: crate::time::now()?,
        via: format!("web {}", addr.ip()),
        claim: None,
    })
}

/// Whether a request's body is a form a page sent (`application/x-www-form-urlencoded`): its refusal is answered
/// as a page, never bare JSON.
pub fn is_form(headers: &axum::http::HeaderMap) -> bool {
    let kind = headers.get(axum::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    kind.is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"))
}

pub use super::back::{back_to, web_words};

#[cfg(test)]
mod done_tests {
    use super::*;

    #[test]
    fn only_recent_outcomes_are_kept() {
        let mut d = FormsDone::default();
        for i in 0..300 {
            d.keep(i, format!("#{i}"));
        }
        assert_eq!(d.of(299).as_deref(), Some("#299"));
        assert_eq!(d.of(0), None);
    }
}
