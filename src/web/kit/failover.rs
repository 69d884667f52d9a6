//! Phones and the second laptop: a primary with a standby tells every page where the standby is (one
//! `<meta name="mmjudge-standby">` at the top of the page's head, with `failover.js` after it) and lets the pages
//! reach it (`connect-src`); every server answers CORS on the few routes a page uses there once the primary stops
//! answering: `GET /api/standby/whoami`, `GET /api/time` and the players' code writes it replays (no credentials:
//! a judge logs in again on the new primary). See docs/http.md, "Phones and the second laptop".

use super::layers;
use super::state::Shared;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::RwLock;
use std::time::Duration;

/// How long a page waits without an answer from the primary before it asks the standby
/// (`MMJUDGE_PRIMARY_TIMEOUT_MS` in tests).
pub const PRIMARY_TIMEOUT: Duration = Duration::from_secs(10);

/// The routes answered with CORS (any origin, no credentials): what a page asks the standby, and the writes a
/// player's page or a table's device replays there with a table code.
pub const CORS_ROUTES: [&str; 12] = [
    "/api/standby/whoami",
    "/api/time",
    "/api/note",
    "/api/note/undo",
    "/api/clock/start",
    "/api/clock/stop",
    "/api/clock/hand-over",
    "/api/clock/pass",
    "/api/self-report",
    "/api/self-report/confirm",
    "/api/check-in",
    "/api/call",
];

/// The standby a primary's pages are told about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standby {
    /// Its origin, `http://HOST:PORT` (no path, no trailing slash).
    pub origin: String,
    /// The event's id (the page checks the standby serves the same event).
    pub event: String,
}

/// What this server tells its pages about its standby.
pub struct Failover {
    standby: RwLock<Option<Standby>>,
    /// How long pages wait for the primary before asking the standby.
    pub timeout: Duration,
}

impl Default for Failover {
    fn default() -> Self {
        Failover { standby: RwLock::new(None), timeout: PRIMARY_TIMEOUT }
    }
}

impl Failover {
    /// The standby pages are told about, if any.
    pub fn standby(&self) -> Option<Standby> {
        self.standby.read().ok().and_then(|s| s.clone())
    }

    /// Takes what the event file says: the address its standby advertised (while this file is the primary and
    /// the event did not move). An address that is not a plain `http(s)://HOST[:PORT]` is not advertised.
    pub fn note(&self, s: &crate::store::replication::State) {
        let advertised = (s.role == "primary" && s.moved_to.is_none() && s.key_hash.is_some())
            .then_some(s.standby_url.as_deref())
            .flatten();
        self.set(advertised, &s.event_id);
    }

    /// Advertises `url` (None: no standby) for event `event`.
    pub fn set(&self, url: Option<&str>, event: &str) {
        let next = url.and_then(origin).map(|origin| Standby { origin, event: event.to_string() });
        if let Ok(mut s) = self.standby.write()
            && *s != next
        {
            *s = next;
        }
    }
}

/// `http://HOST[:PORT]` of an address, if it is one (letters, digits, dots, dashes, colons and brackets only:
/// it goes into a header and an HTML attribute as it is).
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let host = rest.split('/').next().unwrap_or("");
    let plain = host.chars().all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c));
    (!host.is_empty() && plain).then(|| format!("{scheme}://{host}"))
}

/// `MMJUDGE_PRIMARY_TIMEOUT_MS` (tests), else [`PRIMARY_TIMEOUT`].
pub fn primary_timeout() -> Duration {
    std::env::var("MMJUDGE_PRIMARY_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|ms| *ms > 0)
        .map_or(PRIMARY_TIMEOUT, Duration::from_millis)
}

/// The largest page the meta is added to (larger ones are sent as they are).
const LARGEST_PAGE: usize = 1 << 24;

/// On a primary with a standby: every answer's Content-Security-Policy lets pages reach the standby, and every
/// page's head starts with the standby's meta and `failover.js`.
pub async fn advertise(State(app): State<Shared>, req: Request, next: Next) -> Response {
    // A page served over HTTPS cannot reach a plain-HTTP standby (the browser blocks it): nothing is said.
    let secure = app.site.starts_with("https://");
    let Some(standby) = app.failover.standby().filter(|s| !secure || s.origin.starts_with("https://")) else {
        return next.run(req).await;
    };
    let res = next.run(req).await;
    let (mut parts, body) = res.into_parts();
    parts.headers.insert(header::CONTENT_SECURITY_POLICY, layers::csp(Some(&standby.origin)));
    let html = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if !html || parts.headers.contains_key(header::CONTENT_ENCODING) {
        return Response::from_parts(parts, body);
    }
    let Ok(bytes) = axum::body::to_bytes(body, LARGEST_PAGE).await else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "the page could not be read").into_response();
    };
    let Some(at) = bytes.windows(6).position(|w| w == b"<head>").map(|i| i + 6) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    let meta = format!(
        "\n<meta name=\"mmjudge-standby\" content=\"{}\" data-event=\"{}\" data-timeout-ms=\"{}\">\n<script src=\"{}\" defer></script>",
        standby.origin,
        standby.event,
        app.failover.timeout.as_millis(),
        crate::render::assets::url("failover.js"),
    );
    let mut page = Vec::with_capacity(bytes.len() + meta.len());
    page.extend_from_slice(&bytes[..at]);
    page.extend_from_slice(meta.as_bytes());
    page.extend_from_slice(&bytes[at..]);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(page))
}

/// CORS on [`CORS_ROUTES`] only: `Access-Control-Allow-Origin: *` (no credentials) on every answer, and a
/// preflight `OPTIONS` answered 204 with the methods and the headers a replayed write sends.
pub async fn cors(req: Request, next: Next) -> Response {
    if !CORS_ROUTES.contains(&req.uri().path()) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_address_is_advertised() {
        assert_eq!(origin("http://192.168.1.23:8080").as_deref(), Some("http://192.168.1.23:8080"));
        assert_eq!(origin("http://10.0.0.2:8080/").as_deref(), Some("http://10.0.0.2:8080"));
        assert_eq!(origin("http://[::1]:8080/x").as_deref(), Some("http://[::1]:8080"));
        assert_eq!(origin("http://a\"b:80"), None);
        assert_eq!(origin("ftp://a:80"), None);
        assert_eq!(origin("http://"), None);
    }
}
