//! The demo's simulated players: a seeded script of what happens at a table (decisions, declarations,
//! the end of the game). Pure: the demo turns the script into real commands.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seat at the table, as the script names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Seat A.
    A,
    /// Seat B.
    B,
}

impl Side {
    /// The other seat.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

/// One timed decision: who, when (seconds after the round started) and how long (milliseconds).
#[derive(Debug, Clone, PartialEq)]
pub struct TimedDecision {
    /// Who decided.
    pub side: Side,
    /// Seconds after the round's start.
    pub at_secs: i64,
    /// How long it took.
    pub millis: i64,
}

/// How a simulated game ends.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// A player's life reached 0 (the winner's life left).
    Life { winner: Side, winner_life: i64 },
    /// A player conceded.
    Concession { winner: Side },
    /// Time was called: the life totals decide (equal is a draw).
    Time { life_a: i64, life_b: i64 },
}

/// The script of one game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameScript {
    /// Timed decisions, in order.
    pub decisions: Vec<TimedDecision>,
    /// How many templates each player declares (A, B).
    pub declarations: (usize, usize),
    /// Minutes after the start when the game ends (ignored for `Ending::Time`).
    pub minutes: i64,
    /// The ending.
    pub ending: Ending,
}

/// A seeded source of simulated tables.
pub struct Simulator {
    rng: ChaCha8Rng,
}

impl Simulator {
    /// A simulator for a seed (same seed, same event).
    pub fn new(seed: u64) -> Simulator {
        Simulator { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// A number in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.rng.random_range(0..n) }
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.rng.random_range(0..100) < percent
    }

    /// The script of one game in a round of `round_minutes`, with `decisions` timed decisions (the
    /// decision limit is `limit_secs`; about one decision in twenty-five runs over it).
    pub fn game(&mut self, round_minutes: i64, decisions: usize, limit_secs: i64) -> GameScript {
        let minutes = self.rng.random_range((round_minutes / 3).max(1)..=round_minutes.max(2));
        let ending = if minutes >= round_minutes - 2 {
            let life_a = self.rng.random_range(1..=20);
            let life_b = if self.chance(10) { life_a } else { self.rng.random_range(1..=20) };
            Ending::Time { life_a, life_b }
        } else if self.chance(12) {
            Ending::Concession { winner: self.side() }
        } else {
            Ending::Life { winner: self.side(), winner_life: self.rng.random_range(1..=20) }
        };
        let span = (minutes.min(round_minutes) * 60 - 60).max(60);
        let mut side = self.side();
        let mut at = 30;
        let mut timed = Vec::with_capacity(decisions);
        for _ in 0..decisions {
            let over = self.chance(4);
            let millis = if over {
                (limit_secs * 1000) + self.rng.random_range(2_000..20_000)
            } else {
                self.rng.random_range(3_000..(limit_secs * 1000).max(4_000) * 4 / 5)
            };
            timed.push(TimedDecision { side, at_secs: at, millis });
            at += (millis / 1000) + self.rng.random_range(20..(span / decisions.max(1) as i64).max(21));
            side = side.other();
        }
        let declarations = (self.rng.random_range(1..=3), self.rng.random_range(1..=3));
        GameScript { decisions: timed, declarations, minutes, ending }
    }

    fn side(&mut self) -> Side {
        if self.chance(50) { Side::A } else { Side::B }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_games() {
        let (mut a, mut b) = (Simulator::new(7), Simulator::new(7));
        for _ in 0..20 {
            assert_eq!(a.game(50, 4, 45), b.game(50, 4, 45));
        }
    }

    #[test]
    fn games_are_plausible() {
        let mut sim = Simulator::new(1);
        let mut at_time = 0;
        for _ in 0..500 {
            let g = sim.game(50, 6, 45);
            assert!(g.minutes >= 16 && g.minutes <= 50);
            assert_eq!(g.decisions.len(), 6);
            assert!(g.decisions.windows(2).all(|w| w[0].at_secs < w[1].at_secs && w[0].side != w[1].side));
            assert!(g.decisions.iter().all(|d| d.millis > 0 && d.at_secs + d.millis / 1000 < 50 * 60 + 300));
            assert!((1..=3).contains(&g.declarations.0) && (1..=3).contains(&g.declarations.1));
            match g.ending {
                Ending::Time { life_a, life_b } => {
                    at_time += 1;
                    assert!(life_a > 0 && life_b > 0);
                }
                Ending::Life { winner_life, .. } => assert!(winner_life > 0),
                Ending::Concession { .. } => {}
            }
        }
        assert!(at_time > 10 && at_time < 200, "some games go to time: {at_time}");
    }
}
