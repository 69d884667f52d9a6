//! The second laptop's side of the server (its room is `crate::replica`; the state they share is
//! [`crate::replica::state::Replica`]): the gate every write passes, following a primary, an old primary
//! learning where the event went, and the watcher that keeps what pages are told of the standby ([`watch`]).
//!
//! The gate: on a standby every write is refused 503 (a phone's queue keeps it); an old primary whose event moved
//! answers 409 with where it went; a primary with `--standby-required` asks a standby it has not heard within the
//! lease where the event is before it takes a write (a laptop woken from sleep learns it was replaced). The
//! write's own runner then waits for the standby and says so in its answer (`crate::web::kit::door`).
//!
//! What phones are told of the second laptop (see [`crate::replica::failover`] and docs/http.md, "Phones and the
//! second laptop") is drawn by the pages themselves (`crate::web::kit::page::Laptop`); the layers that set the
//! standby's CSP and CORS are in [`crate::web::layers`].

use crate::replica::follower::Progress;
use crate::replica::peer::Asked;
use crate::web::kit::drawn::Deadline;
use crate::web::kit::request::Route;
use crate::web::kit::state::Shared;
use crate::web::kit::{page, state};
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;
use tokio::sync::watch;

/// The event file's replication state, read on a blocking thread (None when it cannot be read now).
pub async fn replication_state(app: &Shared) -> Option<crate::store::replication::State> {
    let db = app.db.clone();
    let read = tokio::task::spawn_blocking(move || {
        crate::store::Store::open(&db).and_then(|s| s.read(crate::store::replication::state))
    });
    read.await.ok()?.ok()
}

/// Whether a request writes (anything but a read; a login writes nothing on a standby: its session lives in
/// memory).
fn writes(req: &Request, following: bool) -> bool {
    let route = Route::of(req);
    // A login, and a table's sign-in (it checks a code and writes nothing), work on a standby too; the two
    // laptops' own routes pass.
    let checks_only = following && route.checks_only;
    !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) && !route.stream && !checks_only
}

/// On a standby: every write refused 503 `{"error", "standby_of"}` (a phone's queue keeps it and tries again).
/// On an old primary whose event moved: 409 with where it went. On a primary with `--standby-required`: a standby
/// not heard within the lease is asked first (see [`synchronous`]); the write's own runner then waits for the
/// standby (`crate::web::kit::door`).
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
        let form = crate::web::kit::request::is_form(req.headers());
        if (form || !req.uri().path().starts_with("/api/"))
            && let Ok(page) = page::error_page(
                &state::Db::new(&app),
                Deadline::after(app.request_limit),
                StatusCode::SERVICE_UNAVAILABLE,
                &error,
            )
            .await
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
        // The write's door wakes the standby's stream and the phones' watcher once it committed (`kit::door`).
        return next.run(req).await;
    }
    synchronous(app, req, next).await
}

/// On a primary with `--standby-required` (PostgreSQL's synchronous standby is the model): a standby not heard
/// within the lease is asked where the event is before the write is taken (a laptop woken from sleep learns it
/// was replaced: 409 with where the event went; no answer: 503 with `Retry-After`, the page keeps the write). The
/// wait for the standby to apply the write is its runner's (`crate::web::kit::door`).
async fn synchronous(app: Shared, mut req: Request, next: Next) -> Response {
    use crate::store::replication::{self, Role};
    let path = req.uri().path().to_string();
    // A login's session ends with a promotion anyway (judges log in again there).
    if Route::of(&req).session {
        return next.run(req).await;
    }
    let db = state::Db::of(req.extensions_mut(), &app);
    let page = !path.starts_with("/api/");
    // Fail closed: a write the standby must hold is not taken while this laptop cannot tell where it stands.
    let s = match db.run(|store| store.read(replication::state)).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(target: crate::replica::LOG, cause = e.cause.as_deref().unwrap_or(&e.message), "a write refused: the event file's replication state could not be read");
            return unavailable(&app, page, UNREADABLE).await;
        }
    };
    if let Some(to) = &s.moved_to {
        return moved_refusal(&app, page, to).await;
    }
    if s.role != Role::Primary || s.key_hash.is_none() {
        return next.run(req).await;
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
    // The write's own door waits for the standby and says so in its answer (`kit::door`).
    next.run(req).await
}

/// A write refused because the replication state could not be read.
const UNREADABLE: &str = "Not saved: this laptop cannot read where the event's second laptop stands, so nothing can be \
                          recorded for now. Your page keeps it and sends it again by itself; tell a head judge.";

/// 409: the event moved to `to` (the site's page for a page, else `{"error", "moved_to"}`).
async fn moved_refusal(app: &Shared, page: bool, to: &str) -> Response {
    let words = format!(
        "The event moved to {to}: this laptop's copy is old and records nothing. Open the event there; your page \
         sends what it kept there."
    );
    if page
        && let Ok(p) =
            page::error_page(&state::Db::new(app), Deadline::after(app.request_limit), StatusCode::CONFLICT, &words)
                .await
    {
        return p;
    }
    (StatusCode::CONFLICT, axum::Json(serde_json::json!({ "error": words, "moved_to": to }))).into_response()
}

/// 503 with `Retry-After: 2` and `words` (the site's page for a page, else `{"error", "standby": "not applied"}`).
async fn unavailable(app: &Shared, page: bool, words: &str) -> Response {
    let mut res = if page
        && let Ok(p) = page::error_page(
            &state::Db::new(app),
            Deadline::after(app.request_limit),
            StatusCode::SERVICE_UNAVAILABLE,
            words,
        )
        .await
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
            let state = replication_state(&app).await;
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
