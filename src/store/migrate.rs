//! Schema migrations: an append-only list keyed on `PRAGMA user_version`.

use super::APPLICATION_ID;
use crate::error::{Error, Result};
use rusqlite::{Connection, Transaction};
use std::path::Path;

/// Every migration, in order; migration `i` brings `user_version` from `i` to `i + 1`.
/// Never edit or reorder an entry: append a new one.
const MIGRATIONS: &[&str] = &[
    include_str!("../../schema.sql"),
    include_str!("migrations/voids.sql"),
    include_str!("migrations/player_names.sql"),
    include_str!("migrations/note_ids_never_reused.sql"),
    include_str!("migrations/one_decision_per_table.sql"),
    include_str!("migrations/card_text.sql"),
    include_str!("migrations/card_key_by_card.sql"),
    include_str!("migrations/judges.sql"),
    include_str!("migrations/player_codes.sql"),
    include_str!("migrations/self_reports.sql"),
    include_str!("migrations/turn_at_time.sql"),
    include_str!("migrations/match_result_check.sql"),
    include_str!("migrations/no_show_drop.sql"),
    include_str!("migrations/audit_topics.sql"),
    include_str!("migrations/check_in.sql"),
    include_str!("migrations/write_keys.sql"),
    include_str!("migrations/replication.sql"),
    include_str!("migrations/standby_sync.sql"),
    include_str!("migrations/guesses.sql"),
    include_str!("migrations/claimed_moments.sql"),
    include_str!("migrations/login_links.sql"),
    include_str!("migrations/table_sign_ins.sql"),
    include_str!("migrations/stationary_players.sql"),
    include_str!("migrations/replayed_starts.sql"),
    include_str!("migrations/cancelled_decisions.sql"),
    include_str!("migrations/card_index_held.sql"),
];

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
    super::player::fill_name_keys(tx)?;
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
    fn an_event_written_before_voids_gets_the_void_table() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        conn.execute_batch(MIGRATIONS[0])?;
        conn.pragma_update(None, "user_version", 1)?;
        conn.pragma_update(None, "application_id", APPLICATION_ID)?;
        upgrade(&mut conn, Path::new("x.db"))?;
        let v: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        assert_eq!(v, SCHEMA_VERSION);
        let n: i64 = conn.query_row("SELECT count(*) FROM sqlite_schema WHERE name = 'void'", [], |r| r.get(0))?;
        assert_eq!(n, 1);
        Ok(())
    }

    #[test]
    fn an_older_file_keeps_its_note_ids_and_one_running_decision_per_table() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        conn.execute_batch(MIGRATIONS[0])?;
        conn.pragma_update(None, "user_version", 1)?;
        conn.execute_batch(
            "INSERT INTO player (id, name, name_key) VALUES (1, 'Ana', 'ana'), (2, 'Bo', 'bo');
             INSERT INTO round (number, movement, paired_at) VALUES (1, 'test', '2025-05-01T09:00:00Z');
             INSERT INTO match (id, round, table_no, a_player, b_player) VALUES (1, 1, 1, 1, 2);
             INSERT INTO template_note (id, match_id, player_id, cost, at) VALUES
                 (1, 1, 1, '{R}', '2025-05-01T10:00:00Z'), (2, 1, 2, '{R}', '2025-05-01T10:01:00Z');
             INSERT INTO decision (match_id, player_id, started_at) VALUES
                 (1, 1, '2025-05-01T10:02:00Z'), (1, 2, '2025-05-01T10:03:00Z');",
        )?;
        upgrade(&mut conn, Path::new("x.db"))?;
        let running: i64 = conn.query_row("SELECT count(*) FROM decision WHERE ended_at IS NULL", [], |r| r.get(0))?;
        assert_eq!(running, 1, "the newest running decision stays running");
        conn.execute("DELETE FROM template_note WHERE id = 2", [])?;
        let n = crate::store::notes::NewNote {
            match_id: crate::store::MatchId(1),
            player: crate::store::PlayerId(2),
            cost: "{R}",
            card: None,
            at: "2025-05-01T10:04:00Z",
        };
        assert_eq!(crate::store::notes::insert(&conn, &n)?.0, 3, "note #2 was removed, its id is not given again");
        Ok(())
    }

    #[test]
    fn the_result_check_is_comparisons_and_still_refuses_other_results() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        for (i, sql) in MIGRATIONS.iter().enumerate().take(MIGRATIONS.len() - 1) {
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", i as i64 + 1)?;
        }
        let version = |c: &Connection| c.query_row("PRAGMA schema_version", [], |r| r.get::<_, i64>(0));
        let before = version(&conn)?;
        upgrade(&mut conn, Path::new(":memory:"))?;
        assert!(version(&conn)? > before, "other connections see a new schema version and read it again");
        let sql: String = conn.query_row("SELECT sql FROM sqlite_schema WHERE name = 'match'", [], |r| r.get(0))?;
        assert!(sql.contains("CHECK (result = 'A' OR result = 'B' OR result = 'draw')") && !sql.contains("IN ('A'"));
        conn.execute_batch(
            "INSERT INTO player (id, name, name_key) VALUES (1, 'Ana', 'ana'), (2, 'Bo', 'bo');
             INSERT INTO round (number, movement, paired_at) VALUES (1, 'test', '2025-05-01T09:00:00Z');
             INSERT INTO match (id, round, table_no, a_player, b_player) VALUES (1, 1, 1, 1, 2);",
        )?;
        for ok in ["A", "B", "draw"] {
            conn.execute("UPDATE match SET result = ?1 WHERE id = 1", [ok])?;
        }
        conn.execute("UPDATE match SET result = NULL WHERE id = 1", [])?;
        assert!(conn.execute("UPDATE match SET result = 'C' WHERE id = 1", []).is_err(), "the check still holds");
        let fine: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
        assert_eq!(fine, "ok");
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
    fn player_names_migration_fills_folds_and_recomputes_keys_keeping_old_collisions() -> Result<()> {
        let at = MIGRATIONS.iter().position(|m| *m == include_str!("migrations/player_names.sql"));
        let at = at.ok_or_else(|| Error::refused("the player names migration is missing"))?;
        let mut conn = Connection::open_in_memory()?;
        for (i, sql) in MIGRATIONS.iter().enumerate().take(at) {
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", i as i64 + 1)?;
        }
        // An event from before: two players whose names now have one key, both accepted then.
        conn.execute_batch(
            "INSERT INTO player (name, name_key) VALUES ('Renée Côté', 'renée côté'), ('Renee Cote', 'renee cote'),
                                                        ('Bo Nilsson', 'bo nilsson');",
        )?;
        upgrade(&mut conn, Path::new("x.db"))?;
        let rows: Vec<(String, String, String)> = {
            let mut stmt = conn.prepare("SELECT name, name_key, name_fold FROM player ORDER BY id")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        let row = |n: &str, k: &str, f: &str| (n.to_string(), k.to_string(), f.to_string());
        assert_eq!(
            rows,
            [
                // Its new key is the other's old one: it keeps its own.
                row("Renée Côté", "renée côté", "renee cote"),
                row("Renee Cote", "renee cote", "renee cote"),
                row("Bo Nilsson", "bo nilsson", "bo nilsson"),
            ]
        );
        let skeletons: i64 =
            conn.query_row("SELECT count(*) FROM player WHERE name_skeleton IS NOT NULL", [], |r| r.get(0))?;
        assert_eq!(skeletons, 3);
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
