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
use axum::extract::{ConnectInfo, FromRequestParts, MatchedPath, Request};
use axum::http::Extensions;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::Response;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
