//! Card names as judges type them (`note`, `cards check`): which card of the reference a typed name means,
//! by the tournament rules' test (the name shows knowledge of the card and is clearly not another card;
//! see domain::card_name for what "clearly" means).

use crate::domain::card_name::{self, Choice, Near};
use crate::domain::card_search::{NameIndex, Prefilter};
use crate::domain::names;
use crate::error::Result;
use crate::store::CardId;
use crate::store::cards::{self, Card};
use rusqlite::Connection;
use std::collections::HashMap;

/// What a typed card name means.
#[derive(Debug, Clone, PartialEq)]
pub enum CardMatch {
    /// The card's own name (case, accents and punctuation aside).
    Exact(Card),
    /// A face of the card: one half of a split card, the back of a double-faced card, an adventure.
    Face {
        /// The card.
        card: Card,
        /// The face's name.
        face: String,
    },
    /// A misspelling that is clearly this card (and no other): the card is taken.
    Taken {
        /// The card.
        card: Card,
        /// The face the spelling is near, when it is a face's name.
        face: Option<String>,
        /// The name as typed.
        typed: String,
    },
    /// Close to several cards: none is taken.
    Unclear {
        /// The name as typed.
        typed: String,
        /// The close names, nearest first.
        close: Vec<String>,
    },
    /// No card is close enough.
    Unknown {
        /// The name as typed.
        typed: String,
        /// The nearest names, best first (maybe none).
        close: Vec<String>,
    },
}

impl CardMatch {
    /// The card meant, unless the name is unclear or unknown.
    pub fn card(&self) -> Option<&Card> {
        match self {
            CardMatch::Exact(card) | CardMatch::Face { card, .. } | CardMatch::Taken { card, .. } => Some(card),
            CardMatch::Unclear { .. } | CardMatch::Unknown { .. } => None,
        }
    }

    /// What a judge is told when the card meant is not spelled as typed: `taken as Nevinyrral's Disk`,
    /// `"Ice" is one half of Fire // Ice`; None for an exact name or a refusal.
    pub fn note(&self) -> Option<String> {
        match self {
            CardMatch::Face { card, face } => Some(format!("\"{face}\" is {} {}", face_role(card), card.name)),
            CardMatch::Taken { card, face: Some(face), typed } => {
                Some(format!("\"{}\" taken as {face}, {} {}", typed.trim(), face_role(card), card.name))
            }
            CardMatch::Taken { card, face: None, .. } => Some(format!("taken as {}", card.name)),
            _ => None,
        }
    }
}

/// How a face stands to its card, in words: "one half of", "the adventure of", "a face of".
fn face_role(card: &Card) -> &'static str {
    match card.layout.as_str() {
        "split" | "aftermath" => "one half of",
        "adventure" => "the adventure of",
        "flip" => "the flipped side of",
        "transform" | "modal_dfc" | "double_faced_token" | "meld" => "a face of",
        _ => "a face of",
    }
}

/// Resolves a typed card name: the exact name, else the exact name of a face, else a misspelling clearly of
/// one card (domain::card_name); otherwise unclear (several close cards) or unknown, with the close names.
/// Only the names near the typed one leave SQLite.
pub fn resolve_card_name(conn: &Connection, typed: &str) -> Result<CardMatch> {
    let q = names::fold(typed);
    let unknown = |close| CardMatch::Unknown { typed: typed.trim().to_string(), close };
    if q.is_empty() {
        return Ok(unknown(Vec::new()));
    }
    if let Some(card) = cards::by_name(conn, typed.trim())? {
        return Ok(CardMatch::Exact(card));
    }
    match cards::by_fold(conn, &q)?.as_slice() {
        [] => {}
        [card] => return Ok(CardMatch::Exact(card.clone())),
        several => {
            let close = several.iter().map(|c| c.name.clone()).collect();
            return Ok(CardMatch::Unclear { typed: typed.trim().to_string(), close });
        }
    }
    let squeezed = card_name::squeezed(typed);
    let near = near_cards(conn, &squeezed)?;
    let exact_faces: Vec<&Near<CardId>> = near.iter().filter(|n| n.face.is_some() && n.distance == 0).collect();
    if let [n] = exact_faces.as_slice() {
        let face = n.face.clone().unwrap_or_default();
        return Ok(CardMatch::Face { card: cards::get(conn, n.card)?, face });
    }
    Ok(match card_name::choose(near) {
        Choice::Clear(n) if n.distance == 0 && n.face.is_some() => {
            CardMatch::Face { card: cards::get(conn, n.card)?, face: n.face.unwrap_or_default() }
        }
        Choice::Clear(n) => {
            CardMatch::Taken { card: cards::get(conn, n.card)?, face: n.face, typed: typed.trim().to_string() }
        }
        Choice::Unclear(close) => CardMatch::Unclear { typed: typed.trim().to_string(), close },
        Choice::Far(near) => {
            let close = closest(conn, typed, 3)?;
            unknown(if close.is_empty() { near.into_iter().take(3).collect() } else { close })
        }
    })
}

/// The cards whose name or a face is within reach of a squeezed typed name, each measured once.
fn near_cards(conn: &Connection, squeezed: &str) -> Result<Vec<Near<CardId>>> {
    let reach = card_name::REACH;
    let probe = card_name::Probe::new(squeezed, reach);
    let near_face = move |face: &str| probe.near(&names::fold(face));
    let probe = card_name::Probe::new(squeezed, reach);
    let near_name = move |folded: &str| probe.near(folded);
    let mut faces: HashMap<CardId, (String, Vec<String>)> = HashMap::new();
    for (id, name, face) in cards::faces_where(conn, near_face)? {
        faces.entry(id).or_insert_with(|| (name, Vec::new())).1.push(face);
    }
    for (id, name, _) in cards::names_where(conn, near_name)? {
        faces.entry(id).or_insert_with(|| (name, Vec::new()));
    }
    // A face printed with another card's name (a special printing of Lightning Bolt on the back of another
    // card) is that card, not a rival to it.
    let card_names: std::collections::HashSet<String> = faces.values().map(|(name, _)| names::fold(name)).collect();
    let mut near: Vec<Near<CardId>> = faces
        .into_iter()
        .filter_map(|(id, (name, mut fs))| {
            fs.retain(|f| !card_names.contains(&names::fold(f)));
            card_name::measure(squeezed, id, &name, &fs)
        })
        .collect();
    near.sort_by_key(|n| n.card.0);
    Ok(near)
}

/// The closest names by the reference search (prefixes, words, typos), for a name near no card.
fn closest(conn: &Connection, typed: &str, n: usize) -> Result<Vec<String>> {
    let prefilter = Prefilter::new(typed);
    let rows = cards::names_where(conn, move |folded| prefilter.keep(folded))?;
    let (names, folded): (Vec<String>, Vec<String>) = rows.into_iter().map(|(_, n, f)| (n, f)).unzip();
    let index = NameIndex::from_folded(&names, folded);
    Ok(index.search(typed, n).into_iter().filter_map(|(i, _)| names.get(i).cloned()).collect())
}
