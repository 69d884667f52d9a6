//! Live updates: a watcher looks at the event file on every write of this server and every 250 ms at least, and
//! broadcasts what changed; `GET /events` sends it to every phone as server-sent events. The command line writing
//! to the same file shows up the same way.
//!
//! Each event's data is JSON `{"id", "topic", "round"?, "table"?, "player"?, "row"?}`: the audit id, the topic
//! (the event's name) and where it changed; a result at a table of the current round also carries the table's
//! new row of the pairings as HTML, whether the table has a result now (`done`) and the round's `finished` and
//! `tables` counts, so that a phone on `/pairings` or the projector fetches nothing. The data is made once per
//! change, on the watcher's thread, for every phone.

use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::ops::live::{self, TableView};
use crate::store::{Store, Touched};
use crate::web::kit::request::{ApiError, blocking};
use crate::web::kit::state::{Shared, Update};
use askama::Template;
use axum::body::Body;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::time::Duration;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

/// How long the watcher lets a write's answer go out before it tells the phones of the write.
const AFTER_ANSWER: Duration = Duration::from_millis(5);

/// How often the watcher looks at the file at least (a write of this server wakes it at once).
const POLL: Duration = Duration::from_millis(250);

/// The most changes told one by one, to a reconnecting phone or in one look at the file; beyond, one `round`
/// event (reload everything).
const REPLAY: usize = 64;

/// Starts the watcher thread: it keeps one connection whose `data_version` changes when anyone else commits,
/// and then reads what the writes since touched (`ops::live::touched_since`).
pub fn watch(app: Shared) -> Result<()> {
    let store = app.open()?;
    let mut last = live::last_change(&store)?;
    let mut version = store.data_version()?;
    // The server's runtime, which the watcher waits on between the streams' shards (see `kit::state`).
    let runtime = tokio::runtime::Handle::try_current().ok();
    std::thread::Builder::new()
        .name("mmjudge-watch".into())
        .spawn(move || {
            // The last failure told on the terminal: a failure is told with its cause once, not at every look.
            let mut told = String::new();
            let replica = app.replica.clone();
            let mut trouble = |what: &str, e: &Error| {
                replica.failed();
                let now = format!("{what}: {e}");
                if now != told {
                    tracing::error!(cause = %e, "the live-update watcher could not {what}: phones are not told of changes until it can");
                    told = now;
                }
            };
            loop {
                // A write of this server wakes it at once (the signal that wakes the standby's feed too), a moment
                // after the write's own answer left (the fan-out to every phone does not hold it up); the command
                // line's writes it sees at its next look.
                if app.replica.wait_for_write(POLL) {
                    std::thread::sleep(AFTER_ANSWER);
                }
                let now = match store.data_version() {
                    Ok(now) => now,
                    Err(e) => {
                        trouble("read the event file's version", &e);
                        continue;
                    }
                };
                if now == version {
                    continue;
                }
                let (id, changes) = match live::touched_since(&store, last, REPLAY) {
                    Ok(touched) => touched,
                    Err(e) => {
                        // Looked at again next time (the version is not taken as seen).
                        trouble("read what the last writes changed", &e);
                        continue;
                    }
                };
                version = now;
                last = id;
                let updates = match changes {
                    Some(changes) => updates_of(&store, changes),
                    None => vec![reload_update(id)],
                };
                app.updates.send_all(&updates, runtime.as_ref());
            }
        })
        .map_err(|e| Error::io("the live-update watcher", e))?;
    Ok(())
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/pairing_row.html")]
struct PairingRow<'a> {
    t: &'a TableView,
}

/// The events for these changes, their data made once: a result at a table of the current round with the
/// table's row.
fn updates_of(store: &Store, changes: Vec<(i64, Touched)>) -> Vec<Update> {
    let results = changes.iter().any(|(_, t)| t.topic == Topic::Result && t.table.is_some());
    let tables = if results {
        crate::time::now().and_then(|now| live::tables(store, now)).unwrap_or_default()
    } else {
        Vec::new()
    };
    let finished = tables.iter().filter(|v| v.result.is_some()).count();
    changes
        .into_iter()
        .map(|(id, t)| {
            let view = (t.topic == Topic::Result)
                .then(|| tables.iter().find(|v| Some(v.table) == t.table && Some(v.round) == t.round))
                .flatten();
            let mut data = data_of(id, &t, view.and_then(|v| PairingRow { t: v }.render().ok()));
            if let Some(v) = view {
                data["done"] = v.result.is_some().into();
                data["finished"] = finished.into();
                data["tables"] = tables.len().into();
            }
            Update { name: t.topic.as_str(), id, data: data.to_string().into() }
        })
        .collect()
}

/// An event's data: `{"id", "topic", "round"?, "table"?, "player"?, "row"?}`.
pub fn data_of(id: i64, t: &Touched, row: Option<String>) -> serde_json::Value {
    let mut v = serde_json::json!({ "id": id, "topic": t.topic.as_str() });
    if let Some(r) = t.round {
        v["round"] = r.into();
    }
    if let Some(n) = t.table {
        v["table"] = n.into();
    }
    if let Some(p) = t.player {
        v["player"] = p.0.into();
    }
    if let Some(row) = row {
        v["row"] = row.into();
    }
    v
}

/// Reload everything: a `round` event with no subject.
fn reload_update(id: i64) -> Update {
    Update {
        name: Topic::Round.as_str(),
        id,
        data: data_of(id, &Touched::event(Topic::Round), None).to_string().into(),
    }
}

/// `GET /events` as routed: a phone beyond what the open-file limit holds, or beyond its address's share
/// (`serve --streams-per-address`, see [`crate::web::kit::state`]), gets a quick 503 with `Retry-After` and the connection closed (its page's EventSource tries again later); the others
/// get [`events`], holding their place until the stream ends.
pub async fn live(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let Some(place) = app.streams.take(addr.ip()) else {
        let mut busy = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many phones on live updates right now: the page tries again by itself shortly",
        )
        .into_response();
        busy.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
        busy.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        return busy;
    };
    let (parts, body) = events(app, headers).await.into_response().into_parts();
    let held = body.into_data_stream().map(move |chunk| {
        let _held = &place;
        chunk
    });
    Response::from_parts(parts, Body::from_stream(held))
}

/// `GET /events`: server-sent events named `round`, `result`, `clock`, `call`, `note`, `self-report`, each with
/// the audit id of the change it reports as its `id:` and JSON data saying what changed (see the module); `hello`
/// first, with the latest audit id and the server's now. A phone reconnecting with `Last-Event-ID` is sent the
/// changes it missed (each place once, as they come), or one `round` (reload everything) when it is too far
/// behind or its id is not this event's; so is a phone too slow to keep up.
///
/// Its read opens a store of its own, closed on the blocking thread as soon as it is done: a stream must not keep
/// a connection (its page cache, its parsed schema) while it waits, nor till its task is next polled; when every
/// phone in the hall reconnects at once, hundreds of those were open together.
pub async fn events(
    app: Shared,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = std::result::Result<Event, Infallible>>> {
    // Listen first, then read: a change committed meanwhile is in both and sent once (ids only grow).
    let updates = app.updates.subscribe();
    let missed_since =
        headers.get("last-event-id").and_then(|v| v.to_str().ok()).map(|v| v.trim().parse::<i64>().map_err(|_| ()));
    let replica = app.replica.clone();
    let read = blocking(move || {
        let store = app.open()?;
        let store = &store;
        let last = live::last_change(store)?;
        let missed = match missed_since {
            None => Some(Vec::new()),
            Some(Ok(after)) if after >= 0 && after <= last => {
                live::touched_since(store, after, REPLAY)?.1.map(|changes| updates_of(store, changes))
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
            first.extend(missed.iter().map(change));
            (floor, first)
        }
        Ok((last, None)) => (last, vec![hello(last), reload()]),
        Err(e) => {
            replica.failed();
            tracing::error!(
                cause = e.cause.as_deref().unwrap_or(&e.message),
                "a phone's live updates could not read the event file: it reloads"
            );
            (0, vec![hello(0), reload()])
        }
    };
    let updates = BroadcastStream::new(updates).filter_map(move |u| match u {
        Ok(u) if u.id <= floor => None,
        Ok(u) => Some(Ok(change(&u))),
        Err(_) => Some(Ok(reload())),
    });
    let first = tokio_stream::iter(first.into_iter().map(Ok));
    Sse::new(first.chain(updates)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

fn hello(last: i64) -> Event {
    let now = crate::time::now().map(crate::time::stamp).unwrap_or_default();
    let data = serde_json::json!({ "id": last, "topic": "hello", "now": now });
    Event::default().event("hello").id(last.to_string()).data(data.to_string())
}

fn change(u: &Update) -> Event {
    Event::default().event(u.name).id(u.id.to_string()).data(&*u.data)
}

/// Reload everything (no id: the phone keeps the last one it had).
fn reload() -> Event {
    Event::default().event(Topic::Round.as_str()).data(data_of(0, &Touched::event(Topic::Round), None).to_string())
}
