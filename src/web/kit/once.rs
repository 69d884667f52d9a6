//! A write's key and the moment a replayed write may claim, and the one `{"ok", "summary"}` answer ([`Answer`]).
//!
//! Every write can be repeated safely: a write sent with a key (the `Idempotency-Key` header, a form's
//! `idempotency_key` field, or the table device's `client_id`) is recorded once, with its first answer, for
//! the event's duration (see [`crate::store::keys`]); a repeat with the same key is answered again with
//! `"repeat": true` and records nothing more, even when the first answer never arrived; the same key with
//! other fields is refused (422). Keys are scoped by who sends them and the route.
//!
//! Moments as they happened: a write replayed from a page's queue (it has a key) may send the moment it was
//! made (`at`) on the routes that take one (see [`Route::at`]); it is taken as [`write_keys::moment`] says (between
//! the table's last record and the arrival, at most [`write_keys::AT_BACK`] before its first arrival, and never
//! shortening a decision whose start arrived live), else the arrival is; both are audited and the answer says
//! which (`"at"`, `"at_adjusted"`). An `at` sent without a key on those routes is refused (400): only a replay
//! may say when it was made.
//!
//! The one answer of a write done: `{"ok": true, "summary": "...", ...}` with the outcome's fields, as the
//! command line's `--json` prints it.

use super::error::ApiError;
use super::route::Route;
use crate::error::{Error, Result};
use crate::ops::write_keys;
use crate::ops::write_keys::Timed;
use crate::store::keys::WriteKey;
use crate::store::{Actor, Store};
use axum::Json;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use blake2::{Blake2s256, Digest};
use chrono::{DateTime, Utc};
use serde::Serialize;

/// The header a phone sends its write's key in.
pub const HEADER: &str = "idempotency-key";

/// A form's field for the key (forms cannot send headers).
pub const FIELD: &str = "idempotency_key";

/// The longest key taken.
pub const MAX_KEY: usize = 80;

/// A write's key as sent, a fingerprint of its fields (a repeat must send the same), and the moment its page
/// says it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The key.
    pub key: String,
    /// The fingerprint of the fields (see [`fingerprint`]).
    pub body: String,
    /// The moment sent (`at`), and the table the write names (`table`).
    pub made: Option<(DateTime<Utc>, Option<u32>)>,
    /// When the server first saw this key (see [`super::state`]).
    pub first: Option<DateTime<Utc>>,
    /// What kind of timed write its route is, if it may claim its moment.
    pub timed: Option<Timed>,
}

/// The key of a write to `route` with the fields `value`, if it has one (`first`: when the key first arrived); an
/// `at` without a key on a route that takes a claimed moment is refused (400): only a page's replay says when it
/// was made (`own_at`: the route's own fields take an `at`, as a judge's note does, and it is not refused).
pub fn sent(
    key: Option<String>,
    value: &serde_json::Value,
    route: &Route,
    own_at: bool,
    first: Option<DateTime<Utc>>,
) -> std::result::Result<Option<Sent>, ApiError> {
    match key {
        Some(key) => Ok(Some(Sent { first, timed: route.at, ..Sent::of(key, value)? })),
        None if route.at.is_some() && !own_at && value.get("at").is_some_and(|a| !a.is_null()) => Err(bad(
            "at: only a write sent again from a page's queue, with its key, may say when it was made; without a key \
             the moment it arrives counts, so leave at out"
                .into(),
        )),
        None => Ok(None),
    }
}

impl Sent {
    /// The write sent with `key` and the fields `value`; 400 for an `at` that is not a moment.
    pub fn of(key: String, value: &serde_json::Value) -> std::result::Result<Sent, ApiError> {
        let made = match value.get("at") {
            None | Some(serde_json::Value::Null) => None,
            Some(at) => {
                let at = at
                    .as_str()
                    .and_then(|t| crate::time::unstamp(t).ok())
                    .ok_or_else(|| bad("at: the moment a write was made, as 2025-05-01T14:02:03.000Z".into()))?;
                let table = value.get("table").and_then(|t| match t {
                    serde_json::Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
                    serde_json::Value::String(s) => s.trim().parse().ok(),
                    _ => None,
                });
                Some((at, table))
            }
        };
        Ok(Sent { key, body: fingerprint(value), made, first: None, timed: None })
    }

    /// The key's row for `scope` (who sent it) and the route named `name`, and the moment sent if the route takes
    /// one.
    pub fn scoped(&self, scope: &str, name: &str) -> Keyed {
        let key = WriteKey { scope: scope.into(), route: name.into(), key: self.key.clone(), body: self.body.clone() };
        let made = self.timed.and_then(|timed| self.made.map(|(at, table)| (at, table, timed)));
        Keyed { key, made, first: self.first }
    }
}

/// A write's key for its sender and route, and the moment sent (see [`Sent::scoped`]).
#[derive(Debug, Clone)]
pub struct Keyed {
    /// The key's row.
    pub key: WriteKey,
    /// The moment sent, the table named and what kind of timed write it is, on a route that takes a moment.
    pub made: Option<(DateTime<Utc>, Option<u32>, Timed)>,
    /// When the server first saw the key.
    pub first: Option<DateTime<Utc>>,
}

/// The key a write carries: the header, or `field` of the body (`field_name` for the refusals); both, and
/// different: 400. A key is 1 to 80 printable characters.
pub fn key_of(
    header: Option<&HeaderValue>,
    field: Option<&str>,
    field_name: &str,
) -> std::result::Result<Option<String>, ApiError> {
    let sent_header = header.is_some();
    let header = match header {
        None => None,
        Some(v) => Some(
            v.to_str()
                .map_err(|_| {
                    bad(format!("the Idempotency-Key header is not plain ASCII text: send 1 to {MAX_KEY} printable ASCII characters"))
                })?
                .to_string(),
        ),
    };
    let key = match (header, field) {
        (Some(h), Some(f)) if h != f => {
            return Err(bad(format!(
                "the Idempotency-Key header and \"{field_name}\" differ: send one key, or the same in both"
            )));
        }
        (Some(h), _) => h,
        (None, Some(f)) => f.to_string(),
        (None, None) => return Ok(None),
    };
    let n = key.chars().count();
    if n == 0 || n > MAX_KEY || key.chars().any(char::is_control) {
        let what = if !sent_header { field_name } else { "Idempotency-Key" };
        return Err(bad(format!("{what}: a write's key is 1 to {MAX_KEY} printable characters")));
    }
    Ok(Some(key))
}

fn bad(message: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message)
}

/// A fingerprint of a write's fields: all of them but the key itself, the form's CSRF token and return page,
/// a player's code or table sign-in (a repeat after a new login, a code typed again or a new sign-in is the same
/// write) and the moment made
/// (`at`: a page's first try sends none, its replay does, and the two are the same write).
pub fn fingerprint(value: &serde_json::Value) -> String {
    let mut v = value.clone();
    if let Some(map) = v.as_object_mut() {
        for skip in ["csrf", "back", "code", "signin", FIELD, "client_id", "at"] {
            map.remove(skip);
        }
    }
    Blake2s256::digest(v.to_string().as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// How a write with a key ended.
#[derive(Debug)]
pub enum Done {
    /// Done now: its answer (kept with the key).
    Now(Answer),
    /// Done before under this key: the first answer, again, with `"repeat": true`.
    Before(Answer),
    /// The key was used with other fields: 422.
    OtherBody(String),
}

impl Done {
    /// The answer, or the refusal of a key used with other fields.
    pub fn answer(self) -> std::result::Result<Answer, ApiError> {
        match self {
            Done::Now(a) | Done::Before(a) => Ok(a),
            Done::OtherBody(key) => Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "the key \"{key}\" was used for another write with other fields: send a new Idempotency-Key for a new write"
                ),
            )),
        }
    }
}

/// Runs `f` (a write on `store` by `actor`) once for `key`: a key used already answers its first answer again,
/// else `f` runs (at the moment taken, see [`write_keys::moment`]) in one transaction with its key and the answer
/// kept for a repeat (one change for the standby). Without a key, `f` runs.
pub fn run(
    store: &mut Store,
    actor: &Actor,
    keyed: Option<Keyed>,
    f: impl FnOnce(&mut Store, &Actor) -> Result<Answer>,
) -> Result<Done> {
    let Some(Keyed { key, made, first }) = keyed else {
        return Ok(Done::Now(f(store, actor)?));
    };
    if let Some(done) = before(store, &key)? {
        return Ok(done);
    }
    let (actor, moment) = match made {
        Some((at, table, timed)) => {
            let replayed = write_keys::Replayed { made: at, table, first, timed };
            let m = write_keys::moment(store, actor, replayed)?;
            let answer = serde_json::json!({ "at": crate::time::stamp(m.at), "at_adjusted": m.adjusted });
            (m.actor, Some(answer))
        }
        None => (actor.clone(), None),
    };
    let out = write_keys::run_keyed(
        store,
        &key,
        |store| {
            f(store, &actor).and_then(|answer| match &moment {
                Some(m) => answer.with(m),
                None => Ok(answer),
            })
        },
        |answer| answer.kept().to_string(),
    );
    match out {
        Ok((answer, _)) => Ok(Done::Now(answer)),
        // Another request with the same key may have committed first: answer as it did.
        Err(e) => match before(store, &key)? {
            Some(done) => Ok(done),
            None => Err(e),
        },
    }
}

fn before(store: &Store, key: &WriteKey) -> Result<Option<Done>> {
    let Some(kept) = write_keys::first(store, key)? else {
        return Ok(None);
    };
    if kept.body != key.body {
        return Ok(Some(Done::OtherBody(key.key.clone())));
    }
    let first = kept
        .answer
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .filter(serde_json::Value::is_object);
    let answer = match first {
        Some(doc) => Answer::ok(&kept.summary).with(&doc)?,
        None => Answer::ok(&kept.summary),
    };
    Ok(Some(Done::Before(answer.with(&serde_json::json!({ "repeat": true }))?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_one_to_eighty_printable_characters_and_a_header_and_a_field_that_differ_are_refused() {
        let h = |v: &str| HeaderValue::from_str(v).ok();
        assert_eq!(key_of(h("k1").as_ref(), None, FIELD).ok(), Some(Some("k1".into())));
        assert_eq!(key_of(None, Some("c1"), "client_id").ok(), Some(Some("c1".into())));
        assert_eq!(key_of(h("c1").as_ref(), Some("c1"), "client_id").ok(), Some(Some("c1".into())));
        assert!(key_of(h("k1").as_ref(), Some("c1"), "client_id").is_err());
        assert!(key_of(None, Some(&"x".repeat(81)), FIELD).is_err_and(|e| e.message.contains(FIELD)));
        assert!(key_of(None, Some("a\nb"), FIELD).is_err());
        assert!(key_of(None, Some(""), FIELD).is_err());
        assert_eq!(key_of(None, None, FIELD).ok(), Some(None));
    }

    #[test]
    fn a_fingerprint_leaves_out_the_key_the_csrf_token_the_return_page_the_code_and_the_moment() {
        let a = serde_json::json!({ "table": 1, "csrf": "x", "back": "/a", "code": "1", "idempotency_key": "k", "at": "x" });
        let b = serde_json::json!({ "table": 1 });
        assert_eq!(fingerprint(&a), fingerprint(&b));
        assert_ne!(fingerprint(&b), fingerprint(&serde_json::json!({ "table": 2 })));
    }
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
