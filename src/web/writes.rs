//! Judges' writes: each a `POST /api/...` route taking JSON (with a bearer token, or the cookie and the
//! `X-CSRF-Token` header) or a page's form (with its `csrf` field; the answer then goes back to the page). Each
//! calls one `ops` function, audited with the judge's name and `web ADDRESS`.

use super::Shared;
use super::auth::Judge;
use super::error::{ApiError, blocking};
use crate::error::{Error, Result};
use crate::ops::corrections::{self, ClearInput, VoidInput};
use crate::store::voids::VoidKind;
use crate::store::{Actor, Store};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::de::DeserializeOwned;

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
}

#[derive(serde::Deserialize)]
struct FormMeta {
    csrf: Option<String>,
    back: Option<String>,
}

impl<T: DeserializeOwned + Send> FromRequest<Shared> for Payload<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        let is_form = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        let header_csrf = req.headers().get("x-csrf-token").and_then(|v| v.to_str().ok()).map(String::from);
        let too_large = |_| ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!("the request is too large (at most {} KB): send only the fields needed", 16),
        };
        let body = Bytes::from_request(req, app).await.map_err(too_large)?;
        if !is_form {
            let bad =
                |e: serde_json::Error| ApiError::from(Error::bad_input(super::error::not_the_json(&e.to_string())));
            let value: serde_json::Value = if body.iter().all(u8::is_ascii_whitespace) {
                serde_json::json!({})
            } else {
                serde_json::from_slice(&body).map_err(bad)?
            };
            let input: T = serde_json::from_value(value.clone()).map_err(bad)?;
            return Ok(Payload { input, csrf: header_csrf, back: None, shown: shown(value) });
        }
        if body.trim_ascii_start().starts_with(b"{") {
            return Err(ApiError::from(Error::bad_input(
                "the body is JSON but was sent as a form: send it with the header Content-Type: application/json",
            )));
        }
        let bad = |e: serde_urlencoded::de::Error| {
            ApiError::from(Error::bad_input(format!("the form's fields are not the ones expected ({e})")))
        };
        let meta: FormMeta = serde_urlencoded::from_bytes(&body).map_err(bad)?;
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).map_err(bad)?;
        // A field sent more than once (checked boxes of one name) arrives as one, its values joined by commas.
        let pairs = joined(pairs);
        let input: T =
            serde_urlencoded::from_str(&serde_urlencoded::to_string(&pairs).unwrap_or_default()).map_err(bad)?;
        let fields: serde_json::Map<String, serde_json::Value> =
            pairs.into_iter().map(|(k, v)| (k, serde_json::Value::String(v))).collect();
        let back = meta.back.filter(|b| b.starts_with('/') && !b.starts_with("//") && !b.contains('\\'));
        Ok(Payload {
            input,
            csrf: meta.csrf.or(header_csrf),
            back: Some(back.unwrap_or_else(|| "/judge".into())),
            shown: shown(serde_json::Value::Object(fields)),
        })
    }
}

/// A form's fields with each name once: the values of a name sent several times, joined by commas in order.
fn joined(pairs: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::with_capacity(pairs.len());
    for (k, v) in pairs {
        match out.iter_mut().find(|(seen, _)| *seen == k) {
            Some((_, all)) => {
                all.push(',');
                all.push_str(&v);
            }
            None => out.push((k, v)),
        }
    }
    out
}

/// The fields of a write as the audit log shows them (after the route): one line of JSON, without the form's
/// CSRF token and return page or a player's code, cut at 400 characters.
fn shown(mut value: serde_json::Value) -> String {
    if let Some(map) = value.as_object_mut() {
        map.remove("csrf");
        map.remove("back");
        map.remove("code");
    }
    let text = value.to_string();
    match text.char_indices().nth(400) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Runs one write for a logged-in judge: the CSRF check (cookie sessions), the role check (`head_only` names
/// the action), the `ops` call on a blocking thread; answers `{"ok": true, "summary", ...}` or, for a form,
/// goes back to its page.
pub async fn write<T: Send + 'static>(
    app: Shared,
    judge: Judge,
    route: &'static str,
    head_only: Option<&'static str>,
    payload: Payload<T>,
    f: impl FnOnce(&mut Store, &Actor, T) -> Result<(String, serde_json::Value)> + Send + 'static,
) -> Response {
    let back = payload.back.clone();
    let answer = async {
        judge.check_csrf(payload.csrf.as_deref())?;
        if let Some(what) = head_only {
            judge.judge.require_head(what).map_err(ApiError::from)?;
        }
        let actor = judge.actor(&format!("{route} {}", payload.shown))?;
        let input = payload.input;
        blocking(move || f(&mut Store::open(&app.db)?, &actor, input)).await
    }
    .await;
    match (answer, back) {
        (Ok(_), Some(back)) => Redirect::to(&back).into_response(),
        (Ok((summary, extra)), None) => {
            let mut doc = serde_json::json!({ "ok": true, "summary": summary });
            if let (Some(map), serde_json::Value::Object(more)) = (doc.as_object_mut(), extra) {
                map.extend(more);
            }
            Json(doc).into_response()
        }
        (Err(e), Some(back)) => super::pages::refused(e, &back),
        (Err(e), None) => e.into_response(),
    }
}

/// A free text field (a reason): no control characters but line feeds.
pub fn text_field(field: &str, text: Option<String>) -> Result<Option<String>> {
    match text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()) {
        Some(t) => {
            crate::domain::text::check(field, &t, true).map_err(Error::bad_input)?;
            Ok(Some(t))
        }
        None => Ok(None),
    }
}

/// `POST /api/void` body: `{"kind","id","reason","force"}`.
#[derive(Debug, serde::Deserialize)]
pub struct VoidBody {
    /// penalty, challenge, ruling, note, extension or stall.
    pub kind: String,
    /// The record's id.
    pub id: i64,
    /// Why.
    pub reason: Option<String>,
    /// Take a result back even though later rounds are paired.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/void` (head judges): voids a record entered by mistake, as `mmjudge KIND void ID`.
pub async fn void(State(app): State<Shared>, judge: Judge, payload: Payload<VoidBody>) -> Response {
    write(app, judge, "POST /api/void", Some("voiding a record"), payload, |store, actor, b| {
        let kind = match b.kind.as_str() {
            "penalty" => VoidKind::Penalty,
            "challenge" => VoidKind::Challenge,
            "ruling" => VoidKind::Ruling,
            "note" => VoidKind::Note,
            "extension" => VoidKind::Extension,
            "stall" => VoidKind::Stall,
            other => {
                return Err(Error::bad_input(format!(
                    "\"{other}\" is not a kind of record to void: give penalty, challenge, ruling, note, extension or stall"
                )));
            }
        };
        let input = VoidInput { id: b.id, reason: text_field("reason", b.reason)?, force: b.force };
        let out = corrections::void(store, actor, kind, input)?;
        let doc = serde_json::to_value(&out).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
        Ok((out.summary, doc))
    })
    .await
}

/// `POST /api/result/clear` body: `{"table","round","force"}`.
#[derive(Debug, serde::Deserialize)]
pub struct ClearBody {
    /// The table.
    pub table: u32,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// Even though later rounds are paired on it.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/result/clear` (head judges): takes a table's result back, as `mmjudge result clear`.
pub async fn clear_result(State(app): State<Shared>, judge: Judge, payload: Payload<ClearBody>) -> Response {
    write(app, judge, "POST /api/result/clear", Some("clearing a result"), payload, |store, actor, b| {
        let out =
            corrections::clear_result(store, actor, ClearInput { table: b.table, round: b.round, force: b.force })?;
        let r = &out.reopened;
        let doc = serde_json::json!({
            "round": r.round, "table": r.table, "match": r.match_id, "was": r.was, "later_rounds": out.later_rounds,
        });
        Ok((out.summary, doc))
    })
    .await
}

/// A setting's value as sent: text, or a JSON number or true/false (taken as the CLI would read them).
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum SettingValue {
    /// As typed.
    Text(String),
    /// A JSON number.
    Number(serde_json::Number),
    /// A JSON true or false.
    Flag(bool),
}

/// `POST /api/event/set` body: `{"key","value","force"}`, as `mmjudge event set KEY VALUE [--force]`.
#[derive(Debug, serde::Deserialize)]
pub struct SetBody {
    /// The setting, e.g. round-minutes.
    pub key: String,
    /// The new value.
    pub value: SettingValue,
    /// Change a rule of play while a round is being played.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/event/set` (head judges): changes a setting, as `mmjudge event set`.
pub async fn event_set(State(app): State<Shared>, judge: Judge, payload: Payload<SetBody>) -> Response {
    write(app, judge, "POST /api/event/set", Some("changing a setting"), payload, |store, actor, b| {
        let value = match b.value {
            SettingValue::Text(t) => t,
            SettingValue::Number(n) => n.to_string(),
            SettingValue::Flag(f) => f.to_string(),
        };
        let input = crate::ops::event::SetInput::new(&b.key, &value, b.force)?;
        let changed = crate::ops::event::set(store, actor, input)?;
        let summary = crate::ops::event::setting_changed_words(&changed);
        Ok((summary, serde_json::json!({ "key": changed.key, "value": changed.value })))
    })
    .await
}
