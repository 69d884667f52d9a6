//! An event started from nothing (`serve --new`): the one-time set-up link's token, its wrong tries counted like
//! wrong PINs, and the gate that answers every other address "set-up is not done" until the event exists.
//!
//! The token is 128 random bits, made at each start, held only in this server's memory and taken by the first
//! request that shows it ([`Setup::take`]); a set-up that fails after taking it gives it back
//! ([`Setup::give_back`]), one that succeeds ends it for good.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Wrong tokens one address may send in [`WINDOW`] (as wrong PINs from one address): a 128-bit token needs no
/// budget over all addresses, so this only keeps one phone from hammering the link.
const WRONG_TRIES: usize = 5;
/// How long a wrong token counts.
const WINDOW: std::time::Duration = std::time::Duration::from_secs(600);

/// What the words of a page or an answer say while the event is not set up.
pub const NOT_SET_UP: &str =
    "this event is not set up yet: open the set-up link shown on the organiser's computer when the server started";

/// The set-up link's state: the token while set-up is not done (none at all for plain `serve`).
#[derive(Debug, Default)]
pub struct Setup {
    token: Mutex<Option<String>>,
    /// Wrong tokens, counted as wrong PINs are.
    tries: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
    /// Set while a request is creating the event (the token taken, not yet given back or spent).
    creating: std::sync::atomic::AtomicBool,
    /// Told once when the set-up is done (the server then starts its live-update watcher).
    pub done: tokio::sync::Notify,
}

/// Why a token was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The event is set up already (or this server serves an event it did not create).
    Done,
    /// Not the token: counted.
    Wrong,
    /// Too many wrong tokens from this address: wait this many seconds.
    Wait(u64),
}

impl Setup {
    /// Starts the set-up: a new token (32 hex digits), the only one that works until set-up is done.
    pub fn offer(&self) -> String {
        let token = crate::ops::judges::random_hex(16);
        if let Ok(mut held) = self.token.lock() {
            *held = Some(token.clone());
        }
        token
    }

    /// Whether the event is still waiting for its set-up (a token offered and not spent).
    pub fn pending(&self) -> bool {
        self.creating.load(std::sync::atomic::Ordering::SeqCst)
            || self.token.lock().map(|t| t.is_some()).unwrap_or(false)
    }

    /// Takes the token if `given` is it (compared in constant time), the try counted for `addr` first: the token
    /// then works no more until given back.
    pub fn take(&self, addr: IpAddr, given: &str) -> Result<String, Refused> {
        let mut tries = self.tries.lock().map_err(|_| Refused::Done)?;
        let now = Instant::now();
        let wrong = tries.entry(addr).or_default();
        while wrong.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
            wrong.pop_front();
        }
        if wrong.len() >= WRONG_TRIES
            && let Some(first) = wrong.front()
        {
            return Err(Refused::Wait(WINDOW.saturating_sub(now.duration_since(*first)).as_secs().max(1)));
        }
        let held = self.token.lock().map_err(|_| Refused::Done)?;
        let Some(want) = held.as_ref() else {
            return Err(Refused::Done);
        };
        let same =
            want.len() == given.len() && want.bytes().zip(given.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0;
        if !same {
            wrong.push_back(now);
            return Err(Refused::Wrong);
        }
        let mut held = held;
        self.creating.store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(held.take().unwrap_or_default())
    }

    /// A set-up that failed after taking the token: the same link works again.
    pub fn give_back(&self, token: String) {
        if let Ok(mut held) = self.token.lock() {
            *held = Some(token);
        }
        self.creating.store(false, std::sync::atomic::Ordering::SeqCst);
    }

    /// The set-up is done: the token is spent for good.
    pub fn spent(&self) {
        self.creating.store(false, std::sync::atomic::Ordering::SeqCst);
        self.done.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_works_once_a_wrong_one_is_counted_and_a_failed_set_up_gives_it_back() {
        let s = Setup::default();
        assert!(!s.pending(), "no token offered (plain serve): every page answers");
        let token = s.offer();
        assert_eq!(token.len(), 32, "128 bits in hex");
        assert_ne!(token, s.offer(), "a new token each start");
        let token = s.offer();
        let addr: IpAddr = [127, 0, 0, 9].into();
        assert_eq!(s.take(addr, "0123"), Err(Refused::Wrong));
        let taken = s.take(addr, &token).expect("the right token");
        assert!(s.pending(), "creating");
        assert_eq!(s.take(addr, &token), Err(Refused::Done), "taken: works no more");
        s.give_back(taken);
        let again = s.take(addr, &token).expect("given back after a failure");
        s.spent();
        drop(again);
        assert!(!s.pending());
        assert_eq!(s.take(addr, &token), Err(Refused::Done));
        let s = Setup::default();
        let token = s.offer();
        for _ in 0..5 {
            assert_eq!(s.take([127, 0, 0, 8].into(), "wrong"), Err(Refused::Wrong));
        }
        assert!(matches!(s.take([127, 0, 0, 8].into(), &token), Err(Refused::Wait(_))), "held back like PINs");
        assert!(s.take([127, 0, 0, 7].into(), &token).is_ok(), "another address is not");
    }
}
