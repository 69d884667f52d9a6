//! What every request shares and what the server keeps in memory: the app's state ([`App`]), each route's row put
//! on its request ([`Route`]) and who asked ([`Who`]), the request's connection to the event file ([`Db`]), when
//! each keyed write first arrived, what a judge's form did (`?done=ID`), and large blocks of memory given back.
//!
//! What every request shares: the event file's path, the live updates, the wrong-PIN and wrong-code counts,
//! the jobs, and the players' site address.
//!
//! What is true of a route ([`Route`]: the name its writes are audited under, whether it takes a key, a moment,
//! CORS, an ETag...): the table itself, with each route's handler, is the router's (`web::routes`), registered
//! here once; the outermost layer puts the request's row on it for every layer and extractor inside.
//!
//! One connection to the event file per request: the first extractor or handler that needs it takes one of the
//! connections kept open (see [`crate::store::connections`]; on a blocking thread), and every later one in the
//! same request (the judge's session, then the write; a page, then its error page) works on that same
//! connection, given back when the request ends.
//!
//! The server's memory under a storm of logins: each PIN check (Argon2) takes a 19 MiB block. glibc's allocator
//! would keep such blocks in the arena of whichever thread freed them (each store thread its own), so the server's
//! resident memory would grow to a block per thread and stay there; [`return_large_blocks`] has every block of
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
//!
//! What a judge's form did, shown on the page it goes back to: the write runner keeps each write's answer in
//! the web's words under its audit entry's id, the form's 303 goes back with `?done=ID`, and the page shows that
//! outcome until the next action (the live refresh re-reads the same address, so it stays). After a restart the
//! page falls back to the audit entry itself.

use super::error::{ApiError, blocking};
use super::limit::{Guesses, Rules};
use super::live::Streams;
use crate::error::Result;
use crate::ops::write_keys::Timed;
use crate::store::Store;
use axum::extract::FromRequestParts;
use axum::extract::Request;
use axum::http::Extensions;
use axum::http::request::Parts;
use chrono::{DateTime, Utc};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// Live updates (spread over channels: see [`super::live`]).
    pub updates: super::live::Updates<Update>,
    /// Wrong PINs per judge and per address (see [`super::limit`]).
    pub limiter: Mutex<Guesses>,
    /// Wrong player codes, counted apart from wrong PINs (a judge's typos never lock out a table's players).
    pub codes: Mutex<Guesses>,
    /// The pace of players' writes, per code and per table.
    pub pace: Mutex<super::limit::Pace>,
    /// PIN checks running at once (each takes about 19 MiB): at most [`HASHING`], the others wait their turn.
    pub hashing: tokio::sync::Semaphore,
    /// Guesses reading their budgets in the event file at once: at most [`GUESSING`] (a storm of logins would
    /// otherwise open the file once per login, all together).
    pub guessing: tokio::sync::Semaphore,
    /// The live streams open, and how many the open-file limit can hold.
    pub streams: Streams,
    /// The players' site address the server announces (the projector page shows it as a QR code).
    pub site: String,
    /// Judges' recent outcomes in the web's words, by audit id (a page's `?done=ID`).
    pub done: Mutex<super::state::Done>,
    /// The second laptop: the standby's streams and acknowledgements, or whom this standby follows.
    pub replica: crate::replica::state::Replica,
    /// On a primary: the standby its pages are told about.
    pub failover: crate::replica::failover::Failover,
    /// On a standby: the judges' logins made here, by session key (the file takes no writes, so they live in
    /// memory; they end with the server or its promotion).
    pub standby_sessions: Mutex<std::collections::HashMap<String, crate::ops::judges::SessionJudge>>,
    /// When each write that may carry a moment first arrived (see [`super::state`]).
    pub arrivals: Mutex<super::state::Arrivals>,
    /// `serve --new`: the one-time set-up link while the event does not exist yet.
    pub setup: super::jobs::Setup,
    /// Long work started from the head judge's pages: uploads' imports, library builds (see [`super::jobs`]).
    pub jobs: Arc<super::jobs::Jobs>,
    /// The connections to the event file kept open between requests.
    pub connections: crate::store::connections::Connections,
}

/// The shared state handed to handlers.
pub type Shared = Arc<App>;

/// How many PIN checks run at once.
pub const HASHING: usize = 2;

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
        let updates = super::live::Updates::new(UPDATES);
        App {
            connections: crate::store::connections::Connections::new(db.clone(), CONNECTIONS),
            db,
            updates,
            limiter: Mutex::new(Guesses::new(Rules::PINS)),
            codes: Mutex::new(Guesses::new(Rules::CODES)),
            pace: Mutex::default(),
            hashing: tokio::sync::Semaphore::new(HASHING),
            guessing: tokio::sync::Semaphore::new(GUESSING),
            streams: Streams::default(),
            site,
            done: Mutex::default(),
            replica: crate::replica::state::Replica::default(),
            failover: crate::replica::failover::Failover::default(),
            standby_sessions: Mutex::default(),
            arrivals: Mutex::default(),
            setup: super::jobs::Setup::default(),
            jobs: Arc::default(),
        }
    }

    /// Opens the event file (on a blocking thread only); a request opens it through [`super::state::Db`].
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

    /// Runs `f` on the store on a blocking thread, taking a connection the first time.
    pub async fn run<T: Send + 'static>(
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

/// Sets the allocator so (glibc only; other systems' allocators give such blocks back on their own).
#[allow(unsafe_code)]
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's tuning, before the server's threads start.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE as libc::c_int);
    }
}

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
mod arrivals_tests {
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

/// How many recent outcomes are kept.
const DONE_KEPT: usize = 256;

/// The recent outcomes in the web's words, by audit id.
#[derive(Debug, Default)]
pub struct Done {
    recent: VecDeque<(i64, String)>,
}

impl Done {
    /// Keeps `summary` as the outcome of entry `id` (the oldest is forgotten beyond [`DONE_KEPT`]).
    pub fn keep(&mut self, id: i64, summary: String) {
        if self.recent.len() >= DONE_KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back((id, summary));
    }

    /// The outcome of entry `id`, if kept.
    pub fn of(&self, id: i64) -> Option<String> {
        self.recent.iter().rev().find(|(i, _)| *i == id).map(|(_, s)| s.clone())
    }
}

/// `done` of a page's address: the audit id of the write the page answers.
#[derive(Debug, Default, serde::Deserialize)]
pub struct DoneQuery {
    /// The audit id.
    pub done: Option<String>,
}

/// An audit line as the web may show it: cut before the first backquote (a command to type) and its lead-in.
pub fn web_words(summary: &str) -> String {
    match summary.find('`') {
        None => summary.to_string(),
        Some(i) => {
            let head = summary[..i].trim_end_matches([' ', '(', ':', ';', ',']);
            let head = head.strip_suffix(" use").or_else(|| head.strip_suffix(" with")).unwrap_or(head);
            head.trim_end_matches([' ', '(', ':', ';', ',']).to_string()
        }
    }
}

/// The address a form goes back to, naming the entry it wrote: `back` with `done=ID` (an earlier `done`
/// replaced, any other query kept).
pub fn back_to(back: &str, id: Option<i64>) -> String {
    let Some(id) = id else { return back.to_string() };
    let (path, query) = back.split_once('?').unwrap_or((back, ""));
    let mut parts: Vec<&str> = query.split('&').filter(|p| !p.is_empty() && !p.starts_with("done=")).collect();
    let done = format!("done={id}");
    parts.push(&done);
    format!("{path}?{}", parts.join("&"))
}

#[cfg(test)]
mod done_tests {
    use super::*;

    #[test]
    fn back_to_names_the_entry_once() {
        assert_eq!(back_to("/judge", Some(4)), "/judge?done=4");
        assert_eq!(back_to("/judge?done=3", Some(4)), "/judge?done=4");
        assert_eq!(back_to("/judge/table/2?x=1&done=3", Some(9)), "/judge/table/2?x=1&done=9");
        assert_eq!(back_to("/judge", None), "/judge");
    }

    #[test]
    fn an_audit_line_loses_its_command() {
        assert_eq!(web_words("penalty #3: Warning; use `mmjudge result fix 1` if needed"), "penalty #3: Warning");
        assert_eq!(web_words("round 1 closed"), "round 1 closed");
    }

    #[test]
    fn only_recent_outcomes_are_kept() {
        let mut d = Done::default();
        for i in 0..300 {
            d.keep(i, format!("#{i}"));
        }
        assert_eq!(d.of(299).as_deref(), Some("#299"));
        assert_eq!(d.of(0), None);
    }
}

/// A route: its address (`{n}` stands for one segment), the name its writes are audited and keyed under, and
/// what is true of it.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// The address, as the router takes it.
    pub path: &'static str,
    /// `POST /api/result`: how its writes are named in the audit and scope their keys (an alias, such as
    /// `/api/clock/pass`, is named as the route it stands for).
    pub name: &'static str,
    /// Its reads carry an ETag and answer 304.
    pub etag: bool,
    /// Pages on the standby reach it across origins (CORS, no credentials).
    pub cors: bool,
    /// A write replayed from a page's queue may claim the moment it was made, as this kind of timed write.
    pub at: Option<Timed>,
    /// It takes a file as its body (outside the body and time limits).
    pub upload: bool,
    /// It may take longer than the request limit (the site as a zip).
    pub unlimited: bool,
    /// A judge's own (a shared cache keeps none of it).
    pub judges: bool,
    /// A login or logout: a session, not a change of the event (taken on a standby when it is a login; never
    /// waited for the standby).
    pub session: bool,
    /// It writes nothing though it is a POST (a table's sign-in checks a code): taken on a standby too.
    pub checks_only: bool,
    /// The two laptops' routine calls: logged at debug when they go well.
    pub chatter: bool,
    /// It answers before the event is set up (`serve --new`).
    pub before_setup: bool,
    /// Streamed for its whole life (the live events, the standby's routes): outside compression and ETags.
    pub stream: bool,
}

impl Route {
    pub const fn new(path: &'static str, name: &'static str) -> Route {
        Route {
            path,
            name,
            etag: false,
            cors: false,
            at: None,
            upload: false,
            unlimited: false,
            judges: false,
            session: false,
            checks_only: false,
            chatter: false,
            before_setup: false,
            stream: false,
        }
    }

    /// Registers the routes table (the router does, once; the table is the same for every router).
    pub fn register(routes: Vec<Route>) {
        let _ = ROUTES.set(routes);
    }

    /// Every route, once a router registered them (the server builds its router before it answers anything; code
    /// that runs without one reads `web::routes::routes()`).
    pub fn all() -> &'static [Route] {
        ROUTES.get().map_or(&[], Vec::as_slice)
    }

    /// The route that answers `path`, if any (`{n}` matches one segment).
    pub fn find(path: &str) -> Option<&'static Route> {
        let asked: Vec<&str> = path.split('/').collect();
        Route::all().iter().find(|r| {
            let mut parts = r.path.split('/');
            let same =
                asked.iter().all(|a| parts.next().is_some_and(|p| p == *a || (p.starts_with('{') && !a.is_empty())));
            same && parts.next().is_none()
        })
    }

    /// The routes whose replayed writes may claim their moment, as one attribute's value (`data-takes-at` on every
    /// page's `<body>`, read by `queue.js`).
    pub fn takes_at_list() -> String {
        Route::all().iter().filter(|r| r.at.is_some()).map(|r| r.path).collect::<Vec<_>>().join(" ")
    }

    /// The request's [`Route`] (as the outermost layer found it; [`Route::UNKNOWN`] for an address that is none).
    pub fn of(req: &Request) -> Route {
        Route::on(req.extensions())
    }

    /// The [`Route`] a request's extensions hold (for extractors, which see the request's parts).
    pub fn on(extensions: &axum::http::Extensions) -> Route {
        extensions.get::<Route>().copied().unwrap_or(Route::UNKNOWN)
    }

    /// What a request to an address that is no route is (a mistyped page: its 404 is a page).
    pub const UNKNOWN: Route = Route::new("", "");
}

/// A page or a read: an ETag.
pub const fn read(path: &'static str) -> Route {
    Route { etag: true, ..Route::new(path, path) }
}

/// A judge's page or read: an ETag, kept by no shared cache.
pub const fn judges_read(path: &'static str) -> Route {
    Route { judges: true, ..read(path) }
}

/// A write (`name`: `POST` and its path).
pub const fn write(path: &'static str, name: &'static str) -> Route {
    Route::new(path, name)
}

/// A write a page on the standby may replay there with a table code.
pub const fn cors_write(path: &'static str, name: &'static str) -> Route {
    Route { cors: true, ..write(path, name) }
}

/// A write that may claim its moment (and be replayed on the standby).
pub const fn timed(path: &'static str, name: &'static str, at: Timed) -> Route {
    Route { at: Some(at), ..cors_write(path, name) }
}

/// An import: a file as its body.
pub const fn upload(path: &'static str, name: &'static str) -> Route {
    Route { upload: true, ..write(path, name) }
}

/// A login or logout.
pub const fn session(path: &'static str, name: &'static str) -> Route {
    Route { session: true, ..write(path, name) }
}

/// The standby's routes: streamed, outside compression.
pub const fn laptops(path: &'static str) -> Route {
    Route { stream: true, ..Route::new(path, path) }
}

/// Every route (without its handler), as the router's table registered it.
static ROUTES: OnceLock<Vec<Route>> = OnceLock::new();

/// A handler's own route (as the outermost layer found it).
impl<S: Send + Sync> FromRequestParts<S> for Route {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Route::on(&parts.extensions))
    }
}

/// Who asked, as the extractors learn it (a judge's session, a player's code); `nobody` until then.
#[derive(Debug, Clone, Default)]
pub struct Who(Arc<Mutex<Option<String>>>);

impl Who {
    /// Records who asked, for the request's log line (nothing when the request is not logged).
    pub fn set(extensions: &Extensions, name: impl Into<String>) {
        if let Some(Who(slot)) = extensions.get::<Who>()
            && let Ok(mut held) = slot.lock()
        {
            *held = Some(name.into());
        }
    }

    /// Records who asked through this request's slot.
    pub fn is(&self, name: impl Into<String>) {
        if let Ok(mut held) = self.0.lock() {
            *held = Some(name.into());
        }
    }

    pub fn name(&self) -> String {
        self.0.lock().ok().and_then(|held| held.clone()).unwrap_or_else(|| "nobody".to_string())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Who {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<Who>().cloned().unwrap_or_default())
    }
}
