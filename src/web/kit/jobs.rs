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
//! run in the background, one at a time, through the same `ops` action as the command line and through the one
//! door of writes (its runner is `super::write::job_run`); `GET /api/job/ID` reads its progress and, once ended,
//! its outcome (the JSON the command line's `--json` prints) or its refusal. Jobs are numbered from the seconds
//! since 2025 at the server's start and after the highest the event file keeps, so that no number names two
//! jobs. A job's key (the `Idempotency-Key` of an upload or a build) is the write keys' own (see
//! [`crate::store::keys`]): held by the job while it is under way, recorded in the event file with the job's one
//! write, with its first answer (its number), so a repeat is answered with the first job, after a restart too.
//! This server's memory holds the jobs' progress only; the event file holds what they did (one write, its audit
//! row and its key).
//!
//! A file sent as a request's whole body (the imports of the head judge's set-up page): up to [`UPLOAD_LIMIT`],
//! outside the [`super::request::BODY_LIMIT`] and the time limit of every other route, streamed to a file of its
//! own in the system's temporary folder (removed once its job ended) rather than held in memory.

use super::request::ApiError;
use crate::error::Result;
use crate::store::keys::WriteKey;
use axum::body::Body;
use axum::http::{HeaderMap, StatusCode, header};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Mutex;
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

/// A job's first answer (`202`): its number, where its progress is read and what it does; kept with its key for
/// a repeat (see [`crate::ops::write_keys::key_job`]).
pub fn started(id: u64, what: &str) -> serde_json::Value {
    serde_json::json!({ "job": id, "progress": progress_of(id), "what": what })
}

/// How many ended jobs are kept for `GET /api/job/ID` (the oldest are forgotten first).
const KEPT: usize = 32;

/// A job's phase while the standby has not applied its change.
pub const WAITING_FOR_STANDBY: &str = "waiting for the second laptop";

/// A job as `GET /api/job/ID` answers it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Job {
    /// Its number.
    pub job: u64,
    /// What it does, in words ("importing the card reference").
    pub what: String,
    /// Who started it.
    pub by: String,
    /// waiting (for the job before it, or for its file), running, done or refused.
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
    /// The write key it was sent with: held by the job while it is under way (a repeat then answers it), recorded
    /// in the event file with its write (a repeat after that is answered from there, after a restart too).
    #[serde(skip)]
    key: Option<WriteKey>,
}

impl Job {
    /// A job that ended well, as the event file keeps it (its key's record, see [`started`]): for a job of an
    /// earlier run, or one whose change the standby applied only after its answer was refused.
    pub fn done_from_file(job: u64, what: String, by: String, outcome: serde_json::Value) -> Job {
        let mut j = Job::new(job, what, by, None);
        j.finish(Ok(outcome));
        j
    }

    /// A job found in the event file whose change the standby has not applied yet.
    pub fn waiting_from_file(job: u64, what: String, by: String) -> Job {
        let mut j = Job::new(job, what, by, None);
        (j.state, j.phase) = ("running", WAITING_FOR_STANDBY.into());
        j
    }

    fn new(job: u64, what: String, by: String, key: Option<WriteKey>) -> Job {
        Job {
            job,
            what,
            by,
            state: "waiting",
            phase: "waiting for the job before it".into(),
            done: 0,
            of: 0,
            outcome: None,
            error: None,
            status: None,
            key,
        }
    }

    /// Ends the job: done with its answer's JSON, or refused with its status and one line.
    fn finish(&mut self, ended: std::result::Result<serde_json::Value, (StatusCode, String)>) {
        match ended {
            Ok(outcome) => {
                (self.state, self.phase) = ("done", "done".into());
                if self.of > 0 {
                    self.done = self.of;
                }
                (self.outcome, self.error, self.status) = (Some(outcome), None, Some(200));
            }
            Err((status, message)) => {
                self.state = "refused";
                self.phase = match status {
                    StatusCode::SERVICE_UNAVAILABLE => "refused: the second laptop has not saved it".into(),
                    _ => "refused: nothing was written".into(),
                };
                // A file's fault as a parser words it may quote with backquotes: the web's quotes are double.
                self.error = Some(message.replace('`', "\""));
                self.status = Some(status.as_u16());
            }
        }
    }

    /// Whether it ended refused with the 503 of a change the standby did not apply in time (its change is in
    /// the file: the standby may apply it later).
    pub fn not_applied(&self) -> bool {
        self.status == Some(StatusCode::SERVICE_UNAVAILABLE.as_u16())
    }
}

/// The jobs of this server, and its numbering of them.
#[derive(Debug)]
pub struct Jobs {
    all: Mutex<Numbered>,
    /// One job works on the event at a time (SQLite writes one at a time anyway; a queue is fairer than a
    /// busy file): held by the job's task across its work and its settling.
    pub turn: tokio::sync::Mutex<()>,
}

/// The jobs kept, and the numbers given.
#[derive(Debug, Default)]
struct Numbered {
    jobs: BTreeMap<u64, Job>,
    /// The last number given (this run's first is after it).
    last: u64,
    /// Whether the numbers the event file keeps were read (see [`Jobs::add`]).
    floor_read: bool,
}

/// Seconds from 2025-01-01T00:00:00Z to the Unix epoch's start of it: a run's first job number counts from it.
const NUMBERS_FROM: u64 = 1_735_689_600;

impl Default for Jobs {
    /// A run's jobs are numbered from the seconds since 2025 at its start: a page following a job of an earlier run
    /// (its number kept by the tab) never reads another job of this run under it, kept by the file or not.
    fn default() -> Jobs {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let last = now.saturating_sub(NUMBERS_FROM);
        Jobs { all: Mutex::new(Numbered { last, ..Numbered::default() }), turn: tokio::sync::Mutex::new(()) }
    }
}

/// What a job sent with a key found when it was added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    /// A new job, this number.
    New(u64),
    /// A job under way (or done in this run) holds the key: its number.
    Repeat(u64),
    /// The key is held by a job sent with other fields.
    OtherFields,
}

/// What a job's work may tell of its progress: `(phase, done, of)`.
pub type Progress<'a> = &'a mut dyn FnMut(&str, u64, u64);

impl Jobs {
    /// Whether the numbers the event file keeps must still be read before the next [`Jobs::add`].
    pub fn needs_floor(&self) -> bool {
        self.all.lock().map(|all| !all.floor_read).unwrap_or(false)
    }

    /// A new job named `what`, started by `by`, waiting its turn; with `key`, the job under way or done in this run
    /// that holds it instead (a refused job holds no key: sent again, it runs again). `floor`: the highest number
    /// the event file keeps (None when read already), so that a job's number is never one the file names.
    pub fn add(&self, what: &str, by: &str, key: Option<WriteKey>, floor: Option<u64>) -> Added {
        // The jobs' list holds plain values: one a panic left behind is read as it is.
        let mut all = self.all.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(key) = &key {
            let holder = all.jobs.values().find(|j| {
                j.state != "refused"
                    && j.key
                        .as_ref()
                        .is_some_and(|k| (&k.scope, &k.route, &k.key) == (&key.scope, &key.route, &key.key))
            });
            if let Some(j) = holder {
                return match j.key.as_ref().is_some_and(|k| k.body == key.body) {
                    true => Added::Repeat(j.job),
                    false => Added::OtherFields,
                };
            }
        }
        if let Some(floor) = floor {
            all.last = all.last.max(floor);
            all.floor_read = true;
        }
        all.last += 1;
        let job = all.last;
        all.jobs.insert(job, Job::new(job, what.into(), by.into(), key));
        // Forget the oldest ended jobs beyond what is kept.
        let ended: Vec<u64> = all.jobs.values().filter(|j| j.status.is_some()).map(|j| j.job).collect();
        for old in ended.iter().take(ended.len().saturating_sub(KEPT)) {
            all.jobs.remove(old);
        }
        Added::New(job)
    }

    /// Changes job `job` as `f` says.
    pub fn update(&self, job: u64, f: impl FnOnce(&mut Job)) {
        if let Ok(mut all) = self.all.lock()
            && let Some(j) = all.jobs.get_mut(&job)
        {
            f(j);
        }
    }

    /// Tells job `job`'s phase.
    pub fn phase(&self, job: u64, phase: &str) {
        self.update(job, |j| j.phase = phase.into());
    }

    /// Ends job `job`: done with its answer's JSON, or refused with its status and one line.
    pub fn end(&self, job: u64, ended: std::result::Result<serde_json::Value, (StatusCode, String)>) {
        self.update(job, |j| j.finish(ended));
    }

    /// A job as it is now.
    pub fn get(&self, job: u64) -> Option<Job> {
        self.all.lock().ok().and_then(|all| all.jobs.get(&job).cloned())
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

#[cfg(test)]
mod job_tests {
    use super::*;

    fn key(k: &str, body: &str) -> Option<WriteKey> {
        Some(WriteKey { scope: "Kim".into(), route: "POST /api/pool/import".into(), key: k.into(), body: body.into() })
    }

    #[test]
    fn a_key_is_held_by_its_job_under_way_or_done_and_let_go_by_a_refused_one() {
        let jobs = Jobs::default();
        let Added::New(first) = jobs.add("importing the pool", "Kim", key("k1", "f"), Some(0)) else {
            panic!("a new job")
        };
        assert!(!jobs.needs_floor(), "the file's numbers are read once");
        assert_eq!(jobs.add("importing the pool", "Kim", key("k1", "f"), None), Added::Repeat(first));
        assert_eq!(jobs.add("importing the pool", "Kim", key("k1", "other"), None), Added::OtherFields);
        jobs.end(first, Ok(serde_json::json!({ "ok": true })));
        assert_eq!(jobs.add("importing the pool", "Kim", key("k1", "f"), None), Added::Repeat(first), "done: the same");
        let Added::New(second) = jobs.add("importing the pool", "Kim", key("k2", "f"), None) else { panic!("new") };
        jobs.end(second, Err((StatusCode::BAD_REQUEST, "no such card".into())));
        let Added::New(third) = jobs.add("importing the pool", "Kim", key("k2", "f"), None) else {
            panic!("a refused job's key runs again")
        };
        assert!(third > second && second > first);
        assert!(matches!(jobs.add("importing the pool", "Kim", None, None), Added::New(n) if n > third), "no key");
    }

    #[test]
    fn a_runs_numbers_follow_those_the_file_keeps_and_the_seconds_since_2025() {
        let jobs = Jobs::default();
        let Added::New(n) = jobs.add("x", "Kim", None, Some(5)) else { panic!("new") };
        assert!(n > 30_000_000, "numbered from the seconds since 2025 at the run's start: {n}");
        let far = n + 1_000;
        let later = Jobs::default();
        assert_eq!(later.add("x", "Kim", None, Some(far)), Added::New(far + 1), "after the file's highest");
    }
}

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
    /// Removed by the job that read it, on its blocking thread (or by the request that received it when refused).
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
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

/// Receives the body into a new temporary file: the chunks as they arrive are handed to a blocking thread that
/// writes them (the runtime's threads never wait on the disk), through a short queue that holds the connection
/// back while the disk is slower; refuses an empty body (400) or one over [`UPLOAD_LIMIT`] (413, as soon as its
/// length says so), leaving no file behind.
pub async fn receive(headers: &HeaderMap, body: Body, name: Option<&str>) -> Result<Upload, ApiError> {
    let said = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if said.is_some_and(|n| n > UPLOAD_LIMIT) {
        return Err(too_large());
    }
    let path = std::env::temp_dir().join(format!("mmjudge-upload-{}", crate::ops::judges::random_hex(16)));
    // From here on the file is removed when the upload is dropped (a refusal, a broken connection).
    let mut upload = Upload { path: path.clone(), shown: file_shown(name), bytes: 0 };
    let (chunks, queued) = tokio::sync::mpsc::channel::<axum::body::Bytes>(8);
    let writer = tokio::task::spawn_blocking(move || write_chunks(&path, queued));
    let mut stream = body.into_data_stream();
    let read = async {
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
            // The writer stopped (it failed: its error is below).
            if chunks.send(chunk).await.is_err() {
                break;
            }
        }
        Ok(())
    }
    .await;
    drop(chunks);
    // The writer has ended before the upload may be dropped, so no file is made after it was removed.
    let wrote = match writer.await {
        Ok(wrote) => wrote.map_err(|e| ApiError::internal_because("receiving the file", e)),
        Err(_) => Err(ApiError::internal("receiving the file")),
    };
    read?;
    wrote?;
    if upload.bytes == 0 {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "no file was sent: choose the file, then send it"));
    }
    Ok(upload)
}

/// Writes the chunks queued to a new file at `path` (on a blocking thread), until the queue is closed.
fn write_chunks(
    path: &std::path::Path,
    mut queued: tokio::sync::mpsc::Receiver<axum::body::Bytes>,
) -> std::result::Result<(), String> {
    use std::io::Write;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, file);
    while let Some(chunk) = queued.blocking_recv() {
        out.write_all(&chunk).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    out.flush().map_err(|e| format!("{}: {e}", path.display()))
}
