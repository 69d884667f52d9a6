//! Infraction catalogue after Magic's Infraction Procedure Guide (IPG, appendix A), with its upgrade
//! rules for repeated Warnings.
//!
//! Upgrades implemented by [`effective_penalty`] (the IPG's own rules, counted per infraction):
//! - Game Play Errors (Looking at Extra Cards, Hidden Card Error, Mulligan Procedure Error, Game Rule
//!   Violation): the THIRD and later Warning is upgraded to a Game Loss.
//! - Failure to Maintain Game State is never upgraded; Missed Trigger carries no penalty, so it has no
//!   Warning to upgrade.
//! - Tournament Errors whose penalty is a Warning (Slow Play, Deck Problem, Limited Procedure Violation,
//!   Communication Policy Violation, Marked Cards, Insufficient Shuffling): the SECOND and later
//!   Warning is upgraded to a Game Loss.
//! - Unsporting Conduct — Minor: the second and later is a Game Loss.
//! - Game Loss, Match Loss and Disqualification penalties are never upgraded.
//!
//! The caller counts the player's earlier Warnings for the same infraction in the event (the IPG resets
//! the count between days of a multi-day event).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A penalty, from lightest to heaviest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PenaltyKind {
    /// No penalty (slug `none`).
    #[serde(rename = "none")]
    NoPenalty,
    /// Warning.
    Warning,
    /// Game Loss.
    GameLoss,
    /// Match Loss.
    MatchLoss,
    /// Disqualification.
    Disqualification,
}

/// The IPG's three families of infractions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InfractionCategory {
    /// Violations of the game rules.
    GamePlayError,
    /// Violations of the tournament rules.
    TournamentError,
    /// Unsporting conduct.
    UnsportingConduct,
}

/// An infraction of the IPG; serialized as its slug (e.g. `game-rule-violation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Infraction {
    /// Game Play Error — Missed Trigger (no penalty).
    MissedTrigger,
    /// Game Play Error — Looking at Extra Cards (Warning).
    LookingAtExtraCards,
    /// Game Play Error — Hidden Card Error (Warning).
    HiddenCardError,
    /// Game Play Error — Mulligan Procedure Error (Warning).
    MulliganProcedureError,
    /// Game Play Error — Game Rule Violation (Warning).
    GameRuleViolation,
    /// Game Play Error — Failure to Maintain Game State (Warning, never upgraded).
    FailureToMaintainGameState,
    /// Tournament Error — Tardiness (Game Loss).
    Tardiness,
    /// Tournament Error — Outside Assistance (Match Loss).
    OutsideAssistance,
    /// Tournament Error — Slow Play (Warning).
    SlowPlay,
    /// Tournament Error — Decklist Problem (Game Loss).
    DecklistProblem,
    /// Tournament Error — Deck Problem (Warning).
    DeckProblem,
    /// Tournament Error — Limited Procedure Violation (Warning).
    LimitedProcedureViolation,
    /// Tournament Error — Communication Policy Violation (Warning).
    CommunicationPolicyViolation,
    /// Tournament Error — Marked Cards (Warning).
    MarkedCards,
    /// Tournament Error — Insufficient Shuffling (Warning).
    InsufficientShuffling,
    /// Unsporting Conduct — Minor (Warning).
    MinorUnsportingConduct,
    /// Unsporting Conduct — Major (Match Loss).
    MajorUnsportingConduct,
    /// Unsporting Conduct — Improperly Determining a Winner (Match Loss).
    ImproperlyDeterminingAWinner,
    /// Unsporting Conduct — Bribery and Wagering (Match Loss).
    BriberyAndWagering,
    /// Unsporting Conduct — Aggressive Behaviour (Disqualification).
    AggressiveBehaviour,
    /// Unsporting Conduct — Theft of Tournament Material (Disqualification).
    TheftOfTournamentMaterial,
    /// Unsporting Conduct — Stalling (Disqualification).
    Stalling,
    /// Unsporting Conduct — Cheating (Disqualification).
    Cheating,
}

/// A name that could not be read as an infraction or a penalty.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PenaltyError {
    /// No infraction matches.
    #[error("unknown infraction '{given}': did you mean {}?", .closest.join(", "))]
    UnknownInfraction {
        /// The text given.
        given: String,
        /// The closest infraction slugs.
        closest: Vec<&'static str>,
    },
    /// Several infractions start with the text given.
    #[error("infraction '{given}' is ambiguous: type more of {}", .candidates.join(", "))]
    AmbiguousInfraction {
        /// The text given.
        given: String,
        /// The slugs it starts.
        candidates: Vec<&'static str>,
    },
    /// No penalty matches.
    #[error("unknown penalty '{given}': use none, warning, game-loss, match-loss or disqualification (dq)")]
    UnknownPenalty {
        /// The text given.
        given: String,
    },
}

use InfractionCategory::{GamePlayError as Gpe, TournamentError as Te, UnsportingConduct as Usc};
use PenaltyKind::{Disqualification as Dq, GameLoss as Gl, MatchLoss as Ml, NoPenalty, Warning};

/// Catalogue line: slug, name, category, default penalty, prior Warnings that trigger an upgrade.
type Entry = (&'static str, &'static str, InfractionCategory, PenaltyKind, Option<u32>);

/// In the order of the enum's variants (checked by a test).
const CATALOGUE: [Entry; 23] = [
    ("missed-trigger", "Missed Trigger", Gpe, NoPenalty, None),
    ("looking-at-extra-cards", "Looking at Extra Cards", Gpe, Warning, Some(2)),
    ("hidden-card-error", "Hidden Card Error", Gpe, Warning, Some(2)),
    ("mulligan-procedure-error", "Mulligan Procedure Error", Gpe, Warning, Some(2)),
    ("game-rule-violation", "Game Rule Violation", Gpe, Warning, Some(2)),
    ("failure-to-maintain-game-state", "Failure to Maintain Game State", Gpe, Warning, None),
    ("tardiness", "Tardiness", Te, Gl, None),
    ("outside-assistance", "Outside Assistance", Te, Ml, None),
    ("slow-play", "Slow Play", Te, Warning, Some(1)),
    ("decklist-problem", "Decklist Problem", Te, Gl, None),
    ("deck-problem", "Deck Problem", Te, Warning, Some(1)),
    ("limited-procedure-violation", "Limited Procedure Violation", Te, Warning, Some(1)),
    ("communication-policy-violation", "Communication Policy Violation", Te, Warning, Some(1)),
    ("marked-cards", "Marked Cards", Te, Warning, Some(1)),
    ("insufficient-shuffling", "Insufficient Shuffling", Te, Warning, Some(1)),
    ("minor-unsporting-conduct", "Unsporting Conduct — Minor", Usc, Warning, Some(1)),
    ("major-unsporting-conduct", "Unsporting Conduct — Major", Usc, Ml, None),
    ("improperly-determining-a-winner", "Improperly Determining a Winner", Usc, Ml, None),
    ("bribery-and-wagering", "Bribery and Wagering", Usc, Ml, None),
    ("aggressive-behaviour", "Aggressive Behaviour", Usc, Dq, None),
    ("theft-of-tournament-material", "Theft of Tournament Material", Usc, Dq, None),
    ("stalling", "Stalling", Usc, Dq, None),
    ("cheating", "Cheating", Usc, Dq, None),
];

impl Infraction {
    /// Every infraction, in catalogue order.
    pub const ALL: [Infraction; 23] = [
        Infraction::MissedTrigger,
        Infraction::LookingAtExtraCards,
        Infraction::HiddenCardError,
        Infraction::MulliganProcedureError,
        Infraction::GameRuleViolation,
        Infraction::FailureToMaintainGameState,
        Infraction::Tardiness,
        Infraction::OutsideAssistance,
        Infraction::SlowPlay,
        Infraction::DecklistProblem,
        Infraction::DeckProblem,
        Infraction::LimitedProcedureViolation,
        Infraction::CommunicationPolicyViolation,
        Infraction::MarkedCards,
        Infraction::InsufficientShuffling,
        Infraction::MinorUnsportingConduct,
        Infraction::MajorUnsportingConduct,
        Infraction::ImproperlyDeterminingAWinner,
        Infraction::BriberyAndWagering,
        Infraction::AggressiveBehaviour,
        Infraction::TheftOfTournamentMaterial,
        Infraction::Stalling,
        Infraction::Cheating,
    ];

    fn entry(self) -> &'static Entry {
        &CATALOGUE[self as usize]
    }

    /// Slug, e.g. `game-rule-violation`.
    pub fn slug(self) -> &'static str {
        self.entry().0
    }

    /// Name as the IPG writes it, e.g. `Game Rule Violation`.
    pub fn name(self) -> &'static str {
        self.entry().1
    }

    /// IPG family of the infraction.
    pub fn category(self) -> InfractionCategory {
        self.entry().2
    }

    /// Penalty before any upgrade.
    pub fn default_penalty(self) -> PenaltyKind {
        self.entry().3
    }

    /// Number of earlier Warnings for this infraction from which a new one becomes a Game Loss
    /// (2 for upgradable Game Play Errors, 1 for Tournament Errors and minor unsporting conduct).
    pub fn upgrade_after(self) -> Option<u32> {
        self.entry().4
    }

    /// Reads an infraction: its slug, case-insensitive, with spaces or underscores for dashes, or a
    /// prefix of exactly one slug ("slow" = slow-play). Unknown or ambiguous text is an error naming
    /// the closest slugs.
    pub fn parse(text: &str) -> Result<Infraction, PenaltyError> {
        let key = normalize(text);
        if let Some(&i) = Infraction::ALL.iter().find(|i| i.slug() == key) {
            return Ok(i);
        }
        let starts: Vec<Infraction> = if key.is_empty() {
            Vec::new()
        } else {
            Infraction::ALL.into_iter().filter(|i| i.slug().starts_with(&key)).collect()
        };
        match starts.as_slice() {
            [one] => Ok(*one),
            [] => Err(PenaltyError::UnknownInfraction { given: text.to_string(), closest: closest_slugs(&key) }),
            many => Err(PenaltyError::AmbiguousInfraction {
                given: text.to_string(),
                candidates: many.iter().map(|i| i.slug()).collect(),
            }),
        }
    }
}

impl fmt::Display for Infraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

impl FromStr for Infraction {
    type Err = PenaltyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Infraction::parse(s)
    }
}

impl PenaltyKind {
    /// Every penalty, lightest first.
    pub const ALL: [PenaltyKind; 5] = [NoPenalty, Warning, Gl, Ml, Dq];

    /// Slug: `none`, `warning`, `game-loss`, `match-loss`, `disqualification`.
    pub fn slug(self) -> &'static str {
        match self {
            NoPenalty => "none",
            Warning => "warning",
            Gl => "game-loss",
            Ml => "match-loss",
            Dq => "disqualification",
        }
    }

    /// Name as the IPG writes it, e.g. `Game Loss`.
    pub fn name(self) -> &'static str {
        match self {
            NoPenalty => "No Penalty",
            Warning => "Warning",
            Gl => "Game Loss",
            Ml => "Match Loss",
            Dq => "Disqualification",
        }
    }
}

impl fmt::Display for PenaltyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

impl FromStr for PenaltyKind {
    type Err = PenaltyError;
    /// Accepts the slug (case-insensitive, spaces for dashes), any unique prefix of it ("warn", "g"),
    /// and the short forms `no-penalty`, `w`, `gl`, `ml`, `dq`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = normalize(s);
        let alias = match key.as_str() {
            "no-penalty" => Some(NoPenalty),
            "gl" => Some(Gl),
            "ml" => Some(Ml),
            "dq" => Some(Dq),
            _ => None,
        };
        let by_prefix = || {
            let mut found = PenaltyKind::ALL.into_iter().filter(|k| k.slug().starts_with(&key));
            match (found.next(), found.next()) {
                (Some(k), None) if !key.is_empty() => Some(k),
                _ => None,
            }
        };
        alias.or_else(by_prefix).ok_or_else(|| PenaltyError::UnknownPenalty { given: s.to_string() })
    }
}

/// Penalty to issue for `infraction` given the player's earlier Warnings for the same infraction in
/// the event, and the explanation of any change from the default: an upgrade (see the module
/// documentation) or the head judge's override, which always wins when given.
pub fn effective_penalty(
    infraction: Infraction,
    prior_same_infraction_warnings: u32,
    head_judge_override: Option<PenaltyKind>,
) -> (PenaltyKind, Option<String>) {
    let base = infraction.default_penalty();
    let upgraded = match infraction.upgrade_after() {
        Some(after) if base == Warning && prior_same_infraction_warnings >= after => {
            let nth = ordinal(prior_same_infraction_warnings.saturating_add(1));
            let note = format!("{nth} Warning for {} in this event: upgraded to Game Loss", infraction.name());
            (Gl, Some(note))
        }
        _ => (base, None),
    };
    match head_judge_override {
        Some(kind) if kind != upgraded.0 => {
            let note = format!("{OVERRIDE_NOTE}{} instead of {}", kind.name(), upgraded.0.name());
            (kind, Some(note))
        }
        _ => upgraded,
    }
}

/// How an override's explanation starts (see [`effective_penalty`]).
const OVERRIDE_NOTE: &str = "head judge override: ";

/// A penalty as issued: the penalty and the explanation of any change from the default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued {
    /// The penalty issued.
    pub kind: PenaltyKind,
    /// Why it differs from the default (an upgrade or the head judge's override), if it does.
    pub note: Option<String>,
}

impl Issued {
    /// Whether the head judge chose this penalty instead of the guide's.
    pub fn is_override(&self) -> bool {
        self.note.as_deref().is_some_and(|n| n.starts_with(OVERRIDE_NOTE))
    }
}

/// Issues again a player's penalties for one infraction, in the order they were given, once the count of
/// earlier Warnings has changed (a voided penalty left the list): each is upgraded by the Warnings issued
/// before it in the list; a head judge's override stays as it was (and counts as what it issued).
pub fn reissue(infraction: Infraction, given: &[Issued]) -> Vec<Issued> {
    let mut warnings = 0u32;
    let mut out = Vec::with_capacity(given.len());
    for g in given {
        let now = if g.is_override() {
            g.clone()
        } else {
            let (kind, note) = effective_penalty(infraction, warnings, None);
            Issued { kind, note }
        };
        if now.kind == Warning {
            warnings = warnings.saturating_add(1);
        }
        out.push(now);
    }
    out
}

/// True for penalties that end a one-game match: Game Loss, Match Loss and Disqualification.
pub fn ends_match(kind: PenaltyKind) -> bool {
    matches!(kind, Gl | Ml | Dq)
}

fn normalize(text: &str) -> String {
    let lower = text.trim().to_lowercase().replace([' ', '_'], "-");
    lower.split('-').filter(|w| !w.is_empty()).collect::<Vec<_>>().join("-")
}

/// The three slugs closest to `key` (Jaro-Winkler similarity).
fn closest_slugs(key: &str) -> Vec<&'static str> {
    let mut scored: Vec<(f64, &'static str)> =
        Infraction::ALL.iter().map(|i| (strsim::jaro_winkler(key, i.slug()), i.slug())).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, slug)| slug).collect()
}

/// "1st", "2nd", "3rd", "4th", ...
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_follows_the_enum_order_and_slugs_round_trip() {
        for (pos, infraction) in Infraction::ALL.into_iter().enumerate() {
            assert_eq!(infraction as usize, pos);
            assert_eq!(Infraction::parse(infraction.slug()), Ok(infraction));
            assert_eq!(infraction.to_string(), infraction.slug());
            let json = serde_json::to_string(&infraction).unwrap();
            assert_eq!(json, format!("\"{}\"", infraction.slug()));
        }
        for kind in PenaltyKind::ALL {
            assert_eq!(kind.slug().parse(), Ok(kind));
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{kind}\""));
        }
    }

    #[test]
    fn default_penalties() {
        let cases = [
            (Infraction::MissedTrigger, NoPenalty),
            (Infraction::LookingAtExtraCards, Warning),
            (Infraction::FailureToMaintainGameState, Warning),
            (Infraction::InsufficientShuffling, Warning),
            (Infraction::MinorUnsportingConduct, Warning),
            (Infraction::Tardiness, Gl),
            (Infraction::DecklistProblem, Gl),
            (Infraction::OutsideAssistance, Ml),
            (Infraction::BriberyAndWagering, Ml),
            (Infraction::ImproperlyDeterminingAWinner, Ml),
            (Infraction::AggressiveBehaviour, Dq),
            (Infraction::Cheating, Dq),
        ];
        for (infraction, want) in cases {
            assert_eq!(infraction.default_penalty(), want, "{infraction}");
        }
        let warnings = Infraction::ALL.iter().filter(|i| i.default_penalty() == Warning).count();
        assert_eq!(warnings, 12);
    }

    #[test]
    fn parse_accepts_spaces_case_and_unique_prefixes() {
        let cases = [
            ("Slow Play", Infraction::SlowPlay),
            ("  SLOW_play ", Infraction::SlowPlay),
            ("slow", Infraction::SlowPlay),
            ("game rule", Infraction::GameRuleViolation),
            ("failure  to", Infraction::FailureToMaintainGameState),
            ("decklist", Infraction::DecklistProblem),
            ("ch", Infraction::Cheating),
        ];
        for (text, want) in cases {
            assert_eq!(Infraction::parse(text), Ok(want), "{text:?}");
        }
    }

    #[test]
    fn parse_reports_ambiguous_and_unknown_names() {
        match Infraction::parse("deck") {
            Err(PenaltyError::AmbiguousInfraction { candidates, .. }) => {
                assert_eq!(candidates, vec!["decklist-problem", "deck-problem"]);
            }
            other => panic!("deck: {other:?}"),
        }
        let err = Infraction::parse("chetaing").unwrap_err();
        assert!(matches!(&err, PenaltyError::UnknownInfraction { closest, .. } if closest[0] == "cheating"));
        assert!(err.to_string().contains("did you mean cheating"), "{err}");
        assert!(Infraction::parse("").is_err());
        assert!(Infraction::parse("slow-play-x").is_err());
    }

    #[test]
    fn penalty_kinds_parse_short_forms() {
        let cases = [
            ("dq", Dq),
            ("DQ", Dq),
            ("disq", Dq),
            ("game loss", Gl),
            ("GL", Gl),
            ("g", Gl),
            ("ml", Ml),
            ("Warn", Warning),
            ("w", Warning),
            ("none", NoPenalty),
            ("No penalty", NoPenalty),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<PenaltyKind>(), Ok(want), "{text:?}");
        }
        for bad in ["", "x", "loss"] {
            assert!(bad.parse::<PenaltyKind>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn effective_penalty_applies_ipg_upgrades() {
        // (infraction, prior warnings for it, expected penalty, upgraded?)
        let cases = [
            (Infraction::GameRuleViolation, 0, Warning, false),
            (Infraction::GameRuleViolation, 1, Warning, false),
            (Infraction::GameRuleViolation, 2, Gl, true),
            (Infraction::HiddenCardError, 5, Gl, true),
            (Infraction::FailureToMaintainGameState, 9, Warning, false),
            (Infraction::MissedTrigger, 4, NoPenalty, false),
            (Infraction::SlowPlay, 0, Warning, false),
            (Infraction::SlowPlay, 1, Gl, true),
            (Infraction::CommunicationPolicyViolation, 1, Gl, true),
            (Infraction::MinorUnsportingConduct, 1, Gl, true),
            (Infraction::Tardiness, 3, Gl, false),
            (Infraction::OutsideAssistance, 2, Ml, false),
            (Infraction::Cheating, 0, Dq, false),
        ];
        for (infraction, prior, want, upgraded) in cases {
            let (got, note) = effective_penalty(infraction, prior, None);
            assert_eq!(got, want, "{infraction} after {prior}");
            assert_eq!(note.is_some(), upgraded, "{infraction} after {prior}");
        }
        let (_, note) = effective_penalty(Infraction::GameRuleViolation, 2, None);
        assert_eq!(note.as_deref(), Some("3rd Warning for Game Rule Violation in this event: upgraded to Game Loss"));
    }

    #[test]
    fn head_judge_override_wins() {
        let (kind, note) = effective_penalty(Infraction::SlowPlay, 1, Some(Warning));
        assert_eq!(kind, Warning);
        assert_eq!(note.as_deref(), Some("head judge override: Warning instead of Game Loss"));
        let (kind, note) = effective_penalty(Infraction::Tardiness, 0, Some(Gl));
        assert_eq!((kind, note), (Gl, None));
    }

    #[test]
    fn reissue_after_a_void_lowers_later_upgrades_and_keeps_overrides() {
        let issued = |infraction, prior, chosen| {
            let (kind, note) = effective_penalty(infraction, prior, chosen);
            Issued { kind, note }
        };
        // Slow play: Warning, then Game Loss (upgraded); the first is voided, so the second is a Warning again.
        let second = issued(Infraction::SlowPlay, 1, None);
        assert_eq!(second.kind, Gl);
        assert_eq!(
            reissue(Infraction::SlowPlay, std::slice::from_ref(&second)),
            vec![issued(Infraction::SlowPlay, 0, None)]
        );
        // Game rule violation: W, W, GL(3rd); voiding the first makes the 3rd a Warning.
        let left = [issued(Infraction::GameRuleViolation, 1, None), issued(Infraction::GameRuleViolation, 2, None)];
        let again = reissue(Infraction::GameRuleViolation, &left);
        assert_eq!(again.iter().map(|i| i.kind).collect::<Vec<_>>(), vec![Warning, Warning]);
        assert_eq!(again[1].note, None);
        // An override stays, and a Warning chosen by the head judge counts as one.
        let chosen = issued(Infraction::SlowPlay, 1, Some(Warning));
        assert!(chosen.is_override());
        let again = reissue(Infraction::SlowPlay, &[chosen.clone(), issued(Infraction::SlowPlay, 2, None)]);
        assert_eq!(again[0], chosen);
        assert_eq!(again[1].kind, Gl);
        let dq = issued(Infraction::SlowPlay, 0, Some(Dq));
        assert_eq!(reissue(Infraction::SlowPlay, std::slice::from_ref(&dq)), vec![dq]);
    }

    #[test]
    fn only_losses_and_dq_end_a_one_game_match() {
        let ends: Vec<bool> = PenaltyKind::ALL.into_iter().map(ends_match).collect();
        assert_eq!(ends, vec![false, false, true, true, true]);
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
    }
}
