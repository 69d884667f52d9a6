//! When the server first saw each write that may carry a moment: a write a page's queue sends again after a 503
//! (the server busy, the second laptop not in charge yet) or a 429 keeps the moment it first arrived, so the wait
//! does not cost its moment (see `ops::write_keys::moment`: a claimed moment's 2-minute window counts from the
//! first arrival, and a decision's length is at least what the server saw).
//!
//! Kept in this server's memory, by route and key, before anything else answers the request (the time limit, the
//! standby's gate, the wrong-code limit): a first arrival that was answered 503 or 429 is remembered although
//! nothing was written. Memory rather than the event file: a busy server is not made busier by a write for every
//! try, and nothing of a refused try lands in the file. A restart or a move to the second laptop forgets them (the
//! window then counts from the arrival there). At most [`KEPT`] keys, each for [`KEPT_FOR`].

use chrono::{DateTime, Utc};
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// How many keys are remembered at most (the oldest forgotten first).
pub const KEPT: usize = 20_000;

/// How long a key's first arrival is remembered.
pub const KEPT_FOR: Duration = Duration::from_secs(30 * 60);

/// When the server first saw a request's key, put on the request for the extractors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstArrival(pub DateTime<Utc>);

/// The first arrivals remembered: (path, key) to the moment, oldest first in `order`.
#[derive(Debug, Default)]
pub struct Arrivals {
    first: HashMap<(String, String), DateTime<Utc>>,
    order: VecDeque<((String, String), Instant)>,
}

impl Arrivals {
    /// When `key` on `path` first arrived: `now` the first time (remembered from then).
    pub fn first(&mut self, path: &str, key: &str, now: DateTime<Utc>, at: Instant) -> DateTime<Utc> {
        while let Some((old, since)) = self.order.front() {
            if self.order.len() < KEPT && at.duration_since(*since) < KEPT_FOR {
                break;
            }
            self.first.remove(old);
            self.order.pop_front();
        }
        let id = (path.to_string(), key.to_string());
        if let Some(first) = self.first.get(&id) {
            return *first;
        }
        self.first.insert(id.clone(), now);
        self.order.push_back((id, at));
        now
    }

    /// How many keys are remembered.
    pub fn len(&self) -> usize {
        self.first.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keys_first_arrival_is_kept_and_the_oldest_are_forgotten() {
        let mut a = Arrivals::default();
        let t = |s: i64| DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap_or_default();
        let start = Instant::now();
        assert_eq!(a.first("stop", "k1", t(0), start), t(0));
        assert_eq!(a.first("stop", "k1", t(9), start), t(0), "a resend keeps its first arrival");
        assert_eq!(a.first("start", "k1", t(9), start), t(9), "another route is another key");
        let later = start + KEPT_FOR + Duration::from_secs(1);
        assert_eq!(a.first("stop", "k2", t(99), later), t(99));
        assert_eq!(a.len(), 1, "the keys older than {KEPT_FOR:?} are forgotten");
        assert!(!a.is_empty());
    }
}
