//! The default Mental Magic ban list (ruleset of 2013), in its four groups.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// Why a card is on the default ban list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BanGroup {
    /// Ante cards and dexterity cards.
    AnteDexterity,
    /// Mass deck-stacking, library grinding and the "secretary" minigame.
    DeckStacking,
    /// Mass reanimation.
    MassReanimation,
    /// Simply too strong for a pool of random cards.
    TooPowerful,
}

impl BanGroup {
    /// Every group, in the order of the ruleset.
    pub const ALL: [BanGroup; 4] = [Self::AnteDexterity, Self::DeckStacking, Self::MassReanimation, Self::TooPowerful];

    /// Slug used on the command line and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AnteDexterity => "ante-dexterity",
            Self::DeckStacking => "deck-stacking",
            Self::MassReanimation => "mass-reanimation",
            Self::TooPowerful => "too-powerful",
        }
    }

    /// Human title of the group.
    pub fn title(self) -> &'static str {
        match self {
            Self::AnteDexterity => "Ante and dexterity",
            Self::DeckStacking => "Mass deck-stacking, grinding and the secretary minigame",
            Self::MassReanimation => "Mass reanimation",
            Self::TooPowerful => "Too powerful",
        }
    }

    /// Short reason for the ban, shown next to a refused declaration.
    pub fn reason(self) -> &'static str {
        match self {
            Self::AnteDexterity => "needs ante or physical skill, not Magic play",
            Self::DeckStacking => "turns a random library into a long search or stacks it wholesale",
            Self::MassReanimation => "brings back whole graveyards: swingy and slow to resolve",
            Self::TooPowerful => "far above anything else a random library can hold",
        }
    }
}

impl fmt::Display for BanGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A ban group word that names no group, or more than one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("unknown ban group \"{0}\": use ante-dexterity, deck-stacking, mass-reanimation or too-powerful")]
pub struct UnknownBanGroup(pub String);

impl FromStr for BanGroup {
    type Err = UnknownBanGroup;
    /// Accepts a slug or an unambiguous prefix of one, in any case ("mass" = mass-reanimation).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let unknown = || UnknownBanGroup(s.to_string());
        if word.is_empty() {
            return Err(unknown());
        }
        if let Some(g) = Self::ALL.into_iter().find(|g| g.as_str() == word) {
            return Ok(g);
        }
        let mut matches = Self::ALL.into_iter().filter(|g| g.as_str().starts_with(&word));
        match (matches.next(), matches.next()) {
            (Some(g), None) => Ok(g),
            _ => Err(unknown()),
        }
    }
}

const ANTE_DEXTERITY: [&str; 11] = [
    "Amulet of Quoz",
    "Bronze Tablet",
    "Chaos Orb",
    "Contract from Below",
    "Darkpact",
    "Demonic Attorney",
    "Falling Star",
    "Jeweled Bird",
    "Rebirth",
    "Tempest Efreet",
    "Timmerian Fiends",
];

const DECK_STACKING: [&str; 18] = [
    "Abundance",
    "Balustrade Spy",
    "Bone Harvest",
    "Consuming Aberration",
    "Destroy the Evidence",
    "Footbottom Feast",
    "Goblin Charbelcher",
    "Gravepurge",
    "Mind Funeral",
    "Mind Grind",
    "Mirko Vosk, Mind Drinker",
    "Possibility Storm",
    "Recross the Paths",
    "Reweave",
    "Riptide Shapeshifter",
    "Spellshift",
    "Trepanation Blade",
    "Undercity Informer",
];

const MASS_REANIMATION: [&str; 18] = [
    "All Hallow's Eve",
    "Angel of Glory's Rise",
    "Balthor the Defiled",
    "Death or Glory",
    "Faith's Reward",
    "Grimoire of the Dead",
    "Liliana Vess",
    "Living Death",
    "Living End",
    "Open the Vaults",
    "Patriarch's Bidding",
    "Pyrrhic Revival",
    "Replenish",
    "Retether",
    "Rise of the Dark Realms",
    "Second Sunrise",
    "Twilight's Call",
    "Zombie Apocalypse",
];

const TOO_POWERFUL: [&str; 17] = [
    "Ancestral Recall",
    "Balance",
    "Black Lotus",
    "Brain Freeze",
    "Chrome Mox",
    "Dark Depths",
    "Lead the Stampede",
    "Mana Crypt",
    "Mox Diamond",
    "Mox Emerald",
    "Mox Jet",
    "Mox Pearl",
    "Mox Ruby",
    "Mox Sapphire",
    "Sol Ring",
    "Time Vault",
    "Time Walk",
];

/// The default ban list: every card of the 2013 ruleset with its group, in the ruleset's order.
pub fn default_bans() -> Vec<(&'static str, BanGroup)> {
    let groups: [(&[&'static str], BanGroup); 4] = [
        (&ANTE_DEXTERITY, BanGroup::AnteDexterity),
        (&DECK_STACKING, BanGroup::DeckStacking),
        (&MASS_REANIMATION, BanGroup::MassReanimation),
        (&TOO_POWERFUL, BanGroup::TooPowerful),
    ];
    groups.iter().flat_map(|(names, group)| names.iter().map(move |n| (*n, *group))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn groups_parse_from_slugs_and_prefixes() {
        let cases = [
            ("ante-dexterity", Some(BanGroup::AnteDexterity)),
            ("Deck-Stacking", Some(BanGroup::DeckStacking)),
            ("mass", Some(BanGroup::MassReanimation)),
            ("too powerful", Some(BanGroup::TooPowerful)),
            ("t", Some(BanGroup::TooPowerful)),
            ("", None),
            ("power", None),
            ("ante-dexterityx", None),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<BanGroup>().ok(), want, "{text}");
        }
        for g in BanGroup::ALL {
            assert_eq!(g.as_str().parse::<BanGroup>(), Ok(g));
            assert!(!g.title().is_empty() && !g.reason().is_empty());
        }
    }

    #[test]
    fn default_list_has_every_card_once() {
        let bans = default_bans();
        assert_eq!(bans.len(), 64);
        let names: HashSet<&str> = bans.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), bans.len());
        let count = |g| bans.iter().filter(|(_, x)| *x == g).count();
        let counts: Vec<usize> = BanGroup::ALL.into_iter().map(count).collect();
        assert_eq!(counts, vec![11, 18, 18, 17]);
        assert!(bans.contains(&("Chaos Orb", BanGroup::AnteDexterity)));
        assert!(bans.contains(&("Mirko Vosk, Mind Drinker", BanGroup::DeckStacking)));
        assert!(bans.contains(&("Living End", BanGroup::MassReanimation)));
        assert!(bans.contains(&("Time Walk", BanGroup::TooPowerful)));
    }
}
