//! What phones are told and answered about the second laptop (see [`super::failover`] and docs/http.md, "Phones
//! and the second laptop"): on a primary with a standby, every page's head starts with
//! `<meta name="mmjudge-standby">` and `failover.js` (drawn by the page itself from [`super::page::Laptop`]), and
//! every answer's Content-Security-Policy lets pages reach the standby (`connect-src`); on every server, CORS on the few routes a page uses on the standby once the
//! primary stops answering: `GET /api/standby/whoami`, `GET /api/time` and the players' code writes it replays
//! (no credentials: a judge logs in again on the new primary).

use super::layers;
use super::state::Shared;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;

/// On a primary: reads the event file every two seconds and keeps what pages are told of its standby (the address
/// it advertised while a standby key exists; nothing once the key is revoked, or the event moved).
pub fn watch(app: Shared) {
    tokio::spawn(async move {
        loop {
            if let Some(s) = layers::replication_state(&app).await {
                app.failover.note(&s);
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    });
}

/// On a primary with a standby: every answer's Content-Security-Policy lets pages reach the standby (its pages
/// name it themselves, see [`super::page::Laptop`]). Only a header is set: no body is read.
pub async fn advertise(State(app): State<Shared>, req: Request, next: Next) -> Response {
    let Some(standby) = super::page::Laptop::of(&app).standby else {
        return next.run(req).await;
    };
    let mut res = next.run(req).await;
    res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, layers::csp(Some(&standby.origin)));
    res
}

/// CORS on the routes pages use on the standby only (see [`super::route::Route::cors`]): `Access-Control-Allow-Origin: *` (no credentials) on every answer, and a
/// preflight `OPTIONS` answered 204 with the methods and the headers a replayed write sends.
pub async fn cors(req: Request, next: Next) -> Response {
    if !super::route::of(&req).cors {
        return next.run(req).await;
    }
    let any = HeaderValue::from_static("*");
    if req.method() == Method::OPTIONS {
        let mut res = StatusCode::NO_CONTENT.into_response();
        let h = res.headers_mut();
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, any);
        h.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("GET, POST, OPTIONS"));
        h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, HeaderValue::from_static("Content-Type, Idempotency-Key"));
        h.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
        return res;
    }
    let mut res = next.run(req).await;
    res.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, any);
    res
}
