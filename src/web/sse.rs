//! Live updates: a watcher polls the event file every 250 ms and broadcasts what changed; `GET /events` sends
//! it to every phone as server-sent events. The command line writing to the same file shows up the same way.

use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::ops::live;
use crate::web::kit::error::ApiError;
use crate::web::kit::state::{Shared, Update};
use crate::web::kit::store::Db;
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::time::Duration;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

/// How often the watcher looks at the file.
const POLL: Duration = Duration::from_millis(250);

/// Starts the watcher thread: it keeps one connection whose `data_version` changes when anyone else commits,
/// and then reads the topics the writes since named (`ops::live::changes_since`).
pub fn watch(app: Shared) -> Result<()> {
    let store = app.open()?;
    let mut last = live::last_change(&store)?;
    let mut version = store.data_version()?;
    std::thread::Builder::new()
        .name("mmjudge-watch".into())
        .spawn(move || {
            loop {
                std::thread::sleep(POLL);
                let Ok(now) = store.data_version() else { continue };
                if now == version {
                    continue;
                }
                version = now;
                let Ok((id, changes)) = live::changes_since(&store, last) else { continue };
                last = id;
                for (id, name) in changes {
                    // No phone listening is not an error.
                    let _ = app.updates.send(Update { name, id });
                }
            }
        })
        .map_err(|e| Error::io("the live-update watcher", e))?;
    Ok(())
}

/// The most changes a reconnecting phone is sent again; further behind, it is told to reload everything.
const REPLAY: i64 = 500;

/// `GET /events` as routed: a phone beyond what the open-file limit holds (see [`crate::web::kit::files`]) gets
/// a quick 503 with `Retry-After` and the connection closed (its page's EventSource tries again later); the others
/// get [`events`], holding their place until the stream ends.
pub async fn live(db: Db, headers: HeaderMap) -> Response {
    let Some(place) = db.app().streams.take() else {
        let mut busy = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many phones on live updates right now: the page tries again by itself shortly",
        )
        .into_response();
        busy.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
        busy.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        return busy;
    };
    let (parts, body) = events(db, headers).await.into_response().into_parts();
    let held = body.into_data_stream().map(move |chunk| {
        let _held = &place;
        chunk
    });
    Response::from_parts(parts, Body::from_stream(held))
}

/// `GET /events`: server-sent events named `round`, `result`, `clock`, `call`, `note`, `self-report`, each with
/// the audit id of the change it reports as its `id:` (and data); `hello` first, with the latest audit id. A
/// phone reconnecting with `Last-Event-ID` is sent the changes it missed (one per name, as they come), or one
/// `round` (reload everything) when it is too far behind or its id is not this event's; so is a phone too slow
/// to keep up.
pub async fn events(db: Db, headers: HeaderMap) -> Sse<impl Stream<Item = std::result::Result<Event, Infallible>>> {
    // Listen first, then read: a change committed meanwhile is in both and sent once (ids only grow).
    let updates = db.app().updates.subscribe();
    let missed_since =
        headers.get("last-event-id").and_then(|v| v.to_str().ok()).map(|v| v.trim().parse::<i64>().map_err(|_| ()));
    let read = db
        .run(move |store| {
            let last = live::last_change(store)?;
            let missed = match missed_since {
                None => Some(Vec::new()),
                Some(Ok(after)) if after >= 0 && after <= last && last - after <= REPLAY => {
                    Some(live::changes_since(store, after)?.1)
                }
                Some(_) => None,
            };
            Ok((last, missed))
        })
        .await;
    // A fresh phone gets every change broadcast from now on (its page may be older than `hello`); a replay
    // skips what it already sent.
    let (floor, first) = match read {
        Ok((last, Some(missed))) => {
            let floor = if missed_since.is_some() { last } else { 0 };
            let mut first = vec![hello(last)];
            first.extend(missed.into_iter().map(|(id, name)| change(name, id)));
            (floor, first)
        }
        Ok((last, None)) => (last, vec![hello(last), reload()]),
        Err(_) => (0, vec![hello(0), reload()]),
    };
    let updates = BroadcastStream::new(updates).filter_map(move |u| match u {
        Ok(u) if u.id <= floor => None,
        Ok(u) => Some(Ok(change(u.name, u.id))),
        Err(_) => Some(Ok(reload())),
    });
    let first = tokio_stream::iter(first.into_iter().map(Ok));
    Sse::new(first.chain(updates)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

fn hello(last: i64) -> Event {
    Event::default().event("hello").id(last.to_string()).data(last.to_string())
}

fn change(name: &str, id: i64) -> Event {
    Event::default().event(name).id(id.to_string()).data(id.to_string())
}

/// Reload everything (no id: the phone keeps the last one it had).
fn reload() -> Event {
    Event::default().event(Topic::Round.as_str()).data("0")
}
