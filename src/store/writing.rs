//! The ways a store writes: [`Store::write`] (one IMMEDIATE transaction with its audit entry, counted by the
//! replication), [`Store::write_keyed`] (a write sent with a key: the write, its audit entry, its key and the
//! answer kept for a repeat, in that one transaction, one changeset), and the writes the audit does not list:
//! [`Store::lower_half`] (counts a standby must have that are no change of the event) and [`Store::bookkeep`]
//! (this file's own replication bookkeeping).
//!
//! An event change returns what it committed ([`Committed`]: its replication seq, its audit entry and the
//! replication state it committed under), taken by the server's one door ([`Store::take_committed`]) to wait
//! for the standby before the answer; the lower half and the bookkeeping leave nothing to wait for.

use super::{Actor, Change, Store, audit, changeset, file, keys, refuse_unless_primary, replication};
use crate::error::{Error, Result};
use chrono::Utc;
use rusqlite::{Connection, TransactionBehavior};

/// A keyed write in progress: its transaction is open on the store's connection, and the writes made inside it
/// are savepoints of it (see [`Store::write_keyed`]).
pub(super) struct Group {
    /// The replication seq the whole write takes.
    seq: i64,
    /// The generation it is written at.
    generation: i64,
    /// The first audit entry written inside it (the one its key names).
    audit_id: Option<i64>,
    /// Whether anything was written inside it.
    wrote: bool,
}

/// What an event change committed: what the server's door settles with the standby before it answers, and
/// names in the answer (see [`Store::take_committed`]).
#[derive(Debug, Clone)]
pub struct Committed {
    /// The replication seq of the change (all written so far, for [`Store::settle_all`]).
    pub seq: i64,
    /// The audit entry it made (the first of a keyed write; None for [`Store::settle_all`]).
    pub audit_id: Option<i64>,
    /// The file's replication state the change committed under (its seq the change's).
    pub state: replication::State,
}

/// What a keyed write did: its value, whether its key was recorded, whether anything was written, and its
/// changes while a standby key exists (`Some(empty)` when it changed no recorded row).
struct Written<T> {
    value: T,
    used: bool,
    wrote: bool,
    changes: Option<Vec<u8>>,
    audit_id: Option<i64>,
}

/// The savepoint each write inside a keyed write runs in, so that a refused one changes nothing.
const SAVEPOINT: &str = "SAVEPOINT mmjudge_write";
const RELEASE: &str = "RELEASE mmjudge_write";
const UNDO: &str = "ROLLBACK TO mmjudge_write; RELEASE mmjudge_write";

impl Store {
    /// Runs `f` in one IMMEDIATE transaction and appends its audit entry; commits only if everything
    /// succeeded, so a refusal changes nothing.
    ///
    /// Every write counts in the replication (see [`replication`]): while a standby key exists, a session records
    /// the rows it changes in every table but the bookkeeping, and its changeset joins the log in the same
    /// transaction. A standby's file, or a primary whose event moved on, refuses every write. Inside
    /// [`Store::write_keyed`], it is part of that one transaction.
    pub fn write<T>(&mut self, actor: &Actor, f: impl FnOnce(&Connection) -> Result<(T, Change)>) -> Result<T> {
        let key = self.next_key.take();
        let ((done, audit_id), state) = self.recorded(|tx| {
            let (value, change) = f(tx)?;
            let audit_id = audit::append(tx, actor, &change)?;
            if let Some((key, answer)) = &key {
                keys::record(tx, key, audit_id, 200, answer)?;
            }
            Ok((value, audit_id))
        })?;
        match (&mut self.group, state) {
            (Some(group), _) => {
                group.audit_id.get_or_insert(audit_id);
            }
            (None, Some(state)) => {
                self.committed = Some(Committed { seq: state.seq, audit_id: Some(audit_id), state });
            }
            (None, None) => {}
        }
        Ok(done)
    }

    /// Records `key` with the next [`Store::write`] of this store, in its transaction (with its audit entry and
    /// in its changeset), with `answer` kept for a repeat: for a job, whose key is taken when it starts and whose
    /// one write comes later, after its reading and checking (which a keyed write's transaction,
    /// [`Store::write_keyed`], would hold the file's write lock for). A write refused records no key, nor does a job
    /// that writes nothing; the key is forgotten between requests.
    pub fn key_next_write(&mut self, key: keys::WriteKey, answer: String) {
        self.next_key = Some((key, answer));
    }

    /// What the last event change of this store committed, taken once: the server's door waits for the standby
    /// to apply it before it answers (None: no event change since it was last taken; the lower half and the
    /// bookkeeping leave nothing here).
    pub fn take_committed(&mut self) -> Option<Committed> {
        self.committed.take()
    }

    /// A write that changed nothing here but answers as one that did (a repeat of a key, whose first try made
    /// audit entry `audit_id`): the door settles it as everything written so far, which holds the first try's
    /// change.
    pub fn settle_all(&mut self, audit_id: Option<i64>) -> Result<()> {
        let state = replication::state(&self.conn)?;
        self.committed = Some(Committed { seq: state.seq, audit_id, state });
        Ok(())
    }

    /// Runs `f` as one write (see [`Store::write`]): its own transaction, or a savepoint of the keyed write in
    /// progress (then no state: the keyed write commits). Sets [`Store::last_seq`] when it commits, and answers
    /// the replication state it committed under (its seq the write's).
    fn recorded<T>(&mut self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<(T, Option<replication::State>)> {
        if self.group.is_some() {
            let value = self.in_savepoint(f)?;
            if let Some(group) = &mut self.group {
                group.wrote = true;
            }
            return Ok((value, None));
        }
        if !self.writable {
            file::make_writable(&self.conn, &self.path)?;
            self.writable = true;
        }
        let path = self.path.clone();
        let run = || -> Result<(T, replication::State)> {
            let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut state = replication::state(&tx)?;
            refuse_unless_primary(&state, &path)?;
            let keyed = state.key_hash.is_some();
            let recorder = match keyed {
                true => Some(changeset::Recorder::start(&tx, &replication::recorded_tables(&tx)?)?),
                false => None,
            };
            let value = f(&tx)?;
            let changes = match &recorder {
                Some(r) => r.changeset()?,
                None => None,
            };
            drop(recorder);
            let seq = state.seq + 1;
            let kept = keyed.then(|| changes.as_deref().unwrap_or_default());
            replication::append(&tx, seq, state.generation, kept, &crate::time::stamp(Utc::now()))?;
            tx.commit()?;
            state.seq = seq;
            Ok((value, state))
        };
        let (value, state) = run().map_err(|e| file::explain(&path, e))?;
        self.last_seq = Some(state.seq);
        Ok((value, Some(state)))
    }

    /// Runs `f` in a savepoint of the keyed write in progress: released when it succeeds, rolled back when not.
    fn in_savepoint<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        self.conn.execute_batch(SAVEPOINT)?;
        match f(&self.conn) {
            Ok(value) => {
                self.conn.execute_batch(RELEASE)?;
                Ok(value)
            }
            Err(e) => {
                self.conn.execute_batch(UNDO)?;
                Err(e)
            }
        }
    }

    /// Runs `f` (a write sent with `key`: one or more [`Store::write`]s) as one transaction with its key and the
    /// answer kept for a repeat (`keep` words it from what `f` returned): one replication seq, one changeset.
    /// Answers whether the key was recorded (false when `f` wrote nothing). A key used already fails the whole
    /// write, and a refusal from `f` changes nothing.
    pub fn write_keyed<T>(
        &mut self,
        key: &keys::WriteKey,
        f: impl FnOnce(&mut Store) -> Result<T>,
        keep: impl FnOnce(&T) -> String,
    ) -> Result<(T, bool)> {
        if self.group.is_some() {
            return Err(Error::refused("a keyed write cannot run inside another"));
        }
        if !self.writable {
            file::make_writable(&self.conn, &self.path)?;
            self.writable = true;
        }
        let path = self.path.clone();
        self.conn.execute_batch("BEGIN IMMEDIATE").map_err(|e| file::explain(&path, e.into()))?;
        let begun = (|| -> Result<(Group, Option<Vec<String>>, replication::State)> {
            let state = replication::state(&self.conn)?;
            refuse_unless_primary(&state, &path)?;
            let tables = match state.key_hash.is_some() {
                true => Some(replication::recorded_tables(&self.conn)?),
                false => None,
            };
            let group = Group { seq: state.seq + 1, generation: state.generation, audit_id: None, wrote: false };
            Ok((group, tables, state))
        })();
        let (seq, generation, tables, mut state) = match begun {
            Ok((group, tables, state)) => {
                let at = (group.seq, group.generation);
                self.group = Some(group);
                (at.0, at.1, tables, state)
            }
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                return Err(file::explain(&path, e));
            }
        };
        // The write, then its key and kept answer, all recorded as one change.
        let run = |store: &mut Store| -> Result<Written<T>> {
            let value = f(store)?;
            let (audit_id, wrote) = store.group.as_ref().map_or((None, false), |g| (g.audit_id, g.wrote));
            let used = match audit_id {
                Some(id) => {
                    keys::record(&store.conn, key, id, 200, &keep(&value))?;
                    true
                }
                None => false,
            };
            Ok(Written { value, used, wrote: wrote || used, changes: None, audit_id })
        };
        let done = match &tables {
            Some(tables) => changeset::recording(self, tables, run)
                .map(|(written, changes)| Written { changes: Some(changes.unwrap_or_default()), ..written }),
            None => run(self),
        };
        self.group = None;
        let finish = |conn: &Connection, written: &Written<T>| -> Result<()> {
            if !written.wrote {
                return Ok(conn.execute_batch("ROLLBACK")?);
            }
            replication::append(conn, seq, generation, written.changes.as_deref(), &crate::time::stamp(Utc::now()))?;
            Ok(conn.execute_batch("COMMIT")?)
        };
        match done.and_then(|written| finish(&self.conn, &written).map(|()| written)) {
            Ok(written) => {
                if written.wrote {
                    self.last_seq = Some(seq);
                    state.seq = seq;
                    self.committed = Some(Committed { seq, audit_id: written.audit_id, state });
                }
                Ok((written.value, written.used))
            }
            Err(e) => {
                if !self.conn.is_autocommit() {
                    let _ = self.conn.execute_batch("ROLLBACK");
                }
                Err(file::explain(&path, e))
            }
        }
    }

    /// The lower half of the door: one IMMEDIATE transaction (and its changeset) without an audit entry and
    /// without waiting for the standby, for counts a standby must have but that are no change of the event (the
    /// wrong tries at secrets, the devices known): recorded by the replication while a standby key exists, else
    /// kept as this file's bookkeeping (no replication seq spent). Leaves nothing for
    /// [`Store::take_committed`]: a sign-in's answer does not wait for the standby to hold its counts.
    pub fn lower_half<T>(&mut self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        if replication::state(&self.conn)?.key_hash.is_some() {
            self.recorded(f).map(|(value, _)| value)
        } else {
            self.bookkeep(f)
        }
    }

    /// The replication seq of the last write this store committed (None: none yet).
    pub fn last_seq(&self) -> Option<i64> {
        self.last_seq
    }

    /// Whether the connection may serve another request: no transaction open, no keyed write under way. What
    /// the request's writes left (the last seq) is forgotten, and the pages it read are let go (a kept
    /// connection would otherwise hold its page cache, up to 2 MB, between requests; what it saves the next
    /// request is the opening, the check and the schema, not the pages).
    pub fn between_requests(&mut self) -> bool {
        self.last_seq = None;
        self.committed = None;
        self.next_key = None;
        let idle = self.group.is_none() && self.conn.is_autocommit();
        idle && self.conn.execute_batch("PRAGMA shrink_memory").is_ok()
    }

    /// [`Store::bookkeep`] with its audit entry, for a head judge's act on this file's own replication that is
    /// not sent to the standby (the second laptop detached): returned to the door as what it committed (its
    /// audit entry, the state after it), so its answer names its entry and says `"standby"` as any write's.
    pub fn bookkeep_audited<T>(
        &mut self,
        actor: &Actor,
        change: &Change,
        f: impl FnOnce(&Connection) -> Result<T>,
    ) -> Result<T> {
        let (value, audit_id, state) = self.bookkeep(|tx| {
            let value = f(tx)?;
            let audit_id = audit::append(tx, actor, change)?;
            Ok((value, audit_id, replication::state(tx)?))
        })?;
        self.committed = Some(Committed { seq: state.seq, audit_id: Some(audit_id), state });
        Ok(value)
    }

    /// Runs `f` in one IMMEDIATE transaction that neither the audit nor the replication records: for the
    /// replication's own bookkeeping (a standby key, an acknowledgement, a promotion), which stays with this
    /// file. Allowed on a standby. Inside a keyed write, it is a savepoint of it.
    pub fn bookkeep<T>(&mut self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        if self.group.is_some() {
            return self.in_savepoint(f);
        }
        if !self.writable {
            file::make_writable(&self.conn, &self.path)?;
            self.writable = true;
        }
        let path = self.path.clone();
        let run = || -> Result<T> {
            let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        };
        run().map_err(|e| file::explain(&path, e))
    }
}
