//! The event's views that the command line also prints: standings, pairings and results (the same JSON as
//! `--json`), the standings page, and pairing the next round (head judges).

use super::Shared;
use super::auth::Judge;
use super::error::{ApiError, blocking};
use super::writes::{Payload, write};
use crate::error::Error;
use crate::ops::live::{self, Home};
use crate::ops::standings::{Line, Standings};
use crate::ops::{pairings, round, standings, table};
use askama::Template;
use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;

/// `round` of `/standings?round=N`, `/api/pairings?round=N`, ...
#[derive(Debug, serde::Deserialize)]
pub struct RoundQuery {
    /// The round (default: as the command line chooses).
    pub round: Option<u32>,
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<Json<serde_json::Value>, ApiError> {
    serde_json::to_value(value).map(Json).map_err(|_| ApiError::internal("a JSON document"))
}

/// `GET /api/standings[?round=N]`: as `mmjudge --json standings`.
pub async fn api_standings(
    State(app): State<Shared>,
    Query(q): Query<RoundQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let view = blocking(move || app.open()?.read(|conn| standings::standings(conn, q.round))).await?;
    to_json(&view)
}

/// `GET /api/pairings[?round=N]`: as `mmjudge --json pairings`.
pub async fn api_pairings(
    State(app): State<Shared>,
    Query(q): Query<RoundQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let doc = blocking(move || app.open()?.read(|conn| Ok(pairings::pairings(conn, q.round)?.json()))).await?;
    Ok(Json(doc))
}

/// `GET /api/results[?round=N]`: as `mmjudge --json results`.
pub async fn api_results(
    State(app): State<Shared>,
    Query(q): Query<RoundQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let view = blocking(move || app.open()?.read(|conn| table::result::round_results(conn, q.round))).await?;
    to_json(&view)
}

#[derive(Template)]
#[template(path = "web/standings.html")]
struct StandingsPage {
    home: Home,
    standings: Option<Standings>,
    lines: Vec<Line>,
    message: Option<String>,
}

/// `GET /standings[?round=N]`: the standings after the last round played to the end.
pub async fn page(State(app): State<Shared>, Query(q): Query<RoundQuery>) -> Result<Response, ApiError> {
    let (home, found) = blocking(move || {
        let store = app.open()?;
        let home = live::home(&store, crate::time::now()?)?;
        Ok((home, store.read(|conn| standings::standings(conn, q.round))))
    })
    .await?;
    let (status, standings, message) = match found {
        Ok(s) if s.round == 0 => (StatusCode::OK, None, Some("No round has been played to the end yet.".to_string())),
        Ok(s) => (StatusCode::OK, Some(s), None),
        Err(e) => {
            let e = ApiError::from(e);
            (e.status, None, Some(e.message))
        }
    };
    let lines = standings.as_ref().map(|s| s.standings.clone()).unwrap_or_default();
    Ok(super::pages::page(status, &StandingsPage { home, standings, lines, message }))
}

/// `POST /api/round/pair` body: `{"allow": false}`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct PairBody {
    /// As the command line's `--allow`.
    #[serde(default)]
    pub allow: bool,
}

/// `POST /api/round/pair` (head judges): pairs the next round, as `mmjudge round pair`.
pub async fn pair(State(app): State<Shared>, judge: Judge, p: Payload<PairBody>) -> Response {
    write(app, judge, "POST /api/round/pair", Some("pairing a round"), p, |store, actor, b| {
        let paired = round::pair_round(store, actor, round::PairInput { allow: b.allow })?;
        let byes = if paired.byes.is_empty() { String::new() } else { format!("; bye: {}", paired.byes.join(", ")) };
        let summary = format!(
            "paired round {} by the {} movement: {}{byes}{}",
            paired.round,
            paired.movement,
            round::tables_word(paired.tables),
            paired.closed_calls_words()
        );
        let extra = serde_json::to_value(&paired).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
        Ok((summary, extra))
    })
    .await
}
