//! What the router wraps every request in (the order is `web::routes`'s): each route's row put on its request
//! ([`facts`]), the request log, the headers every answer gets, the time limit, the error pages, the device cookie,
//! a keyed write's first arrival, the gate of an event not set up yet, CORS and the standby's CSP, and the
//! ETags' 304s with compression.
//!
//! The time limit ([`timeout`]): a request is answered 503 ("the server took too long on this request: try
//! again") once it has taken the request limit (10 s), the live stream, the site's zip and uploads excepted. The
//! limit's end is the request's deadline, put on it for its handler: pages and prints are drawn in the blocking
//! pool, and their drawing checks the deadline every few KB and stops there (see [`crate::web::kit::drawn`]), so
//! the limit holds for every page and print and no thread goes on drawing after its request was answered.
//!
//! The request log: one line per request on the server's terminal (stderr), with the time, the phone's address,
//! the method, the route (its pattern, such as `/judge/table/{n}`), the status, the milliseconds taken and who
//! asked (a judge's name, a player's name, or nobody); a 5xx is written as an error with its cause, except a 503
//! (the server busy: a storm of logins, live streams beyond the limit), which is counted and written as one summary
//! warning a second at most (`503 busy: N answers in the last second from M addresses, e.g. CAUSE`), so that a
//! storm does not flood the terminal, even under `serve --quiet`. `RUST_LOG` chooses what is written as usual
//! (default `warn,mmjudge=info`); `serve --quiet` leaves out the lines of requests that went well (target
//! [`REQUESTS`] below `warn`), and keeps the failures. The laptops' routine calls to each other that went well
//! are written at debug level only.
//!
//! The error pages: every refused request in the site's own form, whoever refused it (a handler, an extractor, the
//! router), from what the answer said ([`Said`]), never from its body.
//!
//! What a phone need not be sent again: every read carries the ETag its handler made (see
//! [`crate::web::kit::drawn::Tag`]); [`not_modified`] compares it with the phone's `If-None-Match` and answers 304,
//! or puts the page's kept bytes in the encoding the phone takes in place of the answer's body (unread; compressed
//! in the blocking pool the first time a phone takes them so, within the request's deadline); the
//! compression layers (tower-http's: brotli at level 4, gzip at level 6, because brotli's default 11 takes seconds
//! per page on two cores) leave an answer already encoded as it is.
//!
//! No layer reads or rewrites a body: each sets headers, or answers in the handler's place.

use crate::web::kit::drawn::{self, Deadline, Drawn, Encoding, limit_words};
use crate::web::kit::request::{ApiError, Said, rejection_message};
use crate::web::kit::request::{Route, Who};
use crate::web::kit::state::{Db, Shared};
use crate::web::kit::{auth, extract, jobs, page, state};
use axum::body::Body;
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tower_http::compression::{CompressionLayer, CompressionLevel};

/// Headers on every answer: nothing loaded from elsewhere, no framing, no sniffing, no referrer.
pub async fn headers(req: Request, next: Next) -> Response {
    let route = Route::of(&req);
    let private = route.judges || auth::cookie(req.headers(), auth::COOKIE).is_some();
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

/// The device cookie (see [`crate::web::kit::auth`]): a write's request carries its hash to the handler; a write that
/// came without one and succeeded is answered with a new one, so that the device is known from its first
/// success (a login, a player signing in). A player's page (`/me`, `/table/N`) loaded without one is given one
/// too, so that a phone whose first write is a confirmation of a self-report comes known by its cookie (a
/// confirmation without one is refused). Other reads pass untouched.
pub async fn device(mut req: Request, next: Next) -> Response {
    if req.method() != axum::http::Method::POST {
        let players_page = matches!(Route::of(&req).path, "/me" | "/table/{n}");
        let fresh = req.method() == axum::http::Method::GET
            && players_page
            && auth::cookie(req.headers(), auth::DEVICE_COOKIE).filter(|t| auth::is_token(t)).is_none();
        let mut res = next.run(req).await;
        let page = res
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/html"));
        if fresh
            && page
            && res.status() == StatusCode::OK
            && let Ok(v) = HeaderValue::from_str(&auth::set_cookie(&auth::new_login_token()))
        {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
        return res;
    }
    let sent = auth::cookie(req.headers(), auth::DEVICE_COOKIE);
    let (token, new) = match sent.filter(|t| auth::is_token(t)) {
        Some(t) => (t, false),
        None => (auth::new_login_token(), true),
    };
    req.extensions_mut().insert(auth::Device(auth::hash(&token)));
    if new {
        req.extensions_mut().insert(auth::NewDevice);
    }
    let mut res = next.run(req).await;
    if new
        && (res.status().is_success() || res.status().is_redirection())
        && let Ok(v) = HeaderValue::from_str(&auth::set_cookie(&token))
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

/// A request that takes longer than the request limit (`App::request_limit`, 10 s) is answered 503 (but the site
/// as a zip, and an upload: a large file takes its time to arrive, and the work on it is a job of its own). The
/// limit's end is put on the request as its [`Deadline`], which its pages' drawing checks (see
/// [`crate::web::kit::drawn`]): a page too long to draw stops its thread's work at the same moment, instead of
/// running on in the blocking pool after this answer. `MMJUDGE_REQUEST_TIMEOUT_MS` sets another limit (tests).
pub async fn timeout(State(app): State<Shared>, mut req: Request, next: Next) -> Response {
    let route = Route::of(&req);
    if route.unlimited || (req.method() == axum::http::Method::POST && route.upload) {
        return next.run(req).await;
    }
    let limit = app.request_limit;
    let deadline = Deadline::after(limit);
    req.extensions_mut().insert(deadline);
    let Some(at) = deadline.at() else { return next.run(req).await };
    match tokio::time::timeout_at(at.into(), next.run(req)).await {
        Ok(res) => res,
        Err(_) => ApiError::too_long(format!("the request took longer than {}", limit_words(limit))).into_response(),
    }
}

/// The request limit: `MMJUDGE_REQUEST_TIMEOUT_MS` milliseconds (tests shorten it), else 10 s.
pub fn request_limit() -> Duration {
    std::env::var(REQUEST_LIMIT_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|ms| *ms > 0)
        .map_or(crate::web::kit::request::REQUEST_LIMIT, Duration::from_millis)
}

/// The environment variable that sets the request limit in milliseconds (tests use a short one).
pub const REQUEST_LIMIT_ENV: &str = "MMJUDGE_REQUEST_TIMEOUT_MS";

/// Every refused request in the site's own form, whatever answered it (a handler, an extractor refusing a query
/// string, a path or a body, or the router refusing a method): under `/api/` the JSON `{"error": "one line"}`
/// (a page's form excepted), elsewhere the HTML page with the site's navigation, each with the same status and the same one line. The line
/// is the one the answer said ([`Said`]); the answer's body is never read again.
pub async fn error_pages(State(app): State<Shared>, mut req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    // A page's form (under /api/ too) is answered with a page: the browser shows it, never bare JSON.
    let form = crate::web::kit::request::is_form(req.headers());
    // The request's store, also for its error page, drawn within the request's deadline.
    let db = Db::of(req.extensions_mut(), &app);
    let deadline = Deadline::of(req.extensions());
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
        match page::error_page(&db, deadline, status, &message).await {
            Ok(page) if page.status() == status => page,
            // Not drawn within the request's deadline: the time limit's own answer.
            Ok(too_long) => return too_long,
            Err(_) => ApiError::new(status, message).into_response(),
        }
    };
    let (fresh_parts, body) = fresh.into_parts();
    parts.headers.extend(fresh_parts.headers);
    Response::from_parts(parts, body)
}

/// The layer: a `POST` on a route that takes a moment, sent with its `Idempotency-Key`, is told its key's first
/// arrival ([`crate::web::kit::state::FirstArrival`]): the one kept from an earlier try, else its own. Only a try
/// answered 503 (the server busy, the standby not applied, this laptop not in charge) is kept, with its status: a
/// try refused for its content, its state or its credentials, or held back (429) for its sender's own pace,
/// leaves no arrival, so that no refused try claims a moment for a later one.
pub async fn first_arrival(
    State(app): axum::extract::State<state::Shared>,
    mut req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let route = Route::of(&req);
    let mut try_of = None;
    if req.method() == axum::http::Method::POST && route.at.is_some() {
        let key = req.headers().get(extract::HEADER).and_then(|v| v.to_str().ok()).map(str::to_string);
        if let (Some(key), Ok(now)) = (key, crate::time::now()) {
            let kept = app.arrivals.lock().ok().and_then(|a| a.kept(route.name, &key));
            let first = match kept {
                Some((at, status)) => state::FirstArrival { at, kept: Some(status) },
                None => state::FirstArrival { at: now, kept: None },
            };
            req.extensions_mut().insert(first);
            try_of = kept.is_none().then_some((key, now));
        }
    }
    let res = next.run(req).await;
    if let Some((key, now)) = try_of
        && res.status() == StatusCode::SERVICE_UNAVAILABLE
        && let Ok(mut a) = app.arrivals.lock()
    {
        a.keep(route.name, &key, now, StatusCode::SERVICE_UNAVAILABLE.as_u16(), Instant::now());
    }
    res
}

/// While the event is not set up, every address but the set-up's is answered 503 with [`crate::web::kit::jobs::NOT_SET_UP`] (`serve --new`): the JSON
/// `{"error"}` under `/api/`, elsewhere a page with a link to the set-up page.
pub async fn setup_gate(State(app): State<Shared>, req: Request, next: Next) -> Response {
    if !app.setup.pending() || Route::of(&req).before_setup {
        return next.run(req).await;
    }
    let api = req.uri().path().starts_with("/api/") || req.uri().path() == "/events";
    let mut res = if api {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, jobs::NOT_SET_UP).into_response()
    } else {
        let body = format!(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Not set up yet</title>\n<link rel=\"stylesheet\" href=\"{}\">\n</head>\n<body>\n<main>\n<h1>Not set up yet</h1>\n<p class=\"error\" role=\"alert\">{}.</p>\n<p>The organiser opens the set-up link (or scans its \u{201c}set up\u{201d} QR code) to create the event; this page works once that is done.</p>\n</main>\n</body>\n</html>\n",
            crate::render::assets::url("app.css"),
            jobs::NOT_SET_UP
        );
        (StatusCode::SERVICE_UNAVAILABLE, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
    };
    res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    res
}

/// CORS on the routes pages use on the standby only (see [`Route::cors`]): `Access-Control-Allow-Origin: *` (no credentials) on every answer, and a
/// preflight `OPTIONS` answered 204 with the methods and the headers a replayed write sends.
pub async fn cors(req: Request, next: Next) -> Response {
    if !Route::of(&req).cors {
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

/// On a primary with a standby: every answer's Content-Security-Policy lets pages reach the standby (its pages
/// name it themselves, see [`crate::web::kit::page::Laptop`]). Only a header is set: no body is read.
pub async fn advertise(State(app): State<Shared>, req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    // Read after the page is drawn: a standby heard of while it was drawn is in the page's meta, so it is in the
    // policy too (read before, a page could name a standby its policy did not let it reach).
    if let Some(standby) = page::Laptop::of(&app).standby {
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, csp(Some(&standby.origin)));
    }
    res
}

/// The outermost layer: puts the request's [`Route`] on it, for every layer and extractor inside: the row of the
/// route axum's router matched (`MatchedPath`). Every layer of the router is added with `Router::layer`, which
/// runs after routing (axum 0.8's `Router::layer`: "Middleware added with this method will run after routing"), so
/// the match is there; an address that is no route (the fallback) has none, and is [`Route::UNKNOWN`].
pub async fn facts(mut req: Request, next: Next) -> Response {
    let matched = req.extensions().get::<MatchedPath>().and_then(|m| Route::matched(m.as_str()));
    let route = matched.copied().unwrap_or(Route::UNKNOWN);
    req.extensions_mut().insert(route);
    next.run(req).await
}

/// The target of the request lines.
pub const REQUESTS: &str = "mmjudge::request";

/// What is logged without `RUST_LOG`.
const DEFAULT_FILTER: &str = "warn,mmjudge=info";

/// Starts writing the log to stderr (once per process; later calls change nothing). `quiet` leaves out the
/// lines of requests that went well.
pub fn init(quiet: bool) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{EnvFilter, Layer, filter, fmt};
    let chosen = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    // Only ever less than RUST_LOG chooses: the request lines below warnings.
    let quieter =
        filter::filter_fn(move |meta| !(quiet && meta.target() == REQUESTS && *meta.level() > tracing::Level::WARN));
    let lines = fmt::layer().with_writer(std::io::stderr).with_filter(quieter);
    let _ = tracing_subscriber::registry().with(chosen).with(lines).try_init();
}

/// Logs every request once its answer is ready (for `/events`, once the stream starts).
pub async fn requests(mut req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let route = match req.extensions().get::<MatchedPath>() {
        Some(matched) => matched.as_str().to_string(),
        None => req.uri().path().to_string(),
    };
    let chatter = Route::of(&req).chatter;
    let addr = match req.extensions().get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(addr)) => addr.ip().to_string(),
        None => "-".to_string(),
    };
    let who = Who::default();
    req.extensions_mut().insert(who.clone());
    let res = next.run(req).await;
    let ms = start.elapsed().as_millis() as u64;
    let status = res.status().as_u16();
    let who = who.name();
    if res.status() == axum::http::StatusCode::SERVICE_UNAVAILABLE {
        let said = res.extensions().get::<Said>();
        let cause = said.and_then(|s| s.cause.clone().or_else(|| Some(s.message.clone())));
        busy(addr, cause.unwrap_or_else(|| "no cause given".to_string()));
    } else if res.status().is_server_error() {
        let said = res.extensions().get::<Said>();
        let cause = said.and_then(|s| s.cause.clone().or_else(|| Some(s.message.clone())));
        let cause = cause.unwrap_or_else(|| "no cause given".to_string());
        tracing::error!(target: REQUESTS, %addr, %method, %route, status, ms, who, cause);
    } else if chatter && res.status().is_success() {
        tracing::debug!(target: REQUESTS, %addr, %method, %route, status, ms, who);
    } else {
        tracing::info!(target: REQUESTS, %addr, %method, %route, status, ms, who);
    }
    res
}

/// The 503s of the current second: how many, from which addresses, and the first one's cause.
#[derive(Default)]
struct Busy {
    answers: u64,
    addresses: std::collections::HashSet<String>,
    cause: String,
}

static BUSY: Mutex<Option<Busy>> = Mutex::new(None);

/// Counts a 503; the first of a second starts the second, at whose end one summary line is written.
fn busy(addr: String, cause: String) {
    let mut held = BUSY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let first = held.is_none();
    let now = held.get_or_insert_with(|| Busy { cause, ..Busy::default() });
    now.answers += 1;
    now.addresses.insert(addr);
    if first {
        tokio::spawn(async {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            let ended = BUSY.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
            if let Some(b) = ended {
                let (answers, addresses, cause) = (b.answers, b.addresses.len(), b.cause);
                tracing::warn!(target: REQUESTS, status = 503, answers, addresses, "busy in the last second, e.g. {cause}");
            }
        });
    }
}

/// Which of a page's kept bytes the phone takes (`Accept-Encoding`): brotli, else gzip, else plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Takes {
    Br,
    Gzip,
    Plain,
}

fn takes(headers: &HeaderMap) -> Takes {
    let mut out = Takes::Plain;
    for v in headers.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()) {
        for token in v.split(',') {
            let mut parts = token.split(';');
            let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let refused =
                parts.any(|p| p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()) == Some(0.0));
            match (name.as_str(), refused) {
                ("br", false) => return Takes::Br,
                ("gzip", false) => out = Takes::Gzip,
                _ => {}
            }
        }
    }
    out
}

/// Whether `If-None-Match` names `tag` (or is `*`); weak comparison, as a GET's is.
fn matches(headers: &HeaderMap, tag: &str) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim() == "*" || bare(t) == bare(tag)))
}

/// Answers 304 (its body dropped unread) when a read's answer carries the tag the phone names in `If-None-Match`;
/// else puts a drawn page's kept bytes in the encoding the phone takes in place of its body (unread).
pub async fn not_modified(req: Request, next: Next) -> Response {
    let go = matches!(*req.method(), Method::GET | Method::HEAD) && Route::of(&req).etag;
    let mut asked = HeaderMap::new();
    if go {
        for v in req.headers().get_all(header::IF_NONE_MATCH) {
            asked.append(header::IF_NONE_MATCH, v.clone());
        }
    }
    let encoding = takes(req.headers());
    let res = next.run(req).await;
    let tag = res.headers().get(header::ETAG).and_then(|v| v.to_str().ok());
    if res.status() != StatusCode::OK || !tag.is_some_and(|tag| matches(&asked, tag)) {
        return encoded(res, encoding).await;
    }
    let (mut parts, _unread) = res.into_parts();
    parts.status = StatusCode::NOT_MODIFIED;
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::empty())
}

/// A drawn page's answer with the kept bytes the phone takes as its body (compressed in the blocking pool the
/// first time, within the request's deadline: 503 past it); any other answer as it is.
async fn encoded(mut res: Response, takes: Takes) -> Response {
    let Some(drawn) = res.extensions_mut().remove::<std::sync::Arc<Drawn>>() else { return res };
    let deadline = Deadline::of(res.extensions());
    let (encoding, name) = match takes {
        Takes::Br => (Encoding::Br, "br"),
        Takes::Gzip => (Encoding::Gzip, "gzip"),
        Takes::Plain => return with_body(res, drawn.plain.clone(), None),
    };
    let plain = drawn.plain.clone();
    match drawn.compressed(encoding, deadline).await {
        Ok(Ok(bytes)) => with_body(res, bytes, Some(name)),
        // A page that could not be compressed goes plain.
        Ok(Err(_)) => with_body(res, plain, None),
        Err(too_long) => too_long.into_response(),
    }
}

/// The answer `res` with `bytes` as its body, encoded as `name` says.
fn with_body(mut res: Response, bytes: axum::body::Bytes, name: Option<&'static str>) -> Response {
    let headers = res.headers_mut();
    if let Some(name) = name {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(name));
    }
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
    headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    *res.body_mut() = Body::from(bytes);
    res
}

/// Brotli at [`crate::web::kit::drawn::BROTLI_LEVEL`] (the inner layer); an answer it compressed passes the gzip layer as it is.
pub fn brotli() -> CompressionLayer {
    CompressionLayer::new().no_gzip().no_deflate().no_zstd().quality(CompressionLevel::Precise(drawn::BROTLI_LEVEL))
}

/// Gzip at [`crate::web::kit::drawn::GZIP_LEVEL`], for phones that take no brotli.
pub fn gzip() -> CompressionLayer {
    CompressionLayer::new().no_br().no_deflate().no_zstd().quality(CompressionLevel::Precise(drawn::GZIP_LEVEL))
}

#[cfg(test)]
mod tests {
    use crate::web::kit::drawn::Tag;
    use crate::web::layers::{Takes, matches, takes};
    use axum::http::{HeaderMap, HeaderValue, header};

    #[test]
    fn if_none_match_compares_weakly_and_takes_lists_and_star() {
        let tag = Tag::of_bytes(b"pairings");
        let tag = tag.as_str();
        let mut h = HeaderMap::new();
        assert!(!matches(&h, tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(&format!("\"x\", {tag}")).unwrap());
        assert!(matches(&h, tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(tag.trim_start_matches("W/")).unwrap());
        assert!(matches(&h, tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("*"));
        assert!(matches(&h, tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("W/\"other\""));
        assert!(!matches(&h, tag));
        assert_ne!(Tag::of_bytes(b"a"), Tag::of_bytes(b"b"));
    }

    #[test]
    fn the_encoding_a_phone_takes_is_read_from_accept_encoding() {
        let of = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(v).unwrap());
            takes(&h)
        };
        assert_eq!(of("gzip, deflate, br"), Takes::Br);
        assert_eq!(of("gzip"), Takes::Gzip);
        assert_eq!(of("br;q=0, gzip;q=0.5"), Takes::Gzip);
        assert_eq!(of("identity"), Takes::Plain);
        assert_eq!(takes(&HeaderMap::new()), Takes::Plain);
    }
}
