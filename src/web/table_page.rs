//! `/table/N`: the table's own device (players sign in with their codes; see `templates/web/table.js`), its
//! script and styles, and `POST /api/player/code` that tells the device whose code it was given.

use super::Shared;
use super::auth::Judge;
use super::error::{ApiError, blocking};
use crate::domain::result::Seat;
use crate::error::Error;
use crate::ops::live::{self, Home, TableView};
use crate::ops::table::device;
use askama::Template;
use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use std::net::SocketAddr;
use std::time::Instant;

#[derive(Template)]
#[template(path = "web/table.html")]
struct TablePage {
    home: Home,
    t: TableView,
    /// The judge looking, if one is logged in on this phone.
    judge: Option<String>,
}

/// `GET /table/N`: the device page of table N in the current round.
pub async fn page(
    State(app): State<Shared>,
    judge: Result<Judge, ApiError>,
    Path(number): Path<String>,
) -> Result<Response, ApiError> {
    let n: u32 = number.trim().parse().map_err(|_| {
        ApiError::from(Error::bad_input(format!("\"{number}\" is not a table number: give a number such as 3")))
    })?;
    let (home, t) = blocking(move || {
        let store = app.open()?;
        let now = crate::time::now()?;
        Ok((live::home(&store, now)?, live::table(&store, n, now)?))
    })
    .await?;
    let judge = judge.ok().map(|j| j.judge.name);
    Ok(super::pages::page(StatusCode::OK, &TablePage { home, t, judge }))
}

/// `POST /api/player/code` body.
#[derive(Debug, serde::Deserialize)]
pub struct CodeBody {
    /// The table.
    pub table: u32,
    /// The code typed.
    pub code: String,
}

/// `POST /api/player/code` `{"table","code"}` → `{"table","round","player","seat"}`: whose code this is at the
/// table (403 when neither player's; wrong codes count as for the writes).
pub async fn whose(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<CodeBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Json(b) = body.map_err(|e| super::routes::bad_json(&e))?;
    let key = format!("table {}", b.table);
    let waited = app.codes.lock().map_err(|_| ApiError::internal("limiter"))?.wait(addr.ip(), &key, Instant::now());
    if let Some(secs) = waited {
        return Err(ApiError::too_many("player codes", secs));
    }
    let app2 = app.clone();
    let out = blocking(move || {
        let store = app2.open()?;
        store.read(|conn| {
            let (seated, seat) = device::seat_of_code(conn, b.table, &b.code)?;
            Ok((seated.m.round, seated.player(seat).name.clone(), seat))
        })
    })
    .await;
    match out {
        Ok((round, player, seat)) => {
            let seat = if seat == Seat::A { "A" } else { "B" };
            Ok(Json(serde_json::json!({ "table": b.table, "round": round, "player": player, "seat": seat })))
        }
        Err(e) => {
            if e.status == StatusCode::FORBIDDEN {
                app.codes.lock().map_err(|_| ApiError::internal("limiter"))?.failed(addr.ip(), &key, Instant::now());
            }
            Err(e)
        }
    }
}
