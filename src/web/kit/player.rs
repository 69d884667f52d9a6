//! Players act with their table's code instead of a login: [`Player`] is the extractor of a player's request
//! (the phone's address and the request's store), and [`Player::act`] runs their write as the code's holder,
//! with wrong codes counted against the address and the table as wrong PINs are. [`by_code`] sends a write whose
//! JSON body carries `code` to a player's handler and any other to the judges' handler of the same route.

use super::error::{ApiError, BODY_LIMIT, bad_json};
use super::guess::{self, Aim, Device, Kind};
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
use axum::http::HeaderValue;
use axum::http::request::Parts;
use axum::response::IntoResponse;
use axum::routing::MethodRouter;
use std::net::SocketAddr;

/// A player's request: where it came from and its store; who it is comes with the code ([`Player::act`]).
#[derive(Clone)]
pub struct Player {
    /// The request's store.
    pub db: Db,
    /// The phone's address.
    pub addr: SocketAddr,
    /// The `Idempotency-Key` header, if sent (see [`super::once`]).
    pub key: Option<HeaderValue>,
    /// The device cookie's hash (see [`super::guess`]).
    pub device: Option<Device>,
    /// The player whose page the write came from (`/me`'s forms say so): only their own code acts there.
    pub page_of: Option<String>,
    /// When that key first arrived (see [`super::arrivals`]).
    pub first: Option<chrono::DateTime<chrono::Utc>>,
    /// The request's route.
    pub route: super::route::Route,
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
        let device = parts.extensions.get::<Device>().cloned();
        let first = parts.extensions.get::<super::arrivals::FirstArrival>().map(|f| f.0);
        let route = super::route::on(&parts.extensions);
        Ok(Player { db: Db::of(&mut parts.extensions, app), addr, key, device, page_of: None, first, route, who })
    }
}

impl Player {
    /// Runs `work` that checks a code at `table` under the wrong-code limits (see [`super::limit`]): the try is
    /// aimed at the two players seated there; 429 while their budget is spent (unless this device signed in for
    /// one of them before) or while this address sent too many wrong codes for the table; a wrong code (403) is
    /// counted, a right one records the device.
    pub async fn guarded<T>(
        &self,
        table: u32,
        work: impl Future<Output = std::result::Result<T, ApiError>>,
    ) -> std::result::Result<T, ApiError> {
        let aim = move |conn: &rusqlite::Connection| {
            Ok(Aim { key: format!("table {table}"), targets: crate::ops::guesses::table(conn, table)? })
        };
        guess::guarded(&self.db, Kind::Code, self.addr.ip(), self.device.as_ref(), aim, work).await
    }

    /// [`Player::guarded`] for a check-in: the try is aimed at the one player `name` finds; a name that finds
    /// nobody or several is counted per address only (and answered as a wrong code).
    pub async fn guarded_name<T>(
        &self,
        name: String,
        work: impl Future<Output = std::result::Result<T, ApiError>>,
    ) -> std::result::Result<T, ApiError> {
        let aim = move |conn: &rusqlite::Connection| {
            Ok(match crate::ops::guesses::name(conn, &name)? {
                Some(target) => Aim { key: format!("check-in {target}"), targets: vec![target] },
                None => Aim { key: "check-in of no one player".into(), targets: Vec::new() },
            })
        };
        guess::guarded(&self.db, Kind::Code, self.addr.ip(), self.device.as_ref(), aim, work).await
    }

    /// The write came from `name`'s page (`/me?name=`): a code of anyone else is refused there.
    pub fn on_page_of(mut self, name: Option<String>) -> Player {
        self.page_of = name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
        self
    }

    /// The code a table device's write acts with: the `code` sent, or the code of the player its `signin` names
    /// (see [`crate::ops::table::device::sign_in`]; a sign-in that no longer acts is 403, not counted as a wrong
    /// code: its token is not guessed). Both, or neither: 400.
    pub async fn code_of(
        &self,
        table: u32,
        code: Option<String>,
        signin: Option<String>,
    ) -> std::result::Result<String, ApiError> {
        match (code, signin) {
            (Some(code), None) => Ok(code),
            (None, Some(token)) => {
                let read = move |store: &mut Store| {
                    store.read(|conn| crate::ops::table::device::sign_in::code_of_sign_in(conn, table, &token))
                };
                self.db.run(read).await
            }
            (Some(_), Some(_)) => Err(crate::error::Error::bad_input(
                "give either your code or your sign-in on the table's device, not both",
            )
            .into()),
            (None, None) => Err(crate::error::Error::bad_input(
                "sign in on the table's device first (your code, six digits, on your slip)",
            )
            .into()),
        }
    }

    /// The audit's command line of this request's write: its route's name and the fields sent.
    pub fn command(&self, shown: &str) -> String {
        format!("{} {shown}", self.route.name)
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
        let code_key = format!("code {table} {}", super::guess::hash(code.trim()));
        let paced = self
            .db
            .app()
            .pace
            .lock()
            .map_err(|_| ApiError::internal("the pace"))?
            .take(&[format!("table {table}"), code_key], std::time::Instant::now());
        paced.map_err(|secs| ApiError {
            message: format!("too many taps at once: wait {secs} s; your phone sends it again by itself"),
            ..ApiError::too_many("taps", secs)
        })?;
        let (addr, who, page_of) = (self.addr, self.who.clone(), self.page_of.clone());
        let run = self.db.run(move |store| {
            let name = store.read(|conn| device::name_of_code(conn, table, &code))?;
            if let Some(page) = page_of.filter(|p| crate::domain::names::key(p) != crate::domain::names::key(&name)) {
                return Err(crate::error::Error::forbidden(format!(
                    "that is not your code: this is {page}'s page; type your own code here, or open your own page"
                )));
            }
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

/// `POST` to `player` when the JSON body carries `code` (or a table device's `signin`), else to `judge` (a judge's
/// JSON or form).
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
                Ok(value) if value.get("code").is_some() || value.get("signin").is_some() => {
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
