//! The second laptop's room: what the primary and its standby say to each other over the venue's network.
//!
//! - [`wire`]: the log stream's lines, written by the primary's feed and read by the follower, in one place.
//! - [`follower`]: the standby following its primary (a full copy, then every change applied in order and
//!   acknowledged) until promoted.
//! - [`client`]: the one way to another server (plain HTTP/1.1 with hyper's client: the follower's stream, copy and
//!   acknowledgements, an old primary's `whoami`, the command line's probe before a promotion). No other room opens
//!   a connection to another server (tests/cli/layering.rs checks): `ops` and `web` call this one.
//!
//! The room uses `store`, `error` and `domain`, never a front end nor `ops`. Still outside it: the recording of
//! changesets and the log (`store/changeset.rs`, `store/replication.rs`), the primary's routes (`web/standby.rs`)
//! and the server's state and layers for it (`web/kit/{replica,following,failover,advertise}.rs`).

pub mod client;
pub mod follower;
pub mod wire;
