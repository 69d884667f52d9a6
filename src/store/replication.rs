//! The replication's bookkeeping (see `migrations/replication.sql`): this file's role, the event's id and
//! generation, the log of changesets a standby follows, and what the standby acknowledged. None of it is itself
//! replicated: [`recorded_tables`] leaves these tables out of every write's changeset.

use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// The tables that are this file's own bookkeeping, never replicated.
pub const BOOKKEEPING: [&str; 2] = ["replication", "replication_log"];

/// What this file is to the event: the laptop taking writes, or a copy following it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// It takes writes (and feeds its standby, if any).
    Primary,
    /// It follows a primary and takes no writes until promoted.
    Standby,
}

impl Role {
    /// The word stored in the file and sent on the wire.
    pub fn word(self) -> &'static str {
        match self {
            Role::Primary => "primary",
            Role::Standby => "standby",
        }
    }

    /// The role a stored word names (anything but `standby` is the primary, as the table's CHECK allows).
    pub fn of(word: &str) -> Role {
        if word == "standby" { Role::Standby } else { Role::Primary }
    }
}

/// This file's replication state.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct State {
    /// The event's id (32 hex digits).
    pub event_id: String,
    /// Raised by each promotion.
    pub generation: i64,
    /// Primary or standby.
    pub role: Role,
    /// On a standby: the primary it follows.
    pub primary_url: Option<String>,
    /// The last change written here (a primary) or applied here (a standby).
    pub seq: i64,
    /// The standby key's hash (a primary with a standby key).
    pub key_hash: Option<String>,
    /// What the standby acknowledged (a primary).
    pub acked_seq: i64,
    /// When the other laptop was last heard (RFC 3339).
    pub heard_at: Option<String>,
    /// On a standby: the last change the primary announced.
    pub primary_seq: i64,
    /// Where the event went once another laptop was promoted.
    pub moved_to: Option<String>,
    /// On a primary: the address of the standby that holds the stream and acknowledged (the one phones are told).
    pub standby_url: Option<String>,
    /// On a primary: its server runs with `--standby-required` (its command line waits for the standby too).
    pub required: bool,
    /// On a primary: when a head judge said the second laptop is gone for good (writes go on alone).
    pub detached_at: Option<String>,
    /// On a standby: the id it names itself by to its primary (one standby per key).
    pub follower_id: Option<String>,
}

/// This file's state.
pub fn state(conn: &Connection) -> Result<State> {
    let mut stmt = conn.prepare_cached(
        "SELECT event_id, generation, role, primary_url, seq, key_hash, acked_seq, heard_at, primary_seq, moved_to,
         standby_url, required, detached_at, follower_id FROM replication WHERE one = 1",
    )?;
    Ok(stmt.query_row([], |r| {
        Ok(State {
            event_id: r.get(0)?,
            generation: r.get(1)?,
            role: Role::of(&r.get::<_, String>(2)?),
            primary_url: r.get(3)?,
            seq: r.get(4)?,
            key_hash: r.get(5)?,
            acked_seq: r.get(6)?,
            heard_at: r.get(7)?,
            primary_seq: r.get(8)?,
            moved_to: r.get(9)?,
            standby_url: r.get(10)?,
            required: r.get(11)?,
            detached_at: r.get(12)?,
            follower_id: r.get(13)?,
        })
    })?)
}

/// Every table a write's changeset records: all but SQLite's own and the bookkeeping.
pub fn recorded_tables(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND name <> 'replication' AND name <> 'replication_log' ORDER BY name",
    )?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Counts write `seq` (the one after this file's last, inside its transaction) and, when a standby key exists,
/// keeps its changeset (`kept`: empty for a write that changed no row, so the standby sees every seq in turn).
pub fn append(conn: &Connection, seq: i64, generation: i64, kept: Option<&[u8]>, at: &str) -> Result<()> {
    conn.prepare_cached("UPDATE replication SET seq = ?1 WHERE one = 1")?.execute([seq])?;
    if let Some(changeset) = kept {
        conn.prepare_cached("INSERT INTO replication_log (seq, generation, at, changeset) VALUES (?1, ?2, ?3, ?4)")?
            .execute(params![seq, generation, at, changeset])?;
    }
    Ok(())
}

/// One change of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its number.
    pub seq: i64,
    /// The generation it was written in.
    pub generation: i64,
    /// When it was written (RFC 3339).
    pub at: String,
    /// The changeset (empty: a write that changed no row).
    pub changeset: Vec<u8>,
}

/// The log's changes after `seq`, at most `limit` of them, oldest first.
pub fn after(conn: &Connection, seq: i64, limit: i64) -> Result<Vec<Entry>> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq, generation, at, changeset FROM replication_log WHERE seq > ?1 ORDER BY seq LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![seq, limit], |r| {
        Ok(Entry { seq: r.get(0)?, generation: r.get(1)?, at: r.get(2)?, changeset: r.get(3)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Whether the log still holds every change after `seq` (the log keeps every change from the key's creation on,
/// until the standby acknowledges it).
pub fn reaches(conn: &Connection, seq: i64) -> Result<bool> {
    let s = state(conn)?;
    Ok(s.key_hash.is_some() && seq >= s.acked_seq && seq <= s.seq)
}

/// When the oldest change the standby has not acknowledged was written (None: it has all).
pub fn oldest_unacked(conn: &Connection) -> Result<Option<String>> {
    let at = conn
        .prepare_cached(
            "SELECT at FROM replication_log WHERE seq > (SELECT acked_seq FROM replication WHERE one = 1)
             ORDER BY seq LIMIT 1",
        )?
        .query_row([], |r| r.get(0))
        .optional()?;
    Ok(at)
}

/// Sets (or, with None, removes) the standby key's hash; a new key starts the log afresh (and ends a detachment);
/// the standby advertised until now is no longer (the next one names itself).
pub fn set_key(conn: &Connection, hash: Option<&str>) -> Result<()> {
    conn.prepare_cached(
        "UPDATE replication SET key_hash = ?1, acked_seq = seq, heard_at = NULL, standby_url = NULL,
         detached_at = CASE WHEN ?1 IS NULL THEN detached_at ELSE NULL END WHERE one = 1",
    )?
    .execute([hash])?;
    conn.prepare_cached("DELETE FROM replication_log")?.execute([])?;
    Ok(())
}

/// Records the standby's acknowledgement of every change up to `seq` at `at`, and prunes them from the log.
pub fn ack(conn: &Connection, seq: i64, at: &str) -> Result<()> {
    conn.prepare_cached("UPDATE replication SET acked_seq = max(acked_seq, ?1), heard_at = ?2 WHERE one = 1")?
        .execute(params![seq, at])?;
    conn.prepare_cached("DELETE FROM replication_log WHERE seq <= ?1")?.execute([seq])?;
    Ok(())
}

/// On a primary: the standby holding the stream, which acknowledged, advertises `url` (None: no address).
pub fn standby_at(conn: &Connection, url: Option<&str>) -> Result<()> {
    conn.prepare_cached("UPDATE replication SET standby_url = ?1 WHERE one = 1")?.execute([url])?;
    Ok(())
}

/// On a primary: whether its server runs with `--standby-required`.
pub fn set_required(conn: &Connection, required: bool) -> Result<()> {
    conn.prepare_cached("UPDATE replication SET required = ?1 WHERE one = 1")?.execute([required])?;
    Ok(())
}

/// On a primary: the second laptop is gone for good (at `at`): its key ends, nothing of it is advertised, and
/// writes go on alone until a new key.
pub fn detach(conn: &Connection, at: &str) -> Result<()> {
    set_key(conn, None)?;
    conn.prepare_cached("UPDATE replication SET detached_at = ?1 WHERE one = 1")?.execute([at])?;
    Ok(())
}

/// On a standby: the id it names itself by (kept across restarts).
pub fn name_follower(conn: &Connection, id: &str) -> Result<()> {
    conn.prepare_cached("UPDATE replication SET follower_id = ?1 WHERE one = 1")?.execute([id])?;
    Ok(())
}

/// On a standby: the primary was heard at `at`, announcing changes up to `primary_seq`.
pub fn heard(conn: &Connection, primary_seq: i64, at: &str) -> Result<()> {
    conn.prepare_cached("UPDATE replication SET primary_seq = max(primary_seq, ?1), heard_at = ?2 WHERE one = 1")?
        .execute(params![primary_seq, at])?;
    Ok(())
}

/// On a standby: change `seq` was applied.
pub fn applied(conn: &Connection, seq: i64) -> Result<()> {
    conn.prepare_cached("UPDATE replication SET seq = ?1, primary_seq = max(primary_seq, ?1) WHERE one = 1")?
        .execute([seq])?;
    Ok(())
}

/// Makes this file a standby of `url`, named `follower` (a fresh copy of the primary's: its key,
/// acknowledgements and flags are the primary's, not this file's).
pub fn become_standby(conn: &Connection, url: &str, follower: &str) -> Result<()> {
    conn.prepare_cached(
        "UPDATE replication SET role = 'standby', primary_url = ?1, key_hash = NULL, acked_seq = 0, heard_at = NULL,
         primary_seq = seq, moved_to = NULL, standby_url = NULL, required = 0, detached_at = NULL,
         follower_id = ?2 WHERE one = 1",
    )?
    .execute([url, follower])?;
    conn.prepare_cached("DELETE FROM replication_log")?.execute([])?;
    Ok(())
}

/// Promotes this file: the primary now, one generation on. Every judges' session that came with the event
/// ends (judges log in again on the new primary).
pub fn promote(conn: &Connection) -> Result<i64> {
    conn.prepare_cached(
        "UPDATE replication SET role = 'primary', generation = generation + 1, key_hash = NULL, acked_seq = seq,
         primary_seq = 0 WHERE one = 1",
    )?
    .execute([])?;
    crate::store::judges::end_every_session(conn)?;
    Ok(state(conn)?.generation)
}

/// On an old primary: the event went to `url` (a later generation).
pub fn moved(conn: &Connection, url: &str) -> Result<()> {
    conn.prepare_cached("UPDATE replication SET moved_to = ?1 WHERE one = 1")?.execute([url])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::topic::Topic;
    use crate::error::Error;
    use crate::store::{Change, Store, Touched, file, test_actor};

    /// Every row of every replicated table, as text (table names come from the schema itself).
    fn dump(conn: &Connection) -> Result<Vec<(String, Vec<String>)>> {
        let mut out = Vec::new();
        for table in recorded_tables(conn)? {
            let mut stmt = conn.prepare(&format!("SELECT * FROM \"{table}\""))?;
            let n = stmt.column_count();
            let mut rows: Vec<String> = stmt
                .query_map([], |r| {
                    let cells: rusqlite::Result<Vec<String>> =
                        (0..n).map(|i| r.get_ref(i).map(|v| format!("{v:?}"))).collect();
                    cells.map(|c| c.join("|"))
                })?
                .collect::<rusqlite::Result<_>>()?;
            rows.sort();
            out.push((table, rows));
        }
        Ok(out)
    }

    #[test]
    fn changesets_carry_every_write_to_a_standby_copy() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
        let actor = test_actor("2025-05-01T10:00:00.000Z")?;
        let mut primary = Store::create(&a, &actor, &file::Replace::Discard, |tx| {
            crate::store::event::set(tx, "name", "Spring")?;
            Ok(Change::new("created"))
        })?;
        primary.bookkeep(|tx| set_key(tx, Some("hash")))?;
        file::snapshot(primary.conn(), &b)?;
        let mut standby = Store::open(&b)?;
        standby.bookkeep(|tx| become_standby(tx, "http://a", "f1"))?;
        primary.write(&actor, |tx| {
            tx.execute_batch(
                "INSERT INTO player (name, name_key) VALUES ('Ana', 'ana'), ('Bo', 'bo');
                 INSERT INTO round (number, movement, paired_at) VALUES (1, 'test', '2025-05-01T09:00:00Z');
                 INSERT INTO match (id, round, table_no, a_player, b_player) VALUES (1, 1, 1, 1, 2);",
            )?;
            Ok(((), Change::new("seated").touching(Touched::round(Topic::Round, 1))))
        })?;
        let key = crate::store::keys::WriteKey {
            scope: "Kim".into(),
            route: "POST /api/note".into(),
            key: "k1".into(),
            body: "f".into(),
        };
        let seq = state(primary.conn())?.seq;
        primary.write_keyed(
            &key,
            |primary| {
                primary.write(&actor, |tx| {
                    let n = crate::store::notes::NewNote {
                        match_id: crate::store::MatchId(1),
                        player: crate::store::PlayerId(1),
                        cost: "{R}",
                        card: None,
                        at: "2025-05-01T10:00:00Z",
                    };
                    crate::store::notes::insert(tx, &n)?;
                    Ok(((), Change::new("noted")))
                })
            },
            |_| "{}".into(),
        )?;
        assert_eq!(state(primary.conn())?.seq, seq + 1, "a keyed write, its key and its answer: one change");
        primary.write(&actor, |_| Ok(((), Change::new("nothing changed but the audit"))))?;
        assert_eq!(primary.last_seq(), Some(state(primary.conn())?.seq));
        for e in after(primary.conn(), state(standby.conn())?.seq, 100)? {
            standby.apply_change(e.seq, &e.changeset)?;
        }
        assert_eq!(dump(standby.conn())?, dump(primary.conn())?);
        assert_eq!(state(standby.conn())?.seq, state(primary.conn())?.seq);
        // A change applied twice, or out of order, is refused and changes nothing.
        let last = after(primary.conn(), 0, 100)?.pop().ok_or_else(|| Error::refused("no log"))?;
        assert!(standby.apply_change(last.seq, &last.changeset).is_err());
        let refused = standby.write(&actor, |_| Ok(((), Change::new("on the standby")))).err();
        assert!(refused.is_some_and(|e| e.to_string().contains("standby promote")));
        // Acknowledged changes leave the log; promotion moves the generation on and takes writes.
        primary.bookkeep(|tx| ack(tx, last.seq, "2025-05-01T10:00:01Z"))?;
        assert!(after(primary.conn(), 0, 100)?.is_empty());
        assert!(reaches(primary.conn(), last.seq)? && !reaches(primary.conn(), 0)?);
        assert_eq!(standby.bookkeep(promote)?, 2);
        standby.write(&actor, |_| Ok(((), Change::new("promoted"))))?;
        Ok(())
    }
}
