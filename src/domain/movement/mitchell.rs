//! M1 — Mitchell movement for fixed libraries, with the bridge skip for an even table count.
//!
//! Slots `0..T` are group X (x_i = slot i), slots `T..2T` are group Y (y_j = slot T + j).
//! Round r: x_i plays at table (i + r) mod T, y_j at (j - r - s(r)) mod T, where s(r) = 1
//! for an even T from round T/2 on. X sits at seat A in even rounds, Y in odd rounds.

use super::{Game, Round, Schedule};

/// The bridge skip: 1 when T is even and the round is in the second half, else 0.
pub fn skip(tables: u32, r: u32) -> u32 {
    u32::from(tables.is_multiple_of(2) && r >= tables / 2)
}

/// Which X and Y (group indices `0..T`) meet at table index `t` (0-based) in round `r` (0-based).
pub fn mitchell_cell(tables: u32, r: u32, t: u32) -> (u32, u32) {
    if tables == 0 {
        return (0, 0);
    }
    let n = u64::from(tables);
    let (r64, t64) = (u64::from(r) % n, u64::from(t));
    let s = u64::from(skip(tables, r));
    let x = (t64 + n - r64) % n;
    let y = (t64 + r64 + s) % n;
    // Both are below `tables`, so they fit in u32.
    (x as u32, y as u32)
}

/// Build a two-group schedule from a cell rule: `cell(r, t)` gives (x, y) group indices.
///
/// X plays seat A in even rounds (0-based) and seat B in odd rounds: "change seats every round".
pub fn two_group(tables: u32, rounds: u32, cell: impl Fn(u32, u32) -> (u32, u32)) -> Schedule {
    let t_us = tables as usize;
    let rounds = (0..rounds)
        .map(|r| {
            let games = (0..tables)
                .map(|t| {
                    let (x, y) = cell(r, t);
                    let (x, y) = (x as usize, t_us + y as usize);
                    let (a, b) = if r % 2 == 0 { (x, y) } else { (y, x) };
                    Game { table: t + 1, a, b }
                })
                .collect();
            Round { games, byes: Vec::new() }
        })
        .collect();
    Schedule { rounds }
}

/// The Mitchell schedule for 2T players on T tables over `rounds` rounds.
///
/// Past T rounds the rotation simply continues (players meet again); [`super::plan_fixed`]
/// refuses that unless allowed.
pub fn mitchell(tables: u32, rounds: u32) -> Schedule {
    if tables == 0 {
        return Schedule::default();
    }
    two_group(tables, rounds, |r, t| mitchell_cell(tables, r, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::movement::validate::{Guarantee, validate};

    #[test]
    fn skip_only_in_second_half_of_even_tables() {
        let got: Vec<u32> = (0..4).map(|r| skip(4, r)).collect();
        assert_eq!(got, vec![0, 0, 1, 1]);
        assert!((0..5).all(|r| skip(5, r) == 0));
    }

    #[test]
    fn without_skip_even_tables_would_rematch() {
        // The same rule without the skip: x_i meets y_(i+2r), which repeats for even T.
        let plain = two_group(4, 4, |r, t| ((t + 4 - r) % 4, (t + r) % 4));
        let v = validate(8, &plain.rounds, &[Guarantee::NoRematch]);
        assert_eq!(v.len(), 8);
        assert!(validate(8, &mitchell(4, 4).rounds, &[Guarantee::NoRematch]).is_empty());
    }
}
