//! A second laptop following the event (see `store::replication`): the standby key made on the primary's file,
//! how far behind the standby is, and promoting the standby when the first laptop is gone.

pub mod sync;

use crate::error::{Error, Kind, Refusal, Result, WayOut};
use crate::replica::client;
use crate::store::Store;
use crate::store::replication::{self, Role};
use crate::time::{stamp, unstamp};
use chrono::{DateTime, Utc};
use std::time::Duration;

/// How long the primary has to answer before `standby promote` goes ahead.
pub const PRIMARY_ANSWERS_WITHIN: Duration = Duration::from_secs(2);

/// Makes a new standby key on the primary's file (the last one stops working); returns it, to show once.
pub fn new_key(store: &mut Store) -> Result<String> {
    refuse_on_standby(store, "make a standby key")?;
    let key = crate::ops::judges::random_hex(24);
    store.bookkeep(|tx| replication::set_key(tx, Some(&key_hash(&key))))?;
    Ok(key)
}

/// How a standby key is kept: `blake2s:` and a BLAKE2s digest of it. The key is 192 random bits, typed by no
/// one, so a fast hash keeps it as safe as a slow one would, and checking it costs no one a turn at hashing.
/// (Files from before kept an argon2 hash, still accepted: see [`check_key`].)
pub fn key_hash(key: &str) -> String {
    use blake2::{Blake2s256, Digest};
    let digest = Blake2s256::new().chain_update(b"mmjudge standby key\0").chain_update(key.as_bytes()).finalize();
    format!("{FAST_KEY}{}", digest.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// The prefix of a standby key kept as [`key_hash`] makes it.
const FAST_KEY: &str = "blake2s:";

/// Whether the standby key is kept in the old, slow form (an argon2 hash): `standby status` says to make a new
/// one.
pub fn old_key_format(hash: &str) -> bool {
    !hash.starts_with(FAST_KEY)
}

/// Whether two strings are equal, in a time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Ends the standby key; false when there was none.
pub fn revoke_key(store: &mut Store) -> Result<bool> {
    refuse_on_standby(store, "revoke a standby key")?;
    let had = store.read(replication::state)?.key_hash.is_some();
    if had {
        store.bookkeep(|tx| replication::set_key(tx, None))?;
    }
    Ok(had)
}

/// What [`check_key_quickly`] found of a right key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyCheck {
    /// The key is right (kept in the fast form, checked).
    Right,
    /// The key is kept in the old, slow form: [`check_key`] checks it, in its turn at hashing.
    Slow,
}

/// Checks a standby's key in one read when it is kept in the fast form (a wrong key refused as [`check_key`]
/// refuses it); a key kept in the old form is left for [`check_key`], which hashes.
pub fn check_key_quickly(store: &Store, key: &str) -> Result<KeyCheck> {
    match store.read(replication::state)?.key_hash {
        Some(h) if old_key_format(&h) => Ok(KeyCheck::Slow),
        hash => against(hash.as_deref(), key).map(|()| KeyCheck::Right),
    }
}

/// Checks a standby's key against the primary's: fast (see [`key_hash`]); a key kept in the old form is checked
/// as a PIN is, slowly, until `standby key` makes a new one.
pub fn check_key(store: &Store, key: &str) -> Result<()> {
    against(store.read(replication::state)?.key_hash.as_deref(), key)
}

/// `key` against the hash the file keeps (None: no key made).
fn against(hash: Option<&str>, key: &str) -> Result<()> {
    match hash {
        Some(h) if !old_key_format(h) && same(&key_hash(key), h) => Ok(()),
        Some(h) if old_key_format(h) && crate::ops::judges::verify_pin(key, h) => Ok(()),
        Some(_) => {
            Err(Error::unauthorized("wrong standby key: the primary's head judge makes a new one (standby key)"))
        }
        None => {
            Err(Error::unauthorized("this event has no standby key: the primary's head judge makes one (standby key)"))
        }
    }
}

fn refuse_on_standby(store: &Store, what: &str) -> Result<()> {
    let s = store.read(replication::state)?;
    if s.role == Role::Standby {
        let of = s.primary_url.unwrap_or_default();
        let promote = crate::error::promote_command(store.path());
        return Err(Error::refused(format!(
            "this file is a standby of {of}: {what} on the primary's file (or promote this one first with `{promote}`)"
        )));
    }
    Ok(())
}

/// How far the two laptops are apart, as this file knows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Status {
    /// Primary or standby.
    pub role: Role,
    /// The event's id.
    pub event: String,
    /// Its generation (raised by each promotion).
    pub generation: i64,
    /// The last change written (a primary) or applied (a standby) here.
    pub seq: i64,
    /// On a standby: the primary it follows (null on a primary, a promoted one too: see `was_standby_of`).
    pub primary: Option<String>,
    /// On a primary: whether a standby key exists.
    pub standby_key: bool,
    /// On a primary: the key is kept in an old, slow form (checked as a PIN is): make a new one (`standby key`).
    /// Left out when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub old_key_format: bool,
    /// On a primary: the last change the standby acknowledged.
    pub acknowledged: Option<i64>,
    /// Changes the standby has not applied (as far as this file knows).
    pub behind_changes: i64,
    /// For how long (milliseconds; 0 when it has them all).
    pub behind_ms: i64,
    /// When the other laptop was last heard.
    pub last_heard: Option<String>,
    /// How long ago that was (milliseconds; null: never heard).
    pub heard_ms: Option<i64>,
    /// The other laptop, once heard, has not been heard from for longer than [`SILENT_AFTER_MS`]: an alarm (a
    /// primary without a standby key, or whose event moved, is never silent).
    pub silent: bool,
    /// Where the event went once another laptop was promoted.
    pub moved_to: Option<String>,
    /// On a primary: the address its standby advertised (where phones may go).
    pub standby_url: Option<String>,
    /// On a promoted primary: the primary it followed before its promotion.
    pub was_standby_of: Option<String>,
    /// On a primary: when a head judge detached the second laptop (writes go on alone until a new key).
    pub detached_at: Option<String>,
}

/// After how long without a word the other laptop counts as not heard from (each speaks every second).
pub const SILENT_AFTER_MS: i64 = 5_000;

/// This file's replication status at `now`.
pub fn status(store: &Store, now: DateTime<Utc>) -> Result<Status> {
    let (s, oldest) = store.read(|conn| Ok((replication::state(conn)?, replication::oldest_unacked(conn)?)))?;
    let since = |at: Option<&str>| -> i64 {
        at.and_then(|a| unstamp(a).ok()).map_or(0, |t| (now - t).num_milliseconds().max(0))
    };
    let primary = s.role == Role::Primary;
    let behind_changes = if primary {
        if s.key_hash.is_some() { s.seq - s.acked_seq } else { 0 }
    } else {
        (s.primary_seq - s.seq).max(0)
    };
    let behind_ms = match (behind_changes, primary) {
        (0, _) => 0,
        (_, true) => since(oldest.as_deref()),
        (_, false) => since(s.heard_at.as_deref()),
    };
    let heard_ms = s.heard_at.as_deref().map(|at| since(Some(at)));
    let listens = !primary || (s.key_hash.is_some() && s.moved_to.is_none());
    Ok(Status {
        role: s.role,
        event: s.event_id,
        generation: s.generation,
        seq: s.seq,
        primary: if primary { None } else { s.primary_url.clone() },
        standby_key: s.key_hash.is_some(),
        old_key_format: primary && s.key_hash.as_deref().is_some_and(old_key_format),
        acknowledged: primary.then_some(s.acked_seq),
        behind_changes,
        behind_ms,
        last_heard: s.heard_at,
        heard_ms,
        silent: listens && heard_ms.is_some_and(|ms| ms > SILENT_AFTER_MS),
        moved_to: s.moved_to,
        standby_url: if primary { s.standby_url } else { None },
        was_standby_of: if primary { s.primary_url } else { None },
        detached_at: if primary { s.detached_at } else { None },
    })
}

/// A promotion done.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Promoted {
    /// The new generation.
    pub generation: i64,
    /// The primary it followed.
    pub was_standby_of: String,
    /// Whether the primary still answered (promoted anyway with `--force`).
    pub primary_answered: bool,
}

/// Promotes the standby's file: refused while its primary still answers `GET /api/time` within 2 s unless
/// `force`; then this file is the primary, one generation on (a running standby server sees it and takes writes).
pub fn promote(store: &mut Store, force: bool) -> Result<Promoted> {
    let s = store.read(replication::state)?;
    if s.role != Role::Standby {
        let refusal = Refusal::refused("this file is the primary already");
        return Err(refusal.way_out(WayOut::PromoteOnStandby).into());
    }
    let was = s.primary_url.clone().unwrap_or_default();
    let answered = match client::Url::parse(&was) {
        Ok(url) => probe(&url)?,
        Err(_) => false,
    };
    if answered && !force {
        let what = format!(
            "the primary at {was} still answers: promoting this laptop now would leave two laptops taking writes, and \
             what is written on the primary after this moment would be lost"
        );
        return Err(Refusal::new(Kind::Refused, what).way_out(WayOut::StopPrimary).into());
    }
    let generation = store.bookkeep(replication::promote)?;
    Ok(Promoted { generation, was_standby_of: was, primary_answered: answered })
}

/// Whether the primary at `url` answers within [`PRIMARY_ANSWERS_WITHIN`].
fn probe(url: &client::Url) -> Result<bool> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io("a network check", e))?;
    Ok(runtime.block_on(client::answers(url, PRIMARY_ANSWERS_WITHIN)))
}

/// `now` as the bookkeeping stamps it.
pub fn stamp_now() -> String {
    stamp(Utc::now())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_standby_key_is_kept_fast_and_an_old_slow_one_still_works_until_a_new_one() -> Result<()> {
        let mut store = crate::store::memory()?;
        let key = new_key(&mut store)?;
        let kept = store.read(replication::state)?.key_hash.unwrap_or_default();
        assert!(kept.starts_with("blake2s:") && !kept.contains(&key), "{kept}");
        assert!(check_key(&store, &key).is_ok());
        let wrong = check_key(&store, &format!("{key}0")).err().map(|e| e.kind());
        assert_eq!(wrong, Some(Kind::Unauthorized));
        assert_eq!(check_key_quickly(&store, &key)?, KeyCheck::Right);
        let wrong = check_key_quickly(&store, &format!("{key}0")).err().map(|e| e.kind());
        assert_eq!(wrong, Some(Kind::Unauthorized), "a wrong key refused in the quick check");
        assert!(!status(&store, Utc::now())?.old_key_format);
        // A file from an older mmjudge kept its key as a PIN's hash: still accepted, and said to be old.
        let old = crate::ops::judges::hash_pin("an old key")?;
        store.bookkeep(|tx| replication::set_key(tx, Some(&old)))?;
        assert_eq!(check_key_quickly(&store, "not it")?, KeyCheck::Slow, "the old form is left to check_key");
        assert!(check_key(&store, "an old key").is_ok());
        assert!(check_key(&store, "not it").is_err());
        assert!(status(&store, Utc::now())?.old_key_format);
        new_key(&mut store)?;
        assert!(!status(&store, Utc::now())?.old_key_format, "a new key is kept fast");
        Ok(())
    }
}
