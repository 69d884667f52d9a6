//! The server's side of a second laptop: on the primary, the standby's streams, its acknowledgements and
//! `--standby-required` (a write answered once the standby applied it, or marked behind); on a standby, whom it
//! follows (every write refused 503 until promoted) and how far behind it is. What runs it is in [`super::following`].

use crate::ops::judges::SessionJudge;
use crate::ops::standby::follow::Progress;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// How long a write waits for the standby with `--standby-required` (`MMJUDGE_STANDBY_WAIT_MS` in tests).
pub const STANDBY_WAIT: Duration = Duration::from_millis(500);

/// The replication as this server runs it.
pub struct Replica {
    /// On a standby: the primary it follows while it follows (None once promoted, or on a primary).
    pub standby_of: Mutex<Option<String>>,
    /// On a standby: the follower's progress.
    pub progress: Mutex<Option<watch::Receiver<Progress>>>,
    /// On a primary: the last change the standby acknowledged (in this server's run).
    pub acked: watch::Sender<i64>,
    /// On a primary: the tokens of the standby's open streams (their acknowledgements carry one).
    pub streams: Mutex<HashSet<String>>,
    /// `--standby-required`: writes wait for the standby.
    pub required: bool,
    /// How long they wait.
    pub wait: Duration,
    /// The standby did not apply a write in time: later writes do not wait until it catches up.
    pub behind: AtomicBool,
    /// On an old primary: where the event went once its standby was promoted (pages say so).
    pub moved_to: Mutex<Option<String>>,
    /// On a standby: the judges' logins made here, by session key (the file takes no writes, so they live in
    /// memory; they end with the server or its promotion).
    pub sessions: Mutex<HashMap<String, SessionJudge>>,
    /// Counts this server's writes: the standby's stream, waiting between looks at the file, wakes at once on one
    /// (the command line's writes it sees at its next look).
    written: (Mutex<u64>, Condvar),
}

impl Default for Replica {
    fn default() -> Self {
        Replica {
            standby_of: Mutex::new(None),
            progress: Mutex::new(None),
            acked: watch::Sender::new(0),
            streams: Mutex::new(HashSet::new()),
            required: false,
            wait: STANDBY_WAIT,
            behind: AtomicBool::new(false),
            moved_to: Mutex::new(None),
            sessions: Mutex::new(HashMap::new()),
            written: (Mutex::new(0), Condvar::new()),
        }
    }
}

impl Replica {
    /// Where the event went, on an old primary whose standby was promoted.
    pub fn moved(&self) -> Option<String> {
        self.moved_to.lock().ok().and_then(|s| s.clone())
    }

    /// The primary this server follows, while it is a standby.
    pub fn following(&self) -> Option<String> {
        self.standby_of.lock().ok().and_then(|s| s.clone())
    }

    /// A write of this server ended: wakes the standby's stream.
    pub fn wake(&self) {
        if let Ok(mut n) = self.written.0.lock() {
            *n += 1;
            self.written.1.notify_all();
        }
    }

    /// Waits at most `most` for a write of this server (a blocking thread's wait).
    pub fn wait_for_write(&self, most: Duration) {
        if let Ok(n) = self.written.0.lock() {
            let seen = *n;
            let _ = self.written.1.wait_timeout_while(n, most, |n| *n == seen);
        }
    }

    /// A login kept in memory (a standby's), by session key.
    pub fn held(&self, key: &str) -> Option<SessionJudge> {
        self.sessions.lock().ok().and_then(|s| s.get(key).cloned())
    }

    /// The standby acknowledged every change up to `seq`.
    pub fn acknowledged(&self, seq: i64) {
        self.acked.send_if_modified(|a| {
            let more = seq > *a;
            *a = (*a).max(seq);
            more
        });
        if seq > 0 && self.behind.load(Ordering::Relaxed) {
            self.behind.store(false, Ordering::Relaxed);
            eprintln!("standby: caught up (change {seq} applied)");
        }
    }

    /// Waits until the standby applied change `seq`, at most [`Replica::wait`] (none while it is behind):
    /// whether it did.
    pub async fn applied(&self, seq: i64) -> bool {
        let mut rx = self.acked.subscribe();
        if *rx.borrow() >= seq {
            return true;
        }
        if self.behind.load(Ordering::Relaxed) {
            return false;
        }
        let done = tokio::time::timeout(self.wait, rx.wait_for(|a| *a >= seq)).await;
        let applied = matches!(done, Ok(Ok(_)));
        if !applied && !self.behind.swap(true, Ordering::Relaxed) {
            eprintln!(
                "STANDBY BEHIND: change {seq} was not applied on the standby within {} ms; writes are answered without it until it catches up",
                self.wait.as_millis()
            );
        }
        applied
    }
}
