//! The standings' percentages over one common denominator. Every MW% and GW% is a whole number of thirds of
//! the matches played (`points / (3 x played)`, or 1/3) and every OMW% and OGW% the average of at most `n`
//! of them, so with `D = 3 x lcm(1..=most played) x lcm(1..=most opponents)` each percentage times `D` is a
//! whole number. While `D` is at most 2^50 (events of up to about 18 rounds), the keys are those whole
//! numbers over `D`: added and compared as integers, with no gcd per step. They are exactly the fractions the
//! general path computes (it rounds nothing below 2^50 either), and `x / D` as an `f64` is the correctly
//! rounded value of the same rational, so the printed figures are the same to the last bit.

use super::fraction::Frac;
use super::{Keys, MatchRecord, Slots, Tally};

/// The largest common denominator taken (the general path rounds denominators above it).
const LIMIT: u64 = 1 << 50;

/// The keys by slot over one common denominator, or `None` when it would be above [`LIMIT`].
pub(super) fn keys(slots: &Slots, tallies: &[Tally], matches: &[&MatchRecord], par: &[i64]) -> Option<Vec<Keys>> {
    let mut opponents = vec![0u64; tallies.len()];
    for m in matches {
        if let Some(b) = m.b {
            opponents[slots.of(m.a)] += 1;
            opponents[slots.of(b)] += 1;
        }
    }
    let most_played = tallies.iter().map(Tally::played).max().unwrap_or(0);
    let most_opponents = opponents.iter().copied().max().unwrap_or(0);
    let den = lcm_upto(u64::from(most_played))?.checked_mul(lcm_upto(most_opponents)?)?.checked_mul(3)?;
    if den > LIMIT {
        return None;
    }
    // points <= 3 x played, so each numerator is at most `den`.
    let pct = |points: u32, played: u32| match played {
        0 => 0,
        p => (u64::from(points) * (den / (3 * u64::from(p)))).max(den / 3),
    };
    let mw: Vec<u64> = tallies.iter().map(|t| pct(t.match_points(), t.played())).collect();
    let gw: Vec<u64> = tallies.iter().map(|t| pct(t.game_points(), t.played())).collect();
    let mut sums = vec![(0u64, 0u64); tallies.len()];
    for m in matches {
        if let Some(b) = m.b {
            let (a, b) = (slots.of(m.a), slots.of(b));
            sums[a] = (sums[a].0 + mw[b], sums[a].1 + gw[b]);
            sums[b] = (sums[b].0 + mw[a], sums[b].1 + gw[a]);
        }
    }
    let over = |x: u64| Frac::over(x, den);
    // Every term of a sum is a multiple of lcm(1..=most opponents), so dividing by the count is exact.
    let average = |sum: u64, n: u64| over(sum.checked_div(n).unwrap_or(0));
    let keys = (0..tallies.len())
        .map(|slot| Keys {
            mw: over(mw[slot]),
            gw: over(gw[slot]),
            omw: average(sums[slot].0, opponents[slot]),
            ogw: average(sums[slot].1, opponents[slot]),
            par: par[slot],
        })
        .collect();
    Some(keys)
}

/// lcm(1, 2, ..., k), or `None` above [`LIMIT`].
fn lcm_upto(k: u64) -> Option<u64> {
    let mut l: u64 = 1;
    for i in 2..=k {
        let (mut a, mut b) = (l, i);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        l = (l / a).checked_mul(i).filter(|&x| x <= LIMIT)?;
    }
    Some(l)
}

#[cfg(test)]
mod tests {
    use super::super::{Outcome, fraction_keys, slot_map, tally};
    use super::*;
    use proptest::prelude::*;
    use std::cmp::Ordering;

    #[test]
    fn lcms_stop_at_the_limit() {
        assert_eq!(lcm_upto(0), Some(1));
        assert_eq!(lcm_upto(12), Some(27_720));
        assert_eq!(lcm_upto(14), Some(360_360));
        assert!(lcm_upto(60).is_none());
    }

    /// Random events: players 0..n, matches with byes, draws, late-entry losses and players outside the list.
    fn event() -> impl Strategy<Value = (usize, Vec<MatchRecord>)> {
        (2usize..12).prop_flat_map(|n| {
            let record =
                (1u32..20, 0..n + 2, prop::option::weighted(0.85, 0..n + 2), 0u8..3).prop_map(|(round, a, b, o)| {
                    MatchRecord {
                        round,
                        a,
                        b,
                        outcome: [Outcome::AWins, Outcome::BWins, Outcome::Draw][usize::from(o)],
                    }
                });
            (Just(n), prop::collection::vec(record, 0..50))
        })
    }

    proptest! {
        /// Over one denominator the keys are the general path's fractions: equal on comparing, equal to the bit as f64.
        #[test]
        fn common_denominator_keys_are_the_fractions((n, matches) in event()) {
            let entrants: Vec<super::super::Entrant> = (0..n)
                .map(|index| super::super::Entrant { index, name: String::new(), dropped_after: None, disqualified: false })
                .collect();
            let counted: Vec<&MatchRecord> = matches.iter().filter(|m| m.b != Some(m.a)).collect();
            let slots = slot_map(&entrants, &counted);
            let tallies = tally(&slots, &counted);
            let par = vec![0; tallies.len()];
            let general = fraction_keys(&slots, &tallies, &counted, &par);
            if let Some(common) = keys(&slots, &tallies, &counted, &par) {
                for (x, y) in common.iter().zip(&general) {
                    for (a, b) in [(x.mw, y.mw), (x.gw, y.gw), (x.omw, y.omw), (x.ogw, y.ogw)] {
                        prop_assert_eq!(a.compare(b), Ordering::Equal);
                        prop_assert_eq!(a.to_f64().to_bits(), b.to_f64().to_bits());
                    }
                }
                // The order between players is the same too.
                for (i, j) in (0..common.len()).flat_map(|i| (0..common.len()).map(move |j| (i, j))) {
                    prop_assert_eq!(common[i].omw.compare(common[j].omw), general[i].omw.compare(general[j].omw));
                }
            }
        }
    }
}
