//! The server's kit: what every handler module stands on, and nothing that names a route's own work. Its rooms,
//! from the bottom up (each uses only rooms above it in this list; `tests/cli/layering.rs` checks no circle):
//!
//! - [`error`]: errors to answers ([`error::ApiError`]: status, words, `Retry-After` and facts typed);
//! - [`route`]: each route's row put on its request, and the request log; [`once`]: a write's key, the moment
//!   it may claim, and the one `{"ok", "summary"}` answer; [`limit`]: wrong tries counted by target, and the
//!   pace of players' writes; [`jobs`]: the event set up from the browser and long work as jobs; [`live`]: the
//!   live updates' fan-out and the open files their streams hold; [`body`]: bodies read once and strictly;
//! - [`state`]: what every request shares ([`state::App`]), its connection to the event file ([`state::Db`]),
//!   and what the server keeps in memory;
//! - [`auth`]: judges' logins and guarded tries; [`extract`]: a player's request, a write's fields, an upload;
//!   [`cache`]: ETags made by the handlers, 304s, compression;
//! - [`page`]: drawing a page and the pages every room answers with, a long list's window;
//! - [`http`]: what wraps every request, and the glue to the second laptop's room (`crate::replica`);
//! - [`write`](mod@write): the one write runner, for judges and for players.
//!
//! The kit uses no handler module; handler modules use the kit, `ops`, `render` and `domain`, never each other.

pub mod auth;
pub mod body;
pub mod cache;
pub mod error;
pub mod extract;
pub mod http;
pub mod jobs;
pub mod limit;
pub mod live;
pub mod once;
pub mod page;
pub mod route;
pub mod state;
pub mod write;
