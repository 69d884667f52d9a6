//! The one door of what a request writes ([`Db::run`], [`Db::run_settled`]): every change the server makes to
//! the event file passes it, in this order: who asks (the route's extractor authenticated them) → pace → key
//! (the first arrival, `super::write::run`) → one transaction (the change, its audit row, its topics, its
//! changeset and, for a keyed write, its key and kept answer: `Store::write`, `Store::write_keyed`) → what the
//! store committed (`Store::take_committed`: its audit entry, its replication seq, the state it committed
//! under) → settle (the standby applied it, with `--standby-required` or on a file that keeps requiring its
//! standby: `crate::replica::state::Replica::settle`) → publish (the one signal that wakes the standby's feed and
//! the phones' watcher) → the answer. A job (`super::write::job_run`) is a write whose answer comes later: it
//! passes the same door from a task of its own, on the blocking pool with a connection of the kept ones. The lower half (`Store::lower_half`: counts that are no event change) leaves nothing to
//! settle; a judge's login or logout ([`Db::run_session`]) settles without the wait. `tests/cli/layering_door.rs`
//! checks that nothing else writes.

use super::request::ApiError;
use super::state::Db;
use crate::error::Result;
use crate::store::Store;

impl Db {
    /// Runs `f` on the store on a blocking thread, taking a connection the first time: the one door of what a
    /// request writes (see [`Db::run_settled`], whose answer's word it drops).
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> std::result::Result<T, ApiError> {
        self.run_settled(f).await.map(|(value, _)| value)
    }

    /// Runs `f` on the store (see [`Db::run`]); when it committed an event change (`Store::take_committed`: the
    /// change with its audit row, its changeset and, for a keyed write, its key and kept answer, one
    /// transaction), settles it before answering: the standby's stream and the phones' watcher are woken (the one
    /// signal of a write, given here only) and, when the standby is
    /// required, the answer waits until the standby applied the change, or is 503 `"standby": "not applied"`
    /// ([`ApiError::not_applied`]) when it did not in time. Whatever route it serves, nothing a request changed
    /// is answered before the second laptop holds it. The lower half (`Store::lower_half`: counts that are no
    /// event change) and reads leave nothing to settle.
    pub async fn run_settled<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> std::result::Result<(T, Settled), ApiError> {
        self.run_waiting(f, || {}).await
    }

    /// [`Db::run_settled`], telling `waiting` once the change committed and before the standby settles it: a job
    /// (see `super::write::job_run`) then says it is waiting for the second laptop.
    pub async fn run_waiting<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
        waiting: impl FnOnce(),
    ) -> std::result::Result<(T, Settled), ApiError> {
        let (value, committed) = self.commit(f).await?;
        let Some(committed) = committed else {
            return Ok((value?, Settled::default()));
        };
        // A refusal after a change committed (a second write of the same call refused): the change is woken to
        // the standby all the same, and the refusal answered.
        let value = match value {
            Ok(value) => value,
            Err(e) => {
                self.app().replica.wake();
                return Err(e);
            }
        };
        waiting();
        match self.app().replica.settle(&committed).await {
            Ok(word) => Ok((value, Settled { audit_id: committed.audit_id, word })),
            Err(crate::replica::state::NotApplied) => Err(ApiError::not_applied()),
        }
    }

    /// A judge's login or logout through the door without the wait: its session is no change of the event to
    /// keep across a failover (a promotion ends every session: judges log in again there), and a head judge
    /// must be able to log in to detach a second laptop that does not answer. Its change wakes the standby's
    /// stream like any other; only logins and logouts use this (tests/cli/layering_door.rs).
    pub async fn run_session<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> std::result::Result<T, ApiError> {
        let (value, committed) = self.commit(f).await?;
        if committed.is_some() {
            self.app().replica.wake();
        }
        value
    }

    /// Runs `f` and takes what it committed, whether `f` ended well or not.
    async fn commit<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> std::result::Result<(std::result::Result<T, ApiError>, Option<crate::store::Committed>), ApiError> {
        self.blocking(move |store| {
            let value = f(store).map_err(ApiError::from);
            Ok((value, store.take_committed()))
        })
        .await
    }
}

/// What the door settled of a request's write (see [`Db::run_settled`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Settled {
    /// The audit entry the write made (None: it changed nothing).
    pub audit_id: Option<i64>,
    /// The word for its answer's `"standby"` (`"applied"`, `"none"` once detached; None when nothing is
    /// required).
    pub word: Option<&'static str>,
}
