//! The live server (`mmjudge serve`): the event on the venue's network for players' and judges' phones.
//!
//! axum on tokio. The event file stays the one truth, shared with the command line: a request takes one
//! connection to it (one of the few kept open), works on a blocking thread, and calls `ops`; a watcher thread polls the file for changes (`PRAGMA
//! data_version`, then the audit log) and broadcasts live-update events that `GET /events` sends as
//! server-sent events.
//!
//! The rooms: [`kit`] (in nine rooms, listed in its `mod.rs`: a request's route and its one answer, jobs,
//! bodies, wrong-try limits, the shared state, logins, extractors, pages drawn once per tag, the one write
//! runner) under handler modules by who uses them: [`players`] (the site's pages and reads, players' own reports
//! and calls), [`device`] (the table's device), [`judges`] (logins, the dashboard, a table's page and writes),
//! [`head`] (head judges' corrections and the round's course), [`setup`] (the event made in the browser and the
//! steps before round 1), [`projector`], [`sse`] (the live stream), [`standby`] (the routes a standby follows)
//! and [`assets`]; the frame around them: [`routes`] maps routes to them and wraps them in [`layers`] (headers,
//! limits, error pages, ETags, the request log), [`laptops`] runs the second laptop's gate and watchers,
//! [`listen`] accepts connections (and over HTTPS adds HSTS and secure cookies). Handler modules never use each
//! other, nor the frame.

pub mod assets;
pub mod device;
pub mod head;
pub mod judges;
pub mod kit;
pub mod laptops;
pub mod layers;
pub mod listen;
pub mod me_decisions;
pub mod player_writes;
pub mod players;
pub mod projector;
pub mod routes;
pub mod setup;
pub mod sse;
pub mod standby;
pub mod standings_chart;

pub use kit::state::{App, Shared, Update};

use crate::error::{Error, Result};
use crate::store::Store;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// The most requests working on the event file at once (each on its own blocking thread with its own SQLite
/// connection and page cache); more wait their turn. Without a bound, a burst of page loads on a busy laptop
/// starts hundreds of threads: every request gets slower and memory grows past what a laptop should give.
const STORE_THREADS: usize = 8;

/// Runs the server on `bind` until Ctrl-C; `ready` gets the bound address (the real port for port 0) once
/// the server listens.
pub fn serve(db: &Path, bind: SocketAddr, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    serve_with(db, bind, &Options::default(), ready)
}

/// How `serve` runs beyond its address.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Serve HTTPS with this certificate and key (read before anything listens).
    pub tls: Option<listen::Tls>,
    /// Leave out the request log's lines of requests that went well (failures are still written).
    pub quiet: bool,
    /// Follow a primary as its standby (`--standby-of URL --key KEY`): its address, key and what to advertise.
    pub standby_of: Option<(crate::replica::client::Url, String, Option<String>)>,
    /// `--standby-required`: a write is answered once the standby applied it (or 503 `"standby": "not applied"` after the wait: the page sends it again).
    pub standby_required: bool,
    /// `--streams-per-address N`: live-update streams one address may hold at once (0: the default, 64).
    pub streams_per_address: usize,
}

/// [`serve`] with its [`Options`]: over HTTPS when they name a certificate and its key, the request log on
/// stderr (see [`layers`]).
pub fn serve_with(db: &Path, bind: SocketAddr, options: &Options, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    // Open once first: a missing or foreign file is refused before anything listens, and an older event is
    // migrated here rather than by the first request. A standby may start with no file yet: its first copy
    // makes it.
    if options.standby_of.is_none() || db.exists() {
        Store::open(db)?;
    }
    run(db, bind, options, false, |addr, _| ready(addr))
}

/// `serve --new` (and `open` for a new event): serves a file that holds no event yet (missing, empty, or left by
/// an unfinished creation; a real event is refused) with a one-time set-up link. `ready` gets the bound address
/// and the link's path, `/setup#token=...` (a new 128-bit token each start), once the server listens; every
/// other page answers "not set up yet" until the link's page created the event and its head judge.
pub fn serve_new(db: &Path, bind: SocketAddr, options: &Options, ready: impl FnOnce(SocketAddr, &str)) -> Result<()> {
    crate::ops::event::ready_for_new(db)?;
    let options = Options { standby_of: None, ..options.clone() };
    run(db, bind, &options, true, |addr, link| ready(addr, link.unwrap_or_default()))
}

fn run(
    db: &Path,
    bind: SocketAddr,
    options: &Options,
    new: bool,
    ready: impl FnOnce(SocketAddr, Option<&str>),
) -> Result<()> {
    let tls = options.tls.as_ref().map(listen::tls_config).transpose()?;
    listen::ignore_broken_pipes();
    layers::init(options.quiet);
    kit::state::tune_allocator();
    let files = kit::state::raise_limit();
    let phones = files.map_or(usize::MAX, kit::state::capacity);
    let _ = HELD.set((files, phones));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(STORE_THREADS)
        .enable_all()
        .build()
        .map_err(|e| Error::io("the server's runtime", e))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(bind).await.map_err(|e| bind_error(bind, &e))?;
        let addr = listener.local_addr().map_err(|e| Error::io("the server's address", e))?;
        let site = crate::render::qr::announced(addr, if tls.is_some() { "https" } else { "http" })
            .into_iter()
            .next()
            .unwrap_or_default();
        let mut app = App::new(db.to_path_buf(), site.clone());
        // A primary's file that keeps requiring its standby (it acknowledged changes before: a crash may have
        // left it promoted elsewhere) is served as with `--standby-required`, whatever the flag.
        let required = match (&options.standby_of, new) {
            (None, false) => {
                let required =
                    crate::ops::standby::sync::run_required(&mut Store::open(db)?, options.standby_required)?;
                if required && !options.standby_required {
                    tracing::warn!(target: crate::replica::LOG, "{}", crate::ops::standby::sync::STILL_REQUIRED);
                }
                required
            }
            _ => options.standby_required,
        };
        app.replica = Arc::new(crate::replica::state::Replica::new(required, standby_wait()));
        app.failover.timeout = crate::replica::failover::primary_timeout();
        app.request_limit = layers::request_limit();
        let app = Arc::new(app);
        app.streams.set_most(phones);
        app.streams.set_per_address(options.streams_per_address);
        match &options.standby_of {
            Some((primary, key, advertise)) => {
                let follow = crate::replica::follower::Follow {
                    db: db.to_path_buf(),
                    primary: primary.clone(),
                    key: key.clone(),
                    advertise: Some(advertise.clone().unwrap_or(site)),
                    id: crate::replica::follower::follower_id(db)?,
                };
                laptops::follow(app.clone(), follow).await?;
                Store::open(db)?;
            }
            // A new event (`serve --new`) has no file yet: nothing to follow, nothing required of a standby.
            None if new => {}
            None => {
                // The command line on this file waits for the standby as this server does (noted above).
                laptops::watch_for_promotion_elsewhere(app.clone());
            }
        }
        let link = if new {
            let token = app.setup.offer();
            // The live updates watch the file once the set-up page made it.
            let later = app.clone();
            tokio::spawn(async move {
                later.setup.done.notified().await;
                if let Err(e) = sse::watch(later.clone()) {
                    tracing::error!(error = %e, "the live-update watcher did not start");
                }
            });
            Some(format!("/setup#token={token}"))
        } else {
            sse::watch(app.clone())?;
            None
        };
        laptops::watch(app.clone());
        ready(addr, link.as_deref());
        let per_address = listen::connections_per_address(options.streams_per_address);
        listen::run(listener, routes::router(app), tls, (listen::header_timeout(), per_address)).await;
        Ok(())
    })
}

/// How long a write waits for the standby with `--standby-required`: `MMJUDGE_STANDBY_WAIT_MS` (tests), else
/// [`crate::replica::state::STANDBY_WAIT`].
fn standby_wait() -> std::time::Duration {
    std::env::var("MMJUDGE_STANDBY_WAIT_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(crate::replica::state::STANDBY_WAIT, std::time::Duration::from_millis)
}

/// The open-file limit the server runs under and how many phones its live stream holds, once it started.
static HELD: std::sync::OnceLock<(Option<u64>, usize)> = std::sync::OnceLock::new();

/// How many phones the live stream holds (and the open-file limit that decides it), once `serve` started; a
/// phone beyond it is answered 503 and its page tries again later.
pub fn phones_held() -> Option<(Option<u64>, usize)> {
    HELD.get().copied()
}

fn bind_error(bind: SocketAddr, e: &std::io::Error) -> Error {
    match e.kind() {
        std::io::ErrorKind::AddrInUse => Error::refused(format!(
            "cannot listen on {bind}: another program uses that port; choose another with --bind {}:8081",
            bind.ip()
        )),
        std::io::ErrorKind::AddrNotAvailable => Error::bad_input(format!(
            "cannot listen on {bind}: this machine has no such address; use --bind 0.0.0.0:{} for every network",
            bind.port()
        )),
        std::io::ErrorKind::PermissionDenied => Error::refused(format!(
            "cannot listen on {bind}: ports below 1024 need administrator rights; use --bind {}:8080",
            bind.ip()
        )),
        _ => Error::refused(format!("cannot listen on {bind}: {e}")),
    }
}
