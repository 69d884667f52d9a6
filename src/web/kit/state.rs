//! What every request shares and what the server keeps in memory: the app's state ([`App`]), the request's
//! connection to the event file ([`Db`]), the live updates' fan-out ([`Updates`]) and the open files their
//! streams hold ([`Streams`]), when each keyed write first arrived, and large blocks of memory given back.
//!
//! What every request shares: the event file's path, the live updates, the wrong-PIN and wrong-code counts,
//! the jobs, and the players' site address.
//!
//! One connection to the event file per request: the first extractor or handler that needs it takes one of the
//! connections kept open (see [`crate::store::connections`]; on a blocking thread), and every later one in the
//! same request (the judge's session, then the write; a page, then its error page) works on that same
//! connection, given back when the request ends.
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
//!
//! The server's memory under a storm of logins: each PIN check (Argon2) takes a 19 MiB block. glibc's allocator
//! would keep such blocks in the arena of whichever thread freed them (each store thread its own), so the server's
//! resident memory would grow to a block per thread and stay there; [`tune_allocator`] has every block of
//! a MiB or more mapped on its own and given back to the system when freed. With at most two PIN checks at once
//! (see [`HASHING`]) the server's peak stays under 150 MB during a storm.
//!
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

use super::limit::{Guesses, Rules};
use super::request::{ApiError, blocking};
use crate::error::Result;
use crate::store::Store;
use axum::extract::FromRequestParts;
use axum::http::Extensions;
use axum::http::request::Parts;
use chrono::{DateTime, Utc};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

pub use super::streams::{PER_ADDRESS, Place, RESERVE, Streams, capacity, raise_limit};

/// A live-update event: its name (`round`, `result`, ...) and the audit entry that caused it.
#[derive(Debug, Clone)]
pub struct Update {
    /// The event name.
    pub name: &'static str,
    /// The highest audit id when it was seen.
    pub id: i64,
    /// The event's data: JSON `{"id", "topic", ...}` with what changed (see [`crate::web::sse`]), made once for
    /// every phone.
    pub data: Arc<str>,
}

/// What every request shares.
pub struct App {
    /// The event file.
    pub db: PathBuf,
    /// Live updates (spread over channels: see [`Updates`]).
    pub updates: Updates<Update>,
    /// Wrong PINs per judge and per address (see [`super::limit`]).
    pub limiter: Mutex<Guesses>,
    /// Wrong player codes, counted apart from wrong PINs (a judge's typos never lock out a table's players).
    pub codes: Mutex<Guesses>,
    /// The pace of writes, per player and per judge (see [`super::limit::Pace`]).
    pub pace: Mutex<super::limit::Pace>,
    /// PIN checks running at once (each takes about 19 MiB): at most [`HASHING`], the others wait their turn.
    pub hashing: tokio::sync::Semaphore,
    /// Standby keys checked at once: at most [`KEY_CHECKS`], the others wait their turn.
    pub key_checks: tokio::sync::Semaphore,
    /// Guesses reading their budgets in the event file at once: at most [`GUESSING`] (a storm of logins would
    /// otherwise open the file once per login, all together).
    pub guessing: tokio::sync::Semaphore,
    /// The live streams open, and how many the open-file limit can hold.
    pub streams: Streams,
    /// The players' site address the server announces (the projector page shows it as a QR code).
    pub site: String,
    /// Judges' recent outcomes in the web's words, by audit id (a page's `?done=ID`).
    pub done: Mutex<super::request::FormsDone>,
    /// The second laptop: the standby's streams and acknowledgements, or whom this standby follows.
    pub replica: Arc<crate::replica::state::Replica>,
    /// On a primary: the standby its pages are told about.
    pub failover: crate::replica::failover::Failover,
    /// On a standby: the judges' logins made here, by session key (the file takes no writes, so they live in
    /// memory; they end with the server or its promotion).
    pub standby_sessions: Mutex<std::collections::HashMap<String, crate::ops::judges::SessionJudge>>,
    /// When each write that may carry a moment first arrived (see [`Arrivals`]).
    pub arrivals: Mutex<Arrivals>,
    /// `serve --new`: the one-time set-up link while the event does not exist yet.
    pub setup: super::jobs::Setup,
    /// Long work started from the head judge's pages: uploads' imports, library builds (see [`super::jobs`]).
    pub jobs: Arc<super::jobs::Jobs>,
    /// The connections to the event file kept open between requests.
    pub connections: crate::store::connections::Connections,
    /// The longest a request may take ([`super::request::REQUEST_LIMIT`]; a test sets a shorter one: see
    /// `web::layers::timeout`), its pages' drawing included.
    pub request_limit: Duration,
}

/// The shared state handed to handlers.
pub type Shared = Arc<App>;

/// How many PIN checks run at once.
pub const HASHING: usize = 2;

/// Standby keys checked at once (a second laptop sends one when it connects; 256 wrong ones at once took every
/// thread of the store and a connection each, and `/api/time` waited 140 ms behind them).
pub const KEY_CHECKS: usize = 2;

/// How many guesses read their budgets at once.
pub const GUESSING: usize = 4;

/// How many connections to the event file are kept open between requests.
pub const CONNECTIONS: usize = 2;

/// How many live updates wait for a slow listener before it is told to reload everything.
const UPDATES: usize = 256;

impl App {
    /// The state for serving the event file `db`, announcing `site` as the players' address; nothing is opened
    /// yet, and no watcher runs (the server starts one; without it no live update is sent).
    pub fn new(db: PathBuf, site: String) -> App {
        // Measured once, before any phone asks (see `judges::unknown_name_wait`).
        let _ = crate::ops::judges::unknown_name_wait();
        let updates = Updates::new(UPDATES);
        App {
            connections: crate::store::connections::Connections::new(db.clone(), CONNECTIONS),
            db,
            updates,
            limiter: Mutex::new(Guesses::new(Rules::PINS)),
            codes: Mutex::new(Guesses::new(Rules::CODES)),
            pace: Mutex::default(),
            hashing: tokio::sync::Semaphore::new(HASHING),
            key_checks: tokio::sync::Semaphore::new(KEY_CHECKS),
            guessing: tokio::sync::Semaphore::new(GUESSING),
            streams: Streams::default(),
            site,
            done: Mutex::default(),
            replica: Arc::default(),
            failover: crate::replica::failover::Failover::default(),
            standby_sessions: Mutex::default(),
            arrivals: Mutex::default(),
            setup: super::jobs::Setup::default(),
            jobs: Arc::default(),
            request_limit: super::request::REQUEST_LIMIT,
        }
    }

    /// Opens the event file (on a blocking thread only); a request opens it through [`Db`].
    pub fn open(&self) -> Result<Store> {
        Store::open(&self.db)
    }
}

/// A request's way to the event file (cheap to clone; every clone shares the one connection).
#[derive(Clone)]
pub struct Db {
    app: Shared,
    store: Arc<Held>,
}

/// The request's connection, given back to the kept ones when the request's last clone of its [`Db`] goes.
struct Held {
    app: Shared,
    store: Mutex<Option<Store>>,
}

impl Drop for Held {
    fn drop(&mut self) {
        let store = match self.store.get_mut() {
            Ok(held) => held.take(),
            // A request's work that panicked on it: the connection may be mid-way, and is closed.
            Err(_) => None,
        };
        if let Some(store) = store {
            self.app.connections.give(store);
        }
    }
}

impl Db {
    /// A way to the event file not yet taken.
    pub fn new(app: &Shared) -> Db {
        Db { app: app.clone(), store: Arc::new(Held { app: app.clone(), store: Mutex::new(None) }) }
    }

    /// The request's own: the one its extensions hold, else a new one put there for the extractors after.
    pub fn of(extensions: &mut Extensions, app: &Shared) -> Db {
        if let Some(db) = extensions.get::<Db>() {
            return db.clone();
        }
        let db = Db::new(app);
        extensions.insert(db.clone());
        db
    }

    /// What every request shares.
    pub fn app(&self) -> &Shared {
        &self.app
    }

    /// Runs `f` on the store on a blocking thread, taking a connection the first time: the request's every
    /// call to the event file goes through the door ([`super::door`]) that calls this.
    pub(super) async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> std::result::Result<T, ApiError> {
        let (store, app) = (self.store.clone(), self.app.clone());
        blocking(move || {
            let mut held = match store.store.lock() {
                Ok(held) => held,
                // A request's work that panicked on it: the connection may be mid-way, open another.
                Err(poisoned) => {
                    let mut held = poisoned.into_inner();
                    *held = None;
                    held
                }
            };
            let store = match held.as_mut() {
                Some(store) => store,
                None => {
                    let (store, kept) = app.connections.take()?;
                    tracing::debug!(kept, "a connection to the event file taken for a request");
                    held.insert(store)
                }
            };
            f(store)
        })
        .await
    }
}

impl Db {
    /// Gives the request's connection back to the kept ones before the request ends; the next [`Db::run`] takes
    /// one again. For a request that will wait its turn a while (a login behind the PIN checks).
    pub fn give_back(&self) {
        let held = self.store.store.lock().ok().and_then(|mut held| held.take());
        if let Some(store) = held {
            self.app.connections.give(store);
        }
    }
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db").field("db", &self.app.db).finish_non_exhaustive()
    }
}

impl FromRequestParts<Shared> for Db {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        Ok(Db::of(&mut parts.extensions, app))
    }
}

/// Blocks of this size or more are mapped on their own and given back when freed.
const LARGE: usize = 1024 * 1024;

/// The allocator's arenas the server's threads share. glibc gives each thread that allocates while the others
/// hold theirs an arena of its own (up to eight a core) and each arena keeps the memory freed in it: once pages
/// were drawn on the blocking pool's eight threads, the server held a fifth more memory at its peak (`cargo bench
/// -- serve`, 256 players: 47 MB before, 57 MB after). Eight arenas: 51 MB there, and at 4,096 players 104 MB
/// against 98 MB, pages within 5 % of before; four held 47 MB but made pages at 4,096 players 15 % slower (threads
/// waiting for an arena's lock).
const ARENAS: usize = 8;

/// Sets the allocator so: large blocks given back when freed, and [`ARENAS`] arenas at most (glibc only; other
/// systems' allocators give such blocks back on their own and keep their own arenas).
#[allow(unsafe_code)]
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's tuning, before the server's threads start.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE as libc::c_int);
        libc::mallopt(libc::M_ARENA_MAX, ARENAS as libc::c_int);
    }
}

/// How many keys are remembered at most (the oldest forgotten first).
pub const KEPT: usize = 20_000;

/// How long a key's first arrival is remembered.
pub const KEPT_FOR: Duration = Duration::from_secs(30 * 60);

/// When the server first saw a request's key, put on the request for the extractors: the moment, and the status
/// of the try it was kept from (503) when an earlier try of the key was kept; a first try is its own arrival
/// (no status kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstArrival {
    /// When the key first arrived.
    pub at: DateTime<Utc>,
    /// The status the kept try was answered (503), if an earlier try was kept.
    pub kept: Option<u16>,
}

/// The first arrivals kept: (route, key) to the moment and the status it was answered, oldest first in `order`.
/// Only a try the server could not take (answered 503: busy, the standby not applied, not in charge) is kept
/// (see [`crate::web::layers::first_arrival`]): a try refused for its content, its state or its credentials, or
/// held back for its sender's pace, claims no moment.
#[derive(Debug, Default)]
pub struct Arrivals {
    first: HashMap<(String, String), (DateTime<Utc>, u16)>,
    order: VecDeque<((String, String), Instant)>,
}

impl Arrivals {
    /// The kept first arrival of `key` on `route`, with the status its try was answered.
    pub fn kept(&self, route: &str, key: &str) -> Option<(DateTime<Utc>, u16)> {
        self.first.get(&(route.to_string(), key.to_string())).copied()
    }

    /// Keeps `now` as the first arrival of `key` on `route`, answered `status` (an arrival kept already stays).
    pub fn keep(&mut self, route: &str, key: &str, now: DateTime<Utc>, status: u16, at: Instant) {
        while let Some((old, since)) = self.order.front() {
            if self.order.len() < KEPT && at.duration_since(*since) < KEPT_FOR {
                break;
            }
            self.first.remove(old);
            self.order.pop_front();
        }
        let id = (route.to_string(), key.to_string());
        if self.first.contains_key(&id) {
            return;
        }
        self.first.insert(id.clone(), (now, status));
        self.order.push_back((id, at));
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
mod arrivals_tests {
    use super::*;

    #[test]
    fn a_keys_first_arrival_is_kept_with_its_status_and_the_oldest_are_forgotten() {
        let mut a = Arrivals::default();
        let t = |s: i64| DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap_or_default();
        let start = Instant::now();
        assert_eq!(a.kept("stop", "k1"), None, "nothing is kept before a try is");
        a.keep("stop", "k1", t(0), 503, start);
        a.keep("stop", "k1", t(9), 503, start);
        assert_eq!(a.kept("stop", "k1"), Some((t(0), 503)), "a resend keeps its first arrival");
        assert_eq!(a.kept("start", "k1"), None, "another route is another key");
        let later = start + KEPT_FOR + Duration::from_secs(1);
        a.keep("stop", "k2", t(99), 503, later);
        assert_eq!(a.len(), 1, "the keys older than {KEPT_FOR:?} are forgotten");
        assert!(!a.is_empty());
    }
}

/// How many channels the streams are spread over.
pub const SHARDS: usize = 16;

/// The pause after a crowded shard where the watcher has no runtime to wait on.
pub const PAUSE: Duration = Duration::from_millis(3);

/// Streams on one shard beyond which the watcher waits after it (a few phones need no wait).
const CROWD: usize = 64;

/// The shards, each a broadcast channel holding `capacity` updates (`T`: [`Update`]) for a slow
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
