//! The imports of the head judge's set-up page: the file is the request's body (see
//! [`crate::web::kit::extract`]), its options the query string's fields (the command line's long names), and the
//! work a job (see [`crate::web::kit::jobs`]) through the same `ops` action as `cards import`,
//! `cards import-rulings`, `pool import`, `player import` and `library register`: all or nothing, every bad
//! line named. Answered `202 {"job": ID}`; `GET /api/job/ID` tells how it goes.

use super::words;
use crate::ops::cards::{self as cards_ops, ImportInput as CardsInput};
use crate::ops::library::sealed::RegisterInput;
use crate::ops::pool::edit::ImportInput as PoolInput;
use crate::store::{Actor, Store};
use crate::web::kit::auth::Judge;
use crate::web::kit::extract::Query;
use crate::web::kit::jobs::{self, Progress, Upload};
use crate::web::kit::request::Answer;
use crate::web::kit::request::ApiError;
use crate::web::kit::write::{self, Begun};
use axum::Json;
use axum::body::Body;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// `POST /api/cards/import?file=&replace=&force=`, as `cards import FILE [--replace [--force]]`.
#[derive(Debug, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardsQuery {
    /// The file's name, for messages.
    pub file: Option<String>,
    /// Start from an empty reference.
    #[serde(default)]
    pub replace: bool,
    /// With replace: even while a round is being played.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/cards/import-rulings?file=` and `/api/player/import?file=`: the file's name only.
#[derive(Debug, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileQuery {
    /// The file's name, for messages.
    pub file: Option<String>,
}

/// `POST /api/pool/import?file=&allow_unknown=&replace=`, as `pool import FILE [--allow-unknown] [--replace]`.
#[derive(Debug, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolQuery {
    /// The file's name, for messages.
    pub file: Option<String>,
    /// Keep names the reference does not know.
    #[serde(default)]
    pub allow_unknown: bool,
    /// Replace the whole pool.
    #[serde(default)]
    pub replace: bool,
}

/// `POST /api/library/register?player=&file=&sideboard=&allow_unknown=&force=`, as `library register PLAYER
/// FILE [--sideboard A,B,C] [--allow-unknown] [--force]`.
#[derive(Debug, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterQuery {
    /// The player.
    pub player: String,
    /// The file's name, for messages.
    pub file: Option<String>,
    /// Three cards set aside, comma-separated.
    pub sideboard: Option<String>,
    /// Keep names the reference does not know.
    #[serde(default)]
    pub allow_unknown: bool,
    /// Register again although round 1 is paired.
    #[serde(default)]
    pub force: bool,
}

/// The one way every import goes: the session's CSRF token, head judges only, the key (a repeat answers its first
/// job before its file is read again), the file received, then the job through the door.
async fn run<Q: Serialize + Send + 'static>(
    judge: Judge,
    (what, job): (&'static str, &'static str),
    headers: &HeaderMap,
    (query, file): (Q, Option<String>),
    body: Body,
    work: impl FnOnce(&mut Store, &Actor, &Upload, Q, Progress) -> crate::error::Result<Answer> + Send + 'static,
) -> Result<Response, ApiError> {
    let csrf = headers.get("x-csrf-token").and_then(|v| v.to_str().ok());
    judge.check_csrf(csrf)?;
    judge.judge.require_head(what).map_err(ApiError::from)?;
    let app = judge.db.app().clone();
    let fields = serde_json::to_value(&query).unwrap_or_default();
    let key = crate::web::kit::extract::upload_key(headers, &judge.judge.name, judge.route.name, &fields)?;
    let actor = judge.actor(&judge.command(&crate::web::kit::extract::shown(fields)))?;
    let id = match write::job_begin(&judge.db, job, &actor.judge, key.clone()).await? {
        Begun::Repeat(id) => return Ok(accepted(id, job, true)),
        Begun::New(id) => id,
    };
    // The request's connection is not held while the file arrives.
    judge.db.give_back();
    app.jobs.phase(id, "receiving the file");
    let received = match jobs::receive(headers, body, file.as_deref()).await {
        Ok(received) => received,
        Err(e) => {
            app.jobs.end(id, Err((e.status, e.message.clone())));
            return Err(e);
        }
    };
    app.jobs.phase(id, "waiting for the job before it");
    let work: write::Work = Box::new(move |store, actor, up, progress| match up {
        Some(up) => work(store, actor, up, query, progress),
        None => Err(crate::error::Error::bad_input("no file was sent: choose the file, then send it")),
    });
    write::job_run(&app, id, actor, key, Some(received), work);
    Ok(accepted(id, job, false))
}

/// `202 {"job", "progress", "what"}` (and `"repeat": true` for a key sent before).
fn accepted(id: u64, what: &str, repeat: bool) -> Response {
    let mut doc = jobs::started(id, what);
    if repeat {
        doc["repeat"] = serde_json::Value::Bool(true);
    }
    (StatusCode::ACCEPTED, Json(doc)).into_response()
}

/// Columns only a list of players has.
const PLAYER_COLUMNS: [&str; 2] = ["id", "email"];

/// The uploaded CSV's header line, its columns in lower case.
fn columns(up: &Upload) -> crate::error::Result<Vec<String>> {
    use std::io::{BufRead, Read};
    let file = std::fs::File::open(&up.path).map_err(|e| crate::error::Error::io(&up.path, e))?;
    let mut header = String::new();
    // A header that is not text is left to the import, which names the problem.
    let _ = std::io::BufReader::new(file.take(64 * 1024)).read_line(&mut header);
    Ok(header.trim_start_matches('\u{feff}').split(',').map(|c| c.trim().trim_matches('"').to_lowercase()).collect())
}

/// Refuses the players' file sent as the pool, naming the columns that give it away (each player would be
/// refused as an unknown card, line by line).
fn not_a_player_list(up: &Upload) -> crate::error::Result<()> {
    let columns = columns(up)?;
    if columns.iter().any(|c| PLAYER_COLUMNS.contains(&c.as_str())) && !columns.iter().any(|c| c == "count") {
        return Err(crate::error::Error::bad_input(format!(
            "{}: nothing imported: this is a list of players (its columns: {}), not of cards: choose the pool's \
             file, whose columns are name and count (and mana_cost and type_line for cards the reference lacks)",
            up.shown,
            columns.join(", ")
        )));
    }
    Ok(())
}

fn read(up: &Upload) -> crate::error::Result<Vec<u8>> {
    std::fs::read(&up.path).map_err(|e| crate::error::Error::io(&up.path, e))
}

/// `POST /api/cards/import` (head judges): the card reference from the body's file.
pub async fn cards(judge: Judge, headers: HeaderMap, Query(q): Query<CardsQuery>, body: Body) -> Response {
    let file = q.file.clone();
    let what = ("importing the card reference", "importing the card reference");
    run(judge, what, &headers, (q, file), body, |store, actor, up, q, progress| {
        progress("reading the file", 0, up.bytes);
        let bytes = read(up)?;
        let input = CardsInput { bytes: &bytes, shown: &up.shown, replace: q.replace, force: q.force };
        let out = cards_ops::import(store, actor, input, &mut |phase, pos, len| {
            let phase = match phase {
                cards_ops::Phase::Reading => "reading the file",
                cards_ops::Phase::Storing => "storing cards",
            };
            progress(phase, pos, len);
        })?;
        Answer::of(&words::cards_imported(&out, &up.shown, q.replace), &out)
    })
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /api/cards/import-rulings` (head judges): Scryfall's rulings from the body's file.
pub async fn rulings(judge: Judge, headers: HeaderMap, Query(q): Query<FileQuery>, body: Body) -> Response {
    let file = q.file.clone();
    let what = ("importing rulings", "importing rulings");
    run(judge, what, &headers, (q, file), body, |store, actor, up, _, progress| {
        progress("reading the file", 0, up.bytes);
        let rulings = cards_ops::parse_rulings(&read(up)?, &up.shown)?;
        progress("storing rulings", 0, rulings.len() as u64);
        let out = cards_ops::import_rulings(store, actor, rulings, &up.shown)?;
        Answer::of(&words::rulings_imported(&out, &up.shown), &out)
    })
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /api/pool/import` (head judges): the judges' cards from the body's CSV.
pub async fn pool(judge: Judge, headers: HeaderMap, Query(q): Query<PoolQuery>, body: Body) -> Response {
    let file = q.file.clone();
    let what = ("importing the pool", "importing the pool");
    run(judge, what, &headers, (q, file), body, |store, actor, up, q, progress| {
        progress("checking every line", 0, up.bytes);
        if store.read(crate::store::cards::count)? == 0 {
            return Err(crate::error::Error::refused(
                "the pool's cards are checked against the card reference, which is empty: upload the card reference \
                 first (the Card reference step)",
            ));
        }
        not_a_player_list(up)?;
        let input =
            PoolInput { bytes: read(up)?, shown: up.shown.clone(), allow_unknown: q.allow_unknown, replace: q.replace };
        let out = crate::ops::pool::edit::import(store, actor, input)?;
        Answer::of(&words::pool_imported(&out, &up.shown), &out)
    })
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /api/player/import` (head judges): the players from the body's CSV.
pub async fn players(judge: Judge, headers: HeaderMap, Query(q): Query<FileQuery>, body: Body) -> Response {
    let file = q.file.clone();
    let what = ("importing players", "importing players");
    run(judge, what, &headers, (q, file), body, |store, actor, up, _, progress| {
        progress("checking every line", 0, up.bytes);
        // A file of cards (the pool's, the reference's) is refused by the import itself, as on the command line.
        let input = crate::ops::players::read_import_named(&up.path, &up.shown)?;
        let out = crate::ops::players::import_players(store, actor, &input)?;
        let cleaned = crate::domain::text::removed_clause(out.control_characters_removed);
        let summary =
            format!("imported {} from {}{cleaned}", crate::domain::words::count(out.added.len(), "player"), up.shown);
        Answer::of(&summary, &out)
    })
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /api/library/register` (head judges): a player's sealed libraries from the body's CSV.
pub async fn register(judge: Judge, headers: HeaderMap, Query(q): Query<RegisterQuery>, body: Body) -> Response {
    let file = q.file.clone();
    let what = ("registering sealed libraries", "registering sealed libraries");
    run(judge, what, &headers, (q, file), body, |store, actor, up, q, progress| {
        progress("checking every line", 0, up.bytes);
        let input = RegisterInput {
            player: q.player,
            bytes: read(up)?,
            shown: up.shown.clone(),
            sideboard: q.sideboard.filter(|s| !s.trim().is_empty()),
            allow_unknown: q.allow_unknown,
            force: q.force,
        };
        let out = crate::ops::library::sealed::register(store, actor, input)?;
        Answer::of(&words::registered(&out), &out)
    })
    .await
    .unwrap_or_else(IntoResponse::into_response)
}
