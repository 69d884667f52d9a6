//! The pool's curation and the libraries from the head judge's set-up page, as `pool exclude|include`, `pool
//! watch add|remove`, `ban add|remove`, `library build` and `library swap`: fields by the command line's long
//! names, the same `ops` actions; and `GET /api/job/ID`, how a job goes.

use super::words;
use crate::error::Error;
use crate::ops::event::BanInput;
use crate::ops::library::BuildInput;
use crate::ops::pool::watch::WatchInput;
use crate::web::kit::auth::Judge;
use crate::web::kit::extract::{Path, Payload};
use crate::web::kit::jobs;
use crate::web::kit::request::Answer;
use crate::web::kit::request::ApiError;
use crate::web::kit::write;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// `POST /api/pool/exclude`, `/api/pool/include`, `/api/pool/watch/remove` and `/api/ban/remove` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameBody {
    /// The card, as typed.
    pub name: String,
}

/// `POST /api/pool/exclude {"name"}` (head judges): keeps a pool card out of the libraries, as `pool exclude`.
pub async fn exclude(judge: Judge, p: Payload<NameBody>) -> Response {
    excluded(judge, p, true).await
}

/// `POST /api/pool/include {"name"}` (head judges): takes an excluded card back, as `pool include`.
pub async fn include(judge: Judge, p: Payload<NameBody>) -> Response {
    excluded(judge, p, false).await
}

async fn excluded(judge: Judge, p: Payload<NameBody>, exclude: bool) -> Response {
    write::judge(judge, Some("curating the pool"), p, move |store, actor, b| {
        let out = crate::ops::pool::edit::set_excluded(store, actor, &b.name, exclude)?;
        Ok(Answer::ok(&crate::ops::pool::edit::excluded_summary(&out)))
    })
    .await
}

/// `POST /api/pool/watch/add` body, as `pool watch add NAME --note TEXT [--force]`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchBody {
    /// The card.
    pub name: String,
    /// Why it is watched.
    #[serde(default)]
    pub note: String,
    /// Watch a name the reference does not know.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/pool/watch/add` (head judges): a card whose cost class makes a pool cost abusive.
pub async fn watch_add(judge: Judge, p: Payload<WatchBody>) -> Response {
    write::judge(judge, Some("curating the pool"), p, |store, actor, b| {
        let input = WatchInput { name: b.name, note: b.note, force: b.force };
        input.check()?;
        let out = crate::ops::pool::watch::add(store, actor, input)?;
        Ok(Answer::ok(&out.summary()))
    })
    .await
}

/// `POST /api/pool/watch/remove {"name"}` (head judges), as `pool watch remove NAME`.
pub async fn watch_remove(judge: Judge, p: Payload<NameBody>) -> Response {
    write::judge(judge, Some("curating the pool"), p, |store, actor, b| {
        let card = crate::ops::pool::watch::remove(store, actor, &b.name)?;
        Ok(Answer::ok(&format!("no longer watching {card}")))
    })
    .await
}

/// `POST /api/ban/add` body, as `ban add NAME --group GROUP [--reason TEXT] [--force]`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BanBody {
    /// The card.
    pub name: String,
    /// ante-dexterity, deck-stacking, mass-reanimation or too-powerful.
    pub group: String,
    /// Why (the group's reason when none).
    pub reason: Option<String>,
    /// Ban a name the reference does not know.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/ban/add` (head judges): bans a card for the event.
pub async fn ban_add(judge: Judge, p: Payload<BanBody>) -> Response {
    write::judge(judge, Some("banning a card"), p, |store, actor, b| {
        let reason = b.reason.filter(|r| !r.trim().is_empty());
        let input = BanInput::new(b.name, &b.group, reason, b.force)?;
        let out = crate::ops::event::ban_card(store, actor, input)?;
        Ok(Answer::ok(&format!("banned {} ({})", out.card, out.group)))
    })
    .await
}

/// `POST /api/ban/remove {"name"}` (head judges): lifts a ban, as `ban remove NAME`.
pub async fn ban_remove(judge: Judge, p: Payload<NameBody>) -> Response {
    write::judge(judge, Some("lifting a ban"), p, |store, actor, b| {
        let card = crate::ops::event::lift_ban(store, actor, &b.name)?;
        Ok(Answer::ok(&format!("lifted the ban on {card}")))
    })
    .await
}

/// `POST /api/library/swap` body, as `library swap LIBRARY OUT IN [--force]`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwapBody {
    /// The library: table and seat (3A).
    pub library: String,
    /// The card to take out.
    pub out: String,
    /// The pool card to put in.
    #[serde(rename = "in")]
    pub card_in: String,
    /// Edit although round 1 is paired.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/library/swap` (head judges): one card of a library for one of the pool.
pub async fn swap(judge: Judge, p: Payload<SwapBody>) -> Response {
    write::judge(judge, Some("editing a library"), p, |store, actor, b| {
        let input =
            crate::ops::library::swap::SwapInput { library: b.library, out: b.out, card_in: b.card_in, force: b.force };
        let out = crate::ops::library::swap::swap(store, actor, input)?;
        let mut summary = format!(
            "library {}: {} out, {} in; now {:.1} cards off profile",
            out.library, out.out, out.card_in, out.distance_from_mean
        );
        if let Some(d) = out.pair_distance {
            summary.push_str(&format!(", {d:.0} apart from its partner"));
        }
        out.notes.iter().for_each(|n| summary.push_str(&format!("; {n}")));
        Answer::of(&summary, &out)
    })
    .await
}

/// `POST /api/library/build` body, as `library build --tables N [--size N] [--utopia N] [--seed N] [--force]
/// [--keep-unusable]`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildBody {
    /// Tables to build for.
    pub tables: u32,
    /// Cards in a main library (the rules' 40 when none, as `library build`).
    pub size: Option<usize>,
    /// Basic lands in a Utopia library (the rules' 30 when none, as `library build`).
    pub utopia: Option<u32>,
    /// The shuffle's seed (the event's when none).
    pub seed: Option<u64>,
    /// Build again although round 1 is paired.
    #[serde(default)]
    pub force: bool,
    /// Build in cards whose costs are unusable.
    #[serde(default)]
    pub keep_unusable: bool,
    /// Build fewer tables than are built, removing the libraries of the tables beyond them (asked first).
    #[serde(default)]
    pub fewer: bool,
}

/// How long `POST /api/library/build` waits for its job before answering `202 {"job"}` instead of the outcome.
const BUILD_WAIT: std::time::Duration = std::time::Duration::from_secs(4);

/// The build's fields checked in the form's words (the command line's check names its flags).
fn build_input(b: &BuildBody) -> crate::error::Result<BuildInput> {
    let mut input = BuildInput::new(b.tables);
    if b.tables == 0 {
        return Err(Error::bad_input("tables 0 builds nothing: give the number of tables (players / 2, rounded up)"));
    }
    let most = crate::domain::bounds::MAX_LIBRARY;
    if let Some(size) = b.size {
        if size == 0 || size > most {
            return Err(Error::bad_input(format!("size {size} is not a library size: give 1 to {most} cards")));
        }
        input.size = size;
    }
    if let Some(utopia) = b.utopia {
        if utopia == 0 || utopia as usize > most {
            return Err(Error::bad_input(format!(
                "utopia {utopia} is not a Utopia library size: give 1 to {most} basic lands"
            )));
        }
        input.utopia = utopia;
    }
    input.seed = b.seed;
    input.force = b.force;
    input.keep_unusable = b.keep_unusable;
    Ok(input)
}

/// `POST /api/library/build` (head judges): builds the main libraries as `library build`; answered with the
/// outcome when it ends within a few seconds, else `202 {"job", "progress", "what"}` (see `GET /api/job/ID`). Sent
/// with a key (the `Idempotency-Key` header, a form's `idempotency_key`), a repeat answers the first build's job
/// (`"repeat": true`) and builds nothing more.
pub async fn build(judge: Judge, p: Payload<BuildBody>) -> Response {
    const WHAT: &str = "building the libraries";
    let back = p.back.clone();
    let deadline = judge.deadline;
    let started = async {
        judge.check_csrf(p.csrf.as_deref())?;
        judge.judge.require_head(WHAT).map_err(ApiError::from)?;
        let input = build_input(&p.input)?;
        let fewer = p.input.fewer;
        let actor = judge.actor(&judge.command(&p.shown))?;
        let key = p.sent.map(|sent| sent.scoped(&judge.judge.name, judge.route.name).key);
        let app = judge.db.app().clone();
        let begun = write::job_begin(&judge.db, WHAT, &actor.judge, key.clone()).await?;
        if let write::Begun::New(id) = begun {
            write::job_run(
                &app,
                id,
                actor,
                key,
                None,
                Box::new(move |store, actor, _, progress| build_work(store, actor, input, fewer, progress)),
            );
        }
        Ok::<_, ApiError>(begun)
    }
    .await;
    let (id, repeat) = match started {
        Ok(write::Begun::New(id)) => (id, false),
        Ok(write::Begun::Repeat(id)) => (id, true),
        Err(e) => return write::finish(deadline, Err(e), back).await,
    };
    // The request's connection is not held while the job runs.
    judge.db.give_back();
    let mark = |mut doc: serde_json::Value| {
        if repeat {
            doc["repeat"] = serde_json::Value::Bool(true);
        }
        doc
    };
    match write::job_wait(&judge.db, id, BUILD_WAIT).await {
        Ok(Some(jobs::Job { status: Some(200), outcome: Some(doc), .. })) => match back {
            Some(back) => axum::response::Redirect::to(&back).into_response(),
            None => Json(mark(doc)).into_response(),
        },
        Ok(Some(jobs::Job { status: Some(status), error: Some(message), .. })) => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            write::finish(deadline, Err(ApiError::new(status, message)), back).await
        }
        Err(e) => write::finish(deadline, Err(e), back).await,
        _ => (StatusCode::ACCEPTED, Json(mark(jobs::started(id, WHAT)))).into_response(),
    }
}

/// The build's work, as a job: refused on an empty pool, or for fewer tables than are built unless asked.
fn build_work(
    store: &mut crate::store::Store,
    actor: &crate::store::Actor,
    input: BuildInput,
    fewer: bool,
    progress: jobs::Progress,
) -> crate::error::Result<Answer> {
    progress("building the libraries", 0, 0);
    if store.read(crate::store::pool::all)?.is_empty() {
        return Err(Error::refused(
            "the libraries are built from the pool, which is empty: upload the pool first (the Pool step)",
        ));
    }
    // Fewer tables than are built removes libraries: asked first (a mistyped 1 for 9 is not a rebuild).
    let built = store.read(crate::store::library::all)?.iter().filter_map(|l| l.table).max().unwrap_or(0);
    if built > input.tables && !fewer {
        return Err(Error::refused(format!(
            "{} {} built: building {} removes the libraries of {}; tick “Build fewer tables, removing the \
             libraries beyond them” and build again, or give {built} tables",
            crate::domain::words::count(built, "table"),
            if built == 1 { "is" } else { "are" },
            crate::domain::words::count(input.tables, "table"),
            if built == input.tables + 1 {
                format!("table {built}")
            } else {
                format!("tables {} to {built}", input.tables + 1)
            },
        )));
    }
    let out = crate::ops::library::build(store, actor, input)?;
    Answer::of(&words::built(&out), &out)
}

/// `GET /api/job/ID` (head judges): a job's progress, and once ended its outcome or its refusal (a job of an
/// earlier run sent with a key: as the event file keeps it).
pub async fn job(judge: Judge, Path(id): Path<u64>) -> Result<Response, ApiError> {
    judge.judge.require_head("following a job").map_err(ApiError::from)?;
    match write::job_view(&judge.db, id).await? {
        Some(job) => Ok(crate::web::kit::page::json(&job)),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no job {id} on this server (a job sent without a key is forgotten when the server restarts): send \
                 the file again"
            ),
        )),
    }
}
