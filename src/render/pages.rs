//! Printable HTML pages (askama templates in `templates/`, one shared stylesheet inlined so every page
//! stands alone): the curation report and the deck sheets.

use crate::domain::curation::{flag_word, short_list};
use crate::ops::curation::{CheckedGroup, Report};
use crate::ops::library::show::ShownCard;
use askama::Template;

/// One cost group as the curation page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRow {
    /// Cost as printed (with the letter under alphabet rules).
    pub cost: String,
    /// Shorthand.
    pub shorthand: String,
    /// Pool copies.
    pub copies: u32,
    /// Class size.
    pub class_size: u32,
    /// (flag word, reason) per finding.
    pub flags: Vec<(String, String)>,
    /// The pool cards with this cost.
    pub cards: String,
}

impl GroupRow {
    fn from_group(g: &CheckedGroup, all_names: bool) -> Self {
        GroupRow {
            cost: g.label(),
            shorthand: g.group.shorthand.clone(),
            copies: g.group.copies,
            class_size: g.group.class_size,
            flags: g.flags.iter().map(|f| (flag_word(f.flag).to_string(), f.reason.clone())).collect(),
            cards: if all_names { g.group.names.join(", ") } else { short_list(&g.group.names, 6) },
        }
    }
}

/// The curation report as a printable page.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "curation.html")]
pub struct CurationPage {
    /// The line repeated at the top of every printed sheet (event, day, round).
    pub head: String,
    /// Event name.
    pub event: String,
    /// Binding rule.
    pub binding: String,
    /// The summary sentence.
    pub summary: String,
    /// (label, cost groups, copies, css class) tiles.
    pub tiles: Vec<(String, u32, u32, String)>,
    /// Flagged groups, worst first.
    pub flagged: Vec<GroupRow>,
    /// Every group by mana value.
    pub groups: Vec<GroupRow>,
    /// Lands and excluded cards, in words.
    pub apart: String,
    /// Banned cards in the classes, as information (`{1}{W}: Balance is banned; 59 other cards`).
    pub banned: Vec<String>,
    /// What to find when the pool is short, in lines (empty when nothing is).
    pub to_find: Vec<String>,
    /// The mana values against the target curve, drawn (empty when the pool has no spells).
    pub curve: String,
    /// The curve chart's numbers: (mana value, target, the pool's copies, the libraries' range and median).
    pub curve_numbers: Vec<(String, String, u32, String)>,
    /// Fixed libraries are built (the chart draws them).
    pub curve_built: bool,
}

impl CurationPage {
    /// The page for a report.
    pub fn new(head: &PrintHead, r: &Report) -> Self {
        let event = head.event.as_str();
        let s = &r.summary;
        let tile = |label: &str, n: u32, copies: u32, class: &str| (label.to_string(), n, copies, class.to_string());
        CurationPage {
            head: head.line(None, "pool check"),
            event: event.to_string(),
            binding: r.binding.clone(),
            summary: curation_summary(r),
            tiles: vec![
                tile("costs checked", s.groups, s.copies, ""),
                tile("unusable", s.unusable.groups, s.unusable.copies, "unusable"),
                tile("abusive", s.abusive.groups, s.abusive.copies, "abusive"),
                tile("restrictive", s.restrictive.groups, s.restrictive.copies, "restrictive"),
                tile("clean", s.clean.groups, s.clean.copies, "clean"),
            ],
            flagged: r.flagged().into_iter().map(|g| GroupRow::from_group(g, true)).collect(),
            groups: r.groups.iter().map(|g| GroupRow::from_group(g, false)).collect(),
            apart: format!(
                "Lands kept apart: {} ({} basic). Excluded from building: {}, {}.",
                crate::domain::words::count(r.lands.copies, "copy"),
                r.basic_lands,
                crate::domain::words::count(r.excluded.cards, "card"),
                crate::domain::words::count(r.excluded.copies, "copy")
            ),
            banned: r.banned_notes().into_iter().map(str::to_string).collect(),
            to_find: r.to_find.as_ref().map(to_find_lines).unwrap_or_default(),
            curve: String::new(),
            curve_numbers: Vec::new(),
            curve_built: false,
        }
    }

    /// The page with the pool's and the libraries' mana values drawn against the target curve.
    pub fn with_curves(mut self, curves: &crate::ops::library::curve::Curves) -> crate::error::Result<Self> {
        if let Some(chart) = crate::render::curve::CurveChart::new(curves) {
            self.curve = chart.render()?;
            self.curve_numbers = chart.numbers();
            self.curve_built = !curves.libraries.is_empty();
        }
        Ok(self)
    }

    /// The page as HTML.
    pub fn render(&self) -> Result<String, askama::Error> {
        Template::render(self)
    }
}

/// What to find, as the curation report's lines: the spells short by mana value, then the lands to set out.
fn to_find_lines(t: &crate::ops::library::to_find::ToFind) -> Vec<String> {
    use crate::domain::words::count;
    let mut lines = vec![format!(
        "For {}, one for every two players entered: the main libraries need {} spell copies, the pool gives {}.",
        count(t.tables, "table"),
        t.spells_needed,
        t.spells_have
    )];
    if t.spells_short > 0 {
        let by_cost = t.by_cost_words();
        let by_cost = if by_cost.is_empty() { String::new() } else { format!(": about {by_cost}") };
        lines.push(format!("Spells to find: {}{by_cost}.", t.spells_short));
    }
    let lands = &t.basic_lands;
    lines.push(match lands.to_find {
        0 => format!("Basic lands to set out beside the tables for Utopia: {} (the pool holds them).", lands.needed),
        n => format!(
            "Basic lands to set out beside the tables for Utopia: {} (the pool holds {}; {n} more to find).",
            lands.needed, lands.in_pool
        ),
    });
    lines
}

/// The curation report in one line for people: copies, costs and flags.
pub fn curation_summary(report: &Report) -> String {
    let s = &report.summary;
    format!(
        "{} in {} under {} binding: {} unusable ({}), {} abusive ({}), {} restrictive ({}), {} clean",
        crate::domain::words::count(s.copies, "spell copy"),
        crate::domain::words::count(s.groups, "printed cost"),
        report.binding,
        s.unusable.groups,
        crate::domain::words::count(s.unusable.copies, "copy"),
        s.abusive.groups,
        crate::domain::words::count(s.abusive.copies, "copy"),
        s.restrictive.groups,
        crate::domain::words::count(s.restrictive.copies, "copy"),
        s.clean.groups
    )
}

/// One card line of a deck sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetCard {
    /// Printed cost.
    pub cost: String,
    /// Card name.
    pub name: String,
    /// Type line.
    pub type_line: String,
}

/// The main library (`sideboard == false`) or the sealed sideboard of a library's cards as sheet lines.
pub fn sheet_part(cards: &[ShownCard], sideboard: bool) -> Vec<SheetCard> {
    cards
        .iter()
        .filter(|c| c.sideboard == sideboard)
        .map(|c| SheetCard {
            cost: c.mana_cost.clone().unwrap_or_default(),
            name: c.name.clone(),
            type_line: c.type_line.clone(),
        })
        .collect()
}

/// One library's deck sheet.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "deck_sheet.html")]
pub struct DeckSheet {
    /// The line repeated at the top of every printed sheet (event, day, round).
    pub head: String,
    /// Event name.
    pub event: String,
    /// Library label (`3A`, or the player's name for sealed libraries).
    pub label: String,
    /// Heading (`Table 3 · Seat A`).
    pub title: String,
    /// The main library, sorted by cost.
    pub cards: Vec<SheetCard>,
    /// Sealed sideboard (empty for fixed libraries).
    pub sideboard: Vec<SheetCard>,
    /// Basic lands in the Utopia library.
    pub utopia: u32,
    /// Tick-box column headings (`built`, `R1`, ...).
    pub ticks: Vec<String>,
    /// A line under the heading.
    pub note: String,
}

impl DeckSheet {
    /// The page as HTML.
    pub fn render(&self) -> Result<String, askama::Error> {
        Template::render(self)
    }
}

/// The index of all deck sheets.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "deck_sheets_index.html")]
pub struct SheetIndex {
    /// The line repeated at the top of every printed sheet (event, day, round).
    pub head: String,
    /// Event name.
    pub event: String,
    /// (file, label, title, cards, utopia) per library.
    pub sheets: Vec<(String, String, String, usize, u32)>,
}

impl SheetIndex {
    /// The page as HTML.
    pub fn render(&self) -> Result<String, askama::Error> {
        Template::render(self)
    }
}

pub use crate::ops::event::PrintHead;

impl PrintHead {
    /// The line at the top of every printed sheet: "Spring Open · 2026-05-01 · Round 3 · pairings".
    /// `round` is the page's own round (None: the round paired last, "before round 1" when none is).
    pub fn line(&self, round: Option<u32>, what: &str) -> String {
        let round = match round.unwrap_or(self.round) {
            0 => "before round 1".to_string(),
            r => format!("Round {r}"),
        };
        let what = if what.is_empty() { String::new() } else { format!(" · {what}") };
        format!("{} · {} · {round}{what}", self.event, self.date)
    }
}
