//! One-time login links (`judge link NAME`): a judge on a new phone logs in once without typing the PIN, from a
//! link or its QR code printed at the event's computer. The token is 128 random bits kept only as its hash, ends
//! after a few minutes and works once; typed nowhere, it needs no budget of wrong tries, so it logs a head judge in
//! even while guessers have spent the PIN's budget. The PIN stays as it is.

use super::{Login, Role, find, new_login, random_hex, token_hash};
use crate::domain::names;
use crate::error::{Error, Result};
use crate::store::{Actor, Change, Store, judges};
use crate::time::stamp;
use chrono::Duration;

/// How long a link lasts unless said otherwise.
pub const LINK_MINUTES: i64 = 10;

/// The longest a link may last (a day).
pub const MAX_LINK_MINUTES: i64 = 24 * 60;

/// A new one-time login link, to show once.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LoginLink {
    /// The judge's name.
    pub name: String,
    /// The judge's role.
    pub role: Role,
    /// The link's token (32 hex digits), never stored in clear.
    pub token: String,
    /// When it stops working (RFC 3339).
    pub expires: String,
    /// Its lifetime in minutes.
    pub minutes: i64,
}

/// `judge link NAME`: a one-time login link for the judge, working for `minutes`.
pub fn make_link(store: &mut Store, actor: &Actor, name: &str, minutes: i64) -> Result<LoginLink> {
    if !(1..=MAX_LINK_MINUTES).contains(&minutes) {
        return Err(Error::bad_input(format!(
            "a login link lasts 1 to {MAX_LINK_MINUTES} minutes, not {minutes}: give a number in that range"
        )));
    }
    let token = random_hex(16);
    let expires = stamp(actor.at + Duration::minutes(minutes));
    store.write(actor, |tx| {
        let j = find(tx, name)?;
        judges::insert_link(tx, &token_hash(&token), j.id, &stamp(actor.at), &expires)?;
        let until = actor.at + Duration::minutes(minutes);
        let out = LoginLink {
            name: j.name.clone(),
            role: Role::from_word(&j.role),
            token: token.clone(),
            expires: expires.clone(),
            minutes,
        };
        let what = format!("judge {}: a one-time login link, until {}", j.name, crate::time::clock_time(until));
        Ok((out, Change::new(what)))
    })
}

/// Logs a judge in with a one-time link: a new session, the link used up, in one transaction. A wrong, used or
/// ended link changes nothing.
pub fn login_by_link(store: &mut Store, actor: &Actor, name: &str, token: &str) -> Result<Login> {
    let key = names::key(name);
    let hash = token_hash(token);
    let wrong = || {
        Error::unauthorized(
            "this login link is wrong, used or ended: ask for a new one at the event's computer, or log in with your PIN",
        )
    };
    // The audit names the judge who logs in, as a login with the PIN does.
    let who = store.read(|conn| judges::by_key(conn, &key))?.ok_or_else(wrong)?;
    let actor = Actor { judge: who.name.clone(), ..actor.clone() };
    store.write(&actor, |tx| {
        let Some(judge) = judges::take_link(tx, &hash, &key, &stamp(actor.at))? else {
            return Err(wrong());
        };
        let (login, csrf, session, expires) = new_login(&judge, &actor);
        judges::start_session(tx, &token_hash(&session), judge.id, &csrf, &stamp(actor.at), &expires)?;
        Ok((login, Change::new(format!("judge {} logged in with a one-time link", judge.name))))
    })
}
