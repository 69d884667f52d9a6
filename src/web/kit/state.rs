//! What every request shares: the event file's path, the live updates, the wrong-PIN and wrong-code counts,
//! and the players' site address.

use super::files::Streams;
use super::limit::{Guesses, Rules};
use crate::error::Result;
use crate::store::Store;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

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
    /// Live updates (spread over channels: see [`super::fanout`]).
    pub updates: super::fanout::Updates<Update>,
    /// Wrong PINs per judge and per address (see [`super::limit`]).
    pub limiter: Mutex<Guesses>,
    /// Wrong player codes, counted apart from wrong PINs (a judge's typos never lock out a table's players).
    pub codes: Mutex<Guesses>,
    /// The pace of players' writes, per code and per table.
    pub pace: Mutex<super::pace::Pace>,
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
    pub done: Mutex<super::done::Done>,
    /// The second laptop: the standby's streams and acknowledgements, or whom this standby follows.
    pub replica: crate::replica::state::Replica,
    /// On a primary: the standby its pages are told about.
    pub failover: crate::replica::failover::Failover,
    /// On a standby: the judges' logins made here, by session key (the file takes no writes, so they live in
    /// memory; they end with the server or its promotion).
    pub standby_sessions: Mutex<std::collections::HashMap<String, crate::ops::judges::SessionJudge>>,
    /// When each write that may carry a moment first arrived (see [`super::arrivals`]).
    pub arrivals: Mutex<super::arrivals::Arrivals>,
    /// `serve --new`: the one-time set-up link while the event does not exist yet.
    pub setup: super::setup::Setup,
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
pub const CONNECTIONS: usize = 4;

/// How many live updates wait for a slow listener before it is told to reload everything.
const UPDATES: usize = 256;

impl App {
    /// The state for serving the event file `db`, announcing `site` as the players' address; nothing is opened
    /// yet, and no watcher runs (the server starts one; without it no live update is sent).
    pub fn new(db: PathBuf, site: String) -> App {
        let updates = super::fanout::Updates::new(UPDATES);
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
            setup: super::setup::Setup::default(),
            jobs: Arc::default(),
        }
    }

    /// Opens the event file (on a blocking thread only); a request opens it through [`super::store::Db`].
    pub fn open(&self) -> Result<Store> {
        Store::open(&self.db)
    }
}
