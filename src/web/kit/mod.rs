//! The server's kit: what every handler module stands on, and nothing that names a route's own work.
//!
//! - [`state`]: the app state every request shares ([`state::App`], [`state::Shared`]);
//! - [`store`]: the event file opened once per request ([`store::Db`]), shared by the extractors and the handler;
//! - [`error`]: errors to responses ([`error::ApiError`], the one call of `Error::web_message`);
//! - [`auth`], [`player`], [`payload`]: the judge, player and payload extractors (and the query, path and form
//!   ones whose refusals are worded like every other);
//! - [`strict`]: bodies that name only their route's fields, each once;
//! - [`write`]: the one write runner, for judges and for players; [`answer`]: the one `{"ok", "summary"}` answer;
//!   [`once`]: a write's key, so that a repeat records nothing more; [`arrivals`]: when each key first arrived;
//! - [`page`]: drawing a page, and the pages every room may answer with (refused, error, not found);
//! - [`limit`]: wrong PINs and codes counted by target, and [`guess`]: one try guarded so (and the device
//!   cookie); [`pace`]: the pace of players' writes; [`files`]: the open-file limit and the live streams it holds;
//!   [`memory`]: large blocks given back;
//! - [`layers`] and [`log`]: what wraps every request (headers, time limit, error pages, the request log);
//!   [`cache`]: ETags and 304s, compression and the compressed bytes kept; [`window`]: a long list's page;
//! - [`replica`] and [`following`]: the second laptop (the standby's streams and writes waiting for it, or the
//!   primary this server follows as a standby).
//!
//! The kit uses no handler module; handler modules use the kit, `ops`, `render` and `domain`, never each other
//! (`tests/cli/layering.rs` checks both, and that no file of `src/web/` reaches itself through another).

pub mod advertise;
pub mod answer;
pub mod arrivals;
pub mod auth;
pub mod cache;
pub mod done;
pub mod error;
pub mod fanout;
pub mod fields;
pub mod files;
pub mod following;
pub mod guess;
pub mod jobs;
pub mod layers;
pub mod limit;
pub mod log;
pub mod memory;
pub mod once;
pub mod pace;
pub mod page;
pub mod payload;
pub mod player;
pub mod route;
pub mod setup;
pub mod state;
pub mod store;
pub mod strict;
pub mod upload;
pub mod window;
pub mod write;
