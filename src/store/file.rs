//! The event file on disk: opening it read-only to read and read-write to write, building a new event under a
//! temporary name, keeping a replaced one, copying it (`backup`), and saying plainly why a file cannot be
//! written (read-only, disk full).

use super::{APPLICATION_ID, migrate};
use crate::error::{Error, Result};
use crate::output::TempFile;
use rusqlite::{Connection, ErrorCode, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

const BUSY: Duration = Duration::from_secs(10);

/// Opens `path` to read: the connection refuses every change (`query_only`) until [`make_writable`].
/// SQLite opens a write-protected file (or one on a read-only disk) read-only by itself. In a folder that
/// cannot be written, SQLite cannot make the shared-memory index a write-ahead-log file needs; the file is
/// then opened read-only as immutable (nobody can be writing to it there).
///
/// The connection is not opened read-only where it could write so that, being the last to close, it
/// folds the write-ahead log into the file as SQLite does: the `.db` file alone then holds the event. It
/// never changes the journal mode, so reading a backup leaves every byte of it as it was.
pub fn open_read(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        literal(path),
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    settle_planner(&conn)?;
    conn.busy_timeout(BUSY)?;
    conn.pragma_update(None, "query_only", true)?;
    match conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get::<_, i64>(0)) {
        Err(rusqlite::Error::SqliteFailure(f, _))
            if matches!(f.code, ErrorCode::CannotOpen | ErrorCode::ReadOnly) && !folder_writable(path) =>
        {
            drop(conn);
            let mut log = path.as_os_str().to_owned();
            log.push("-wal");
            if std::fs::metadata(PathBuf::from(log)).is_ok_and(|m| m.len() > 0) {
                // Immutable would not see what the log holds: say so rather than show an older event.
                return Err(Error::NotAnEvent {
                    path: path.into(),
                    why: "is in a folder that cannot be written, beside its unsaved log (-wal file): copy the \
                          event with its -wal and -shm files somewhere writable to read it"
                        .into(),
                });
            }
            let conn = Connection::open_with_flags(
                immutable_uri(path)?,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI,
            )?;
            Ok(conn)
        }
        _ => Ok(conn),
    }
}

/// Opens `path` to write: refuses plainly when the file, its folder or its disk is read-only.
pub fn open_write(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        literal(path),
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    settle_planner(&conn)?;
    conn.busy_timeout(BUSY)?;
    make_writable(&conn, path)?;
    Ok(conn)
}

/// A statement is planned once, when prepared, whatever it is later bound to (SQLite's query planner stability
/// guarantee). Without it SQLite prepares some cached statements again at every new binding (a card's faces and
/// rulings, read once per card by an import: a fifth of a second import's time).
fn settle_planner(conn: &Connection) -> Result<()> {
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    Ok(())
}

/// Lets a connection from [`open_read`] write (and sets the writers' pragmas), or refuses plainly when the
/// file, its folder or its disk is read-only.
pub fn make_writable(conn: &Connection, path: &Path) -> Result<()> {
    let attempt = || -> Result<()> {
        if conn.is_readonly("main")? {
            return Err(read_only(path));
        }
        conn.pragma_update(None, "query_only", false)?;
        super::configure(conn)
    };
    attempt().map_err(|e| explain(path, e))
}

/// `path` as SQLite must be given it to open that very file: SQLite reads a name starting with `file:` as a
/// URI (`file:x.db?mode=memory` would be no file at all), and `:memory:` as a database in memory, so such a
/// relative name gets a leading `./`.
pub fn literal(path: &Path) -> PathBuf {
    if path.to_str().is_some_and(|p| p.starts_with("file:") || p == ":memory:") {
        Path::new(".").join(path)
    } else {
        path.into()
    }
}

/// `file:` URI of `path` with `immutable=1`.
fn immutable_uri(path: &Path) -> Result<String> {
    let abs = std::path::absolute(path).map_err(|e| Error::io(path, e))?;
    let text = abs.to_str().ok_or_else(|| Error::bad_input(format!("{} is not a UTF-8 path", path.display())))?;
    let uri = String::from("file:") + &text.replace('%', "%25").replace('?', "%3F").replace('#', "%23");
    Ok(uri + "?immutable=1")
}

/// Whether a file can be created beside `path` (tries, and removes it).
fn folder_writable(path: &Path) -> bool {
    TempFile::beside(path).is_ok()
}

/// The error for a write to an event that cannot be written.
pub fn read_only(path: &Path) -> Error {
    Error::NotAnEvent {
        path: path.into(),
        why: "is read-only (the file, its folder or its disk cannot be written): mmjudge can show this event but \
              not change it; make it writable, or copy it somewhere writable (mmjudge backup COPY.db)"
            .into(),
    }
}

/// Turns SQLite's words for a read-only file or a full disk into plain ones naming `path`.
pub fn explain(path: &Path, e: Error) -> Error {
    let Error::Sqlite(rusqlite::Error::SqliteFailure(f, _)) = &e else { return e };
    match f.code {
        ErrorCode::ReadOnly => read_only(path),
        ErrorCode::CannotOpen if path.exists() && !folder_writable(path) => read_only(path),
        ErrorCode::DiskFull => disk_full(path),
        ErrorCode::SystemIoFailure if disk_looks_full(path) => disk_full(path),
        _ => e,
    }
}

fn disk_full(path: &Path) -> Error {
    Error::io(path, std::io::Error::from(std::io::ErrorKind::StorageFull))
}

/// Whether the disk of `path` has no room left: tries to write 64 KiB beside it.
fn disk_looks_full(path: &Path) -> bool {
    use std::io::Write;
    let Ok(mut probe) = TempFile::beside(path) else { return false };
    let Some(file) = probe.file_mut() else { return false };
    let chunk = [0u8; 64 * 1024];
    let full = match file.write_all(&chunk).and_then(|()| file.sync_data()) {
        Err(e) => e.kind() == std::io::ErrorKind::StorageFull || e.raw_os_error() == Some(28),
        Ok(()) => false,
    };
    drop(probe);
    full
}

/// What is at the path `event new` is asked to use.
#[derive(Debug)]
pub enum Found {
    /// Nothing yet.
    Nothing,
    /// An empty file, a blank SQLite database or an event whose creation never finished: replaced quietly.
    Unfinished,
    /// A real event, with its name.
    Event(String),
    /// Something that is not an mmjudge event (the error says what).
    NotEvent(Error),
}

/// Looks at `path` for `event new` without changing it.
pub fn inspect(path: &Path) -> Result<Found> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(e) => return Err(Error::io(path, e)),
    };
    if meta.is_dir() {
        return Ok(Found::NotEvent(Error::NotAnEvent {
            path: path.into(),
            why: "is a directory: give a file path, e.g. --db spring.db".into(),
        }));
    }
    if let Err(e) = super::check_path(path) {
        return Ok(Found::NotEvent(e)); // a dangling link
    }
    if meta.is_file() && meta.len() == 0 {
        return Ok(Found::Unfinished);
    }
    let conn = match open_read(path) {
        Ok(c) => c,
        Err(e) => return Ok(Found::NotEvent(explain(path, e))),
    };
    let app_id: i32 = conn.query_row("PRAGMA application_id", [], |r| r.get(0)).unwrap_or(-1);
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap_or(-1);
    let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0)).unwrap_or(-1);
    if app_id == 0 && version == 0 && tables == 0 {
        return Ok(Found::Unfinished);
    }
    if let Err(e) = migrate::check_identity(&conn, path) {
        return Ok(Found::NotEvent(explain(path, e)));
    }
    if app_id == APPLICATION_ID {
        // Unfinished: no audit entry and nothing entered (an event whose log was emptied still holds its data).
        let entered = "SELECT (SELECT count(*) FROM audit) + (SELECT count(*) FROM player) + (SELECT count(*) FROM card) \
                       + (SELECT count(*) FROM pool_card) + (SELECT count(*) FROM library) + (SELECT count(*) FROM round)";
        match conn.query_row(entered, [], |r| r.get::<_, i64>(0)) {
            Ok(0) => return Ok(Found::Unfinished),
            Ok(_) => {}
            Err(_) => {
                return Ok(Found::NotEvent(Error::NotAnEvent {
                    path: path.into(),
                    why: "has mmjudge's mark but its tables are damaged: restore a backup, or choose another file name"
                        .into(),
                }));
            }
        }
    }
    let name: String = conn
        .query_row("SELECT value FROM setting WHERE key = 'name'", [], |r| r.get(0))
        .unwrap_or_else(|_| "(no name)".into());
    Ok(Found::Event(name))
}

/// What to do with the file already at the path of a new event.
#[derive(Debug, Clone)]
pub enum Replace {
    /// Nothing is there, or only what [`Found::Unfinished`] describes: it goes.
    Discard,
    /// A real event: it is kept under this name once the new one is complete.
    Keep(PathBuf),
}

/// A free name beside `path` for keeping a replaced event: `spring-replaced-20260613-0900.db`.
pub fn kept_name(path: &Path, at: chrono::DateTime<chrono::Utc>) -> PathBuf {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "event".into());
    let ext = path.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    let when = at.format("%Y%m%d-%H%M%S");
    let mut n = 1;
    loop {
        let extra = if n == 1 { String::new() } else { format!("-{n}") };
        let candidate = path.with_file_name(format!("{stem}-replaced-{when}{extra}{ext}"));
        if std::fs::symlink_metadata(&candidate).is_err() {
            return candidate;
        }
        n += 1;
    }
}

/// Builds a new event file: `fill` writes the schema's contents in one transaction into a temporary file
/// beside `path`, which is closed and only then renamed over `path`. A real event already there is first
/// made self-contained (its log folded in) and kept under the name of [`Replace::Keep`].
pub fn build(path: &Path, replace: &Replace, fill: impl FnOnce(&rusqlite::Transaction) -> Result<()>) -> Result<()> {
    let mut temp = TempFile::beside(path)?;
    temp.release();
    // Explained while the temporary file still takes its room: once it is gone, a full disk no longer
    // looks full and SQLite's "disk I/O error" would be all the user sees.
    if let Err(e) = fill_temp(&temp, fill) {
        let e = explain(path, e);
        // SQLite leaves its log and index beside a file it could not finish (a full disk): they go too.
        remove_companions(temp.path());
        return Err(e);
    }
    match replace {
        Replace::Discard => {
            remove_companions(path);
            temp.persist(path)
        }
        Replace::Keep(kept) => {
            settle(path).map_err(|e| explain(path, e))?;
            if std::fs::hard_link(path, kept).is_err() {
                std::fs::rename(path, kept).map_err(|e| Error::io(kept, e))?;
            }
            temp.persist(path)
        }
    }
}

/// Writes a new event into the temporary file in one transaction, and closes it.
fn fill_temp(temp: &TempFile, fill: impl FnOnce(&rusqlite::Transaction) -> Result<()>) -> Result<()> {
    let mut conn = Connection::open_with_flags(
        temp.path(),
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // Write-ahead-log mode from the start, as every writer sets it: readers never block the first write.
    super::configure(&conn)?;
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    migrate::install(&tx)?;
    fill(&tx)?;
    tx.commit()?;
    // Closing folds the log into the file but says nothing when it cannot (a full disk): fold it here and
    // check, or the file would be renamed into place without what its log holds (a malformed event).
    let (busy, log, folded): (i64, i64, i64) =
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    if busy != 0 || folded < log {
        return Err(Error::refused(format!(
            "{}: could not finish writing the new event (its log was not folded in): run the command again",
            temp.path().display()
        )));
    }
    conn.close().map_err(|(_, e)| Error::Sqlite(e))?;
    let mut wal = temp.path().as_os_str().to_owned();
    wal.push("-wal");
    if std::fs::metadata(PathBuf::from(wal)).is_ok_and(|m| m.len() > 0) {
        return Err(Error::refused(format!(
            "{}: could not finish writing the new event (its log was not folded in): run the command again",
            temp.path().display()
        )));
    }
    Ok(())
}

/// Folds an event's write-ahead log into its file and leaves it in rollback-journal mode, so that the file
/// alone holds it; refuses while another mmjudge has it open.
fn settle(path: &Path) -> Result<()> {
    let conn = open_write(path)?;
    conn.busy_timeout(Duration::from_millis(500))?;
    let mode: String = match conn.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0)) {
        Ok(mode) => mode,
        Err(rusqlite::Error::SqliteFailure(f, _))
            if matches!(f.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) =>
        {
            String::new()
        }
        Err(e) => return Err(e.into()), // a full disk, said plainly by the caller
    };
    if !mode.eq_ignore_ascii_case("delete") {
        return Err(Error::refused(format!(
            "{} is open in another mmjudge (a clock screen, or another judge's command): close it, then run event new again",
            path.display()
        )));
    }
    conn.close().map_err(|(_, e)| Error::Sqlite(e))?;
    Ok(())
}

/// Removes the log, index and journal files SQLite may have left beside a file being replaced.
fn remove_companions(path: &Path) {
    for suffix in ["-wal", "-shm", "-journal"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}

/// Writes a consistent copy of the event open on `conn` to `dest` (`VACUUM INTO` a temporary file beside it,
/// then a rename): a failed copy leaves nothing. The copy is in rollback-journal mode, so it opens read-only
/// anywhere and reading it never changes a byte.
pub fn backup(conn: &Connection, dest: &Path) -> Result<()> {
    let mut temp = TempFile::beside(dest)?;
    temp.release();
    let abs = std::path::absolute(temp.path()).map_err(|e| Error::io(dest, e))?;
    let text = abs.to_str().ok_or_else(|| Error::bad_input(format!("{} is not a UTF-8 path", dest.display())))?;
    // VACUUM INTO only reads the event, but `query_only` forbids it: lift it for this statement.
    let query_only: bool = conn.query_row("PRAGMA query_only", [], |r| r.get(0))?;
    conn.pragma_update(None, "query_only", false)?;
    let copied = conn.execute("VACUUM INTO ?1", [text]);
    conn.pragma_update(None, "query_only", query_only)?;
    copied.map_err(|e| explain(dest, e.into()))?;
    let copy = Connection::open_with_flags(temp.path(), OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    let mode: String = copy.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))?;
    copy.close().map_err(|(_, e)| Error::Sqlite(e))?;
    if !mode.eq_ignore_ascii_case("delete") {
        return Err(Error::refused(format!("{}: could not finish the copy (journal mode {mode})", dest.display())));
    }
    temp.persist(dest)
}

/// Writes a page-for-page copy of the event open on `conn` to `dest` (SQLite's online backup, in one step: one
/// moment of the event, rows keeping their rowids), through a temporary file: a failed copy leaves nothing.
pub fn snapshot(conn: &Connection, dest: &Path) -> Result<()> {
    let mut temp = TempFile::beside(dest)?;
    temp.release();
    {
        let mut copy = Connection::open(temp.path())?;
        let backup = rusqlite::backup::Backup::new(conn, &mut copy)?;
        let step = backup.step(-1).map_err(|e| explain(dest, e.into()))?;
        drop(backup);
        done(step, dest)?;
        let mode: String = copy.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("delete") {
            return Err(Error::refused(format!("{}: could not finish the copy (journal mode {mode})", dest.display())));
        }
    }
    temp.persist(dest)
}

/// Replaces the whole content of the event open on `conn` with the event in `src` (SQLite's online backup, in one
/// step and one transaction: readers see the old event or the new one).
pub fn replace_with(conn: &mut Connection, src: &Path) -> Result<()> {
    let from = Connection::open_with_flags(src, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let backup = rusqlite::backup::Backup::new(&from, conn)?;
    let step = backup.step(-1)?;
    done(step, src)
}

fn done(step: rusqlite::backup::StepResult, path: &Path) -> Result<()> {
    match step {
        rusqlite::backup::StepResult::Done => Ok(()),
        _ => {
            Err(Error::refused(format!("{}: the copy could not finish (the file was busy): try again", path.display())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn immutable_uris_escape_what_a_uri_would_read() -> Result<()> {
        let uri = immutable_uri(Path::new("/tmp/a?b#c%d.db"))?;
        assert_eq!(uri, "file:/tmp/a%3Fb%23c%25d.db?immutable=1");
        Ok(())
    }

    /// The files in `dir`, leaving out SQLite's log and index files of an open event.
    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned())).collect())
            .unwrap_or_default();
        names.retain(|n| !n.ends_with("-wal") && !n.ends_with("-shm"));
        names.sort();
        names
    }

    fn actor() -> super::super::Actor {
        super::super::Actor {
            judge: "Kim".into(),
            command_line: "mmjudge event new".into(),
            at: chrono::Utc::now(),
            via: "cli".into(),
            claim: None,
        }
    }

    /// A complete event at `path` named `name`.
    fn event_at(path: &Path, name: &str, replace: &Replace) -> Result<()> {
        let store = super::super::Store::create(path, &actor(), replace, |tx| {
            super::super::event::set(tx, "name", name)?;
            Ok(super::super::Change::new("created"))
        })?;
        drop(store);
        Ok(())
    }

    #[test]
    fn event_new_failing_part_way_leaves_nothing_and_keeps_the_old_event() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let path = dir.path().join("spring.db");
        // Nothing there: a failure leaves no file at all.
        let failed = build(&path, &Replace::Discard, |tx| {
            tx.execute("INSERT INTO setting (key, value) VALUES ('name', 'Half')", [])?;
            Err(Error::refused("the process dies here"))
        });
        assert!(failed.is_err());
        assert_eq!(names_in(dir.path()), Vec::<String>::new());
        // A real event there: a failure leaves it exactly as it was, and keeps no copy.
        event_at(&path, "Spring", &Replace::Discard)?;
        let before = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let kept = dir.path().join("spring-replaced.db");
        assert!(build(&path, &Replace::Keep(kept.clone()), |_| Err(Error::refused("boom"))).is_err());
        assert_eq!(std::fs::read(&path).map_err(|e| Error::io(&path, e))?, before);
        assert!(!kept.exists());
        assert_eq!(names_in(dir.path()), vec!["spring.db".to_string()]);
        // And once it succeeds, the old event is kept whole beside the new one.
        event_at(&path, "Summer", &Replace::Keep(kept.clone()))?;
        let name = |p: &Path| -> Result<String> {
            let conn = open_read(p)?;
            Ok(conn.query_row("SELECT value FROM setting WHERE key = 'name'", [], |r| r.get(0))?)
        };
        assert_eq!(name(&path)?, "Summer");
        assert_eq!(name(&kept)?, "Spring");
        assert!(matches!(inspect(&kept)?, Found::Event(n) if n == "Spring"));
        // While another mmjudge has the event open, it is neither replaced nor kept.
        let other = super::super::Store::open(&path)?;
        let snapshot = other.snapshot()?;
        let again = dir.path().join("summer-replaced.db");
        let msg = event_at(&path, "Autumn", &Replace::Keep(again.clone())).err().map(|e| e.to_string());
        assert!(msg.as_deref().is_some_and(|m| m.contains("open in another mmjudge")), "{msg:?}");
        drop(snapshot);
        assert!(!again.exists());
        assert_eq!(name(&path)?, "Summer");
        Ok(())
    }

    #[test]
    fn a_failed_backup_leaves_nothing() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let path = dir.path().join("spring.db");
        event_at(&path, "Spring", &Replace::Discard)?;
        let conn = open_read(&path)?;
        let dest = dir.path().join("copy.db");
        conn.execute_batch("BEGIN")?; // VACUUM INTO cannot run inside a transaction: it fails
        assert!(backup(&conn, &dest).is_err());
        conn.execute_batch("ROLLBACK")?;
        assert_eq!(names_in(dir.path()), vec!["spring.db".to_string()]);
        backup(&conn, &dest)?;
        assert_eq!(names_in(dir.path()), vec!["copy.db".to_string(), "spring.db".to_string()]);
        Ok(())
    }

    #[test]
    fn a_snapshot_sees_one_moment_while_another_connection_writes() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let path = dir.path().join("spring.db");
        event_at(&path, "Spring", &Replace::Discard)?;
        let reader = super::super::Store::open(&path)?;
        let mut writer = super::super::Store::open(&path)?;
        let players =
            |c: &Connection| -> Result<i64> { Ok(c.query_row("SELECT count(*) FROM player", [], |r| r.get(0))?) };
        let snapshot = reader.snapshot()?;
        assert_eq!(players(&snapshot)?, 0);
        writer.write(&actor(), |tx| {
            tx.execute("INSERT INTO player (name, name_key) VALUES ('Ana', 'ana')", [])?;
            Ok(((), super::super::Change::new("added Ana")))
        })?;
        assert_eq!(players(&snapshot)?, 0, "the snapshot does not see the write");
        drop(snapshot);
        assert_eq!(players(reader.conn())?, 1);
        assert_eq!(reader.read(|c| players(c))?, 1);
        Ok(())
    }

    #[test]
    fn a_full_disk_and_a_read_only_event_are_said_plainly_with_the_path() {
        let path = Path::new("/mnt/stick/spring.db");
        let sqlite = |code: i32| Error::Sqlite(rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None));
        let full = explain(path, sqlite(rusqlite::ffi::SQLITE_FULL)).to_string();
        assert_eq!(full, "/mnt/stick/spring.db: the disk is full: free some space and run the command again");
        let ro = explain(path, sqlite(rusqlite::ffi::SQLITE_READONLY)).to_string();
        assert!(ro.starts_with("/mnt/stick/spring.db: is read-only"), "{ro}");
        let enospc = Error::io("/mnt/stick/site/index.html", std::io::Error::from_raw_os_error(28)).to_string();
        assert_eq!(enospc, "/mnt/stick/site/index.html: the disk is full: free some space and run the command again");
    }

    #[test]
    fn kept_names_sit_beside_and_never_collide() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let path = dir.path().join("spring.db");
        let at = chrono::DateTime::parse_from_rfc3339("2026-06-13T09:00:05Z").map(|t| t.to_utc()).unwrap_or_default();
        let first = kept_name(&path, at);
        assert_eq!(first.file_name().and_then(|n| n.to_str()), Some("spring-replaced-20260613-090005.db"));
        std::fs::write(&first, "x").map_err(|e| Error::io(&first, e))?;
        let second = kept_name(&path, at);
        assert_eq!(second.file_name().and_then(|n| n.to_str()), Some("spring-replaced-20260613-090005-2.db"));
        Ok(())
    }
}
