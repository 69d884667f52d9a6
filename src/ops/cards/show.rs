//! `cards show`: everything about one card (texts, rulings, Mental Magic status, whether a match declared it).

use crate::domain::cost::ManaCost;
use crate::domain::names;
use crate::domain::rules::{self, CardRuling};
use crate::domain::template::PriorDeclaration;
use crate::error::{Error, Result};
use crate::ops::card_reference::{self as reference, Search};
use crate::ops::table::Seated;
use crate::ops::table::records::note as notes;
use crate::store::card_text::{self, Ruling};
use crate::store::cards::{self, Card, Face};
use crate::store::event;
use rusqlite::Connection;

/// One face of a shown card (a single-faced card has one): the reference's face, its text included.
pub type FaceView = Face;

/// The card's Mental Magic status in this event.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Status {
    /// The event's binding rule.
    pub binding: String,
    /// The ban-list group that bans it.
    pub banned: Option<String>,
    /// The excluded kind (joke, digital, ante, portal) this event refuses it as.
    pub excluded: Option<String>,
    /// Cards sharing its binding class (itself included; banned and excluded cards included).
    pub class_size: u32,
    /// Of those, cards that may be declared (neither banned nor excluded).
    pub class_declarable: usize,
}

/// Whether the card was already declared in a match.
#[derive(Debug, Clone, serde::Serialize)]
pub struct InGame {
    /// Round.
    pub round: u32,
    /// Table.
    pub table: u32,
    /// Its first declaration there (who and when), if any.
    pub declared: Option<PriorDeclaration>,
}

/// Everything `cards show` says about a card.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CardView {
    /// The card's name.
    pub name: String,
    /// The name as typed, when it named the card another way (a face, a half, a typo).
    pub asked: Option<String>,
    /// Printed cost.
    pub mana_cost: Option<String>,
    /// Mana value (split cards: both halves together).
    pub mana_value: Option<u32>,
    /// Type line.
    pub type_line: String,
    /// Layout.
    pub layout: String,
    /// Faces, front first.
    pub faces: Vec<FaceView>,
    /// Official rulings, oldest first.
    pub rulings: Vec<Ruling>,
    /// Mental Magic status.
    pub status: Status,
    /// Mental Magic rulings about it.
    pub mental_magic_rulings: Vec<CardRuling>,
    /// With a table: was it declared there already.
    pub game: Option<InGame>,
}

/// Finds the card a typed name means: its name, a face's name, or the closest name (typos forgiven).
pub fn resolve(conn: &Connection, typed: &str) -> Result<Card> {
    if let Some(card) = reference::lookup(conn, typed)? {
        return Ok(card);
    }
    let folded = names::fold(typed);
    if folded.is_empty() {
        return Err(crate::error::Refusal::bad_input("give a card name")
            .way_out(crate::error::WayOut::Example(crate::error::Example::CardName))
            .into());
    }
    if let Some(id) = card_text::card_of_face(conn, &folded)? {
        return cards::get(conn, id);
    }
    let search = Search::load(conn, typed)?;
    let hits = search.find_ids(typed, 3);
    match hits.as_slice() {
        [(id, score), rest @ ..] if *score >= 0.5 && rest.first().is_none_or(|(_, s)| *s + 0.05 <= *score) => {
            cards::get(conn, *id)
        }
        [] => Err(Error::not_found(format!("no card is named \"{}\": check the spelling", typed.trim()))),
        _ => {
            let names: Vec<String> = search.find(typed, 3).into_iter().map(|(n, _)| n).collect();
            Err(Error::bad_input(format!(
                "\"{}\" could name several cards: {}; give more of the name",
                typed.trim(),
                names.join(", ")
            )))
        }
    }
}

/// Everything about the card `name` means; with `table`, whether it was declared at that table of the
/// current round.
pub fn show(conn: &Connection, name: &str, table: Option<u32>) -> Result<CardView> {
    show_at(conn, name, table, None)
}

/// [`show`] for a table of a given round (`round` None: the current round; ignored without `table`).
pub fn show_at(conn: &Connection, name: &str, table: Option<u32>, round: Option<u32>) -> Result<CardView> {
    reference::require(conn)?;
    let card = resolve(conn, name)?;
    let game = match table {
        Some(t) => {
            let seated = Seated::at(conn, t, round)?;
            let declared = notes::prior_declaration(conn, &seated, &card.name)?;
            Some(InGame { round: seated.m.round, table: seated.table(), declared })
        }
        None => None,
    };
    let asked = (!name.trim().eq_ignore_ascii_case(&card.name)).then(|| name.trim().to_string());
    view_of(conn, card, asked, game)
}

/// The view of a card already found (the site's card pages: no table, no typed name).
pub fn view_of(conn: &Connection, card: Card, asked: Option<String>, game: Option<InGame>) -> Result<CardView> {
    let details = card_text::details(conn, card.id)?;
    let stored = cards::faces(conn, card.id)?;
    let faces = if stored.is_empty() {
        vec![FaceView {
            name: card.name.clone(),
            mana_cost: card.mana_cost.clone(),
            type_line: card.type_line.clone(),
            text: details.text.clone(),
            power: details.power.clone(),
            toughness: details.toughness.clone(),
            loyalty: details.loyalty.clone(),
        }]
    } else {
        stored
    };
    let mana_value = card.mana_cost.as_deref().and_then(|c| {
        c.split(" // ").map(|half| ManaCost::parse(half).ok().map(|m| m.mana_value())).sum::<Option<u32>>()
    });
    Ok(CardView {
        status: status(conn, &card)?,
        rulings: card_text::rulings(conn, card.id)?,
        mental_magic_rulings: rules::rulings_for(&card.name).into_iter().cloned().collect(),
        name: card.name,
        asked,
        mana_cost: card.mana_cost,
        mana_value,
        type_line: card.type_line,
        layout: card.layout,
        faces,
        game,
    })
}

fn status(conn: &Connection, card: &Card) -> Result<Status> {
    let values = event::values(conn)?;
    let rule = reference::rule(&values)?;
    let decl = reference::declared(conn, card, &values)?;
    let combined = values.switch("split-combined");
    let keys = card_text::keys_of(conn, rule.name(), card.id, combined)?;
    let class_size = cards::class_count(conn, rule.name(), &keys, combined)?;
    let banned = reference::banned_names(conn)?;
    let excluded_kind = |kinds: &str| kinds.split_whitespace().any(|k| !values.switch(&format!("allow-{k}")));
    let flagged = card_text::class_flagged(conn, rule.name(), &keys, combined)?;
    let left_out = flagged.iter().filter(|(name, kinds)| reference::is_banned(&banned, name) || excluded_kind(kinds));
    Ok(Status {
        binding: rule.name().to_string(),
        banned: decl.banned_group,
        excluded: decl.excluded_kind,
        class_size,
        class_declarable: (class_size as usize).saturating_sub(left_out.count()),
    })
}
