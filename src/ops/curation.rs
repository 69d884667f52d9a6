//! The curation report (`pool check`): every printed cost of the pool's spells (not excluded) with its copies
//! and its class size under the event's binding rule, flagged unusable, restrictive or abusive; and the quick
//! checks library building and swaps make with the same classes.
//!
//! Abusive means a player may declare a copy as a watched card (the watch list: Mind Twist by default, and the
//! cards the judges add). A banned card in a class is only information: no player may declare it, so it is
//! listed ("{1}{W}: Balance is banned; 59 other cards"), never flagged.

use super::card_reference;
use crate::domain::binding::{self, BindingRule};
use crate::domain::cost::{Color, ManaCost};
use crate::domain::curation::{CostGroup, CurationLimits, CurationSummary, Finding, Flag, curation_flags, summarize};
use crate::domain::library::printed_costs;
use crate::domain::settings::Values;
use crate::error::Result;
use crate::store::{cards, event, pool as store_pool};
use rusqlite::Connection;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// One printed cost of the pool, checked.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckedGroup {
    /// The cost, its copies, names and class.
    #[serde(flatten)]
    pub group: CostGroup,
    /// The printed cards' first letter, under the alphabet binding rules.
    pub letter: Option<char>,
    /// Banned cards in the class.
    pub banned: Vec<String>,
    /// Watch-listed cards in the class that a player may declare (what makes the cost abusive).
    pub watched: Vec<String>,
    /// The banned cards in the class as information, e.g. `{1}{W}: Balance is banned; 59 other cards`.
    pub banned_note: Option<String>,
    /// The flags raised, with their reasons.
    pub flags: Vec<Finding>,
}

impl CheckedGroup {
    /// The cost as a judge reads it: `{1}{B}`, or `{1}{B} (d…)` under the alphabet rules.
    pub fn label(&self) -> String {
        match self.letter {
            Some(l) => format!("{} ({l}…)", self.group.cost),
            None => self.group.cost.clone(),
        }
    }
}

/// Copies and cards of a part of the pool left out of the check.
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct Apart {
    /// Distinct cards.
    pub cards: u32,
    /// Copies.
    pub copies: u32,
}

/// The whole curation report.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// The event's binding rule.
    pub binding: String,
    /// Thresholds used.
    pub limits: CurationLimits,
    /// Counts per flag.
    pub summary: CurationSummary,
    /// Every cost group, by mana value then cost.
    pub groups: Vec<CheckedGroup>,
    /// Land copies, kept apart from the spells.
    pub lands: Apart,
    /// Basic land copies among the lands.
    pub basic_lands: u32,
    /// Excluded spells, not checked.
    pub excluded: Apart,
    /// What to find when the pool is short for the tables the players need (see
    /// [`crate::ops::library::to_find`]); null when nothing is short or no player is entered.
    pub to_find: Option<crate::ops::library::to_find::ToFind>,
}

impl Report {
    /// The information lines on banned cards in the classes, by mana value then cost.
    pub fn banned_notes(&self) -> Vec<&str> {
        self.groups.iter().filter_map(|g| g.banned_note.as_deref()).collect()
    }

    /// The groups carrying at least one flag: unusable first, then abusive, then restrictive; most copies first.
    pub fn flagged(&self) -> Vec<&CheckedGroup> {
        let mut out: Vec<&CheckedGroup> = self.groups.iter().filter(|g| !g.flags.is_empty()).collect();
        let rank = |g: &CheckedGroup| {
            let has = |f: Flag| g.flags.iter().any(|x| x.flag == f);
            if has(Flag::Unusable) {
                0
            } else if has(Flag::Abusive) {
                1
            } else {
                2
            }
        };
        out.sort_by(|a, b| rank(a).cmp(&rank(b)).then(b.group.copies.cmp(&a.group.copies)));
        out
    }
}

/// `pool check`: the curation report, refused when the pool is empty.
pub fn pool_check(conn: &Connection) -> Result<Report> {
    let report = report(conn)?;
    if report.groups.is_empty() && report.lands.copies == 0 {
        return Err(crate::error::Refusal::refused("the pool is empty")
            .way_out(crate::error::WayOut::ImportPool)
            .into());
    }
    Ok(report)
}

/// Checks the pool against the reference under the event's binding rule.
pub fn report(conn: &Connection) -> Result<Report> {
    card_reference::require(conn)?;
    let classifier = Classifier::load(conn)?;
    let rule = classifier.rule;
    let mut lands = Apart::default();
    let mut excluded = Apart::default();
    let mut basic_lands = 0;
    let mut by_cost: BTreeMap<(String, Option<char>), (u32, Vec<String>)> = BTreeMap::new();
    for card in store_pool::all(conn)? {
        if card.is_land {
            add_apart(&mut lands, card.copies);
            if card.is_basic() {
                basic_lands += card.copies;
            }
            continue;
        }
        if card.excluded {
            add_apart(&mut excluded, card.copies);
            continue;
        }
        let letter = rule.needs_letter().then(|| binding::initial(&card.name));
        let key = (card.mana_cost.clone().unwrap_or_else(|| "{0}".into()), letter);
        let entry = by_cost.entry(key).or_default();
        entry.0 += card.copies;
        entry.1.push(card.name);
    }
    let mut groups = Vec::with_capacity(by_cost.len());
    for ((cost, letter), (copies, names)) in by_cost {
        groups.push(check_group(conn, &classifier, &cost, letter, copies, names)?);
    }
    groups
        .sort_by_key(|g| (printed_costs(Some(&g.group.cost)).iter().map(ManaCost::mana_value).sum::<u32>(), g.label()));
    let plain: Vec<CostGroup> = groups.iter().map(|g| g.group.clone()).collect();
    let limits = CurationLimits::default();
    Ok(Report {
        binding: rule.name().to_string(),
        summary: summarize(&plain, &limits),
        limits,
        groups,
        lands,
        basic_lands,
        excluded,
        to_find: crate::ops::library::to_find::to_find(conn)?,
    })
}

/// The curation flags of one pool card's printed cost (its copies counted alone).
pub fn check_card(conn: &Connection, card: &store_pool::PoolCard) -> Result<Vec<Finding>> {
    let classifier = Classifier::load(conn)?;
    let letter = classifier.rule.needs_letter().then(|| binding::initial(&card.name));
    let cost = card.mana_cost.clone().unwrap_or_else(|| "{0}".into());
    Ok(check_group(conn, &classifier, &cost, letter, card.copies, vec![card.name.clone()])?.flags)
}

/// Classes with more cards than this (banned and excluded kinds included) are taken as usable without
/// reading them, in [`unusable_among`].
const SURELY_USABLE: u32 = 64;

/// The names of these pool cards whose printed cost is unusable (a quick check for `library build`; `pool
/// check` is the full report).
pub fn unusable_among(conn: &Connection, pool_cards: &[store_pool::PoolCard]) -> Result<Vec<String>> {
    let classifier = Classifier::load(conn)?;
    let mut seen: HashMap<(Option<String>, Option<char>), bool> = HashMap::new();
    let mut out = Vec::new();
    for card in pool_cards.iter().filter(|c| !c.is_land) {
        let letter = classifier.rule.needs_letter().then(|| binding::initial(&card.name));
        let key = (card.mana_cost.clone(), letter);
        let unusable = match seen.get(&key) {
            Some(u) => *u,
            None => *seen.entry(key).or_insert(is_unusable(conn, &classifier, card, letter)?),
        };
        if unusable {
            out.push(card.name.clone());
        }
    }
    Ok(out)
}

/// Whether a pool card's printed cost is unusable (classes above [`SURELY_USABLE`] are not read).
fn is_unusable(
    conn: &Connection,
    classifier: &Classifier,
    card: &store_pool::PoolCard,
    letter: Option<char>,
) -> Result<bool> {
    let combined = classifier.values.switch("split-combined");
    let mut raw = 0u32;
    for c in printed_costs(card.mana_cost.as_deref()) {
        let keys = card_reference::class_keys(classifier.rule, &c, letter, false)?;
        raw = raw.saturating_add(cards::class_count(conn, classifier.rule.name(), &keys, combined)?);
    }
    if raw > SURELY_USABLE {
        return Ok(false);
    }
    let cost = card.mana_cost.clone().unwrap_or_else(|| "{0}".into());
    let group = check_group(conn, classifier, &cost, letter, card.copies, Vec::new())?;
    Ok(group.flags.iter().any(|f| f.flag == Flag::Unusable))
}

/// Lower-cased names that make a class abusive: the watch list (a banned card on it is never declared, so it
/// makes nothing abusive).
fn dangerous_names(conn: &Connection) -> Result<HashSet<String>> {
    Ok(store_pool::watch_list(conn)?.into_iter().map(|w| w.card.to_lowercase()).collect())
}

fn add_apart(a: &mut Apart, copies: u32) {
    a.cards += 1;
    a.copies += copies;
}

/// The reference as the check reads it, with the event's rule, settings, bans and dangerous names loaded
/// once: the same classes as `cards class` shows, without a query per card.
struct Classifier {
    rule: BindingRule,
    values: Values,
    banned: HashSet<String>,
    danger: HashSet<String>,
}

impl Classifier {
    fn load(conn: &Connection) -> Result<Classifier> {
        let values = event::values(conn)?;
        let rule = card_reference::rule(&values)?;
        let banned = card_reference::banned_names(conn)?;
        Ok(Classifier { rule, values, banned, danger: dangerous_names(conn)? })
    }

    /// The declarable cards and the banned cards of a printed cost's class.
    fn class(&self, conn: &Connection, cost: &ManaCost, letter: Option<char>) -> Result<(Vec<String>, Vec<String>)> {
        let keys = card_reference::class_keys(self.rule, cost, letter, false)?;
        let members = cards::class(conn, self.rule.name(), &keys, self.values.switch("split-combined"))?;
        let mut declarable = Vec::new();
        let mut banned = Vec::new();
        for card in members {
            if self.banned.contains(&card.name.to_ascii_lowercase()) {
                banned.push(card.name);
            } else if !card_reference::is_excluded(&card, &self.values) {
                declarable.push(card.name);
            }
        }
        Ok((declarable, banned))
    }
}

fn check_group(
    conn: &Connection,
    classifier: &Classifier,
    cost: &str,
    letter: Option<char>,
    copies: u32,
    names: Vec<String>,
) -> Result<CheckedGroup> {
    let costs = printed_costs(Some(cost));
    let mut members: BTreeSet<String> = BTreeSet::new();
    let mut banned: BTreeSet<String> = BTreeSet::new();
    for c in &costs {
        let (m, b) = classifier.class(conn, c, letter)?;
        members.extend(m);
        banned.extend(b);
    }
    let danger = &classifier.danger;
    let watched: Vec<String> = members.iter().filter(|n| danger.contains(&n.to_lowercase())).cloned().collect();
    let max_same_color =
        costs.iter().flat_map(|c| Color::ALL.iter().map(move |&col| c.colored_count(col))).max().unwrap_or(0);
    let group = CostGroup {
        cost: cost.to_string(),
        shorthand: costs.iter().map(ManaCost::shorthand).collect::<Vec<_>>().join(" // "),
        copies,
        names,
        class_size: u32::try_from(members.len()).unwrap_or(u32::MAX),
        max_same_color,
        has_x: costs.iter().any(|c| c.x_count() > 0),
        dangerous: watched.clone(),
    };
    let flags = curation_flags(&group, &CurationLimits::default());
    let banned: Vec<String> = banned.into_iter().collect();
    let mut checked = CheckedGroup { group, letter, banned, watched, banned_note: None, flags };
    checked.banned_note = banned_note(&checked);
    Ok(checked)
}

/// `{1}{W}: Balance is banned; 59 other cards`: the banned cards of a class, as information.
fn banned_note(g: &CheckedGroup) -> Option<String> {
    let verb = match g.banned.len() {
        0 => return None,
        1 => "is",
        _ => "are",
    };
    Some(format!(
        "{}: {} {verb} banned; {}",
        g.label(),
        crate::domain::curation::join_names(&g.banned),
        crate::domain::words::count(g.group.class_size, "other card")
    ))
}
