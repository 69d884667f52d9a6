//! The table's own device: `/table/N` (each player signs in once with their code; see `templates/web/table.js`),
//! `POST /api/player/code` that tells the device whose code it was given and gives it the player's sign-in, the
//! players' writes with their sign-in (or code) instead of a login (`POST /api/note`, `/api/note/undo`, `/api/clock/start`, `/api/clock/hand-over`,
//! `/api/clock/stop`; the router sends a body without `code` to the judges' route of the same name; the device's
//! "Call a judge" is `POST /api/call` of `player_writes`), and what everyone reads there: a table's sheet, clock
//! and open judge call (`GET /api/table/N/notes`) and the completion of a cost
//! (`GET /api/cards/cost`). Wrong codes count against the address and the table as wrong PINs do.

use crate::domain::result::Seat;
use crate::error::{Error, Result};
use crate::ops::card_reference::Printed;
use crate::ops::live::{self, TableView};
use crate::ops::table::device::{self, DeviceNoteInput, sign_in};
use crate::store::Store;
use crate::web::kit::auth::Judge;
use crate::web::kit::drawn::Deadline;
use crate::web::kit::extract::{self, Sent};
use crate::web::kit::extract::{CodeBody, Player};
use crate::web::kit::extract::{Path, Query};
use crate::web::kit::page;
use crate::web::kit::request::Answer;
use crate::web::kit::request::{ApiError, bad_json};
use crate::web::kit::state::Db;
use crate::web::kit::write::{self, PlayerWrite};
use askama::Template;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

/// The most names completion sends.
const COMPLETIONS: usize = 20;

#[derive(Template, serde::Serialize)]
#[template(path = "web/table.html")]
struct TablePage {
    home: page::Head,
    t: TableView,
    /// The judge looking, if one is logged in on this phone.
    judge: Option<String>,
    /// The decision limits in words (the final window's in large type).
    limits: crate::ops::table::clocks::limits::LimitWords,
    /// The reasons a player may report.
    reasons: Vec<&'static str>,
}

/// `GET /table/N`: the device page of table N in the current round.
pub async fn page(
    db: Db,
    deadline: Deadline,
    judge: Result<Judge, ApiError>,
    Path(number): Path<String>,
) -> Result<Response, ApiError> {
    let n = table_number(&number)?;
    let (home, t) = db
        .run(move |store| {
            let now = crate::time::now()?;
            let limits = store.read(crate::ops::table::clocks::limits::limit_words)?;
            Ok((live::home(store, now)?, (live::table(store, n, now)?, limits)))
        })
        .await?;
    let (t, limits) = t;
    let judge = judge.ok().map(|j| j.judge.name);
    let reasons = device::self_report::PLAYER_REASONS.iter().map(|r| r.slug()).collect();
    Ok(page::page(deadline, StatusCode::OK, TablePage { home: page::head(&db, home), t, judge, limits, reasons }).await)
}

/// `POST /api/player/code` body: the code typed, or a sign-in the device keeps.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhoseBody {
    /// The table.
    pub table: u32,
    /// The code typed.
    pub code: Option<String>,
    /// A sign-in's token (see [`sign_in`]).
    pub signin: Option<String>,
    /// The seat signing in (`"A"` or `"B"`): the code is checked against that seat's player only, and a wrong
    /// one counts against that player only. Without it (older pages, scripts), against both.
    pub seat: Option<serde_json::Value>,
}

/// `POST /api/player/code` `{"table","code"}` → `{"table","round","player","seat","signin"}`: whose code this is
/// at the table (403 when neither player's; wrong codes count as for the writes), and the player's sign-in on
/// this device for the match (`signin`, sent by the device's writes instead of the code; see [`sign_in`]). With
/// `{"table","signin"}` instead: whom a sign-in names, 403 once it no longer acts (the page then offers to sign
/// in again). Nothing is written: a standby answers it too.
pub async fn whose(
    player: Player,
    body: Result<Json<serde_json::Value>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    // Read strictly, as every write is: only its route's fields, each once.
    let Json(value) = body.map_err(|e| bad_json(&e))?;
    let b: WhoseBody = crate::web::kit::body::value_as(&value)?;
    let table = b.table;
    let mut player = player;
    if let Some(seat) = &b.seat {
        player.seat = Some(extract::seat_of(seat)?);
    }
    let signed = match (b.code, b.signin) {
        (Some(code), None) => {
            player.paced_sign_in(&code)?;
            let tried = code.clone();
            let read = player.db.run(move |store| store.read(|conn| sign_in::sign_in(conn, table, &code)));
            player.guarded(table, tried, read).await?
        }
        (None, Some(token)) => {
            player
                .db
                .run(move |store| {
                    store.read(|conn| {
                        let (seated, seat, _) = sign_in::seat_of_sign_in(conn, table, &token)?;
                        let name = seated.player(seat).name.clone();
                        let seat = if seat == Seat::A { "A" } else { "B" };
                        Ok(sign_in::SignedIn { table, round: seated.m.round, player: name, seat, signin: token })
                    })
                })
                .await?
        }
        (Some(_), Some(_)) => {
            return Err(Error::bad_input("give either \"code\" (the code typed) or \"signin\", not both").into());
        }
        (None, None) => return Err(Error::bad_input("code: type your code (six digits, on your slip)").into()),
    };
    player.is(&signed.player);
    serde_json::to_value(&signed).map(Json).map_err(|_| ApiError::internal("a JSON document"))
}

/// The fields of a player's write, or 400 naming what is wrong (a field a player's write does not take too).
fn fields<T: DeserializeOwned>(value: &serde_json::Value) -> std::result::Result<T, ApiError> {
    crate::web::kit::body::value_as(value)
}

/// The fields as the audit log shows them: one line of JSON without its secret fields (`kit::extract::SECRET_FIELDS`).
fn shown(value: &serde_json::Value) -> String {
    let mut v = value.clone();
    if let Some(map) = v.as_object_mut() {
        for field in crate::web::kit::extract::SECRET_FIELDS {
            map.remove(field);
        }
    }
    let text = v.to_string();
    match text.char_indices().nth(400) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A device write's key: the `Idempotency-Key` header, or the declaration's `client_id` (both, different: 400).
fn sent(player: &Player, value: &serde_json::Value) -> std::result::Result<Option<Sent>, ApiError> {
    let client_id = value.get("client_id").and_then(serde_json::Value::as_str);
    let key = extract::key_of(player.key.as_ref(), client_id, "client_id")?;
    extract::sent(key, value, &player.route, false, player.first)
}

/// `POST /api/note` from the table's device.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoteBody {
    /// The table.
    pub table: u32,
    /// The declaring player's code (or `signin`).
    pub code: Option<String>,
    /// The declaring player's sign-in on the device (see [`sign_in`]).
    pub signin: Option<String>,
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
/// `POST /api/note` with `code` (see [`by_code`](crate::web::kit::extract::by_code)).
pub async fn note(player: Player, CodeBody(value): CodeBody) -> Response {
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
        let code = player.code_of(b.table, b.code, b.signin).await?;
        let (printed, letter, client_id) = (Printed::parse(&b.cost)?, letter_of(b.letter)?, b.client_id);
        let who = (b.table, code);
        let sent = sent(&player, &value)?;
        Ok(write::player(
            &player,
            PlayerWrite { table: who.0, code: who.1, shown: shown(&value), back: None, key: sent },
            move |store, actor, holder| {
                let out = device::declare(store, actor, DeviceNoteInput { holder, printed, card, letter, client_id })?;
                Answer::ok(&out.summary).with(&serde_json::json!({ "repeat": out.repeat }))?.with(&out.note)
            },
        )
        .await)
    };
    run.await.unwrap_or_else(IntoResponse::into_response)
}

/// `{"table","code"}` of the undo and the clock, and the device's `client_id` (the write's key when no
/// `Idempotency-Key` is sent).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TapBody {
    /// The table.
    pub table: u32,
    /// The player's code (or `signin`).
    pub code: Option<String>,
    /// The player's sign-in on the device (see [`sign_in`]).
    pub signin: Option<String>,
    /// The device's id for this tap (read as the write's key, see [`sent`]).
    #[serde(default)]
    #[allow(dead_code)]
    pub client_id: Option<String>,
}

/// `POST /api/note/undo`: the player's own last declaration, within 30 s and if nothing was declared since.
pub async fn undo(player: Player, CodeBody(value): CodeBody) -> Response {
    let b: TapBody = match fields(&value) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    let code = match player.code_of(b.table, b.code, b.signin).await {
        Ok(code) => code,
        Err(e) => return e.into_response(),
    };
    let table = b.table;
    let sent = match sent(&player, &value) {
        Ok(sent) => sent,
        Err(e) => return e.into_response(),
    };
    write::player(
        &player,
        PlayerWrite { table, code: code.clone(), shown: shown(&value), back: None, key: sent },
        move |store, actor, holder| {
            let out = device::take_back(store, actor, &holder)?;
            Answer::of(&out.summary, &out)
        },
    )
    .await
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
async fn tap(player: Player, tap: Tap, value: serde_json::Value) -> Response {
    let b: TapBody = match fields(&value) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    let code = match player.code_of(b.table, b.code, b.signin).await {
        Ok(code) => code,
        Err(e) => return e.into_response(),
    };
    let table = b.table;
    let sent = match sent(&player, &value) {
        Ok(sent) => sent,
        Err(e) => return e.into_response(),
    };
    write::player(
        &player,
        PlayerWrite { table, code: code.clone(), shown: shown(&value), back: None, key: sent },
        move |store, actor, holder| {
            let answer = match tap {
                Tap::Start => {
                    let o = device::clock_start(store, actor, &holder)?;
                    Answer::of(&o.summary, &o)?
                }
                Tap::HandOver => {
                    let o = device::clock_hand_over(store, actor, &holder)?;
                    Answer::of(&o.summary, &o)?
                }
                Tap::Stop => {
                    let o = device::clock_stop(store, actor, &holder)?;
                    Answer::of(&o.summary, &o)?
                }
            };
            answer.with(&serde_json::json!({ "clock": table_clock(store, table)? }))
        },
    )
    .await
}

/// `POST /api/clock/start` with `code`: the player starts their decision.
pub async fn clock_start(player: Player, CodeBody(value): CodeBody) -> Response {
    tap(player, Tap::Start, value).await
}

/// `POST /api/clock/stop` with `code`: the player stops the decision running.
pub async fn clock_stop(player: Player, CodeBody(value): CodeBody) -> Response {
    tap(player, Tap::Stop, value).await
}

/// `POST /api/clock/hand-over` (also `/api/clock/pass`): the deciding player hands the decision over.
pub async fn clock_hand_over(player: Player, CodeBody(value): CodeBody) -> Response {
    tap(player, Tap::HandOver, value).await
}

/// A table's clock for a device: the server's now, the table as `/api/tables` has it, and the deadline of the
/// running decision (the server's rule: a decision begun before the final window ends at the earlier of its own
/// limit and the window's opening plus the shorter limit).
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
    let decision_deadline = table.decision_deadline.clone();
    Ok(TableClock { now: crate::time::stamp(now), table, decision_deadline })
}

fn table_number(text: &str) -> std::result::Result<u32, ApiError> {
    text.trim().parse().map_err(|_| {
        ApiError::from(Error::bad_input(format!("\"{text}\" is not a table number: give a number such as 3")))
    })
}

/// `GET /api/table/N/notes`: the sheet (as `mmjudge notes --table N --json`) and the table's clock.
pub async fn notes(db: Db, Path(n): Path<String>) -> std::result::Result<Response, ApiError> {
    let n = table_number(&n)?;
    let (sheet, clock, (waiting, call), differ) = db
        .run(move |store| {
            let sheet = store.read(|conn| crate::ops::table::records::sheet::note_sheet(conn, n, None))?;
            // The report waiting, the call open and two reports that differ, read together.
            let (waiting, call, differ) = store.read(|conn| {
                let waiting = live::waiting_at_table(conn, n)?;
                Ok((waiting, device::calls::open_at_table(conn, n)?, live::reports_differ_at_table(conn, n)?))
            })?;
            Ok((sheet, table_clock(store, n)?, (waiting, call), differ))
        })
        .await?;
    // The report waiting for the other player's word, for the device's Confirm button.
    let report = waiting.map(|(w, a, b)| {
        let waiting_for = if w.by == a { b.clone() } else { a.clone() };
        let text = crate::render::me::waiting_words(&w, &a, &b);
        serde_json::json!({ "id": w.id, "by": w.by, "waiting_for": waiting_for, "text": text })
    });
    let mut doc = serde_json::to_value(&sheet).map_err(|_| ApiError::internal("the sheet"))?;
    let texts: serde_json::Map<String, serde_json::Value> = sheet
        .sheet
        .iter()
        .filter_map(|n| n.text.as_ref().map(|t| (n.id.to_string(), serde_json::Value::String(t.clone()))))
        .collect();
    if let Some(map) = doc.as_object_mut() {
        map.insert("texts".into(), serde_json::Value::Object(texts));
        map.insert("report".into(), report.unwrap_or(serde_json::Value::Null));
        map.insert("reports_differ".into(), differ.map_or(serde_json::Value::Null, serde_json::Value::String));
        // The judge call open at the table, for the device's line under each player's "Call a judge".
        let call = call.map(|c| serde_json::json!({ "id": c.id, "caller": c.caller, "since": c.since }));
        map.insert("call".into(), call.unwrap_or(serde_json::Value::Null));
        map.insert("clock".into(), serde_json::to_value(&clock).map_err(|_| ApiError::internal("the clock"))?);
    }
    Ok(page::json(&doc))
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
pub async fn complete(db: Db, Query(q): Query<CostQuery>) -> std::result::Result<Response, ApiError> {
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
    let (shorthand, cards) = db
        .run(move |store| {
            let cards = store.read(|conn| device::complete(conn, &printed, letter, table, &typed, COMPLETIONS))?;
            Ok((printed.shorthand(), cards))
        })
        .await?;
    Ok(page::json(&serde_json::json!({ "cost": shorthand, "table": table, "cards": cards })))
}
