//! What the other laptop says of itself (`GET /api/standby/whoami`): a primary asks its standby before taking a
//! write when the lease ran out (was it promoted while this laptop slept?), and looks every two seconds whether
//! its standby was promoted.

use super::client;
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
pub async fn ask(mine: &crate::store::replication::State) -> Asked {
    let Some(url) = mine.standby_url.as_deref().and_then(|u| client::Url::parse(u).ok()) else {
        return Asked::Unheard;
    };
    let asked = tokio::time::timeout(Duration::from_secs(1), async {
        let res = client::send(&url, "GET", super::wire::WHOAMI, None, None).await.ok()?;
        serde_json::from_str::<serde_json::Value>(&client::text(res).await.ok()?).ok()
    });
    let Ok(Some(v)) = asked.await else { return Asked::Unheard };
    let same = v.get("event").and_then(|e| e.as_str()) == Some(mine.event_id.as_str());
    let generation = v.get("generation").and_then(|g| g.as_i64()).unwrap_or(0);
    match v.get("role").and_then(|r| r.as_str()) {
        Some("primary") if same && generation > mine.generation => Asked::Moved(url.text),
        Some("standby") if same && generation == mine.generation => Asked::Follows,
        _ => Asked::Unheard,
    }
}

/// The address of a promoted standby of this event at `url` (None: not promoted, not reachable, or not ours).
pub async fn promoted_at(url: &client::Url, mine: &crate::store::replication::State) -> Option<String> {
    let asked = tokio::time::timeout(Duration::from_secs(2), client::send(url, "GET", super::wire::WHOAMI, None, None));
    let res = asked.await.ok()?.ok()?;
    let v: serde_json::Value = serde_json::from_str(&client::text(res).await.ok()?).ok()?;
    let same = v.get("event").and_then(|e| e.as_str()) == Some(mine.event_id.as_str());
    let later = v.get("generation").and_then(|g| g.as_i64()).is_some_and(|g| g > mine.generation);
    let primary = v.get("role").and_then(|r| r.as_str()) == Some("primary");
    (same && later && primary).then(|| url.text.clone())
}
