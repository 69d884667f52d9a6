//! One guarded try at a secret (see [`super::limit`] for the rules): whom it aims at is read from the file with
//! the targets' counts, the try is counted before it is checked, and a wrong one is written to the file (one
//! small row a target, no audit entry). The device cookie says which device sent it.

use super::error::ApiError;
use super::limit::{Guesses, Outcome};
use super::store::Db;
use crate::error::Result;
use axum::http::StatusCode;
use blake2::{Blake2s256, Digest};
use rusqlite::Connection;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// The device cookie's name.
pub const DEVICE_COOKIE: &str = "mmjudge_device";

/// How long a device cookie lasts (7 days: a weekend's event and its setup).
pub const DEVICE_DAYS: u64 = 7;

/// A request's device: its device cookie's hash (the file keeps only the hash), set by [`super::layers::device`].
#[derive(Debug, Clone)]
pub struct Device(pub String);

/// A device cookie's hash, as the file keeps it.
pub fn hash(token: &str) -> String {
    Blake2s256::digest(token.as_bytes()).iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// The cookie that keeps a device's token (HttpOnly, SameSite=Strict, every path, [`DEVICE_DAYS`]).
pub fn set_cookie(token: &str) -> String {
    format!("{DEVICE_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}", DEVICE_DAYS * 24 * 3600)
}

/// What a try aims at: the key its sender's own count is kept under, and its targets (none: counted per address
/// only).
#[derive(Debug, Clone)]
pub struct Aim {
    /// The sender's count's key (`table 3`, `judge kim`, ...).
    pub key: String,
    /// The targets whose budgets it spends.
    pub targets: Vec<String>,
}

/// The kind of secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A judge's PIN (a wrong one answers 401).
    Pin,
    /// A player's code (a wrong one answers 403).
    Code,
}

impl Kind {
    fn counts(self, app: &super::state::App) -> &Mutex<Guesses> {
        match self {
            Kind::Pin => &app.limiter,
            Kind::Code => &app.codes,
        }
    }

    fn wrong(self) -> StatusCode {
        match self {
            Kind::Pin => StatusCode::UNAUTHORIZED,
            Kind::Code => StatusCode::FORBIDDEN,
        }
    }

    fn what(self) -> &'static str {
        match self {
            Kind::Pin => "PINs",
            Kind::Code => "player codes",
        }
    }
}

/// Runs `work`, which checks a secret, as one try from `addr` (and `device`) aimed at what `aim` reads: 429
/// with `Retry-After` while held back; a wrong answer is counted in the file, a right one records the device for
/// the targets.
pub async fn guarded<T>(
    db: &Db,
    kind: Kind,
    addr: IpAddr,
    device: Option<&Device>,
    aim: impl FnOnce(&Connection) -> Result<Aim> + Send + 'static,
    work: impl Future<Output = std::result::Result<T, ApiError>>,
) -> std::result::Result<T, ApiError> {
    let app = db.app().clone();
    let counts = || kind.counts(&app).lock().map_err(|_| ApiError::internal("the wrong-try counts"));
    let dev = device.map(|d| d.0.clone());
    let asked = dev.clone();
    // A storm of guesses reads its budgets a few at a time; a login then closes the file while it waits its turn
    // to check the PIN (see [`super::state::GUESSING`]).
    let turn = app.guessing.acquire().await.map_err(|_| ApiError::internal("the guesses' turn"))?;
    let read = db
        .run(move |store| {
            store.read(|conn| {
                let aim = aim(conn)?;
                let levels = crate::ops::guesses::levels(conn, &aim.targets)?;
                let known = match &asked {
                    Some(d) if !aim.targets.is_empty() => crate::ops::guesses::known(conn, &aim.targets, d)?,
                    _ => false,
                };
                Ok((aim, levels, known))
            })
        })
        .await;
    // (A login that will not wait keeps its connection: one request, one opening of the file.)
    if kind == Kind::Pin && app.hashing.available_permits() == 0 {
        db.give_back();
    }
    drop(turn);
    let (aim, levels, known) = read?;
    let known = known || dev.as_ref().is_some_and(|d| counts().is_ok_and(|c| c.known_here(&aim.targets, d)));
    let sender = match (&dev, known) {
        (Some(d), true) => format!("device {d}"),
        _ => addr.to_string(),
    };
    let now_ms = crate::time::now().map_err(ApiError::from)?.timestamp_millis();
    let counted = counts()?.start(sender, &aim.key, &aim.targets, &levels, known, (Instant::now(), now_ms));
    let tried = counted.map_err(|secs| ApiError::too_many(kind.what(), secs))?;
    let out = work.await;
    let outcome = match &out {
        Ok(_) => Outcome::Right,
        Err(e) if e.status == kind.wrong() => Outcome::Wrong,
        Err(_) => Outcome::Unchecked,
    };
    let targets = tried.targets().to_vec();
    let standby = app.replica.following().is_some();
    if outcome == Outcome::Wrong && !targets.is_empty() {
        let rules = counts()?.rules;
        let written = match standby {
            true => Err(()),
            false => {
                let t = targets.clone();
                let spent = db
                    .run(move |store| crate::ops::guesses::spend(store, &t, |kept| rules.after_wrong(kept, now_ms)))
                    .await;
                spent.map_err(|e| tracing::warn!("a wrong try was not written to the file: {}", e.message))
            }
        };
        if written.is_err() {
            counts()?.spend_here(&targets, &levels, now_ms);
        }
    }
    if outcome == Outcome::Right
        && let Some(d) = dev.filter(|d| !targets.is_empty() && counts().is_ok_and(|c| !c.recorded(&targets, d)))
    {
        let (t, dd) = (targets.clone(), d.clone());
        if !standby {
            let _ = db.run(move |store| crate::ops::guesses::know(store, &t, &dd)).await;
        }
        counts()?.record(&targets, &d);
    }
    counts()?.settle(&tried, outcome);
    out
}
