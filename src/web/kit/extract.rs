//! What a request carries: a player acting with their table's code ([`Player`]), a write's fields ([`Payload`]) with
//! the query, path and form extractors worded the site's way, and a file sent as a body ([`Upload`]).
//!
//! Players act with their table's code instead of a login: [`Player`] is the extractor of a player's request
//! (the phone's address and the request's store), and [`Player::act`] runs their write as the code's holder,
//! with wrong codes counted against the address and the table as wrong PINs are. [`by_code`] sends a write whose
//! JSON body carries `code` to a player's handler and any other to the judges' handler of the same route.
//!
//! What a request carries, in the site's words when it is not what was expected: a write's fields from JSON or
//! a form ([`Payload`]), and axum's query, path and form extractors whose refusals are worded here (see
//! [`super::error::rejection_message`]) rather than in axum's own text. A body is read once and strictly (see
//! [`super::body`]): a field the route does not take, or one given twice, is refused naming it.
//!
//! A file sent as a request's whole body (the imports of the head judge's set-up page): up to [`UPLOAD_LIMIT`],
//! outside the [`super::error::BODY_LIMIT`] and the time limit of every other route, streamed to a file of its
//! own in the system's temporary folder (removed once its job ended) rather than held in memory.

use super::auth::{Aim, Device, Kind};
use super::error::{ApiError, BODY_LIMIT, bad_json, rejected};
use super::jobs::Upload;
use super::once::Sent;
use super::route::Who;
use super::state::{Db, FirstArrival, Shared};
use super::{auth, body, once};
use crate::error::{Error, Result};
use crate::ops::table::device;
use crate::store::{Actor, Store};
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request, State};
use axum::handler::Handler;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::MethodRouter;
use serde::de::DeserializeOwned;
use std::io::Write;
use std::net::SocketAddr;
use tokio_stream::StreamExt;

/// A player's request: where it came from and its store; who it is comes with the code ([`Player::act`]).
#[derive(Clone)]
pub struct Player {
    /// The request's store.
    pub db: Db,
    /// The phone's address.
    pub addr: SocketAddr,
    /// The `Idempotency-Key` header, if sent (see [`super::once`]).
    pub key: Option<HeaderValue>,
    /// The device cookie's hash (see [`super::auth`]).
    pub device: Option<Device>,
    /// The player whose page the write came from (`/me`'s forms say so): only their own code acts there.
    pub page_of: Option<String>,
    /// When that key first arrived (see [`super::state`]).
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
        let first = parts.extensions.get::<super::state::FirstArrival>().map(|f| f.0);
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
        auth::guarded(&self.db, Kind::Code, self.addr.ip(), self.device.as_ref(), aim, work).await
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
        auth::guarded(&self.db, Kind::Code, self.addr.ip(), self.device.as_ref(), aim, work).await
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
    /// `web ADDRESS`, audited as `command`), in one blocking call on the request's store. The code is looked up
    /// once, here: `f` is handed its [`device::Holder`], which the write's `ops` call takes.
    pub async fn act<T: Send + 'static>(
        &self,
        (table, code): (u32, String),
        command: String,
        f: impl FnOnce(&mut Store, &Actor, device::Holder) -> Result<T> + Send + 'static,
    ) -> std::result::Result<T, ApiError> {
        let code_key = format!("code {table} {}", super::auth::hash(code.trim()));
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
            let holder = store.read(|conn| device::holder(conn, table, &code))?;
            let name = holder.name.clone();
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
            f(store, &actor, holder)
        });
        self.guarded(table, run).await
    }
}

/// A player's JSON body, as [`by_code`] read it (or read here for a route only players use).
pub struct CodeBody(pub serde_json::Value);

/// A JSON body already read (by [`by_code`]), for the extractor of the handler it goes to.
#[derive(Clone)]
struct Read(serde_json::Value);

impl FromRequest<Shared> for CodeBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        if let Some(Read(value)) = req.extensions().get::<Read>() {
            return Ok(CodeBody(value.clone()));
        }
        let json =
            req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
                v.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            });
        if !json {
            // Refused in axum's case, worded the site's way.
            return match Json::<serde_json::Value>::from_request(req, app).await {
                Ok(Json(value)) => Ok(CodeBody(value)),
                Err(e) => Err(bad_json(&e)),
            };
        }
        let bytes = axum::body::to_bytes(req.into_body(), BODY_LIMIT).await.map_err(|_| ApiError::too_large())?;
        Ok(CodeBody(super::body::json(&bytes)?))
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
            // Read once: the handler's extractor takes this reading (a form, or text that is not JSON, is the
            // judges' and read there).
            match super::body::json(&bytes) {
                Ok(value) => {
                    let players = value.get("code").is_some() || value.get("signin").is_some();
                    parts.extensions.insert(Read(value));
                    let req = Request::from_parts(parts, Body::from(bytes));
                    if players { player.call(req, app).await } else { judge.call(req, app).await }
                }
                // A player's body refused (a key given twice): said to the player; anything else is the judges'.
                Err(e)
                    if serde_json::from_slice::<serde_json::Value>(&bytes)
                        .is_ok_and(|v| v.get("code").is_some() || v.get("signin").is_some()) =>
                {
                    e.into_response()
                }
                Err(_) => judge.call(Request::from_parts(parts, Body::from(bytes)), app).await,
            }
        }
    })
}

/// A write's input, from JSON or a form, with the form's CSRF token and the page to go back to.
pub struct Payload<T> {
    /// The fields.
    pub input: T,
    /// `csrf` of a form, or the `X-CSRF-Token` header.
    pub csrf: Option<String>,
    /// Where a form goes back to (a path on this server), None for JSON.
    pub back: Option<String>,
    /// The fields for the audit log (see [`shown`]).
    pub shown: String,
    /// The write's key (the `Idempotency-Key` header or a form's `idempotency_key`), if sent.
    pub sent: Option<Sent>,
}

impl<T: DeserializeOwned + Send> FromRequest<Shared> for Payload<T> {
    type Rejection = ApiError;

    /// The body is read once (see [`super::body`]): JSON into its tree, a form into its fields; that reading is what
    /// the route's type is read from, what the audit shows and what a key's fingerprint is made of.
    async fn from_request(req: Request, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        let is_form = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        let header_csrf = req.headers().get("x-csrf-token").and_then(|v| v.to_str().ok()).map(String::from);
        let header_key = req.headers().get(once::HEADER).cloned();
        let route = super::route::of(&req);
        let first = req.extensions().get::<FirstArrival>().map(|f| f.0);
        let read = req.extensions().get::<Read>().map(|Read(v)| v.clone());
        let body = Bytes::from_request(req, app).await.map_err(|_| ApiError::too_large())?;
        // A route whose own fields take `at` (a judge's note, as --at) is not refused an `at` sent without a key.
        let own_at = |takes: body::Takes| takes.contains(&"at");
        if !is_form {
            let value = match read {
                Some(value) => value,
                None => body::json(&body)?,
            };
            let (input, takes) = body::from_json::<T>(&value)?;
            let key = once::key_of(header_key.as_ref(), None, once::FIELD)?;
            let sent = once::sent(key, &value, &route, own_at(takes), first)?;
            return Ok(Payload { input, csrf: header_csrf, back: None, shown: shown(value), sent });
        }
        if body.trim_ascii_start().starts_with(b"{") {
            return Err(ApiError::from(Error::bad_input(
                "the body is JSON but was sent as a form: send it with the header Content-Type: application/json",
            )));
        }
        let fields = body::form(&body)?;
        let (input, takes) = body::from_form::<T>(&fields)?;
        let extra = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let (csrf, back, form_key) = (extra("csrf"), extra("back"), extra(once::FIELD));
        let back = back.filter(|b| b.starts_with('/') && !b.starts_with("//") && !b.contains('\\'));
        let key = once::key_of(header_key.as_ref(), form_key.as_deref(), once::FIELD)?;
        let fields = serde_json::Value::Object(fields.into_iter().map(|(k, v)| (k, v.into())).collect());
        let sent = once::sent(key, &fields, &route, own_at(takes), first)?;
        Ok(Payload {
            input,
            csrf: csrf.or(header_csrf),
            back: Some(back.unwrap_or_else(|| "/judge".into())),
            shown: shown(fields),
            sent,
        })
    }
}

/// The fields of a write as the audit log shows them (after the route): one line of JSON, without the form's
/// CSRF token and return page or a player's code, cut at 400 characters.
pub fn shown(mut value: serde_json::Value) -> String {
    if let Some(map) = value.as_object_mut() {
        map.remove("csrf");
        map.remove("back");
        map.remove("code");
        map.remove(once::FIELD);
    }
    let text = value.to_string();
    match text.char_indices().nth(400) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A query string's fields (axum's `Query`, refused in the site's words).
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(q)) => Ok(Query(q)),
            Err(e) => Err(rejected(e.status(), &e.body_text())),
        }
    }
}

/// An address's path fields (axum's `Path`, refused in the site's words).
pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(p)) => Ok(Path(p)),
            Err(e) => Err(rejected(e.status(), &e.body_text())),
        }
    }
}

/// A page form's fields (axum's `Form`, refused in the site's words).
pub struct Form<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Form<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Form::<T>::from_request(req, state).await {
            Ok(axum::Form(f)) => Ok(Form(f)),
            Err(e) if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError { status: e.status(), ..ApiError::too_large() })
            }
            Err(e) => Err(form_refused(&e.body_text())),
        }
    }
}

/// 400 for a page form whose fields are not the ones expected, naming the field (serde's words, its
/// backquotes as double quotes).
fn form_refused(text: &str) -> ApiError {
    let first = text.lines().next().unwrap_or("").trim();
    let why = first.strip_prefix("Failed to deserialize form body: ").unwrap_or(first).replace('`', "\"");
    ApiError::new(
        axum::http::StatusCode::BAD_REQUEST,
        format!("the form's fields are not the ones expected ({why}): reload the page and send it again"),
    )
}

/// The largest file accepted: MTGJSON's AtomicCards (about 100 MB) with room to spare.
pub const UPLOAD_LIMIT: u64 = 200 * 1024 * 1024;

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the file is too large (at most {} MB): choose the right file", UPLOAD_LIMIT / (1024 * 1024)),
    )
}

/// The file's name as shown in messages: the one given (its last part, without folders), else `the file`.
fn file_shown(name: Option<&str>) -> String {
    let name = name.map(|n| n.rsplit(['/', '\\']).next().unwrap_or(n).trim()).unwrap_or_default();
    let clean: String = name.chars().filter(|c| !c.is_control()).take(120).collect();
    if clean.is_empty() { "the file".into() } else { clean }
}

/// Receives the body into a new temporary file; refuses an empty body (400) or one over [`UPLOAD_LIMIT`]
/// (413, as soon as its length says so), leaving no file behind.
pub async fn receive(headers: &HeaderMap, body: Body, name: Option<&str>) -> Result<Upload, ApiError> {
    let said = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if said.is_some_and(|n| n > UPLOAD_LIMIT) {
        return Err(too_large());
    }
    let path = std::env::temp_dir().join(format!("mmjudge-upload-{}", super::auth::new_login_token()));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| ApiError::internal_because("receiving the file", format!("{}: {e}", path.display())))?;
    // From here on the file is removed when the upload is dropped (a refusal, a broken connection).
    let mut upload = Upload { path, shown: file_shown(name), bytes: 0 };
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, file);
    let mut stream = body.into_data_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "the file did not arrive whole (the connection broke): send it again",
            )
        })?;
        upload.bytes += chunk.len() as u64;
        if upload.bytes > UPLOAD_LIMIT {
            return Err(too_large());
        }
        out.write_all(&chunk).map_err(|e| ApiError::internal_because("receiving the file", e.to_string()))?;
    }
    out.flush().map_err(|e| ApiError::internal_because("receiving the file", e.to_string()))?;
    if upload.bytes == 0 {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "no file was sent: choose the file, then send it"));
    }
    Ok(upload)
}
