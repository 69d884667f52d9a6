//! Card lists a judge or player types (`name,count,mana_cost,type_line`): reading them and resolving every
//! name against the card reference. Shared by `pool import`, `pool add`, `library register` and the demo.

use crate::domain::cost::ManaCost;
use crate::domain::names;
use crate::error::{Error, Result};
use crate::ops::card_reference as reference;
use crate::store::CardId;
use crate::store::cards;
use rusqlite::Connection;
use std::collections::HashMap;

/// One line of a card list, as typed.
#[derive(Debug, Clone, Default)]
pub struct CardLine {
    /// Where it came from ("line 4: ", or "" on the command line), to prefix problems.
    pub at: String,
    /// Card name.
    pub name: String,
    /// Copies as typed (empty = 1).
    pub count: String,
    /// Printed cost as typed, if given.
    pub mana_cost: Option<String>,
    /// Type line as typed, if given.
    pub type_line: Option<String>,
}

/// A card resolved against the reference, with its copies summed over the lines naming it.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedCard {
    /// The reference's name, or the name as typed for unknown cards.
    pub name: String,
    /// Printed cost, canonical (`{1}{R} // {1}{U}` for split cards); None for no cost.
    pub mana_cost: Option<String>,
    /// Type line.
    pub type_line: String,
    /// A land.
    pub is_land: bool,
    /// A basic land.
    pub is_basic: bool,
    /// Known to the reference.
    pub known: bool,
    /// Copies.
    pub copies: u32,
}

/// Every card of a list, and what a judge should know about how it was read.
#[derive(Debug, Clone, Default)]
pub struct Resolution {
    /// Distinct cards in first-seen order.
    pub cards: Vec<ResolvedCard>,
    /// Lines whose cost differs from the reference (the reference's cost is kept).
    pub cost_notes: Vec<String>,
    /// Lines with a count of 0, skipped.
    pub zero_lines: usize,
}

/// Reads a card list CSV (header row; `name` required; `count`, `mana_cost`, `type_line` optional).
pub fn read_lines(bytes: &[u8], shown: &str) -> Result<Vec<CardLine>> {
    read_lines_counted(bytes, shown).map(|(lines, _)| lines)
}

/// Like [`read_lines`], also removing control characters from every cell: returns how many were removed.
pub fn read_lines_counted(bytes: &[u8], shown: &str) -> Result<(Vec<CardLine>, usize)> {
    let removed = std::cell::Cell::new(0usize);
    let mut reader = csv::ReaderBuilder::new().flexible(false).trim(csv::Trim::All).from_reader(bytes);
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| Error::bad_input(format!("{shown}: cannot read the header row: {e}")))?
        .iter()
        .map(|h| h.trim().trim_start_matches('\u{feff}').to_lowercase().replace([' ', '-'], "_"))
        .collect();
    let col = |names: &[&str]| headers.iter().position(|h| names.contains(&h.as_str()));
    let Some(name_col) = col(&["name", "card", "card_name"]) else {
        return Err(Error::bad_input(format!(
            "{shown}: no \"name\" column (found: {}): the first line must be a header such as name,count,mana_cost,type_line",
            headers.join(", ")
        )));
    };
    let count_col = col(&["count", "copies", "qty", "quantity"]);
    let cost_col = col(&["mana_cost", "cost", "manacost"]);
    let type_col = col(&["type_line", "type", "typeline"]);
    let mut lines = Vec::new();
    let mut problems = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let line = i + 2;
        match rec {
            Ok(r) => {
                let get = |c: Option<usize>| {
                    c.and_then(|c| r.get(c)).map(|cell| {
                        let (kept, n) = crate::domain::text::strip(cell, false);
                        removed.set(removed.get() + n);
                        kept.trim().to_string()
                    })
                };
                lines.push(CardLine {
                    at: format!("line {line}: "),
                    name: get(Some(name_col)).unwrap_or_default(),
                    count: get(count_col).unwrap_or_default(),
                    mana_cost: get(cost_col).filter(|c| !c.is_empty()),
                    type_line: get(type_col).filter(|t| !t.is_empty()),
                });
            }
            Err(e) => problems.push(format!("line {line}: {}", csv_problem(&e))),
        }
    }
    if !problems.is_empty() {
        return Err(Error::bad_input(format!("{shown}: nothing imported: {}", problems.join("; "))));
    }
    Ok((lines, removed.get()))
}

/// The reference's names in memory, for fast exact and folded lookups of many names.
pub struct NameTable {
    exact: HashMap<String, CardId>,
    folded: HashMap<String, Vec<CardId>>,
}

impl NameTable {
    /// Loads every name of the reference.
    pub fn load(conn: &Connection) -> Result<NameTable> {
        let mut exact = HashMap::new();
        let mut folded: HashMap<String, Vec<CardId>> = HashMap::new();
        for (id, name, fold) in cards::names(conn)? {
            exact.insert(name.to_lowercase(), id);
            folded.entry(fold).or_default().push(id);
        }
        Ok(NameTable { exact, folded })
    }

    /// The card a typed name means: exact (any case), or the one card with the same folded name.
    pub fn find(&self, name: &str) -> Option<CardId> {
        if let Some(id) = self.exact.get(&name.trim().to_lowercase()) {
            return Some(*id);
        }
        match self.folded.get(&names::fold(name)).map(Vec::as_slice) {
            Some([one]) => Some(*one),
            _ => None,
        }
    }

    /// The closest reference names to a typed name.
    pub fn closest(&mut self, conn: &Connection, name: &str) -> Result<Vec<String>> {
        reference::closest(conn, name, 3)
    }
}

/// Resolves every line against the reference; refuses with every problem at once.
pub fn resolve_lines(conn: &Connection, lines: &[CardLine], allow_unknown: bool) -> Result<Resolution> {
    reference::require(conn)?;
    let mut table = NameTable::load(conn)?;
    let mut out = Resolution::default();
    let mut problems = Vec::new();
    let mut unknown_with_cost = false;
    let mut index: HashMap<String, usize> = HashMap::new();
    for line in lines {
        let resolved = match resolve_line(conn, &mut table, line, allow_unknown, &mut out.cost_notes)? {
            Ok(card) => card,
            Err(LineProblem { text, unknown_with_cost: u }) => {
                unknown_with_cost |= u;
                problems.push(format!("{}{text}", line.at));
                continue;
            }
        };
        if resolved.copies == 0 {
            out.zero_lines += 1;
            continue;
        }
        if let Err(e) = crate::domain::bounds::copies(&resolved.name, resolved.copies.into(), resolved.is_basic) {
            problems.push(format!("{}{e}", line.at));
            continue;
        }
        match index.get(&resolved.name.to_lowercase()) {
            Some(&i) => {
                let total = u64::from(out.cards[i].copies) + u64::from(resolved.copies);
                if let Err(e) = crate::domain::bounds::copies(&resolved.name, total, resolved.is_basic) {
                    problems.push(format!("{}{e}", line.at));
                }
                out.cards[i].copies = out.cards[i].copies.saturating_add(resolved.copies);
            }
            None => {
                index.insert(resolved.name.to_lowercase(), out.cards.len());
                out.cards.push(resolved);
            }
        }
    }
    if problems.is_empty() {
        return Ok(out);
    }
    let what = format!("{} problem{}: {}", problems.len(), plural(problems.len()), shorten(&problems));
    if unknown_with_cost && !allow_unknown {
        let out = crate::error::WayOut::AllowUnknown;
        return Err(crate::error::Refusal::bad_input(what).way_out_after(crate::error::Join::Semicolon, out).into());
    }
    Err(Error::bad_input(what))
}

/// At most ten problems, then how many more.
fn shorten(problems: &[String]) -> String {
    let mut text = problems.iter().take(10).cloned().collect::<Vec<_>>().join("; ");
    if problems.len() > 10 {
        text.push_str(&format!("; and {} more", problems.len() - 10));
    }
    text
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

struct LineProblem {
    text: String,
    unknown_with_cost: bool,
}

fn problem(text: String) -> LineProblem {
    LineProblem { text, unknown_with_cost: false }
}

fn resolve_line(
    conn: &Connection,
    table: &mut NameTable,
    line: &CardLine,
    allow_unknown: bool,
    notes: &mut Vec<String>,
) -> Result<std::result::Result<ResolvedCard, LineProblem>> {
    let name = line.name.trim();
    if name.is_empty() {
        return Ok(Err(problem("no card name".into())));
    }
    let typed = [("the card name", Some(name)), ("the type line", line.type_line.as_deref())];
    if let Some(e) = typed.iter().find_map(|(what, t)| crate::domain::text::check(what, t.unwrap_or(""), false).err()) {
        return Ok(Err(problem(e)));
    }
    let copies = match parse_count(&line.count) {
        Ok(n) => n,
        Err(text) => return Ok(Err(problem(format!("\"{name}\": {text}")))),
    };
    if let Some(id) = table.find(name) {
        let card = known_card(conn, id, copies)?;
        if let Some(typed) = &line.mana_cost
            && printed_text(typed).ok().flatten() != card.mana_cost
        {
            notes.push(format!(
                "{}{} costs {}, not {typed}",
                line.at,
                card.name,
                card.mana_cost.as_deref().unwrap_or("nothing")
            ));
        }
        return Ok(Ok(card));
    }
    let closest = crate::domain::names::closest_hint(&table.closest(conn, name)?);
    let type_line = line.type_line.clone().unwrap_or_default();
    let is_land = front(&type_line).contains("Land");
    if line.mana_cost.is_none() && !is_land {
        return Ok(Err(problem(format!(
            "\"{name}\" is not in the card reference{closest} and has no mana_cost: correct the name or give its cost and type"
        ))));
    }
    if !allow_unknown {
        return Ok(Err(LineProblem {
            text: format!("\"{name}\" is not in the card reference{closest}"),
            unknown_with_cost: true,
        }));
    }
    if type_line.is_empty() {
        return Ok(Err(problem(format!("\"{name}\" is not in the card reference: give its type_line too"))));
    }
    let mana_cost = match line.mana_cost.as_deref().map(printed_text).transpose() {
        Ok(c) => c.flatten(),
        Err(e) => return Ok(Err(problem(format!("\"{name}\": {e}")))),
    };
    let is_basic = front(&type_line).starts_with("Basic");
    Ok(Ok(ResolvedCard { name: name.to_string(), mana_cost, type_line, is_land, is_basic, known: false, copies }))
}

/// A typed count: empty is 1; negative or non-numeric counts are refused.
pub fn parse_count(text: &str) -> std::result::Result<u32, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(1);
    }
    if let Ok(n) = t.parse::<u128>() {
        // A basic land may have the most copies; a card other than a basic land is checked against its own
        // bound once the line is resolved.
        let max = crate::domain::bounds::MAX_BASIC_COPIES;
        return u32::try_from(n).ok().filter(|&n| n <= max).ok_or_else(|| {
            format!(
                "count {t} is more than {}: no card has that many copies",
                crate::domain::bounds::grouped(max.into())
            )
        });
    }
    if t.parse::<i64>().is_ok_and(|n| n < 0) {
        return Err(format!("count {t} is negative: give the number of copies (0 or more)"));
    }
    Err(format!("count \"{t}\" is not a whole number of copies"))
}

fn front(type_line: &str) -> &str {
    type_line.split(" // ").next().unwrap_or("")
}

/// A reference card as the pool stores it: the cost printed on the physical card (both halves of a split
/// card, the front face otherwise).
fn known_card(conn: &Connection, id: CardId, copies: u32) -> Result<ResolvedCard> {
    let card = cards::get(conn, id)?;
    let faces = cards::faces(conn, id)?;
    let face_text: Vec<Option<&str>> = faces.iter().map(|f| f.mana_cost.as_deref()).collect();
    let costs = reference::face_costs(&card.layout, card.mana_cost.as_deref(), &face_text).unwrap_or_default();
    let mana_cost = if costs.iter().all(Option::is_none) {
        None
    } else {
        let parts: Vec<String> =
            costs.iter().map(|c| c.as_ref().map(ManaCost::canonical).unwrap_or_else(|| "{0}".into())).collect();
        Some(parts.join(" // "))
    };
    Ok(ResolvedCard {
        name: card.name,
        mana_cost,
        type_line: card.type_line,
        is_land: card.is_land,
        is_basic: card.is_basic,
        known: true,
        copies,
    })
}

/// A typed printed cost in the pool's stored form: canonical, halves joined by ` // `; None when empty.
pub fn printed_text(typed: &str) -> Result<Option<String>> {
    let t = typed.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let parts: Vec<String> =
        t.split("//").map(|half| reference::parse_cost(half).map(|c| c.canonical())).collect::<Result<_>>()?;
    Ok(Some(parts.join(" // ")))
}

/// A CSV reading problem in a judge's words.
fn csv_problem(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields where the header has {expected_len}")
        }
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".into(),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::library::pool_copy;

    #[test]
    fn counts_are_whole_numbers() {
        assert_eq!(parse_count(""), Ok(1));
        assert_eq!(parse_count(" 3 "), Ok(3));
        assert_eq!(parse_count("0"), Ok(0));
        assert!(parse_count("-2").unwrap_err().contains("negative"));
        assert!(parse_count("two").unwrap_err().contains("not a whole number"));
        assert!(parse_count("1.5").unwrap_err().contains("not a whole number"));
        assert_eq!(parse_count("1000000"), Ok(1_000_000));
        assert!(parse_count("1000001").unwrap_err().contains("more than 1,000,000"));
        assert!(parse_count("4294967296").unwrap_err().contains("more than 1,000,000"));
    }

    #[test]
    fn printed_costs_read_split_cards_and_no_cost() {
        assert_eq!(printed_text("B1").ok().flatten().as_deref(), Some("{1}{B}"));
        assert_eq!(printed_text("{1}{R} // 1U").ok().flatten().as_deref(), Some("{1}{R} // {1}{U}"));
        assert_eq!(printed_text(" ").ok().flatten(), None);
        assert!(printed_text("{Q}").is_err());
        let fire_ice = pool_copy(1, "Fire // Ice", Some("{1}{R} // {1}{U}"));
        assert_eq!(fire_ice.mana_value, 4);
        assert_eq!(fire_ice.colors, vec!['R', 'U']);
        let vision = pool_copy(2, "Ancestral Vision", None);
        assert_eq!((vision.mana_value, vision.colors.len()), (0, 0));
    }

    #[test]
    fn card_lists_need_a_name_column() {
        let lines = read_lines(b"name,count\nShock,2\n\"Fire // Ice\",\n", "x.csv").unwrap_or_default();
        assert_eq!(lines.len(), 2);
        assert_eq!((lines[0].name.as_str(), lines[0].count.as_str()), ("Shock", "2"));
        assert_eq!(lines[1].at, "line 3: ");
        let err = read_lines(b"card_title,count\nShock,2\n", "x.csv").err().map(|e| e.to_string());
        assert!(err.unwrap_or_default().contains("no \"name\" column"));
    }
}
