//! The band programme against the general matching on random band graphs.

use super::*;
use crate::domain::movement::matching::max_weight_matching;
use proptest::prelude::*;

fn weight_of(edges: &[Edge], mate: &[usize]) -> i64 {
    edges
        .iter()
        .filter(|&&(i, j, _)| mate.get(i) == Some(&j))
        .map(|e| e.2)
        .fold(None, |acc: Option<i64>, w| Some(acc.unwrap_or(0) + w))
        .unwrap_or(0)
}

/// A random band over `n` players: each edge within the window present with the given chance.
fn band(n: usize, window: usize, seed: u64, percent: u64, bye: bool) -> Vec<Edge> {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n.min(i + 1 + window) {
            if next() % 100 < percent {
                edges.push((i, j, (next() % 50) as i64 - 10));
            }
        }
        if bye && n % 2 == 1 && next() % 100 < percent {
            edges.push((i, n, (next() % 50) as i64 - 10));
        }
    }
    edges
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Same existence of a perfect matching and the same weight as the general solver.
    #[test]
    fn finds_the_general_optimum(n in 1usize..24, window in 1usize..7, seed in any::<u64>(), percent in 40u64..101) {
        let edges = band(n, window, seed, percent, true);
        let vertices = n + n % 2;
        let general = max_weight_matching(vertices, &edges, true);
        let perfect = general.iter().all(Option::is_some);
        let got = band_matching(n, window, &edges);
        prop_assert_eq!(got.is_some(), perfect, "{:?}", edges);
        if let Some(mate) = got {
            let want: Vec<usize> = general.iter().map(|m| m.unwrap_or(usize::MAX)).collect();
            prop_assert!(mate.iter().enumerate().all(|(v, &m)| mate[m] == v), "not a matching: {:?}", mate);
            prop_assert_eq!(weight_of(&edges, &mate), weight_of(&edges, &want), "{:?}", edges);
        }
    }
}

#[test]
fn pairs_neighbours_and_gives_the_bye() {
    let edges = vec![(0, 1, 5), (1, 2, 9), (0, 2, 1), (2, 3, 1), (0, 3, 0)];
    // (1, 2) and the bye for 0 weigh 9, more than (0, 1) and the bye for 2 (6).
    assert_eq!(band_matching(3, 2, &edges), Some(vec![3, 2, 1, 0]));
    assert_eq!(band_matching(2, 1, &[]), None);
    assert_eq!(band_matching(4, 1, &[(0, 1, 1), (2, 3, 1)]), Some(vec![1, 0, 3, 2]));
}

#[test]
fn limits() {
    assert!(fits(16_384, 6) && fits(1000, 12) && !fits(16_384, 12) && !fits(10, 13));
}
