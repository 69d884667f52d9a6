//! The store: the only module that owns the SQLite connection and every SQL string.
//!
//! One file per table family; each function takes a `&Connection` (a transaction derefs to one) and uses
//! bound parameters only. Every write goes through [`Store::write`]: one IMMEDIATE transaction that also
//! appends the audit entry, so a refused command leaves the file exactly as it was.

pub mod audit;
pub mod bans;
pub mod card_text;
pub mod cards;
pub mod challenge;
// The store's only unsafe code: SQLite's session functions, through rusqlite's raw bindings.
#[allow(unsafe_code)]
pub mod changeset;
pub mod clock;
pub mod connections;
pub mod event;
pub mod file;
pub mod guesses;
pub mod history;
pub mod ids;
pub mod judges;
pub mod keys;
pub mod library;
pub mod matches;
mod migrate;
pub mod notes;
pub mod penalty;
pub mod player;
pub mod player_codes;
pub mod pool;
pub mod replication;
pub mod round;
pub mod ruling;
pub mod self_reports;
pub mod sign_ins;
pub mod voids;
mod writing;

pub use writing::Committed;

use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use chrono::{DateTime, Utc};
use rusqlite::{Connection, Transaction, TransactionBehavior};
use std::path::{Path, PathBuf};

pub use ids::*;

/// `PRAGMA application_id` of an mmjudge event file ("MMJG").
pub const APPLICATION_ID: i32 = 0x4d4d_4a47;

/// Who is writing and why: stamped on the audit entry of a write.
#[derive(Debug, Clone)]
pub struct Actor {
    /// The judge (from `--judge`, `MMJUDGE_JUDGE` or the OS user).
    pub judge: String,
    /// The command line as typed.
    pub command_line: String,
    /// When (the real or injected now).
    pub at: DateTime<Utc>,
    /// Where the write came from: `cli`, or `web 192.168.1.23` for the live server.
    pub via: String,
    /// A write replayed from a page's queue: the moment it claims and when the server first saw it (`at` is
    /// then the moment taken, see `ops::write_keys::moment`); None for a write done when it arrived, or at a
    /// moment a judge typed.
    pub claim: Option<Claimed>,
}

/// The moment a page's queue claimed for a replayed write (`made`), when the server first saw its key (`seen`)
/// and this try's arrival, and how the page said it was replayed, as the server checked it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claimed {
    /// The moment claimed.
    pub made: DateTime<Utc>,
    /// When the server first saw the write: the first arrival kept from an earlier try answered 503, else this
    /// try's arrival.
    pub seen: DateTime<Utc>,
    /// When this try arrived.
    pub arrival: DateTime<Utc>,
    /// A replay as its page said it (`"queued"`) and the server checked it; None for a write that arrived live
    /// (no `queued`, or a `503` the server kept no 503 for).
    pub queued: Option<Queued>,
}

/// Why a page's queue kept a write it replays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queued {
    /// The request never got an answer (the network): cannot be checked.
    Unreachable,
    /// An earlier try was answered 503 (checked against the status kept with the key's first arrival).
    Busy,
}

impl Queued {
    /// As the page sends it and the file keeps it: `unreachable`, `503`.
    pub fn as_str(self) -> &'static str {
        match self {
            Queued::Unreachable => "unreachable",
            Queued::Busy => "503",
        }
    }
}

/// What a write changed, for the audit log and the live server.
#[derive(Debug, Clone, Default)]
pub struct Change {
    /// One line saying what changed.
    pub summary: String,
    /// The players it concerns.
    pub players: Vec<PlayerId>,
    /// What phones hear of it, in order (none: a change no page shows, such as a login or the card reference).
    pub topics: Vec<Touched>,
}

impl Change {
    /// A change with a summary and no particular player.
    pub fn new(summary: impl Into<String>) -> Self {
        Change { summary: summary.into(), players: Vec::new(), topics: Vec::new() }
    }

    /// A change concerning these players.
    pub fn about(summary: impl Into<String>, players: impl IntoIterator<Item = PlayerId>) -> Self {
        Change { summary: summary.into(), players: players.into_iter().collect(), topics: Vec::new() }
    }

    /// The same change, that also touched `touched`.
    pub fn touching(mut self, touched: Touched) -> Self {
        self.topics.push(touched);
        self
    }

    /// The same change, that also touched each of `touched`.
    pub fn touching_all(mut self, touched: impl IntoIterator<Item = Touched>) -> Self {
        self.topics.extend(touched);
        self
    }
}

/// One topic a write changed and where: the round, table and player it concerns, where they apply (None: the
/// whole event, the whole round, or everyone at the table). Kept with the write's audit entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Touched {
    /// What kind of change.
    pub topic: Topic,
    /// The round it is in.
    pub round: Option<u32>,
    /// The table it is at.
    pub table: Option<u32>,
    /// The player it is about.
    pub player: Option<PlayerId>,
}

impl Touched {
    /// The event as a whole.
    pub fn event(topic: Topic) -> Self {
        Touched { topic, round: None, table: None, player: None }
    }

    /// A round as a whole.
    pub fn round(topic: Topic, round: u32) -> Self {
        Touched { round: Some(round), ..Touched::event(topic) }
    }

    /// A table of a round (None for a bye).
    pub fn table(topic: Topic, round: u32, table: Option<u32>) -> Self {
        Touched { table, ..Touched::round(topic, round) }
    }

    /// A match's table.
    pub fn of_match(topic: Topic, m: &matches::Match) -> Self {
        Touched::table(topic, m.round, m.table)
    }

    /// The same, about one player.
    pub fn player(self, player: PlayerId) -> Self {
        Touched { player: Some(player), ..self }
    }
}

/// An open event file: it refuses every change until the first [`Store::write`] (see [`file::open_read`]).
pub struct Store {
    /// A keyed write in progress (see [`Store::write_keyed`]); before `conn`, so that its recording session is
    /// dropped before the connection it records.
    group: Option<writing::Group>,
    conn: Connection,
    path: PathBuf,
    writable: bool,
    /// The replication seq of the last write this store committed (see [`Store::last_seq`]).
    last_seq: Option<i64>,
    /// What the last event change (a write with its audit row) committed and nobody took yet: what the server's
    /// door settles with the standby (see [`Store::take_committed`]).
    committed: Option<writing::Committed>,
    /// A key to record with the next write, with the answer kept for it (a job's: see [`Store::key_next_write`]).
    next_key: Option<(keys::WriteKey, String)>,
}

impl Store {
    /// Opens an existing event file to read (see [`file::open_read`]: no change is possible until the first
    /// [`Store::write`]), refusing anything that is not an mmjudge event or that a newer mmjudge wrote.
    /// Nothing in the file changes unless it is an older mmjudge event to migrate.
    pub fn open(path: &Path) -> Result<Store> {
        check_path(path)?;
        if !path.exists() {
            return Err(Error::NotAnEvent {
                path: path.into(),
                why: "no event here yet: create one with `mmjudge event new NAME` (or point --db / MMJUDGE_DB at your event file)".into(),
            });
        }
        Store::open_existing(path).map_err(|e| file::explain(path, e))
    }

    fn open_existing(path: &Path) -> Result<Store> {
        let mut conn = file::open_read(path)?;
        migrate::check_identity(&conn, path)?;
        conn.pragma_update(None, "foreign_keys", true)?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version >= migrate::SCHEMA_VERSION {
            return Ok(Store {
                group: None,
                conn,
                path: path.into(),
                writable: false,
                last_seq: None,
                committed: None,
                next_key: None,
            });
        }
        file::make_writable(&conn, path)?;
        migrate::upgrade(&mut conn, path).map_err(|e| file::explain(path, e))?;
        Ok(Store {
            group: None,
            conn,
            path: path.into(),
            writable: true,
            last_seq: None,
            committed: None,
            next_key: None,
        })
    }

    /// Creates a new event at `path`: the schema, what `fill` writes and its audit entry in one transaction,
    /// built under a temporary name and renamed into place once complete. What was at `path` goes or is kept
    /// as `replace` says.
    pub fn create(
        path: &Path,
        actor: &Actor,
        replace: &file::Replace,
        fill: impl FnOnce(&Transaction) -> Result<Change>,
    ) -> Result<Store> {
        check_path(path)?;
        file::build(path, replace, |tx| {
            let change = fill(tx)?;
            audit::append(tx, actor, &change).map(|_| ())
        })
        .map_err(|e| file::explain(path, e))?;
        Store::open(path)
    }

    /// A read transaction for the rest of a command: every query through it sees the same moment of the
    /// event, even while another judge writes (`let snapshot = store.snapshot()?; let conn = &*snapshot;`).
    /// Dropping it ends the transaction. For commands that build a page or listing from several queries.
    pub fn snapshot(&self) -> Result<Transaction<'_>> {
        Ok(self.conn.unchecked_transaction()?)
    }

    /// SQLite's `data_version`: it changes when another connection (the CLI, another server task) commits to
    /// the file, so a watcher polling it sees every change without reading the tables.
    pub fn data_version(&self) -> Result<i64> {
        Ok(self.conn.query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// Runs `f` in one read transaction: every query it makes sees the same moment of the event, even while
    /// another judge writes.
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        // Inside a keyed write (see [`Store::write_keyed`]) its transaction is the one moment read.
        if !self.conn.is_autocommit() {
            return f(&self.conn);
        }
        let tx = self.conn.unchecked_transaction()?;
        let value = f(&tx)?;
        tx.finish()?;
        Ok(value)
    }

    /// The file this store keeps.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for reads.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// On a standby: applies the primary's change `seq` in one transaction, with its triggers and foreign-key
    /// actions off (the changeset already holds every row they changed on the primary); a change that does not
    /// apply changes nothing.
    pub fn apply_change(&mut self, seq: i64, changeset: &[u8]) -> Result<()> {
        if !self.writable {
            file::make_writable(&self.conn, &self.path)?;
            self.writable = true;
        }
        self.conn.pragma_update(None, "foreign_keys", false)?;
        self.conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false)?;
        let applied = (|| -> Result<()> {
            let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let s = replication::state(&tx)?;
            if s.role != replication::Role::Standby {
                return Err(Error::refused("this file is no longer a standby: it follows no primary"));
            }
            if seq != s.seq + 1 {
                return Err(Error::refused(format!("change {seq} does not follow change {} here", s.seq)));
            }
            if !changeset.is_empty() {
                changeset::apply(&tx, changeset)?;
            }
            replication::applied(&tx, seq)?;
            tx.commit()?;
            Ok(())
        })();
        self.conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, true)?;
        self.conn.pragma_update(None, "foreign_keys", true)?;
        applied.map_err(|e| file::explain(&self.path, e))
    }

    /// Replaces the whole event with the one in the file `src` (a standby's full copy of its primary), in one
    /// step: readers see the old event or the new one.
    pub fn replace_with(&mut self, src: &Path) -> Result<()> {
        if !self.writable {
            file::make_writable(&self.conn, &self.path)?;
            self.writable = true;
        }
        file::replace_with(&mut self.conn, src).map_err(|e| file::explain(&self.path, e))
    }

    /// Writes a page-for-page copy of the event to `dest` in one step (see [`file::snapshot`]).
    pub fn snapshot_to(&self, dest: &Path) -> Result<()> {
        file::snapshot(&self.conn, dest)
    }

    /// Writes a consistent copy of the event to `dest`, safe while other processes use it; a failed copy
    /// leaves nothing (see [`file::backup`]).
    pub fn backup(&self, dest: &Path) -> Result<()> {
        file::backup(&self.conn, dest)
    }
}

/// The schema version this mmjudge writes (a standby follows only a primary of the same).
pub fn schema_version() -> i64 {
    migrate::SCHEMA_VERSION
}

/// Refuses a write on a standby's file, or on a primary whose event moved to a promoted standby.
pub(super) fn refuse_unless_primary(s: &replication::State, db: &Path) -> Result<()> {
    use crate::error::{Kind, Refusal, WayOut};
    if let Some(to) = &s.moved_to {
        let what =
            format!("this laptop's copy of the event is no longer the primary (another laptop was promoted at {to})");
        return Err(Refusal::new(Kind::Refused, what).way_out(WayOut::EventMoved { to: to.clone() }).into());
    }
    if s.role == replication::Role::Standby {
        let of = s.primary_url.as_deref().unwrap_or("another laptop");
        let what = format!("this file is a standby of {of}: it takes no writes until promoted");
        return Err(Refusal::new(Kind::Refused, what)
            .way_out(WayOut::PromoteStandby { db: db.display().to_string() })
            .into());
    }
    Ok(())
}

fn check_path(path: &Path) -> Result<()> {
    if path.is_dir() {
        return Err(Error::NotAnEvent {
            path: path.into(),
            why: "is a directory: give the event's file, e.g. --db spring.db".into(),
        });
    }
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        // `/dev/null`, a pipe, a socket: an event is a regular file (and `event new` must never replace one).
        return Err(Error::NotAnEvent {
            path: path.into(),
            why: "is a device, pipe or socket, not a file: give the event's file, e.g. --db spring.db".into(),
        });
    }
    let dangling = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) && !path.exists();
    if dangling {
        let target = std::fs::read_link(path).map(|t| t.display().to_string()).unwrap_or_default();
        return Err(Error::NotAnEvent {
            path: path.into(),
            why: format!(
                "is a symbolic link to {target}, which does not exist: fix or remove the link, or give the event's file"
            ),
        });
    }
    Ok(())
}

/// Per-connection settings: foreign keys, WAL journal (readers never block the writer), a busy timeout.
///
/// Set when a connection first writes (readers set no journal mode, so reading a backup changes nothing).
/// The last connection to close, reader or writer, folds the write-ahead log back into the main file
/// (SQLite's default), so once no mmjudge command is running the `.db` file alone holds the whole event.
/// (`mmjudge backup` is still the safe copy while commands are running.)
fn configure(conn: &Connection) -> Result<()> {
    conn.pragma_update(None, "foreign_keys", true)?;
    let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(())
}

/// The judge Kim at the command line at `at` (an RFC 3339 stamp), for unit tests of writes.
#[cfg(test)]
pub(crate) fn test_actor(at: &str) -> Result<Actor> {
    Ok(Actor {
        judge: "Kim".into(),
        command_line: "test".into(),
        at: crate::time::unstamp(at)?,
        via: "cli".into(),
        claim: None,
    })
}

/// An in-memory event with the whole schema, for unit tests of code that needs a store.
#[cfg(test)]
pub(crate) fn memory() -> Result<Store> {
    let conn = Connection::open_in_memory()?;
    configure(&conn)?;
    let mut store = Store {
        group: None,
        conn,
        path: PathBuf::from(":memory:"),
        writable: true,
        last_seq: None,
        committed: None,
        next_key: None,
    };
    migrate::upgrade(&mut store.conn, Path::new(":memory:"))?;
    Ok(store)
}

/// An in-memory event with Ana and Bo seated at table 1 of round 1 (not started), for unit tests of code
/// that works on one match: the store, the match and the two players.
#[cfg(test)]
pub(crate) fn memory_with_one_match() -> Result<(Store, MatchId, [PlayerId; 2])> {
    let store = memory()?;
    let conn = store.conn();
    let mut ids = Vec::new();
    for name in ["Ana", "Bo"] {
        let np = player::NewPlayer { name, name_key: name, ext_id: None, email: None, joined_round: 1 };
        ids.push(player::insert(conn, &np)?);
    }
    round::insert(conn, 1, "mitchell", "2025-05-01T09:00:00.000Z")?;
    let nm =
        matches::NewMatch { round: 1, table: Some(1), a: ids[0], b: Some(ids[1]), a_library: None, b_library: None };
    let m = matches::insert(conn, &nm)?;
    Ok((store, m, [ids[0], ids[1]]))
}
