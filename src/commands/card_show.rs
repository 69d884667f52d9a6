//! `cards show` (everything about one card), `cards find --text` (cards by what they say) and
//! `cards import-rulings`.

use super::Ctx;
use crate::cli::cards::CardsCmd;
use crate::domain::cost::ManaCost;
use crate::domain::names;
use crate::domain::rules::{self, CardRuling};
use crate::domain::template::PriorDeclaration;
use crate::error::{Error, Result};
use crate::ops::card_reference::{self as reference, Search};
use crate::ops::table::Seated;
use crate::ops::table::note as notes;
use crate::render::records::cost_text;
use crate::render::{Listing, done, emit};
use crate::store::card_text::{self, Ruling, TextFilter};
use crate::store::cards::{self, Card, Face};
use crate::store::event;
use rusqlite::Connection;
use std::path::Path;

/// Runs the `cards` verbs about card texts and rulings: `cards show`, `cards find --text ...`, `cards
/// import-rulings` (the dispatcher hands over what `cards::run` leaves).
pub fn run(ctx: &Ctx, cmd: CardsCmd) -> Result<()> {
    match cmd {
        CardsCmd::Find { words, cost, letter, type_word, limit, .. } => {
            find_text(ctx, &TextQuery { words: words.unwrap_or_default(), cost, letter, type_word, limit })
        }
        CardsCmd::Show { name, table, round } => show(ctx, &name, table.map(|t| (t, round))),
        CardsCmd::ImportRulings { file } => import_rulings(ctx, &file),
        CardsCmd::Import { .. } | CardsCmd::Cost { .. } | CardsCmd::Check { .. } => {
            Err(Error::bad_input("mmjudge cards: that verb is not about card texts (see `mmjudge cards --help`)"))
        }
    }
}

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
    /// With --table: was it declared there already.
    pub game: Option<InGame>,
}

/// Finds the card a typed name means: its name, a face's name, or the closest name (typos forgiven).
pub fn resolve(conn: &Connection, typed: &str) -> Result<Card> {
    if let Some(card) = reference::lookup(conn, typed)? {
        return Ok(card);
    }
    let folded = names::fold(typed);
    if folded.is_empty() {
        return Err(Error::refused("give a card name: mmjudge cards show \"Demonic Tutor\""));
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
        [] => Err(Error::refused(format!("no card is named \"{}\": check the spelling", typed.trim()))),
        _ => {
            let names: Vec<String> = search.find(typed, 3).into_iter().map(|(n, _)| n).collect();
            Err(Error::refused(format!(
                "\"{}\" could name several cards: {}; give more of the name",
                typed.trim(),
                names.join(", ")
            )))
        }
    }
}

/// Builds the view of a card.
pub fn card_view(conn: &Connection, typed: &str, game: Option<(u32, Option<u32>)>) -> Result<CardView> {
    reference::require(conn)?;
    let card = resolve(conn, typed)?;
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
    let game = match game {
        Some((t, r)) => {
            let seated = Seated::at(conn, t, r)?;
            let declared = notes::prior_declaration(conn, &seated, &card.name)?;
            Some(InGame { round: seated.m.round, table: seated.table(), declared })
        }
        None => None,
    };
    let asked = (!typed.trim().eq_ignore_ascii_case(&card.name)).then(|| typed.trim().to_string());
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

/// `cards show NAME [--table T]`.
pub fn show(ctx: &Ctx, typed: &str, game: Option<(u32, Option<u32>)>) -> Result<()> {
    let store = ctx.open()?;
    let view = card_view(store.conn(), typed, game)?;
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
    let s = &view.status;
    let mut mm = format!(
        "{} card{} share its binding class under {} binding ({} declarable)",
        s.class_size,
        if s.class_size == 1 { "" } else { "s" },
        s.binding,
        s.class_declarable
    );
    if let Some(g) = &s.banned {
        mm = format!("banned ({g}); {mm}");
    }
    if let Some(k) = &s.excluded {
        mm = format!("excluded from this event ({k} cards); {mm}");
    }
    row("Mental Magic", mm);
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
    emit(ctx.format, &listing, &view)
}

/// Wraps each line of `text` at `width` characters, on spaces.
pub fn wrap(text: &str, width: usize) -> String {
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

/// A `cards find --text` query.
#[derive(Debug, Clone)]
pub struct TextQuery {
    /// The words.
    pub words: String,
    /// A printed cost whose binding class limits the search.
    pub cost: Option<String>,
    /// The printed card's letter (alphabet rules).
    pub letter: Option<char>,
    /// A type-line word.
    pub type_word: Option<String>,
    /// Most results.
    pub limit: usize,
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

/// `cards find --text WORDS [--cost C] [--type T]`.
pub fn find_text(ctx: &Ctx, q: &TextQuery) -> Result<()> {
    let words = tokens(&q.words);
    if words.is_empty() {
        return Err(Error::refused("give words of the card's text: mmjudge cards find --text \"draw a card\""));
    }
    let store = ctx.open()?;
    let conn = store.conn();
    reference::require(conn)?;
    if !card_text::has_text(conn)? {
        return Err(Error::refused(
            "the card reference has no texts: import an MTGJSON or Scryfall card file (or a CSV with a text column) with `mmjudge cards import FILE`",
        ));
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
    let scope = match (&printed, type_word) {
        (Some(p), _) => format!(" among the cards a {} may be declared as", p.canonical()),
        (None, Some(t)) => format!(" among {t} cards"),
        _ => String::new(),
    };
    let mut listing = Listing::new(&["card", "cost", "type", "matching text"])
        .titled(format!("Cards whose text matches \"{}\"{scope}", q.words.trim()));
    let mut doc = Vec::new();
    for h in &hits {
        let card = cards::get(conn, h.id)?;
        let matched = matched_words(&h.snippet);
        listing.row(vec![card.name.clone(), cost_text(&card), card.type_line.clone(), h.snippet.clone()]);
        doc.push(serde_json::json!({
            "name": card.name, "mana_cost": card.mana_cost, "type_line": card.type_line,
            "snippet": h.snippet, "matched": matched, "rank": (h.rank * 1000.0).round() / 1000.0,
        }));
    }
    if hits.is_empty() {
        listing.footer.push("no card's text has these words: try fewer or other words".into());
    } else if !every_word {
        listing.footer.push("no card has every word: these have some of them".into());
    }
    let json = serde_json::json!({
        "query": q.words, "cost": printed.map(|p| p.canonical()), "type": type_word,
        "every_word": every_word, "cards": doc,
    });
    emit(ctx.format, &listing, &json)
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

/// `cards import-rulings FILE`.
pub fn import_rulings(ctx: &Ctx, file: &Path) -> Result<()> {
    let mut store = ctx.open()?;
    let bytes = std::fs::read(file).map_err(|e| Error::io(file, e))?;
    let shown = file.display().to_string();
    let rulings = crate::ops::cards::parse_rulings(&bytes, &shown)?;
    drop(bytes);
    let actor = ctx.actor()?;
    let out = crate::ops::cards::import_rulings(&mut store, &actor, rulings, &shown)?;
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
