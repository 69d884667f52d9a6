//! Pure game and tournament rules: no I/O, no SQL, no clock.

pub mod bans;
pub mod binding;
pub mod bounds;
pub mod card_name;
pub mod card_search;
pub mod cardref;
pub mod challenge;
pub mod clock;
pub mod clock_stats;
pub mod cost;
pub mod curation;
pub mod duplicate;
pub mod library;
pub mod movement;
pub mod names;
pub mod note_sheet;
pub mod penalty;
pub mod result;
pub mod rules;
pub mod settings;
pub mod simulate;
pub mod standings;
pub mod template;
pub mod text;
pub mod topic;
pub mod words;
