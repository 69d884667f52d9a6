//! The server's kit: what every handler module stands on, and nothing that names a route's own work. Its thirteen
//! rooms, from the bottom up (each uses only rooms above it in this list; `tests/cli/layering.rs` checks no
//! circle):
//!
//! - [`request`]: what is true of a request, its route's row ([`request::Route`]) and who asked, and its one
//!   answer, refused ([`request::ApiError`]: status, words, `Retry-After` and facts typed) or done
//!   ([`request::Answer`]); [`back`]: where a form goes back to, naming the entry it wrote; [`jobs`]: the event set up from the browser, long work's progress and numbers (a
//!   job under way holds its key), and the files they take, written by a blocking thread; [`body`]: bodies read
//!   once and strictly; [`limit`]: wrong tries counted by target and the pace of writes per player and per judge;
//! - [`streams`]: the live streams held, by the open-file limit and per address;
//! - [`state`]: what every request shares ([`state::App`]), the request's connection to the event file
//!   ([`state::Db`]), the live updates' fan-out, and what the server keeps in memory;
//! - [`door`]: the one door every write of a request passes (the transaction, then the standby settles it);
//! - [`drawn`]: pages and prints drawn in the blocking pool within the request's deadline, their tags, and the
//!   drawn pages kept with their compressed bytes;
//! - [`auth`]: judges' logins and sessions, one guarded try at a secret, the device cookie;
//! - [`player`]: a player's request, the seat it names, the guarded try at their code, the pace of writes;
//! - [`extract`]: a write's fields with its key and moment, the query, path and form extractors, and the router
//!   that sends a player's write to the player's handler;
//! - [`page`]: a page drawn (once per tag), the pages every room answers with, a long list's window;
//! - [`write`](mod@write): the one write runner, for judges, for players and for jobs (begun with their key: a
//!   repeat answers the first job; run as tasks through the door), and the standby's word in its answer.
//!
//! One idempotency mechanism: a key is the event file's (`crate::store::keys`), recorded with its write, a job's
//! too; nothing in the kit keeps keys of its own (`tests/cli/layering_door.rs`).
//!
//! The kit uses no handler module and nothing of the router's frame: what wraps every request is
//! `web::layers`, the second laptop's gate and watchers `web::laptops`. Handler modules use the kit, `ops`,
//! `render` and `domain`, never each other nor the frame.

pub mod auth;
pub mod back;
pub mod body;
pub mod door;
pub mod drawn;
pub mod extract;
pub mod jobs;
pub mod limit;
pub mod page;
pub mod player;
pub mod request;
pub mod state;
pub mod streams;
pub mod write;
