//! Schema migrations: an append-only list keyed on `PRAGMA user_version`.

use super::APPLICATION_ID;
use crate::error::{Error, Result};
use rusqlite::{Connection, Transaction};
use std::path::Path;

/// Every migration, in order; migration `i` brings `user_version` from `i` to `i + 1`.
/// Never edit or reorder an entry: append a new one.
const MIGRATIONS: &[&str] = &[include_str!("../../schema.sql")];

/// The schema version this mmjudge writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Refuses a file that is not an mmjudge event, or one from a newer mmjudge, without writing to it.
pub fn check_identity(conn: &Connection, path: &Path) -> Result<()> {
    let not_event = |why: String| Error::NotAnEvent { path: path.into(), why };
    let app_id: i32 = conn.query_row("PRAGMA application_id", [], |r| r.get(0)).map_err(|e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
            not_event("is not an SQLite database, so not an mmjudge event: check the --db path".into())
        }
        other => Error::Sqlite(other),
    })?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
    if app_id != APPLICATION_ID {
        if app_id == 0 && version == 0 && tables == 0 {
            return Err(not_event("is an empty file, not an event: create one with `mmjudge event new NAME`".into()));
        }
        return Err(not_event(
            "is an SQLite database of another program, not an mmjudge event: check the --db path".into(),
        ));
    }
    if version > SCHEMA_VERSION {
        return Err(not_event(format!(
            "was written by a newer mmjudge (schema {version}; this one knows up to {SCHEMA_VERSION}): upgrade mmjudge to use it"
        )));
    }
    if version == SCHEMA_VERSION {
        let core: i64 = conn.query_row(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('setting', 'audit', 'player', 'round', 'match')",
            [],
            |r| r.get(0),
        )?;
        if core != 5 {
            return Err(damaged(path, "some of its tables are missing"));
        }
    }
    Ok(())
}

/// The one-line error for a file with mmjudge's mark whose tables are broken or another program's.
fn damaged(path: &Path, what: &str) -> Error {
    Error::NotAnEvent {
        path: path.into(),
        why: format!(
            "has mmjudge's mark but {what}, so it cannot be used as an event: restore a backup (mmjudge backup makes one)"
        ),
    }
}

/// Applies the migrations the file lacks, all in one transaction.
pub fn upgrade(conn: &mut Connection, path: &Path) -> Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version >= SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.transaction()?;
    apply(&tx, version).map_err(|e| match e {
        Error::Sqlite(rusqlite::Error::SqlInputError { .. } | rusqlite::Error::SqliteFailure(..)) => {
            damaged(path, &format!("its tables are not the ones mmjudge expects ({})", one_line(&e)))
        }
        other => other,
    })?;
    tx.commit()?;
    Ok(())
}

/// Creates the whole schema inside `tx` (a new, empty event).
pub fn install(tx: &Transaction) -> Result<()> {
    apply(tx, 0)
}

fn apply(tx: &Transaction, from: i64) -> Result<()> {
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(from.max(0) as usize) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    Ok(())
}

fn one_line(e: &Error) -> String {
    let text = e.to_string();
    text.trim_start_matches("database error: ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrates_an_empty_database_to_the_latest_version() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        upgrade(&mut conn, Path::new(":memory:"))?;
        let v: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        assert_eq!(v, SCHEMA_VERSION);
        let app: i32 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
        assert_eq!(app, APPLICATION_ID);
        upgrade(&mut conn, Path::new(":memory:"))?; // idempotent
        let n: i64 = conn.query_row("SELECT count(*) FROM sqlite_schema WHERE name = 'player'", [], |r| r.get(0))?;
        assert_eq!(n, 1);
        Ok(())
    }

    #[test]
    fn refuses_newer_and_foreign_databases() -> Result<()> {
        let path = Path::new("x.db");
        let mut conn = Connection::open_in_memory()?;
        upgrade(&mut conn, path)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)?;
        let err = check_identity(&conn, path).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("newer mmjudge"), "{err}");
        let other = Connection::open_in_memory()?;
        other.execute_batch("CREATE TABLE t(x)")?;
        let err = check_identity(&other, path).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("another program"), "{err}");
        Ok(())
    }

    #[test]
    fn a_marked_file_with_foreign_tables_gets_one_line() -> Result<()> {
        let path = Path::new("x.db");
        let mut conn = Connection::open_in_memory()?;
        conn.execute_batch("CREATE TABLE player (x); CREATE TABLE other (y);")?;
        conn.pragma_update(None, "application_id", APPLICATION_ID)?;
        check_identity(&conn, path)?;
        let err = upgrade(&mut conn, path).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("mmjudge's mark") && err.contains("restore a backup"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("CREATE TABLE"), "{err}");
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        let err = check_identity(&conn, path).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("tables are missing"), "{err}");
        Ok(())
    }
}
