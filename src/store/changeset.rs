//! Changesets: the rows one write transaction changed, as a blob that applies to another copy of the same
//! schema (SQLite's session extension). The standby's replication log is made of them.
//!
//! The bundled SQLite is compiled with the session extension by `.cargo/config.toml` (rusqlite's `session`
//! feature would need libclang at build time); its functions are reached through `rusqlite::ffi`, whose bundled
//! bindings declare them. This is the store's only `unsafe` code: a session owned by a [`Recorder`] that
//! borrows the connection it records, so it cannot outlive it, and one apply call.

use crate::error::{Error, Result};
use rusqlite::Connection;
use rusqlite::ffi;
use std::ffi::{CString, c_int, c_void};
use std::marker::PhantomData;

/// A session recording the changes made on one connection to the tables attached to it.
pub struct Recorder<'c> {
    session: *mut ffi::sqlite3_session,
    _conn: PhantomData<&'c Connection>,
}

impl<'c> Recorder<'c> {
    /// Starts recording changes to `tables` of the main database of `conn`. Tables without a declared primary
    /// key are recorded by their rowid.
    pub fn start(conn: &'c Connection, tables: &[String]) -> Result<Recorder<'c>> {
        let mut session = std::ptr::null_mut();
        // SAFETY: `conn.handle()` is the live connection this recorder borrows; SQLite writes the new session
        // into `session`, which `Drop` deletes (before the connection can close, by the borrow).
        let rc = unsafe { ffi::sqlite3session_create(conn.handle(), c"main".as_ptr(), &mut session) };
        check(rc, "start recording the write")?;
        let recorder = Recorder { session, _conn: PhantomData };
        let mut rowid: c_int = 1;
        // SAFETY: a live session; the option reads one int.
        let rc = unsafe {
            ffi::sqlite3session_object_config(
                session,
                ffi::SQLITE_SESSION_OBJCONFIG_ROWID,
                (&mut rowid as *mut c_int).cast::<c_void>(),
            )
        };
        check(rc, "record tables without a primary key")?;
        for table in tables {
            let name = CString::new(table.as_str()).map_err(|_| Error::refused("a table name holds a NUL"))?;
            // SAFETY: a live session and a NUL-terminated name SQLite copies.
            let rc = unsafe { ffi::sqlite3session_attach(session, name.as_ptr()) };
            check(rc, "record a table")?;
        }
        Ok(recorder)
    }

    /// The changes recorded so far, as a changeset (None: nothing changed).
    pub fn changeset(&self) -> Result<Option<Vec<u8>>> {
        // SAFETY: a live session.
        if unsafe { ffi::sqlite3session_isempty(self.session) } != 0 {
            return Ok(None);
        }
        let mut size: c_int = 0;
        let mut data: *mut c_void = std::ptr::null_mut();
        // SAFETY: SQLite allocates the changeset with sqlite3_malloc into `data` (`size` bytes); it is copied
        // out and freed with sqlite3_free right away.
        let rc = unsafe { ffi::sqlite3session_changeset(self.session, &mut size, &mut data) };
        let bytes = if data.is_null() || size <= 0 {
            Vec::new()
        } else {
            // SAFETY: `data` points at `size` bytes SQLite just wrote.
            unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size as usize) }.to_vec()
        };
        // SAFETY: freeing what SQLite allocated (a null pointer is a no-op).
        unsafe { ffi::sqlite3_free(data) };
        check(rc, "read the write's changes")?;
        Ok(if bytes.is_empty() { None } else { Some(bytes) })
    }
}

impl Drop for Recorder<'_> {
    fn drop(&mut self) {
        // SAFETY: the session was created by `start` and is deleted once, here.
        unsafe { ffi::sqlite3session_delete(self.session) };
    }
}

/// Runs `f` on `store` while a session records the changes made on its connection to `tables`, and answers the
/// changes (None: nothing changed) with what `f` returned: for a write that lends its store out while it records
/// (see `Store::write_keyed`). A store whose connection `f` replaced records nothing: its session is left to the
/// old connection (never deleted after it) and the write is refused.
pub(super) fn recording<T>(
    store: &mut super::Store,
    tables: &[String],
    f: impl FnOnce(&mut super::Store) -> Result<T>,
) -> Result<(T, Option<Vec<u8>>)> {
    // SAFETY: only the pointer's value is read, to tell whether `f` replaced the connection.
    let handle = unsafe { store.conn.handle() };
    let bound = Recorder::start(&store.conn, tables)?;
    let session = bound.session;
    std::mem::forget(bound);
    // From here the session is owned by `unbound`, which deletes it once, unless the connection was replaced.
    let unbound = Recorder::<'static> { session, _conn: PhantomData };
    let value = f(store);
    // SAFETY: as above, the pointer's value only.
    if unsafe { store.conn.handle() } != handle {
        std::mem::forget(unbound);
        return Err(Error::refused("the write's connection changed while it was recorded"));
    }
    let value = value?;
    let changes = unbound.changeset()?;
    drop(unbound);
    Ok((value, changes))
}

/// Any conflict means the copy differs from the one the changeset was made on: abort, change nothing.
unsafe extern "C" fn abort_on_conflict(
    _ctx: *mut c_void,
    _kind: c_int,
    _iter: *mut ffi::sqlite3_changeset_iter,
) -> c_int {
    ffi::SQLITE_CHANGESET_ABORT
}

/// Applies `changeset` to `conn` (in the caller's transaction, or its own); a conflict (the copy is not the one
/// the changes were made on) aborts it and changes nothing.
pub fn apply(conn: &Connection, changeset: &[u8]) -> Result<()> {
    let size = c_int::try_from(changeset.len()).map_err(|_| Error::refused("a change of over 2 GB"))?;
    // SAFETY: SQLite only reads the `size` bytes of the changeset during the call (the pointer is declared
    // mutable but not written through); no filter, and a conflict handler that touches nothing.
    let rc = unsafe {
        ffi::sqlite3changeset_apply(
            conn.handle(),
            size,
            changeset.as_ptr().cast_mut().cast::<c_void>(),
            None,
            Some(abort_on_conflict),
            std::ptr::null_mut(),
        )
    };
    if rc == ffi::SQLITE_ABORT {
        return Err(Error::refused("this copy differs from the primary's (a change did not apply): take a full copy"));
    }
    check(rc, "apply a change")
}

fn check(rc: c_int, what: &str) -> Result<()> {
    if rc == ffi::SQLITE_OK {
        return Ok(());
    }
    Err(Error::Sqlite(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), Some(format!("could not {what}")))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> Result<Connection> {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE loose (x TEXT); CREATE TABLE skip (y);",
        )?;
        Ok(conn)
    }

    fn dump(conn: &Connection) -> Result<Vec<String>> {
        let mut stmt = conn.prepare(
            "SELECT 't' || id || v FROM t UNION ALL SELECT 'l' || rowid || x FROM loose
             UNION ALL SELECT 's' || y FROM skip ORDER BY 1",
        )?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    #[test]
    fn a_recorded_write_applies_to_a_copy_and_a_conflict_changes_nothing() -> Result<()> {
        let (primary, copy) = (db()?, db()?);
        let tables = vec!["t".to_string(), "loose".to_string()];
        {
            let recorder = Recorder::start(&primary, &tables)?;
            assert_eq!(recorder.changeset()?, None, "nothing yet");
        }
        let recorder = Recorder::start(&primary, &tables)?;
        primary.execute_batch(
            "INSERT INTO t VALUES (1, 'a'), (2, 'b'); UPDATE t SET v = 'c' WHERE id = 2;
             INSERT INTO loose VALUES ('x'); INSERT INTO skip VALUES ('kept here');",
        )?;
        let changes = recorder.changeset()?.ok_or_else(|| Error::refused("no changeset"))?;
        drop(recorder);
        apply(&copy, &changes)?;
        assert_eq!(dump(&copy)?, ["l1x", "t1a", "t2c"], "the unattached table is left out");
        // Applied again, the rows are there already: a conflict, and nothing changes.
        assert!(apply(&copy, &changes).is_err());
        assert_eq!(dump(&copy)?, ["l1x", "t1a", "t2c"]);
        Ok(())
    }
}
