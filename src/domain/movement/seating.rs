//! Seating Swiss matches at tables: an assignment of matches to tables by levels
//! (clean table, then a revisited table, then a table that turns the seats the wrong way for
//! balance, then a reused library as a last resort),
//! greedy first and repaired by augmenting paths.

use std::collections::{BTreeSet, VecDeque};

use super::history::{History, PlayerHistory};
use super::{Game, Seat};

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
/// from at most 2 * history tables, so that many always suffice (Hall's condition).
pub(super) fn seat_fixed(h: &History, pairs: &[(usize, usize)], tables: u32) -> Seated {
    let longest = pairs.iter().flat_map(|&(p, q)| [p, q]).filter_map(|p| h.get(p)).map(|x| x.tables.len()).max();
    let enough = pairs.len().saturating_add(2 * longest.unwrap_or(0)).saturating_add(2);
    let tables = tables.min(u32::try_from(enough).unwrap_or(u32::MAX));
    let mut a = Assignment { h, pairs, tables, table_of: vec![NONE; pairs.len()], at: vec![NONE; tables as usize + 1] };
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
}

impl Assignment<'_> {
    fn place(&mut self, m: usize, t: usize) {
        self.table_of[m] = t;
        self.at[t] = m;
    }

    /// Each match, in order, takes the lowest free clean table.
    fn greedy(&mut self) {
        let mut free: BTreeSet<u32> = (1..=self.tables).collect();
        for m in 0..self.pairs.len() {
            let pick = free.iter().copied().find(|&t| level(self.h, self.pairs[m], t) == 0);
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
