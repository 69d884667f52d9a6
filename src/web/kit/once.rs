//! Every write can be repeated safely: a write sent with a key (the `Idempotency-Key` header, a form's
//! `idempotency_key` field, or the table device's `client_id`) is recorded once, with its first answer, for
//! the event's duration (see [`crate::store::keys`]); a repeat with the same key is answered again with
//! `"repeat": true` and records nothing more, even when the first answer never arrived; the same key with
//! other fields is refused (422). Keys are scoped by who sends them and the route.

use super::answer::Answer;
use super::error::ApiError;
use crate::error::Result;
use crate::store::Store;
use crate::store::keys::{self, WriteKey};
use axum::http::{HeaderValue, StatusCode};
use blake2::{Blake2s256, Digest};

/// The header a phone sends its write's key in.
pub const HEADER: &str = "idempotency-key";

/// A form's field for the key (forms cannot send headers).
pub const FIELD: &str = "idempotency_key";

/// The longest key taken.
pub const MAX_KEY: usize = 80;

/// A write's key as sent, and a fingerprint of its fields (a repeat must send the same).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The key.
    pub key: String,
    /// The fingerprint of the fields (see [`fingerprint`]).
    pub body: String,
}

impl Sent {
    /// The key's row for `scope` (who sent it) and `route`.
    pub fn scoped(&self, scope: &str, route: &str) -> WriteKey {
        WriteKey { scope: scope.into(), route: route.into(), key: self.key.clone(), body: self.body.clone() }
    }
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
                .map_err(|_| bad(format!("the {HEADER} header is not printable text: send 1 to {MAX_KEY} printable characters")))?
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

/// A fingerprint of a write's fields: all of them but the key itself, the form's CSRF token and return page
/// and a player's code (a repeat after a new login or a code typed again is the same write).
pub fn fingerprint(value: &serde_json::Value) -> String {
    let mut v = value.clone();
    if let Some(map) = v.as_object_mut() {
        for skip in ["csrf", "back", "code", FIELD, "client_id"] {
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

/// Runs `f` (a write on `store`) once for `key`: a key used already answers its first answer again, else `f`
/// runs with the key recorded in its write's transaction, and its answer is kept. Without a key, `f` runs.
pub fn run(store: &mut Store, key: Option<WriteKey>, f: impl FnOnce(&mut Store) -> Result<Answer>) -> Result<Done> {
    let Some(key) = key else {
        return Ok(Done::Now(f(store)?));
    };
    if let Some(done) = before(store, &key)? {
        return Ok(done);
    }
    store.with_key(Some(key.clone()));
    let out = f(store);
    let unused = store.key_unused();
    store.with_key(None);
    match out {
        Ok(answer) => {
            if !unused {
                let text = answer.to_json().to_string();
                keys::keep_answer(store.conn(), &key, 200, &text)?;
            }
            Ok(Done::Now(answer))
        }
        // Another request with the same key may have committed first: answer as it did.
        Err(e) => match before(store, &key)? {
            Some(done) => Ok(done),
            None => Err(e),
        },
    }
}

fn before(store: &Store, key: &WriteKey) -> Result<Option<Done>> {
    let Some(kept) = store.read(|conn| keys::find(conn, key))? else {
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
