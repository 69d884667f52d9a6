//! Maximum-weight perfect matching on a band graph, by a dynamic programme over the window.
//!
//! Swiss pairing joins each player only to the next `window` players in the standings, plus one
//! extra vertex (the bye) that may join anyone. Walking the standings from the top, what the
//! rest of the pairing needs to know about the players already seen is only which of the next
//! `window` players they took, and whether the bye is gone: a bit mask of `window` bits and a
//! flag. The optimum over every perfect matching is then a best path through at most
//! `2^(window + 1)` states per player, in time linear in the field (n · 2^(w+1) · (w + 2) steps)
//! and exact, where a general matching restarted from nothing grows superlinearly.

use super::matching::Edge;

const UNREACHED: i128 = i128::MIN;
/// The choice recorded for a player already taken by someone above.
const TAKEN: u8 = 0;
/// The choice recorded for a player given the bye.
const BYE: u8 = u8::MAX;

/// Widest window the programme takes (the caller falls back to a general matching beyond it).
pub(super) const MAX_WINDOW: usize = 12;
/// Most (player, state) cells the programme keeps choices for (one byte each).
const MAX_CELLS: usize = 1 << 26;

/// Whether the programme can solve a band of `window` over `n` players within its limits.
pub(super) fn fits(n: usize, window: usize) -> bool {
    window <= MAX_WINDOW && n.saturating_mul(states(window)) <= MAX_CELLS
}

fn states(window: usize) -> usize {
    1 << (window + 1)
}

/// The heaviest perfect matching of `edges` over players `0..n` (every edge (i, j) with
/// `i < j <= i + window`), plus the bye vertex `n` when `n` is odd, joined by edges (i, n).
/// Returns each vertex's mate (the bye vertex last), or None when no perfect matching exists.
/// Among equally heavy matchings it keeps the first found (partners nearest first, the bye last).
pub(super) fn band_matching(n: usize, window: usize, edges: &[Edge]) -> Option<Vec<usize>> {
    let window = window.clamp(1, MAX_WINDOW);
    let (offsets, bye) = tables(n, window, edges);
    let s = states(window);
    let mut value = vec![UNREACHED; s];
    let mut next = vec![UNREACHED; s];
    let mut choice = vec![TAKEN; n * s];
    value[0] = 0;
    for i in 0..n {
        next.fill(UNREACHED);
        let row = &mut choice[i * s..(i + 1) * s];
        let mut relax = |state: usize, v: i128, c: u8| {
            if v > next[state] {
                next[state] = v;
                row[state] = c;
            }
        };
        for (state, &v) in value.iter().enumerate() {
            if v == UNREACHED {
                continue;
            }
            let (mask, gone) = (state >> 1, state & 1);
            if mask & 1 == 1 {
                relax((mask >> 1) << 1 | gone, v, TAKEN);
                continue;
            }
            for k in 1..=window.min(n - 1 - i) {
                if mask >> k & 1 == 1 {
                    continue;
                }
                if let Some(w) = offsets[i * window + k - 1] {
                    relax(((mask | 1 << k) >> 1) << 1 | gone, v + i128::from(w), k as u8);
                }
            }
            if gone == 0
                && let Some(w) = bye[i]
            {
                relax((mask >> 1) << 1 | 1, v + i128::from(w), BYE);
            }
        }
        std::mem::swap(&mut value, &mut next);
    }
    let last = n % 2;
    if value[last] == UNREACHED {
        return None;
    }
    Some(read_back(n, window, &choice, last))
}

/// Per player, the weights of the edges to the next `window` players, and of the bye edge.
/// Parallel edges keep the heaviest, as a matching would.
#[allow(clippy::type_complexity)]
fn tables(n: usize, window: usize, edges: &[Edge]) -> (Vec<Option<i64>>, Vec<Option<i64>>) {
    let mut offsets = vec![None; n * window];
    let mut bye = vec![None; n];
    let heavier = |slot: &mut Option<i64>, w: i64| *slot = Some(slot.map_or(w, |old: i64| old.max(w)));
    for &(a, b, w) in edges {
        let (i, j) = (a.min(b), a.max(b));
        if i == j || i >= n {
            continue;
        }
        if j == n && n % 2 == 1 {
            heavier(&mut bye[i], w);
        } else if j < n && j - i <= window {
            heavier(&mut offsets[i * window + j - i - 1], w);
        }
    }
    (offsets, bye)
}

/// Follows the recorded choices back from the final state.
fn read_back(n: usize, window: usize, choice: &[u8], last: usize) -> Vec<usize> {
    let s = states(window);
    let mut mate = vec![usize::MAX; n + n % 2];
    let mut state = last;
    for i in (0..n).rev() {
        let (mask, gone) = (state >> 1, state & 1);
        state = match choice[i * s + state] {
            TAKEN => (mask << 1 | 1) << 1 | gone,
            BYE => {
                mate[i] = n;
                mate[n] = i;
                (mask << 1) << 1
            }
            k => {
                let k = usize::from(k);
                mate[i] = i + k;
                mate[i + k] = i;
                ((mask << 1) & !(1 << k)) << 1 | gone
            }
        };
    }
    mate
}

#[cfg(test)]
#[path = "band_tests.rs"]
mod tests;
