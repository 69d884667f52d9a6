//! Phones and the second laptop: what a primary tells its pages of its standby (its origin and the event, kept
//! here from the event file by the server's watcher, `web::laptops::watch`) and how long pages wait for
//! the primary. The pages draw it (`web::kit::page::Laptop`); the layer that answers CORS is
//! `web::layers`. See docs/http.md, "Phones and the second laptop".

use std::sync::RwLock;
use std::time::Duration;

/// How long a page waits without an answer from the primary before it asks the standby
/// (`MMJUDGE_PRIMARY_TIMEOUT_MS` in tests).
pub const PRIMARY_TIMEOUT: Duration = Duration::from_secs(10);

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
        let advertised =
            (s.role == crate::store::replication::Role::Primary && s.moved_to.is_none() && s.key_hash.is_some())
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
