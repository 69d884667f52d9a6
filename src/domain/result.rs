//! Match results: why a game ended and whether a claimed result is consistent with it.
//!
//! A match is one game ("Match Victory" in the tournament rules). At the end of time the active player
//! finishes the turn and the higher life total wins, unless a judge rules a complete lock; equal life
//! totals are a draw. [`decide`] checks a judge's claim against those rules.

use std::fmt;

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A player's life was reduced to 0.
    Life,
    /// A player could not draw from either library.
    Decking,
    /// Ten poison counters.
    Poison,
    /// A player conceded.
    Concession,
    /// End of round: the higher life total wins, equal is a draw.
    Time,
    /// At time, a judge ruled a complete lock for one player.
    Lock,
    /// A player lost as many challenges as the event's challenge limit.
    Challenges,
    /// A player did not come to the table.
    NoShow,
    /// A Game Loss, Match Loss or Disqualification ended the match.
    Penalty,
    /// The players agreed to a draw.
    IntentionalDraw,
}

impl Reason {
    /// Every reason, in the order the help lists them.
    pub const ALL: [Reason; 10] = [
        Reason::Life,
        Reason::Decking,
        Reason::Poison,
        Reason::Concession,
        Reason::Time,
        Reason::Lock,
        Reason::Challenges,
        Reason::NoShow,
        Reason::Penalty,
        Reason::IntentionalDraw,
    ];

    /// The word typed after `--by` and stored.
    pub fn slug(self) -> &'static str {
        match self {
            Reason::Life => "life",
            Reason::Decking => "decking",
            Reason::Poison => "poison",
            Reason::Concession => "concession",
            Reason::Time => "time",
            Reason::Lock => "lock",
            Reason::Challenges => "challenges",
            Reason::NoShow => "no-show",
            Reason::Penalty => "penalty",
            Reason::IntentionalDraw => "intentional-draw",
        }
    }

    /// Reads a reason: the slug (case-insensitive, space or underscore for the dash) or a unique prefix.
    pub fn parse(text: &str) -> Result<Reason, String> {
        let key = text.trim().to_lowercase().replace([' ', '_'], "-");
        if let Some(r) = Reason::ALL.into_iter().find(|r| r.slug() == key) {
            return Ok(r);
        }
        let starts: Vec<Reason> =
            Reason::ALL.into_iter().filter(|r| !key.is_empty() && r.slug().starts_with(&key)).collect();
        if let [one] = starts.as_slice() {
            return Ok(*one);
        }
        let all: Vec<&str> = Reason::ALL.iter().map(|r| r.slug()).collect();
        let near = super::names::closest(text, all.iter().copied(), 1);
        let hint = near.first().map(|n| format!("did you mean {n}? ")).unwrap_or_default();
        Err(format!("unknown reason \"{text}\": {hint}reasons are {}", all.join(", ")))
    }

    /// Whether a result this way says a game was played (life, decking, poison, time, a lock, lost challenges),
    /// so it needs the round's clock to have started; a concession, an intentional draw, a no-show or a penalty
    /// may come before.
    pub fn needs_play(self) -> bool {
        matches!(
            self,
            Reason::Life | Reason::Decking | Reason::Poison | Reason::Time | Reason::Lock | Reason::Challenges
        )
    }

    /// Whether a game ending this way can be a draw.
    pub fn allows_draw(self) -> bool {
        matches!(
            self,
            Reason::Life | Reason::Decking | Reason::Poison | Reason::Time | Reason::Penalty | Reason::IntentionalDraw
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// A seat at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Seat {
    /// Seat A (listed first).
    A,
    /// Seat B.
    B,
}

impl Seat {
    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::A => Seat::B,
            Seat::B => Seat::A,
        }
    }
}

/// Who won a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Verdict {
    /// The player at this seat won.
    Won(Seat),
    /// A draw.
    Draw,
}

/// What a judge claims about a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    /// The winner or a draw; `None` when not given (only `time` decides by itself).
    pub verdict: Option<Verdict>,
    /// Why the game ended.
    pub reason: Reason,
    /// Life totals at seat A and seat B, when given.
    pub life: Option<(i64, i64)>,
}

/// Why a claim is refused: one sentence naming the players, worded for each front end (the command line names
/// its flags, `--life`; the web the form's fields, "the life totals").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unclaimed {
    /// The command line's words.
    pub command_line: String,
    /// The web's words (no flag, no backquote).
    pub web: String,
}

impl Unclaimed {
    fn both(words: String) -> Unclaimed {
        Unclaimed { command_line: words.clone(), web: words }
    }

    fn each(command_line: String, web: String) -> Unclaimed {
        Unclaimed { command_line, web }
    }
}

impl std::fmt::Display for Unclaimed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.command_line)
    }
}

/// Checks a claim and returns the result it stands for; the error is one sentence naming the players
/// (`names` are the players at seat A and seat B).
pub fn decide(claim: Claim, names: (&str, &str)) -> Result<Verdict, Unclaimed> {
    let name = |s: Seat| if s == Seat::A { names.0 } else { names.1 };
    let life_of = |l: (i64, i64), s: Seat| if s == Seat::A { l.0 } else { l.1 };
    if let Some(l) = claim.life {
        for s in [Seat::A, Seat::B] {
            if life_of(l, s) < 0 {
                return Err(Unclaimed::both(format!(
                    "life totals are 0 or more, not {} for {} (a player at or below 0 is recorded at 0)",
                    life_of(l, s),
                    name(s)
                )));
            }
        }
    }
    if claim.reason == Reason::Time {
        return decide_at_time(claim, names);
    }
    let Some(verdict) = claim.verdict else {
        let or_draw = if claim.reason.allows_draw() { ", or `draw`" } else { "" };
        let web_or_draw = if claim.reason.allows_draw() { ", or a draw" } else { "" };
        return Err(Unclaimed::each(
            format!(
                "name the winner ({} or {}{or_draw}): a result --by {} needs one; only --by time takes the winner \
                 from the --life totals",
                names.0, names.1, claim.reason
            ),
            format!(
                "name the winner ({} or {}{web_or_draw}): a game ended by {} needs one; only a result at time takes \
                 the winner from the life totals",
                names.0, names.1, claim.reason
            ),
        ));
    };
    match (claim.reason, verdict) {
        (Reason::IntentionalDraw, Verdict::Won(_)) => Err(Unclaimed::each(
            "TR.draws: an intentional draw has no winner: give `draw` instead of a player".into(),
            "TR.draws: an intentional draw has no winner: choose a draw instead of a player".into(),
        )),
        (r, Verdict::Draw) if !r.allows_draw() => Err(Unclaimed::each(
            format!("TR.draws: a game ended by {r} has a winner: name the player who won instead of `draw`"),
            format!("TR.draws: a game ended by {r} has a winner: name the player who won instead of a draw"),
        )),
        (Reason::Life, v) => check_life_zero(v, claim.life, names),
        (_, v) => Ok(v),
    }
}

/// `--by time`: the life totals decide; a given winner must agree with them.
fn decide_at_time(claim: Claim, names: (&str, &str)) -> Result<Verdict, Unclaimed> {
    let Some((a, b)) = claim.life else {
        return Err(Unclaimed::each(
            format!(
                "--by time needs both life totals: --life A B ({}'s, then {}'s); the higher total wins",
                names.0, names.1
            ),
            format!(
                "a result at time needs both life totals ({}'s, then {}'s); the higher total wins",
                names.0, names.1
            ),
        ));
    };
    let decided = match a.cmp(&b) {
        std::cmp::Ordering::Greater => Verdict::Won(Seat::A),
        std::cmp::Ordering::Less => Verdict::Won(Seat::B),
        std::cmp::Ordering::Equal => Verdict::Draw,
    };
    match claim.verdict {
        Some(v) if v != decided => {
            let says = match decided {
                Verdict::Won(Seat::A) => format!("{} ({a}) beats {} ({b})", names.0, names.1),
                Verdict::Won(Seat::B) => format!("{} ({b}) beats {} ({a})", names.1, names.0),
                Verdict::Draw => format!("equal life ({a}) is a draw"),
            };
            Err(Unclaimed::each(
                format!(
                    "TR.end-of-match: at time the higher life total wins: {says}; leave the winner out to let the totals \
                     decide, or use --by lock if a judge ruled a complete lock"
                ),
                format!(
                    "TR.end-of-match: at time the higher life total wins: {says}; leave the winner out to let the totals \
                     decide, or choose lock as why the game ended if a judge ruled a complete lock"
                ),
            ))
        }
        _ => Ok(decided),
    }
}

/// `--by life` with totals: the loser is at 0 (both, for a draw) and a winner is above 0.
fn check_life_zero(v: Verdict, life: Option<(i64, i64)>, names: (&str, &str)) -> Result<Verdict, Unclaimed> {
    let Some((a, b)) = life else { return Ok(v) };
    let ok = match v {
        Verdict::Won(Seat::A) => b == 0 && a > 0,
        Verdict::Won(Seat::B) => a == 0 && b > 0,
        Verdict::Draw => a == 0 && b == 0,
    };
    if ok {
        return Ok(v);
    }
    let what = match v {
        Verdict::Won(Seat::A) => format!("{} won with {} at 0", names.0, names.1),
        Verdict::Won(Seat::B) => format!("{} won with {} at 0", names.1, names.0),
        Verdict::Draw => "both players reached 0".into(),
    };
    Err(Unclaimed::each(
        format!(
            "--by life means {what}, but --life gives {} {a} and {} {b}: check the totals or the reason",
            names.0, names.1
        ),
        format!(
            "a game ended by life means {what}, but the life totals given are {} {a} and {} {b}: check the totals or \
             why the game ended",
            names.0, names.1
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: (&str, &str) = ("Ana", "Bo");

    fn claim(verdict: Option<Verdict>, reason: Reason, life: Option<(i64, i64)>) -> Claim {
        Claim { verdict, reason, life }
    }

    #[test]
    fn parses_reasons_by_slug_and_prefix() {
        for r in Reason::ALL {
            assert_eq!(Reason::parse(r.slug()), Ok(r));
        }
        assert_eq!(Reason::parse("Intentional Draw"), Ok(Reason::IntentionalDraw));
        assert_eq!(Reason::parse("conc"), Ok(Reason::Concession));
        assert_eq!(Reason::parse("no_show"), Ok(Reason::NoShow));
        let err = Reason::parse("lfie").err().unwrap_or_default();
        assert!(err.contains("did you mean life"), "{err}");
        assert!(Reason::parse("").is_err());
        assert!(Reason::parse("p").is_err(), "poison or penalty");
    }

    #[test]
    fn time_decides_by_life_totals() {
        let t = |v, a, b| decide(claim(v, Reason::Time, Some((a, b))), NAMES);
        assert_eq!(t(None, 7, 5), Ok(Verdict::Won(Seat::A)));
        assert_eq!(t(None, 3, 5), Ok(Verdict::Won(Seat::B)));
        assert_eq!(t(None, 4, 4), Ok(Verdict::Draw));
        assert_eq!(t(Some(Verdict::Won(Seat::B)), 3, 5), Ok(Verdict::Won(Seat::B)));
        assert_eq!(t(Some(Verdict::Draw), 4, 4), Ok(Verdict::Draw));
        let err = t(Some(Verdict::Won(Seat::A)), 3, 5).err().map(|e| e.command_line).unwrap_or_default();
        assert!(err.contains("Bo (5) beats Ana (3)"), "{err}");
        assert!(t(Some(Verdict::Draw), 3, 5).is_err());
        assert!(
            t(Some(Verdict::Won(Seat::A)), 4, 4).err().map(|e| e.command_line).unwrap_or_default().contains("draw")
        );
    }

    #[test]
    fn time_needs_life_totals() {
        let err = decide(claim(Some(Verdict::Won(Seat::A)), Reason::Time, None), NAMES)
            .err()
            .map(|e| e.command_line)
            .unwrap_or_default();
        assert!(err.contains("needs both life totals"), "{err}");
    }

    #[test]
    fn refuses_negative_life() {
        let err = decide(claim(Some(Verdict::Won(Seat::A)), Reason::Concession, Some((3, -2))), NAMES);
        assert!(err.err().map(|e| e.command_line).unwrap_or_default().contains("-2 for Bo"));
    }

    #[test]
    fn draws_only_where_a_game_can_be_drawn() {
        let d = |r| decide(claim(Some(Verdict::Draw), r, None), NAMES);
        assert_eq!(d(Reason::IntentionalDraw), Ok(Verdict::Draw));
        assert_eq!(d(Reason::Decking), Ok(Verdict::Draw));
        for r in [Reason::Concession, Reason::Lock, Reason::Challenges, Reason::NoShow] {
            assert!(d(r).err().map(|e| e.command_line).unwrap_or_default().contains("has a winner"), "{r}");
        }
        let err = decide(claim(Some(Verdict::Won(Seat::A)), Reason::IntentionalDraw, None), NAMES);
        assert!(err.err().map(|e| e.command_line).unwrap_or_default().contains("no winner"));
    }

    #[test]
    fn a_winner_is_needed_except_at_time() {
        assert!(decide(claim(None, Reason::Life, None), NAMES).is_err());
    }

    #[test]
    fn life_means_the_loser_is_at_zero() {
        let l = |v, a, b| decide(claim(Some(v), Reason::Life, Some((a, b))), NAMES);
        assert_eq!(l(Verdict::Won(Seat::A), 12, 0), Ok(Verdict::Won(Seat::A)));
        assert_eq!(l(Verdict::Draw, 0, 0), Ok(Verdict::Draw));
        assert!(l(Verdict::Won(Seat::A), 12, 3).err().map(|e| e.command_line).unwrap_or_default().contains("Bo 3"));
        assert!(l(Verdict::Won(Seat::B), 12, 0).is_err());
        assert!(l(Verdict::Won(Seat::A), 0, 0).is_err());
    }
}
