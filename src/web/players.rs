//! The players' side of the judges' work: a player reports their own result (`POST /api/self-report`) and calls
//! a judge to their table (`POST /api/call`), with their code, from JSON or the forms of `/me`; judges close a
//! call (`POST /api/call/close`). Wrong codes count against the address and the table as at the table's device.

use super::Shared;
use super::auth::Judge;
use super::error::ApiError;
use super::table::{Life, life_of};
use super::writes::{Payload, write};
use crate::domain::result::Reason;
use crate::error::{Error, Result};
use crate::ops::table::{calls, self_report};
use crate::store::{Actor, Store};
use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Serialize;
use std::net::SocketAddr;

/// Runs one player's write through `route`: the wrong-code limit, the code's player as the actor
/// (`NAME (player)`, via `web ADDRESS`), the `ops` call on a blocking thread; answers `{"ok": true, "summary",
/// ...outcome}` or, for a form of `/me`, goes back to it. A wrong code (403) counts against the address.
async fn as_player<T: Serialize + Send + 'static>(
    app: Shared,
    addr: SocketAddr,
    route: &'static str,
    (table, code, shown, back): (u32, String, String, Option<String>),
    f: impl FnOnce(&mut Store, &Actor) -> Result<(String, T)> + Send + 'static,
) -> Response {
    let run = super::player_table::as_code_holder(app, addr, (table, code), format!("{route} {shown}"), f);
    match (run.await, back) {
        (Ok(_), Some(back)) => Redirect::to(&back).into_response(),
        (Ok((summary, out)), None) => {
            let mut doc = serde_json::json!({ "ok": true, "summary": summary });
            if let (Some(map), Ok(serde_json::Value::Object(fields))) = (doc.as_object_mut(), serde_json::to_value(out))
            {
                map.extend(fields);
            }
            Json(doc).into_response()
        }
        (Err(e), Some(back)) => super::pages::refused(e, &back),
        (Err(e), None) => e.into_response(),
    }
}

/// `POST /api/self-report` body.
#[derive(Debug, serde::Deserialize)]
pub struct SelfReportBody {
    /// The table.
    pub table: u32,
    /// The reporting player's code.
    pub code: String,
    /// The winner (a name or its beginning) or `draw`.
    pub winner: Option<String>,
    /// Why the game ended, as `mmjudge result --by` takes it.
    pub by: String,
    /// Life totals, seat A's then seat B's (`[12, 0]`, or a form's `12,0`).
    pub life: Option<Life>,
}

/// `POST /api/self-report`: a player reports the result at their own table (see `ops::table::self_report`).
pub async fn self_report(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    p: Payload<SelfReportBody>,
) -> Response {
    let b = p.input;
    let parsed = Reason::parse(&b.by).map_err(Error::bad_input).and_then(|r| Ok((r, life_of(b.life)?)));
    let (reason, life) = match parsed {
        Ok(x) => x,
        Err(e) => return answer_error(e.into(), p.back),
    };
    let winner = b.winner.map(|w| w.trim().to_string()).filter(|w| !w.is_empty());
    let input = self_report::SelfReportInput { table: b.table, code: b.code.clone(), winner, reason, life };
    as_player(app, addr, "POST /api/self-report", (b.table, b.code, p.shown, p.back), move |store, actor| {
        let out = self_report::self_report(store, actor, input)?;
        Ok((out.summary.clone(), out))
    })
    .await
}

/// `POST /api/call` body (and `/api/call/close`'s, without the code).
#[derive(Debug, serde::Deserialize)]
pub struct CallBody {
    /// The table.
    pub table: u32,
    /// The calling player's code.
    pub code: Option<String>,
}

/// `POST /api/call`: a player calls a judge to their own table; a call already open there is answered as it
/// stands (`"repeat": true`).
pub async fn call(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    p: Payload<CallBody>,
) -> Response {
    let b = p.input;
    let Some(code) = b.code.filter(|c| !c.trim().is_empty()) else {
        let e = Error::bad_input("give your player code (six digits, on your slip) to call a judge");
        return answer_error(e.into(), p.back);
    };
    let table = b.table;
    as_player(app, addr, "POST /api/call", (table, code.clone(), p.shown, p.back), move |store, actor| {
        let out = calls::call_judge(store, actor, table, &code)?;
        Ok((out.summary.clone(), out))
    })
    .await
}

/// `POST /api/call/close` (judges): closes the open call at a table, as `mmjudge call close TABLE`.
pub async fn close(State(app): State<Shared>, judge: Judge, p: Payload<CallBody>) -> Response {
    write(app, judge, "POST /api/call/close", None, p, |store, actor, b| {
        let out = calls::close_call(store, actor, b.table)?;
        let doc = serde_json::to_value(&out).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
        Ok((out.summary, doc))
    })
    .await
}

fn answer_error(e: ApiError, back: Option<String>) -> Response {
    match back {
        Some(back) => super::pages::refused(e, &back),
        None => e.into_response(),
    }
}
