//! Write keys: the first outcome of a write sent with a key (see `migrations/write_keys.sql`), so that a
//! repeat is answered again and recorded nothing more. The key and its answer are recorded by
//! [`super::Store::write_keyed`] in the write's own transaction (a write, its key and its answer commit together).

use crate::error::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// A key a write was sent with: who sent it, through which route, the key, and a fingerprint of the fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteKey {
    /// Who sent it (a judge's name, or a player as the audit names them).
    pub scope: String,
    /// The route (`POST /api/note`).
    pub route: String,
    /// The key as sent.
    pub key: String,
    /// A fingerprint of the fields sent.
    pub body: String,
}

/// What a key recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// The fingerprint of the fields first sent with it.
    pub body: String,
    /// The status answered (None: the answer was never kept).
    pub status: Option<u16>,
    /// The JSON answered (None: the answer was never kept).
    pub answer: Option<String>,
    /// The summary of the write it made (the audit's).
    pub summary: String,
    /// The audit entry of the write it made.
    pub audit_id: Option<i64>,
}

/// What `key` recorded, if it was used.
pub fn find(conn: &Connection, key: &WriteKey) -> Result<Option<Kept>> {
    let mut stmt = conn.prepare_cached(
        "SELECT k.body, k.status, k.answer, coalesce(a.summary, ''), k.audit_id FROM write_key k
         LEFT JOIN audit a ON a.id = k.audit_id WHERE k.scope = ?1 AND k.route = ?2 AND k.key = ?3",
    )?;
    let row = stmt
        .query_row(params![key.scope, key.route, key.key], |r| {
            Ok(Kept { body: r.get(0)?, status: r.get(1)?, answer: r.get(2)?, summary: r.get(3)?, audit_id: r.get(4)? })
        })
        .optional()?;
    Ok(row)
}

/// The key whose kept answer is job `job`'s start (`{"job": N, "progress", ...}`: a job records its key with its
/// write, see [`super::Store::key_next_write`]), with who sent it: how a job of an earlier run is found again.
pub fn kept_job(conn: &Connection, job: u64) -> Result<Option<(String, Kept)>> {
    let job = i64::try_from(job).unwrap_or(i64::MAX);
    let mut stmt = conn.prepare_cached(
        "SELECT k.scope, k.body, k.status, k.answer, coalesce(a.summary, ''), k.audit_id FROM write_key k
         LEFT JOIN audit a ON a.id = k.audit_id
         WHERE CASE WHEN json_valid(k.answer) THEN json_type(k.answer, '$.progress') = 'text'
                    AND json_extract(k.answer, '$.job') = ?1 END",
    )?;
    let row = stmt
        .query_row(params![job], |r| {
            let kept =
                Kept { body: r.get(1)?, status: r.get(2)?, answer: r.get(3)?, summary: r.get(4)?, audit_id: r.get(5)? };
            Ok((r.get(0)?, kept))
        })
        .optional()?;
    Ok(row)
}

/// The highest job number a kept answer names (see [`kept_job`]): a server numbers its jobs after it.
pub fn last_job(conn: &Connection) -> Result<u64> {
    let mut stmt = conn.prepare_cached(
        "SELECT max(CASE WHEN json_valid(answer) AND json_type(answer, '$.progress') = 'text'
                    THEN json_extract(answer, '$.job') END) FROM write_key",
    )?;
    let last: Option<i64> = stmt.query_row([], |r| r.get(0))?;
    Ok(last.and_then(|n| u64::try_from(n).ok()).unwrap_or(0))
}

/// Records `key` as used by the write of audit entry `audit_id`, with the answer kept for a repeat (`status`,
/// `answer`), inside that write's transaction (see [`super::Store::write_keyed`]); a key used already fails the
/// write (its transaction rolls back).
pub fn record(conn: &Connection, key: &WriteKey, audit_id: i64, status: u16, answer: &str) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO write_key (scope, route, key, body, audit_id, status, answer) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    stmt.execute(params![key.scope, key.route, key.key, key.body, audit_id, status, answer])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::store::{Change, memory, test_actor};

    fn key(k: &str) -> WriteKey {
        WriteKey { scope: "Kim".into(), route: "POST /api/ruling".into(), key: k.into(), body: "f1".into() }
    }

    #[test]
    fn a_key_commits_with_its_write_and_its_answer_and_a_refused_write_records_none() -> Result<()> {
        let mut store = memory()?;
        let actor = test_actor("2025-05-01T10:00:00.000Z")?;
        let refused = store.write_keyed(
            &key("a"),
            |store| store.write(&actor, |_| -> Result<((), Change)> { Err(Error::refused("no")) }),
            |_| "{}".into(),
        );
        assert!(refused.is_err());
        assert_eq!(find(store.conn(), &key("a"))?, None, "nothing kept for a refusal");
        let (_, used) = store.write_keyed(
            &key("a"),
            |store| store.write(&actor, |_| Ok(((), Change::new("did it")))),
            |_| "{\"ok\":true}".into(),
        )?;
        assert!(used);
        let kept = find(store.conn(), &key("a"))?;
        assert_eq!(
            kept,
            Some(Kept {
                body: "f1".into(),
                status: Some(200),
                answer: Some("{\"ok\":true}".into()),
                summary: "did it".into(),
                audit_id: Some(crate::store::audit::last_id(store.conn())?),
            }),
            "recorded with the write and its answer, its summary the audit's"
        );
        // The same key again fails its write: nothing of it is committed.
        let before = crate::store::audit::last_id(store.conn())?;
        let again = store.write_keyed(
            &key("a"),
            |store| store.write(&actor, |_| Ok(((), Change::new("again")))),
            |_| "{}".into(),
        );
        assert!(again.is_err());
        assert_eq!(crate::store::audit::last_id(store.conn())?, before, "the write and its key commit together");
        // A keyed write that writes nothing records no key.
        let (_, used) = store.write_keyed(&key("b"), |_| Ok(()), |_| "{}".into())?;
        assert!(!used);
        assert_eq!(find(store.conn(), &key("b"))?, None);
        // Another scope or route is another key.
        let other = WriteKey { scope: "Lee".into(), ..key("a") };
        assert_eq!(find(store.conn(), &other)?, None);
        Ok(())
    }

    #[test]
    fn a_jobs_key_is_recorded_with_its_one_write_and_found_again_by_the_jobs_number() -> Result<()> {
        let mut store = memory()?;
        let actor = test_actor("2025-05-01T10:00:00.000Z")?;
        assert_eq!((last_job(store.conn())?, kept_job(store.conn(), 7)?), (0, None));
        let started = r#"{"job":7,"progress":"/api/job/7"}"#;
        // A refused write records no key, and the key is not kept for the write after it.
        store.key_next_write(key("j"), started.into());
        let refused = store.write(&actor, |_| -> Result<((), Change)> { Err(Error::refused("no")) });
        assert!(refused.is_err());
        store.write(&actor, |_| Ok(((), Change::new("another write"))))?;
        assert_eq!(find(store.conn(), &key("j"))?, None, "a refused job keeps no key");
        store.key_next_write(key("j"), started.into());
        store.write(&actor, |_| Ok(((), Change::new("imported 3 cards"))))?;
        let (scope, kept) = kept_job(store.conn(), 7)?.expect("the job's key");
        assert_eq!((scope.as_str(), kept.summary.as_str()), ("Kim", "imported 3 cards"));
        assert_eq!(kept.answer.as_deref(), Some(started));
        assert_eq!(find(store.conn(), &key("j"))?, Some(kept));
        // A kept answer that is no job's start is no job.
        store.write_keyed(&key("b"), |s| s.write(&actor, |_| Ok(((), Change::new("x")))), |_| r#"{"job":9}"#.into())?;
        assert_eq!((last_job(store.conn())?, kept_job(store.conn(), 9)?), (7, None));
        Ok(())
    }
}
