//! Challenges ("Challenges" in the tournament rules): who lost one, when losing them loses the match,
//! and the judges' watch report for players whose challenges are mostly denied.

use std::collections::BTreeMap;

/// A judge's ruling on a challenge, from the challenger's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ruling {
    /// The challenger was right: the other player lost the challenge.
    Upheld,
    /// The challenger was wrong: the challenger lost the challenge.
    Denied,
}

impl Ruling {
    /// As stored: `upheld` or `denied`.
    pub fn slug(self) -> &'static str {
        match self {
            Ruling::Upheld => "upheld",
            Ruling::Denied => "denied",
        }
    }

    /// Reads a stored ruling.
    pub fn parse(text: &str) -> Option<Ruling> {
        match text {
            "upheld" => Some(Ruling::Upheld),
            "denied" => Some(Ruling::Denied),
            _ => None,
        }
    }

    /// Whether the challenger lost the challenge (the challenge was denied).
    pub fn challenger_lost(self) -> bool {
        self == Ruling::Denied
    }
}

/// Whether a player who has now lost `lost` challenges in one match loses it, under the event's
/// `challenge-limit`.
pub fn loses_match(lost: u32, limit: u32) -> bool {
    limit > 0 && lost >= limit
}

/// A player is flagged in the watch report after making at least this many challenges...
pub const FLAG_MIN_MADE: u32 = 3;

/// ...of which more than half were denied.
pub const FLAG_WORDS: &str = "at least 3 challenges made and more than half of them denied";

/// One challenge, seen by the watch report: who made it and who lost it (player keys of any type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heard<P> {
    /// The challenger.
    pub by: P,
    /// The player whose position lost.
    pub loser: P,
    /// Whether the challenger lost (denied).
    pub denied: bool,
}

/// One player's line in the watch report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct WatchLine {
    /// Challenges the player made.
    pub made: u32,
    /// Of those, denied (the player lost their own challenge).
    pub denied: u32,
    /// Challenges lost in total (own denied plus opponents' upheld).
    pub lost: u32,
    /// Possible stalling: see [`FLAG_WORDS`].
    pub flagged: bool,
}

impl WatchLine {
    /// Denied challenges as a share of those made (0 when none made).
    pub fn denied_rate(&self) -> f64 {
        if self.made == 0 { 0.0 } else { f64::from(self.denied) / f64::from(self.made) }
    }
}

/// Whether `made` challenges of which `denied` were denied are "mostly denied".
pub fn mostly_denied(made: u32, denied: u32) -> bool {
    made >= FLAG_MIN_MADE && denied.saturating_mul(2) > made
}

/// The watch report: one line per player involved in any challenge.
pub fn watch<P: Ord + Copy>(heard: &[Heard<P>]) -> BTreeMap<P, WatchLine> {
    let mut lines: BTreeMap<P, WatchLine> = BTreeMap::new();
    for h in heard {
        let by = lines.entry(h.by).or_default();
        by.made += 1;
        if h.denied {
            by.denied += 1;
        }
        lines.entry(h.loser).or_default().lost += 1;
    }
    for line in lines.values_mut() {
        line.flagged = mostly_denied(line.made, line.denied);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denied_means_the_challenger_lost() {
        assert!(Ruling::Denied.challenger_lost());
        assert!(!Ruling::Upheld.challenger_lost());
        assert_eq!(Ruling::parse("upheld"), Some(Ruling::Upheld));
        assert_eq!(Ruling::parse("maybe"), None);
    }

    #[test]
    fn the_limit_loses_the_match() {
        assert!(!loses_match(1, 2));
        assert!(loses_match(2, 2));
        assert!(loses_match(1, 1));
    }

    #[test]
    fn watch_counts_and_flags() {
        let h = |by, loser, denied| Heard { by, loser, denied };
        // Player 1 challenges 4 times, 3 denied; player 2 once, upheld.
        let heard =
            [h(1, 1, true), h(1, 1, true), h(1, 2, false), h(1, 1, true), h(2, 1, false), h(3, 3, true), h(3, 3, true)];
        let w = watch(&heard);
        assert_eq!(w[&1], WatchLine { made: 4, denied: 3, lost: 4, flagged: true });
        assert_eq!(w[&2], WatchLine { made: 1, denied: 0, lost: 1, flagged: false });
        assert!(!w[&3].flagged, "2 of 2 denied is too few to flag");
        assert!((w[&1].denied_rate() - 0.75).abs() < 1e-9);
    }

    #[test]
    fn half_denied_is_not_mostly() {
        assert!(!mostly_denied(4, 2));
        assert!(mostly_denied(3, 2));
        assert!(!mostly_denied(0, 0));
    }
}
