//! What other command modules still take from here; the match at a table and its helpers now live in
//! `ops::table`.

/// A stored instant as local `HH:MM` for people (see [`crate::ops::table::hhmm`]).
pub fn hhmm(stamp: &str) -> String {
    crate::ops::table::hhmm(stamp)
}
