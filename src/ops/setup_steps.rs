//! Where the event stands before round 1, for the head judge's set-up page: what each step (cards, pool,
//! libraries, players, judges, pairing round 1) holds, read in one read transaction.

use crate::error::Result;
use crate::store::{Store, cards, event, judges, library, player, pool, round};

/// What each step before round 1 holds.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Steps {
    /// The event's name.
    pub event: String,
    /// Cards in the reference.
    pub cards: u32,
    /// Copies in the pool (lands and excluded cards included).
    pub pool_copies: u64,
    /// Main libraries built (judge-built events) or registered (sealed).
    pub libraries: usize,
    /// Whether players bring sealed libraries (registered one by one) rather than judge-built ones.
    pub sealed: bool,
    /// Players entered (dropped ones included).
    pub players: u32,
    /// The judges: name and role.
    pub judges: Vec<(String, String)>,
    /// The round paired last (0 before round 1).
    pub round: u32,
}

/// Reads [`Steps`].
pub fn steps(store: &Store) -> Result<Steps> {
    store.read(|conn| {
        let values = event::values(conn)?;
        Ok(Steps {
            event: values.name().to_string(),
            cards: cards::count(conn)?,
            pool_copies: pool::all(conn)?.iter().map(|c| u64::from(c.copies)).sum(),
            libraries: library::all(conn)?.len(),
            sealed: values.text("libraries") == "sealed",
            players: player::count(conn)?,
            judges: judges::all(conn)?.into_iter().map(|j| (j.name, j.role)).collect(),
            round: round::current(conn)?,
        })
    })
}
