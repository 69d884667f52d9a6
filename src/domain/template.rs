//! Is a declaration legal: the declared card must bind with the printed card (same class), must
//! not be banned or of an excluded kind, and must not have been declared already this game
//! (rules MM.3, MM.3e, MM.4e). The caller looks the cards up and hands plain values in.

use std::collections::BTreeSet;

use serde::Serialize;
use thiserror::Error;

use super::binding::{BindingRule, CardShape, binds, card_costs, initial};
use super::cost::{Key, ManaCost};

/// The card a player declares, as looked up by the caller.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Declared {
    /// The real card's name.
    pub name: String,
    /// One cost per face (`None`: no mana cost); see [`CardShape::face_costs`].
    pub face_costs: Vec<Option<ManaCost>>,
    /// A split card (either half binds).
    pub is_split: bool,
    /// A land card.
    pub is_land: bool,
    /// A basic land card.
    pub is_basic_land: bool,
    /// The ban-list group that bans this card, if any.
    pub banned_group: Option<String>,
    /// The kind of card this event excludes that this card is (e.g. `ante`), if any.
    pub excluded_kind: Option<String>,
}

impl Declared {
    /// The declared card as binding sees it.
    pub fn shape(&self) -> CardShape<'_> {
        CardShape {
            name: &self.name,
            face_costs: self.face_costs.clone(),
            is_split: self.is_split,
            is_land: self.is_land,
            is_basic_land: self.is_basic_land,
        }
    }
}

/// An earlier declaration of the same card in this game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PriorDeclaration {
    /// Who declared it.
    pub by: String,
    /// When, as the caller wants it shown (e.g. `14:05`).
    pub at: String,
}

/// Why a declaration is refused. Each message is one line naming the card and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
#[serde(tag = "refusal", rename_all = "kebab-case")]
pub enum Refusal {
    /// "Utopia" was declared (rule MM.4e).
    #[error("MM.4e: \"Utopia\" is the face-down land, never a card name: declare a real card")]
    Utopia,
    /// No name was given.
    #[error("no card name given: declare a real card")]
    EmptyName,
    /// No card has that name (raised by the caller, which does the lookup).
    #[error("no card is named \"{name}\"{}", did_you_mean(closest))]
    UnknownName {
        /// The name as given.
        name: String,
        /// Nearest real names, best first.
        closest: Vec<String>,
    },
    /// The name is close to several cards, so it is clearly none of them (tournament rules: the name must
    /// clearly not be another card).
    #[error("\"{name}\" is not clearly one card (close: {}): say the name in full, or have the player write it", close.join(", "))]
    UnclearName {
        /// The name as given.
        name: String,
        /// The close names, nearest first.
        close: Vec<String>,
    },
    /// Standard binding: the declared card's cost does not match the printed cost.
    #[error("MM.3: {name} costs {real}, not {printed}")]
    CostDiffers {
        /// The declared card.
        name: String,
        /// Its cost, canonical (split cards `A // B`).
        real: String,
        /// The printed card's cost.
        printed: String,
    },
    /// The two cards are in different binding classes (lands, or an alphabet rule).
    #[error("BV.{rule}: {name} ({real}) does not bind with this card ({printed}) under {rule} binding")]
    ClassDiffers {
        /// The declared card.
        name: String,
        /// The binding rule in force.
        rule: BindingRule,
        /// What class the declared card is in.
        real: String,
        /// What class the printed card is in.
        printed: String,
    },
    /// Standard binding: a basic land has no binding class.
    #[error("BV.standard: {name} is a basic land and binds with no card: play the card face down as Utopia")]
    BasicLand {
        /// The declared card.
        name: String,
    },
    /// The card is on the event's ban list.
    #[error("TR.bans: {name} is banned ({group}): declare another card")]
    Banned {
        /// The declared card.
        name: String,
        /// The ban-list group.
        group: String,
    },
    /// The card is of a kind this event excludes.
    #[error("TR.kinds: {name} is excluded from this event ({kind} cards): declare another card")]
    Excluded {
        /// The declared card.
        name: String,
        /// The excluded kind, as the caller names it (e.g. `ante`, `portal`).
        kind: String,
    },
    /// The card was already declared in this game (rule MM.3e).
    #[error("MM.3e: a template is declared once per game: {name} was already declared in this game by {by} at {at}")]
    AlreadyDeclared {
        /// The declared card.
        name: String,
        /// Who declared it first.
        by: String,
        /// When.
        at: String,
    },
}

/// `; did you mean A, B?` or nothing.
fn did_you_mean(closest: &[String]) -> String {
    if closest.is_empty() {
        ": check the spelling".to_string()
    } else {
        format!("; did you mean {}?", closest.join(", "))
    }
}

/// True when `name` is Utopia (any case, surrounding spaces and quotes ignored).
pub fn is_utopia(name: &str) -> bool {
    name.trim().trim_matches(|c| c == '"' || c == '\'').trim().eq_ignore_ascii_case("utopia")
}

/// Checks a declaration, in order: the name, the binding class (cost), the ban list, excluded
/// kinds, and earlier use in this game.
pub fn check(
    rule: BindingRule,
    printed: &CardShape<'_>,
    declared: &Declared,
    prior: Option<&PriorDeclaration>,
    split_combined: bool,
) -> Result<(), Refusal> {
    let name = declared.name.trim();
    if is_utopia(name) {
        return Err(Refusal::Utopia);
    }
    if name.is_empty() {
        return Err(Refusal::EmptyName);
    }
    let shape = declared.shape();
    if !binds(rule, printed, &shape, split_combined) {
        return Err(class_refusal(rule, printed, &shape, split_combined));
    }
    if let Some(group) = &declared.banned_group {
        return Err(Refusal::Banned { name: name.to_string(), group: group.clone() });
    }
    if let Some(kind) = &declared.excluded_kind {
        return Err(Refusal::Excluded { name: name.to_string(), kind: kind.clone() });
    }
    match prior {
        Some(p) => Err(Refusal::AlreadyDeclared { name: name.to_string(), by: p.by.clone(), at: p.at.clone() }),
        None => Ok(()),
    }
}

/// The refusal for two cards that do not bind.
fn class_refusal(
    rule: BindingRule,
    printed: &CardShape<'_>,
    declared: &CardShape<'_>,
    split_combined: bool,
) -> Refusal {
    let name = declared.name.trim().to_string();
    if rule == BindingRule::Standard {
        if declared.is_land && declared.is_basic_land {
            return Refusal::BasicLand { name };
        }
        if !declared.is_land && !printed.is_land {
            return Refusal::CostDiffers { name, real: costs_text(declared), printed: costs_text(printed) };
        }
    }
    Refusal::ClassDiffers {
        name,
        rule,
        real: describe_class(rule, declared, split_combined),
        printed: describe_class(rule, printed, split_combined),
    }
}

/// A card's cost as shown to players: `{1}{B}`, `{1}{R} // {1}{U}`, `{0}` for no cost.
fn costs_text(card: &CardShape<'_>) -> String {
    card_costs(card, false).iter().map(ManaCost::canonical).collect::<Vec<_>>().join(" // ")
}

/// A short description of a card's binding class: `land`, `cost {1}{B}`,
/// `initial D, 1 coloured mana`.
fn describe_class(rule: BindingRule, card: &CardShape<'_>, split_combined: bool) -> String {
    if card.is_land {
        return match (rule, card.is_basic_land) {
            (BindingRule::Standard, true) => "basic land".to_string(),
            _ => "land".to_string(),
        };
    }
    let keys: Vec<Key> = card_costs(card, split_combined).iter().flat_map(ManaCost::keys).collect();
    let letter = initial(card.name).to_ascii_uppercase();
    let generic = alternatives(keys.iter().map(|k| k.generic));
    let colored = alternatives(keys.iter().map(Key::colored_total));
    match rule {
        BindingRule::Standard => format!("cost {}", costs_text(card)),
        BindingRule::Alphabet => format!("initial {letter}, {colored} coloured mana"),
        BindingRule::AlphabetGeneric => format!("initial {letter}, generic {generic}"),
        BindingRule::AlphabetExact => {
            format!("initial {letter}, generic {generic}, {colored} coloured mana")
        }
    }
}

/// Distinct numbers joined by " or ": `1`, `0 or 2`.
fn alternatives(values: impl Iterator<Item = u32>) -> String {
    let set: BTreeSet<u32> = values.collect();
    set.iter().map(u32::to_string).collect::<Vec<_>>().join(" or ")
}

#[cfg(test)]
mod tests;
