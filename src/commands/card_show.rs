//! `cards show` (everything about one card), `cards find --text` (cards by what they say) and
//! `cards import-rulings`: parse, call `ops::cards`, render.

use super::Ctx;
use crate::cli::cards::CardsCmd;
use crate::error::{Error, Result};
use crate::ops::cards::{self as ops, CardView, FindInput, Found, TextFound};
use crate::render::records::cost_text;
use crate::render::{Listing, done, emit};
use std::path::Path;

/// Runs the `cards` verbs about card texts and rulings: `cards show`, `cards find --text ...`, `cards
/// import-rulings` (the dispatcher hands over what `cards::run` leaves).
pub fn run(ctx: &Ctx, cmd: CardsCmd) -> Result<()> {
    match cmd {
        CardsCmd::Find { words, cost, letter, type_word, limit, .. } => {
            let input = FindInput { name: None, text: Some(words.unwrap_or_default()), cost, letter, type_word, limit };
            find_text(ctx, input)
        }
        CardsCmd::Show { name, table, round } => show(ctx, &name, table, round),
        CardsCmd::ImportRulings { file } => import_rulings(ctx, &file),
        CardsCmd::Import { .. } | CardsCmd::Cost { .. } | CardsCmd::Check { .. } => {
            Err(Error::bad_input("mmjudge cards: that verb is not about card texts (see `mmjudge cards --help`)"))
        }
    }
}

/// `cards show NAME [--table T]`.
fn show(ctx: &Ctx, typed: &str, table: Option<u32>, round: Option<u32>) -> Result<()> {
    let store = ctx.open()?;
    let view = crate::ops::views::card(&store, typed, table, round)?;
    emit(ctx.format, &listing(&view), &view)
}

/// The table `cards show` prints for a card.
fn listing(view: &CardView) -> Listing {
    let mut listing = Listing::new(&["", ""]).titled(match &view.asked {
        Some(a) => format!("{} (asked as \"{a}\")", view.name),
        None => view.name.clone(),
    });
    let mut row = |k: &str, v: String| listing.row(vec![k.to_string(), wrap(&v, 88)]);
    let mv = view.mana_value.map(|v| format!(" (mana value {v})")).unwrap_or_default();
    row("cost", format!("{}{mv}", view.mana_cost.clone().unwrap_or_else(|| "no cost".into())));
    row("type", view.type_line.clone());
    let many = view.faces.len() > 1;
    for f in &view.faces {
        let label =
            if many { format!("{} ({})", f.name, f.mana_cost.as_deref().unwrap_or("no cost")) } else { "text".into() };
        let mut text = f.text.clone().unwrap_or_else(|| NO_TEXT.to_string());
        if many {
            text = format!("{}\n{text}", f.type_line);
        }
        if let (Some(p), Some(t)) = (&f.power, &f.toughness) {
            text.push_str(&format!("\n{p}/{t}"));
        }
        if let Some(l) = &f.loyalty {
            text.push_str(&format!("\nloyalty {l}"));
        }
        row(&label, text);
    }
    row("Mental Magic", crate::render::cards::status_words(&view.status));
    for r in &view.mental_magic_rulings {
        row("MM ruling", r.text.clone());
    }
    for r in &view.rulings {
        row(&r.date, r.text.clone());
    }
    if let Some(g) = &view.game {
        let at = format!("table {} in round {}", g.table, g.round);
        row(
            "this game",
            match &g.declared {
                Some(p) => format!("already declared at {at} by {} at {} (MM.3e)", p.by, p.at),
                None => format!("not declared yet at {at}"),
            },
        );
    }
    listing
}

/// Wraps each line of `text` at `width` characters, on spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut current = String::new();
        for word in line.split(' ') {
            if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > width {
                out.push(std::mem::take(&mut current));
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push(current);
    }
    out.join("\n")
}

const NO_TEXT: &str = "(no text in this reference: import an MTGJSON or Scryfall card file to read it)";

/// `cards find --text WORDS [--cost C] [--type T]`.
fn find_text(ctx: &Ctx, input: FindInput) -> Result<()> {
    let store = ctx.open()?;
    let found = match crate::ops::views::find_cards(&store, input)? {
        Found::ByText(found) => found,
        Found::ByName { .. } => return Err(Error::bad_input("give words of the card's text with --text")),
    };
    let TextFound { query, cost, type_word, every_word, cards } = &found;
    let scope = match (cost, type_word) {
        (Some(c), _) => format!(" among the cards a {c} may be declared as"),
        (None, Some(t)) => format!(" among {t} cards"),
        _ => String::new(),
    };
    let mut listing = Listing::new(&["card", "cost", "type", "matching text"])
        .titled(format!("Cards whose text matches \"{}\"{scope}", query.trim()));
    let mut doc = Vec::new();
    for h in cards {
        let card = &h.card;
        listing.row(vec![card.name.clone(), cost_text(card), card.type_line.clone(), h.snippet.clone()]);
        doc.push(serde_json::json!({
            "name": card.name, "mana_cost": card.mana_cost, "type_line": card.type_line,
            "snippet": h.snippet, "matched": h.matched, "rank": (h.rank * 1000.0).round() / 1000.0,
        }));
    }
    if cards.is_empty() {
        listing.footer.push("no card's text has these words: try fewer or other words".into());
    } else if !every_word {
        listing.footer.push("no card has every word: these have some of them".into());
    }
    let json = serde_json::json!({
        "query": query, "cost": cost, "type": type_word, "every_word": every_word, "cards": doc,
    });
    emit(ctx.format, &listing, &json)
}

/// `cards import-rulings FILE`.
fn import_rulings(ctx: &Ctx, file: &Path) -> Result<()> {
    let mut store = ctx.open()?;
    let bytes = std::fs::read(file).map_err(|e| Error::io(file, e))?;
    let shown = file.display().to_string();
    let rulings = ops::parse_rulings(&bytes, &shown)?;
    drop(bytes);
    let actor = ctx.actor()?;
    let out = ops::import_rulings(&mut store, &actor, rulings, &shown)?;
    let mut summary = format!(
        "imported {} rulings for {} cards from {shown}; {} rulings are for cards not in the reference",
        out.rulings - out.unmatched,
        out.cards,
        out.unmatched
    );
    if out.cards_without_oracle_id > 0 {
        summary.push_str(&format!(
            "; {} cards have no Scryfall Oracle id and got none (import them from a Scryfall or MTGJSON file)",
            out.cards_without_oracle_id
        ));
    }
    done(ctx.format, &summary, serde_json::to_value(&out).unwrap_or_default())
}
