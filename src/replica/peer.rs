//! What the other laptop says of itself (`GET /api/standby/whoami`): a primary asks its standby before taking a
//! write when the lease ran out (was it promoted while this laptop slept?), and looks every two seconds whether
//! its standby was promoted.

use super::client;
use super::wire::Whoami;
use crate::store::replication::{Role, State};
use std::time::Duration;

/// What a primary learnt of its standby (asked before taking a write, with `--standby-required`).
pub enum Asked {
    /// It follows this event, at this generation.
    Follows,
    /// It was promoted: the event went there.
    Moved(String),
    /// No answer.
    Unheard,
}

/// Asks the standby this primary's file names (`whoami`, 1 s at most) where the event is.
pub async fn ask(mine: &State) -> Asked {
    let Some(url) = mine.standby_url.as_deref().and_then(|u| client::Url::parse(u).ok()) else {
        return Asked::Unheard;
    };
    let Some(w) = whoami(&url, Duration::from_secs(1)).await else { return Asked::Unheard };
    let same = w.event == mine.event_id;
    match w.role {
        Role::Primary if same && w.generation > mine.generation => Asked::Moved(url.text),
        Role::Standby if same && w.generation == mine.generation => Asked::Follows,
        _ => Asked::Unheard,
    }
}

/// The address of a promoted standby of this event at `url` (None: not promoted, not reachable, or not ours).
pub async fn promoted_at(url: &client::Url, mine: &State) -> Option<String> {
    let w = whoami(url, Duration::from_secs(2)).await?;
    let promoted = w.event == mine.event_id && w.generation > mine.generation && w.role == Role::Primary;
    promoted.then(|| url.text.clone())
}

/// What the server at `url` says of itself, within `most` (None: no answer, or not one).
async fn whoami(url: &client::Url, most: Duration) -> Option<Whoami> {
    let asked = tokio::time::timeout(most, async {
        let res = client::send(url, "GET", super::wire::WHOAMI, None, None).await.ok()?;
        serde_json::from_str::<Whoami>(&client::text(res).await.ok()?).ok()
    });
    asked.await.ok().flatten()
}
