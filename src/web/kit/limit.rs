//! Counting wrong tries: wrong PINs per judge's name and wrong player codes per table, each counted per address
//! and across the addresses that sent them, answered 429 for a while once there are too many.
//!
//! The rules (the same for a name and for a table, with their own numbers in [`Rules`]):
//! - a try is counted *before* it is checked ([`Limiter::start`]) and taken back when it was right or was never
//!   checked ([`Limiter::right`], [`Limiter::unchecked`]), so that many tries at once are counted at once;
//! - an address that sent no wrong try for a key in the last [`FRESH`] is never held back for that key: one
//!   phone's wrong tries never lock out the judge's own phone or another player's;
//! - an address that did (a *guessing* address) is held back once it sent [`Rules::per_address`] wrong tries in
//!   [`FRESH`], or once every guessing address together sent [`Rules::per_hour`] in the last hour;
//! - a right try clears that address's count (never the hour's: the owner logging in must not give a guesser
//!   more tries).
//!
//! What that allows an attacker with [`ADDRESSES`] addresses in [`HOURS`] hours, at most:
//! each address is fresh at most once per [`FRESH`] (73 fresh tries in 12 hours, counting both ends), so
//! 50 × 73 = 3,650 tries whatever the caps; every other try is a guessing address's, at most `per_hour` in any
//! hour, so 12 × `per_hour` more.
//! - A judge's PIN: 6 digits, 1,000,000 PINs; 3,650 + 12 × 200 = 6,050 tries: a chance of 0.605 %.
//! - A table's codes: 6 digits each, two players, so two right codes in 1,000,000; 3,650 + 12 × 50 = 4,250
//!   tries: a chance of 2 × 4,250 / 1,000,000 = 0.85 %.
//!
//! Both under 1 %; [`Rules::chance`] computes it and the unit tests check it.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// How long an address's wrong try for a key counts against that address (and makes it a guessing one).
pub const FRESH: Duration = Duration::from_secs(10 * 60);
/// The window of the cap across guessing addresses.
const HOUR: Duration = Duration::from_secs(3600);
/// The attack the numbers are computed for: this many addresses at once ...
pub const ADDRESSES: u64 = 50;
/// ... for this many hours.
pub const HOURS: u64 = 12;

/// How many counts are kept before the stale ones are forgotten.
const KEPT: usize = 10_000;

/// The numbers of one limiter.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Wrong tries one address may send for a key in [`FRESH`].
    pub per_address: usize,
    /// Wrong tries every guessing address together may send for a key in an hour.
    pub per_hour: usize,
    /// How many secrets there are to guess from.
    pub space: u64,
    /// How many of them are right (two codes at a table).
    pub right: u64,
}

impl Rules {
    /// Judges' PINs: six digits.
    pub const PINS: Rules = Rules { per_address: 5, per_hour: 200, space: 1_000_000, right: 1 };
    /// Players' codes at a table: six digits, two players.
    pub const CODES: Rules = Rules { per_address: 5, per_hour: 50, space: 1_000_000, right: 2 };

    /// The most tries [`ADDRESSES`] addresses can make in [`HOURS`] hours.
    pub fn most_tries(&self) -> u64 {
        let fresh_per_address = HOURS * HOUR.as_secs() / FRESH.as_secs() + 1;
        ADDRESSES * fresh_per_address + HOURS * self.per_hour as u64
    }

    /// The chance that those tries find a right secret (at most; tries of one secret are never repeated).
    pub fn chance(&self) -> f64 {
        (self.most_tries() * self.right) as f64 / self.space as f64
    }
}

/// Wrong-try counts of one kind (PINs, or players' codes).
#[derive(Debug)]
pub struct Limiter {
    rules: Rules,
    /// Wrong tries (and tries being checked) per address and key, in the last [`FRESH`].
    by_addr: HashMap<(IpAddr, String), VecDeque<Instant>>,
    /// Wrong tries of guessing addresses per key, in the last hour.
    by_key: HashMap<String, VecDeque<Instant>>,
}

impl Default for Limiter {
    fn default() -> Self {
        Limiter::new(Rules::PINS)
    }
}

/// A try counted by [`Limiter::start`], to settle with [`Limiter::right`] or [`Limiter::unchecked`] (a wrong one
/// just stays counted).
#[derive(Debug, Clone)]
pub struct Try {
    addr: IpAddr,
    key: String,
    at: Instant,
}

fn forget_before(q: &mut VecDeque<Instant>, now: Instant, window: Duration) {
    while q.front().is_some_and(|t| now.duration_since(*t) >= window) {
        q.pop_front();
    }
}

fn wait_for(q: &VecDeque<Instant>, now: Instant, window: Duration) -> u64 {
    q.front().map_or(1, |first| window.saturating_sub(now.duration_since(*first)).as_secs().max(1))
}

impl Limiter {
    /// A limiter with these numbers.
    pub fn new(rules: Rules) -> Limiter {
        Limiter { rules, by_addr: HashMap::new(), by_key: HashMap::new() }
    }

    /// Counts a try from `addr` for `key` before it is checked: `Err(seconds to wait)` when the address is held
    /// back (nothing counted), else the counted try.
    pub fn start(&mut self, addr: IpAddr, key: &str, now: Instant) -> Result<Try, u64> {
        self.forget(now);
        let slot = (addr, key.to_string());
        let mine = self.by_addr.entry(slot).or_default();
        forget_before(mine, now, FRESH);
        let guessing = !mine.is_empty();
        if guessing {
            if mine.len() >= self.rules.per_address {
                return Err(wait_for(mine, now, FRESH));
            }
            if let Some(all) = self.by_key.get_mut(key) {
                forget_before(all, now, HOUR);
                if all.len() >= self.rules.per_hour {
                    return Err(wait_for(all, now, HOUR));
                }
            }
        }
        mine.push_back(now);
        self.by_key.entry(key.to_string()).or_default().push_back(now);
        Ok(Try { addr, key: key.to_string(), at: now })
    }

    /// The try was right: it and its address's count for the key are cleared.
    pub fn right(&mut self, t: Try) {
        self.by_addr.remove(&(t.addr, t.key.clone()));
        self.take_back_hour(&t);
    }

    /// The try was never checked (the server was too busy, the input was refused before): it is taken back.
    pub fn unchecked(&mut self, t: Try) {
        if let Some(mine) = self.by_addr.get_mut(&(t.addr, t.key.clone()))
            && let Some(i) = mine.iter().rposition(|at| *at == t.at)
        {
            mine.remove(i);
        }
        self.take_back_hour(&t);
    }

    fn take_back_hour(&mut self, t: &Try) {
        if let Some(all) = self.by_key.get_mut(&t.key)
            && let Some(i) = all.iter().rposition(|at| *at == t.at)
        {
            all.remove(i);
        }
    }

    /// Counts that no longer hold anything back are forgotten once many are kept, so made-up names cannot fill
    /// the server's memory.
    fn forget(&mut self, now: Instant) {
        if self.by_addr.len() + self.by_key.len() > KEPT {
            self.by_addr.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < FRESH));
            self.by_key.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < HOUR));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(i: u8) -> IpAddr {
        [10, 0, 0, i].into()
    }

    fn wrong(l: &mut Limiter, a: IpAddr, key: &str, at: Instant) -> Result<(), u64> {
        l.start(a, key, at).map(|_| ())
    }

    #[test]
    fn the_chance_of_guessing_a_pin_or_a_tables_code_in_12_hours_from_50_addresses_is_under_1_percent() {
        assert_eq!(Rules::PINS.most_tries(), 50 * 73 + 12 * 200);
        assert_eq!(Rules::PINS.most_tries(), 6_050);
        assert!((Rules::PINS.chance() - 0.00605).abs() < 1e-9, "{}", Rules::PINS.chance());
        assert_eq!(Rules::CODES.most_tries(), 4_250);
        assert!((Rules::CODES.chance() - 0.0085).abs() < 1e-9, "{}", Rules::CODES.chance());
        assert!(Rules::PINS.chance() < 0.01 && Rules::CODES.chance() < 0.01);
    }

    #[test]
    fn the_numbers_hold_against_50_addresses_trying_as_fast_as_allowed_for_12_hours() {
        for rules in [Rules::PINS, Rules::CODES] {
            let mut l = Limiter::new(rules);
            let t0 = Instant::now();
            let mut tries = 0u64;
            // Every address tries every 10 s for 12 hours (a try a second changes nothing: held back is held back).
            let mut s = 0;
            while s <= HOURS * 3600 {
                for i in 0..ADDRESSES as u8 {
                    if l.start(addr(i), "kim", t0 + Duration::from_secs(s)).is_ok() {
                        tries += 1;
                    }
                }
                s += 10;
            }
            assert!(tries <= rules.most_tries(), "{tries} > {}", rules.most_tries());
            assert!((tries * rules.right) as f64 / (rules.space as f64) < 0.01);
        }
    }

    #[test]
    fn a_guessing_address_is_held_back_after_five_wrong_tries_for_ten_minutes() {
        let mut l = Limiter::new(Rules::PINS);
        let t0 = Instant::now();
        for _ in 0..5 {
            assert_eq!(wrong(&mut l, addr(9), "kim", t0), Ok(()));
        }
        assert_eq!(wrong(&mut l, addr(9), "kim", t0), Err(600));
        assert!(wrong(&mut l, addr(9), "kim", t0 + Duration::from_secs(599)).is_err());
        assert_eq!(wrong(&mut l, addr(9), "kim", t0 + FRESH), Ok(()));
    }

    #[test]
    fn another_address_without_wrong_tries_is_never_held_back() {
        let mut l = Limiter::new(Rules::PINS);
        let t0 = Instant::now();
        // 50 addresses exhaust the hour's cap for the name.
        for s in 0..3600 {
            for i in 0..50 {
                let _ = wrong(&mut l, addr(i), "kim", t0 + Duration::from_secs(s));
            }
        }
        assert!(wrong(&mut l, addr(3), "kim", t0 + Duration::from_secs(3600)).is_err(), "guessers stay limited");
        let judge = l.start(addr(200), "kim", t0 + Duration::from_secs(3600)).expect("the judge's phone tries");
        l.right(judge);
        assert!(l.start(addr(200), "kim", t0 + Duration::from_secs(3601)).is_ok(), "and again");
    }

    #[test]
    fn one_wrong_try_a_minute_from_one_phone_never_stops_another_phones_right_pin() {
        let mut l = Limiter::new(Rules::PINS);
        let t0 = Instant::now();
        for m in 0..160 {
            let at = t0 + Duration::from_secs(m * 60);
            let _ = wrong(&mut l, addr(1), "kim", at);
            let t = l.start(addr(2), "kim", at + Duration::from_secs(1)).expect("the right PIN is checked");
            l.right(t);
        }
    }

    #[test]
    fn a_right_try_clears_its_address_and_an_unchecked_one_is_taken_back() {
        let mut l = Limiter::new(Rules::CODES);
        let t0 = Instant::now();
        for _ in 0..4 {
            wrong(&mut l, addr(1), "table 1", t0).expect("counted");
        }
        let t = l.start(addr(1), "table 1", t0).expect("fifth");
        l.unchecked(t);
        let t = l.start(addr(1), "table 1", t0).expect("taken back, so tried again");
        l.right(t);
        for _ in 0..5 {
            wrong(&mut l, addr(1), "table 1", t0).expect("cleared by the right code");
        }
        assert!(wrong(&mut l, addr(1), "table 1", t0).is_err());
        assert!(wrong(&mut l, addr(1), "table 2", t0).is_ok(), "another table is another count");
    }
}
