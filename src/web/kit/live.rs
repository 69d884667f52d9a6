//! The live updates' way to thousands of phones ([`Updates`]) and the open files their streams hold ([`Streams`]).
//!
//! The live updates' way to thousands of phones: one broadcast channel would wake every phone's stream at once
//! when the watcher sends (2,500 tasks queued ahead of any page whose answer comes back from its store thread
//! meanwhile: at 4,096 players and 10 results a second pages waited 150 ms and more behind them). The streams
//! are spread over [`SHARDS`] channels, and the watcher sends to one after the other, waiting after a crowded one
//! until the runtime has taken up the streams it woke (a task spawned behind them has run), so that a page waits
//! behind a few hundred streams at most.
//!
//! Open files: every phone on the live stream holds one of the process's file descriptors for as long as it
//! listens. At start the server raises its soft limit of open files to the hard limit ([`raise_limit`]; a
//! laptop's usual soft 1,024 under a hard 4,096 or more then holds 1,500 phones), keeps [`RESERVE`] descriptors
//! for pages, writes and the event file, and answers a phone beyond what is left a quick 503 (its page's
//! EventSource tries again later) rather than running out of descriptors for everyone ([`Streams`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// How many channels the streams are spread over.
pub const SHARDS: usize = 16;

/// The pause after a crowded shard where the watcher has no runtime to wait on.
pub const PAUSE: Duration = Duration::from_millis(3);

/// Streams on one shard beyond which the watcher waits after it (a few phones need no wait).
const CROWD: usize = 64;

/// The shards, each a broadcast channel holding `capacity` updates (`T`: [`super::state::Update`]) for a slow
/// listener.
pub struct Updates<T> {
    shards: Vec<broadcast::Sender<T>>,
    next: AtomicUsize,
}

impl<T: Clone> Updates<T> {
    /// Channels that each keep `capacity` updates for a listener that fell behind.
    pub fn new(capacity: usize) -> Updates<T> {
        Updates { shards: (0..SHARDS).map(|_| broadcast::channel(capacity).0).collect(), next: AtomicUsize::new(0) }
    }

    /// A new listener, on the next shard in turn.
    pub fn subscribe(&self) -> broadcast::Receiver<T> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.shards.len();
        self.shards[i].subscribe()
    }

    /// Sends `updates`, in order, to every listener: shard after shard, after a crowded one waiting until the
    /// runtime `after` names has started the streams it woke (or [`PAUSE`] without one). The caller is the
    /// watcher's own thread, never one of the runtime's.
    pub fn send_all(&self, updates: &[T], after: Option<&tokio::runtime::Handle>) {
        if updates.is_empty() {
            return;
        }
        for shard in &self.shards {
            for u in updates {
                // No phone listening is not an error.
                let _ = shard.send(u.clone());
            }
            if shard.receiver_count() > CROWD {
                match after {
                    // Woken from outside the runtime, the streams wait in its shared queue in turn: a task
                    // queued behind them runs once they have all been started.
                    Some(runtime) => {
                        let _ = runtime.block_on(runtime.spawn(async {}));
                    }
                    None => std::thread::sleep(PAUSE),
                }
            }
        }
    }

    /// Listeners on every shard.
    pub fn receivers(&self) -> usize {
        self.shards.iter().map(|s| s.receiver_count()).sum()
    }
}

#[cfg(test)]
mod fanout_tests {
    use super::*;

    #[test]
    fn every_listener_gets_every_update_in_order_whatever_its_shard() {
        let updates = Updates::new(16);
        let mut listeners: Vec<_> = (0..SHARDS * 2 + 1).map(|_| updates.subscribe()).collect();
        assert_eq!(updates.receivers(), SHARDS * 2 + 1);
        let sent: Vec<i64> = vec![1, 2, 3];
        updates.send_all(&sent, None);
        for l in &mut listeners {
            let got: Vec<i64> = (0..3).filter_map(|_| l.try_recv().ok()).collect();
            assert_eq!(got, vec![1, 2, 3]);
            assert!(l.try_recv().is_err(), "nothing more");
        }
    }
}

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
}

impl Default for Streams {
    fn default() -> Self {
        Streams {
            open: Arc::new(AtomicUsize::new(0)),
            most: AtomicUsize::new(usize::MAX),
            by_address: Arc::default(),
            per_address: AtomicUsize::new(PER_ADDRESS),
        }
    }
}

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

    /// A place for one more stream from `addr`, or None when all are taken or that address holds its share.
    pub fn take(&self, addr: IpAddr) -> Option<Place> {
        let mut held = self.by_address.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mine = held.entry(addr).or_default();
        if *mine >= self.per_address.load(Ordering::SeqCst) {
            return None;
        }
        let most = self.most();
        self.open.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < most).then_some(n + 1)).ok()?;
        *mine += 1;
        Some(Place { open: self.open.clone(), by_address: self.by_address.clone(), addr })
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
}
