//! The live server (`mmjudge serve`): the event on the venue's network for players' and judges' phones.
//!
//! axum on tokio. The event file stays the one truth, shared with the command line: every request opens the
//! store on a blocking thread (`spawn_blocking`) and calls `ops`; a watcher thread polls the file for changes
//! (`PRAGMA data_version`, then the audit log) and broadcasts live-update events that `GET /events` sends as
//! server-sent events. Errors map once (see [`error`]).

pub mod auth;
pub mod error;
pub mod listen;
pub mod pages;
pub mod player_table;
pub mod players;
pub mod projector;
pub mod routes;
pub mod sse;
pub mod table;
pub mod table_page;
pub mod views;
pub mod writes;

use crate::error::{Error, Result};
use crate::store::Store;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// A live-update event: its name (`round`, `result`, ...) and the audit entry that caused it.
#[derive(Debug, Clone)]
pub struct Update {
    /// The event name.
    pub name: &'static str,
    /// The highest audit id when it was seen.
    pub id: i64,
}

/// What every request shares.
pub struct App {
    /// The event file.
    pub db: PathBuf,
    /// Live updates.
    pub updates: broadcast::Sender<Update>,
    /// Wrong-PIN counts per address and per name.
    pub limiter: Mutex<auth::Limiter>,
    /// Wrong player codes, counted apart from wrong PINs (a judge's typos never lock out a table's players).
    pub codes: Mutex<auth::Limiter>,
    /// The players' site address the server announces (the projector page shows it as a QR code).
    pub site: String,
}

/// The shared state handed to handlers.
pub type Shared = Arc<App>;

impl App {
    /// The state for the event file `db`, announcing the players' site at `site`: no live updates sent yet, no
    /// wrong PINs or codes counted.
    pub fn new(db: PathBuf, site: String) -> App {
        let (updates, _) = broadcast::channel(256);
        App {
            db,
            updates,
            limiter: Mutex::new(auth::Limiter::default()),
            codes: Mutex::new(auth::Limiter::default()),
            site,
        }
    }

    /// Opens the event file (on a blocking thread only).
    pub fn open(&self) -> Result<Store> {
        Store::open(&self.db)
    }
}

/// The most requests working on the event file at once (each on its own blocking thread with its own SQLite
/// connection and page cache); more wait their turn. Without a bound, a burst of page loads on a busy laptop
/// starts hundreds of threads: every request gets slower and memory grows past what a laptop should give.
const STORE_THREADS: usize = 8;

/// Runs the server on `bind` until Ctrl-C; `ready` gets the bound address (the real port for port 0) once
/// the server listens.
pub fn serve(db: &Path, bind: SocketAddr, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    serve_with(db, bind, None, ready)
}

/// [`serve`], over HTTPS when `tls` names a certificate and its key (read before anything listens).
pub fn serve_with(
    db: &Path,
    bind: SocketAddr,
    tls: Option<&listen::Tls>,
    ready: impl FnOnce(SocketAddr),
) -> Result<()> {
    // Open once first: a missing or foreign file is refused before anything listens, and an older event is
    // migrated here rather than by the first request.
    Store::open(db)?;
    let tls = tls.map(listen::tls_config).transpose()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(STORE_THREADS)
        .enable_all()
        .build()
        .map_err(|e| Error::io("the server's runtime", e))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(bind).await.map_err(|e| bind_error(bind, &e))?;
        let addr = listener.local_addr().map_err(|e| Error::io("the server's address", e))?;
        let (updates, _) = broadcast::channel(256);
        let app = Arc::new(App {
            db: db.to_path_buf(),
            updates,
            limiter: Mutex::new(auth::Limiter::default()),
            codes: Mutex::new(auth::Limiter::default()),
            site: crate::render::qr::announced(addr, if tls.is_some() { "https" } else { "http" })
                .into_iter()
                .next()
                .unwrap_or_default(),
        });
        sse::watch(app.clone())?;
        ready(addr);
        listen::run(listener, routes::router(app), tls, listen::header_timeout()).await;
        Ok(())
    })
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
