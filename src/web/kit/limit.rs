//! Wrong tries counted by target ([`Guesses`], [`Rules`]), and the pace of players' writes ([`Pace`]).
//!
//! Counting wrong tries by target, not by address: every secret a phone can guess has a budget of wrong tries
//! per target over every address together, so that no number of addresses finds it in a day.
//!
//! The targets: a judge (their PIN, at a login); a player (their code, tried at their table, where a try counts
//! against the player of the seat it names, or of the `/me` page it came from, or else both players seated there;
//! or at check-in, where it counts against the one player the name finds; see `ops::guesses::at_table`). A
//! name that finds nobody or several players (or no judge) has no target: its tries count per address only, and
//! are answered as a wrong code (or PIN), so that names cannot be probed.
//!
//! The rules (the numbers in [`Rules`]):
//! - each target's count drains at [`Rules::per_hour`] and may hold [`Rules::burst`] wrong tries: a try that
//!   would overflow it waits (429 with `Retry-After`), whatever address sent it; the count is kept in the event
//!   file (`guess_budget`), so neither a restart nor a failover empties it, and a new PIN or code starts it afresh;
//! - a device that succeeded for the target before (its device cookie, recorded in `guess_device` at its first
//!   success; for a judge, a login from it) is never held back by that target's budget: only by its own wrong
//!   tries. It is trusted for that target only: a right code makes it known for the code's own player, never the
//!   opponent, and the file keeps the newest [`DEVICES`] a target (so the twelve below are a bound, not a guess);
//! - every address (or known device) is also held back once it sent [`Rules::per_address`] wrong tries for the
//!   target in [`FRESH`] (a typing phone waits, another phone does not); counted under the target's secret of now,
//!   so a new PIN or code starts every address's count afresh as it starts the budget (`ops::guesses::mark`);
//! - a try is counted *before* it is checked (in memory, while it runs), so that many tries at once are counted
//!   at once; a wrong one is then written to the file, a right or unchecked one is let go.
//!
//! What that allows in [`HOURS`] hours, at most, from any number of addresses: the budget's `burst + 12 ×
//! per_hour` tries, and each device that succeeded for the target [`Rules::device_tries`] more (its own five per
//! ten minutes: 73 windows × 5 = 365).
//! - A judge's PIN: 6 digits, 1,000,000 PINs; 100 + 12 × 500 = 6,100 tries from unknown devices: 0.61 %; with
//!   four phones of the judge's own, 6,100 + 4 × 365 = 7,560: 0.756 %.
//! - A player's code: 6 digits; 100 + 12 × 250 = 3,100 tries from unknown devices at their tables and at
//!   check-in together: 0.31 %; with twelve devices that signed in at their tables (their phone and a table's
//!   device each round), 3,100 + 12 × 365 = 7,480: 0.748 %. Either code of a table (two right codes) from unknown
//!   devices: 2 × 3,100 / 1,000,000 = 0.62 %.
//!
//! All under 1 %; [`Rules::chance`] computes them and the unit tests check them.
//!
//! The pace of writes ([`Pace`]): per player (the player the credential names) and per judge, never per table, so
//! that nobody's writes hold back another's; clock taps have their own bucket under the same sender ([`Rate`]:
//! a player's writes 60 at once then one a second, their taps 30 at once then two a second; a judge's writes and
//! taps 120 at once then ten a second each). Beyond that a write is answered 429 with `Retry-After` (the page keeps
//! it and sends it again; a try held back claims no moment). Kept in memory: a restart only gives a new burst.

use crate::error::Result;
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// How long a wrong try counts against the address (or known device) that sent it.
pub const FRESH: Duration = Duration::from_secs(10 * 60);
/// The attack the numbers are computed for: this many hours.
pub const HOURS: u64 = 12;

/// How many devices a target (a player, a judge) is known on: a device that succeeds for them beyond that makes
/// the file forget the oldest (see [`crate::store::guesses::know`]).
pub const DEVICES: usize = crate::store::guesses::DEVICES;

/// How many per-address counts are kept before the stale ones are forgotten.
const KEPT: usize = 10_000;

/// The numbers of one kind of secret.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Wrong tries a target's budget holds.
    pub burst: u64,
    /// Wrong tries a target's budget drains an hour.
    pub per_hour: u64,
    /// Wrong tries one address (or device) may send for a target in [`FRESH`].
    pub per_address: usize,
    /// How many secrets there are to guess from.
    pub space: u64,
}

impl Rules {
    /// Judges' PINs: six digits.
    pub const PINS: Rules = Rules { burst: 100, per_hour: 500, per_address: 5, space: 1_000_000 };
    /// Players' codes: six digits.
    pub const CODES: Rules = Rules { burst: 100, per_hour: 250, per_address: 5, space: 1_000_000 };

    /// The most wrong tries unknown devices together make for one target in [`HOURS`] hours.
    pub fn most_tries(&self) -> u64 {
        self.burst + HOURS * self.per_hour
    }

    /// The most wrong tries one device that succeeded for the target makes in [`HOURS`] hours.
    pub fn device_tries(&self) -> u64 {
        let windows = HOURS * 3600 / FRESH.as_secs() + 1;
        windows * self.per_address as u64
    }

    /// The chance of finding one of `right` secrets of a target in [`HOURS`] hours, with `devices` devices that
    /// succeeded for it trying too (at most; a try is never repeated).
    pub fn chance(&self, right: u64, devices: u64) -> f64 {
        ((self.most_tries() + devices * self.device_tries()) * right) as f64 / self.space as f64
    }

    /// A target's count at `now_ms` from what the file holds (drained since its last wrong try).
    pub fn drained(&self, kept: Option<(f64, i64)>, now_ms: i64) -> f64 {
        let Some((level, at)) = kept else { return 0.0 };
        let hours = (now_ms - at).max(0) as f64 / 3_600_000.0;
        (level - hours * self.per_hour as f64).max(0.0)
    }

    /// The count after one more wrong try at `now_ms`.
    pub fn after_wrong(&self, kept: Option<(f64, i64)>, now_ms: i64) -> (f64, i64) {
        (self.drained(kept, now_ms) + 1.0, now_ms)
    }

    /// `Some(seconds to wait)` when one more try would overflow a count of `level`.
    pub fn wait(&self, level: f64) -> Option<u64> {
        let over = level + 1.0 - self.burst as f64;
        (over > 0.0).then(|| ((over * 3600.0 / self.per_hour as f64).ceil() as u64).max(1))
    }
}

/// Wrong-try counts of one kind (PINs, or players' codes) held in memory: per address (or known device) and
/// target, the tries being checked per target, and (on a standby, whose file takes no writes) the counts of
/// the wrong tries made here.
#[derive(Debug)]
pub struct Guesses {
    /// The numbers.
    pub rules: Rules,
    /// Wrong tries (and tries being checked) per sender and key, in the last [`FRESH`].
    by_sender: HashMap<(String, String), VecDeque<Instant>>,
    /// Tries being checked, per target.
    running: HashMap<String, u32>,
    /// On a standby: the counts of the wrong tries made here (its file takes no writes).
    here: HashMap<String, (f64, i64)>,
    /// The devices recorded for each target (the newest [`DEVICES`], as in the file), oldest first.
    known: HashMap<String, VecDeque<String>>,
}

/// A try counted by [`Guesses::start`], to settle with [`Guesses::settle`].
#[derive(Debug, Clone)]
pub struct Try {
    sender: String,
    key: String,
    at: Instant,
    targets: Vec<String>,
}

impl Try {
    /// The targets it counted against (none when it was held back by the budget only per address).
    pub fn targets(&self) -> &[String] {
        &self.targets
    }
}

/// How a try ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The secret was right.
    Right,
    /// The secret was wrong (the wrong try is then written to the file).
    Wrong,
    /// It was never checked, or refused for something else.
    Unchecked,
}

fn forget_before(q: &mut VecDeque<Instant>, now: Instant) {
    while q.front().is_some_and(|t| now.duration_since(*t) >= FRESH) {
        q.pop_front();
    }
}

impl Guesses {
    /// Counts with these numbers.
    pub fn new(rules: Rules) -> Guesses {
        Guesses {
            rules,
            by_sender: HashMap::new(),
            running: HashMap::new(),
            here: HashMap::new(),
            known: HashMap::new(),
        }
    }

    /// Counts a try from `sender` (an address, or a known device) for `key` aimed at `targets`, before it is
    /// checked: `Err(seconds to wait)` when it is held back (nothing counted). `levels` are the targets' counts
    /// from the file; `known` says, target by target, whether the device succeeded for it before: a target's
    /// budget never holds back a device it knows, and always holds back any other (a device trusted for one
    /// player is not trusted for their opponent).
    pub fn start(
        &mut self,
        sender: String,
        key: &str,
        targets: &[String],
        levels: &[Option<(f64, i64)>],
        known: &[bool],
        (now, now_ms): (Instant, i64),
    ) -> Result<Try, u64> {
        self.forget(now);
        let slot = (sender, key.to_string());
        let mine = self.by_sender.entry(slot.clone()).or_default();
        forget_before(mine, now);
        if mine.len() >= self.rules.per_address {
            let first = mine.front().map_or(now, |t| *t);
            return Err(FRESH.saturating_sub(now.duration_since(first)).as_secs().max(1));
        }
        for (i, (t, kept)) in targets.iter().zip(levels).enumerate() {
            if known.get(i).copied().unwrap_or(false) {
                continue;
            }
            let level = self.level(t, *kept, now_ms) + f64::from(self.running.get(t).copied().unwrap_or(0));
            if let Some(secs) = self.rules.wait(level) {
                return Err(secs);
            }
        }
        if let Some(mine) = self.by_sender.get_mut(&slot) {
            mine.push_back(now);
        }
        for t in targets {
            *self.running.entry(t.clone()).or_default() += 1;
        }
        Ok(Try { sender: slot.0, key: slot.1, at: now, targets: targets.to_vec() })
    }

    /// A target's count at `now_ms`: the file's, or on a standby the larger with the tries made here.
    fn level(&self, target: &str, kept: Option<(f64, i64)>, now_ms: i64) -> f64 {
        let file = self.rules.drained(kept, now_ms);
        let here = self.here.get(target).map_or(0.0, |h| self.rules.drained(Some(*h), now_ms));
        file.max(here)
    }

    /// On a standby: counts a wrong try in memory, as the file would.
    pub fn spend_here(&mut self, targets: &[String], levels: &[Option<(f64, i64)>], now_ms: i64) {
        for (t, kept) in targets.iter().zip(levels) {
            let level = self.level(t, *kept, now_ms);
            self.here.insert(t.clone(), (level + 1.0, now_ms));
        }
    }

    /// Settles a try once it was checked (and once a wrong one was written): a right try clears its sender's
    /// count for the key, an unchecked one is taken back, a wrong one stays counted.
    pub fn settle(&mut self, t: &Try, outcome: Outcome) {
        for target in &t.targets {
            if let Some(n) = self.running.get_mut(target) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    self.running.remove(target);
                }
            }
        }
        let slot = (t.sender.clone(), t.key.clone());
        match outcome {
            Outcome::Wrong => {}
            // A right answer clears the sender's wrong tries of its own slot (a table's code: the table and the
            // players aimed at, so one's own seat's never clears the opponent's).
            Outcome::Right => {
                self.by_sender.remove(&slot);
            }
            Outcome::Unchecked => {
                if let Some(mine) = self.by_sender.get_mut(&slot)
                    && let Some(i) = mine.iter().rposition(|at| *at == t.at)
                {
                    mine.remove(i);
                }
            }
        }
    }

    /// Whether this server recorded the device for the target (as far as it knows without reading the file).
    pub fn known_here(&self, target: &str, device: &str) -> bool {
        self.known.get(target).is_some_and(|d| d.iter().any(|k| k == device))
    }

    /// The device is now recorded for the target: the newest [`DEVICES`] a target are kept, as in the file.
    pub fn record(&mut self, target: &str, device: &str) {
        if self.known.len() > KEPT {
            self.known.clear();
        }
        let devices = self.known.entry(target.to_string()).or_default();
        if devices.iter().any(|k| k == device) {
            return;
        }
        devices.push_back(device.to_string());
        while devices.len() > DEVICES {
            devices.pop_front();
        }
    }

    /// Counts that no longer hold anything back are forgotten once many are kept, so made-up names cannot fill
    /// the server's memory.
    fn forget(&mut self, now: Instant) {
        if self.by_sender.len() > KEPT {
            self.by_sender.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < FRESH));
        }
        if self.here.len() > KEPT {
            self.here.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sender(i: u32) -> String {
        format!("10.0.{}.{}", i / 256, i % 256)
    }

    fn targets() -> Vec<String> {
        vec!["judge 1".to_string()]
    }

    /// A try from `i` at `s` seconds, settled as wrong (its count written back to `file` as the server does).
    fn wrong(g: &mut Guesses, file: &mut Option<(f64, i64)>, i: u32, t0: Instant, s: u64) -> Result<(), u64> {
        let now_ms = (s * 1000) as i64;
        let t = g.start(sender(i), "kim", &targets(), &[*file], &[false], (t0 + Duration::from_secs(s), now_ms))?;
        *file = Some(g.rules.after_wrong(*file, now_ms));
        g.settle(&t, Outcome::Wrong);
        Ok(())
    }

    #[test]
    fn the_chance_of_guessing_a_pin_or_a_code_in_12_hours_from_any_number_of_addresses_is_under_1_percent() {
        assert_eq!(Rules::PINS.most_tries(), 100 + 12 * 500);
        assert_eq!(Rules::PINS.device_tries(), 73 * 5);
        assert!((Rules::PINS.chance(1, 0) - 0.0061).abs() < 1e-9, "{}", Rules::PINS.chance(1, 0));
        assert!((Rules::PINS.chance(1, 4) - 0.00756).abs() < 1e-9, "{}", Rules::PINS.chance(1, 4));
        assert_eq!(Rules::CODES.most_tries(), 3_100);
        assert!((Rules::CODES.chance(1, 0) - 0.0031).abs() < 1e-9);
        assert!((Rules::CODES.chance(1, 12) - 0.00748).abs() < 1e-9, "{}", Rules::CODES.chance(1, 12));
        assert!((Rules::CODES.chance(2, 0) - 0.0062).abs() < 1e-9);
        for c in [Rules::PINS.chance(1, 4), Rules::CODES.chance(1, 12), Rules::CODES.chance(2, 0)] {
            assert!(c < 0.01, "{c}");
        }
    }

    #[test]
    fn the_numbers_hold_against_a_new_address_for_every_try_for_12_hours() {
        for rules in [Rules::PINS, Rules::CODES] {
            let mut g = Guesses::new(rules);
            let mut file = None;
            let t0 = Instant::now();
            let mut tries = 0u64;
            let mut i = 0;
            // A hundred new addresses every ten seconds, each trying once.
            let mut s = 0;
            while s <= HOURS * 3600 {
                for _ in 0..100 {
                    i += 1;
                    if wrong(&mut g, &mut file, i, t0, s).is_ok() {
                        tries += 1;
                    }
                }
                s += 10;
            }
            assert!(tries <= rules.most_tries(), "{tries} > {}", rules.most_tries());
            assert!(rules.chance(1, 0) < 0.01);
        }
    }

    #[test]
    fn an_address_is_held_back_after_five_wrong_tries_for_ten_minutes() {
        let mut g = Guesses::new(Rules::PINS);
        let mut file = None;
        let t0 = Instant::now();
        for _ in 0..5 {
            assert_eq!(wrong(&mut g, &mut file, 9, t0, 0), Ok(()));
        }
        assert_eq!(wrong(&mut g, &mut file, 9, t0, 0), Err(600));
        assert!(wrong(&mut g, &mut file, 9, t0, 599).is_err());
        assert_eq!(wrong(&mut g, &mut file, 9, t0, 600), Ok(()));
    }

    #[test]
    fn a_spent_budget_holds_back_new_addresses_but_never_a_known_device() {
        let mut g = Guesses::new(Rules::PINS);
        let mut file = None;
        let t0 = Instant::now();
        for i in 0..100 {
            wrong(&mut g, &mut file, i, t0, 0).expect("within the budget");
        }
        let held = wrong(&mut g, &mut file, 500, t0, 0);
        assert_eq!(held, Err(8), "one try drains in 3600 / 500 = 7.2 s");
        let t = g.start("device ab".into(), "kim", &targets(), &[file], &[true], (t0, 0)).expect("a known device");
        g.settle(&t, Outcome::Right);
        assert!(wrong(&mut g, &mut file, 501, t0, 8).is_ok(), "drained by one try after 8 s");
    }

    #[test]
    fn tries_being_checked_count_against_the_budget_and_an_unchecked_one_is_taken_back() {
        let mut g = Guesses::new(Rules::CODES);
        let t0 = Instant::now();
        let mut running = Vec::new();
        for i in 0..100 {
            running.push(g.start(sender(i), "table 1", &targets(), &[None], &[false], (t0, 0)).expect("counted"));
        }
        assert!(g.start(sender(200), "table 1", &targets(), &[None], &[false], (t0, 0)).is_err(), "all at once");
        for t in &running {
            g.settle(t, Outcome::Unchecked);
        }
        assert!(g.start(sender(200), "table 1", &targets(), &[None], &[false], (t0, 0)).is_ok(), "taken back");
    }

    #[test]
    fn a_standby_counts_its_own_wrong_tries_in_memory() {
        let mut g = Guesses::new(Rules::CODES);
        let t0 = Instant::now();
        for i in 0..100 {
            let t = g.start(sender(i), "table 1", &targets(), &[None], &[false], (t0, 0)).expect("counted");
            g.spend_here(t.targets(), &[None], 0);
            g.settle(&t, Outcome::Wrong);
        }
        assert!(g.start(sender(300), "table 1", &targets(), &[None], &[false], (t0, 0)).is_err());
    }
}

/// How fast one sender's bucket refills: a burst at once, then so many a second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Writes at once.
    pub burst: f64,
    /// Writes a second after the burst.
    pub per_second: f64,
}

impl Rate {
    /// A player's writes (declarations, self-reports, calls...): 60 at once, then one a second.
    pub const PLAYER_WRITES: Rate = Rate { burst: 60.0, per_second: 1.0 };
    /// A player's clock taps (start, stop, hand-over): 30 at once, then two a second.
    pub const PLAYER_TAPS: Rate = Rate { burst: 30.0, per_second: 2.0 };
    /// A judge's writes: 120 at once, then ten a second (a judge's login may stand for a desk entering a venue's
    /// results: `cargo bench -- serve` sends 10 results a second through one).
    pub const JUDGE_WRITES: Rate = Rate { burst: 120.0, per_second: 10.0 };
    /// A judge's clock taps: 120 at once, then ten a second.
    pub const JUDGE_TAPS: Rate = Rate { burst: 120.0, per_second: 10.0 };
    /// Sign-ins from one address (every code typed there, right or wrong): 120 at once, then four a second, so
    /// that a venue behind one NAT signs a round's players in while no address floods the file with devices.
    pub const ADDRESS_SIGN_INS: Rate = Rate { burst: 120.0, per_second: 4.0 };
}

/// Whose writes a bucket paces: the player the credential names (a code by its hash; a table device's sign-in by
/// its player's code) or the judge. Never a table: nobody's writes spend another's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Pacer {
    /// A player, by the hash of their code.
    Player(String),
    /// A judge, by name.
    Judge(String),
    /// An address's sign-ins (the table's sign-in and check-in, whoever's code).
    Address(String),
}

/// Which of a sender's buckets a write takes from: clock taps have their own, so that a flood of other writes
/// never holds back a tap on the decision clock (whose moment is its arrival).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// Any write but a clock tap.
    Writes,
    /// A clock tap (start, stop, hand-over and its `/pass` alias).
    Taps,
}

impl Pacer {
    /// The numbers of this sender's `bucket`.
    pub fn rate(&self, bucket: Bucket) -> Rate {
        match (self, bucket) {
            (Pacer::Player(_), Bucket::Writes) => Rate::PLAYER_WRITES,
            (Pacer::Player(_), Bucket::Taps) => Rate::PLAYER_TAPS,
            (Pacer::Judge(_), Bucket::Writes) => Rate::JUDGE_WRITES,
            (Pacer::Judge(_), Bucket::Taps) => Rate::JUDGE_TAPS,
            (Pacer::Address(_), _) => Rate::ADDRESS_SIGN_INS,
        }
    }
}

/// How many buckets are kept before the full ones are forgotten.
const BUCKETS_KEPT: usize = 10_000;

/// The buckets of writes, by sender and bucket (see [`Pacer`], [`Bucket`]); other budgets (the bounds' guesses)
/// take from their own keys with [`Pace::take_from`]. Kept in memory: a restart only gives a new burst.
#[derive(Debug, Default)]
pub struct Pace {
    buckets: HashMap<String, (f64, Instant, Rate)>,
}

impl Pace {
    /// Takes one write from `who`'s `bucket`, or `Err(seconds to wait)` (nothing taken) when it is empty.
    pub fn take(&mut self, who: &Pacer, bucket: Bucket, now: Instant) -> Result<(), u64> {
        let key = match who {
            Pacer::Player(hash) => format!("player {hash} {bucket:?}"),
            Pacer::Judge(name) => format!("judge {name} {bucket:?}"),
            Pacer::Address(addr) => format!("address {addr} {bucket:?}"),
        };
        self.take_from(&key, who.rate(bucket), now)
    }

    /// Takes one from the bucket `key` filled at `rate`, or `Err(seconds to wait)` (nothing taken) when it is
    /// empty.
    pub fn take_from(&mut self, key: &str, rate: Rate, now: Instant) -> Result<(), u64> {
        if self.buckets.len() > BUCKETS_KEPT {
            self.buckets
                .retain(|_, (left, at, r)| *left + now.duration_since(*at).as_secs_f64() * r.per_second < r.burst);
        }
        let (left, at, _) = self.buckets.get(key).copied().unwrap_or((rate.burst, now, rate));
        let left = (left + now.saturating_duration_since(at).as_secs_f64() * rate.per_second).min(rate.burst);
        if left < 1.0 {
            return Err(((1.0 - left) / rate.per_second).ceil().max(1.0) as u64);
        }
        self.buckets.insert(key.to_string(), (left - 1.0, now, rate));
        Ok(())
    }
}

#[cfg(test)]
mod pace_tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_players_writes_are_a_burst_of_sixty_then_one_a_second_and_their_taps_thirty_then_two() {
        let mut p = Pace::default();
        let t0 = Instant::now();
        let ana = Pacer::Player("a".into());
        for _ in 0..60 {
            assert_eq!(p.take(&ana, Bucket::Writes, t0), Ok(()));
        }
        assert_eq!(p.take(&ana, Bucket::Writes, t0), Err(1));
        assert_eq!(p.take(&ana, Bucket::Writes, t0 + Duration::from_millis(1000)), Ok(()));
        assert_eq!(p.take(&ana, Bucket::Writes, t0 + Duration::from_millis(1100)), Err(1));
        // Her taps have their own bucket: 30 at once, then two a second.
        for _ in 0..30 {
            assert_eq!(p.take(&ana, Bucket::Taps, t0), Ok(()));
        }
        assert_eq!(p.take(&ana, Bucket::Taps, t0), Err(1));
        assert_eq!(p.take(&ana, Bucket::Taps, t0 + Duration::from_millis(500)), Ok(()));
        // Her opponent's writes and taps are his own, at the same table.
        let bo = Pacer::Player("b".into());
        assert_eq!(p.take(&bo, Bucket::Writes, t0), Ok(()));
        assert_eq!(p.take(&bo, Bucket::Taps, t0), Ok(()));
    }

    #[test]
    fn a_judges_writes_are_a_burst_of_a_hundred_and_twenty_then_ten_a_second() {
        let mut p = Pace::default();
        let t0 = Instant::now();
        let kim = Pacer::Judge("Kim".into());
        for _ in 0..120 {
            assert_eq!(p.take(&kim, Bucket::Writes, t0), Ok(()));
        }
        assert_eq!(p.take(&kim, Bucket::Writes, t0), Err(1));
        assert_eq!(p.take(&kim, Bucket::Writes, t0 + Duration::from_millis(100)), Ok(()));
        assert_eq!(p.take(&kim, Bucket::Writes, t0 + Duration::from_millis(150)), Err(1));
        assert_eq!(p.take(&kim, Bucket::Taps, t0), Ok(()), "taps have their own bucket");
        assert_eq!(p.take(&Pacer::Judge("Lee".into()), Bucket::Writes, t0), Ok(()), "another judge has their own");
    }
}
