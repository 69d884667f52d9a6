//! Swiss pairing: unit cases and a seeded random sweep of whole events.

use super::validate::{Guarantee, validate};
use super::*;

fn sp(index: usize, points: u32) -> SwissPlayer {
    SwissPlayer { index, points, active: true }
}

/// Tiny deterministic generator for the sweep.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn pairs_equal_scores_and_gives_bye_to_the_lowest() {
    let players = [sp(0, 6), sp(1, 6), sp(2, 3), sp(3, 3), sp(4, 0)];
    let out = pair_swiss(&players, &History::new(5), 3, true, 7).unwrap();
    assert_eq!(out.round.byes, vec![4]);
    let mut pairs: Vec<(usize, usize)> = out.round.games.iter().map(|g| (g.a.min(g.b), g.a.max(g.b))).collect();
    pairs.sort();
    assert_eq!(pairs, vec![(0, 1), (2, 3)]);
    assert!(out.warnings.is_empty());
}

#[test]
fn bye_skips_players_who_had_one() {
    let r1 = Round { games: vec![Game { table: 1, a: 0, b: 1 }], byes: vec![2] };
    let h = History::from_rounds(3, &[r1]);
    let players = [sp(0, 3), sp(1, 0), sp(2, 0)];
    let out = pair_swiss(&players, &h, 2, true, 1).unwrap();
    assert_ne!(out.round.byes, vec![2]);
    assert_eq!(out.round.games.len(), 1);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn seating_avoids_used_libraries_and_balances_seats() {
    // P3 and P4 visited tables 1 and 2; with 4 tables nobody needs to come back.
    let r1 = Round { games: vec![Game { table: 1, a: 0, b: 2 }, Game { table: 2, a: 3, b: 1 }], byes: vec![] };
    let r2 = Round { games: vec![Game { table: 1, a: 3, b: 0 }, Game { table: 2, a: 1, b: 2 }], byes: vec![] };
    let h = History::from_rounds(4, &[r1.clone(), r2.clone()]);
    let players = [sp(0, 3), sp(1, 3), sp(2, 3), sp(3, 3)];
    let out = pair_swiss(&players, &h, 4, true, 3).unwrap();
    let rounds = [r1, r2, out.round.clone()];
    let all = [Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::WellFormed, Guarantee::NoTableRevisit];
    let v: Vec<_> = validate(4, &rounds, &all).into_iter().filter(|v| v.round == 3).collect();
    assert!(v.is_empty(), "{:?}: {v:?}", out.round);
    // Seat balance: P4 (two A seats) now sits at B.
    assert!(out.round.games.iter().any(|g| g.b == 3));
}

#[test]
fn forced_rematch_is_reported() {
    let players = [sp(0, 0), sp(1, 0)];
    let r1 = Round { games: vec![Game { table: 1, a: 0, b: 1 }], byes: vec![] };
    let h = History::from_rounds(2, &[r1]);
    let out = pair_swiss(&players, &h, 1, false, 0).unwrap();
    assert_eq!(out.round.games.len(), 1);
    assert!(out.warnings.iter().any(|w| w.contains("meets") && w.contains("again")), "{:?}", out.warnings);
}

#[test]
fn travelling_libraries_number_tables_by_match() {
    let players: Vec<SwissPlayer> = (0..8).map(|i| sp(i, 0)).collect();
    let out = pair_swiss(&players, &History::new(8), 0, false, 0).unwrap();
    let tables: Vec<u32> = out.round.games.iter().map(|g| g.table).collect();
    assert_eq!(tables, vec![1, 2, 3, 4]);
}

#[test]
fn refuses_too_few_players_or_tables() {
    let e = pair_swiss(&[sp(0, 0), SwissPlayer { index: 1, points: 0, active: false }], &History::new(2), 4, true, 0);
    assert_eq!(e.unwrap_err(), MovementError::TooFewPlayers { players: 1 });
    let players: Vec<SwissPlayer> = (0..8).map(|i| sp(i, 0)).collect();
    let e = pair_swiss(&players, &History::new(8), 3, true, 0).unwrap_err();
    assert!(e.to_string().contains("build more libraries"), "{e}");
}

/// Whole events with drops and late entries never rematch, reuse a library or give two byes.
#[test]
fn random_events_keep_the_swiss_guarantees() {
    let mut rng = Lcg(2024);
    for event in 0..150 {
        let start = 6 + rng.below(50) as usize;
        let rounds = (3 + rng.below(8) as u32).min(start as u32 / 2);
        let late = rng.below(5) as usize;
        let total = start + late;
        let tables = (total / 2) as u32 + rounds;
        let mut points = vec![0u32; total];
        let mut active: Vec<bool> = (0..total).map(|i| i < start).collect();
        let mut played: Vec<Round> = Vec::new();
        for r in 0..rounds {
            if r == 1 || r == 2 {
                (start..total).for_each(|i| active[i] = active[i] || rng.below(2) == 0);
            }
            if r > 0 && rng.below(3) == 0 {
                let p = rng.below(total as u64) as usize;
                active[p] = false;
            }
            let field: Vec<SwissPlayer> =
                (0..total).map(|i| SwissPlayer { index: i, points: points[i], active: active[i] }).collect();
            let h = History::from_rounds(total, &played);
            let Ok(out) = pair_swiss(&field, &h, tables, true, event) else {
                break;
            };
            assert!(out.warnings.is_empty(), "event {event} round {r}: {:?}", out.warnings);
            for g in &out.round.games {
                points[if rng.below(2) == 0 { g.a } else { g.b }] += 3;
            }
            out.round.byes.iter().for_each(|&p| points[p] += 3);
            played.push(out.round);
        }
        let promised = [Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::OneSitOut, Guarantee::WellFormed];
        let v = validate(total, &played, &promised);
        assert!(v.is_empty(), "event {event}: {v:?}");
        let h = History::from_rounds(total, &played);
        assert!(h.players.iter().all(|p| p.seat_lean().abs() <= 2), "event {event}: seats drift");
    }
}

#[test]
fn extreme_inputs_do_not_panic() {
    let players = [sp(0, u32::MAX), sp(1, 0), sp(2, 7), sp(3, u32::MAX - 1), sp(0, 5)];
    let out = pair_swiss(&players, &History::new(0), u32::MAX, true, u64::MAX).unwrap();
    assert_eq!(out.round.games.len(), 2);
    assert!(out.round.games.iter().all(|g| g.table <= 4), "{:?}", out.round);
}
