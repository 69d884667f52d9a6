//! A write sent again: the first outcome a key recorded (see [`crate::store::keys`]), kept once answered, and
//! the moment a replayed write is recorded at.
//!
//! Moments as they happened: a write replayed from a page's queue may say when it was made; that moment is
//! taken when it lies between the table's last record and the arrival and at most [`AT_BACK`] back (so nobody can
//! backdate a tap to erase an overrun), else the arrival is.

use crate::error::{Error, Result};
use crate::store::keys::{self, Kept, WriteKey};
use crate::store::{Actor, Store};
use chrono::{DateTime, Utc};

/// How far back a moment sent may lie.
pub const AT_BACK: chrono::Duration = chrono::Duration::minutes(2);

/// What `key` recorded, if it was used.
pub fn first(store: &Store, key: &WriteKey) -> Result<Option<Kept>> {
    store.read(|conn| keys::find(conn, key))
}

/// Keeps what was answered for `key` (recorded by the write it made), in a transaction of its own that the
/// replication records (the standby answers a repeat as the primary did).
pub fn keep(store: &mut Store, key: &WriteKey, status: u16, answer: &str) -> Result<()> {
    store.write_unaudited(|tx| keys::keep_answer(tx, key, status, answer))
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

/// The moment a write made at `made` and arriving as `actor` (at `actor.at`) is recorded at: `made` if it lies
/// between table `table`'s last record and the arrival and at most [`AT_BACK`] back, else the arrival.
pub fn moment(store: &Store, actor: &Actor, made: DateTime<Utc>, table: Option<u32>) -> Result<Moment> {
    let arrival = actor.at;
    let last = match table {
        Some(t) => store.read(|conn| crate::store::audit::last_at_table(conn, t))?,
        None => None,
    };
    let last = last.map(|l| crate::time::unstamp(&l)).transpose().map_err(|e| Error::refused(e.to_string()))?;
    let fits = made <= arrival && arrival - made <= AT_BACK && last.is_none_or(|l| made >= l);
    let at = if fits { made } else { arrival };
    let mut actor = actor.clone();
    actor.command_line = format!(
        "{} (made at {}, arrived at {})",
        actor.command_line,
        crate::time::stamp(made),
        crate::time::stamp(arrival)
    );
    actor.at = at;
    Ok(Moment { actor, at, adjusted: !fits })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tap_at(store: &mut Store, at: &str) -> Result<()> {
        let actor = crate::store::test_actor(at)?;
        store.write(&actor, |_| {
            let touched = crate::store::Touched::table(crate::domain::topic::Topic::Clock, 1, Some(1));
            Ok(((), crate::store::Change::new("tap").touching(touched)))
        })
    }

    #[test]
    fn a_moment_sent_is_taken_between_the_tables_last_record_and_the_arrival_at_most_two_minutes_back() -> Result<()> {
        let mut store = crate::store::memory()?;
        tap_at(&mut store, "2025-05-01T10:00:00.000Z")?;
        let arrival = crate::store::test_actor("2025-05-01T10:03:00.000Z")?;
        let at = |t: &str| crate::time::unstamp(t);
        let cases = [
            ("2025-05-01T10:01:30.000Z", Some(1), false, "90 s back, after the table's last record"),
            ("2025-05-01T10:00:30.000Z", Some(1), true, "more than two minutes back"),
            ("2025-05-01T10:03:01.000Z", Some(1), true, "after the arrival"),
            ("2025-05-01T10:01:30.000Z", Some(2), false, "another table's records do not count"),
        ];
        for (sent, table, adjusted, why) in cases {
            let m = moment(&store, &arrival, at(sent)?, table)?;
            assert_eq!(m.adjusted, adjusted, "{why}");
            let expected = if adjusted { arrival.at } else { at(sent)? };
            assert_eq!((m.at, m.actor.at), (expected, expected), "{why}");
            assert!(m.actor.command_line.contains(&format!("made at {sent}, arrived at 2025-05-01T10:03:00.000Z")));
        }
        tap_at(&mut store, "2025-05-01T10:02:00.000Z")?;
        assert!(moment(&store, &arrival, at("2025-05-01T10:01:30.000Z")?, Some(1))?.adjusted, "before the last record");
        Ok(())
    }
}
