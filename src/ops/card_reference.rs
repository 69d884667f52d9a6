//! The card reference as commands use it: finding a declared card, its binding class, and whether a
//! declaration is legal under the event's settings.

use crate::domain::binding::{self, BindingRule, CardShape};
use crate::domain::card_search::{NameIndex, Prefilter};
use crate::domain::cost::ManaCost;
use crate::domain::names;
use crate::domain::settings::Values;
use crate::domain::template::{self, Declared, PriorDeclaration, Refusal};
use crate::error::{Error, Result};
use crate::ops::card_names::{self, CardMatch};
use crate::store::cards::{self, Card};
use crate::store::{CardId, bans, event};
use rusqlite::Connection;
use std::collections::HashSet;

/// Refuses when no reference is loaded, saying how to load one.
pub fn require(conn: &Connection) -> Result<()> {
    if cards::count(conn)? == 0 {
        return Err(crate::error::Refusal::refused("no card reference loaded")
            .way_out(crate::error::WayOut::ImportCards { need: crate::error::Cards::Any })
            .into());
    }
    Ok(())
}

/// Reads a printed cost typed by a judge or player. `{Y}` and `{Z}` are refused unless they follow an `{X}`,
/// once each (the only printed cost holding them is `{X}{Y}{Z}{R}{R}`): `ZZ` is a typing slip, not a cost.
pub fn parse_cost(text: &str) -> Result<ManaCost> {
    use crate::domain::cost::Symbol;
    let cost = ManaCost::parse(text).map_err(|e| Error::bad_input(e.to_string()))?;
    let count = |s: Symbol| cost.symbols().iter().filter(|&&x| x == s).count();
    for (symbol, letter) in [(Symbol::Y, 'Y'), (Symbol::Z, 'Z')] {
        if count(symbol) > 0 && (count(Symbol::X) == 0 || count(symbol) > 1) {
            return Err(Error::bad_input(format!(
                "cannot read cost \"{}\": {{{letter}}} only comes once, after {{X}} (as in {{X}}{{Y}}{{Z}}); write costs like {{1}}{{B}} or B1",
                text.trim()
            )));
        }
    }
    Ok(cost)
}

/// A printed card as a judge types it: a mana cost, or the word `land` for a land card (whose cost is
/// ignored: under standard binding it may be declared as any nonbasic land, under the alphabet rules as any land).
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    /// The printed cost ({0} for a land; a split card's first half).
    pub cost: ManaCost,
    /// The printed card is a land.
    pub is_land: bool,
    /// A printed split card's halves, typed `{1}{R} // {1}{U}` (empty for any other card).
    pub halves: Vec<ManaCost>,
}

impl Printed {
    /// Reads `B1`, `{1}{B}`, a split card's `{1}{R} // {1}{U}` (or `R1 // U1`) or `land`.
    pub fn parse(text: &str) -> Result<Printed> {
        if text.trim().eq_ignore_ascii_case("land") {
            return Ok(Printed { cost: ManaCost::zero(), is_land: true, halves: Vec::new() });
        }
        if text.contains("//") {
            let halves = text.split("//").map(parse_cost).collect::<Result<Vec<_>>>()?;
            let cost = halves.first().cloned().unwrap_or_else(ManaCost::zero);
            return Ok(Printed { cost, is_land: false, halves });
        }
        Ok(Printed { cost: parse_cost(text)?, is_land: false, halves: Vec::new() })
    }

    /// The costs the printed card binds with: each half of a split card (rule MM.3g), else its cost.
    pub fn costs(&self) -> Vec<ManaCost> {
        if self.halves.is_empty() { vec![self.cost.clone()] } else { self.halves.clone() }
    }

    /// `{1}{B}`, `{1}{R} // {1}{U}`, or `land`.
    pub fn canonical(&self) -> String {
        if self.is_land {
            "land".into()
        } else {
            self.costs().iter().map(ManaCost::canonical).collect::<Vec<_>>().join(" // ")
        }
    }

    /// The note form `B1` (`R1 // U1`), or `land`.
    pub fn shorthand(&self) -> String {
        if self.is_land {
            "land".into()
        } else {
            self.costs().iter().map(ManaCost::shorthand).collect::<Vec<_>>().join(" // ")
        }
    }
}

/// The event's binding rule.
pub fn rule(values: &Values) -> Result<BindingRule> {
    values.text("binding").parse().map_err(|e: binding::BindingError| Error::refused(e.to_string()))
}

/// The card a typed name means: exact name, folded name, or one half of a split card.
pub fn lookup(conn: &Connection, name: &str) -> Result<Option<Card>> {
    if let Some(c) = cards::by_name(conn, name.trim())? {
        return Ok(Some(c));
    }
    let folded = names::fold(name);
    if folded.is_empty() {
        return Ok(None);
    }
    let found = cards::by_fold(conn, &folded)?;
    if found.len() == 1 {
        return Ok(found.into_iter().next());
    }
    Ok(None)
}

/// The closest card names to a typed name (for "unknown card" messages).
pub fn closest(conn: &Connection, name: &str, n: usize) -> Result<Vec<String>> {
    let index = Search::load(conn, name)?;
    Ok(index.find(name, n).into_iter().map(|(card, _)| card).collect())
}

/// A loaded fuzzy index over the reference's names.
pub struct Search {
    ids: Vec<CardId>,
    names: Vec<String>,
    index: NameIndex,
}

impl Search {
    /// Loads the names that may match `query` (prefiltered inside SQLite) with their folded forms.
    pub fn load(conn: &Connection, query: &str) -> Result<Search> {
        let prefilter = Prefilter::new(query);
        let rows = cards::names_where(conn, move |folded| prefilter.keep(folded))?;
        let mut ids = Vec::with_capacity(rows.len());
        let mut names = Vec::with_capacity(rows.len());
        let mut folded = Vec::with_capacity(rows.len());
        for (id, name, fold) in rows {
            ids.push(id);
            names.push(name);
            folded.push(fold);
        }
        let index = NameIndex::from_folded(&names, folded);
        Ok(Search { ids, names, index })
    }

    /// Up to `n` cards, best first, with their scores.
    pub fn find_ids(&self, query: &str, n: usize) -> Vec<(CardId, f64)> {
        self.index.search(query, n).into_iter().filter_map(|(i, s)| self.ids.get(i).map(|id| (*id, s))).collect()
    }

    /// Up to `n` names, best first, with their scores.
    pub fn find(&self, query: &str, n: usize) -> Vec<(String, f64)> {
        self.index
            .search(query, n)
            .into_iter()
            .filter_map(|(i, s)| self.names.get(i).map(|name| (name.clone(), s)))
            .collect()
    }
}

/// Whether a layout counts each half's cost (split and aftermath cards).
pub fn is_split_layout(layout: &str) -> bool {
    layout == "split" || layout == "aftermath"
}

/// The costs a card counts with for binding: each half of a split card, else the front cost. `Err` holds
/// the cost text that could not be read.
pub fn face_costs(
    layout: &str,
    mana_cost: Option<&str>,
    faces: &[Option<&str>],
) -> Result<Vec<Option<ManaCost>>, String> {
    let parse = |c: Option<&str>| match c.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => ManaCost::parse(t).map(Some).map_err(|_| t.to_string()),
    };
    let printed_halves: Vec<&str> = mana_cost.map(|c| c.split(" // ").collect()).unwrap_or_default();
    if is_split_layout(layout) && (!faces.is_empty() || printed_halves.len() > 1) {
        // A face without a cost in the card file takes its half of the printed cost.
        let n = faces.len().max(printed_halves.len());
        (0..n)
            .map(|i| {
                let face = faces.get(i).copied().flatten().filter(|t| !t.trim().is_empty());
                parse(face.or(printed_halves.get(i).copied()))
            })
            .collect()
    } else {
        Ok(vec![parse(mana_cost.map(|c| c.split(" // ").next().unwrap_or("")))?])
    }
}

/// The first excluded kind of a card that the event does not allow, if any.
pub fn excluded_kind(card: &Card, values: &Values) -> Option<String> {
    card.kinds.iter().find(|k| !values.switch(&format!("allow-{k}"))).cloned()
}

/// A reference card as the template rules see a declaration of it.
pub fn declared(conn: &Connection, card: &Card, values: &Values) -> Result<Declared> {
    let faces = cards::faces(conn, card.id)?;
    let face_cost_text: Vec<Option<&str>> = faces.iter().map(|f| f.mana_cost.as_deref()).collect();
    Ok(Declared {
        name: card.name.clone(),
        face_costs: face_costs(&card.layout, card.mana_cost.as_deref(), &face_cost_text).unwrap_or_default(),
        is_split: is_split_layout(&card.layout),
        is_land: card.is_land,
        is_basic_land: card.is_basic,
        banned_group: bans::get(conn, &card.name)?.map(|b| b.group),
        excluded_kind: excluded_kind(card, values),
    })
}

/// Checks a declaration of `name` for a card of printed cost `printed` (and first letter `letter` under the
/// alphabet rules), with an earlier declaration of the same card in this game if any.
pub fn check(
    conn: &Connection,
    printed: &Printed,
    letter: Option<char>,
    name: &str,
    prior: Option<&PriorDeclaration>,
) -> Result<std::result::Result<Card, Refusal>> {
    let matched = card_names::resolve_card_name(conn, name)?;
    check_match(conn, printed, letter, name, &matched, prior)
}

/// Checks a declaration of the card a typed `name` was resolved to (`ops::card_names::resolve_card_name`):
/// an unclear or unknown name is refused with the close names.
pub fn check_match(
    conn: &Connection,
    printed: &Printed,
    letter: Option<char>,
    name: &str,
    matched: &CardMatch,
    prior: Option<&PriorDeclaration>,
) -> Result<std::result::Result<Card, Refusal>> {
    let values = event::values(conn)?;
    let rule = rule(&values)?;
    if template::is_utopia(name) {
        return Ok(Err(Refusal::Utopia));
    }
    if name.trim().is_empty() {
        return Ok(Err(Refusal::EmptyName));
    }
    require(conn)?;
    let card = match matched {
        CardMatch::Unclear { typed, close } => {
            return Ok(Err(Refusal::UnclearName { name: typed.clone(), close: close.clone() }));
        }
        CardMatch::Unknown { typed, close } => {
            return Ok(Err(Refusal::UnknownName { name: typed.clone(), closest: close.clone() }));
        }
        found => match found.card() {
            Some(card) => card.clone(),
            None => return Ok(Err(Refusal::UnknownName { name: name.trim().to_string(), closest: vec![] })),
        },
    };
    if rule.needs_letter() && letter.is_none() && !printed.is_land {
        let what = format!("BV.{rule}: the {rule} binding rule compares first letters");
        return Err(crate::error::Refusal::bad_input(format!(
            "{what}, and the printed card's letter was not given: ask a judge to note it with the letter"
        ))
        .flags(format!("{what}: give the printed card's letter with --letter"))
        .into());
    }
    let printed_name = letter.map(|l| l.to_string()).unwrap_or_default();
    let shape = CardShape {
        name: &printed_name,
        face_costs: printed.costs().into_iter().map(Some).collect(),
        is_split: !printed.halves.is_empty(),
        is_land: printed.is_land,
        is_basic_land: false,
    };
    let decl = declared(conn, &card, &values)?;
    Ok(template::check(rule, &shape, &decl, prior, values.switch("split-combined")).map(|()| card))
}

/// The banned card names, folded as the ban list compares them (ASCII case, like its `NOCASE` column): read
/// once, then tested with [`is_banned`] instead of a query per card.
pub fn banned_names(conn: &Connection) -> Result<HashSet<String>> {
    Ok(bans::all(conn)?.into_iter().map(|b| b.card.to_ascii_lowercase()).collect())
}

/// Whether a card name is in a set read by [`banned_names`].
pub fn is_banned(banned: &HashSet<String>, name: &str) -> bool {
    banned.contains(&name.to_ascii_lowercase())
}

/// A binding class: the declarable cards, and those left out as banned or excluded.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Class {
    /// Cards a card of the printed cost may be declared as.
    pub cards: Vec<Card>,
    /// Cards of the class on the event's ban list.
    pub banned: Vec<Card>,
    /// Cards of the class of a kind the event excludes.
    pub excluded: Vec<Card>,
}

/// The binding class of a printed cost under the event's rule.
pub fn class(conn: &Connection, printed: &ManaCost, letter: Option<char>, is_land: bool) -> Result<Class> {
    let values = event::values(conn)?;
    let rule = rule(&values)?;
    let keys = class_keys(rule, printed, letter, is_land)?;
    let members = cards::class(conn, rule.name(), &keys, values.switch("split-combined"))?;
    Ok(sort_class(members, &banned_names(conn)?, &values))
}

/// The binding class of a printed card (every half of a printed split card) under the event's rule.
pub fn class_printed(conn: &Connection, printed: &Printed, letter: Option<char>) -> Result<Class> {
    let values = event::values(conn)?;
    let rule = rule(&values)?;
    let mut keys = Vec::new();
    for cost in printed.costs() {
        keys.extend(class_keys(rule, &cost, letter, printed.is_land)?);
    }
    keys.sort();
    keys.dedup();
    let members = cards::class(conn, rule.name(), &keys, values.switch("split-combined"))?;
    Ok(sort_class(members, &banned_names(conn)?, &values))
}

/// The class keys of a printed cost under a binding rule.
pub fn class_keys(rule: BindingRule, printed: &ManaCost, letter: Option<char>, is_land: bool) -> Result<Vec<String>> {
    binding::keys_for_printed(rule, printed, letter, is_land).map_err(|e| Error::bad_input(e.to_string()))
}

/// Sorts a class's members into declarable, banned (names from [`banned_names`]) and excluded cards.
pub fn sort_class(members: Vec<Card>, banned: &HashSet<String>, values: &Values) -> Class {
    let mut out = Class::default();
    for card in members {
        if is_banned(banned, &card.name) {
            out.banned.push(card);
        } else if excluded_kind(&card, values).is_some() {
            out.excluded.push(card);
        } else {
            out.cards.push(card);
        }
    }
    out
}

/// Whether a card is of a kind the event does not allow.
pub fn is_excluded(card: &Card, values: &Values) -> bool {
    excluded_kind(card, values).is_some()
}
