//! What a request carries: a write's fields ([`Payload`]) with its key and the moment it may claim ([`Sent`]), and
//! the query, path and form extractors worded the site's way. A player's request is [`Player`] (its own room,
//! [`super::player`], re-exported here): [`by_code`] sends a write whose JSON body carries `code` to a player's
//! handler, the seat it names taken out of the body, and any other to the judges' handler of the same route.
//!
//! What a request carries, in the site's words when it is not what was expected: a write's fields from JSON or
//! a form ([`Payload`]), and axum's query, path and form extractors whose refusals are worded here (see
//! [`super::request::rejection_message`]) rather than in axum's own text. A body is read once and strictly (see
//! [`super::body`]): a field the route does not take, or one given twice, is refused naming it.

//!
//! A write's key: every write can be repeated safely. A write sent with a key (the `Idempotency-Key` header, a
//! form's `idempotency_key` field, or the table device's `client_id`) is recorded once, with its first answer, for
//! the event's duration (see [`crate::store::keys`] and the runner, [`super::write`]); a repeat with the same key is
//! answered again with `"repeat": true` and records nothing more, even when the first answer never arrived; the
//! same key with other fields is refused (422). Keys are scoped by who sends them and the route.
//!
//! Moments as they happened: a write replayed from a page's queue (it has a key) may send the moment it was
//! made (`at`) on the routes that take one (see [`Route::at`]); it is taken as [`crate::ops::write_keys::moment`] says (between
//! the match's last record of its kind and the arrival, at most [`crate::ops::write_keys::AT_BACK`] before its first arrival, and never
//! shortening a decision whose start arrived live), else the arrival is; both are audited and the answer says
//! which (`"at"`, `"at_adjusted"`). An `at` sent without a key on those routes is refused (400): only a replay
//! may say when it was made.

use super::body;
use super::request::Route;
use super::request::{ApiError, BODY_LIMIT, bad_json, rejected};
use super::state::{FirstArrival, Shared};
use crate::error::{Error, Result};
use crate::ops::write_keys::Timed;
use crate::store::Queued;
use crate::store::keys::WriteKey;
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::handler::Handler;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::MethodRouter;
use blake2::{Blake2s256, Digest};
use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;

pub use super::player::{NamedSeat, Player, pace, seat_of, take_seat};

/// A player's JSON body, as [`by_code`] read it (or read here for a route only players use).
pub struct CodeBody(pub serde_json::Value);

/// A JSON body already read (by [`by_code`]), for the extractor of the handler it goes to.
#[derive(Clone)]
struct Read(serde_json::Value);

impl FromRequest<Shared> for CodeBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        if let Some(Read(value)) = req.extensions().get::<Read>() {
            return Ok(CodeBody(value.clone()));
        }
        let json =
            req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
                v.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            });
        if !json {
            // Refused in axum's case, worded the site's way.
            return match Json::<serde_json::Value>::from_request(req, app).await {
                Ok(Json(value)) => Ok(CodeBody(value)),
                Err(e) => Err(bad_json(&e)),
            };
        }
        let bytes = axum::body::to_bytes(req.into_body(), BODY_LIMIT).await.map_err(|_| ApiError::too_large())?;
        Ok(CodeBody(super::body::json(&bytes)?))
    }
}

/// `POST` to a route only players write to with a code: [`by_code`] with the same handler on both sides, so its
/// body's `seat` is taken as on the routes judges share.
pub fn players_by_code<P, PT>(player: P) -> MethodRouter<Shared>
where
    P: Handler<PT, Shared>,
    PT: 'static,
{
    by_code(player.clone(), player)
}

/// `POST` to `player` when the JSON body carries `code` (or a table device's `signin`), else to `judge` (a judge's
/// JSON or form).
pub fn by_code<P, PT, J, JT>(player: P, judge: J) -> MethodRouter<Shared>
where
    P: Handler<PT, Shared>,
    J: Handler<JT, Shared>,
    PT: 'static,
    JT: 'static,
{
    axum::routing::post(move |State(app): State<Shared>, req: Request| {
        let (player, judge) = (player.clone(), judge.clone());
        async move {
            let (mut parts, body) = req.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
                return ApiError::too_large().into_response();
            };
            // Read once: the handler's extractor takes this reading (a form, or text that is not JSON, is the
            // judges' and read there).
            match super::body::json(&bytes) {
                Ok(mut value) => {
                    let players = value.get("code").is_some() || value.get("signin").is_some();
                    if players {
                        match take_seat(&mut value) {
                            Ok(Some(seat)) => {
                                parts.extensions.insert(NamedSeat(seat));
                            }
                            Ok(None) => {}
                            Err(e) => return e.into_response(),
                        }
                    }
                    parts.extensions.insert(Read(value));
                    let req = Request::from_parts(parts, Body::from(bytes));
                    if players { player.call(req, app).await } else { judge.call(req, app).await }
                }
                // A player's body refused (a key given twice): said to the player; anything else is the judges'.
                Err(e)
                    if serde_json::from_slice::<serde_json::Value>(&bytes)
                        .is_ok_and(|v| v.get("code").is_some() || v.get("signin").is_some()) =>
                {
                    e.into_response()
                }
                Err(_) => judge.call(Request::from_parts(parts, Body::from(bytes)), app).await,
            }
        }
    })
}

/// A write's input, from JSON or a form, with the form's CSRF token and the page to go back to.
pub struct Payload<T> {
    /// The fields.
    pub input: T,
    /// `csrf` of a form, or the `X-CSRF-Token` header.
    pub csrf: Option<String>,
    /// Where a form goes back to (a path on this server), None for JSON.
    pub back: Option<String>,
    /// The fields for the audit log (see [`shown`]).
    pub shown: String,
    /// The write's key (the `Idempotency-Key` header or a form's `idempotency_key`), if sent.
    pub sent: Option<Sent>,
}

impl<T: DeserializeOwned + Send> FromRequest<Shared> for Payload<T> {
    type Rejection = ApiError;

    /// The body is read once (see [`super::body`]): JSON into its tree, a form into its fields; that reading is what
    /// the route's type is read from, what the audit shows and what a key's fingerprint is made of.
    async fn from_request(req: Request, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        let is_form = super::request::is_form(req.headers());
        let header_csrf = req.headers().get("x-csrf-token").and_then(|v| v.to_str().ok()).map(String::from);
        let header_key = req.headers().get(HEADER).cloned();
        let route = super::request::Route::of(&req);
        let first = req.extensions().get::<FirstArrival>().copied();
        let read = req.extensions().get::<Read>().map(|Read(v)| v.clone());
        let body = Bytes::from_request(req, app).await.map_err(|_| ApiError::too_large())?;
        // A route whose own fields take `at` (a judge's note, as --at) is not refused an `at` sent without a key.
        let own_at = |takes: body::Takes| takes.contains(&"at");
        if !is_form {
            let value = match read {
                Some(value) => value,
                None => body::json(&body)?,
            };
            let (input, takes) = body::from_json::<T>(&value)?;
            let key = key_of(header_key.as_ref(), None, FIELD)?;
            let sent = sent(key, &value, &route, own_at(takes), first)?;
            return Ok(Payload { input, csrf: header_csrf, back: None, shown: shown(value), sent });
        }
        if body.trim_ascii_start().starts_with(b"{") {
            return Err(ApiError::from(Error::bad_input(
                "the body is JSON but was sent as a form: send it with the header Content-Type: application/json",
            )));
        }
        let fields = body::form(&body)?;
        let (input, takes) = body::from_form::<T>(&fields)?;
        let extra = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let (csrf, back, form_key) = (extra("csrf"), extra("back"), extra(FIELD));
        let back = back.filter(|b| b.starts_with('/') && !b.starts_with("//") && !b.contains('\\'));
        let key = key_of(header_key.as_ref(), form_key.as_deref(), FIELD)?;
        let fields = serde_json::Value::Object(fields.into_iter().map(|(k, v)| (k, v.into())).collect());
        let sent = sent(key, &fields, &route, own_at(takes), first)?;
        Ok(Payload {
            input,
            csrf: csrf.or(header_csrf),
            back: Some(back.unwrap_or_else(|| "/judge".into())),
            shown: shown(fields),
            sent,
        })
    }
}

/// The one list of a write's secret fields: the form's CSRF token, a player's code and a table's sign-in. Never in
/// the audit log ([`shown`]), never part of a key's fingerprint ([`fingerprint`]: a code typed again or a new
/// sign-in is the same write).
pub const SECRET_FIELDS: [&str; 3] = ["csrf", "code", "signin"];

/// The fields of a write as the audit log shows them (after the route): one line of JSON, without its
/// [`SECRET_FIELDS`], its return page and its key, cut at 400 characters.
pub fn shown(mut value: serde_json::Value) -> String {
    if let Some(map) = value.as_object_mut() {
        for field in SECRET_FIELDS.iter().chain(&["back", FIELD]) {
            map.remove(*field);
        }
    }
    let text = value.to_string();
    match text.char_indices().nth(400) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A query string's fields (axum's `Query`, refused in the site's words).
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(q)) => Ok(Query(q)),
            Err(e) => Err(rejected(e.status(), &e.body_text())),
        }
    }
}

/// An address's path fields (axum's `Path`, refused in the site's words).
pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(p)) => Ok(Path(p)),
            Err(e) => Err(rejected(e.status(), &e.body_text())),
        }
    }
}

/// A page form's fields (axum's `Form`, refused in the site's words).
pub struct Form<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Form<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Form::<T>::from_request(req, state).await {
            Ok(axum::Form(f)) => Ok(Form(f)),
            Err(e) if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError { status: e.status(), ..ApiError::too_large() })
            }
            Err(e) => Err(form_refused(&e.body_text())),
        }
    }
}

/// 400 for a page form whose fields are not the ones expected, naming the field (serde's words, its
/// backquotes as double quotes).
fn form_refused(text: &str) -> ApiError {
    let first = text.lines().next().unwrap_or("").trim();
    let why = first.strip_prefix("Failed to deserialize form body: ").unwrap_or(first).replace('`', "\"");
    ApiError::new(
        axum::http::StatusCode::BAD_REQUEST,
        format!("the form's fields are not the ones expected ({why}): reload the page and send it again"),
    )
}

pub use super::request::HEADER;

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
    /// Why the page kept it, as it says (`"queued"`: `"unreachable"` or `503`).
    pub queued: Option<Queued>,
    /// When the server first saw this key (see [`super::state::Arrivals`]).
    pub first: Option<FirstArrival>,
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
    first: Option<FirstArrival>,
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
        let queued = match value.get("queued") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(s)) if s == "unreachable" => Some(Queued::Unreachable),
            Some(q) if q.as_u64() == Some(503) || q.as_str() == Some("503") => Some(Queued::Busy),
            Some(_) => {
                return Err(bad(
                    "queued: why a page kept this write, \"unreachable\" (it never got an answer) or 503; leave it \
                     out for a write sent when it was made"
                        .into(),
                ));
            }
        };
        Ok(Sent { key, body: fingerprint(value), made, queued, first: None, timed: None })
    }

    /// The key's row for `scope` (who sent it) and the route named `name`, and the moment sent if the route takes
    /// one.
    pub fn scoped(&self, scope: &str, name: &str) -> Keyed {
        let key = WriteKey { scope: scope.into(), route: name.into(), key: self.key.clone(), body: self.body.clone() };
        let made = self.timed.and_then(|timed| self.made.map(|(at, table)| (at, table, timed)));
        let first = self.first.and_then(|f| f.kept.map(|status| (f.at, status)));
        Keyed { key, made, queued: self.queued, first }
    }
}

/// A write's key for its sender and route, and the moment sent (see [`Sent::scoped`]).
#[derive(Debug, Clone)]
pub struct Keyed {
    /// The key's row.
    pub key: WriteKey,
    /// The moment sent, the table named and what kind of timed write it is, on a route that takes a moment.
    pub made: Option<(DateTime<Utc>, Option<u32>, Timed)>,
    /// Why its page kept it, as it says.
    pub queued: Option<Queued>,
    /// The key's first arrival kept from an earlier try answered 503, with that status.
    pub first: Option<(DateTime<Utc>, u16)>,
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
    // Printable as every other text the web takes: no control, direction or invisible character (a key is kept in
    // the event file and its audit row).
    if n == 0 || n > MAX_KEY || key.chars().any(crate::domain::text::is_control) {
        let what = if !sent_header { field_name } else { "Idempotency-Key" };
        return Err(bad(format!("{what}: a write's key is 1 to {MAX_KEY} printable characters")));
    }
    Ok(Some(key))
}

/// An upload's write key: the `Idempotency-Key` header, scoped by who sent it and the route, its fingerprint the
/// query string's fields (the file itself is not read again for a repeat: a repeat is answered before it).
pub fn upload_key(
    headers: &axum::http::HeaderMap,
    scope: &str,
    route: &str,
    fields: &serde_json::Value,
) -> std::result::Result<Option<WriteKey>, ApiError> {
    let key = key_of(headers.get(HEADER), None, "Idempotency-Key")?;
    Ok(key.map(|key| WriteKey { scope: scope.into(), route: route.into(), key, body: fingerprint(fields) }))
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
        for skip in SECRET_FIELDS.iter().chain(&["back", FIELD, "client_id", "at", "queued"]) {
            map.remove(*skip);
        }
    }
    Blake2s256::digest(v.to_string().as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod key_tests {
    use super::*;
    use axum::http::HeaderValue;

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
