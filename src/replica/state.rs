//! The server's side of a second laptop: on the primary, the standby's streams, its acknowledgements and
//! `--standby-required` (a write answered once the standby applied it, or marked behind); on a standby, whom it
//! follows (every write refused 503 until promoted) and how far behind it is; and "a write committed", the signal
//! that wakes the primary's feed. The server's gate and watchers that run it are in `web::laptops`, its answers' wait in `web::kit::door`.

use super::follower::Progress;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime};
use tokio::sync::watch;

/// How long a write waits for the standby with `--standby-required` (`MMJUDGE_STANDBY_WAIT_MS` in tests).
pub const STANDBY_WAIT: Duration = Duration::from_secs(5);

/// The primary's lease: a standby not heard within it (it acknowledges at least every second) is asked where the
/// event is before a write is taken.
pub const LEASE: Duration = Duration::from_millis(1500);

/// A standby's stream is its primary's one follower while it was heard within this (a reconnect after a Wi-Fi
/// blip is the same follower; another is refused meanwhile).
pub const HOLDS_FOR: Duration = Duration::from_secs(5);

/// One open log stream: who opened it, with which key.
#[derive(Debug, Clone)]
pub struct Stream {
    /// The id the standby names itself by.
    pub follower: String,
    /// The address it advertises.
    pub advertise: Option<String>,
    /// The key's hash it was opened with (a new key ends it).
    pub key_hash: String,
}

/// The standby that holds the stream and acknowledged: the one phones are told about and writes wait for.
#[derive(Debug, Clone)]
pub struct Holder {
    /// Its stream.
    pub stream: Stream,
    /// Its stream's token.
    pub token: String,
    /// When it last acknowledged.
    pub heard: Instant,
}

/// How often, at most, the primary's file notes its standby's acknowledgements (see [`Replica::note_due`]).
pub const ACK_NOTED_EVERY: Duration = Duration::from_secs(1);

/// The replication as this server runs it.
pub struct Replica {
    /// On a standby: the primary it follows while it follows (None once promoted, or on a primary).
    pub standby_of: Mutex<Option<String>>,
    /// On a standby: the follower's progress.
    pub progress: Mutex<Option<watch::Receiver<Progress>>>,
    /// On a primary: the last change the standby acknowledged (in this server's run).
    pub acked: watch::Sender<i64>,
    /// On a primary: the standby's open streams by token (their acknowledgements carry one).
    pub streams: Mutex<HashMap<String, Stream>>,
    /// On a primary: the standby holding the stream, once it acknowledged.
    pub holder: Mutex<Option<Holder>>,
    /// On a primary: when the standby last acknowledged (both clocks: a laptop's sleep stops the monotonic one).
    heard: Mutex<Option<(Instant, SystemTime)>>,
    /// On a primary: when the file last noted an acknowledgement (see [`Replica::note_due`]).
    ack_noted: Mutex<Option<Instant>>,
    /// `--standby-required`: writes wait for the standby.
    pub required: bool,
    /// How long they wait.
    pub wait: Duration,
    /// The standby did not apply a write in time (said once on the terminal, until it catches up); later writes
    /// still wait for it, each up to [`Replica::wait`].
    pub behind: AtomicBool,
    /// On an old primary: where the event went once its standby was promoted (pages say so).
    pub moved_to: Mutex<Option<String>>,
    /// Failures of the server's background work since it started (the phones' watcher, the standby's feed, a
    /// job's failure of the server), each logged with its cause: `GET /api/standby/status` counts them.
    pub failures: std::sync::atomic::AtomicU64,
    /// Counts this server's writes: "a write committed", the one signal that wakes the standby's stream and the
    /// phones' watcher (`web::sse::watch`) at once, both waiting between looks at the file (the command line's
    /// writes they see at their next look).
    written: (Mutex<u64>, Condvar),
}

impl Default for Replica {
    fn default() -> Self {
        Replica {
            standby_of: Mutex::new(None),
            progress: Mutex::new(None),
            acked: watch::Sender::new(0),
            streams: Mutex::new(HashMap::new()),
            holder: Mutex::new(None),
            heard: Mutex::new(None),
            ack_noted: Mutex::new(None),
            required: false,
            wait: STANDBY_WAIT,
            behind: AtomicBool::new(false),
            moved_to: Mutex::new(None),
            failures: std::sync::atomic::AtomicU64::new(0),
            written: (Mutex::new(0), Condvar::new()),
        }
    }
}

impl Replica {
    /// A primary's or standby's replication, its writes waiting for the standby (`required`) up to `wait`.
    pub fn new(required: bool, wait: Duration) -> Replica {
        Replica { required, wait, ..Replica::default() }
    }

    /// Where the event went, on an old primary whose standby was promoted.
    pub fn moved(&self) -> Option<String> {
        self.moved_to.lock().ok().and_then(|s| s.clone())
    }

    /// The primary this server follows, while it is a standby.
    pub fn following(&self) -> Option<String> {
        self.standby_of.lock().ok().and_then(|s| s.clone())
    }

    /// Background work failed (logged with its cause by the caller): counted for `GET /api/standby/status`.
    pub fn failed(&self) {
        self.failures.fetch_add(1, Ordering::Relaxed);
    }

    /// A write of this server ended: wakes the standby's stream.
    pub fn wake(&self) {
        if let Ok(mut n) = self.written.0.lock() {
            *n += 1;
            self.written.1.notify_all();
        }
    }

    /// Waits at most `most` for a write of this server (a blocking thread's wait): whether one came.
    pub fn wait_for_write(&self, most: Duration) -> bool {
        let Ok(n) = self.written.0.lock() else { return false };
        let seen = *n;
        self.written.1.wait_timeout_while(n, most, |n| *n == seen).is_ok_and(|(n, _)| *n != seen)
    }

    /// The standby acknowledged every change up to `seq`, this file's last being `latest`: it is heard, and no
    /// longer behind once it holds the latest change.
    pub fn acknowledged(&self, seq: i64, latest: i64) {
        self.acked.send_if_modified(|a| {
            let more = seq > *a;
            *a = (*a).max(seq);
            more
        });
        self.note_heard();
        if seq >= latest && self.behind.load(Ordering::Relaxed) {
            self.behind.store(false, Ordering::Relaxed);
            tracing::info!(target: crate::replica::LOG, "standby: caught up (change {seq} applied, the latest)");
        }
    }

    /// Whether the file notes the acknowledgement arriving now (the acknowledged change, when the standby was
    /// heard, the log trimmed): the first of this server's run, then at most once every [`ACK_NOTED_EVERY`]. The
    /// server's own count ([`Replica::acknowledged`]) is what writes wait for; the file's is what a restart,
    /// `standby status` and the log's trimming read, so an acknowledgement a change costs no write of its own.
    pub fn note_due(&self) -> bool {
        let Ok(mut noted) = self.ack_noted.lock() else { return true };
        match *noted {
            Some(at) if at.elapsed() < ACK_NOTED_EVERY => false,
            _ => {
                *noted = Some(Instant::now());
                true
            }
        }
    }

    /// Another standby than `follower` holding the stream opened with `key_hash`, heard within [`HOLDS_FOR`]
    /// (then `follower` is refused).
    pub fn other_holder(&self, follower: &str, key_hash: &str) -> Option<Holder> {
        let holder = self.holder.lock().ok().and_then(|h| h.clone())?;
        let holds = holder.stream.follower != follower
            && holder.stream.key_hash == key_hash
            && holder.heard.elapsed() < HOLDS_FOR;
        holds.then_some(holder)
    }

    /// The stream `token` acknowledged: its standby holds the stream now (the stream, if it is still open).
    pub fn hold(&self, token: &str) -> Option<Stream> {
        let stream = self.streams.lock().ok().and_then(|s| s.get(token).cloned())?;
        if let Ok(mut h) = self.holder.lock() {
            *h = Some(Holder { stream: stream.clone(), token: token.to_string(), heard: Instant::now() });
        }
        Some(stream)
    }

    /// Ends the stream `token` (its feed stops at its next heartbeat).
    pub fn end_stream(&self, token: &str) {
        if let Ok(mut s) = self.streams.lock() {
            s.remove(token);
        }
    }

    /// Whether the stream `token` is still open.
    pub fn stream_open(&self, token: &str) -> bool {
        self.streams.lock().is_ok_and(|s| s.contains_key(token))
    }

    /// The standby was heard now (an acknowledgement, or its answer to `whoami`).
    pub fn note_heard(&self) {
        if let Ok(mut h) = self.heard.lock() {
            *h = Some((Instant::now(), SystemTime::now()));
        }
    }

    /// Whether the standby was heard within [`LEASE`] by both clocks (a laptop that slept has not).
    pub fn lease_holds(&self) -> bool {
        let heard = self.heard.lock().ok().and_then(|h| *h);
        heard.is_some_and(|(mono, wall)| mono.elapsed() < LEASE && wall.elapsed().is_ok_and(|d| d < LEASE))
    }

    /// Waits until the standby applied change `seq`, at most [`Replica::wait`]: whether it did (a standby that has
    /// not is marked behind, loudly, until it holds the latest change).
    pub async fn applied(&self, seq: i64) -> bool {
        let mut rx = self.acked.subscribe();
        if *rx.borrow() >= seq {
            return true;
        }
        let done = tokio::time::timeout(self.wait, rx.wait_for(|a| *a >= seq)).await;
        let applied = matches!(done, Ok(Ok(_)));
        if !applied && !self.behind.swap(true, Ordering::Relaxed) {
            tracing::warn!(target: crate::replica::LOG, "STANDBY BEHIND: change {seq} was not applied on the standby within {} ms; such writes are answered 503 (phones send them again) until it catches up",
                self.wait.as_millis());
        }
        applied
    }
}

/// A change the standby did not apply within [`Replica::wait`] (the answer is a 503: the page sends it again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotApplied;

impl Replica {
    /// Settles an event change this server committed (`committed`, as the store returned it): wakes the
    /// standby's stream and, with `--standby-required` (or a file that keeps requiring its standby), waits for
    /// the standby to apply it. Answers the word for the write's answer (`"applied"`; `"none"` once a head judge
    /// detached the second laptop; nothing when nothing is required), or [`NotApplied`] when the standby did not
    /// apply it in time.
    pub async fn settle(
        &self,
        committed: &crate::store::Committed,
    ) -> std::result::Result<Option<&'static str>, NotApplied> {
        use crate::store::replication::Role;
        self.wake();
        if !self.required {
            return Ok(None);
        }
        let s = &committed.state;
        if s.role != Role::Primary || s.key_hash.is_none() {
            let alone = s.detached_at.is_some() && s.key_hash.is_none() && s.moved_to.is_none();
            return Ok(alone.then_some("none"));
        }
        match self.applied(committed.seq).await {
            true => Ok(Some("applied")),
            false => Err(NotApplied),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_behind_flag_clears_only_once_the_standby_holds_the_latest_change() {
        let r = Replica::default();
        r.behind.store(true, Ordering::Relaxed);
        r.acknowledged(919, 959);
        assert!(r.behind.load(Ordering::Relaxed), "an acknowledgement of an older change is no catching up");
        assert_eq!(*r.acked.borrow(), 919);
        r.acknowledged(959, 959);
        assert!(!r.behind.load(Ordering::Relaxed));
    }

    #[test]
    fn the_file_notes_the_first_acknowledgement_then_one_a_second_at_most() {
        let r = Replica::default();
        assert!(r.note_due(), "the first of the run is noted");
        assert!((0..100).all(|_| !r.note_due()), "the next ones within the second are not");
        if let Ok(mut noted) = r.ack_noted.lock() {
            *noted = Instant::now().checked_sub(ACK_NOTED_EVERY);
        }
        assert!(r.note_due(), "a second later, the next is noted");
        assert!(!r.note_due());
    }

    #[test]
    fn the_lease_holds_for_a_second_and_a_half_after_the_standby_was_heard() {
        let r = Replica::default();
        assert!(!r.lease_holds(), "never heard");
        r.note_heard();
        assert!(r.lease_holds());
        if let Ok(mut h) = r.heard.lock() {
            *h = Some((Instant::now(), SystemTime::now() - Duration::from_secs(3)));
        }
        assert!(!r.lease_holds(), "a laptop that slept: the wall clock moved on though the monotonic one did not");
    }
}
