//! What wraps every request (headers, time limit, error pages), and the second laptop's glue on the server (its room
//! is `crate::replica`): the gate every write passes, the standby's word in a write's answer, following a primary,
//! and what pages are told of the standby (CSP, CORS).
//!
//! What wraps every request: the headers every answer gets, the time limit, and the error pages (a refused
//! request in the site's own form, whoever refused it).
//!
//! Running the second laptop's side of the server: the gate every write passes (refused 503 on a standby, waiting
//! for the standby with `--standby-required`), following the primary, and an old primary learning where the event
//! went. The state they share is [`crate::replica::state::Replica`].
//!
//! What phones are told and answered about the second laptop (see [`crate::replica::failover`] and docs/http.md, "Phones
//! and the second laptop"): on a primary with a standby, every page's head starts with
//! `<meta name="mmjudge-standby">` and `failover.js` (drawn by the page itself from [`super::page::Laptop`]), and
//! every answer's Content-Security-Policy lets pages reach the standby (`connect-src`); on every server, CORS on the few routes a page uses on the standby once the
//! primary stops answering: `GET /api/standby/whoami`, `GET /api/time` and the players' code writes it replays
//! (no credentials: a judge logs in again on the new primary).

use super::error::{ApiError, Said, rejection_message};
use super::page;
use super::state::{Db, Shared};
use crate::replica::follower::Progress;
use crate::replica::peer::Asked;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;
use tokio::sync::watch;

/// The longest a request may take (server-sent events excepted).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Headers on every answer: nothing loaded from elsewhere, no framing, no sniffing, no referrer.
pub async fn headers(req: Request, next: Next) -> Response {
    let route = super::route::of(&req);
    let private = route.judges || super::auth::cookie(req.headers(), super::auth::COOKIE).is_some();
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    // A primary with a standby already said where it is (see `advertise`), whichever layer runs first.
    h.entry(header::CONTENT_SECURITY_POLICY).or_insert_with(|| csp(None));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    // Assets say how long they keep; every other answer may be kept but is asked for again (its ETag answers
    // 304 when nothing changed), a judge's own never by a shared cache.
    let cache = if private { "private, no-cache" } else { "no-cache" };
    h.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static(cache));
    res
}

/// The device cookie (see [`super::auth`]): a write's request carries its hash to the handler; a write that
/// came without one and succeeded is answered with a new one, so that the device is known from its first
/// success (a login, a player signing in). Reads pass untouched.
pub async fn device(mut req: Request, next: Next) -> Response {
    if req.method() != axum::http::Method::POST {
        return next.run(req).await;
    }
    let sent = super::auth::cookie(req.headers(), super::auth::DEVICE_COOKIE);
    let (token, new) = match sent.filter(|t| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit())) {
        Some(t) => (t, false),
        None => (super::auth::new_login_token(), true),
    };
    req.extensions_mut().insert(super::auth::Device(super::auth::hash(&token)));
    let mut res = next.run(req).await;
    if new
        && (res.status().is_success() || res.status().is_redirection())
        && let Ok(v) = HeaderValue::from_str(&super::auth::set_cookie(&token))
    {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
    res
}

/// The Content-Security-Policy of every answer: nothing loaded from elsewhere; with a standby, pages may also
/// reach it (`connect-src 'self' ORIGIN`: its `whoami`, and the writes they replay there once it is promoted).
pub fn csp(standby: Option<&str>) -> HeaderValue {
    const SELF_ONLY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'";
    match standby.and_then(|s| HeaderValue::from_str(&format!("{SELF_ONLY}; connect-src 'self' {s}")).ok()) {
        Some(v) => v,
        None => HeaderValue::from_static(SELF_ONLY),
    }
}

/// A request that takes too long is answered 503 (but the site as a zip, and an upload: a large file takes its
/// time to arrive, and the work on it is a job of its own).
pub async fn timeout(req: Request, next: Next) -> Response {
    let route = super::route::of(&req);
    if route.unlimited || (req.method() == axum::http::Method::POST && route.upload) {
        return next.run(req).await;
    }
    match tokio::time::timeout(REQUEST_TIMEOUT, next.run(req)).await {
        Ok(res) => res,
        Err(_) => ApiError {
            cause: Some(format!("the request took longer than {} s", REQUEST_TIMEOUT.as_secs())),
            ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server took too long on this request: try again")
        }
        .into_response(),
    }
}

/// Every refused request in the site's own form, whatever answered it (a handler, an extractor refusing a query
/// string, a path or a body, or the router refusing a method): under `/api/` the JSON `{"error": "one line"}`
/// (a page's form excepted), elsewhere the HTML page with the site's navigation, each with the same status and the same one line. The line
/// is the one the answer said ([`Said`]); the answer's body is never read again.
pub async fn error_pages(State(app): State<Shared>, mut req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    // A page's form (under /api/ too) is answered with a page: the browser shows it, never bare JSON.
    let form = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    // The request's store, also for its error page.
    let db = Db::of(req.extensions_mut(), &app);
    let res = next.run(req).await;
    if !res.status().is_client_error() || path.starts_with("/assets/") {
        return res;
    }
    let content_type = res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let api = (path == "/api" || path.starts_with("/api/")) && !form;
    let is_json = content_type.starts_with("application/json");
    if content_type.starts_with("text/html") || (api && is_json) {
        return res;
    }
    let message = match res.extensions().get::<Said>() {
        Some(said) => said.message.clone(),
        // Only the router answers without saying (a method the route does not take): with an empty body.
        None => rejection_message(""),
    };
    let (mut parts, _) = res.into_parts();
    let status = parts.status;
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.remove(header::CONTENT_LENGTH);
    let fresh = if api {
        ApiError::new(status, message).into_response()
    } else {
        match page::error_page(&db, status, &message).await {
            Ok(page) => page,
            Err(_) => ApiError::new(status, message).into_response(),
        }
    };
    let (fresh_parts, body) = fresh.into_parts();
    parts.headers.extend(fresh_parts.headers);
    Response::from_parts(parts, body)
}

/// The event file's replication state, read on a blocking thread (None when it cannot be read now).
pub async fn replication_state(app: &Shared) -> Option<crate::store::replication::State> {
    let db = app.db.clone();
    let read = tokio::task::spawn_blocking(move || {
        crate::store::Store::open(&db).and_then(|s| s.read(crate::store::replication::state))
    });
    read.await.ok()?.ok()
}

/// The layer: a `POST` on a route that takes a moment, sent with its `Idempotency-Key`, has its first arrival
/// remembered and put on the request ([`super::state::FirstArrival`]).
pub async fn first_arrival(
    State(app): axum::extract::State<super::state::Shared>,
    mut req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let path = req.uri().path();
    if req.method() == axum::http::Method::POST && super::route::of(&req).at.is_some() {
        let key = req.headers().get(super::once::HEADER).and_then(|v| v.to_str().ok());
        if let (Some(key), Ok(now)) = (key, crate::time::now()) {
            let first =
                app.arrivals.lock().map(|mut a| a.first(path, key, now, std::time::Instant::now())).unwrap_or(now);
            req.extensions_mut().insert(super::state::FirstArrival(first));
        }
    }
    next.run(req).await
}

/// While the event is not set up, every address but the set-up's is answered 503 with [`super::jobs::NOT_SET_UP`] (`serve --new`): the JSON
/// `{"error"}` under `/api/`, elsewhere a page with a link to the set-up page.
pub async fn setup_gate(State(app): State<Shared>, req: Request, next: Next) -> Response {
    if !app.setup.pending() || super::route::of(&req).before_setup {
        return next.run(req).await;
    }
    let api = req.uri().path().starts_with("/api/") || req.uri().path() == "/events";
    let mut res = if api {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, super::jobs::NOT_SET_UP).into_response()
    } else {
        let body = format!(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Not set up yet</title>\n<link rel=\"stylesheet\" href=\"{}\">\n</head>\n<body>\n<main>\n<h1>Not set up yet</h1>\n<p class=\"error\" role=\"alert\">{}.</p>\n<p>The organiser opens the set-up link (or scans its \u{201c}set up\u{201d} QR code) to create the event; this page works once that is done.</p>\n</main>\n</body>\n</html>\n",
            crate::render::assets::url("app.css"),
            super::jobs::NOT_SET_UP
        );
        (StatusCode::SERVICE_UNAVAILABLE, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
    };
    res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    res
}

/// Whether a request writes (anything but a read; a login writes nothing on a standby: its session lives in
/// memory).
fn writes(req: &Request, following: bool) -> bool {
    let route = super::route::of(req);
    // A login, and a table's sign-in (it checks a code and writes nothing), work on a standby too; the two
    // laptops' own routes pass.
    let checks_only = following && route.checks_only;
    !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) && !route.stream && !checks_only
}

/// On a standby: every write refused 503 `{"error", "standby_of"}` (a phone's queue keeps it and tries again).
/// On a primary with `--standby-required`: a write's JSON answer waits for the standby and says
/// `"standby": "applied"` or `"behind"`.
pub async fn gate(State(app): State<Shared>, req: Request, next: Next) -> Response {
    let following = app.replica.following();
    if !writes(&req, following.is_some()) {
        return next.run(req).await;
    }
    if let Some(primary) = following {
        let error = format!(
            "this is the event's second laptop: it shows the event but records nothing until a head judge puts it in charge; your page keeps what you did and sends it then (the first laptop is at {primary})"
        );
        // A form sent as a page (no page script took it: `/logout`, or a form without its script) gets the site's
        // page with the same words, as any refusal of a form does; every other request the JSON.
        let form = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        if (form || !req.uri().path().starts_with("/api/"))
            && let Ok(page) =
                super::page::error_page(&super::state::Db::new(&app), StatusCode::SERVICE_UNAVAILABLE, &error).await
        {
            return page;
        }
        let body = serde_json::json!({ "error": error, "standby_of": primary });
        return (StatusCode::SERVICE_UNAVAILABLE, axum::Json(body)).into_response();
    }
    // An old primary whose event moved answers no write, a repeat of one it recorded either: the phone's page
    // sends it to the promoted laptop, which holds it or records it.
    if let Some(to) = app.replica.moved() {
        let page = !req.uri().path().starts_with("/api/");
        return moved_refusal(&app, page, &to).await;
    }
    if !app.replica.required {
        let res = next.run(req).await;
        app.replica.wake();
        return res;
    }
    synchronous(app, req, next).await
}

/// On a primary with `--standby-required` (PostgreSQL's synchronous standby is the model): a write is answered
/// ok only once the standby applied it (`"standby": "applied"`), waiting at most [`Replica::wait`]; else 503 with
/// `Retry-After` (the write may be recorded here: a page sends it again with its key, and a repeat is answered
/// the same way until the standby holds it). A standby not heard within the lease is asked where the event is
/// before the write is taken (a laptop woken from sleep learns it was replaced). Once a head judge detached the
/// second laptop, writes go on alone (`"standby": "none"`).
///
/// [`Replica::wait`]: crate::replica::state::Replica
async fn synchronous(app: Shared, mut req: Request, next: Next) -> Response {
    use crate::store::replication::{self, Role};
    let path = req.uri().path().to_string();
    // A login's session ends with a promotion anyway (judges log in again there).
    if super::route::of(&req).session {
        let res = next.run(req).await;
        app.replica.wake();
        return res;
    }
    let db = super::state::Db::of(req.extensions_mut(), &app);
    let Ok(s) = db.run(|store| store.read(replication::state)).await else {
        return next.run(req).await;
    };
    let page = !path.starts_with("/api/");
    if let Some(to) = &s.moved_to {
        return moved_refusal(&app, page, to).await;
    }
    if s.role != Role::Primary || s.key_hash.is_none() {
        let res = next.run(req).await;
        app.replica.wake();
        return res;
    }
    if !app.replica.lease_holds() {
        match crate::replica::peer::ask(&s).await {
            Asked::Follows => app.replica.note_heard(),
            Asked::Moved(to) => {
                mark_moved(&app, &to).await;
                return moved_refusal(&app, page, &to).await;
            }
            Asked::Unheard => {
                let words = "Not saved: the event's second laptop does not answer, so nothing can be recorded for now. \
                             Your page keeps it and sends it again by itself; tell a head judge.";
                return unavailable(&app, page, words).await;
            }
        }
    }
    // The write's own runner waits for the standby and says so in its answer (see [`settle`]).
    let res = next.run(req).await;
    app.replica.wake();
    res
}

/// After a write of this server through the write runner: wakes the standby's stream and, with
/// `--standby-required`, waits for the standby to apply the write's change `seq` (None: the write changed nothing,
/// as a repeat of a key: all written so far). Answers the word for the write's answer (`"applied"`; `"none"` once
/// a head judge detached the second laptop; nothing without `--standby-required`), or 503 with `Retry-After` when
/// the standby did not apply it in time (the write may be recorded here: a page sends it again with its key, and a
/// repeat is answered the same way until the standby holds it).
/// `state`: the event file's replication state as the write's own blocking call read it right after the write
/// (None: read here).
pub async fn settle(
    db: &super::state::Db,
    seq: Option<i64>,
    state: Option<crate::store::replication::State>,
) -> Result<Option<&'static str>, super::error::ApiError> {
    use crate::store::replication::{self, Role};
    let app = db.app().clone();
    app.replica.wake();
    if !app.replica.required {
        return Ok(None);
    }
    let s = match state {
        Some(s) => s,
        None => match db.run(|store| store.read(replication::state)).await {
            Ok(s) => s,
            Err(_) => return Ok(None),
        },
    };
    if s.role != Role::Primary || s.key_hash.is_none() {
        let alone = s.detached_at.is_some() && s.key_hash.is_none() && s.moved_to.is_none();
        return Ok(alone.then_some("none"));
    }
    if app.replica.applied(seq.unwrap_or(s.seq)).await {
        return Ok(Some("applied"));
    }
    Err(super::error::ApiError::new(StatusCode::SERVICE_UNAVAILABLE, NOT_CONFIRMED)
        .retry_after(2)
        .fact("standby", "not applied"))
}

/// A write the standby has not applied in time.
const NOT_CONFIRMED: &str = "Not confirmed yet: the event's second laptop has not saved this. Your page keeps it and \
                             sends it again by itself; it will not be recorded twice.";

/// 409: the event moved to `to` (the site's page for a page, else `{"error", "moved_to"}`).
async fn moved_refusal(app: &Shared, page: bool, to: &str) -> Response {
    let words = format!(
        "The event moved to {to}: this laptop's copy is old and records nothing. Open the event there; your page \
         sends what it kept there."
    );
    if page && let Ok(p) = super::page::error_page(&super::state::Db::new(app), StatusCode::CONFLICT, &words).await {
        return p;
    }
    (StatusCode::CONFLICT, axum::Json(serde_json::json!({ "error": words, "moved_to": to }))).into_response()
}

/// 503 with `Retry-After: 2` and `words` (the site's page for a page, else `{"error", "standby": "not applied"}`).
async fn unavailable(app: &Shared, page: bool, words: &str) -> Response {
    let mut res = if page
        && let Ok(p) =
            super::page::error_page(&super::state::Db::new(app), StatusCode::SERVICE_UNAVAILABLE, words).await
    {
        p
    } else {
        let body = serde_json::json!({ "error": words, "standby": "not applied" });
        (StatusCode::SERVICE_UNAVAILABLE, axum::Json(body)).into_response()
    };
    res.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from_static("2"));
    res
}

/// This primary's event went to `to` (its standby was promoted): its file takes no more writes, its pages say so.
async fn mark_moved(app: &Shared, to: &str) {
    let (db, later) = (app.db.clone(), to.to_string());
    let moved = tokio::task::spawn_blocking(move || {
        let mut store = crate::store::Store::open(&db)?;
        store.bookkeep(|tx| crate::store::replication::moved(tx, &later))
    })
    .await;
    if matches!(moved, Ok(Ok(()))) {
        if let Ok(mut m) = app.replica.moved_to.lock() {
            *m = Some(to.to_string());
        }
        tracing::warn!(target: crate::replica::LOG, "THE EVENT MOVED to {to} (its standby was promoted): this laptop takes no more writes; judges and phones go there");
    }
}

/// Starts following the primary as its standby: waits for the first copy when the file does not exist yet
/// (refusing at once a wrong key, another event or another schema), then follows in the background, saying on
/// the terminal how far behind it is, until promoted.
pub async fn follow(app: Shared, follow: crate::replica::follower::Follow) -> crate::error::Result<()> {
    let (tx, rx) = watch::channel(Progress::default());
    if let Ok(mut of) = app.replica.standby_of.lock() {
        *of = Some(follow.primary.text.clone());
    }
    if let Ok(mut p) = app.replica.progress.lock() {
        *p = Some(rx.clone());
    }
    let db = follow.db.clone();
    let primary = follow.primary.text.clone();
    let mut task = tokio::spawn(crate::replica::follower::run(follow, tx));
    // The first copy: the server answers once the file holds the event and the primary was heard (an earlier
    // copy is served after a few seconds without it: the primary may be down).
    let started = std::time::Instant::now();
    loop {
        if task.is_finished() {
            return match (&mut task).await {
                Ok(Err(e)) => Err(e),
                _ => Err(crate::error::Error::refused("the standby stopped before its first copy")),
            };
        }
        let (heard, trouble) = {
            let p = rx.borrow();
            (p.heard.is_some(), p.trouble.clone())
        };
        if db.exists() && (heard || started.elapsed() > Duration::from_secs(5)) {
            break;
        }
        if !db.exists() && trouble.contains("cannot reach") {
            task.abort();
            return Err(crate::error::Error::refused(trouble));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tracing::info!(target: crate::replica::LOG, "standby: following {primary}");
    tokio::spawn(crate::replica::report::report(rx, db.clone()));
    tokio::spawn(async move {
        match task.await {
            Ok(Ok(())) => {
                if let Ok(mut of) = app.replica.standby_of.lock() {
                    *of = None;
                }
                if let Ok(mut held) = app.standby_sessions.lock() {
                    held.clear();
                }
                tracing::info!(target: crate::replica::LOG, "standby: PROMOTED: this laptop is the primary now and takes writes (judges log in again)");
            }
            Ok(Err(e)) => tracing::warn!(target: crate::replica::LOG, "standby: stopped following {primary}: {e}"),
            Err(e) => tracing::warn!(target: crate::replica::LOG, "standby: stopped following {primary}: {e}"),
        }
    });
    Ok(())
}

/// On a primary: looks every two seconds at the address its standby advertised; when the standby there was
/// promoted (the same event, a later generation), this file takes no more writes and says where the event went.
pub fn watch_for_promotion_elsewhere(app: Shared) {
    tokio::spawn(async move {
        loop {
            let state = super::http::replication_state(&app).await;
            if let Some(s) = &state
                && let Some(to) = &s.moved_to
            {
                if let Ok(mut m) = app.replica.moved_to.lock() {
                    *m = Some(to.clone());
                }
                return;
            }
            if let Some(s) = state
                && s.moved_to.is_none()
                && s.role == crate::store::replication::Role::Primary
                && let Some(url) = s.standby_url.clone()
                && let Ok(at) = crate::replica::client::Url::parse(&url)
                && let Some(later) = crate::replica::peer::promoted_at(&at, &s).await
            {
                mark_moved(&app, &later).await;
                if app.replica.moved().is_some() {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    });
}

/// On a primary: reads the event file every two seconds and keeps what pages are told of its standby (the address
/// it advertised while a standby key exists; nothing once the key is revoked, or the event moved).
pub fn watch(app: Shared) {
    tokio::spawn(async move {
        loop {
            if let Some(s) = replication_state(&app).await {
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
    res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, csp(Some(&standby.origin)));
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
