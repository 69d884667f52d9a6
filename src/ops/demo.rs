//! What the demo reads from its event between its actions (it writes through the same `ops` functions as
//! the judges' commands): each read in one read transaction of the demo's one store.

use crate::domain::settings::Values;
use crate::error::Result;
use crate::ops::card_reference::Class;
use crate::ops::curation::Report;
use crate::store::library::LibraryCard;
use crate::store::matches::Match;
use crate::store::player::Player;
use crate::store::{LibraryId, PlayerId, Store};
use std::collections::HashMap;

/// How many libraries the event holds, and the pool's curation report.
pub fn opening(store: &Store) -> Result<(usize, Report)> {
    store.read(|conn| Ok((crate::store::library::all(conn)?.len(), crate::ops::curation::report(conn)?)))
}

/// Every player of the event.
pub fn players(store: &Store) -> Result<Vec<Player>> {
    store.read(crate::store::player::all)
}

/// The field of the next round: players playing in it and tables with libraries.
pub struct Field {
    /// The players playing in the next round.
    pub playing: usize,
    /// The tables holding a library (seat A's).
    pub tables: usize,
}

/// The field of the round after the current one.
pub fn next_field(store: &Store) -> Result<Field> {
    store.read(|conn| {
        let next = crate::store::round::current(conn)? + 1;
        let playing = crate::store::player::all(conn)?.iter().filter(|p| p.active_in(next)).count();
        let tables = crate::store::library::all(conn)?
            .iter()
            .filter(|l| l.table.is_some() && l.seat.as_deref() == Some("A"))
            .count();
        Ok(Field { playing, tables })
    })
}

/// A paired round as the demo plays it.
pub struct RoundPlan {
    /// The event's settings.
    pub values: Values,
    /// The round's movement.
    pub movement: String,
    /// Its matches and byes.
    pub games: Vec<Match>,
    /// Every player's name, by id.
    pub names: HashMap<PlayerId, String>,
}

/// Round `number` as paired.
pub fn round_plan(store: &Store, number: u32) -> Result<RoundPlan> {
    store.read(|conn| {
        Ok(RoundPlan {
            values: crate::store::event::values(conn)?,
            movement: crate::store::round::get(conn, number)?.map(|r| r.movement).unwrap_or_default(),
            games: crate::store::matches::of_round(conn, number)?,
            names: crate::ops::player_names::names_by_id(conn)?,
        })
    })
}

/// The id of the penalty given last, if any.
pub fn last_penalty(store: &Store) -> Result<Option<i64>> {
    store.read(|conn| Ok(crate::store::penalty::list(conn, None)?.last().map(|p| p.id)))
}

/// A library's cards.
pub fn library_cards(store: &Store, library: LibraryId) -> Result<Vec<LibraryCard>> {
    store.read(|conn| crate::store::library::cards(conn, library))
}

/// The cards a printed cost may be declared as (see [`crate::ops::card_reference::class`]).
pub fn class(store: &Store, printed: &crate::domain::cost::ManaCost) -> Result<Class> {
    store.read(|conn| crate::ops::card_reference::class(conn, printed, None, false))
}

/// A player seated at a table of the current round, as their device knows them.
pub struct Seated {
    /// The round.
    pub round: u32,
    /// The player's name.
    pub name: String,
    /// The player holding their code at the table, as the table's device finds them.
    pub holder: crate::ops::table::device::Holder,
}

/// The player `who` seated at `table` of the current round.
pub fn seated(store: &Store, table: u32, who: &str) -> Result<Seated> {
    store.read(|conn| {
        let seated = crate::ops::table::Seated::at(conn, table, None)?;
        let (_, player) = seated.resolve_player(conn, who)?;
        let code = crate::store::player_codes::of(conn, player.id)?.unwrap_or_default();
        let holder = crate::ops::table::device::holder(conn, table, &code)?;
        Ok(Seated { round: seated.m.round, name: player.name.clone(), holder })
    })
}
