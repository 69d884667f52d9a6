//! Counting wrong tries: wrong PINs per address and per name, and wrong player codes per address and per table,
//! each answered 429 for a while once there are too many.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Wrong tries allowed per address in [`WINDOW`] (and per name before its back-off).
const TRIES: usize = 5;
/// The window for counting wrong tries per address.
const WINDOW: Duration = Duration::from_secs(60);
/// The longest a name is held back: short, so that one phone cannot lock a judge out for long.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// How many counts are kept before the stale ones are forgotten.
const KEPT: usize = 10_000;

/// Wrong-PIN counts.
#[derive(Debug, Default)]
pub struct Limiter {
    by_addr: HashMap<IpAddr, VecDeque<Instant>>,
    by_name: HashMap<String, (u32, Instant)>,
}

impl Limiter {
    /// Seconds to wait before another try from `addr` for `name`, if any.
    pub fn wait(&mut self, addr: IpAddr, name: &str, now: Instant) -> Option<u64> {
        let tries = self.by_addr.entry(addr).or_default();
        while tries.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
            tries.pop_front();
        }
        if tries.len() >= TRIES
            && let Some(first) = tries.front()
        {
            return Some((WINDOW - now.duration_since(*first)).as_secs().max(1));
        }
        if let Some((fails, last)) = self.by_name.get(name)
            && *fails as usize >= TRIES
        {
            let backoff = Duration::from_secs(5 << (*fails as usize - TRIES).min(4)).min(MAX_BACKOFF);
            let since = now.duration_since(*last);
            if since < backoff {
                return Some((backoff - since).as_secs().max(1));
            }
        }
        None
    }

    /// Counts a wrong try. Counts that no longer hold anything back are forgotten once many are kept, so
    /// made-up names cannot fill the server's memory.
    pub fn failed(&mut self, addr: IpAddr, name: &str, now: Instant) {
        if self.by_name.len() + self.by_addr.len() > KEPT {
            self.by_name.retain(|_, (_, last)| now.duration_since(*last) < MAX_BACKOFF);
            self.by_addr.retain(|_, tries| tries.back().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
        self.by_addr.entry(addr).or_default().push_back(now);
        let entry = self.by_name.entry(name.to_string()).or_insert((0, now));
        entry.0 += 1;
        entry.1 = now;
    }

    /// A right PIN clears the name's count.
    pub fn succeeded(&mut self, name: &str) {
        self.by_name.remove(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_wrong_tries_from_one_address_wait_out_the_minute() {
        let mut l = Limiter::default();
        let t0 = Instant::now();
        let addr: IpAddr = [10, 0, 0, 9].into();
        for i in 0..5 {
            assert_eq!(l.wait(addr, &format!("n{i}"), t0), None);
            l.failed(addr, &format!("n{i}"), t0);
        }
        assert!(l.wait(addr, "other", t0).is_some());
        assert_eq!(l.wait(addr, "other", t0 + WINDOW), None);
    }

    #[test]
    fn a_name_is_held_back_briefly_whatever_the_address() {
        let mut l = Limiter::default();
        let t0 = Instant::now();
        for i in 0..5u8 {
            l.failed([10, 0, 0, i].into(), "kim", t0);
        }
        assert_eq!(l.wait([10, 0, 1, 1].into(), "kim", t0), Some(5));
        assert_eq!(l.wait([10, 0, 1, 1].into(), "kim", t0 + Duration::from_secs(5)), None);
        l.succeeded("kim");
        assert_eq!(l.wait([10, 0, 1, 2].into(), "kim", t0), None);
    }
}
