//! Each route's row put on its request ([`Route`], [`facts`]), and the request log.
//!
//! What is true of a route ([`Route`]), and the request's route put on it by the outermost layer ([`facts`]) for
//! every layer and extractor inside. The table itself, with each route's handler, is the router's
//! (`web::routes`), registered here once.
//!
//! The request log: one line per request on the server's terminal (stderr), with the time, the phone's address,
//! the method, the route (its pattern, such as `/judge/table/{n}`), the status, the milliseconds taken and who
//! asked (a judge's name, a player's name, or nobody); a 5xx is written as an error with its cause, except a 503
//! (the server busy: a storm of logins, live streams beyond the limit), which is counted and written as one summary
//! warning a second at most (`503 busy: N answers in the last second from M addresses, e.g. CAUSE`), so that a
//! storm does not flood the terminal, even under `serve --quiet`.
//!
//! `RUST_LOG` chooses what is written as usual (default `warn,mmjudge=info`); `serve --quiet` leaves out the
//! lines of requests that went well (target [`REQUESTS`] below `warn`), and keeps the failures. The laptops'
//! routine calls to each other that went well are written at debug level only.

use super::error::Said;
use crate::ops::write_keys::Timed;
use axum::extract::{ConnectInfo, FromRequestParts, MatchedPath, Request};
use axum::http::Extensions;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::Response;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// A route: its address (`{n}` stands for one segment), the name its writes are audited and keyed under, and
/// what is true of it.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// The address, as the router takes it.
    pub path: &'static str,
    /// `POST /api/result`: how its writes are named in the audit and scope their keys (an alias, such as
    /// `/api/clock/pass`, is named as the route it stands for).
    pub name: &'static str,
    /// Its reads carry an ETag and answer 304.
    pub etag: bool,
    /// Pages on the standby reach it across origins (CORS, no credentials).
    pub cors: bool,
    /// A write replayed from a page's queue may claim the moment it was made, as this kind of timed write.
    pub at: Option<Timed>,
    /// It takes a file as its body (outside the body and time limits).
    pub upload: bool,
    /// It may take longer than the request limit (the site as a zip).
    pub unlimited: bool,
    /// A judge's own (a shared cache keeps none of it).
    pub judges: bool,
    /// A login or logout: a session, not a change of the event (taken on a standby when it is a login; never
    /// waited for the standby).
    pub session: bool,
    /// It writes nothing though it is a POST (a table's sign-in checks a code): taken on a standby too.
    pub checks_only: bool,
    /// The two laptops' routine calls: logged at debug when they go well.
    pub chatter: bool,
    /// It answers before the event is set up (`serve --new`).
    pub before_setup: bool,
    /// Streamed for its whole life (the live events, the standby's routes): outside compression and ETags.
    pub stream: bool,
}

impl Route {
    pub const fn new(path: &'static str, name: &'static str) -> Route {
        Route {
            path,
            name,
            etag: false,
            cors: false,
            at: None,
            upload: false,
            unlimited: false,
            judges: false,
            session: false,
            checks_only: false,
            chatter: false,
            before_setup: false,
            stream: false,
        }
    }

    /// What a request to an address that is no route is (a mistyped page: its 404 is a page).
    pub const UNKNOWN: Route = Route::new("", "");
}

/// A page or a read: an ETag.
pub const fn read(path: &'static str) -> Route {
    Route { etag: true, ..Route::new(path, path) }
}

/// A judge's page or read: an ETag, kept by no shared cache.
pub const fn judges_read(path: &'static str) -> Route {
    Route { judges: true, ..read(path) }
}

/// A write (`name`: `POST` and its path).
pub const fn write(path: &'static str, name: &'static str) -> Route {
    Route::new(path, name)
}

/// A write a page on the standby may replay there with a table code.
pub const fn cors_write(path: &'static str, name: &'static str) -> Route {
    Route { cors: true, ..write(path, name) }
}

/// A write that may claim its moment (and be replayed on the standby).
pub const fn timed(path: &'static str, name: &'static str, at: Timed) -> Route {
    Route { at: Some(at), ..cors_write(path, name) }
}

/// An import: a file as its body.
pub const fn upload(path: &'static str, name: &'static str) -> Route {
    Route { upload: true, ..write(path, name) }
}

/// A login or logout.
pub const fn session(path: &'static str, name: &'static str) -> Route {
    Route { session: true, ..write(path, name) }
}

/// The standby's routes: streamed, outside compression.
pub const fn laptops(path: &'static str) -> Route {
    Route { stream: true, ..Route::new(path, path) }
}

/// Every route (without its handler), as the router's table registered it.
static ROUTES: OnceLock<Vec<Route>> = OnceLock::new();

/// Registers the routes table (the router does, once; the table is the same for every router).
pub fn register(routes: Vec<Route>) {
    let _ = ROUTES.set(routes);
}

/// Every route, once a router registered them (the server builds its router before it answers anything; code
/// that runs without one reads `web::routes::routes()`).
pub fn all() -> &'static [Route] {
    ROUTES.get().map_or(&[], Vec::as_slice)
}

/// The route that answers `path`, if any (`{n}` matches one segment).
pub fn route_of(path: &str) -> Option<&'static Route> {
    let asked: Vec<&str> = path.split('/').collect();
    all().iter().find(|r| {
        let mut parts = r.path.split('/');
        let same = asked.iter().all(|a| parts.next().is_some_and(|p| p == *a || (p.starts_with('{') && !a.is_empty())));
        same && parts.next().is_none()
    })
}

/// The routes whose replayed writes may claim their moment, as one attribute's value (`data-takes-at` on every
/// page's `<body>`, read by `queue.js`).
pub fn takes_at_list() -> String {
    all().iter().filter(|r| r.at.is_some()).map(|r| r.path).collect::<Vec<_>>().join(" ")
}

/// The request's [`Route`] (as the outermost layer found it; [`Route::UNKNOWN`] for an address that is none).
pub fn of(req: &Request) -> Route {
    on(req.extensions())
}

/// The [`Route`] a request's extensions hold (for extractors, which see the request's parts).
pub fn on(extensions: &axum::http::Extensions) -> Route {
    extensions.get::<Route>().copied().unwrap_or(Route::UNKNOWN)
}

/// The outermost layer: puts the request's [`Route`] on it, for every layer and extractor inside.
pub async fn facts(mut req: Request, next: Next) -> Response {
    let route = route_of(req.uri().path()).copied().unwrap_or(Route::UNKNOWN);
    req.extensions_mut().insert(route);
    next.run(req).await
}

/// A handler's own route (as the outermost layer found it).
impl<S: Send + Sync> FromRequestParts<S> for Route {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(on(&parts.extensions))
    }
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

/// Who asked, as the extractors learn it (a judge's session, a player's code); `nobody` until then.
#[derive(Debug, Clone, Default)]
pub struct Who(Arc<Mutex<Option<String>>>);

impl Who {
    /// Records who asked, for the request's log line (nothing when the request is not logged).
    pub fn set(extensions: &Extensions, name: impl Into<String>) {
        if let Some(Who(slot)) = extensions.get::<Who>()
            && let Ok(mut held) = slot.lock()
        {
            *held = Some(name.into());
        }
    }

    /// Records who asked through this request's slot.
    pub fn is(&self, name: impl Into<String>) {
        if let Ok(mut held) = self.0.lock() {
            *held = Some(name.into());
        }
    }

    fn name(&self) -> String {
        self.0.lock().ok().and_then(|held| held.clone()).unwrap_or_else(|| "nobody".to_string())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Who {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<Who>().cloned().unwrap_or_default())
    }
}

/// Logs every request once its answer is ready (for `/events`, once the stream starts).
pub async fn requests(mut req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let route = match req.extensions().get::<MatchedPath>() {
        Some(matched) => matched.as_str().to_string(),
        None => req.uri().path().to_string(),
    };
    let chatter = super::route::of(&req).chatter;
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
