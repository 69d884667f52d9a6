//! Long work started from the head judge's pages (an uploaded file's import, a library build): each is a job
//! run in the background, one at a time, through the same `ops` action as the command line; `GET /api/job/ID`
//! reads its progress and, once ended, its outcome (the JSON the command line's `--json` prints) or its refusal.
//! Jobs live in the server's memory only: the event file holds what they did (one write and its audit row).

use super::answer::Answer;
use super::error::ApiError;
use crate::error::Result;
use crate::store::{Actor, Store};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

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
pub fn start(
    (jobs, db): (&Arc<Jobs>, &std::path::Path),
    what: &str,
    actor: Actor,
    upload: Option<Upload>,
    work: impl FnOnce(&mut Store, &Actor, Option<&Upload>, Progress) -> Result<Answer> + Send + 'static,
) -> std::result::Result<u64, ApiError> {
    let job = jobs.add(what, &actor.judge);
    let (all, db) = (jobs.clone(), db.to_path_buf());
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
            work(&mut store, &actor, upload.as_ref(), &mut progress)
        }));
        drop(upload);
        let ended = match ran {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(ApiError::from(e)),
            Err(_) => Err(ApiError::internal("the job")),
        };
        if let Err(e) = &ended
            && let Some(cause) = &e.cause
        {
            tracing::error!(job, cause = %cause, "a job failed");
        }
        match &ended {
            Ok(answer) => {
                let summary = answer.to_json()["summary"].as_str().map(str::to_string).unwrap_or_default();
                tracing::info!("job {job}: done: {summary}");
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
                j.phase = "refused: nothing was written".into();
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
