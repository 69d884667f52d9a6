use super::*;

/// Best (size, weight) over all matchings, by brute force.
fn brute(edges: &[Edge], used: &mut [bool], from: usize, max_card: bool) -> (usize, i64) {
    let mut best = (0usize, 0i64);
    for (k, &(i, j, w)) in edges.iter().enumerate().skip(from) {
        if used[i] || used[j] {
            continue;
        }
        used[i] = true;
        used[j] = true;
        let (c, s) = brute(edges, used, k + 1, max_card);
        used[i] = false;
        used[j] = false;
        let cand = (c + 1, s + w);
        let wins = if max_card { cand > best } else { cand.1 > best.1 };
        if wins {
            best = cand;
        }
    }
    best
}

fn score(edges: &[Edge], mate: &[Option<usize>]) -> (usize, i64) {
    let mut size = 0;
    let mut weight = 0;
    for (v, m) in mate.iter().enumerate() {
        if let Some(u) = *m {
            assert_eq!(mate[u], Some(v), "mate is not symmetric");
            if v < u {
                size += 1;
                weight += edges
                    .iter()
                    .filter(|e| (e.0 == v && e.1 == u) || (e.0 == u && e.1 == v))
                    .map(|e| e.2)
                    .max()
                    .unwrap_or(i64::MIN);
            }
        }
    }
    (size, weight)
}

#[test]
fn matches_brute_force_on_random_graphs() {
    let mut seed = 12345u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        seed >> 33
    };
    for case in 0..3000 {
        let n = 2 + (next() % 9) as usize;
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if next() % 100 < 45 {
                    edges.push((i, j, (next() % 30) as i64 - 5));
                }
            }
        }
        for max_card in [false, true] {
            let mate = max_weight_matching(n, &edges, max_card);
            let got = score(&edges, &mate);
            let want = brute(&edges, &mut vec![false; n], 0, max_card);
            if max_card {
                assert_eq!(got, want, "case {case} n={n} {edges:?}");
            } else {
                assert_eq!(got.1, want.1, "case {case} n={n} {edges:?}");
            }
        }
    }
}

#[test]
fn known_blossom_cases() {
    // Nested S-blossom case from the mwmatching test suite.
    let cases: Vec<(Vec<Edge>, Vec<Option<usize>>)> = vec![(
        vec![(1, 2, 9), (1, 3, 9), (2, 3, 10), (2, 4, 8), (3, 5, 8), (4, 5, 10), (5, 6, 6)],
        vec![None, Some(3), Some(4), Some(1), Some(2), Some(6), Some(5)],
    )];
    for (edges, want) in cases {
        let n = want.len();
        let got = max_weight_matching(n, &edges, false);
        assert_eq!(score(&edges, &got), score(&edges, &want), "{edges:?}");
    }
}

#[test]
fn tiny_debug() {
    let m = max_weight_matching(2, &[(0, 1, 5)], false);
    assert_eq!(m, vec![Some(1), Some(0)]);
}

#[test]
fn tiny_debug2() {
    let m = max_weight_matching(3, &[(0, 1, 5), (1, 2, 6)], false);
    assert_eq!(m, vec![None, Some(2), Some(1)]);
}

#[test]
fn tiny_debug3() {
    let m = max_weight_matching(4, &[(0, 1, 5), (1, 2, 6), (2, 3, 5)], false);
    assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
}

#[test]
fn tiny_debug4() {
    let m = max_weight_matching(3, &[(0, 1, 5), (1, 2, 6), (0, 2, 5)], false);
    assert_eq!(m, vec![None, Some(2), Some(1)]);
}
