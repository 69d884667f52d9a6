//! Sealed Deck libraries (rules "Sealed Deck"): the basic lands of the sealed starters become
//! the player's Utopia library, the rest the main library; optionally the player removes
//! exactly three cards from the main library as a sideboard.

use serde::Serialize;

/// One card of a player's sealed product.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SealedCard {
    /// Card name.
    pub name: String,
    /// Whether it is a basic land (it goes to the Utopia library).
    pub is_basic_land: bool,
}

/// A sealed deck split into its libraries; every entry is an index into the cards given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SealedLibraries {
    /// The basic lands: the Utopia library.
    pub utopia: Vec<usize>,
    /// Everything else except the sideboard: the main library.
    pub main: Vec<usize>,
    /// The three cards set aside (empty without the optional sideboard), in the order named.
    pub sideboard: Vec<usize>,
}

/// Size of the optional sealed sideboard.
pub const SIDEBOARD_SIZE: usize = 3;

/// Why a sealed deck could not be split as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
pub enum SealedError {
    /// The sideboard does not name exactly three cards.
    #[error("a sealed sideboard holds exactly 3 cards, {given} named: name three cards or none")]
    SideboardSize {
        /// How many names were given.
        given: usize,
    },
    /// A sideboard name is not in the sealed deck at all.
    #[error("\"{name}\" is not in this sealed deck: name a card the player opened")]
    UnknownCard {
        /// The name given.
        name: String,
    },
    /// A sideboard name is a basic land, which belongs to the Utopia library.
    #[error("\"{name}\" is a basic land of the Utopia library: the sideboard comes from the main library")]
    NotInMain {
        /// The name given.
        name: String,
    },
    /// The sideboard names a card more often than the main library holds it.
    #[error("\"{name}\" is named {} but the main library holds {have}: name it no more often than that", crate::domain::words::times(*named as i64))]
    TooManyCopies {
        /// The name given.
        name: String,
        /// Times it is named in the sideboard.
        named: usize,
        /// Copies in the main library.
        have: usize,
    },
}

/// Split a sealed deck into Utopia, main library and the optional three-card sideboard.
///
/// `sideboard` is empty (no sideboard) or exactly three names; names match case-insensitively
/// and ignore surrounding spaces. Naming a card twice takes two copies.
pub fn split_sealed(cards: &[SealedCard], sideboard: &[String]) -> Result<SealedLibraries, SealedError> {
    if !sideboard.is_empty() && sideboard.len() != SIDEBOARD_SIZE {
        return Err(SealedError::SideboardSize { given: sideboard.len() });
    }
    let (utopia, mut main): (Vec<usize>, Vec<usize>) = (0..cards.len()).partition(|&i| cards[i].is_basic_land);
    let mut set_aside = Vec::with_capacity(sideboard.len());
    for name in sideboard {
        let pos = take_from_main(cards, &main, name, sideboard)?;
        set_aside.push(main.remove(pos));
    }
    Ok(SealedLibraries { utopia, main, sideboard: set_aside })
}

/// Position in `main` of the first copy of `name`, or why there is none.
fn take_from_main(
    cards: &[SealedCard],
    main: &[usize],
    name: &str,
    sideboard: &[String],
) -> Result<usize, SealedError> {
    if let Some(pos) = main.iter().position(|&i| same_name(&cards[i].name, name)) {
        return Ok(pos);
    }
    let named = name.trim().to_string();
    let matching: Vec<&SealedCard> = cards.iter().filter(|c| same_name(&c.name, name)).collect();
    if matching.is_empty() {
        return Err(SealedError::UnknownCard { name: named });
    }
    let have = matching.iter().filter(|c| !c.is_basic_land).count();
    if have == 0 {
        return Err(SealedError::NotInMain { name: named });
    }
    Err(SealedError::TooManyCopies {
        named: sideboard.iter().filter(|s| same_name(s, name)).count(),
        name: named,
        have,
    })
}

fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck() -> Vec<SealedCard> {
        let card = |name: &str, basic| SealedCard { name: name.to_string(), is_basic_land: basic };
        vec![
            card("Forest", true),
            card("Shock", false),
            card("Island", true),
            card("Giant Growth", false),
            card("Shock", false),
            card("Counterspell", false),
            card("Llanowar Elves", false),
        ]
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn basics_become_utopia_and_the_rest_main() {
        let s = split_sealed(&deck(), &[]).unwrap();
        assert_eq!(s.utopia, vec![0, 2]);
        assert_eq!(s.main, vec![1, 3, 4, 5, 6]);
        assert!(s.sideboard.is_empty());
    }

    #[test]
    fn sideboard_takes_three_cards_out_of_main() {
        let s = split_sealed(&deck(), &names(&["shock", " Counterspell ", "Shock"])).unwrap();
        assert_eq!(s.sideboard, vec![1, 5, 4]);
        assert_eq!(s.main, vec![3, 6]);
        assert_eq!(s.utopia, vec![0, 2]);
    }

    #[test]
    fn sideboard_errors_name_the_problem() {
        let cases: Vec<(Vec<String>, SealedError)> = vec![
            (names(&["Shock", "Shock"]), SealedError::SideboardSize { given: 2 }),
            (names(&["Shock", "Shock", "Shock", "Shock"]), SealedError::SideboardSize { given: 4 }),
            (
                names(&["Shock", "Lightning Bolt", "Counterspell"]),
                SealedError::UnknownCard { name: "Lightning Bolt".to_string() },
            ),
            (names(&["Shock", "Forest", "Counterspell"]), SealedError::NotInMain { name: "Forest".to_string() }),
            (
                names(&["Giant Growth", "Giant Growth", "Shock"]),
                SealedError::TooManyCopies { name: "Giant Growth".to_string(), named: 2, have: 1 },
            ),
        ];
        for (sideboard, want) in cases {
            assert_eq!(split_sealed(&deck(), &sideboard), Err(want), "{sideboard:?}");
        }
    }

    #[test]
    fn error_messages_are_one_line() {
        let e = SealedError::TooManyCopies { name: "Giant Growth".to_string(), named: 2, have: 1 };
        assert_eq!(
            e.to_string(),
            "\"Giant Growth\" is named twice but the main library holds 1: name it no more often than that"
        );
    }
}
