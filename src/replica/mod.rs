//! The second laptop's room: what the primary and its standby say to each other over the venue's network.
//!
//! Today it holds [`client`], the standby's side of the wire (plain HTTP/1.1 requests to the other laptop with
//! hyper's client: the follower's stream, copy and acknowledgements, an old primary's `whoami`, the command line's
//! probe before a promotion). No other room opens a connection to another server (tests/cli/layering.rs checks):
//! `ops` and `web` call this one. The room uses `error` and `domain` only, never a front end.

pub mod client;
