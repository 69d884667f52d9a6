//! The table's own device: players act with their code instead of a login (`POST /api/note`,
//! `/api/note/undo`, `/api/clock/start`, `/api/clock/hand-over`, `/api/clock/stop`), and everyone reads a
//! table's sheet and clock (`GET /api/table/N/notes`) and the completion of a cost (`GET /api/cards/cost`).
//! A write whose JSON body carries `code` is a player's; any other goes to the judges' route of the same name.
//! Wrong codes count against the address and the table as wrong PINs do.

use super::Shared;
use super::error::{ApiError, blocking};
use crate::error::{Error, Result};
use crate::ops::card_reference::Printed;
use crate::ops::live::{self, TableView};
use crate::ops::table::device::{self, DeviceNoteInput};
use crate::store::{Actor, Store};
use axum::Json;
use axum::body::Body;
use axum::extract::{ConnectInfo, Path, Query, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::time::Instant;

/// The largest body read here (as [`super::routes`]).
const BODY_LIMIT: usize = 16 * 1024;
/// The most names completion sends.
const COMPLETIONS: usize = 20;

/// A write's body: the JSON value when it carries a player's `code`, else the request rebuilt for the judges'
/// route.
pub enum Split {
    /// A player's write.
    Player(serde_json::Value),
    /// Anything else (a judge's JSON or form).
    Judge(Box<Request>),
}

/// Reads the body and decides whose write it is.
pub async fn split(req: Request) -> std::result::Result<Split, ApiError> {
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, BODY_LIMIT).await.map_err(|_| ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        message: format!("the request is too large (at most {} KB): send only the fields needed", BODY_LIMIT / 1024),
    })?;
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes)
        && value.get("code").is_some()
    {
        return Ok(Split::Player(value));
    }
    Ok(Split::Judge(Box::new(Request::from_parts(parts, Body::from(bytes)))))
}

/// The fields of a player's write, or 400 naming what is wrong.
fn fields<T: DeserializeOwned>(value: &serde_json::Value) -> std::result::Result<T, ApiError> {
    serde_json::from_value(value.clone())
        .map_err(|e| ApiError::from(Error::bad_input(super::error::not_the_json(&e.to_string()))))
}

/// The fields as the audit log shows them: one line of JSON without the code.
fn shown(value: &serde_json::Value) -> String {
    let mut v = value.clone();
    if let Some(map) = v.as_object_mut() {
        map.remove("code");
    }
    let text = v.to_string();
    match text.char_indices().nth(400) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Runs one player's write: the wrong-code limit, the code's player as the actor (`NAME (player)`, via
/// `web ADDRESS`), the `ops` call on a blocking thread; a wrong code (403) counts against the address.
async fn player_write<T: Serialize + Send + 'static>(
    app: Shared,
    addr: SocketAddr,
    route: &'static str,
    (table, code): (u32, String),
    value: &serde_json::Value,
    f: impl FnOnce(&mut Store, &Actor) -> Result<T> + Send + 'static,
) -> std::result::Result<T, ApiError> {
    as_code_holder(app, addr, (table, code), format!("{route} {}", shown(value)), f).await
}

/// [`player_write`] with the audit's command line given: the self-reports and calls of `/me` use it too.
pub(super) async fn as_code_holder<T: Send + 'static>(
    app: Shared,
    addr: SocketAddr,
    (table, code): (u32, String),
    command: String,
    f: impl FnOnce(&mut Store, &Actor) -> Result<T> + Send + 'static,
) -> std::result::Result<T, ApiError> {
    let key = format!("table {table}");
    let waited = app.codes.lock().map_err(|_| ApiError::internal("limiter"))?.wait(addr.ip(), &key, Instant::now());
    if let Some(secs) = waited {
        return Err(ApiError::too_many("player codes", secs));
    }
    let app2 = app.clone();
    let out = blocking(move || {
        let mut store = app2.open()?;
        let name = store.read(|conn| device::name_of_code(conn, table, &code))?;
        let actor = Actor {
            judge: format!("{name} (player)"),
            command_line: command,
            at: crate::time::now()?,
            via: format!("web {}", addr.ip()),
        };
        f(&mut store, &actor)
    })
    .await;
    if matches!(&out, Err(e) if e.status == StatusCode::FORBIDDEN) {
        app.codes.lock().map_err(|_| ApiError::internal("limiter"))?.failed(addr.ip(), &key, Instant::now());
    }
    out
}

/// `{"ok": true, "summary", ...outcome}`.
fn answer<T: Serialize>(summary: &str, out: &T, more: serde_json::Value) -> Response {
    let mut doc = serde_json::json!({ "ok": true, "summary": summary });
    if let (Some(map), Ok(serde_json::Value::Object(fields))) = (doc.as_object_mut(), serde_json::to_value(out)) {
        map.extend(fields);
    }
    if let (Some(map), serde_json::Value::Object(fields)) = (doc.as_object_mut(), more) {
        map.extend(fields);
    }
    Json(doc).into_response()
}

/// `POST /api/note` from the table's device.
#[derive(Debug, serde::Deserialize)]
pub struct NoteBody {
    /// The table.
    pub table: u32,
    /// The declaring player's code.
    pub code: String,
    /// The printed cost (`B1`, `{1}{B}`, `land`).
    pub cost: String,
    /// The card.
    pub card: Option<String>,
    /// The letter, under the alphabet bindings.
    pub letter: Option<String>,
    /// A discarded card left unnamed.
    #[serde(default)]
    pub unnamed: bool,
    /// The device's id for this declaration (a retry is recorded once).
    pub client_id: Option<String>,
}

fn letter_of(letter: Option<String>) -> Result<Option<char>> {
    match letter.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        None => Ok(None),
        Some(l) => {
            let mut chars = l.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_alphabetic() => Ok(Some(c)),
                _ => Err(Error::bad_input(format!("letter is one letter, not \"{l}\""))),
            }
        }
    }
}

/// A player's declaration (`{"table","code","cost","card","letter","client_id"}` or `"unnamed": true`).
pub async fn player_note(app: Shared, addr: SocketAddr, value: serde_json::Value) -> Response {
    let run = async {
        let b: NoteBody = fields(&value)?;
        let card = match (b.unnamed, b.card.map(|c| c.trim().to_string()).filter(|c| !c.is_empty())) {
            (true, None) => None,
            (true, Some(_)) => {
                return Err(ApiError::from(Error::bad_input("give either \"card\" or \"unnamed\": true, not both")));
            }
            (false, Some(c)) => Some(c),
            (false, None) => {
                return Err(ApiError::from(Error::bad_input(
                    "which card? give the card declared, or mark it unnamed (a discarded card left unnamed)",
                )));
            }
        };
        let input = DeviceNoteInput {
            table: b.table,
            code: b.code.clone(),
            printed: Printed::parse(&b.cost)?,
            card,
            letter: letter_of(b.letter)?,
            client_id: b.client_id,
        };
        let out = player_write(app, addr, "POST /api/note", (b.table, b.code), &value, move |store, actor| {
            device::declare(store, actor, input)
        })
        .await?;
        let mut doc = serde_json::json!({ "ok": true, "summary": out.summary, "repeat": out.repeat });
        if let (Some(map), serde_json::Value::Object(fields)) = (doc.as_object_mut(), out.note) {
            map.extend(fields);
        }
        Ok(Json(doc).into_response())
    };
    run.await.unwrap_or_else(IntoResponse::into_response)
}

/// `{"table","code"}` of the undo and the clock.
#[derive(Debug, serde::Deserialize)]
pub struct CodeBody {
    /// The table.
    pub table: u32,
    /// The player's code.
    pub code: String,
}

/// `POST /api/note/undo`: the player's own last declaration, within 30 s and if nothing was declared since.
pub async fn undo(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<serde_json::Value>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let run = async {
        let Json(value) = body.map_err(|e| super::routes::bad_json(&e))?;
        let b: CodeBody = fields(&value)?;
        let (table, code) = (b.table, b.code.clone());
        let out = player_write(app, addr, "POST /api/note/undo", (b.table, b.code), &value, move |store, actor| {
            device::take_back(store, actor, table, &code)
        })
        .await?;
        Ok::<_, ApiError>(answer(&out.summary, &out, serde_json::json!({})))
    };
    run.await.unwrap_or_else(IntoResponse::into_response)
}

/// Which clock tap.
#[derive(Debug, Clone, Copy)]
pub enum Tap {
    /// Start the player's decision.
    Start,
    /// Hand it over to the opponent.
    HandOver,
    /// Stop it.
    Stop,
}

/// A player's clock tap: the outcome, then the table's clock as it stands (absolute deadlines).
pub async fn player_clock(app: Shared, addr: SocketAddr, tap: Tap, value: serde_json::Value) -> Response {
    let run = async {
        let b: CodeBody = fields(&value)?;
        let (table, code) = (b.table, b.code.clone());
        let route = match tap {
            Tap::Start => "POST /api/clock/start",
            Tap::HandOver => "POST /api/clock/hand-over",
            Tap::Stop => "POST /api/clock/stop",
        };
        let (summary, out) = player_write(app.clone(), addr, route, (b.table, b.code), &value, move |store, actor| {
            let doc = |s: &str, v: serde_json::Result<serde_json::Value>| {
                v.map(|v| (s.to_string(), v)).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))
            };
            match tap {
                Tap::Start => {
                    let o = device::clock_start(store, actor, table, &code)?;
                    doc(&o.summary, serde_json::to_value(&o))
                }
                Tap::HandOver => {
                    let o = device::clock_hand_over(store, actor, table, &code)?;
                    doc(&o.summary, serde_json::to_value(&o))
                }
                Tap::Stop => {
                    let o = device::clock_stop(store, actor, table, &code)?;
                    doc(&o.summary, serde_json::to_value(&o))
                }
            }
        })
        .await?;
        let clock = blocking(move || table_clock(&app.open()?, table)).await?;
        Ok::<_, ApiError>(answer(&summary, &out, serde_json::json!({ "clock": clock })))
    };
    run.await.unwrap_or_else(IntoResponse::into_response)
}

/// A table's clock for a device: the server's now, the table as `/api/tables` has it, and the deadline of the
/// running decision (its start plus the limit in force).
#[derive(Debug, Clone, serde::Serialize)]
pub struct TableClock {
    /// The server's now (RFC 3339).
    pub now: String,
    /// The table.
    pub table: TableView,
    /// When the running decision goes over its limit (RFC 3339).
    pub decision_deadline: Option<String>,
}

/// The clock of table `n` now.
pub fn table_clock(store: &Store, n: u32) -> Result<TableClock> {
    let now = crate::time::now()?;
    let table = live::table(store, n, now)?;
    let decision_deadline = match (&table.decision, table.decision_limit) {
        (Some(d), Some(limit)) => {
            Some(crate::time::stamp(crate::time::unstamp(&d.started_at)? + chrono::Duration::seconds(i64::from(limit))))
        }
        _ => None,
    };
    Ok(TableClock { now: crate::time::stamp(now), table, decision_deadline })
}

fn table_number(text: &str) -> std::result::Result<u32, ApiError> {
    text.trim().parse().map_err(|_| {
        ApiError::from(Error::bad_input(format!("\"{text}\" is not a table number: give a number such as 3")))
    })
}

/// `GET /api/table/N/notes`: the sheet (as `mmjudge notes --table N --json`) and the table's clock.
pub async fn notes(State(app): State<Shared>, Path(n): Path<String>) -> std::result::Result<Response, ApiError> {
    let n = table_number(&n)?;
    let (sheet, clock) = blocking(move || {
        let store = app.open()?;
        let sheet = store.read(|conn| crate::ops::table::sheet::note_sheet(conn, n, None))?;
        Ok((sheet, table_clock(&store, n)?))
    })
    .await?;
    let mut doc = serde_json::to_value(&sheet).map_err(|_| ApiError::internal("the sheet"))?;
    let texts: serde_json::Map<String, serde_json::Value> = sheet
        .sheet
        .iter()
        .filter_map(|n| n.text.as_ref().map(|t| (n.id.to_string(), serde_json::Value::String(t.clone()))))
        .collect();
    if let Some(map) = doc.as_object_mut() {
        map.insert("texts".into(), serde_json::Value::Object(texts));
        map.insert("clock".into(), serde_json::to_value(&clock).map_err(|_| ApiError::internal("the clock"))?);
    }
    Ok(Json(doc).into_response())
}

/// `GET /api/cards/cost?cost=B1&table=N&q=dem[&letter=d]`.
#[derive(Debug, serde::Deserialize)]
pub struct CostQuery {
    /// The printed cost.
    pub cost: Option<String>,
    /// The table (its game's declared templates are left out).
    pub table: Option<String>,
    /// What was typed of the name.
    pub q: Option<String>,
    /// The letter, under the alphabet bindings.
    pub letter: Option<String>,
}

/// `GET /api/cards/cost`: names to complete a declaration with.
pub async fn complete(
    State(app): State<Shared>,
    Query(q): Query<CostQuery>,
) -> std::result::Result<Json<serde_json::Value>, ApiError> {
    let Some(cost) = q.cost.filter(|c| !c.trim().is_empty()) else {
        return Err(Error::bad_input("give the printed cost: /api/cards/cost?cost=B1&q=dem").into());
    };
    let table = match q.table.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(t) => Some(table_number(t)?),
        None => None,
    };
    let printed = Printed::parse(&cost)?;
    let letter = letter_of(q.letter)?;
    let typed = q.q.unwrap_or_default();
    let (shorthand, cards) = blocking(move || {
        let store = app.open()?;
        let cards = store.read(|conn| device::complete(conn, &printed, letter, table, &typed, COMPLETIONS))?;
        Ok((printed.shorthand(), cards))
    })
    .await?;
    Ok(Json(serde_json::json!({ "cost": shorthand, "table": table, "cards": cards })))
}

/// Sends a write to the player's handler when its body carries `code`, else to the judges' route.
async fn either<H, T>(
    app: Shared,
    req: Request,
    judge: H,
    player: impl AsyncFnOnce(Shared, SocketAddr, serde_json::Value) -> Response,
) -> Response
where
    H: axum::handler::Handler<T, Shared>,
{
    let addr = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
    match (split(req).await, addr) {
        (Ok(Split::Player(value)), Some(addr)) => player(app, addr, value).await,
        (Ok(Split::Player(_)), None) => ApiError::internal("no client address").into_response(),
        (Ok(Split::Judge(req)), _) => axum::handler::Handler::call(judge, *req, app).await,
        (Err(e), _) => e.into_response(),
    }
}

/// `POST /api/note`: a player's declaration (with `code`) or a judge's note (with a login).
pub async fn note(State(app): State<Shared>, req: Request) -> Response {
    either(app, req, super::table::note, player_note).await
}

/// `POST /api/clock/start`: a player starts their decision (with `code`), or a judge starts one.
pub async fn clock_start(State(app): State<Shared>, req: Request) -> Response {
    either(app, req, super::table::clock_start, async |app, addr, v| player_clock(app, addr, Tap::Start, v).await).await
}

/// `POST /api/clock/stop`: a player (with `code`) or a judge stops the decision running.
pub async fn clock_stop(State(app): State<Shared>, req: Request) -> Response {
    either(app, req, super::table::clock_stop, async |app, addr, v| player_clock(app, addr, Tap::Stop, v).await).await
}

/// `POST /api/clock/hand-over` (also `/api/clock/pass`): the deciding player hands the decision over.
pub async fn clock_hand_over(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<serde_json::Value>, axum::extract::rejection::JsonRejection>,
) -> Response {
    match body {
        Ok(Json(value)) => player_clock(app, addr, Tap::HandOver, value).await,
        Err(e) => super::routes::bad_json(&e).into_response(),
    }
}
