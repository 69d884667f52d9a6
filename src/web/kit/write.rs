//! The one write runner: a judge's write (the CSRF check for cookie sessions, the role check, the judge as the
//! actor) or a player's (the code's holder as the actor, under the wrong-code limit) runs its `ops` call through
//! the request's door (`super::door`), as one transaction with its audit row and, for a keyed
//! write, its key and the answer kept for a repeat (`Store::write_keyed`: one changeset); the door waits for the
//! standby where it must, and the write ends the same way: the JSON [`Answer`] (with `"standby"` when there is
//! a word for it), or for a page's form back to that page (a refusal as the refused page with a link back).
//!
//! A job (an upload's import, a library build) is a write whose answer comes later: begun with its key
//! ([`job_begin`]: a repeat answers the first job), run in a task of its own through the same door ([`job_run`]),
//! and read while it runs or once it ended ([`job_view`], [`job_wait`]).

use super::auth::Judge;
use super::extract::Keyed;
use super::extract::Sent;
use super::extract::{Payload, Player};
use super::jobs::{Job, Progress, Upload, WAITING_FOR_STANDBY};
use super::page;
use super::request::Answer;
use super::request::ApiError;
use super::state::{Db, Shared};
use crate::error::Result;
use crate::ops::table::device::Holder;
use crate::ops::write_keys;
use crate::store::keys::WriteKey;
use crate::store::{Actor, Store};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};

/// Runs one write for a logged-in judge (the audit's command line is the request's route and the fields sent);
/// `head_only` names the action when only head judges may do it.
pub async fn judge<T: Send + 'static>(
    judge: Judge,
    head_only: Option<&'static str>,
    payload: Payload<T>,
    f: impl FnOnce(&mut Store, &Actor, T) -> Result<Answer> + Send + 'static,
) -> Response {
    let back = payload.back.clone();
    let app = judge.db.app().clone();
    let deadline = judge.deadline;
    let done = async {
        judge.check_csrf(payload.csrf.as_deref())?;
        if let Some(what) = head_only {
            judge.judge.require_head(what).map_err(ApiError::from)?;
        }
        let pacer = super::limit::Pacer::Judge(judge.judge.name.clone());
        super::extract::pace(&app, &pacer, judge.route)?;
        let actor = judge.actor(&judge.command(&payload.shown))?;
        let input = payload.input;
        let key = payload.sent.map(|sent| sent.scoped(&judge.judge.name, judge.route.name));
        let (done, settled) =
            judge.db.run_settled(move |store| run(store, &actor, key, |store, actor| f(store, actor, input))).await?;
        Ok((done.answer()?, settled))
    }
    .await;
    match done {
        Ok((answer, settled)) => {
            // The entry this write made, named by the page it goes back to (`?done=ID`).
            let id = settled.audit_id;
            if let (Some(id), Ok(mut kept)) = (id, app.done.lock()) {
                kept.keep(id, answer.summary().to_string());
            }
            finish(deadline, worded(answer, settled), back.map(|b| super::request::back_to(&b, id))).await
        }
        Err(e) => finish(deadline, Err(e), back).await,
    }
}

/// A write's answer once the door settled it (see [`super::door`]): with `"standby"` when
/// there is a word for it.
fn worded(answer: Answer, settled: super::door::Settled) -> std::result::Result<Answer, ApiError> {
    match settled.word {
        Some(word) => Ok(answer.with(&serde_json::json!({ "standby": word }))?),
        None => Ok(answer),
    }
}

/// A player's write as sent: the table and the code that act there, the fields for the audit, the page to go
/// back to (a form's) and the write's key (scoped by the code's holder and the request's route).
pub struct PlayerWrite {
    /// The table.
    pub table: u32,
    /// The code that acts.
    pub code: String,
    /// The fields, for the audit.
    pub shown: String,
    /// Where a form goes back to.
    pub back: Option<String>,
    /// The write's key, if sent.
    pub key: Option<Sent>,
}

/// Runs one write for the holder of `sent.code` at `sent.table`.
pub async fn player(
    player: &Player,
    sent: PlayerWrite,
    f: impl FnOnce(&mut Store, &Actor, Holder) -> Result<Answer> + Send + 'static,
) -> Response {
    let PlayerWrite { table, code, shown, back, key } = sent;
    let route = player.route.name;
    let done = player
        .act((table, code), player.command(&shown), move |store, actor, holder| {
            let key = key.map(|sent| sent.scoped(&actor.judge, route));
            run(store, actor, key, |store, actor| f(store, actor, holder))
        })
        .await;
    let answer = done.and_then(|(done, settled)| worded(done.answer()?, settled));
    finish(player.deadline, answer, back).await
}

/// How every write ends: its answer, or back to the form's page; a refusal as JSON, or as the refused page
/// (drawn within the request's `deadline`).
pub async fn finish(
    deadline: super::drawn::Deadline,
    done: std::result::Result<Answer, ApiError>,
    back: Option<String>,
) -> Response {
    match (done, back) {
        (Ok(_), Some(back)) => Redirect::to(&back).into_response(),
        (Ok(answer), None) => answer.into_response(),
        (Err(e), Some(back)) => page::refused(deadline, e, &back).await,
        (Err(e), None) => e.into_response(),
    }
}

/// How a write with a key ended.
#[derive(Debug)]
pub enum Done {
    /// Done now: its answer (kept with the key).
    Now(Answer),
    /// Done before under this key: the first answer, again, with `"repeat": true`.
    Before(Answer),
    /// The key was used with other fields: 422.
    OtherBody(String),
}

impl Done {
    /// The answer, or the refusal of a key used with other fields.
    pub fn answer(self) -> std::result::Result<Answer, ApiError> {
        match self {
            Done::Now(a) | Done::Before(a) => Ok(a),
            Done::OtherBody(key) => Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "the key \"{key}\" was used for another write with other fields: send a new Idempotency-Key for a new write"
                ),
            )),
        }
    }
}

/// Runs `f` (a write on `store` by `actor`) once for `key`: a key used already answers its first answer again,
/// else `f` runs (at the moment taken, see [`write_keys::moment`]) in one transaction with its key and the answer
/// kept for a repeat (one change for the standby). Without a key, `f` runs.
pub fn run(
    store: &mut Store,
    actor: &Actor,
    keyed: Option<Keyed>,
    f: impl FnOnce(&mut Store, &Actor) -> Result<Answer>,
) -> Result<Done> {
    let Some(Keyed { key, made, queued, first }) = keyed else {
        return Ok(Done::Now(f(store, actor)?));
    };
    if let Some(done) = before(store, &key)? {
        return Ok(done);
    }
    let (actor, moment) = match made {
        Some((at, table, timed)) => {
            let replayed = write_keys::Replayed { made: at, table, first, queued, timed };
            let m = write_keys::moment(store, actor, replayed)?;
            let answer = serde_json::json!({ "at": crate::time::stamp(m.at), "at_adjusted": m.adjusted });
            (m.actor, Some(answer))
        }
        None => (actor.clone(), None),
    };
    let out = write_keys::run_keyed(
        store,
        &key,
        |store| {
            f(store, &actor).and_then(|answer| match &moment {
                Some(m) => answer.with(m),
                None => Ok(answer),
            })
        },
        |answer| answer.kept().to_string(),
    );
    match out {
        Ok((answer, _)) => Ok(Done::Now(answer)),
        // Another request with the same key may have committed first: answer as it did.
        Err(e) => match before(store, &key)? {
            Some(done) => Ok(done),
            None => Err(e),
        },
    }
}

/// A key used before: its first answer again (settled by the door as everything written so far, which holds
/// the first try's change: a repeat is answered ok only once the standby holds it), or the refusal of a key
/// used with other fields.
fn before(store: &mut Store, key: &WriteKey) -> Result<Option<Done>> {
    let Some(kept) = write_keys::first(store, key)? else {
        return Ok(None);
    };
    if kept.body != key.body {
        return Ok(Some(Done::OtherBody(key.key.clone())));
    }
    store.settle_all(kept.audit_id)?;
    let first = kept
        .answer
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .filter(serde_json::Value::is_object);
    let answer = match first {
        Some(doc) => Answer::ok(&kept.summary).with(&doc)?,
        None => Answer::ok(&kept.summary),
    };
    Ok(Some(Done::Before(answer.with(&serde_json::json!({ "repeat": true }))?)))
}

/// How a job sent to the door began (see [`job_begin`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Begun {
    /// A new job, this number: give it its work with [`job_run`] (or end it, refused, when its file did not
    /// arrive).
    New(u64),
    /// Its key was sent before: the first job's number (under way, done in this run, or kept by the event file).
    Repeat(u64),
}

/// A job's key and what it is, as its route sends it: who sent it (scope), the route, the key and a fingerprint of
/// its fields (an upload's query string, a build's body).
pub type JobKey = Option<WriteKey>;

/// Begins a job named `what` for `by` (its judge, checked by the route): with `key`, the first job sent with it
/// if there is one, found in the event file (its key recorded with its write) or among the jobs under way; the
/// same key with other fields is refused (422), as a write's is. Else a new job, waiting its turn.
pub async fn job_begin(db: &Db, what: &str, by: &str, key: JobKey) -> std::result::Result<Begun, ApiError> {
    let jobs = db.app().jobs.clone();
    let floor = jobs.needs_floor();
    let looked = key.clone();
    let (kept, floor) = db
        .run(move |store| {
            let kept = match &looked {
                Some(key) => write_keys::first(store, key)?,
                None => None,
            };
            let floor = if floor { Some(write_keys::last_job(store)?) } else { None };
            Ok((kept, floor))
        })
        .await?;
    // The same key with other fields: refused as a write's is.
    let other_fields = |key: String| Done::OtherBody(key).answer().err().unwrap_or_else(|| ApiError::internal("a key"));
    if let (Some(kept), Some(key)) = (kept, &key) {
        if kept.body != key.body {
            return Err(other_fields(key.key.clone()));
        }
        return match first_answer(&kept).and_then(|doc| doc["job"].as_u64()) {
            Some(job) => Ok(Begun::Repeat(job)),
            None => Err(ApiError::internal_because("a job's key", "the key's first answer names no job")),
        };
    }
    match jobs.add(what, by, key.clone(), floor) {
        super::jobs::Added::New(job) => Ok(Begun::New(job)),
        super::jobs::Added::Repeat(job) => Ok(Begun::Repeat(job)),
        super::jobs::Added::OtherFields => Err(other_fields(key.map(|k| k.key).unwrap_or_default())),
    }
}

/// What a job's work is: on the store, as `actor`, with the file it read (if any), telling its progress.
pub type Work = Box<dyn FnOnce(&mut Store, &Actor, Option<&Upload>, Progress) -> Result<Answer> + Send>;

/// Runs job `job` (begun new by [`job_begin`]) in a task of its own, after any job before it: its work runs
/// through the door (`super::door`, [`super::state::Db::run_waiting`]) on the blocking pool with a connection of
/// the kept ones, and its key (if any) is recorded with its one write, its first answer kept for a repeat
/// ([`write_keys::key_job`]). A job is a write whose answer comes later: while the standby has not applied its
/// change it stays `running`, its phase [`WAITING_FOR_STANDBY`]; `done` only once applied, and `refused` with
/// the 503 words when the standby did not apply it in time. The upload it reads, if any, is removed when it ends.
pub fn job_run(app: &Shared, job: u64, actor: Actor, key: JobKey, upload: Option<Upload>, work: Work) {
    let app = app.clone();
    tokio::spawn(async move {
        let jobs = app.jobs.clone();
        let turn = jobs.turn.lock().await;
        let what = jobs.get(job).map(|j| j.what).unwrap_or_default();
        jobs.update(job, |j| (j.state, j.phase) = ("running", "starting".into()));
        tracing::info!("job {job} ({what}, by {}): started", actor.judge);
        let (told, waiting) = (jobs.clone(), jobs.clone());
        let first = super::jobs::started(job, &what).to_string();
        let ran = Db::new(&app)
            .run_waiting(
                move |store| {
                    let mut progress = progress(told, job);
                    if let Some(key) = key {
                        // The key recorded by a first job that this server no longer holds: its answer, as a write's.
                        if let Some(kept) = write_keys::first(store, &key)? {
                            store.settle_all(kept.audit_id)?;
                            return Answer::ok(&kept.summary).with(&serde_json::json!({ "repeat": true }));
                        }
                        write_keys::key_job(store, key, first);
                    }
                    let answer = work(store, &actor, upload.as_ref(), &mut progress);
                    drop(upload);
                    answer
                },
                move || waiting.phase(job, WAITING_FOR_STANDBY),
            )
            .await;
        let ended = ran.and_then(|(answer, settled)| worded(answer, settled));
        match &ended {
            Ok(answer) => tracing::info!("job {job}: done: {}", answer.summary()),
            Err(e) if e.cause.is_some() => {
                app.replica.failed();
                tracing::error!(job, cause = e.cause.as_deref().unwrap_or_default(), "a job failed");
            }
            Err(e) if e.status == StatusCode::SERVICE_UNAVAILABLE => {
                tracing::warn!("job {job}: refused, written here but not on the second laptop: {}", e.message)
            }
            Err(e) => tracing::warn!("job {job}: refused, nothing written: {}", e.message),
        }
        jobs.end(job, ended.map(|answer| answer.to_json()).map_err(|e| (e.status, e.message)));
        drop(turn);
    });
}

/// What a job's work tells of its progress, kept for `GET /api/job/ID`; the terminal hears each new phase and
/// every tenth of the way, as the page's bar shows it.
fn progress(jobs: std::sync::Arc<super::jobs::Jobs>, job: u64) -> impl FnMut(&str, u64, u64) {
    let mut said: (String, u64) = (String::new(), 0);
    move |phase: &str, done: u64, of: u64| {
        let tenth = done.saturating_mul(10).checked_div(of).unwrap_or(0);
        if said.0 != phase || tenth > said.1 {
            match of {
                0 => tracing::info!("job {job}: {phase}"),
                _ => tracing::info!("job {job}: {phase}, {done} of {of}"),
            }
            said = (phase.to_string(), tenth);
        }
        jobs.update(job, |j| {
            if j.phase != phase {
                j.phase = phase.to_string();
            }
            (j.done, j.of) = (done, of);
        });
    }
}

/// Job `id` as `GET /api/job/ID` answers it: this server's, else the one the event file keeps (a keyed job of an
/// earlier run, found by its key's first answer), and a job refused because the standby had not applied its
/// change is read from the file again: both settled by the door as a repeat of a write is (done once the
/// standby holds it, else still waiting for it). None: no such job.
pub async fn job_view(db: &Db, id: u64) -> std::result::Result<Option<Job>, ApiError> {
    let here = db.app().jobs.get(id);
    if here.as_ref().is_some_and(|j| !j.not_applied()) {
        return Ok(here);
    }
    let found = db
        .run_settled(move |store| {
            let kept = write_keys::kept_job(store, id)?;
            if let Some((_, kept)) = &kept {
                store.settle_all(kept.audit_id)?;
            }
            Ok(kept)
        })
        .await;
    let (scope, kept, settled) = match found {
        Ok((Some((scope, kept)), settled)) => (scope, kept, settled),
        Ok((None, _)) => return Ok(here),
        Err(e) if e.status == StatusCode::SERVICE_UNAVAILABLE && here.is_none() => {
            // Kept by the file, not yet on the standby: the page waits on.
            let what = db.run(move |store| write_keys::kept_job(store, id)).await?;
            return Ok(what.map(|(scope, kept)| Job::waiting_from_file(id, what_of(&kept), scope)));
        }
        Err(e) if e.status == StatusCode::SERVICE_UNAVAILABLE => return Ok(here),
        Err(e) => return Err(e),
    };
    let summary = super::request::web_words(&kept.summary);
    let outcome = worded(Answer::ok(&summary), settled)?.to_json();
    if here.is_some() {
        db.app().jobs.end(id, Ok(outcome.clone()));
        return Ok(db.app().jobs.get(id));
    }
    Ok(Some(Job::done_from_file(id, what_of(&kept), scope, outcome)))
}

/// A kept job's first answer (`{"job", "progress", "what"}`), as its key recorded it.
fn first_answer(kept: &crate::store::keys::Kept) -> Option<serde_json::Value> {
    kept.answer.as_deref().and_then(|text| serde_json::from_str(text).ok())
}

/// What a kept job did, as its first answer said (`"what"`).
fn what_of(kept: &crate::store::keys::Kept) -> String {
    first_answer(kept).and_then(|doc| doc["what"].as_str().map(str::to_string)).unwrap_or_default()
}

/// Waits up to `most` for job `id` to end; the job as it is then (one the event file keeps, at once).
pub async fn job_wait(db: &Db, id: u64, most: std::time::Duration) -> std::result::Result<Option<Job>, ApiError> {
    match db.app().jobs.wait(id, most).await {
        Some(job) if !job.not_applied() => Ok(Some(job)),
        _ => job_view(db, id).await,
    }
}
