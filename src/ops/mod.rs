//! Judge actions: rule checks and store calls, one function per action, with typed inputs and outcomes
//! (no printing). `commands/` parses, calls these and renders.

pub mod corrections;
