//! What is recorded at a table: its result, the template notes, challenges, penalties and rulings, the note
//! sheet, the records a head judge may void, and one table at a glance.

pub mod challenge;
pub mod evidence;
pub mod history;
pub mod note;
pub mod penalty;
pub mod result;
pub mod ruling;
pub mod sheet;
pub mod view;
pub mod voidable;
