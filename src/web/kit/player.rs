//! Players act with their table's code instead of a login: [`Player`] is the extractor of a player's request
//! (the phone's address and the request's store), and [`Player::act`] runs their write as the code's holder,
//! with wrong codes counted against the address and the table as wrong PINs are. [`by_code`] sends a write whose
//! JSON body carries `code` to a player's handler and any other to the judges' handler of the same route.

use super::error::{ApiError, BODY_LIMIT, bad_json};
use super::log::Who;
use super::state::Shared;
use super::store::Db;
use crate::error::Result;
use crate::ops::table::device;
use crate::store::{Actor, Store};
use axum::Json;
use axum::body::Body;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request, State};
use axum::handler::Handler;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::IntoResponse;
use axum::routing::MethodRouter;
use std::net::SocketAddr;
use std::time::Instant;

/// A player's request: where it came from and its store; who it is comes with the code ([`Player::act`]).
#[derive(Clone)]
pub struct Player {
    /// The request's store.
    pub db: Db,
    /// The phone's address.
    pub addr: SocketAddr,
    /// The `Idempotency-Key` header, if sent (see [`super::once`]).
    pub key: Option<HeaderValue>,
    /// When that key first arrived (see [`super::arrivals`]).
    pub first: Option<chrono::DateTime<chrono::Utc>>,
    /// The request's path.
    pub path: String,
    who: Who,
}

impl FromRequestParts<Shared> for Player {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        let addr = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0)
            .ok_or_else(|| ApiError::internal("no client address"))?;
        let who = parts.extensions.get::<Who>().cloned().unwrap_or_default();
        let key = parts.headers.get(super::once::HEADER).cloned();
        let first = parts.extensions.get::<super::arrivals::FirstArrival>().map(|f| f.0);
        let path = parts.uri.path().to_string();
        Ok(Player { db: Db::of(&mut parts.extensions, app), addr, key, first, path, who })
    }
}

impl Player {
    /// Runs `work` that checks a code at `table` under the wrong-code limit (see [`super::limit`]): 429 while this
    /// address sent too many wrong codes for the table (or the table's guessers together did), the try counted
    /// before it is checked; a wrong code (403) stays counted, a right one clears this address's count.
    pub async fn guarded<T>(
        &self,
        table: u32,
        work: impl Future<Output = std::result::Result<T, ApiError>>,
    ) -> std::result::Result<T, ApiError> {
        self.guarded_key(format!("table {table}"), work).await
    }

    /// [`Player::guarded`] for a code checked against another key than a table (`name ANA`: a check-in's name).
    pub async fn guarded_key<T>(
        &self,
        key: String,
        work: impl Future<Output = std::result::Result<T, ApiError>>,
    ) -> std::result::Result<T, ApiError> {
        let app = self.db.app();
        let limiter = || app.codes.lock().map_err(|_| ApiError::internal("limiter"));
        let counted = limiter()?.start(self.addr.ip(), &key, Instant::now());
        let tried = counted.map_err(|secs| ApiError::too_many("player codes", secs))?;
        let out = work.await;
        let mut limiter = limiter()?;
        match &out {
            Err(e) if e.status == StatusCode::FORBIDDEN => {}
            Ok(_) => limiter.right(tried),
            // Refused for something else than the code: the code was right (or never checked).
            Err(_) => limiter.unchecked(tried),
        }
        out
    }

    /// Records which player asked, for the request log (`NAME (player)`, as the audit names them).
    pub fn is(&self, name: &str) {
        self.who.is(format!("{name} (player)"));
    }

    /// Runs one write as the holder of `code` at `table`: the actor is the code's player (`NAME (player)`, via
    /// `web ADDRESS`, audited as `command`), in one blocking call on the request's store.
    pub async fn act<T: Send + 'static>(
        &self,
        (table, code): (u32, String),
        command: String,
        f: impl FnOnce(&mut Store, &Actor) -> Result<T> + Send + 'static,
    ) -> std::result::Result<T, ApiError> {
        let (addr, who) = (self.addr, self.who.clone());
        let run = self.db.run(move |store| {
            let name = store.read(|conn| device::name_of_code(conn, table, &code))?;
            let actor = Actor {
                judge: format!("{name} (player)"),
                command_line: command,
                at: crate::time::now()?,
                via: format!("web {}", addr.ip()),
                claim: None,
            };
            who.is(actor.judge.clone());
            f(store, &actor)
        });
        self.guarded(table, run).await
    }
}

/// A player's JSON body, as [`by_code`] read it (or read here for a route only players use).
pub struct CodeBody(pub serde_json::Value);

#[derive(Clone)]
struct Read(serde_json::Value);

impl FromRequest<Shared> for CodeBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        if let Some(Read(value)) = req.extensions().get::<Read>() {
            return Ok(CodeBody(value.clone()));
        }
        let (parts, body) = req.into_parts();
        let bytes = axum::body::to_bytes(body, BODY_LIMIT).await.map_err(|_| ApiError::too_large())?;
        super::strict::once_in_json(&bytes)?;
        let req = Request::from_parts(parts, Body::from(bytes));
        match Json::<serde_json::Value>::from_request(req, app).await {
            Ok(Json(value)) => Ok(CodeBody(value)),
            Err(e) => Err(bad_json(&e)),
        }
    }
}

/// `POST` to `player` when the JSON body carries `code`, else to `judge` (a judge's JSON or form).
pub fn by_code<P, PT, J, JT>(player: P, judge: J) -> MethodRouter<Shared>
where
    P: Handler<PT, Shared>,
    J: Handler<JT, Shared>,
    PT: 'static,
    JT: 'static,
{
    axum::routing::post(move |State(app): State<Shared>, req: Request| {
        let (player, judge) = (player.clone(), judge.clone());
        async move {
            let (mut parts, body) = req.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
                return ApiError::too_large().into_response();
            };
            match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Ok(value) if value.get("code").is_some() => {
                    if let Err(e) = super::strict::once_in_json(&bytes) {
                        return e.into_response();
                    }
                    parts.extensions.insert(Read(value));
                    player.call(Request::from_parts(parts, Body::from(bytes)), app).await
                }
                _ => judge.call(Request::from_parts(parts, Body::from(bytes)), app).await,
            }
        }
    })
}
