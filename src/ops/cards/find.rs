//! `cards find`: cards by part of their name, or by words of their text (within a binding class, of a type).

use crate::error::Result;
use crate::ops::card_reference::{self as reference, Search};
use crate::store::card_text::{self, TextFilter};
use crate::store::cards::{self, Card};
use crate::store::event;
use rusqlite::Connection;

/// A `cards find` query: by name (`name`) or by text (`text`, with its filters).
#[derive(Debug, Clone, Default)]
pub struct FindInput {
    /// Part of a card name (a search by name; left out when `text` is given).
    pub name: Option<String>,
    /// Words of the card's text (a search by text).
    pub text: Option<String>,
    /// A printed cost whose binding class limits a search by text.
    pub cost: Option<String>,
    /// The printed card's letter (alphabet rules).
    pub letter: Option<char>,
    /// A type-line word.
    pub type_word: Option<String>,
    /// Most results.
    pub limit: usize,
}

/// A card found by name, with how close its name is (0 to 1).
#[derive(Debug, Clone)]
pub struct NameHit {
    /// The card.
    pub card: Card,
    /// How close.
    pub score: f64,
}

/// A card found by text.
#[derive(Debug, Clone)]
pub struct TextHit {
    /// The card.
    pub card: Card,
    /// The matching part of its text, the matching words between `«` and `»`.
    pub snippet: String,
    /// The words that matched, lower case, each once.
    pub matched: Vec<String>,
    /// The full-text rank (lower ranks first).
    pub rank: f64,
}

/// What a search by text found.
#[derive(Debug, Clone)]
pub struct TextFound {
    /// The words as given.
    pub query: String,
    /// The printed cost whose class limited the search, canonical.
    pub cost: Option<String>,
    /// The type word, trimmed.
    pub type_word: Option<String>,
    /// Whether the cards have every word (else: some of them).
    pub every_word: bool,
    /// The cards, best first.
    pub cards: Vec<TextHit>,
}

/// What `cards find` found.
#[derive(Debug, Clone)]
pub enum Found {
    /// By name: the query and the cards, closest first.
    ByName {
        /// The name as given.
        query: String,
        /// The cards.
        cards: Vec<NameHit>,
    },
    /// By text.
    ByText(TextFound),
}

/// Finds cards by name or by text.
pub fn find(conn: &Connection, input: FindInput) -> Result<Found> {
    match (&input.text, &input.name) {
        (None, Some(name)) => find_name(conn, name, input.limit),
        _ => find_text(conn, &input).map(Found::ByText),
    }
}

fn find_name(conn: &Connection, text: &str, limit: usize) -> Result<Found> {
    if crate::domain::names::fold(text).is_empty() {
        return Err(crate::error::Refusal::bad_input("give part of a card name")
            .way_out(crate::error::WayOut::Example(crate::error::Example::CardNamePart))
            .into());
    }
    let hits = Search::load(conn, text)?.find_ids(text, limit.max(1));
    let mut found = Vec::new();
    for (id, score) in hits {
        found.push(NameHit { card: cards::get(conn, id)?, score });
    }
    Ok(Found::ByName { query: text.to_string(), cards: found })
}

/// The words of a description, as FTS5 tokens (letters and digits), lower case.
pub fn tokens(words: &str) -> Vec<String> {
    words.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(|w| w.to_lowercase()).collect()
}

/// Little words that say nothing about a card (left out of the search unless there is nothing else).
const STOPWORDS: [&str; 14] =
    ["a", "an", "the", "of", "to", "and", "or", "it", "its", "that", "this", "is", "on", "in"];

/// The FTS5 query over card texts: every word, the words close together ranking first (`all`), else any
/// word; with a type-line word when given.
fn fts_query(tokens: &[String], all: bool, type_word: Option<&str>) -> String {
    let meaningful: Vec<&String> = tokens.iter().filter(|t| !STOPWORDS.contains(&t.as_str())).collect();
    let used: Vec<&String> = if meaningful.is_empty() { tokens.iter().collect() } else { meaningful };
    let quoted: Vec<String> = used.iter().map(|t| format!("\"{t}\"")).collect();
    let text = if !all {
        format!("text : ({})", quoted.join(" OR "))
    } else if quoted.len() > 1 {
        format!("text : (NEAR({}, 3) OR ({}))", quoted.join(" "), quoted.join(" AND "))
    } else {
        format!("text : ({})", quoted.join(" "))
    };
    match type_word.map(tokens_of_type).filter(|t| !t.is_empty()) {
        Some(t) => format!("({text}) AND type_line : ({t})"),
        None => text,
    }
}

fn tokens_of_type(word: &str) -> String {
    tokens(word).iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(" AND ")
}

fn find_text(conn: &Connection, q: &FindInput) -> Result<TextFound> {
    let query = q.text.clone().unwrap_or_default();
    let words = tokens(&query);
    if words.is_empty() {
        return Err(crate::error::Refusal::bad_input("give words of the card's text")
            .way_out(crate::error::WayOut::Example(crate::error::Example::CardText))
            .into());
    }
    reference::require(conn)?;
    if !card_text::has_text(conn)? {
        let what = "the card reference has no texts";
        let out = crate::error::WayOut::ImportCards { need: crate::error::Cards::WithTexts };
        return Err(crate::error::Refusal::refused(what).way_out(out).into());
    }
    let values = event::values(conn)?;
    let rule = reference::rule(&values)?;
    let printed = q.cost.as_deref().map(reference::Printed::parse).transpose()?;
    let keys = match &printed {
        Some(p) => {
            let mut keys = Vec::new();
            for cost in p.costs() {
                keys.extend(reference::class_keys(rule, &cost, q.letter, p.is_land)?);
            }
            Some(keys)
        }
        None => None,
    };
    let type_word = q.type_word.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let filter = TextFilter { class: keys.as_deref().map(|k| (rule.name(), k, values.switch("split-combined"))) };
    let limit = q.limit.max(1);
    let mut hits = card_text::search(conn, &fts_query(&words, true, type_word), &filter, limit)?;
    let every_word = !hits.is_empty();
    if hits.is_empty() && words.len() > 1 {
        hits = card_text::search(conn, &fts_query(&words, false, type_word), &filter, limit)?;
    }
    let mut cards = Vec::new();
    for h in hits {
        let card = cards::get(conn, h.id)?;
        cards.push(TextHit { card, matched: matched_words(&h.snippet), snippet: h.snippet, rank: h.rank });
    }
    Ok(TextFound {
        query,
        cost: printed.map(|p| p.canonical()),
        type_word: type_word.map(str::to_string),
        every_word,
        cards,
    })
}

/// The words between `«` and `»` in a snippet, lower case, each once.
pub fn matched_words(snippet: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in snippet.split('«').skip(1) {
        let word = part.split('»').next().unwrap_or("").to_lowercase();
        if !word.is_empty() && !out.contains(&word) {
            out.push(word);
        }
    }
    out
}
