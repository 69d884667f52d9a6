//! Seating Swiss matches at tables: an assignment of matches to tables by levels
//! (clean table, then a revisited table, then a table that turns the seats the wrong way for
//! balance, then a reused library as a last resort),
//! greedy first and repaired by augmenting paths.

use std::collections::{BTreeSet, VecDeque};

use super::history::{History, PlayerHistory};
use super::{Game, Seat, Stay};

const NONE: usize = usize::MAX;

/// Matches seated at tables, with what could not be avoided.
pub(super) struct Seated {
    /// The games, in table order.
    pub games: Vec<Game>,
    /// Pairs (as given) that had to reuse a library.
    pub reused: Vec<(usize, usize)>,
    /// Players who come back to a table.
    pub revisits: Vec<usize>,
}

fn lean(h: &History, p: usize) -> i64 {
    h.get(p).map_or(0, PlayerHistory::seat_lean)
}

fn used(h: &History, p: usize, table: u32, seat: Seat) -> bool {
    h.get(p).is_some_and(|x| x.used(table, seat))
}

fn visited(h: &History, p: usize, table: u32) -> bool {
    h.get(p).is_some_and(|x| x.visited(table))
}

/// Orient a pair: the player leaning to seat A (more A seats) takes B; ties keep the given order.
pub(super) fn orient(h: &History, (p, q): (usize, usize)) -> (usize, usize) {
    if lean(h, p) > lean(h, q) { (q, p) } else { (p, q) }
}

/// 0: a clean table for both; 1: a revisit but a library-safe seating; 2: library-safe only with the
/// seats the other way round (the player owed seat B would sit at A again); 3: a library reused.
fn level(h: &History, (p, q): (usize, usize), t: u32) -> u8 {
    let safe = |(a, b): (usize, usize)| !used(h, a, t, Seat::A) && !used(h, b, t, Seat::B);
    if !safe((p, q)) && !safe((q, p)) {
        3
    } else if lean(h, p) != lean(h, q) && !safe(orient(h, (p, q))) {
        2
    } else if visited(h, p, t) || visited(h, q, t) {
        1
    } else {
        0
    }
}

fn safe_orientations(h: &History, (p, q): (usize, usize), t: u32) -> Vec<(usize, usize)> {
    [(p, q), (q, p)].into_iter().filter(|&(a, b)| !used(h, a, t, Seat::A) && !used(h, b, t, Seat::B)).collect()
}

/// Tables are just numbers 1..=matches (libraries travel with the players).
pub(super) fn seat_travelling(h: &History, pairs: &[(usize, usize)]) -> Seated {
    let games = pairs
        .iter()
        .zip(1u32..)
        .map(|(&pair, table)| {
            let (a, b) = orient(h, pair);
            Game { table, a, b }
        })
        .collect();
    Seated { games, reused: Vec::new(), revisits: Vec::new() }
}

/// Seat `pairs` (in standings order) at tables 1..=tables, never reusing a library when avoidable.
///
/// Only the first `matches + 2 * longest history + 2` tables are considered: a match is kept
/// from at most 2 * history tables, so that many always suffice (Hall's condition); and the tables of `stays`.
/// A match of a player who stays at one table takes that table first when it is clean for both players (the
/// libraries then need no carrying to them).
pub(super) fn seat_fixed(h: &History, pairs: &[(usize, usize)], tables: u32, stays: &[Stay]) -> Seated {
    let longest = pairs.iter().flat_map(|&(p, q)| [p, q]).filter_map(|p| h.get(p)).map(|x| x.tables.len()).max();
    let enough = pairs.len().saturating_add(2 * longest.unwrap_or(0)).saturating_add(2);
    let enough = u32::try_from(enough).unwrap_or(u32::MAX).max(stays.iter().map(|s| s.table).max().unwrap_or(0));
    let tables = tables.min(enough);
    let (table_of, at) = (vec![NONE; pairs.len()], vec![NONE; tables as usize + 1]);
    let mut a = Assignment { h, pairs, tables, table_of, at, spare: Vec::new() };
    a.home(stays);
    a.greedy();
    for lvl in 0..=3u8 {
        for m in 0..pairs.len() {
            if a.table_of[m] == NONE {
                a.augment(m, lvl);
            }
        }
    }
    a.finish()
}

struct Assignment<'a> {
    h: &'a History,
    pairs: &'a [(usize, usize)],
    tables: u32,
    table_of: Vec<usize>,
    at: Vec<usize>,
    /// Tables of players who stay there but whose game could not take them: the other games take them last,
    /// so that the game comes to an empty table (two libraries carried, not four).
    spare: Vec<u32>,
}

impl Assignment<'_> {
    fn place(&mut self, m: usize, t: usize) {
        self.table_of[m] = t;
        self.at[t] = m;
    }

    /// Each match of a player who stays at one table takes that table when it is free and clean for both.
    fn home(&mut self, stays: &[Stay]) {
        for s in stays {
            let Some(m) = self.pairs.iter().position(|&(p, q)| p == s.player || q == s.player) else { continue };
            let t = s.table as usize;
            if self.table_of[m] == NONE
                && (1..=self.tables).contains(&s.table)
                && self.at[t] == NONE
                && level(self.h, self.pairs[m], s.table) == 0
            {
                self.place(m, t);
            } else if self.table_of[m] != t {
                self.spare.push(s.table);
            }
        }
    }

    /// Each match not yet seated, in order, takes the lowest free clean table.
    fn greedy(&mut self) {
        let mut free: BTreeSet<u32> = (1..=self.tables).filter(|&t| self.at[t as usize] == NONE).collect();
        let waiting: Vec<usize> = (0..self.pairs.len()).filter(|&m| self.table_of[m] == NONE).collect();
        for m in waiting {
            let clean = |t: &u32| level(self.h, self.pairs[m], *t) == 0;
            let pick = free.iter().copied().filter(|t| !self.spare.contains(t)).find(clean);
            let pick = pick.or_else(|| free.iter().copied().find(clean));
            if let Some(t) = pick {
                free.remove(&t);
                self.place(m, t as usize);
            }
        }
    }

    /// Breadth-first augmenting path from match `m` over cells of level <= `lvl`.
    fn augment(&mut self, m: usize, lvl: u8) -> bool {
        let n_t = self.tables as usize;
        let mut came_from = vec![NONE; n_t + 1];
        let mut queue = VecDeque::from([m]);
        while let Some(u) = queue.pop_front() {
            for t in 1..=n_t {
                if came_from[t] != NONE || level(self.h, self.pairs[u], t as u32) > lvl {
                    continue;
                }
                came_from[t] = u;
                if self.at[t] == NONE {
                    self.flip(t, &came_from);
                    return true;
                }
                queue.push_back(self.at[t]);
            }
        }
        false
    }

    fn flip(&mut self, mut t: usize, came_from: &[usize]) {
        loop {
            let u = came_from[t];
            let old = self.table_of[u];
            self.place(u, t);
            if old == NONE {
                return;
            }
            t = old;
        }
    }

    fn finish(self) -> Seated {
        let mut out = Seated { games: Vec::new(), reused: Vec::new(), revisits: Vec::new() };
        for (m, &pair) in self.pairs.iter().enumerate() {
            let t = self.table_of[m];
            if t == NONE {
                continue;
            }
            let table = t as u32;
            let safe = safe_orientations(self.h, pair, table);
            let preferred = orient(self.h, pair);
            let (a, b) = if safe.contains(&preferred) || safe.is_empty() { preferred } else { safe[0] };
            if safe.is_empty() {
                out.reused.push(pair);
            }
            out.revisits.extend([a, b].into_iter().filter(|&p| visited(self.h, p, table)));
            out.games.push(Game { table, a, b });
        }
        out.games.sort_by_key(|g| g.table);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::movement::Round;

    fn table_of(s: &Seated, player: usize) -> Option<u32> {
        s.games.iter().find(|g| g.a == player || g.b == player).map(|g| g.table)
    }

    #[test]
    fn a_stationary_player_s_game_takes_their_table_when_it_is_clean_for_both() {
        let pairs = [(0, 1), (2, 3), (4, 5), (6, 7)];
        let fresh = History::new(8);
        let seated = seat_fixed(&fresh, &pairs, 6, &[Stay { player: 5, table: 6 }]);
        assert_eq!(table_of(&seated, 5), Some(6), "nothing to carry: table 6's own libraries");
        assert_eq!(seated.games.iter().map(|g| g.table).collect::<Vec<_>>(), [1, 2, 3, 6]);
        // Once the opponent has played table 6's libraries, the game goes elsewhere (its libraries are carried).
        let played = Round { games: vec![Game { table: 6, a: 4, b: 7 }], byes: vec![] };
        let h = History::from_rounds(8, &[played]);
        let seated = seat_fixed(&h, &[(0, 1), (2, 3), (5, 4), (6, 7)], 6, &[Stay { player: 5, table: 6 }]);
        assert_ne!(table_of(&seated, 5), Some(6));
        assert!(seated.reused.is_empty());
        assert!(
            seated.games.iter().all(|g| g.table != 6),
            "table 6 is left for the game to come to: {:?}",
            seated.games
        );
    }
}
