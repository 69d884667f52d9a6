//! An event created from the browser (`serve --new`, the set-up page): the event file and its first head judge,
//! logged in at once.

use super::{Created, NewEvent, create};
use crate::domain::names;
use crate::error::{Error, Result};
use crate::ops::judges::{self, JudgePin, Login};
use crate::store::Actor;
use std::path::Path;

/// What the set-up page sends.
#[derive(Debug, Clone)]
pub struct NewSetup<'a> {
    /// Where the event file goes (it must not hold an event).
    pub path: &'a Path,
    /// The event's name.
    pub event: &'a str,
    /// Rounds planned.
    pub rounds: u32,
    /// The head judge's name.
    pub head_judge: &'a str,
}

/// The event set up: the event file, its head judge with the PIN to show once, and the head judge's session.
pub struct SetUp {
    /// The new event.
    pub created: Created,
    /// The head judge and the PIN (never stored in clear).
    pub judge: JudgePin,
    /// The head judge's session (the set-up page's browser keeps it).
    pub login: Login,
}

/// Creates the event at `input.path` (never over an event already there) and adds its head judge, logged in.
/// Both names are checked before anything is written: a bad one leaves no file behind.
pub fn set_up(actor: &Actor, input: NewSetup) -> Result<SetUp> {
    let head = names::clean_name(input.head_judge)
        .map_err(|p| Error::bad_input(format!("the head judge's name \"{}\" {p}", input.head_judge)))?;
    let new =
        NewEvent { path: input.path, name: input.event, rounds: input.rounds, seed: None, force: false, keep: true };
    let mut created = create(actor, new)?;
    let actor = Actor { judge: head.clone(), ..actor.clone() };
    let (judge, login) = judges::add_first_head(&mut created.store, &actor, &head)?;
    Ok(SetUp { created, judge, login })
}

/// The set-up's one line: the event, its rounds and its head judge.
pub fn set_up_words(s: &SetUp) -> String {
    format!(
        "created event \"{}\" ({}); {} is its head judge and is logged in here",
        s.created.name,
        crate::domain::words::count(s.created.rounds, "round"),
        s.judge.name
    )
}
