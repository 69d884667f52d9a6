//! M2 — cyclic Howell movement for an odd field of N = 2T + 1 players on T tables.
//!
//! Round r: player r mod N sits out; for k = 1..=T, p = (r + k) mod N and q = (r - k) mod N
//! play at table k, p at seat A when k is odd, q when k is even.

use super::{Game, Round, Schedule};

/// The cyclic Howell schedule for 2T+1 players on T tables; rounds past N repeat the cycle.
pub fn howell(tables: u32, rounds: u32) -> Schedule {
    let n = 2 * u64::from(tables) + 1;
    let rounds = (0..u64::from(rounds))
        .map(|r| {
            let r = r % n;
            let games = (1..=u64::from(tables))
                .map(|k| {
                    let p = ((r + k) % n) as usize;
                    let q = ((r + n - k) % n) as usize;
                    let (a, b) = if k % 2 == 1 { (p, q) } else { (q, p) };
                    // k <= tables, a u32.
                    Game { table: k as u32, a, b }
                })
                .collect();
            Round { games, byes: vec![r as usize] }
        })
        .collect();
    Schedule { rounds }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::movement::History;

    #[test]
    fn full_cycle_uses_every_library_once() {
        for t in [1u32, 2, 3, 4, 7] {
            let n = 2 * t as usize + 1;
            let s = howell(t, n as u32);
            let h = History::from_rounds(n, &s.rounds);
            for p in &h.players {
                let mut libs = p.libraries.clone();
                libs.sort();
                libs.dedup();
                assert_eq!(libs.len(), 2 * t as usize, "T={t}");
                assert_eq!(p.byes, 1);
                assert_eq!(p.opponents.len(), n - 1);
            }
        }
    }
}
