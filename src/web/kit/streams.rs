//! The live streams (`/events`) a server holds: how many the open-file limit allows, how many one address may hold
//! (a venue's NAT puts many phones behind one), and the terminal told once a minute when an address holds all it
//! may.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How many live streams one address may hold at once by default (`serve --streams-per-address`): a venue's
/// NAT puts a few dozen phones behind one address, each page holding one stream.
pub const PER_ADDRESS: usize = 64;

/// Descriptors kept for what is not a live stream: the event file's connections (one per store thread, each with
/// its write-ahead log and shared memory), the watcher, the listener, the runtime, and the pages and writes of
/// the moment.
pub const RESERVE: usize = 128;

/// The soft limit of open files after raising it to the hard limit where the system allows (None where it
/// cannot be read: not a Unix system).
#[allow(unsafe_code)]
pub fn raise_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: getrlimit and setrlimit only read and write the struct given.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
                return None;
            }
            if lim.rlim_cur < lim.rlim_max {
                let raised = libc::rlimit { rlim_cur: lim.rlim_max, rlim_max: lim.rlim_max };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    lim.rlim_cur = lim.rlim_max;
                }
            }
        }
        // rlim_t is u64 on Linux, but not on every Unix.
        #[allow(clippy::useless_conversion)]
        Some(u64::try_from(lim.rlim_cur).unwrap_or(u64::MAX))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// How many live streams a soft limit of `files` open files can hold: all but the [`RESERVE`].
pub fn capacity(files: u64) -> usize {
    usize::try_from(files).unwrap_or(usize::MAX).saturating_sub(RESERVE).max(1)
}

/// The live streams open (in all and per address) and how many may be.
#[derive(Debug)]
pub struct Streams {
    open: Arc<AtomicUsize>,
    most: AtomicUsize,
    by_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
    per_address: AtomicUsize,
    /// When the terminal was last told that an address holds all the streams it may (once a minute each).
    said: Mutex<HashMap<IpAddr, std::time::Instant>>,
}

impl Default for Streams {
    fn default() -> Self {
        Streams {
            open: Arc::new(AtomicUsize::new(0)),
            most: AtomicUsize::new(usize::MAX),
            by_address: Arc::default(),
            per_address: AtomicUsize::new(PER_ADDRESS),
            said: Mutex::default(),
        }
    }
}

/// How often the terminal is told that one address holds all the streams it may.
const SAY_CROWDED_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// One live stream's place, given back when the stream ends.
#[derive(Debug)]
pub struct Place {
    open: Arc<AtomicUsize>,
    by_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
    addr: IpAddr,
}

impl Drop for Place {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::SeqCst);
        let mut held = self.by_address.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = held.get_mut(&self.addr) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.remove(&self.addr);
            }
        }
    }
}

impl Streams {
    /// Sets how many streams may be open at once.
    pub fn set_most(&self, most: usize) {
        self.most.store(most, Ordering::SeqCst);
    }

    /// How many streams may be open at once.
    pub fn most(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }

    /// How many are open.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }

    /// Sets how many streams one address may hold at once (0: [`PER_ADDRESS`]).
    pub fn set_per_address(&self, most: usize) {
        let most = if most == 0 { PER_ADDRESS } else { most };
        self.per_address.store(most, Ordering::SeqCst);
    }

    /// A place for one more stream from `addr`, or None when all are taken or that address holds its share (the
    /// terminal is told, once a minute an address: see [`Streams::crowded`]).
    pub fn take(&self, addr: IpAddr) -> Option<Place> {
        let mut held = self.by_address.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mine = held.entry(addr).or_default();
        if *mine >= self.per_address.load(Ordering::SeqCst) {
            let n = *mine;
            drop(held);
            if let Some(words) = self.crowded(addr, n, std::time::Instant::now()) {
                tracing::warn!("{words}");
            }
            return None;
        }
        let most = self.most();
        self.open.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < most).then_some(n + 1)).ok()?;
        *mine += 1;
        Some(Place { open: self.open.clone(), by_address: self.by_address.clone(), addr })
    }
}

impl Streams {
    /// What the terminal is told when address `addr`, holding `n` streams, is refused one more: once a minute an
    /// address (None in between). Behind a venue's NAT every phone has one address, and the 65th gets no live
    /// updates: this says why, and what to do.
    pub fn crowded(&self, addr: IpAddr, n: usize, now: std::time::Instant) -> Option<String> {
        let mut said = self.said.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if said.get(&addr).is_some_and(|at| now.saturating_duration_since(*at) < SAY_CROWDED_EVERY) {
            return None;
        }
        said.insert(addr, now);
        Some(format!(
            "{n} phones share {addr} and it may hold no more live streams: the next get no live updates. Behind a NAT \
             (every phone of the venue's Wi-Fi one address)? Start serve again with a higher --streams-per-address \
             (now {})",
            self.per_address.load(Ordering::SeqCst)
        ))
    }
}

#[cfg(test)]
mod files_tests {
    use super::*;

    #[test]
    fn streams_beyond_the_limit_wait_and_places_come_back() {
        let s = Streams::default();
        s.set_most(2);
        let phone = IpAddr::from([10, 0, 0, 1]);
        let a = s.take(phone).expect("first");
        let _b = s.take(phone).expect("second");
        assert!(s.take(phone).is_none());
        drop(a);
        assert!(s.take(phone).is_some());
        assert_eq!(capacity(1024), 896);
        assert_eq!(capacity(4096), 3968);
    }

    #[test]
    fn one_address_holds_its_share_of_streams_and_no_more() {
        let s = Streams::default();
        s.set_per_address(3);
        let (one, other) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let held: Vec<_> = (0..3).map(|_| s.take(one).expect("within its share")).collect();
        assert!(s.take(one).is_none(), "beyond its share");
        assert!(s.take(other).is_some(), "another address still gets one");
        drop(held);
        let again = s.take(one);
        assert!(again.is_some(), "given back");
        assert_eq!(s.open(), 1);
    }

    #[test]
    fn an_address_holding_all_its_streams_is_said_once_a_minute_with_the_way_out() {
        let s = Streams::default();
        s.set_per_address(64);
        let (nat, other) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let t0 = std::time::Instant::now();
        let words = s.crowded(nat, 64, t0).unwrap_or_default();
        assert!(words.starts_with("64 phones share 10.0.0.1"), "{words}");
        assert!(words.contains("higher --streams-per-address (now 64)"), "{words}");
        assert_eq!(s.crowded(nat, 64, t0 + std::time::Duration::from_secs(59)), None, "once a minute");
        assert!(s.crowded(other, 64, t0).is_some(), "each address apart");
        assert!(s.crowded(nat, 64, t0 + std::time::Duration::from_secs(60)).is_some(), "a minute later, again");
    }
}
