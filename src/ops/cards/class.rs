//! `cards cost` (the cards a printed cost may be declared as) and `cards check` (one declaration checked),
//! and the cost completion a front end offers while a judge types a declared name.

use crate::domain::names;
use crate::domain::template::{PriorDeclaration, Refusal};
use crate::error::{Error, Result};
use crate::ops::card_reference::{self as reference, Class, Printed};
use crate::ops::table::Seated;
use crate::ops::table::records::note as notes;
use crate::store::cards::Card;
use crate::store::event;
use rusqlite::Connection;

/// A printed card and where it is played: `cards cost` and `cards check`'s input.
#[derive(Debug, Clone, Default)]
pub struct PrintedInput {
    /// The printed cost as typed (`B1`, `{1}{B}`, `land`, a split card's `R1 // U1`).
    pub cost: String,
    /// The printed card's first letter (alphabet rules).
    pub letter: Option<char>,
    /// The table of the match (its declarations are left out / checked).
    pub table: Option<u32>,
    /// The round of that table (None: the current round).
    pub round: Option<u32>,
}

/// The cards a printed cost may be declared as.
#[derive(Debug, Clone)]
pub struct CostClass {
    /// The printed card.
    pub printed: Printed,
    /// The event's binding rule.
    pub binding: String,
    /// The class: declarable cards (those declared in the match left out), banned, excluded.
    pub class: Class,
    /// The match, when a table was given.
    pub seated: Option<Seated>,
    /// The class's cards already declared in that match (name, first declaration), left out of `class.cards`.
    pub declared: Vec<(String, PriorDeclaration)>,
}

/// The binding class of a printed cost under the event's rule, without the cards already declared in the
/// match at the given table.
pub fn cost_class(conn: &Connection, input: &PrintedInput) -> Result<CostClass> {
    let printed = Printed::parse(&input.cost)?;
    reference::require(conn)?;
    let mut class = reference::class_printed(conn, &printed, input.letter)?;
    let seated = input.table.map(|t| Seated::at(conn, t, input.round)).transpose()?;
    let used = match &seated {
        Some(s) => notes::declared_in_game(conn, s)?,
        None => Vec::new(),
    };
    let mut declared = Vec::new();
    class.cards.retain(|c| match used.iter().find(|(name, _)| name.eq_ignore_ascii_case(&c.name)) {
        Some((_, prior)) => {
            declared.push((c.name.clone(), prior.clone()));
            false
        }
        None => true,
    });
    let binding = event::values(conn)?.text("binding").to_string();
    Ok(CostClass { printed, binding, class, seated, declared })
}

/// The names a card of printed cost `cost` may still be declared as at `table` (current round; None: any
/// match) that begin with `prefix` (case and accents ignored), in the class's order.
pub fn class_for(conn: &Connection, cost: &str, table: Option<u32>, prefix: &str) -> Result<Vec<String>> {
    let input = PrintedInput { cost: cost.to_string(), table, ..Default::default() };
    let class = cost_class(conn, &input)?;
    let start = names::fold(prefix);
    Ok(class.class.cards.into_iter().map(|c| c.name).filter(|n| names::fold(n).starts_with(&start)).collect())
}

/// A declaration found legal.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The printed card.
    pub printed: Printed,
    /// The card declared.
    pub card: Card,
    /// How the typed name was taken, when not as the card's exact name.
    pub taken: Option<String>,
    /// The name as typed, trimmed.
    pub typed: String,
    /// The match, when a table was given.
    pub seated: Option<Seated>,
}

/// Checks a declaration of `name` for a printed card: legal, or refused with the rule's words.
pub fn check(conn: &Connection, input: &PrintedInput, name: &str) -> Result<Checked> {
    let printed = Printed::parse(&input.cost)?;
    let seated = input.table.map(|t| Seated::at(conn, t, input.round)).transpose()?;
    let matched = crate::ops::card_names::resolve_card_name(conn, name)?;
    let prior = match (&seated, matched.card()) {
        (Some(s), Some(card)) => notes::prior_declaration(conn, s, &card.name)?,
        _ => None,
    };
    let taken = matched.note();
    match reference::check_match(conn, &printed, input.letter, name, &matched, prior.as_ref())? {
        Ok(card) => Ok(Checked { printed, card, taken, typed: name.trim().to_string(), seated }),
        Err(refusal) => Err(refusal_error(&refusal)),
    }
}

/// A declaration's refusal as an error of its kind: a name that names no card is not found, a missing or
/// unclear name is bad input, the rest are refused by a rule.
pub fn refusal_error(refusal: &Refusal) -> Error {
    let msg = refusal.to_string();
    match refusal {
        Refusal::UnknownName { .. } => Error::not_found(msg),
        Refusal::EmptyName | Refusal::UnclearName { .. } => Error::bad_input(msg),
        _ => Error::refused(msg),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;
    use crate::ops::card_reference::Printed;
    use crate::ops::cards::{ImportInput, import};
    use crate::ops::table::records::note::{NoteInput, add_note};
    use crate::store::round;

    const CARDS: &str = "name,mana_cost,type_line\nDemonic Tutor,{1}{B},Sorcery\nDread Return,{1}{B},Sorcery\n\
                         Night's Whisper,{1}{B},Sorcery\nShock,{R},Instant\n";

    #[test]
    fn class_for_completes_a_cost_without_the_cards_declared_at_the_table() -> Result<()> {
        let (mut store, _, _) = crate::store::memory_with_one_match()?;
        let actor = crate::store::test_actor("2025-05-01T09:05:00.000Z")?;
        round::set_started(store.conn(), 1, Some("2025-05-01T09:00:00.000Z"))?;
        let input = ImportInput { bytes: CARDS.as_bytes(), shown: "cards.csv", replace: false, force: false };
        import(&mut store, &actor, input, &mut |_, _, _| {})?;
        let conn = store.conn();
        assert_eq!(class_for(conn, "B1", Some(1), "d")?, ["Demonic Tutor", "Dread Return"]);
        let note = NoteInput {
            table: 1,
            round: None,
            player: "ana".into(),
            printed: Printed::parse("B1")?,
            card: Some("Demonic Tutor".into()),
            letter: None,
            at: None,
        };
        add_note(&mut store, &actor, note)?;
        let conn = store.conn();
        assert_eq!(class_for(conn, "B1", Some(1), "D")?, ["Dread Return"]);
        assert_eq!(class_for(conn, "B1", None, "")?.len(), 3);
        let typo = check(conn, &PrintedInput { cost: "B1".into(), ..Default::default() }, "Zzyzx Qwerty");
        assert_eq!(typo.err().map(|e| e.kind()), Some(Kind::NotFound));
        let cost = check(conn, &PrintedInput { cost: "B1".into(), ..Default::default() }, "Shock");
        assert_eq!(cost.err().map(|e| e.kind()), Some(Kind::Refused));
        Ok(())
    }
}
