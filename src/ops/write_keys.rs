//! A write sent again: the first outcome a key recorded (see [`crate::store::keys`]), kept once answered, and
//! the moment a replayed write is recorded at.
//!
//! Moments as they happened: a write replayed from a page's queue, of a [`Timed`] kind, may say when it was made
//! and why its page kept it (`queued`). A declaration's moment is taken when it lies between the match's last
//! declaration (or the round's start) and the key's first arrival, at most [`AT_BACK`] before it; a decision's as
//! [`crate::ops::table::clocks::claims`] says (between the decision's recorded start and the key's first
//! arrival; never shortening a decision whose start arrived live), so nobody can backdate a tap to erase an
//! overrun, nor a refused try claim a moment (only a try answered 503 keeps its key's first arrival).

use crate::error::{Error, Result};
use crate::store::keys::{self, Kept, WriteKey};
use crate::store::{Actor, Claimed, Queued, Store};
use chrono::{DateTime, Utc};

/// How far back a moment sent may lie (before the write's first arrival).
pub const AT_BACK: chrono::Duration = chrono::Duration::minutes(2);

/// The writes whose replay from a page's queue may claim the moment it was made (`at`): which routes they are is
/// the server's routes table's to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timed {
    /// A declaration (a note).
    Declaration,
    /// A decision's start.
    DecisionStart,
    /// A decision's end (a stop, a hand-over).
    DecisionEnd,
}

/// What `key` recorded, if it was used.
pub fn first(store: &Store, key: &WriteKey) -> Result<Option<Kept>> {
    store.read(|conn| keys::find(conn, key))
}

/// Runs `f` (a write sent with `key`) as one transaction with its key and the answer `keep` words for a repeat
/// (see [`Store::write_keyed`]); answers whether the key was recorded.
pub fn run_keyed<T>(
    store: &mut Store,
    key: &WriteKey,
    f: impl FnOnce(&mut Store) -> Result<T>,
    keep: impl FnOnce(&T) -> String,
) -> Result<(T, bool)> {
    store.write_keyed(key, f, keep)
}

/// A job sent with `key` (an upload's import, a library build): its key is recorded with the job's one write, in
/// that write's transaction, with `started` (the job's first answer: its number and where its progress is read)
/// kept for a repeat (see [`Store::key_next_write`]). The job's reading and checking before it hold no lock.
pub fn key_job(store: &mut Store, key: WriteKey, started: String) {
    store.key_next_write(key, started);
}

/// The key a job of an earlier run recorded, found by the job's number, with who sent it.
pub fn kept_job(store: &Store, job: u64) -> Result<Option<(String, Kept)>> {
    store.read(|conn| keys::kept_job(conn, job))
}

/// The highest job number the file keeps (0: none): a server numbers its jobs after it.
pub fn last_job(store: &Store) -> Result<u64> {
    store.read(keys::last_job)
}

/// The moment a replayed write is recorded at.
#[derive(Debug, Clone)]
pub struct Moment {
    /// The actor at that moment (its command line names both moments, for the audit).
    pub actor: Actor,
    /// The moment taken.
    pub at: DateTime<Utc>,
    /// Whether the arrival was taken instead of the moment sent.
    pub adjusted: bool,
}

/// A write replayed with a moment: the moment it claims, the table it names, its key's first arrival kept from
/// an earlier try (with the status that try was answered; None: this try is the first), why its page says it
/// kept it, and what kind of timed write it is.
#[derive(Debug, Clone, Copy)]
pub struct Replayed {
    /// The moment claimed (`at`).
    pub made: DateTime<Utc>,
    /// The table the write names.
    pub table: Option<u32>,
    /// Its first arrival kept from an earlier try, and that try's status (only a 503 is kept).
    pub first: Option<(DateTime<Utc>, u16)>,
    /// Why its page kept it (`"queued"`), as the page says.
    pub queued: Option<Queued>,
    /// What it is.
    pub timed: Timed,
}

/// A replay as the page said it, checked: `unreachable` cannot be checked; a `503` is one only when the server kept
/// a 503 with the key's first arrival (else the write is taken as live).
pub fn checked(queued: Option<Queued>, first: Option<(DateTime<Utc>, u16)>) -> Option<Queued> {
    match queued {
        Some(Queued::Unreachable) => Some(Queued::Unreachable),
        Some(Queued::Busy) if first.is_some_and(|(_, status)| status == 503) => Some(Queued::Busy),
        _ => None,
    }
}

/// The moment a replayed write arriving as `actor` (at `actor.at`) is recorded at. A declaration: the moment
/// claimed if it lies between the match's last declaration (or the round's start) and the key's first arrival and at most [`AT_BACK`] before
/// it, else the arrival. A decision's start or end: as [`crate::ops::table::clocks::claims`] says, from the
/// match's decisions (the write checks it again in its own transaction).
pub fn moment(store: &Store, actor: &Actor, w: Replayed) -> Result<Moment> {
    let (arrival, made) = (actor.at, w.made);
    let seen = w.first.map_or(arrival, |(f, _)| f.min(arrival));
    let claim = Claimed { made, seen, arrival, queued: checked(w.queued, w.first) };
    let at = match (w.timed, w.table) {
        (Timed::Declaration, table) => {
            let last = match table {
                Some(t) => store.read(|conn| declaration_bound(conn, t))?,
                None => None,
            };
            let fits = made <= seen && seen - made <= AT_BACK && last.is_none_or(|l| made >= l);
            if fits { made } else { arrival }
        }
        (Timed::DecisionStart, Some(table)) => store.read(|conn| {
            use crate::ops::table::clocks::{claims, clock};
            let number = crate::store::round::current(conn)?;
            let Some(m) = crate::store::matches::at_table(conn, number, table)? else { return Ok(seen) };
            let started = clock::current_round(conn).ok().and_then(|r| clock::round_started(&r).ok());
            Ok(claims::start_moment(claims::start_bound(conn, m.id, started)?, &claim))
        })?,
        (Timed::DecisionEnd, Some(table)) => {
            let running = store.read(|conn| crate::ops::table::clocks::claims::running_at(conn, table))?;
            match running {
                Some(d) => crate::ops::table::clocks::claims::end_moments(&d, &claim)?.stop,
                None => arrival,
            }
        }
        (_, None) => arrival,
    };
    let fits = at == made;
    let mut actor = actor.clone();
    let queued = claim.queued.map(|q| format!(", queued {}", q.as_str())).unwrap_or_default();
    actor.command_line = format!(
        "{} (made at {}, arrived at {}{queued})",
        actor.command_line,
        crate::time::stamp(made),
        crate::time::stamp(arrival)
    );
    actor.at = at;
    actor.claim = Some(claim);
    Ok(Moment { actor, at, adjusted: !fits })
}

/// The moment a declaration at `table` may not claim a moment before: the latest of the round's start and the
/// match's last declaration, read from the match's own records (another write at the table, such as the
/// opponent's self-report, does not move it).
fn declaration_bound(conn: &rusqlite::Connection, table: u32) -> Result<Option<DateTime<Utc>>> {
    let number = crate::store::round::current(conn)?;
    let Some(m) = crate::store::matches::at_table(conn, number, table)? else { return Ok(None) };
    let started = crate::ops::table::clocks::clock::current_round(conn)
        .ok()
        .and_then(|r| crate::ops::table::clocks::clock::round_started(&r).ok());
    let noted = crate::store::notes::last_moment(conn, m.id)?
        .map(|l| crate::time::unstamp(&l))
        .transpose()
        .map_err(|e| Error::refused(e.to_string()))?;
    Ok(noted.into_iter().chain(started).max())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::notes::{self, NewNote};

    /// Ana and Bo at table 1 of round 1, its clock started at 09:00, with a note of Ana's at `at`.
    fn noted(at: &str) -> Result<Store> {
        let (store, m, [ana, _]) = crate::store::memory_with_one_match()?;
        crate::store::round::set_started(store.conn(), 1, Some("2025-05-01T09:00:00.000Z"))?;
        note(&store, m, ana, at)?;
        Ok(store)
    }

    fn note(store: &Store, m: crate::store::MatchId, p: crate::store::PlayerId, at: &str) -> Result<()> {
        notes::insert(store.conn(), &NewNote { match_id: m, player: p, cost: "{1}{B}", card: None, at })?;
        Ok(())
    }

    /// A write at table 1 that is no declaration (an opponent's self-report, a judge's call).
    fn other_write_at(store: &mut Store, at: &str) -> Result<()> {
        let actor = crate::store::test_actor(at)?;
        store.write(&actor, |_| {
            let touched = crate::store::Touched::table(crate::domain::topic::Topic::Result, 1, Some(1));
            Ok(((), crate::store::Change::new("self-report").touching(touched)))
        })
    }

    fn declaration(made: &str, table: Option<u32>) -> Result<Replayed> {
        let made = crate::time::unstamp(made)?;
        Ok(Replayed { made, table, first: None, queued: None, timed: Timed::Declaration })
    }

    #[test]
    fn a_declarations_moment_is_taken_between_the_matchs_last_declaration_and_the_arrival_at_most_two_minutes_back()
    -> Result<()> {
        let mut store = noted("2025-05-01T10:00:00.000Z")?;
        let arrival = crate::store::test_actor("2025-05-01T10:03:00.000Z")?;
        let at = |t: &str| crate::time::unstamp(t);
        let cases = [
            ("2025-05-01T10:01:30.000Z", Some(1), false, "90 s back, after the match's last declaration"),
            ("2025-05-01T10:00:30.000Z", Some(1), true, "more than two minutes back"),
            ("2025-05-01T10:03:01.000Z", Some(1), true, "after the arrival"),
            ("2025-05-01T10:01:30.000Z", Some(2), false, "a table without a match has no bound"),
        ];
        for (sent, table, adjusted, why) in cases {
            let m = moment(&store, &arrival, declaration(sent, table)?)?;
            assert_eq!(m.adjusted, adjusted, "{why}");
            let expected = if adjusted { arrival.at } else { at(sent)? };
            assert_eq!((m.at, m.actor.at), (expected, expected), "{why}");
            assert!(m.actor.command_line.contains(&format!("made at {sent}, arrived at 2025-05-01T10:03:00.000Z")));
        }
        // The opponent's self-report at the table does not move the bound; a later declaration does.
        other_write_at(&mut store, "2025-05-01T10:02:00.000Z")?;
        let early = declaration("2025-05-01T10:01:30.000Z", Some(1))?;
        assert!(!moment(&store, &arrival, early)?.adjusted, "another write at the table is no bound");
        let (m, p) = {
            let mm = crate::store::matches::at_table(store.conn(), 1, 1)?.ok_or_else(|| Error::refused("no match"))?;
            (mm.id, mm.b)
        };
        note(&store, m, p.ok_or_else(|| Error::refused("no seat B"))?, "2025-05-01T10:02:00.000Z")?;
        assert!(moment(&store, &arrival, early)?.adjusted, "before the match's last declaration");
        // Counted from the first arrival: 2 min 50 s before this arrival, but 1 min 50 s before the first.
        let waited = Replayed {
            first: Some((at("2025-05-01T10:04:00.000Z")?, 503)),
            queued: Some(Queued::Busy),
            ..declaration("2025-05-01T10:02:10.000Z", Some(1))?
        };
        let later = crate::store::test_actor("2025-05-01T10:05:00.000Z")?;
        let m = moment(&store, &later, waited)?;
        assert!(!m.adjusted && m.at == waited.made, "a wait after a 503 does not cost the moment");
        assert_eq!(
            m.actor.claim.map(|c| (c.seen, c.queued)),
            Some((at("2025-05-01T10:04:00.000Z")?, Some(Queued::Busy)))
        );
        Ok(())
    }
}
