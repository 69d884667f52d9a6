//! Pure game and tournament rules: no I/O, no SQL, no clock.

pub mod names;
pub mod settings;
