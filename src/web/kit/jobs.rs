//! The event set up from the browser: the one-time set-up link ([`Setup`]), long work run as jobs ([`Jobs`]), and
//! the files they take as a request's body ([`receive`]).
//!
//! An event started from nothing (`serve --new`): the one-time set-up link's token, its wrong tries counted like
//! wrong PINs, and what the gate in `web::layers` asks ([`Setup::pending`], [`NOT_SET_UP`]) to answer every other
//! address "set-up is not done" until the event exists.
//!
//! The token is 128 random bits, made at each start, held only in this server's memory and taken by the first
//! request that shows it ([`Setup::take`]); a set-up that fails after taking it gives it back
//! ([`Setup::give_back`]), one that succeeds ends it for good.
//!
//! Long work started from the head judge's pages (an uploaded file's import, a library build): each is a job
//! run in the background, one at a time, through the same `ops` action as the command line; `GET /api/job/ID`
//! reads its progress and, once ended, its outcome (the JSON the command line's `--json` prints) or its refusal.
//! Jobs live in the server's memory only: the event file holds what they did (one write and its audit row).
//!
//! A file sent as a request's whole body (the imports of the head judge's set-up page): up to [`UPLOAD_LIMIT`],
//! outside the [`super::request::BODY_LIMIT`] and the time limit of every other route, streamed to a file of its
//! own in the system's temporary folder (removed once its job ended) rather than held in memory.

use super::request::Answer;
use super::request::ApiError;
use crate::error::Result;
use crate::replica::state::Replica;
use crate::store::{Actor, Store};
use axum::body::Body;
use axum::http::{HeaderMap, StatusCode, header};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio_stream::StreamExt;

/// Wrong tokens one address may send in [`WINDOW`] (as wrong PINs from one address): a 128-bit token needs no
/// budget over all addresses, so this only keeps one phone from hammering the link.
const WRONG_TRIES: usize = 5;
/// How long a wrong token counts.
const WINDOW: std::time::Duration = std::time::Duration::from_secs(600);

/// What the words of a page or an answer say while the event is not set up.
pub const NOT_SET_UP: &str =
    "this event is not set up yet: open the set-up link shown on the organiser's computer when the server started";

/// The set-up link's state: the token while set-up is not done (none at all for plain `serve`).
#[derive(Debug, Default)]
pub struct Setup {
    token: Mutex<Option<String>>,
    /// Wrong tokens, counted as wrong PINs are.
    tries: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
    /// Set while a request is creating the event (the token taken, not yet given back or spent).
    creating: std::sync::atomic::AtomicBool,
    /// Told once when the set-up is done (the server then starts its live-update watcher).
    pub done: tokio::sync::Notify,
}

/// Why a token was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The event is set up already (or this server serves an event it did not create).
    Done,
    /// Not the token: counted.
    Wrong,
    /// Too many wrong tokens from this address: wait this many seconds.
    Wait(u64),
}

impl Setup {
    /// Starts the set-up: a new token (32 hex digits), the only one that works until set-up is done.
    pub fn offer(&self) -> String {
        let token = crate::ops::judges::random_hex(16);
        if let Ok(mut held) = self.token.lock() {
            *held = Some(token.clone());
        }
        token
    }

    /// Whether the event is still waiting for its set-up (a token offered and not spent).
    pub fn pending(&self) -> bool {
        self.creating.load(std::sync::atomic::Ordering::SeqCst)
            || self.token.lock().map(|t| t.is_some()).unwrap_or(false)
    }

    /// Takes the token if `given` is it (compared in constant time), the try counted for `addr` first: the token
    /// then works no more until given back.
    pub fn take(&self, addr: IpAddr, given: &str) -> Result<String, Refused> {
        let mut tries = self.tries.lock().map_err(|_| Refused::Done)?;
        let now = Instant::now();
        let wrong = tries.entry(addr).or_default();
        while wrong.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
            wrong.pop_front();
        }
        if wrong.len() >= WRONG_TRIES
            && let Some(first) = wrong.front()
        {
            return Err(Refused::Wait(WINDOW.saturating_sub(now.duration_since(*first)).as_secs().max(1)));
        }
        let held = self.token.lock().map_err(|_| Refused::Done)?;
        let Some(want) = held.as_ref() else {
            return Err(Refused::Done);
        };
        if !crate::ops::judges::same_secret(want, given) {
            wrong.push_back(now);
            return Err(Refused::Wrong);
        }
        let mut held = held;
        self.creating.store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(held.take().unwrap_or_default())
    }

    /// A set-up that failed after taking the token: the same link works again.
    pub fn give_back(&self, token: String) {
        if let Ok(mut held) = self.token.lock() {
            *held = Some(token);
        }
        self.creating.store(false, std::sync::atomic::Ordering::SeqCst);
    }

    /// The set-up is done: the token is spent for good.
    pub fn spent(&self) {
        self.creating.store(false, std::sync::atomic::Ordering::SeqCst);
        self.done.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_works_once_a_wrong_one_is_counted_and_a_failed_set_up_gives_it_back() {
        let s = Setup::default();
        assert!(!s.pending(), "no token offered (plain serve): every page answers");
        let token = s.offer();
        assert_eq!(token.len(), 32, "128 bits in hex");
        assert_ne!(token, s.offer(), "a new token each start");
        let token = s.offer();
        let addr: IpAddr = [127, 0, 0, 9].into();
        assert_eq!(s.take(addr, "0123"), Err(Refused::Wrong));
        let taken = s.take(addr, &token).expect("the right token");
        assert!(s.pending(), "creating");
        assert_eq!(s.take(addr, &token), Err(Refused::Done), "taken: works no more");
        s.give_back(taken);
        let again = s.take(addr, &token).expect("given back after a failure");
        s.spent();
        drop(again);
        assert!(!s.pending());
        assert_eq!(s.take(addr, &token), Err(Refused::Done));
        let s = Setup::default();
        let token = s.offer();
        for _ in 0..5 {
            assert_eq!(s.take([127, 0, 0, 8].into(), "wrong"), Err(Refused::Wrong));
        }
        assert!(matches!(s.take([127, 0, 0, 8].into(), &token), Err(Refused::Wait(_))), "held back like PINs");
        assert!(s.take([127, 0, 0, 7].into(), &token).is_ok(), "another address is not");
    }
}

/// Where a job's progress and outcome are read (`{id}`: the job's number).
pub const PROGRESS: &str = "/api/job/{id}";

/// The address of job `id`'s progress.
pub fn progress_of(id: u64) -> String {
    PROGRESS.replace("{id}", &id.to_string())
}

/// How many ended jobs are kept for `GET /api/job/ID` (the oldest are forgotten first).
const KEPT: usize = 32;

/// A job as `GET /api/job/ID` answers it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Job {
    /// Its number.
    pub job: u64,
    /// What it does, in words ("importing the card reference").
    pub what: String,
    /// Who started it.
    pub by: String,
    /// waiting (for the job before it), running, done or refused.
    pub state: &'static str,
    /// What it is doing now ("reading the file", "storing cards").
    pub phase: String,
    /// How far it is: `done` of `of` (0 of 0 when it cannot say).
    pub done: u64,
    /// See `done`.
    pub of: u64,
    /// Once done: the answer, `{"ok": true, "summary", ...}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<serde_json::Value>,
    /// Once refused: the one line, as any refused write says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Once ended: the HTTP status the write would have been answered with (200, or 400 / 404 / 409 ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
}

/// The jobs of this server.
#[derive(Debug, Default)]
pub struct Jobs {
    all: Mutex<BTreeMap<u64, Job>>,
    /// One job works on the event at a time (SQLite writes one at a time anyway; a queue is fairer than a
    /// busy file).
    turn: Mutex<()>,
    /// The jobs started with a write key (`judge route key` → the job; 0 while its file is still arriving), so a
    /// repeat of an upload is answered with its first job and starts no other.
    keys: Mutex<std::collections::HashMap<String, u64>>,
}

/// What a keyed upload finds: its first job, a first try still receiving its file, or the key now taken by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyed {
    /// Sent before: its job.
    Repeat(u64),
    /// Sent before and its file is still arriving.
    Arriving,
    /// New: taken by this request (give it its job with [`Jobs::keep`], or free it with [`Jobs::free`]).
    New,
}

/// What a job's work may tell of its progress: `(phase, done, of)`.
pub type Progress<'a> = &'a mut dyn FnMut(&str, u64, u64);

/// An uploaded file, removed when dropped.
#[derive(Debug)]
pub struct Upload {
    /// Where it was received.
    pub path: PathBuf,
    /// Its name as the judge chose it (for messages and the audit log).
    pub shown: String,
    /// Its size.
    pub bytes: u64,
}

impl Drop for Upload {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Jobs {
    /// A new job, waiting its turn.
    fn add(&self, what: &str, by: &str) -> u64 {
        let Ok(mut all) = self.all.lock() else { return 0 };
        let job = all.keys().next_back().map_or(1, |n| n + 1);
        all.insert(
            job,
            Job {
                job,
                what: what.into(),
                by: by.into(),
                state: "waiting",
                phase: "waiting for the job before it".into(),
                done: 0,
                of: 0,
                outcome: None,
                error: None,
                status: None,
            },
        );
        // Forget the oldest ended jobs beyond what is kept.
        let ended: Vec<u64> = all.values().filter(|j| j.status.is_some()).map(|j| j.job).collect();
        for old in ended.iter().take(ended.len().saturating_sub(KEPT)) {
            all.remove(old);
        }
        job
    }

    fn update(&self, job: u64, f: impl FnOnce(&mut Job)) {
        if let Ok(mut all) = self.all.lock()
            && let Some(j) = all.get_mut(&job)
        {
            f(j);
        }
    }

    /// Takes `key` for a new upload, or finds what it was given before.
    pub fn take_key(&self, key: &str) -> Keyed {
        let Ok(mut keys) = self.keys.lock() else { return Keyed::New };
        match keys.get(key) {
            Some(0) => Keyed::Arriving,
            Some(job) => Keyed::Repeat(*job),
            None => {
                keys.insert(key.to_string(), 0);
                Keyed::New
            }
        }
    }

    /// The job a taken key started.
    pub fn keep(&self, key: &str, job: u64) {
        if let Ok(mut keys) = self.keys.lock() {
            keys.insert(key.to_string(), job);
        }
    }

    /// Frees a taken key whose upload started no job (its file did not arrive, or was refused before).
    pub fn free(&self, key: &str) {
        if let Ok(mut keys) = self.keys.lock() {
            keys.remove(key);
        }
    }

    /// A job as it is now.
    pub fn get(&self, job: u64) -> Option<Job> {
        self.all.lock().ok().and_then(|all| all.get(&job).cloned())
    }

    /// Waits up to `most` for a job to end; the job as it is then.
    pub async fn wait(&self, job: u64, most: std::time::Duration) -> Option<Job> {
        let until = tokio::time::Instant::now() + most;
        loop {
            let now = self.get(job)?;
            if now.status.is_some() || tokio::time::Instant::now() >= until {
                return Some(now);
            }
            tokio::time::sleep(std::time::Duration::from_millis(40)).await;
        }
    }
}

/// Starts `work` as a job named `what` for `actor` on its own thread (after any job before it): it opens the
/// event file, runs, and its answer or refusal is kept for `GET /api/job/ID`. The upload it reads, if any, is
/// removed when it ends.
///
/// A job is a write whose answer comes later: the change it committed settles as every write's does (see
/// `web::kit::door`): while the standby has not applied it the job stays `running`, its
/// phase [`WAITING_FOR_STANDBY`]; `done` only once applied, and `refused` with the 503 words when the standby
/// did not apply it in time.
pub fn start(
    (jobs, db, replica): (&Arc<Jobs>, &std::path::Path, &Arc<Replica>),
    what: &str,
    actor: Actor,
    upload: Option<Upload>,
    work: impl FnOnce(&mut Store, &Actor, Option<&Upload>, Progress) -> Result<Answer> + Send + 'static,
) -> std::result::Result<u64, ApiError> {
    let job = jobs.add(what, &actor.judge);
    let (all, db, replica) = (jobs.clone(), db.to_path_buf(), replica.clone());
    // The runtime the job's settling waits on (a job starts from a request, on it).
    let runtime = tokio::runtime::Handle::try_current().ok();
    let spawned = std::thread::Builder::new().name(format!("job {job}")).spawn(move || {
        let turn = all.turn.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        all.update(job, |j| {
            j.state = "running";
            j.phase = "starting".into();
        });
        let jobs = &all;
        let what = jobs.get(job).map(|j| j.what).unwrap_or_default();
        tracing::info!("job {job} ({what}, by {}): started", actor.judge);
        // The terminal hears each new phase and every tenth of the way, as the page's bar shows it.
        let mut said: (String, u64) = (String::new(), 0);
        let mut progress = |phase: &str, done: u64, of: u64| {
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
        };
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut store = Store::open(&db)?;
            let answer = work(&mut store, &actor, upload.as_ref(), &mut progress);
            let committed = store.take_committed();
            answer.map(|answer| (answer, committed))
        }));
        drop(upload);
        let ended = match ran {
            Ok(Ok((answer, None))) => Ok(answer),
            Ok(Ok((answer, Some(committed)))) => {
                all.update(job, |j| j.phase = WAITING_FOR_STANDBY.into());
                settle(&replica, runtime.as_ref(), &committed, answer)
            }
            Ok(Err(e)) => Err(ApiError::from(e)),
            Err(_) => Err(ApiError::internal("the job")),
        };
        if let Err(e) = &ended
            && let Some(cause) = &e.cause
        {
            replica.failed();
            tracing::error!(job, cause = %cause, "a job failed");
        }
        match &ended {
            Ok(answer) => {
                let summary = answer.to_json()["summary"].as_str().map(str::to_string).unwrap_or_default();
                tracing::info!("job {job}: done: {summary}");
            }
            Err(e) if e.status == StatusCode::SERVICE_UNAVAILABLE => {
                tracing::warn!("job {job}: refused, written here but not on the second laptop: {}", e.message)
            }
            Err(e) => tracing::warn!("job {job}: refused, nothing written: {}", e.message),
        }
        all.update(job, |j| match ended {
            Ok(answer) => {
                j.state = "done";
                j.phase = "done".into();
                if j.of > 0 {
                    j.done = j.of;
                }
                j.outcome = Some(answer.to_json());
                j.status = Some(200);
            }
            Err(e) => {
                j.state = "refused";
                j.phase = match e.status {
                    StatusCode::SERVICE_UNAVAILABLE => "refused: the second laptop has not saved it".into(),
                    _ => "refused: nothing was written".into(),
                };
                // A file's fault as a parser words it may quote with backquotes: the web's quotes are double.
                j.error = Some(e.message.replace('`', "\""));
                j.status = Some(e.status.as_u16());
            }
        });
        drop(turn);
    });
    match spawned {
        Ok(_) => Ok(job),
        Err(_) => {
            jobs.update(job, |j| {
                j.state = "refused";
                j.error = Some("the server could not start the job: try again".into());
                j.status = Some(503);
            });
            Err(ApiError::internal("starting a job"))
        }
    }
}

/// A job's phase while the standby has not applied its change.
pub const WAITING_FOR_STANDBY: &str = "waiting for the second laptop";

/// Settles a job's change (on the job's own thread, waiting on the server's runtime): its answer with
/// `"standby"` when there is a word for it, or the 503 of a change the standby did not apply in time.
fn settle(
    replica: &Replica,
    runtime: Option<&tokio::runtime::Handle>,
    committed: &crate::store::Committed,
    answer: Answer,
) -> std::result::Result<Answer, ApiError> {
    let settled = match runtime {
        Some(runtime) => runtime.block_on(replica.settle(committed)),
        // No runtime to wait on: a required standby cannot be waited for, so the job is not done.
        None if replica.required => Err(crate::replica::state::NotApplied),
        None => Ok(None),
    };
    match settled {
        Ok(Some(word)) => Ok(answer.with(&serde_json::json!({ "standby": word }))?),
        Ok(None) => Ok(answer),
        Err(crate::replica::state::NotApplied) => Err(ApiError::not_applied()),
    }
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
    let path = std::env::temp_dir().join(format!("mmjudge-upload-{}", crate::ops::judges::random_hex(16)));
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
