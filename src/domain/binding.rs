//! Binding classes: which cards may stand for each other (ruleset MM.3f–MM.3i and the binding
//! variants). Every card gets a set of class keys; two cards bind when their key sets meet.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use thiserror::Error;

use super::cost::{Key, ManaCost, keys_intersect};

/// Key shared by every land card that can be bound.
pub const LAND_KEY: &str = "L";

/// The event's binding rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BindingRule {
    /// Same mana cost (hybrid halves, phyrexian as colour, no cost = {0}); nonbasic lands together.
    Standard,
    /// Same first letter and same number of coloured symbols; all lands together.
    Alphabet,
    /// Same first letter and same generic amount; all lands together.
    AlphabetGeneric,
    /// Same first letter, generic amount and number of coloured symbols; all lands together.
    AlphabetExact,
}

impl BindingRule {
    /// Every rule, in the order help texts list them.
    pub const ALL: [BindingRule; 4] =
        [BindingRule::Standard, BindingRule::Alphabet, BindingRule::AlphabetGeneric, BindingRule::AlphabetExact];

    /// The rule's setting name: `standard`, `alphabet`, `alphabet-generic`, `alphabet-exact`.
    pub fn name(self) -> &'static str {
        match self {
            BindingRule::Standard => "standard",
            BindingRule::Alphabet => "alphabet",
            BindingRule::AlphabetGeneric => "alphabet-generic",
            BindingRule::AlphabetExact => "alphabet-exact",
        }
    }

    /// True for the three alphabet variants, which need a card's first letter.
    pub fn needs_letter(self) -> bool {
        self != BindingRule::Standard
    }
}

impl fmt::Display for BindingRule {
    /// The setting name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BindingRule {
    type Err = BindingError;

    /// Reads a setting name, case-insensitively.
    fn from_str(s: &str) -> Result<BindingRule, BindingError> {
        let wanted = s.trim().to_ascii_lowercase();
        BindingRule::ALL
            .into_iter()
            .find(|r| r.name() == wanted)
            .ok_or_else(|| BindingError::UnknownRule { given: s.to_string() })
    }
}

/// Why binding keys could not be worked out.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BindingError {
    /// A binding rule name that does not exist.
    #[error("unknown binding rule \"{given}\": use standard, alphabet, alphabet-generic or alphabet-exact")]
    UnknownRule {
        /// The name given.
        given: String,
    },
    /// An alphabet rule was asked for keys without the printed card's first letter.
    #[error("{rule} binding compares first letters: pass --letter with the printed card's initial")]
    NeedLetter {
        /// The rule in force.
        rule: BindingRule,
    },
    /// The letter given is not a letter or digit.
    #[error("\"{given}\" is not a letter: pass --letter with the printed card's initial")]
    BadLetter {
        /// What was given.
        given: char,
    },
}

/// What binding needs to know about a card (printed or declared).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardShape<'a> {
    /// The card's name (alphabet rules use its first letter).
    pub name: &'a str,
    /// One cost per face, `None` for a face without a mana cost. Only split cards (including
    /// aftermath) use more than the first face: the card's mana cost is its front face's.
    pub face_costs: Vec<Option<ManaCost>>,
    /// A split card: either half binds (rule MM.3g).
    pub is_split: bool,
    /// A land card: its mana cost is ignored.
    pub is_land: bool,
    /// A basic land card (has no class under standard binding).
    pub is_basic_land: bool,
}

/// The class keys of a card under `rule`; two cards bind iff their key lists share a key.
///
/// Standard: one key per plain reading of the card's cost (`S:{1}{B}`); split cards give both
/// halves, plus both halves together when `split_combined`; nonbasic lands give `L` and, having no
/// mana cost, also the key of {0} (rule MM.3f: Dryad Arbor matches a printed {0}); basic lands
/// nothing. Alphabet rules: `A:d:2` (letter, coloured count), `AG:d:1` (letter, generic),
/// `AE:d:1:2` (letter, generic, coloured); every land gives `L`. Sorted, deduplicated.
pub fn binding_keys(rule: BindingRule, card: &CardShape<'_>, split_combined: bool) -> Vec<String> {
    if card.is_land {
        return land_keys(rule, card.is_basic_land);
    }
    let costs = card_costs(card, split_combined);
    class_keys(rule, initial(card.name), &costs)
}

/// The keys of a land card: `L` for the land class (nonbasic lands under standard binding, every land
/// under the alphabet rules) and, under standard binding, the {0} key (no mana cost counts as {0}).
fn land_keys(rule: BindingRule, is_basic: bool) -> Vec<String> {
    match rule {
        BindingRule::Standard if is_basic => Vec::new(),
        BindingRule::Standard => {
            let mut keys = class_keys(rule, '#', std::slice::from_ref(&ManaCost::zero()));
            keys.push(LAND_KEY.to_string());
            keys.sort();
            keys.dedup();
            keys
        }
        _ => vec![LAND_KEY.to_string()],
    }
}

/// The class keys of a printed card a judge typed in: its cost, its initial (needed by the
/// alphabet rules) and whether it is a land (a typed land is taken as nonbasic).
pub fn keys_for_printed(
    rule: BindingRule,
    cost: &ManaCost,
    initial: Option<char>,
    is_land: bool,
) -> Result<Vec<String>, BindingError> {
    if is_land {
        return Ok(land_keys(rule, false));
    }
    let letter = if rule.needs_letter() {
        let given = initial.ok_or(BindingError::NeedLetter { rule })?;
        Some(fold_letter(given).ok_or(BindingError::BadLetter { given })?)
    } else {
        None
    };
    Ok(class_keys(rule, letter.unwrap_or('#'), std::slice::from_ref(cost)))
}

/// True when the printed card may be declared as the declared card (their keys meet).
pub fn binds(rule: BindingRule, printed: &CardShape<'_>, declared: &CardShape<'_>, split_combined: bool) -> bool {
    keys_intersect(&binding_keys(rule, printed, split_combined), &binding_keys(rule, declared, split_combined))
}

/// The costs a card binds with: the front face, or for split cards each half and, when asked,
/// both halves together. No cost counts as {0} (rule MM.3f).
pub fn card_costs(card: &CardShape<'_>, split_combined: bool) -> Vec<ManaCost> {
    let faces: Vec<ManaCost> = card.face_costs.iter().map(|c| c.clone().unwrap_or_else(ManaCost::zero)).collect();
    match (card.is_split, faces.as_slice()) {
        (_, []) => vec![ManaCost::zero()],
        (true, [first, second, ..]) => {
            let mut costs = faces.clone();
            if split_combined {
                costs.push(first.combined(second));
            }
            costs
        }
        (_, [front, ..]) => vec![front.clone()],
    }
}

/// Keys for a set of costs under `rule`, with `letter` used by the alphabet rules.
fn class_keys(rule: BindingRule, letter: char, costs: &[ManaCost]) -> Vec<String> {
    let plain: Vec<Key> = costs.iter().flat_map(ManaCost::keys).collect();
    let mut keys: Vec<String> = plain
        .iter()
        .map(|k| match rule {
            BindingRule::Standard => format!("S:{k}"),
            BindingRule::Alphabet => format!("A:{letter}:{}", k.colored_total()),
            // {S} counts as one generic mana here (comprehensive rules 107.4h).
            BindingRule::AlphabetGeneric => format!("AG:{letter}:{}", k.generic + u32::from(k.snow)),
            BindingRule::AlphabetExact => {
                format!("AE:{letter}:{}:{}", k.generic + u32::from(k.snow), k.colored_total())
            }
        })
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// The first letter A–Z of a card name once accents are folded, lower case: digits, quotes and signs
/// are skipped (`+2 Mace` → `m`, `Æther` → `a`, `Éowyn` → `e`); `#` when the name has none.
pub fn initial(name: &str) -> char {
    super::names::fold(name).chars().find(char::is_ascii_lowercase).unwrap_or('#')
}

/// A typed letter folded to plain lower-case ASCII A–Z; `None` for anything else.
fn fold_letter(c: char) -> Option<char> {
    super::names::fold(&c.to_string()).chars().next().filter(char::is_ascii_lowercase)
}

#[cfg(test)]
mod tests;
