//! Running the second laptop's side of the server: the gate every write passes (refused 503 on a standby, waiting
//! for the standby with `--standby-required`), following the primary, and an old primary learning where the event
//! went. The state they share is [`super::replica::Replica`].

use super::state::Shared;
use crate::ops::standby::follow::Progress;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;
use tokio::sync::watch;

/// Whether a request writes (anything but a read; a login writes nothing on a standby: its session lives in
/// memory).
fn writes(req: &Request, following: bool) -> bool {
    let path = req.uri().path();
    // A login, and a table's sign-in (it checks a code and writes nothing), work on a standby too.
    let login = following && (path == "/api/login" || path == "/login" || path == "/api/player/code");
    !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        && !path.starts_with("/api/standby/")
        && !login
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
        let body = serde_json::json!({
            "error": format!("this is the event's second laptop: it shows the event but records nothing until a head judge puts it in charge; your page keeps what you did and sends it then (the first laptop is at {primary})"),
            "standby_of": primary,
        });
        return (StatusCode::SERVICE_UNAVAILABLE, axum::Json(body)).into_response();
    }
    let res = next.run(req).await;
    app.replica.wake();
    if !app.replica.required {
        return res;
    }
    let json = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !res.status().is_success() || !json {
        return res;
    }
    let db = app.db.clone();
    let seq = tokio::task::spawn_blocking(move || {
        let store = crate::store::Store::open(&db).ok()?;
        let s = store.read(crate::store::replication::state).ok()?;
        s.key_hash.is_some().then_some(s.seq)
    })
    .await
    .ok()
    .flatten();
    let Some(seq) = seq else { return res };
    let word = if app.replica.applied(seq).await { "applied" } else { "behind" };
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 1 << 24).await else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "the answer could not be read").into_response();
    };
    let mut doc: serde_json::Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(_) => return Response::from_parts(parts, axum::body::Body::from(bytes)),
    };
    if let Some(obj) = doc.as_object_mut() {
        obj.insert("standby".into(), serde_json::Value::String(word.into()));
    }
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(doc.to_string()))
}

/// Starts following the primary as its standby: waits for the first copy when the file does not exist yet
/// (refusing at once a wrong key, another event or another schema), then follows in the background, saying on
/// the terminal how far behind it is, until promoted.
pub async fn follow(app: Shared, follow: crate::ops::standby::follow::Follow) -> crate::error::Result<()> {
    let (tx, rx) = watch::channel(Progress::default());
    if let Ok(mut of) = app.replica.standby_of.lock() {
        *of = Some(follow.primary.text.clone());
    }
    if let Ok(mut p) = app.replica.progress.lock() {
        *p = Some(rx.clone());
    }
    let db = follow.db.clone();
    let primary = follow.primary.text.clone();
    let mut task = tokio::spawn(crate::ops::standby::follow::run(follow, tx));
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
    eprintln!("standby: following {primary}");
    tokio::spawn(report(rx));
    tokio::spawn(async move {
        match task.await {
            Ok(Ok(())) => {
                if let Ok(mut of) = app.replica.standby_of.lock() {
                    *of = None;
                }
                if let Ok(mut held) = app.replica.sessions.lock() {
                    held.clear();
                }
                eprintln!("standby: PROMOTED: this laptop is the primary now and takes writes (judges log in again)");
            }
            Ok(Err(e)) => eprintln!("standby: stopped following {primary}: {e}"),
            Err(e) => eprintln!("standby: stopped following {primary}: {e}"),
        }
    });
    Ok(())
}

/// Says on the terminal how far behind the standby is, when that changes (at most once a second).
async fn report(mut rx: watch::Receiver<Progress>) {
    let mut said = String::new();
    loop {
        if rx.changed().await.is_err() {
            return;
        }
        let p = rx.borrow_and_update().clone();
        if p.promoted {
            return;
        }
        let behind = (p.primary_seq - p.applied).max(0);
        let line = if !p.trouble.is_empty() {
            format!("standby: {} (last change applied: {})", p.trouble, p.applied)
        } else if behind == 0 {
            format!("standby: up to date (change {})", p.applied)
        } else {
            let ms = p.heard.map_or(0, |h| h.elapsed().as_millis());
            format!("standby: {behind} changes behind (primary last heard {ms} ms ago)")
        };
        if line != said && !(said.starts_with("standby: up to date") && line.starts_with("standby: up to date")) {
            eprintln!("{line}");
            said = line;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// On a primary: looks every two seconds at the address its standby advertised; when the standby there was
/// promoted (the same event, a later generation), this file takes no more writes and says where the event went.
pub fn watch_for_promotion_elsewhere(app: Shared) {
    tokio::spawn(async move {
        loop {
            let db = app.db.clone();
            let state = tokio::task::spawn_blocking(move || {
                crate::store::Store::open(&db).and_then(|s| s.read(crate::store::replication::state))
            })
            .await;
            if let Ok(Ok(s)) = &state
                && let Some(to) = &s.moved_to
            {
                if let Ok(mut m) = app.replica.moved_to.lock() {
                    *m = Some(to.clone());
                }
                return;
            }
            if let Ok(Ok(s)) = state
                && s.moved_to.is_none()
                && s.role == "primary"
                && let Some(url) = s.standby_url.clone()
                && let Ok(at) = crate::ops::standby::client::Url::parse(&url)
                && let Some(later) = promoted_at(&at, &s).await
            {
                let db = app.db.clone();
                let moved = tokio::task::spawn_blocking(move || {
                    let mut store = crate::store::Store::open(&db)?;
                    store.bookkeep(|tx| crate::store::replication::moved(tx, &later))
                })
                .await;
                if matches!(moved, Ok(Ok(()))) {
                    if let Ok(mut m) = app.replica.moved_to.lock() {
                        *m = Some(url.clone());
                    }
                    eprintln!(
                        "THE EVENT MOVED to {url} (its standby was promoted): this laptop takes no more writes; judges and phones go there"
                    );
                    return;
                }
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    });
}

/// The address of a promoted standby of this event at `url` (None: not promoted, not reachable, or not ours).
async fn promoted_at(
    url: &crate::ops::standby::client::Url,
    mine: &crate::store::replication::State,
) -> Option<String> {
    use crate::ops::standby::client;
    let asked =
        tokio::time::timeout(Duration::from_secs(2), client::send(url, "GET", "/api/standby/whoami", None, None));
    let res = asked.await.ok()?.ok()?;
    let v: serde_json::Value = serde_json::from_str(&client::text(res).await.ok()?).ok()?;
    let same = v.get("event").and_then(|e| e.as_str()) == Some(mine.event_id.as_str());
    let later = v.get("generation").and_then(|g| g.as_i64()).is_some_and(|g| g > mine.generation);
    let primary = v.get("role").and_then(|r| r.as_str()) == Some("primary");
    (same && later && primary).then(|| url.text.clone())
}

/// The largest page a notice is added to (larger ones are sent as they are).
const LARGEST_PAGE: usize = 1 << 24;

/// On a standby, and on an old primary whose event moved: every page (but the projector's) says so first thing in
/// its body, before anyone taps a button that cannot work here.
pub async fn notice(State(app): State<Shared>, req: Request, next: Next) -> Response {
    let words = match (app.replica.following(), app.replica.moved()) {
        (Some(primary), _) => format!(
            "This is the event&#39;s second laptop: it shows the event but records nothing until a head judge puts \
             it in charge. What you do here is kept on your phone and sent then. The first laptop is at \
             <a href=\"{0}\">{0}</a>.",
            escape(&primary)
        ),
        (None, Some(to)) => format!(
            "The event moved to <a href=\"{0}\">{0}</a>: this laptop&#39;s copy is old and records nothing. \
             Open the event there.",
            escape(&to)
        ),
        (None, None) => return next.run(req).await,
    };
    if req.uri().path() == "/projector" {
        return next.run(req).await;
    }
    let res = next.run(req).await;
    let html = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if !html || res.headers().contains_key(axum::http::header::CONTENT_ENCODING) {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, LARGEST_PAGE).await else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "the page could not be read").into_response();
    };
    let at = bytes
        .windows(5)
        .position(|w| w == b"<body")
        .and_then(|i| bytes[i..].iter().position(|b| *b == b'>').map(|j| i + j + 1));
    let Some(at) = at else {
        return Response::from_parts(parts, axum::body::Body::from(bytes));
    };
    let notice = format!("\n<p class=\"laptop-notice\" role=\"status\">{words}</p>");
    let mut page = Vec::with_capacity(bytes.len() + notice.len());
    page.extend_from_slice(&bytes[..at]);
    page.extend_from_slice(notice.as_bytes());
    page.extend_from_slice(&bytes[at..]);
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(page))
}

/// An address as HTML text.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
