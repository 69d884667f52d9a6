//! A second laptop answered synchronously (`serve --standby-required`, PostgreSQL's synchronous standby is the
//! model): the file says so, so that the command line on the primary waits for the standby as its server does;
//! and a head judge may detach a second laptop gone for good, after which writes go on alone.

use crate::error::{Error, Result};
use crate::store::Store;
use crate::store::replication::{self, Role};
use chrono::Utc;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a write waits for the standby to apply it (the server's wait too).
pub const APPLIED_WITHIN: Duration = crate::replica::state::STANDBY_WAIT;

/// The command line counts the standby as heard when it acknowledged within this (it speaks every second).
pub const HEARD_WITHIN_MS: i64 = 2_000;

/// Whether a primary's file keeps requiring its standby whatever its server is started with: a standby key
/// exists, the event did not move, and a standby under that key acknowledged a change (a laptop that crashed
/// and restarts may have a promoted standby elsewhere, so it asks where the event is before its first write,
/// and waits for the standby, until a head judge runs `mmjudge standby detach`). A key made for a standby that
/// never started blocks nothing.
pub fn keeps_requiring(s: &replication::State) -> bool {
    s.role == Role::Primary && s.moved_to.is_none() && s.key_hash.is_some() && s.heard_at.is_some()
}

/// Notes in the file whether this primary's server waits for its standby: with `--standby-required`, or when the
/// file keeps requiring it ([`keeps_requiring`]); answers whether it does (the command line on this file then
/// waits for the standby too).
pub fn run_required(store: &mut Store, flag: bool) -> Result<bool> {
    let s = store.read(replication::state)?;
    let required = flag || keeps_requiring(&s);
    if s.role == Role::Primary && s.required != required {
        store.bookkeep(|tx| replication::set_required(tx, required))?;
    }
    Ok(required)
}

/// The one line plain `serve` says on a file that keeps requiring its standby.
pub const STILL_REQUIRED: &str = "this event's second laptop applied its changes before: every write waits for it \
     (as with --standby-required) and this laptop first asks it where the event is; if it is gone for good, run \
     `mmjudge standby detach` here";

/// A detachment done.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Detached {
    /// When.
    pub detached_at: String,
    /// Whether a standby key existed (false: detached again, or never had one).
    pub had_key: bool,
}

/// On the primary: the second laptop is gone for good. Its key ends (it can no longer follow), nothing of it is
/// advertised, and writes go on alone, answered `"standby": "none"`, until a new key.
pub fn detach(store: &mut Store, actor: &crate::store::Actor) -> Result<Detached> {
    let s = store.read(replication::state)?;
    if s.role == Role::Standby {
        return Err(Error::refused(
            "this file is a standby: detach the second laptop on the primary's file (the one that takes writes)",
        ));
    }
    if let Some(to) = &s.moved_to {
        return Err(Error::refused(format!("the event moved to {to}: this file takes no more writes")));
    }
    let at = super::stamp_now();
    // Not a change the second laptop is sent (it is gone): kept apart from the replication log, with its audit row.
    let change = crate::store::Change::new("the second laptop detached: writes go on on this laptop alone");
    store.bookkeep_audited(actor, &change, |tx| {
        replication::detach(tx, &at)?;
        // A server started later without `--standby-required` no longer waits for a second laptop.
        replication::set_required(tx, false)
    })?;
    Ok(Detached { detached_at: at, had_key: s.key_hash.is_some() })
}

/// What a command line's write found of the standby (see [`after_write`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waited {
    /// The standby applied change `seq`.
    Applied {
        /// The change.
        seq: i64,
    },
    /// The standby, heard, had not applied change `seq` within [`APPLIED_WITHIN`].
    NotApplied {
        /// The change.
        seq: i64,
    },
    /// The standby was not heard from lately: change `seq` was not waited for.
    NotHeard {
        /// The change.
        seq: i64,
        /// When it was last heard.
        last_heard: Option<String>,
    },
}

/// The file's last change before a command (None: no file yet).
pub fn before_write(db: &Path) -> Option<i64> {
    if !db.exists() {
        return None;
    }
    Store::open(db).ok()?.read(replication::state).ok().map(|s| s.seq)
}

/// After a command on the primary's file that wrote (its last change moved past `before`): when its server runs
/// with `--standby-required` and a standby key exists, waits until the standby applied it (at most
/// [`APPLIED_WITHIN`]), or says at once that the standby is not heard from. None: nothing to wait for.
pub fn after_write(db: &Path, before: i64) -> Option<Waited> {
    let store = Store::open(db).ok()?;
    let s = store.read(replication::state).ok()?;
    let synchronous = s.role == Role::Primary && s.required && s.key_hash.is_some() && s.moved_to.is_none();
    if !synchronous || s.seq <= before {
        return None;
    }
    let seq = s.seq;
    let heard_ms =
        s.heard_at.as_deref().and_then(|h| crate::time::unstamp(h).ok()).map(|h| (Utc::now() - h).num_milliseconds());
    if heard_ms.is_none_or(|ms| ms > HEARD_WITHIN_MS) {
        return Some(Waited::NotHeard { seq, last_heard: s.heard_at });
    }
    let started = Instant::now();
    while started.elapsed() < APPLIED_WITHIN {
        if store.read(replication::state).ok()?.acked_seq >= seq {
            return Some(Waited::Applied { seq });
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Some(Waited::NotApplied { seq })
}
