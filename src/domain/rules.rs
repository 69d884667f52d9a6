//! The rules mmjudge applies, with their ids, and the Mental Magic rulings for particular cards: both
//! kept as data files in the repository (`data/rules.json`, `data/card-rulings.json`), in our own words.

use super::names;
use std::sync::OnceLock;

/// One rule mmjudge applies.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct Rule {
    /// Its id: `MM.3e` (ruleset 2013), `BV.alphabet` (binding variants), `TR.challenges` (tournament rules),
    /// `CR.107.4h` (comprehensive rules).
    pub id: String,
    /// A few words naming it.
    pub title: String,
    /// Which rules text it comes from.
    pub source: String,
    /// What it says, in short.
    pub text: String,
}

/// A Mental Magic ruling about one card.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct CardRuling {
    /// The card's name.
    pub card: String,
    /// The ruling.
    pub text: String,
}

/// Every rule, in the data file's order.
pub fn all() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| serde_json::from_str(include_str!("../../data/rules.json")).unwrap_or_default())
}

/// The rule with this id (case-insensitive), if any.
pub fn get(id: &str) -> Option<&'static Rule> {
    all().iter().find(|r| r.id.eq_ignore_ascii_case(id.trim()))
}

/// The rule's id followed by `: ` and `message` ("MM.3e: a template is declared once per game").
pub fn cite(id: &str, message: impl std::fmt::Display) -> String {
    format!("{id}: {message}")
}

/// The rules whose id starts with `query` (`MM.3` gives MM.3, MM.3e, ...), else those whose id, title or
/// text holds every word of `query`; all rules for an empty query.
pub fn search(query: &str) -> Vec<&'static Rule> {
    let q = query.trim();
    if q.is_empty() {
        return all().iter().collect();
    }
    if let Some(rule) = get(q) {
        return vec![rule];
    }
    let by_id: Vec<&Rule> =
        all().iter().filter(|r| r.id.to_ascii_lowercase().starts_with(&q.to_ascii_lowercase())).collect();
    if !by_id.is_empty() {
        return by_id;
    }
    let words: Vec<String> = names::fold(q).split_whitespace().map(str::to_string).collect();
    all()
        .iter()
        .filter(|r| {
            let hay = names::fold(&format!("{} {} {} {}", r.id, r.title, r.source, r.text));
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect()
}

/// Every Mental Magic card ruling.
pub fn card_rulings() -> &'static [CardRuling] {
    static RULINGS: OnceLock<Vec<CardRuling>> = OnceLock::new();
    RULINGS.get_or_init(|| serde_json::from_str(include_str!("../../data/card-rulings.json")).unwrap_or_default())
}

/// The Mental Magic rulings that concern a card (compared by folded name).
pub fn rulings_for(card: &str) -> Vec<&'static CardRuling> {
    let key = names::fold(card);
    card_rulings().iter().filter(|r| names::fold(&r.card) == key).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_files_read_and_ids_are_unique() {
        assert!(all().len() >= 20);
        let mut ids: Vec<&str> = all().iter().map(|r| r.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), all().len());
        assert!(card_rulings().len() >= 10);
    }

    #[test]
    fn lookup_by_id_prefix_and_words() {
        assert_eq!(get("mm.3h").map(|r| r.title.as_str()), Some("hybrid mana"));
        assert_eq!(search("MM.3h").len(), 1);
        assert!(search("BV.").len() >= 4);
        assert_eq!(search("MM.3").len(), 1);
        let hybrid: Vec<&str> = search("hybrid").iter().map(|r| r.id.as_str()).collect();
        assert!(hybrid.contains(&"MM.3h"), "{hybrid:?}");
        assert!(search("two challenges").iter().any(|r| r.id == "TR.challenges"));
        assert!(search("no such words anywhere").is_empty());
        assert_eq!(cite("MM.3e", "x"), "MM.3e: x");
    }

    #[test]
    fn card_rulings_by_folded_name() {
        assert_eq!(rulings_for("demonic tutor").len(), 1);
        assert_eq!(rulings_for("Ring of Ma'ruf").len(), 1);
        assert!(rulings_for("Lightning Bolt").is_empty());
    }
}
