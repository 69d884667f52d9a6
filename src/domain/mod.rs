//! Pure game and tournament rules: no I/O, no SQL, no clock.

pub mod challenge;
pub mod curation;
pub mod duplicate;
pub mod library;
pub mod library_build;
pub mod library_sealed;
pub mod names;
pub mod penalty;
pub mod result;
pub mod settings;
pub mod standings;
