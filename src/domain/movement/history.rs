//! What each player has done so far: libraries, opponents, byes, seats, tables.

use super::{Round, Seat};

/// One player's record over the rounds played.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct PlayerHistory {
    /// Libraries used, as (table, seat).
    pub libraries: Vec<(u32, Seat)>,
    /// Opponents met, in order (a rematch appears twice).
    pub opponents: Vec<usize>,
    /// Rounds sat out.
    pub byes: u32,
    /// Games played at seat A.
    pub seats_a: u32,
    /// Games played at seat B.
    pub seats_b: u32,
    /// Tables visited, in order (a revisit appears twice).
    pub tables: Vec<u32>,
}

impl PlayerHistory {
    /// Whether this player already used library (table, seat).
    pub fn used(&self, table: u32, seat: Seat) -> bool {
        self.libraries.contains(&(table, seat))
    }

    /// Whether this player already met `other`.
    pub fn met(&self, other: usize) -> bool {
        self.opponents.contains(&other)
    }

    /// Whether this player already sat at `table`.
    pub fn visited(&self, table: u32) -> bool {
        self.tables.contains(&table)
    }

    /// Seat A games minus seat B games (positive: the player is owed seat B).
    pub fn seat_lean(&self) -> i64 {
        i64::from(self.seats_a) - i64::from(self.seats_b)
    }
}

/// Every player's record; index = player.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct History {
    /// Per player, indexed by player.
    pub players: Vec<PlayerHistory>,
}

impl History {
    /// An empty history for `n_players` players.
    pub fn new(n_players: usize) -> Self {
        History { players: vec![PlayerHistory::default(); n_players] }
    }

    /// The history after `rounds`; grows past `n_players` if a round names a higher index.
    pub fn from_rounds(n_players: usize, rounds: &[Round]) -> Self {
        let mut h = History::new(n_players);
        h.reserve(rounds.len());
        for round in rounds {
            h.record(round);
        }
        h
    }

    /// Room for `rounds` more games for every known player (one allocation each, not one a round).
    pub fn reserve(&mut self, rounds: usize) {
        for p in &mut self.players {
            p.libraries.reserve_exact(rounds);
            p.opponents.reserve_exact(rounds);
            p.tables.reserve_exact(rounds);
        }
    }

    /// One player's record (empty for an unknown player).
    pub fn player(&self, p: usize) -> PlayerHistory {
        self.players.get(p).cloned().unwrap_or_default()
    }

    /// Borrow one player's record, if known.
    pub fn get(&self, p: usize) -> Option<&PlayerHistory> {
        self.players.get(p)
    }

    fn slot(&mut self, p: usize) -> &mut PlayerHistory {
        if p >= self.players.len() {
            self.players.resize(p + 1, PlayerHistory::default());
        }
        &mut self.players[p]
    }

    /// Add one round's games and byes.
    pub fn record(&mut self, round: &Round) {
        for g in &round.games {
            let a = self.slot(g.a);
            a.libraries.push((g.table, Seat::A));
            a.opponents.push(g.b);
            a.seats_a += 1;
            a.tables.push(g.table);
            let b = self.slot(g.b);
            b.libraries.push((g.table, Seat::B));
            b.opponents.push(g.a);
            b.seats_b += 1;
            b.tables.push(g.table);
        }
        for &p in &round.byes {
            self.slot(p).byes += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::movement::Game;

    #[test]
    fn records_games_and_byes() {
        let r = Round { games: vec![Game { table: 2, a: 0, b: 3 }], byes: vec![1] };
        let h = History::from_rounds(2, &[r.clone(), r]);
        assert_eq!(h.players.len(), 4);
        let p0 = h.player(0);
        assert_eq!(p0.libraries, vec![(2, Seat::A), (2, Seat::A)]);
        assert_eq!((p0.seats_a, p0.seats_b, p0.seat_lean()), (2, 0, 2));
        assert!(p0.met(3) && !p0.met(1) && p0.visited(2) && p0.used(2, Seat::A));
        assert!(!p0.used(2, Seat::B));
        assert_eq!(h.player(3).seats_b, 2);
        assert_eq!(h.player(1).byes, 2);
        assert_eq!(h.player(99), PlayerHistory::default());
    }
}
