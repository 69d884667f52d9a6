//! What changed since a phone's last id, with where: the live stream's events carry it so that a page fetches
//! only what it shows (one table's row, one player's seat), or reloads everything when too much changed.

use crate::error::Result;
use crate::store::{Store, Touched};

/// What changed, each place once with the id of its latest write, oldest first.
pub type Touches = Vec<(i64, Touched)>;

/// The changes after audit entry `after`, each [`Touched`] once with the id of the latest write that named it,
/// oldest first; with the highest entry now. `None` in place of the list when more than `most` differ (a phone
/// that far behind reloads what it shows).
pub fn touched_since(store: &Store, after: i64, most: usize) -> Result<(i64, Option<Touches>)> {
    store.read(|conn| {
        let last = crate::store::audit::last_id(conn)?;
        let mut latest: Touches = Vec::new();
        for (id, touched) in crate::store::audit::topics_after(conn, after)? {
            latest.retain(|(_, seen)| *seen != touched);
            latest.push((id, touched));
            if latest.len() > most {
                return Ok((last, None));
            }
        }
        Ok((last, Some(latest)))
    })
}
