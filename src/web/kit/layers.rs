//! What wraps every request: the headers every answer gets, the time limit, and the error pages (a refused
//! request in the site's own form, whoever refused it).

use super::error::{ApiError, Said, rejection_message};
use super::page;
use super::state::Shared;
use super::store::Db;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;

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

/// The device cookie (see [`super::guess`]): a write's request carries its hash to the handler; a write that
/// came without one and succeeded is answered with a new one, so that the device is known from its first
/// success (a login, a player signing in). Reads pass untouched.
pub async fn device(mut req: Request, next: Next) -> Response {
    if req.method() != axum::http::Method::POST {
        return next.run(req).await;
    }
    let sent = super::auth::cookie(req.headers(), super::guess::DEVICE_COOKIE);
    let (token, new) = match sent.filter(|t| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit())) {
        Some(t) => (t, false),
        None => (super::auth::new_login_token(), true),
    };
    req.extensions_mut().insert(super::guess::Device(super::guess::hash(&token)));
    let mut res = next.run(req).await;
    if new
        && (res.status().is_success() || res.status().is_redirection())
        && let Ok(v) = HeaderValue::from_str(&super::guess::set_cookie(&token))
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
/// remembered and put on the request ([`super::arrivals::FirstArrival`]).
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
            req.extensions_mut().insert(super::arrivals::FirstArrival(first));
        }
    }
    next.run(req).await
}

/// While the event is not set up, every address but the set-up's is answered 503 with [`super::setup::NOT_SET_UP`] (`serve --new`): the JSON
/// `{"error"}` under `/api/`, elsewhere a page with a link to the set-up page.
pub async fn setup_gate(State(app): State<Shared>, req: Request, next: Next) -> Response {
    if !app.setup.pending() || super::route::of(&req).before_setup {
        return next.run(req).await;
    }
    let api = req.uri().path().starts_with("/api/") || req.uri().path() == "/events";
    let mut res = if api {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, super::setup::NOT_SET_UP).into_response()
    } else {
        let body = format!(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Not set up yet</title>\n<link rel=\"stylesheet\" href=\"{}\">\n</head>\n<body>\n<main>\n<h1>Not set up yet</h1>\n<p class=\"error\" role=\"alert\">{}.</p>\n<p>The organiser opens the set-up link (or scans its \u{201c}set up\u{201d} QR code) to create the event; this page works once that is done.</p>\n</main>\n</body>\n</html>\n",
            crate::render::assets::url("app.css"),
            super::setup::NOT_SET_UP
        );
        (StatusCode::SERVICE_UNAVAILABLE, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
    };
    res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    res
}
