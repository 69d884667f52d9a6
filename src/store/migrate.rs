//! Schema migrations: an append-only list keyed on `PRAGMA user_version`.

use super::APPLICATION_ID;
use crate::error::{Error, Result};
use rusqlite::Connection;
use std::path::Path;

/// Every migration, in order; migration `i` brings `user_version` from `i` to `i + 1`.
/// Never edit or reorder an entry: append a new one.
const MIGRATIONS: &[&str] = &[include_str!("../../schema.sql"), include_str!("migrations/card_text.sql")];

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
    Ok(())
}

/// Applies the migrations the file lacks, all in one transaction.
pub fn upgrade(conn: &mut Connection) -> Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version >= SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.transaction()?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrates_an_empty_database_to_the_latest_version() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        upgrade(&mut conn)?;
        let v: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        assert_eq!(v, SCHEMA_VERSION);
        let app: i32 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
        assert_eq!(app, APPLICATION_ID);
        upgrade(&mut conn)?; // idempotent
        let n: i64 = conn.query_row("SELECT count(*) FROM sqlite_schema WHERE name = 'player'", [], |r| r.get(0))?;
        assert_eq!(n, 1);
        Ok(())
    }

    #[test]
    fn refuses_newer_and_foreign_databases() -> Result<()> {
        let path = Path::new("x.db");
        let mut conn = Connection::open_in_memory()?;
        upgrade(&mut conn)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)?;
        let err = check_identity(&conn, path).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("newer mmjudge"), "{err}");
        let other = Connection::open_in_memory()?;
        other.execute_batch("CREATE TABLE t(x)")?;
        let err = check_identity(&other, path).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("another program"), "{err}");
        Ok(())
    }
}
