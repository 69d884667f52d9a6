//! Summaries of timed decisions for `decisions`: count, median, longest and overruns.

use serde::Serialize;

/// One finished decision, as the summary needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timed {
    /// Its length, in milliseconds.
    pub duration_ms: i64,
    /// Time past its limit, in milliseconds (0 when within it).
    pub overrun_ms: i64,
}

/// Count, median, longest and overruns of a set of decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Summary {
    /// Number of finished decisions.
    pub count: usize,
    /// Median length in milliseconds (the mean of the two middle ones for an even count); None when empty.
    pub median_ms: Option<i64>,
    /// Longest decision in milliseconds; None when empty.
    pub longest_ms: Option<i64>,
    /// Decisions that overran their limit (possible slow play).
    pub overruns: usize,
    /// The overruns added up, in milliseconds.
    pub overrun_total_ms: i64,
}

/// Summarises decisions (any order).
pub fn summarize(decisions: &[Timed]) -> Summary {
    let mut lengths: Vec<i64> = decisions.iter().map(|d| d.duration_ms).collect();
    lengths.sort_unstable();
    let n = lengths.len();
    let median_ms = match n {
        0 => None,
        _ if n % 2 == 1 => Some(lengths[n / 2]),
        _ => Some((lengths[n / 2 - 1] + lengths[n / 2]) / 2),
    };
    let over: Vec<i64> = decisions.iter().map(|d| d.overrun_ms).filter(|&o| o > 0).collect();
    Summary {
        count: n,
        median_ms,
        longest_ms: lengths.last().copied(),
        overruns: over.len(),
        overrun_total_ms: over.iter().sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(duration_ms: i64, overrun_ms: i64) -> Timed {
        Timed { duration_ms, overrun_ms }
    }

    #[test]
    fn empty() {
        assert_eq!(summarize(&[]), Summary::default());
    }

    #[test]
    fn odd_and_even_counts() {
        let odd = summarize(&[t(30_000, 0), t(10_000, 0), t(50_000, 5_000)]);
        assert_eq!(
            odd,
            Summary {
                count: 3,
                median_ms: Some(30_000),
                longest_ms: Some(50_000),
                overruns: 1,
                overrun_total_ms: 5_000
            }
        );
        let even = summarize(&[t(20_001, 0), t(10_000, 0), t(47_000, 2_000), t(16_000, 1)]);
        assert_eq!(even.median_ms, Some(18_000));
        assert_eq!((even.overruns, even.overrun_total_ms, even.longest_ms), (2, 2_001, Some(47_000)));
    }
}
