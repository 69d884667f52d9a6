//! The card reference's checks as the pool and library operations need them: is a reference loaded, the
//! event's binding rule and class keys, the ban list, the closest names and the costs a card binds with. The
//! same rules and words as the `cards` commands use.

use crate::domain::binding::{self, BindingRule};
use crate::domain::card_search::{NameIndex, Prefilter};
use crate::domain::cost::ManaCost;
use crate::domain::settings::Values;
use crate::error::{Error, Result};
use crate::store::{bans, cards};
use rusqlite::Connection;
use std::collections::HashSet;

/// Refuses when no reference is loaded, saying how to load one.
pub fn require(conn: &Connection) -> Result<()> {
    if cards::count(conn)? == 0 {
        return Err(Error::refused(
            "no card reference loaded: import one with `mmjudge cards import FILE` (e.g. examples/cards.csv)",
        ));
    }
    Ok(())
}

/// Reads a printed cost typed by a judge or player.
pub fn parse_cost(text: &str) -> Result<ManaCost> {
    ManaCost::parse(text).map_err(|e| Error::refused(e.to_string()))
}

/// The event's binding rule.
pub fn rule(values: &Values) -> Result<BindingRule> {
    values.text("binding").parse().map_err(|e: binding::BindingError| Error::refused(e.to_string()))
}

/// The class keys of a printed cost under a binding rule.
pub fn class_keys(rule: BindingRule, printed: &ManaCost, letter: Option<char>, is_land: bool) -> Result<Vec<String>> {
    binding::keys_for_printed(rule, printed, letter, is_land).map_err(|e| Error::refused(e.to_string()))
}

/// The banned card names, folded as the ban list compares them (ASCII case, like its `NOCASE` column).
pub fn banned_names(conn: &Connection) -> Result<HashSet<String>> {
    Ok(bans::all(conn)?.into_iter().map(|b| b.card.to_ascii_lowercase()).collect())
}

/// Whether a card is of a kind the event does not allow.
pub fn is_excluded(card: &cards::Card, values: &Values) -> bool {
    card.kinds.iter().any(|k| !values.switch(&format!("allow-{k}")))
}

/// The closest card names to a typed name (for "unknown card" messages).
pub fn closest(conn: &Connection, name: &str, n: usize) -> Result<Vec<String>> {
    let prefilter = Prefilter::new(name);
    let rows = cards::names_where(conn, move |folded| prefilter.keep(folded))?;
    let mut names = Vec::with_capacity(rows.len());
    let mut folded = Vec::with_capacity(rows.len());
    for (_, card, fold) in rows {
        names.push(card);
        folded.push(fold);
    }
    let index = NameIndex::from_folded(&names, folded);
    Ok(index.search(name, n).into_iter().filter_map(|(i, _)| names.get(i).cloned()).collect())
}

/// The costs a card counts with for binding: each half of a split card (split and aftermath layouts), else
/// the front cost. `Err` holds the cost text that could not be read.
pub fn face_costs(
    layout: &str,
    mana_cost: Option<&str>,
    faces: &[Option<&str>],
) -> Result<Vec<Option<ManaCost>>, String> {
    let parse = |c: Option<&str>| match c.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => ManaCost::parse(t).map(Some).map_err(|_| t.to_string()),
    };
    if (layout == "split" || layout == "aftermath") && !faces.is_empty() {
        faces.iter().map(|f| parse(*f)).collect()
    } else {
        Ok(vec![parse(mana_cost.map(|c| c.split(" // ").next().unwrap_or("")))?])
    }
}

/// The card a typed name means: exact name, folded name, or one half of a split card.
pub fn lookup(conn: &Connection, name: &str) -> Result<Option<cards::Card>> {
    if let Some(c) = cards::by_name(conn, name.trim())? {
        return Ok(Some(c));
    }
    let folded = crate::domain::names::fold(name);
    if folded.is_empty() {
        return Ok(None);
    }
    let found = cards::by_fold(conn, &folded)?;
    if found.len() == 1 {
        return Ok(found.into_iter().next());
    }
    Ok(None)
}
