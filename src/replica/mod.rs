//! The second laptop's room: what the primary and its standby say to each other over the venue's network.
//!
//! - [`wire`]: the log stream's lines, written by the primary's feed and read by the follower, in one place.
//! - [`follower`]: the standby following its primary (a full copy, then every change applied in order and
//!   acknowledged) until promoted.
//! - [`client`]: the one way to another server (plain HTTP/1.1 with hyper's client: the follower's stream, copy and
//!   acknowledgements, an old primary's `whoami`, the command line's probe before a promotion). No other room opens
//!   a connection to another server (tests/cli/layering.rs checks): `ops` and `web` call this one.
//!
//! - [`report`]: what the standby's terminal says of its following; [`peer`]: what the other laptop says of
//!   itself (`whoami`), asked by a primary whose lease ran out and by its watch for a promotion elsewhere.
//! - [`feed`]: the primary's side of the stream: every change after the one a standby asked for, as it is written.
//! - [`state`]: what the server keeps of the second laptop (the standby's streams and acknowledgements, whom a
//!   standby follows, "a write committed"), and [`failover`]: what pages are told of the standby.
//!
//! The room uses `store`, `error` and `domain`, never a front end nor `ops`. The changesets are recorded, and the
//! log kept, by the store in each write's own transaction (`store/changeset.rs`, `store/replication.rs`: every
//! SQL string stays in `store/`); the server's routes and layers for the second laptop are thin glue over this
//! room (`web/standby.rs`, `web/kit/{following,advertise}.rs`).

/// The target of what the second laptop says on the terminal (`RUST_LOG=mmjudge::laptop=warn` keeps only the
/// loud lines: behind, moved, detached, a standby refused).
pub const LOG: &str = "mmjudge::laptop";

pub mod client;
pub mod failover;
pub mod feed;
pub mod follower;
pub mod peer;
pub mod report;
pub mod state;
pub mod wire;
