//! Seat balance by Euler circuits: re-orient games so each player's A and B seats differ by ≤ 1.
//!
//! The games form a multigraph on players. Odd-degree players are paired with dummy edges,
//! making every degree even; walking closed trails and giving seat A to the player the walk
//! leaves from gives every player as many A seats as B seats (±1 for the dummy edge).

use super::Round;

/// Re-orient every game of `rounds` along Euler circuits (tables and pairings are kept).
pub fn balance_seats(n_players: usize, rounds: &mut [Round]) {
    let mut ends: Vec<(usize, usize)> = Vec::new();
    let mut n = n_players;
    for g in rounds.iter().flat_map(|r| &r.games) {
        n = n.max(g.a + 1).max(g.b + 1);
        ends.push((g.a, g.b));
    }
    let real = ends.len();
    let mut degree = vec![0usize; n];
    for &(a, b) in &ends {
        degree[a] += 1;
        degree[b] += 1;
    }
    let odd: Vec<usize> = (0..n).filter(|&v| degree[v] % 2 == 1).collect();
    for pair in odd.chunks(2) {
        if let [u, v] = pair {
            ends.push((*u, *v));
        }
    }
    let oriented = orient(n, &ends);
    let mut e = 0;
    for round in rounds.iter_mut() {
        for g in &mut round.games {
            if e < real {
                (g.a, g.b) = oriented[e];
            }
            e += 1;
        }
    }
}

/// Orient each edge along closed trails; returns (from, to) per edge.
fn orient(n: usize, ends: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, &(a, b)) in ends.iter().enumerate() {
        adj[a].push(i);
        adj[b].push(i);
    }
    let mut next = vec![0usize; n];
    let mut used = vec![false; ends.len()];
    let mut out = ends.to_vec();
    for start in 0..n {
        let mut v = start;
        while let Some(e) = take_edge(&adj[v], &mut next[v], &used) {
            used[e] = true;
            let (a, b) = ends[e];
            let w = if a == v { b } else { a };
            out[e] = (v, w);
            v = w;
        }
    }
    out
}

fn take_edge(adj: &[usize], next: &mut usize, used: &[bool]) -> Option<usize> {
    while *next < adj.len() {
        let e = adj[*next];
        *next += 1;
        if !used[e] {
            return Some(e);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::movement::{Game, History};

    #[test]
    fn unbalanced_games_become_balanced() {
        // P0 at seat A in all four games: lean 4 before, at most 1 after.
        let rounds: Vec<Round> =
            (1..=4).map(|b| Round { games: vec![Game { table: 1, a: 0, b }], byes: vec![] }).collect();
        let mut fixed = rounds.clone();
        balance_seats(5, &mut fixed);
        let h = History::from_rounds(5, &fixed);
        assert!(h.players.iter().all(|p| p.seat_lean().abs() <= 1), "{fixed:?}");
        assert_eq!(h.player(0).seat_lean(), 0);
        for (r, f) in rounds.iter().zip(&fixed) {
            let (g, k) = (r.games[0], f.games[0]);
            assert_eq!((g.table, g.a.min(g.b), g.a.max(g.b)), (k.table, k.a.min(k.b), k.a.max(k.b)));
        }
    }
}
