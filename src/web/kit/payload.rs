//! What a request carries, in the site's words when it is not what was expected: a write's fields from JSON or
//! a form ([`Payload`]), and axum's query, path and form extractors whose refusals are worded here (see
//! [`super::error::rejection_message`]) rather than in axum's own text. A body is read once and strictly (see
//! [`super::strict`]): a field the route does not take, or one given twice, is refused naming it.

use super::arrivals::FirstArrival;
use super::error::{ApiError, rejected};
use super::once::{self, Sent};
use super::state::Shared;
use super::strict;
use crate::error::Error;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header;
use axum::http::request::Parts;
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
    /// The write's key (the `Idempotency-Key` header or a form's `idempotency_key`), if sent.
    pub sent: Option<Sent>,
}

impl<T: DeserializeOwned + Send> FromRequest<Shared> for Payload<T> {
    type Rejection = ApiError;

    /// The body is read once (see [`strict`]): JSON into its tree, a form into its fields; that reading is what
    /// the route's type is read from, what the audit shows and what a key's fingerprint is made of.
    async fn from_request(req: Request, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        let is_form = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        let header_csrf = req.headers().get("x-csrf-token").and_then(|v| v.to_str().ok()).map(String::from);
        let header_key = req.headers().get(once::HEADER).cloned();
        let route = super::route::of(&req);
        let first = req.extensions().get::<FirstArrival>().map(|f| f.0);
        let body = Bytes::from_request(req, app).await.map_err(|_| ApiError::too_large())?;
        // A route whose own fields take `at` (a judge's note, as --at) is not refused an `at` sent without a key.
        let own_at = |takes: strict::Takes| takes.contains(&"at");
        if !is_form {
            let value = strict::json(&body)?;
            let (input, takes) = strict::from_json::<T>(&value)?;
            let key = once::key_of(header_key.as_ref(), None, once::FIELD)?;
            let sent = once::sent(key, &value, &route, own_at(takes), first)?;
            return Ok(Payload { input, csrf: header_csrf, back: None, shown: shown(value), sent });
        }
        if body.trim_ascii_start().starts_with(b"{") {
            return Err(ApiError::from(Error::bad_input(
                "the body is JSON but was sent as a form: send it with the header Content-Type: application/json",
            )));
        }
        let fields = strict::form(&body)?;
        let (input, takes) = strict::from_form::<T>(&fields)?;
        let extra = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let (csrf, back, form_key) = (extra("csrf"), extra("back"), extra(once::FIELD));
        let back = back.filter(|b| b.starts_with('/') && !b.starts_with("//") && !b.contains('\\'));
        let key = once::key_of(header_key.as_ref(), form_key.as_deref(), once::FIELD)?;
        let fields = serde_json::Value::Object(fields.into_iter().map(|(k, v)| (k, v.into())).collect());
        let sent = once::sent(key, &fields, &route, own_at(takes), first)?;
        Ok(Payload {
            input,
            csrf: csrf.or(header_csrf),
            back: Some(back.unwrap_or_else(|| "/judge".into())),
            shown: shown(fields),
            sent,
        })
    }
}

/// The fields of a write as the audit log shows them (after the route): one line of JSON, without the form's
/// CSRF token and return page or a player's code, cut at 400 characters.
pub fn shown(mut value: serde_json::Value) -> String {
    if let Some(map) = value.as_object_mut() {
        map.remove("csrf");
        map.remove("back");
        map.remove("code");
        map.remove(once::FIELD);
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
