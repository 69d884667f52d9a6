//! Judge actions and views: rule checks and store calls, one function per action, typed input and
//! outcome (no printing). `commands` parses, calls these, and renders.

pub mod cards;
