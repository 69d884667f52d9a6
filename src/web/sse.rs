//! Live updates: a watcher polls the event file every 250 ms and broadcasts what changed; `GET /events` sends
//! it to every phone as server-sent events. The command line writing to the same file shows up the same way.

use super::{Shared, Update};
use crate::error::{Error, Result};
use crate::ops::live;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use std::convert::Infallible;
use std::time::Duration;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

/// How often the watcher looks at the file.
const POLL: Duration = Duration::from_millis(250);

/// Starts the watcher thread: it keeps one connection whose `data_version` changes when anyone else commits,
/// and then reads the audit entries written since to name the events.
pub fn watch(app: Shared) -> Result<()> {
    let store = app.open()?;
    let (mut last, _) = live::changes_after(&store, i64::MAX)?;
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
                let Ok((id, names)) = live::changes_after(&store, last) else { continue };
                last = id;
                for name in names {
                    // No phone listening is not an error.
                    let _ = app.updates.send(Update { name, id });
                }
            }
        })
        .map_err(|e| Error::io("the live-update watcher", e))?;
    Ok(())
}

/// `GET /events`: server-sent events named `round`, `result`, `clock`, `call`, `note`, `self-report`, each
/// with the audit id as data; `hello` first (a phone reconnecting after sleep reloads what it shows). A phone
/// too slow to keep up gets one `round` (reload everything).
pub async fn events(State(app): State<Shared>) -> Sse<impl Stream<Item = std::result::Result<Event, Infallible>>> {
    let hello = tokio_stream::once(Ok(Event::default().event("hello").data("0")));
    let updates = BroadcastStream::new(app.updates.subscribe()).map(|u| {
        Ok(match u {
            Ok(u) => Event::default().event(u.name).data(u.id.to_string()),
            Err(_) => Event::default().event("round").data("0"),
        })
    });
    Sse::new(hello.chain(updates)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
