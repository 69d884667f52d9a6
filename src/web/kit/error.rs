//! The one answer of a request: refused ([`ApiError`]) or done ([`Answer`]).
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

use crate::error::{Error, Result};
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// The largest request body accepted (a result, a note or a login is far smaller).
pub const BODY_LIMIT: usize = 16 * 1024;

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
}

/// What an error answer said, kept on the response (see the module's comment).
#[derive(Debug, Clone)]
pub struct Said {
    /// The one line sent.
    pub message: String,
    /// The cause of a 500, for the log.
    pub cause: Option<String>,
}

impl ApiError {
    /// An answer with this status and this one line.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into(), cause: None, retry_after: None, facts: serde_json::Map::new() }
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
        let mut doc = serde_json::Map::new();
        doc.insert("error".into(), serde_json::Value::String(self.message.clone()));
        doc.extend(self.facts);
        let said = Said { message: self.message, cause: self.cause };
        let mut res = (self.status, Json(serde_json::Value::Object(doc))).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(secs));
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
