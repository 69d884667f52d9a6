//! A player's request ([`Player`]): players act with their table's code instead of a login. [`Player`] is the
//! extractor of a player's request (the phone's address, the request's store, the seat its body names), and
//! [`Player::act`] runs their write as the code's holder, with wrong codes counted against the player the try aims
//! at (the seat's, see [`crate::ops::guesses::at_table`]) as wrong PINs are against the judge; [`pace`] takes a
//! write from its sender's bucket.

use super::auth::{Aim, Device, Kind};
use super::request::Route;
use super::request::Who;
use super::request::{ApiError, HEADER};
use super::state::{Db, FirstArrival, Shared};
use crate::domain::result::Seat;
use crate::error::{Error, Result};
use crate::ops::table::device;
use crate::ops::write_keys::Timed;
use crate::store::{Actor, Store};
use axum::extract::FromRequestParts;
use axum::http::HeaderValue;
use axum::http::request::Parts;
use std::net::SocketAddr;

/// A player's request: where it came from and its store; who it is comes with the code ([`Player::act`]).
#[derive(Clone)]
pub struct Player {
    /// The request's store.
    pub db: Db,
    /// The phone's address.
    pub addr: SocketAddr,
    /// The `Idempotency-Key` header, if sent (see [`key_of`]).
    pub key: Option<HeaderValue>,
    /// The device cookie's hash (see [`super::auth`]).
    pub device: Option<Device>,
    /// The player whose page the write came from (`/me`'s forms say so): only their own code acts there.
    pub page_of: Option<String>,
    /// When that key first arrived (see [`super::state::Arrivals`]).
    pub first: Option<FirstArrival>,
    /// The seat the write names (`"seat": "A"`): its code is checked against that seat's player only.
    pub seat: Option<Seat>,
    /// Whether the request came without a device cookie (the device layer made one for it).
    pub new_device: bool,
    /// The request's route.
    pub route: super::request::Route,
    /// When the request's answer is due (a form's refused page is drawn within it).
    pub deadline: super::drawn::Deadline,
    who: Who,
}

impl FromRequestParts<Shared> for Player {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        let addr = super::request::client_addr(&parts.extensions)?;
        let who = parts.extensions.get::<Who>().cloned().unwrap_or_default();
        let key = parts.headers.get(HEADER).cloned();
        let device = parts.extensions.get::<Device>().cloned();
        let first = parts.extensions.get::<FirstArrival>().copied();
        let new_device = parts.extensions.get::<super::auth::NewDevice>().is_some();
        let route = super::request::Route::on(&parts.extensions);
        let seat = parts.extensions.get::<NamedSeat>().map(|s| s.0);
        let deadline = super::drawn::Deadline::of(&parts.extensions);
        let db = Db::of(&mut parts.extensions, app);
        Ok(Player { db, addr, key, device, new_device, page_of: None, first, seat, route, deadline, who })
    }
}

impl Player {
    /// Runs `work` that checks `code` at `table` under the wrong-code limits (see [`super::limit`]): the try is
    /// aimed at the player of the seat named (or whose page it is; see [`crate::ops::guesses::at_table`]); 429
    /// while that player's budget is spent (unless this device signed in for that player before) or while this
    /// address sent too many wrong codes for the table; a wrong code (403) is counted against the aimed player
    /// only, a right one makes the device known for the code's own player.
    pub async fn guarded<T>(
        &self,
        table: u32,
        code: String,
        work: impl Future<Output = std::result::Result<T, ApiError>>,
    ) -> std::result::Result<T, ApiError> {
        // A typo that is no code's shape (too short, a letter) is answered at once: it spends no one's budget.
        if !code.trim().is_empty() && !crate::ops::players::codes::well_formed(&code) {
            return Err(ApiError::new(
                axum::http::StatusCode::FORBIDDEN,
                "a player's code is six digits (it is on your slip): type all six",
            ));
        }
        let (seat, page_of) = (self.seat, self.page_of.clone());
        let aim = move |conn: &rusqlite::Connection| {
            let a = crate::ops::guesses::at_table(conn, table, seat, page_of.as_deref(), &code)?;
            let proves = a.owner.into_iter().collect();
            // An address's wrong codes are counted per table and aimed player: a right code for one's own seat
            // clears one's own count only, never the count of wrong codes aimed at the opponent.
            let key = format!("table {table} {}", a.targets.join(" "));
            Ok(Aim { key, targets: a.targets, proves, wrong: a.wrong })
        };
        super::auth::guarded(&self.db, Kind::Code, self.addr.ip(), self.device.as_ref(), aim, work).await
    }

    /// [`Player::guarded`] for a check-in: the try is aimed at the one player `name` finds; a name that finds
    /// nobody or several is counted per address only (and answered as a wrong code).
    pub async fn guarded_name<T>(
        &self,
        name: String,
        work: impl Future<Output = std::result::Result<T, ApiError>>,
    ) -> std::result::Result<T, ApiError> {
        let aim = move |conn: &rusqlite::Connection| {
            Ok(match crate::ops::guesses::name(conn, &name)? {
                Some(target) => Aim::at(format!("check-in {target}"), vec![target]),
                None => Aim::at("check-in of no one player".into(), Vec::new()),
            })
        };
        super::auth::guarded(&self.db, Kind::Code, self.addr.ip(), self.device.as_ref(), aim, work).await
    }

    /// A sign-in (a code typed at the table's device or at check-in) is paced as a write of the code's player
    /// and per address ([`super::limit::Rate::ADDRESS_SIGN_INS`]): a right code signed in again and again from
    /// new cookies writes a device a second at most, whatever the number of addresses.
    pub fn paced_sign_in(&self, code: &str) -> std::result::Result<(), ApiError> {
        let app = self.db.app();
        pace(app, &super::limit::Pacer::Address(self.addr.ip().to_string()), self.route)?;
        pace(app, &super::limit::Pacer::Player(super::auth::hash(code.trim())), self.route)
    }

    /// The write came from `name`'s page (`/me?name=`): a code of anyone else is refused there.
    pub fn on_page_of(mut self, name: Option<String>) -> Player {
        self.page_of = name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
        self
    }

    /// The code a table device's write acts with: the `code` sent, or the code of the player its `signin` names
    /// (see [`crate::ops::table::device::sign_in`]; a sign-in that no longer acts is 403, not counted as a wrong
    /// code: its token is not guessed). Both, or neither: 400.
    pub async fn code_of(
        &self,
        table: u32,
        code: Option<String>,
        signin: Option<String>,
    ) -> std::result::Result<String, ApiError> {
        match (code, signin) {
            (Some(code), None) => Ok(code),
            (None, Some(token)) => {
                let read = move |store: &mut Store| {
                    store.read(|conn| crate::ops::table::device::sign_in::code_of_sign_in(conn, table, &token))
                };
                self.db.run(read).await
            }
            (Some(_), Some(_)) => Err(crate::error::Error::bad_input(
                "give either your code or your sign-in on the table's device, not both",
            )
            .into()),
            (None, None) => Err(crate::error::Error::bad_input(
                "sign in on the table's device first (your code, six digits, on your slip)",
            )
            .into()),
        }
    }

    /// The audit's command line of this request's write: its route's name and the fields sent.
    pub fn command(&self, shown: &str) -> String {
        format!("{} {shown}", self.route.name)
    }

    /// Records which player asked, for the request log (`NAME (player)`, as the audit names them).
    pub fn is(&self, name: &str) {
        self.who.is(format!("{name} (player)"));
    }

    /// Runs one write as the holder of `code` at `table`: the actor is the code's player (`NAME (player)`, via
    /// `web ADDRESS`, audited as `command`), in one blocking call on the request's store. The code is looked up
    /// once, here: `f` is handed its [`device::Holder`], which the write's `ops` call takes.
    pub async fn act<T: Send + 'static>(
        &self,
        (table, code): (u32, String),
        command: String,
        f: impl FnOnce(&mut Store, &Actor, device::Holder) -> Result<T> + Send + 'static,
    ) -> std::result::Result<(T, super::door::Settled), ApiError> {
        // Paced per player (the code's, which a table's sign-in acts with too), never per table: an opponent's
        // flood never holds back this player's writes, and clock taps have their own bucket.
        let pacer = super::limit::Pacer::Player(super::auth::hash(code.trim()));
        pace(self.db.app(), &pacer, self.route)?;
        let (addr, who, page_of) = (self.addr, self.who.clone(), self.page_of.clone());
        let tried = code.clone();
        let run = self.db.run_settled(move |store| {
            let holder = store.read(|conn| device::holder(conn, table, &code))?;
            let name = holder.name.clone();
            if let Some(page) = page_of.filter(|p| crate::domain::names::key(p) != crate::domain::names::key(&name)) {
                return Err(crate::error::Error::forbidden(format!(
                    "that is not your code: this is {page}'s page; type your own code here, or open your own page"
                )));
            }
            let actor = super::request::web_actor(&format!("{name} (player)"), &command, addr)?;
            who.is(actor.judge.clone());
            f(store, &actor, holder)
        });
        self.guarded(table, tried, run).await
    }
}

/// Takes one write of `route` from `who`'s bucket (see [`super::limit::Pace`]): 429 with `Retry-After` when it
/// is empty (the page keeps the write and sends it again).
pub fn pace(app: &super::state::App, who: &super::limit::Pacer, route: Route) -> std::result::Result<(), ApiError> {
    use super::limit::Bucket;
    let bucket = match route.at {
        Some(Timed::DecisionStart | Timed::DecisionEnd) => Bucket::Taps,
        _ => Bucket::Writes,
    };
    let paced =
        app.pace.lock().map_err(|_| ApiError::internal("the pace"))?.take(who, bucket, std::time::Instant::now());
    let what = if bucket == Bucket::Taps { "taps" } else { "writes" };
    paced.map_err(|secs| ApiError {
        message: format!("too many {what} at once: wait {secs} s; your phone sends it again by itself"),
        ..ApiError::too_many(what, secs)
    })
}

/// The seat a player's write names (`"seat": "A"` beside the code), taken out of the body by [`by_code`]: the
/// code is checked against that seat's player only (see [`crate::ops::guesses::at_table`]).
#[derive(Debug, Clone, Copy)]
pub struct NamedSeat(pub Seat);

/// Takes `seat` out of a player's JSON body: `"A"` or `"B"` (either case); anything else is 400.
pub fn take_seat(value: &mut serde_json::Value) -> std::result::Result<Option<Seat>, ApiError> {
    let Some(given) = value.as_object_mut().and_then(|m| m.remove("seat")) else { return Ok(None) };
    seat_of(&given).map(Some)
}

/// A seat given in a body: `"A"` or `"B"` (either case), or 400 naming the field.
pub fn seat_of(given: &serde_json::Value) -> std::result::Result<Seat, ApiError> {
    match given.as_str().map(|s| s.trim().to_ascii_uppercase()).as_deref() {
        Some("A") => Ok(Seat::A),
        Some("B") => Ok(Seat::B),
        _ => Err(Error::bad_input(format!("seat: give \"A\" or \"B\" (your side of the table), not {given}")).into()),
    }
}
