//! The band programme finds the same optimum as the general matching on the Swiss graph itself:
//! random fields with score groups (so floats), past rounds (rematches forbidden), byes already
//! given, pairs forbidden by the seating, at every window the widening tries.

use super::*;
use crate::domain::movement::Game;
use proptest::prelude::*;

struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// A field of `n` players (some dropped) after `rounds` random rounds, with some pairs forbidden.
fn field(n: usize, rounds: usize, groups: u64, seed: u64) -> (Vec<SwissPlayer>, History, HashSet<(usize, usize)>) {
    let mut rng = Lcg(seed);
    let mut played = Vec::new();
    for _ in 0..rounds {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let games = order.chunks(2).filter(|c| c.len() == 2).zip(1u32..);
        let games = games.map(|(c, table)| Game { table, a: c[0], b: c[1] }).collect();
        let byes = if n % 2 == 1 { vec![order[n - 1]] } else { vec![] };
        played.push(Round { games, byes });
    }
    let players = (0..n)
        .map(|index| SwissPlayer { index, points: 3 * rng.below(groups) as u32, active: rng.below(12) != 0 })
        .collect();
    let forbidden = (0..rng.below(4)).map(|_| (rng.below(n as u64) as usize, rng.below(n as u64) as usize));
    let forbidden = forbidden.map(|(p, q)| (p.min(q), p.max(q))).collect();
    (players, History::from_rounds(n, &played), forbidden)
}

fn weight(edges: &[Edge], mate: &[Option<usize>]) -> i64 {
    edges.iter().filter(|&&(i, j, _)| mate[i] == Some(j)).map(|e| e.2).sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn same_optimum_as_the_general_matching(
        n in 2usize..48,
        rounds in 0usize..6,
        groups in 1u64..5,
        seed in any::<u64>(),
    ) {
        let (players, h, forbidden) = field(n, rounds, groups, seed);
        let f = standings(&players, seed);
        prop_assume!(f.len() >= 2);
        let mut window = FIRST_WINDOW;
        loop {
            let last = window >= f.len();
            let g = Graph::build(&f, &h, &forbidden, window, last);
            let general = max_weight_matching(g.vertices, &g.edges, true);
            let perfect = general.iter().all(Option::is_some);
            let band = window.min(f.len() - 1);
            if band::fits(f.len(), band) {
                let got = band::band_matching(f.len(), band, &g.edges);
                prop_assert_eq!(got.is_some(), perfect, "window {}", window);
                if let Some(mate) = got {
                    let mate: Vec<Option<usize>> = mate.into_iter().map(Some).collect();
                    prop_assert_eq!(weight(&g.edges, &mate), weight(&g.edges, &general), "window {}", window);
                }
            }
            if perfect || last {
                break;
            }
            window *= 2;
        }
    }
}

/// A field past the threshold takes the band programme, and its pairing is as heavy as the general one's.
#[test]
fn a_large_field_pairs_as_heavily_by_the_band() {
    for seed in 0..4 {
        let (players, h, forbidden) = field(BAND_FROM + 41, 5, 4, seed);
        let f = standings(&players, seed);
        let g = Graph::build(&f, &h, &forbidden, FIRST_WINDOW, false);
        let general = max_weight_matching(g.vertices, &g.edges, true);
        let fast = g.solve(f.len(), FIRST_WINDOW);
        assert_eq!(fast.iter().all(Option::is_some), general.iter().all(Option::is_some));
        assert_eq!(weight(&g.edges, &fast), weight(&g.edges, &general), "seed {seed}");
    }
}
