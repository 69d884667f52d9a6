//! Judges' logins: name and PIN give a session (an HttpOnly SameSite=Strict cookie for pages, a bearer token
//! for the API); wrong PINs are limited per address and per name; forms carry the session's CSRF token.

use super::Shared;
use super::error::{ApiError, blocking};
use crate::ops::judges::{self, SessionJudge};
use crate::store::Actor;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

/// The session cookie's name.
pub const COOKIE: &str = "mmjudge_session";

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

/// The actor for a web write: the judge's name, the route, and `web ADDRESS`.
pub fn actor(judge: &str, route: &str, addr: SocketAddr) -> Result<Actor, ApiError> {
    Ok(Actor {
        judge: judge.to_string(),
        command_line: route.to_string(),
        at: crate::time::now().map_err(ApiError::from)?,
        via: format!("web {}", addr.ip()),
    })
}

/// Checks name and PIN (with the limits), and starts a session; audited as `POST /api/login`.
pub async fn login(app: &Shared, addr: SocketAddr, name: String, pin: String) -> Result<judges::Login, ApiError> {
    login_via(app, addr, "POST /api/login", name, pin).await
}

/// [`login`], audited as `route` (the page form's `POST /login`).
pub async fn login_via(
    app: &Shared,
    addr: SocketAddr,
    route: &str,
    name: String,
    pin: String,
) -> Result<judges::Login, ApiError> {
    let key = crate::domain::names::key(&name);
    let waited = app.limiter.lock().map_err(|_| ApiError::internal("limiter"))?.wait(addr.ip(), &key, Instant::now());
    if let Some(secs) = waited {
        return Err(ApiError::too_many("PINs", secs));
    }
    let actor = actor(&name, route, addr)?;
    let app2 = app.clone();
    let out = blocking(move || {
        let mut store = app2.open()?;
        judges::login(&mut store, &actor, &name, &pin)
    })
    .await;
    let mut limiter = app.limiter.lock().map_err(|_| ApiError::internal("limiter"))?;
    match &out {
        Ok(_) => limiter.succeeded(&key),
        Err(e) if e.status == axum::http::StatusCode::UNAUTHORIZED => limiter.failed(addr.ip(), &key, Instant::now()),
        Err(_) => {}
    }
    out
}

/// A logged-in judge, from `Authorization: Bearer TOKEN` or the session cookie; 401 otherwise.
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
}

impl Judge {
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
        Err(ApiError {
            status: axum::http::StatusCode::FORBIDDEN,
            message: "this form is out of date (missing or wrong CSRF token): reload the page and try again".into(),
        })
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
        let addr = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0)
            .ok_or_else(|| ApiError::internal("no client address"))?;
        let Some((token, by_cookie)) = token_of(&parts.headers) else {
            return Err(crate::error::Error::unauthorized(
                "not logged in: log in with your judge name and PIN (POST /api/login, or the page /login)",
            )
            .into());
        };
        let app = app.clone();
        let t = token.clone();
        let judge = blocking(move || {
            let store = app.open()?;
            judges::session(&store, &t, crate::time::now()?)
        })
        .await?;
        Ok(Judge { judge, token, by_cookie, addr })
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
    use rand::RngExt;
    let mut rng = rand::rng();
    (0..16).map(|_| format!("{:02x}", rng.random::<u8>())).collect()
}

/// The pre-session token a request carries, when it looks like one of ours.
pub fn login_token(headers: &HeaderMap) -> Option<String> {
    cookie(headers, LOGIN_COOKIE).filter(|t| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The pre-session cookie (an hour, only sent to /login, HttpOnly, SameSite=Strict).
pub fn login_cookie(token: &str) -> String {
    format!("{LOGIN_COOKIE}={token}; Path=/login; HttpOnly; SameSite=Strict; Max-Age=3600")
}

/// Whether a login form's `csrf` field repeats its pre-session cookie (compared in constant time).
pub fn login_csrf_ok(headers: &HeaderMap, given: Option<&str>) -> bool {
    match (login_token(headers), given) {
        (Some(want), Some(given)) if want.len() == given.len() => {
            want.bytes().zip(given.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
        }
        _ => false,
    }
}

/// The cookie that clears the session on logout.
pub fn cleared_cookie() -> String {
    format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
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
