//! Judges' logins and sessions ([`Judge`]), and one guarded try at a secret, a PIN or a code ([`guarded`], the
//! device cookie).
//!
//! Judges' logins: name and PIN give a session (an HttpOnly SameSite=Strict cookie for pages, a bearer token for
//! the API); wrong PINs are limited per judge and per address (see [`super::limit`]); forms carry the session's
//! CSRF token, and the login form its own before a session.
//!
//! One guarded try at a secret (see [`super::limit`] for the rules): whom it aims at is read from the file with
//! the targets' counts, the try is counted before it is checked, and a wrong one is written to the file (one
//! small row a target, no audit entry). The device cookie ([`Device`]) says which device sent it.

use super::limit::{Guesses, Outcome};
use super::request::ApiError;
use super::request::Who;
use super::state::{Db, Shared};
use crate::error::Result;
use crate::ops::judges;
use crate::ops::judges::SessionJudge;
use crate::store::Actor;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use blake2::{Blake2s256, Digest};
use rusqlite::Connection;
use std::net::IpAddr;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::Instant;

/// The session cookie's name.
pub const COOKIE: &str = "mmjudge_session";

/// The actor for a web write: the judge's name, the route, and `web ADDRESS`.
pub fn actor(judge: &str, route: &str, addr: SocketAddr) -> Result<Actor, ApiError> {
    super::request::web_actor(judge, route, addr).map_err(ApiError::from)
}

/// How long a login waits for its turn to check a PIN before it is answered 503 (not counted as a try).
pub const HASH_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Checks name and PIN (with the limits), and starts a session; audited as `route` (`POST /api/login`, or the
/// page form's `POST /login`). The try is aimed at the judge the name finds and counted before the PIN is
/// checked (see [`super::limit`], [`guarded`]), and at most
/// [`super::state::HASHING`] PINs are checked at once: a login that waited [`HASH_WAIT`] for its turn is answered
/// 503 with `Retry-After`, its try taken back.
pub async fn login(
    db: &Db,
    addr: SocketAddr,
    device: Option<&Device>,
    route: &str,
    name: String,
    pin: String,
) -> Result<judges::Login, ApiError> {
    let app = db.app().clone();
    let asked = name.clone();
    // Whether the name is a judge's, as the try's aim reads it (before the work below runs).
    let a_judge = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let found = a_judge.clone();
    let aim = move |conn: &rusqlite::Connection| {
        let key = format!("judge {}", crate::domain::names::key(&asked));
        let targets: Vec<String> = crate::ops::guesses::judge(conn, &asked)?.into_iter().collect();
        found.store(!targets.is_empty(), std::sync::atomic::Ordering::Relaxed);
        Ok(Aim::at(key, targets))
    };
    let route = route.to_string();
    let work = async move {
        // A name that is no judge's hashes nothing: it waits as long as a PIN's check takes, on a timer, and is
        // answered as a wrong PIN; only a judge's name takes a turn at hashing.
        if !a_judge.load(std::sync::atomic::Ordering::Relaxed) {
            db.give_back();
            let wait = tokio::task::spawn_blocking(judges::unknown_name_wait).await.unwrap_or_default();
            tokio::time::sleep(wait).await;
            return Err(judges::wrong_login().into());
        }
        let Ok(Ok(turn)) = tokio::time::timeout(HASH_WAIT, app.hashing.acquire()).await else {
            return Err(ApiError::busy("too many logins at once", 2));
        };
        let actor = actor(&name, &route, addr)?;
        // A standby's file takes no writes: the session is checked against the replicated PIN hashes and kept in
        // this server's memory.
        let out = if app.replica.following().is_some() {
            let held = db.run(move |store| judges::login_in_memory(store, &actor, &name, &pin)).await;
            held.and_then(|(login, key, judge)| {
                let mut sessions = app.standby_sessions.lock().map_err(|_| ApiError::internal("sessions"))?;
                sessions.insert(key, judge);
                Ok(login)
            })
        } else {
            db.run_session(move |store| judges::login(store, &actor, &name, &pin)).await
        };
        drop(turn);
        out
    };
    guarded(db, Kind::Pin, addr.ip(), device, aim, work).await
}

/// Logs a judge in with a one-time login link (`judge link NAME` at the event's computer): no PIN, no budget of
/// wrong tries (its 128-bit token is typed nowhere, so it works while guessers hold the PIN back), once. The device
/// it logs in becomes one the judge's PIN budget never refuses. A standby takes no writes, and a link is used up
/// by one: there, the judge logs in with the PIN.
pub async fn login_link(
    db: &Db,
    addr: SocketAddr,
    device: Option<&Device>,
    route: &str,
    name: String,
    link: String,
) -> Result<judges::Login, ApiError> {
    if db.app().replica.following().is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "a login link works on the event's main laptop; on this second laptop, log in with your PIN",
        ));
    }
    let actor = actor(&name, route, addr)?;
    let dev = device.map(|d| d.0.clone());
    db.run_session(move |store| {
        let login = judges::link::login_by_link(store, &actor, &name, &link)?;
        if let Some(d) = dev {
            let targets: Vec<String> =
                store.read(|conn| crate::ops::guesses::judge(conn, &login.name))?.into_iter().collect();
            crate::ops::guesses::know(store, &targets, &d)?;
        }
        Ok(login)
    })
    .await
}

/// A logged-in judge, from `Authorization: Bearer TOKEN` or the session cookie; 401 otherwise. The session is
/// read through the request's [`Db`], which the handler then writes through.
#[derive(Debug, Clone)]
pub struct Judge {
    /// Who, with the session's role and CSRF token.
    pub judge: SessionJudge,
    /// The session token.
    pub token: String,
    /// Whether it came from the cookie (then writes need the CSRF token).
    pub by_cookie: bool,
    /// The phone's address.
    pub addr: SocketAddr,
    /// The request's route.
    pub route: super::request::Route,
    /// The request's store (the session was read through it; the judge's write goes through it too).
    pub db: Db,
    /// When the request's answer is due (its pages are drawn within it).
    pub deadline: super::drawn::Deadline,
}

impl Judge {
    /// The audit's command line of this request's write: its route's name and the fields sent.
    pub fn command(&self, shown: &str) -> String {
        format!("{} {shown}", self.route.name)
    }

    /// The actor of a write by this judge through `route`.
    pub fn actor(&self, route: &str) -> Result<Actor, ApiError> {
        actor(&self.judge.name, route, self.addr)
    }

    /// A write through the cookie must carry the session's CSRF token (header `X-CSRF-Token` or the form's
    /// `csrf` field); a bearer token needs none (no browser sends it on its own).
    pub fn check_csrf(&self, given: Option<&str>) -> Result<(), ApiError> {
        if !self.by_cookie || given == Some(self.judge.csrf.as_str()) {
            return Ok(());
        }
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this form is out of date (missing or wrong CSRF token): reload the page and try again",
        ))
    }
}

/// The session token a request carries: bearer first, then the cookie.
pub fn token_of(headers: &HeaderMap) -> Option<(String, bool)> {
    let bearer = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| (t.trim().to_string(), false));
    bearer.or_else(|| cookie(headers, COOKIE).map(|t| (t, true)))
}

/// A cookie's value.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get_all(axum::http::header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|all| {
        all.split(';').find_map(|c| {
            let (k, v) = c.trim().split_once('=')?;
            (k == name).then(|| v.to_string())
        })
    })
}

impl FromRequestParts<Shared> for Judge {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Self::Rejection> {
        let addr = super::request::client_addr(&parts.extensions)?;
        let Some((token, by_cookie)) = token_of(&parts.headers) else {
            return Err(crate::error::Error::unauthorized(
                "not logged in: log in with your judge name and PIN (POST /api/login, or the page /login)",
            )
            .into());
        };
        let t = token.clone();
        let db = Db::of(&mut parts.extensions, app);
        let held = app.standby_sessions.lock().ok().and_then(|s| s.get(&judges::session_key(&token)).cloned());
        let judge = match held {
            Some(held) => judges::held_session(&held, crate::time::now()?)?,
            None => db.run(move |store| judges::session(store, &t, crate::time::now()?)).await?,
        };
        Who::set(&parts.extensions, judge.name.clone());
        let route = super::request::Route::on(&parts.extensions);
        let deadline = super::drawn::Deadline::of(&parts.extensions);
        Ok(Judge { judge, token, by_cookie, addr, route, db, deadline })
    }
}

/// The cookie that holds a session (12 hours, HttpOnly, SameSite=Strict).
pub fn session_cookie(token: &str) -> String {
    format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}", judges::SESSION_HOURS * 3600)
}

/// The login form's pre-session cookie: a random token the form repeats in its `csrf` field (double submit),
/// so that no other site can post a login from a judge's phone.
pub const LOGIN_COOKIE: &str = "mmjudge_login";

/// A new pre-session token (128 random bits, hex).
pub fn new_login_token() -> String {
    crate::ops::judges::random_hex(16)
}

/// Whether a cookie's value looks like one of this server's tokens (32 hex digits).
pub fn is_token(t: &str) -> bool {
    t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The pre-session token a request carries, when it looks like one of ours.
pub fn login_token(headers: &HeaderMap) -> Option<String> {
    cookie(headers, LOGIN_COOKIE).filter(|t| is_token(t))
}

/// The pre-session cookie (an hour, only sent to /login, HttpOnly, SameSite=Strict).
pub fn login_cookie(token: &str) -> String {
    format!("{LOGIN_COOKIE}={token}; Path=/login; HttpOnly; SameSite=Strict; Max-Age=3600")
}

/// Whether a login form's `csrf` field repeats its pre-session cookie (compared in constant time).
pub fn login_csrf_ok(headers: &HeaderMap, given: Option<&str>) -> bool {
    match (login_token(headers), given) {
        (Some(want), Some(given)) => crate::ops::judges::same_secret(&want, given),
        _ => false,
    }
}

/// The cookie that clears the session on logout.
pub fn cleared_cookie() -> String {
    format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
}

/// The device cookie's name.
pub const DEVICE_COOKIE: &str = "mmjudge_device";

/// How long a device cookie lasts (7 days: a weekend's event and its setup).
pub const DEVICE_DAYS: u64 = 7;

/// A request's device: its device cookie's hash (the file keeps only the hash), set by [`crate::web::layers::device`].
#[derive(Debug, Clone)]
pub struct Device(pub String);

/// Put on a write's request that came without a device cookie (the device layer made one for it): a
/// confirmation of a self-report must come from a device known by its cookie.
#[derive(Debug, Clone, Copy)]
pub struct NewDevice;

/// A device cookie's hash, as the file keeps it.
pub fn hash(token: &str) -> String {
    Blake2s256::digest(token.as_bytes()).iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// The cookie that keeps a device's token (HttpOnly, SameSite=Strict, every path, [`DEVICE_DAYS`]).
pub fn set_cookie(token: &str) -> String {
    format!("{DEVICE_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}", DEVICE_DAYS * 24 * 3600)
}

/// What a try aims at: the key its sender's own count is kept under, its targets (none: counted per address
/// only), and whom a right answer proves.
#[derive(Debug, Clone)]
pub struct Aim {
    /// The sender's count's key (`table 3`, `judge kim`, ...).
    pub key: String,
    /// The targets whose budgets it spends.
    pub targets: Vec<String>,
    /// The targets a right answer makes the device known for (a code: its own player only).
    pub proves: Vec<String>,
    /// Known wrong before it is checked (a code that is not the aimed player's): the refusal's words, answered as
    /// a wrong secret without running the work, once the try is counted.
    pub wrong: Option<String>,
}

impl Aim {
    /// A try whose right answer proves every target (a PIN, a check-in's code).
    pub fn at(key: String, targets: Vec<String>) -> Aim {
        Aim { key, proves: targets.clone(), targets, wrong: None }
    }
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

    /// 429 for a try held back, naming the way out: a player's code can be renewed by a judge at once (a new
    /// code starts its budget afresh).
    fn held_back(self, secs: u64) -> ApiError {
        let e = ApiError::too_many(self.what(), secs).for_wrong_tries();
        match self {
            Kind::Pin => e,
            Kind::Code => ApiError {
                message: format!(
                    "too many wrong player codes: wait {}, or ask a judge for a new code (it works at once)",
                    crate::domain::words::wait(secs)
                ),
                ..e
            },
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
                let mut aim = aim(conn)?;
                // The address's count is the secrets' of now: a new code or PIN is a new count.
                aim.key = format!("{} {:016x}", aim.key, crate::ops::guesses::mark(conn, &aim.targets)?);
                let levels = crate::ops::guesses::levels(conn, &aim.targets)?;
                let known = match &asked {
                    Some(d) => crate::ops::guesses::known(conn, &aim.targets, d)?,
                    None => vec![false; aim.targets.len()],
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
    let (aim, levels, in_file) = read?;
    let known: Vec<bool> = match &dev {
        Some(d) => {
            let c = counts()?;
            aim.targets.iter().zip(&in_file).map(|(t, k)| *k || c.known_here(t, d)).collect()
        }
        None => in_file.clone(),
    };
    // A device known for every target counts its own wrong tries; any other try counts per address.
    let sender = match &dev {
        Some(d) if !known.is_empty() && known.iter().all(|k| *k) => format!("device {d}"),
        _ => addr.to_string(),
    };
    let now_ms = crate::time::now().map_err(ApiError::from)?.timestamp_millis();
    let counted = counts()?.start(sender, &aim.key, &aim.targets, &levels, &known, (Instant::now(), now_ms));
    let tried = counted.map_err(|secs| kind.held_back(secs))?;
    let out = match &aim.wrong {
        Some(words) => Err(ApiError::new(kind.wrong(), words.clone())),
        None => work.await,
    };
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
        && let Some(d) = dev
    {
        // Known for its own player only, and written once: a target the file already knows it for writes nothing.
        let new: Vec<String> = aim
            .proves
            .iter()
            .filter(|p| !aim.targets.iter().zip(&in_file).any(|(t, k)| t == *p && *k))
            .filter(|p| counts().is_ok_and(|c| !c.known_here(p, &d)))
            .cloned()
            .collect();
        if !new.is_empty() && !standby {
            let (t, dd) = (new.clone(), d.clone());
            let _ = db.run(move |store| crate::ops::guesses::know(store, &t, &dd)).await;
        }
        let mut c = counts()?;
        for p in &aim.proves {
            c.record(p, &d);
        }
    }
    counts()?.settle(&tried, outcome);
    out
}
