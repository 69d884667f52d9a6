//! Every route, the JSON reads and the login API (pages are in [`super::pages`]); the limits and headers that
//! every answer gets.

use super::auth::{self, Judge};
use super::error::{ApiError, blocking};
use super::{Shared, pages, player_table, players, projector, sse, table, table_page, views, writes};
use crate::ops::{judges, live};
use axum::Json;
use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::net::SocketAddr;
use std::time::Duration;

/// The largest request body accepted (a result, a note or a login is far smaller).
const BODY_LIMIT: usize = 16 * 1024;
/// The longest a request may take (server-sent events excepted).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The whole server.
pub fn router(app: Shared) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/me", get(pages::me))
        .route("/pairings", get(pages::pairings))
        .route("/clock", get(pages::clock))
        .route("/projector", get(projector::page_handler))
        .route("/api/projector", get(projector::api))
        .route("/assets/projector.css", get(projector::css))
        .route("/assets/projector.js", get(projector::script))
        .route("/standings", get(views::page))
        .route("/api/standings", get(views::api_standings))
        .route("/api/pairings", get(views::api_pairings))
        .route("/api/results", get(views::api_results))
        .route("/api/round/pair", post(views::pair))
        .route("/login", get(pages::login_form).post(pages::login_submit))
        .route("/logout", post(pages::logout))
        .route("/judge", get(pages::dashboard))
        .route("/assets/app.css", get(pages::css))
        .route("/assets/app.js", get(pages::script))
        .route("/favicon.ico", get(no_icon))
        .route("/api/time", get(time))
        .route("/api/tables", get(tables))
        .route("/api/me", get(me))
        .route("/api/judge", get(dashboard))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/judge/table/{n}", get(table::page))
        .route("/api/result", post(table::result))
        .route("/api/result/fix", post(table::fix_result))
        .route("/api/note", post(player_table::note))
        .route("/api/note/undo", post(player_table::undo))
        .route("/api/player/code", post(table_page::whose))
        .route("/table/{n}", get(table_page::page))
        .route("/assets/table.js", get(table_page::script))
        .route("/assets/table.css", get(table_page::css))
        .route("/api/table/{n}/notes", get(player_table::notes))
        .route("/api/cards/cost", get(player_table::complete))
        .route("/api/challenge", post(table::challenge))
        .route("/api/challenge/evidence", post(table::challenge_evidence))
        .route("/api/penalty", post(table::penalty))
        .route("/api/ruling", post(table::ruling))
        .route("/api/extend", post(table::extend))
        .route("/api/clock/start", post(player_table::clock_start))
        .route("/api/clock/stop", post(player_table::clock_stop))
        .route("/api/clock/hand-over", post(player_table::clock_hand_over))
        .route("/api/clock/pass", post(player_table::clock_hand_over))
        .route("/api/round/start", post(table::round_start))
        .route("/api/round/end", post(table::round_end))
        .route("/api/void", post(writes::void))
        .route("/api/result/clear", post(writes::clear_result))
        .route("/api/event/set", post(writes::event_set))
        .route("/api/self-report", post(players::self_report))
        .route("/api/call", post(players::call))
        .route("/api/call/close", post(players::close))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(app.clone(), super::error::error_pages))
        .layer(middleware::from_fn(timeout))
        .route("/events", get(sse::events))
        .layer(middleware::from_fn(headers))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

/// Headers on every answer: nothing loaded from elsewhere, no framing, no sniffing, no referrer.
async fn headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'",
        ),
    );
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// A request that takes too long is answered 503.
async fn timeout(req: Request, next: Next) -> Response {
    match tokio::time::timeout(REQUEST_TIMEOUT, next.run(req)).await {
        Ok(res) => res,
        Err(_) => ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "the server took too long on this request: try again".into(),
        }
        .into_response(),
    }
}

/// An address that names nothing: under `/api/` the JSON `{"error"}`, elsewhere the "page not found" page.
async fn not_found(State(app): State<Shared>, uri: axum::http::Uri) -> Response {
    let path = uri.path();
    let json =
        ApiError { status: StatusCode::NOT_FOUND, message: format!("no page {path}: see / for the event's pages") };
    if path == "/api" || path.starts_with("/api/") {
        return json.into_response();
    }
    pages::not_found(&app, path).await.unwrap_or_else(|_| json.into_response())
}

/// `GET /favicon.ico`: no icon, said without an error (browsers ask on every page; a 404 shows as an error).
async fn no_icon() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// `GET /api/time`: the server's now and the current round's clock.
async fn time(State(app): State<Shared>) -> Result<Json<live::Home>, ApiError> {
    Ok(Json(blocking(move || live::home(&app.open()?, crate::time::now()?)).await?))
}

/// `GET /api/tables`: the current round's tables (players, libraries, result, clock).
async fn tables(State(app): State<Shared>) -> Result<Json<serde_json::Value>, ApiError> {
    let (home, tables) = blocking(move || {
        let store = app.open()?;
        let now = crate::time::now()?;
        Ok((live::home(&store, now)?, live::tables(&store, now)?))
    })
    .await?;
    Ok(Json(serde_json::json!({ "now": home.now, "round": home.round, "tables": tables })))
}

/// The `name` of `/me?name=...`.
#[derive(Debug, serde::Deserialize)]
pub struct NameQuery {
    /// A player's name, or any unambiguous part of it.
    pub name: Option<String>,
}

/// `GET /api/me?name=NAME`: where that player sits.
async fn me(State(app): State<Shared>, Query(q): Query<NameQuery>) -> Result<Json<live::PlayerSeat>, ApiError> {
    let Some(name) = q.name.filter(|n| !n.trim().is_empty()) else {
        return Err(crate::error::Error::bad_input("give your name: /api/me?name=Ana").into());
    };
    Ok(Json(blocking(move || live::find_player(&app.open()?, &name, crate::time::now()?)).await?))
}

/// `GET /api/judge`: the judges' dashboard (a login needed).
async fn dashboard(State(app): State<Shared>, judge: Judge) -> Result<Json<serde_json::Value>, ApiError> {
    let d = blocking(move || live::dashboard(&app.open()?, crate::time::now()?)).await?;
    Ok(Json(serde_json::json!({ "judge": judge.judge.name, "role": judge.judge.role, "dashboard": d })))
}

/// `POST /api/login` body.
#[derive(Debug, serde::Deserialize)]
pub struct LoginBody {
    /// The judge's name.
    pub name: String,
    /// The PIN.
    pub pin: String,
}

/// `POST /api/login`: `{"name","pin"}` → `{"token","name","role","expires"}`.
async fn login(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<LoginBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Json(body) = body.map_err(|e| bad_json(&e))?;
    let l = auth::login(&app, addr, body.name, body.pin).await?;
    Ok(Json(serde_json::json!({ "token": l.token, "name": l.name, "role": l.role, "expires": l.expires })))
}

/// `POST /api/logout`: ends the session the request carries.
async fn logout(State(app): State<Shared>, judge: Judge) -> Result<Json<serde_json::Value>, ApiError> {
    let actor = judge.actor("POST /api/logout")?;
    blocking(move || judges::logout(&mut app.open()?, &actor, &judge.token)).await?;
    Ok(Json(serde_json::json!({ "ok": true })))
}

/// A body that is not the JSON expected: 400 with what was wrong.
pub fn bad_json(e: &axum::extract::rejection::JsonRejection) -> ApiError {
    let text = e.body_text();
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let message =
            format!("the request is too large (at most {} KB): send only the fields needed", BODY_LIMIT / 1024);
        return ApiError { status: e.status(), message };
    }
    ApiError {
        status: StatusCode::BAD_REQUEST,
        message: super::error::not_the_json(text.lines().next().unwrap_or("unreadable")),
    }
}
