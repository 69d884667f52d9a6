//! What taking a result back does to the standings already out: the standings after its round and every
//! later round played change (the match needs a result and counts for nothing until one is recorded; the
//! rest stands), and when it was the last round played, its standings wait for the result again.

use crate::error::Result;
use crate::store::{matches, round};
use rusqlite::Connection;

/// The standings a correction moved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StandingsMoved {
    /// The rounds whose standings changed, in order (empty when no result was taken back, or only one of the
    /// round being played).
    pub rounds: Vec<u32>,
    /// The last round with every result in after the correction (0: none); a moved round after it waits for
    /// the result again.
    pub played: u32,
}

/// The last round with every result in (0: none): the last paired round, or the one before it while it is
/// played; a match without a result in an earlier round (taken back since) does not hold it back, as the
/// standings count it (see [`crate::ops::standings::Results::played`]).
pub fn played(conn: &Connection) -> Result<u32> {
    let current = round::current(conn)?;
    if current == 0 || matches::open_tables(conn, current)?.is_empty() { Ok(current) } else { Ok(current - 1) }
}

impl StandingsMoved {
    /// The standings moved by taking back results of these rounds, `before` being the last round played
    /// before it and `played` the last one after it.
    pub fn of(rounds: impl IntoIterator<Item = u32>, before: u32, played: u32) -> StandingsMoved {
        let first = rounds.into_iter().min();
        let rounds = first.map(|r| (r..=before).collect()).unwrap_or_default();
        StandingsMoved { rounds, played }
    }

    /// "; the standings after rounds 1 to 2 leave it out until a result is recorded (the rest stands)",
    /// "; the standings after round 3 wait for its result (the latest are after round 2)", or nothing.
    pub fn words(&self, matches: usize) -> String {
        let it = if matches == 1 { "it" } else { "them" };
        let mut out = String::new();
        let (kept, waiting): (Vec<u32>, Vec<u32>) = self.rounds.iter().partition(|&&r| r <= self.played);
        if !kept.is_empty() {
            out.push_str(&format!(
                "; the standings after {} change: {it} need{} a result and count{} for nothing until one is \
                 recorded (the rest stands)",
                rounds_list(&kept),
                if matches == 1 { "s" } else { "" },
                if matches == 1 { "s" } else { "" },
            ));
        }
        if let Some(&r) = waiting.first() {
            let latest = match self.played {
                0 => "there are none before it".to_string(),
                p => format!("the latest are after round {p}"),
            };
            out.push_str(&format!("; the standings after round {r} wait for {it} again ({latest})"));
        }
        out
    }
}

/// "round 2", "rounds 1 and 2", "rounds 1 to 3".
fn rounds_list(rounds: &[u32]) -> String {
    match rounds {
        [one] => format!("round {one}"),
        [a, b] => format!("rounds {a} and {b}"),
        [first, .., last] => format!("rounds {first} to {last}"),
        [] => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_earlier_round_moves_every_standings_since_and_the_last_round_played_waits() {
        let moved = StandingsMoved::of([1], 2, 2);
        assert_eq!(moved.rounds, vec![1, 2]);
        assert_eq!(
            moved.words(1),
            "; the standings after rounds 1 and 2 change: it needs a result and counts for nothing until one is \
             recorded (the rest stands)"
        );
        let last = StandingsMoved::of([3, 3], 3, 2);
        assert_eq!(last.words(2), "; the standings after round 3 wait for them again (the latest are after round 2)");
        assert_eq!(
            StandingsMoved::of([1], 1, 0).words(1),
            "; the standings after round 1 wait for it again (there are none before it)"
        );
        assert_eq!(StandingsMoved::of([], 3, 3).words(0), "");
        // A result taken back in the round being played moves no standings.
        assert_eq!(StandingsMoved::of([4], 3, 3).rounds, Vec::<u32>::new());
        assert!(StandingsMoved::of([1], 4, 4).words(1).contains("rounds 1 to 4"));
    }
}
