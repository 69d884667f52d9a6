//! `cards`: import the reference, find names, list a cost's binding class, check a declaration.

use super::Ctx;
use crate::cli::cards::CardsCmd;
use crate::domain::binding::{BindingRule, CardShape, binding_keys};
use crate::domain::cardref::{self, CardRecord};
use crate::domain::names;
use crate::error::{Error, Result};
use crate::ops::card_reference::{self as reference, Search};
use crate::ops::table::Seated;
use crate::ops::table::note as notes;
use crate::render::records::cost_text;
use crate::render::{Listing, done, emit};
use crate::store::card_text;
use crate::store::cards::{self, Card, Face, NewCard};
use crate::store::{Change, event};
use rusqlite::Connection;
use std::path::Path;

/// Runs a `cards` verb about the reference itself (import, find by name, cost classes, checks); hands back
/// the verbs about card texts and rulings (`cards show`, `cards find --text`, `cards import-rulings`), which
/// `card_show` runs.
pub fn run(ctx: &Ctx, cmd: CardsCmd) -> Result<Option<CardsCmd>> {
    match cmd {
        CardsCmd::Import { file, replace, force } => import(ctx, &file, replace, force)?,
        CardsCmd::Find { name: Some(text), words: None, limit, .. } => find(ctx, &text, limit)?,
        CardsCmd::Cost { printed: p } => cost_class(ctx, &p.cost, p.letter, p.game())?,
        CardsCmd::Check { printed: p, name } => check(ctx, &p.cost, &name, p.letter, p.game())?,
        other => return Ok(Some(other)),
    }
    Ok(None)
}

/// What an import did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Imported {
    /// Format detected.
    pub format: String,
    /// Cards stored.
    pub cards: usize,
    /// Non-card objects dropped (tokens, emblems, ...).
    pub dropped: usize,
    /// Cards whose cost mmjudge cannot read (stored without a binding class).
    pub unreadable_costs: Vec<String>,
    /// Cards dropped because of `--replace` (0 without it).
    pub replaced: u32,
    /// Rows or objects with no name, left out.
    pub unnamed: usize,
    /// Names given with different costs, left out (name and its costs).
    pub cost_conflicts: Vec<(String, Vec<String>)>,
    /// Control characters removed from the file's text.
    pub control_characters_removed: usize,
    /// Size of the reference before the import.
    pub before: u32,
    /// Size of the reference after the import.
    pub after: u32,
    /// Cards new to the reference.
    pub added: usize,
    /// Cards already in the reference, now updated from the file.
    pub updated: usize,
    /// Cards of the file with rules text.
    pub with_text: usize,
    /// Cards of the file with official rulings.
    pub with_rulings: usize,
}

fn import(ctx: &Ctx, file: &Path, replace: bool, force: bool) -> Result<()> {
    let mut store = ctx.open()?;
    if replace && !force {
        crate::ops::cards::refuse_replace_during_round(store.conn())?;
    }
    let bytes = std::fs::read(file).map_err(|e| Error::io(file, e))?;
    let shown = file.display().to_string();
    let bar = progress_bar(bytes.len());
    let parsed = parse_reference(&bytes, &shown)?;
    drop(bytes);
    let actor = ctx.actor()?;
    let outcome = store.write(&actor, |tx| store_reference(tx, &parsed, &shown, bar.as_ref(), replace))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut summary = format!(
        "imported {} ({}) from {shown}: {} new, {} updated{}; the reference had {} and now has {}; {} left out",
        crate::domain::words::count(outcome.cards, "card"),
        outcome.format,
        outcome.added,
        outcome.updated,
        if replace { format!(", {} dropped by --replace", outcome.replaced) } else { String::new() },
        crate::domain::words::count(outcome.before, "card"),
        outcome.after,
        crate::domain::words::count(outcome.dropped, "non-card object")
    );
    if outcome.unnamed > 0 {
        summary.push_str(&format!("; {} left out", crate::domain::words::count(outcome.unnamed, "nameless row")));
    }
    if !outcome.cost_conflicts.is_empty() {
        let shown: Vec<String> =
            outcome.cost_conflicts.iter().take(3).map(|(n, c)| format!("{n} ({})", c.join(" or "))).collect();
        summary.push_str(&format!(
            "; {} named with different costs left out, correct the file to keep them: {}",
            crate::domain::words::count(outcome.cost_conflicts.len(), "card"),
            shown.join(", ")
        ));
    }
    summary.push_str(&crate::domain::text::removed_clause(outcome.control_characters_removed));
    if outcome.with_text == 0 {
        summary.push_str("; the file has no card texts (`cards show` and `cards find --text` need an MTGJSON or Scryfall file, or a CSV with a text column)");
    }
    if !outcome.unreadable_costs.is_empty() {
        summary.push_str(&format!(
            "; {} with unreadable costs cannot be declared (e.g. {})",
            crate::domain::words::count(outcome.unreadable_costs.len(), "card"),
            outcome.unreadable_costs.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    done(ctx.format, &summary, serde_json::to_value(&outcome).unwrap_or_default())
}

/// Reads a card reference (CSV, MTGJSON or Scryfall JSON) from bytes, refusing what cannot be read.
pub fn parse_reference(bytes: &[u8], shown: &str) -> Result<cardref::ParseOutcome> {
    cardref::parse_detailed(bytes, &mut |_, _| {})
        .map_err(|e| Error::refused(format!("{shown}: {e}; nothing imported")))
}

/// Imports a card reference from bytes inside a transaction, replacing the old one (shared by
/// `cards import` and the demo).
pub fn import_bytes(tx: &Connection, bytes: &[u8], shown: &str) -> Result<(Imported, Change)> {
    let parsed = parse_reference(bytes, shown)?;
    store_reference(tx, &parsed, shown, None, true)
}

/// Stores a parsed reference: adds its cards and updates those already there (keeping the texts, rulings
/// and Oracle id the file does not give), or with `replace` starts from an empty reference.
fn store_reference(
    tx: &Connection,
    parsed: &cardref::ParseOutcome,
    shown: &str,
    bar: Option<&indicatif::ProgressBar>,
    replace: bool,
) -> Result<(Imported, Change)> {
    let before = cards::count(tx)?;
    let mut out = Imported {
        format: parsed.format.label().to_string(),
        dropped: parsed.dropped.len(),
        before,
        replaced: if replace { before } else { 0 },
        unnamed: parsed.unnamed,
        cost_conflicts: parsed.cost_conflicts.clone(),
        control_characters_removed: parsed.control_characters_removed,
        ..Default::default()
    };
    if replace {
        cards::clear(tx)?;
    }
    if let Some(b) = bar {
        b.set_length(parsed.cards.len() as u64);
    }
    for (i, record) in parsed.cards.iter().enumerate() {
        let kept = crate::ops::cards::take_old(tx, &record.name)?;
        match kept {
            Some(_) => out.updated += 1,
            None => out.added += 1,
        }
        out.with_text += usize::from(record.text.text.is_some());
        out.with_rulings += usize::from(!record.rulings.is_empty());
        store_card(tx, record, &mut out, kept)?;
        if let Some(b) = bar
            && i % 1000 == 0
        {
            b.set_position(i as u64);
        }
    }
    out.cards = parsed.cards.len();
    card_text::optimize_index(tx)?;
    out.after = cards::count(tx)?;
    let summary = format!(
        "imported {} ({}) from {shown}{}: {} new, {} updated; {} before, {} after",
        crate::domain::words::count(out.cards, "card"),
        out.format,
        if replace { " replacing the reference" } else { "" },
        out.added,
        out.updated,
        crate::domain::words::count(out.before, "card"),
        out.after
    );
    Ok((out, Change::new(summary)))
}

/// A progress bar on standard error for large files when a person is watching.
fn progress_bar(bytes: usize) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if bytes < 1_000_000 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template("storing cards {bar:40} {pos}/{len}") {
        bar.set_style(style);
    }
    Some(bar)
}

/// Stores one card with its faces and its binding keys under every rule.
fn store_card(
    tx: &Connection,
    r: &CardRecord,
    out: &mut Imported,
    kept: Option<crate::ops::cards::Kept>,
) -> Result<()> {
    let front_type = r.type_line.split(" // ").next().unwrap_or("");
    let is_land = front_type.contains("Land");
    let is_basic = front_type.starts_with("Basic");
    let kinds: Vec<&str> = r.kinds.iter().map(|k| k.as_str()).collect();
    let old = kept.unwrap_or_default();
    let new_text = r.text.text.is_some();
    let text_of = |new: &Option<String>, old: &Option<String>| if new_text { new.clone() } else { old.clone() };
    let t = &r.text;
    let (text, power, toughness, loyalty) = (
        text_of(&t.text, &old.details.text),
        text_of(&t.power, &old.details.power),
        text_of(&t.toughness, &old.details.toughness),
        text_of(&t.loyalty, &old.details.loyalty),
    );
    let oracle_id = r.oracle_id.clone().or(old.details.oracle_id);
    let id = cards::insert(
        tx,
        &NewCard {
            name: &r.name,
            name_fold: &names::fold(&r.name),
            mana_cost: r.mana_cost.as_deref(),
            type_line: &r.type_line,
            layout: &r.layout,
            is_land,
            is_basic,
            kinds: &kinds.join(" "),
            sets: &r.sets.join(" "),
            text: text.as_deref(),
            power: power.as_deref(),
            toughness: toughness.as_deref(),
            loyalty: loyalty.as_deref(),
            oracle_id: oracle_id.as_deref(),
        },
    )?;
    for (i, f) in r.faces.iter().enumerate() {
        let old_face = old.faces.iter().find(|o| o.name == f.name).filter(|_| !new_text);
        let pick = |new: &Option<String>, old: Option<&Option<String>>| match old {
            Some(o) => o.clone(),
            None => new.clone(),
        };
        let face = Face {
            name: f.name.clone(),
            mana_cost: f.mana_cost.clone(),
            type_line: f.type_line.clone(),
            text: pick(&f.text.text, old_face.map(|o| &o.text)),
            power: pick(&f.text.power, old_face.map(|o| &o.power)),
            toughness: pick(&f.text.toughness, old_face.map(|o| &o.toughness)),
            loyalty: pick(&f.text.loyalty, old_face.map(|o| &o.loyalty)),
        };
        cards::insert_face(tx, id, i, &face)?;
    }
    let rulings: Vec<card_text::Ruling> = if r.rulings.is_empty() {
        old.rulings
    } else {
        r.rulings.iter().map(|x| card_text::Ruling { date: x.date.clone(), text: x.text.clone() }).collect()
    };
    if !rulings.is_empty() {
        card_text::set_rulings(tx, id, &rulings)?;
    }
    let face_text: Vec<Option<&str>> = r.faces.iter().map(|f| f.mana_cost.as_deref()).collect();
    let costs = match reference::face_costs(&r.layout, r.mana_cost.as_deref(), &face_text) {
        Ok(c) => c,
        Err(_) => {
            out.unreadable_costs.push(r.name.clone());
            return Ok(());
        }
    };
    let shape = CardShape {
        name: &r.name,
        face_costs: costs,
        is_split: reference::is_split_layout(&r.layout),
        is_land,
        is_basic_land: is_basic,
    };
    for rule in BindingRule::ALL {
        let plain = binding_keys(rule, &shape, false);
        for k in &plain {
            cards::insert_key(tx, rule.name(), k, id, false)?;
        }
        if shape.is_split {
            for k in binding_keys(rule, &shape, true).iter().filter(|k| !plain.contains(k)) {
                cards::insert_key(tx, rule.name(), k, id, true)?;
            }
        }
    }
    Ok(())
}

fn find(ctx: &Ctx, text: &str, limit: usize) -> Result<()> {
    if names::fold(text).is_empty() {
        return Err(Error::refused("give part of a card name: mmjudge cards find \"demonic tutor\""));
    }
    let store = ctx.open()?;
    let conn = store.conn();
    let hits = Search::load(conn, text)?.find_ids(text, limit.max(1));
    let mut listing = Listing::new(&["card", "cost", "type"]).titled(format!("Cards matching \"{text}\""));
    let mut doc = Vec::new();
    for (id, score) in &hits {
        {
            let card = cards::get(conn, *id)?;
            listing.row(vec![card.name.clone(), cost_text(&card), card.type_line.clone()]);
            doc.push(serde_json::json!({
                "name": card.name, "mana_cost": card.mana_cost, "type_line": card.type_line,
                "kinds": card.kinds, "score": (score * 1000.0).round() / 1000.0,
            }));
        }
    }
    emit(ctx.format, &listing, &serde_json::json!({ "query": text, "cards": doc }))
}

/// A game named on the command line: `--table T [--round N]`.
type Game = Option<(u32, Option<u32>)>;

fn cost_class(ctx: &Ctx, cost: &str, letter: Option<char>, game: Game) -> Result<()> {
    let printed = reference::Printed::parse(cost)?;
    let store = ctx.open()?;
    let conn = store.conn();
    reference::require(conn)?;
    let mut class = reference::class_printed(conn, &printed, letter)?;
    let seated = game.map(|(t, r)| Seated::at(conn, t, r)).transpose()?;
    let used = match &seated {
        Some(s) => notes::declared_in_game(conn, s)?,
        None => Vec::new(),
    };
    let mut declared = Vec::new();
    class.cards.retain(|c| match used.iter().find(|(name, _)| name.eq_ignore_ascii_case(&c.name)) {
        Some((_, prior)) => {
            declared.push((c.name.clone(), prior.clone()));
            false
        }
        None => true,
    });
    let rule = event::values(conn)?.text("binding").to_string();
    let mut listing = Listing::new(&["card", "cost", "type"]).titled(format!(
        "{} may {}be declared as {} card{} under {rule} binding{}",
        if printed.is_land {
            "A printed land card".to_string()
        } else {
            format!("{} ({})", printed.canonical(), printed.shorthand())
        },
        if seated.is_some() { "still " } else { "" },
        class.cards.len(),
        if class.cards.len() == 1 { "" } else { "s" },
        seated.as_ref().map(|s| format!(" at {}", s.label())).unwrap_or_default()
    ));
    for c in &class.cards {
        listing.row(vec![c.name.clone(), cost_text(c), c.type_line.clone()]);
    }
    let names_of = |v: &[Card]| v.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    if !class.banned.is_empty() {
        listing.footer.push(format!("banned, left out: {}", names_of(&class.banned).join(", ")));
    }
    if !class.excluded.is_empty() {
        listing.footer.push(format!("excluded kinds, left out: {}", names_of(&class.excluded).join(", ")));
    }
    if let Some(s) = &seated {
        let list: Vec<String> = declared.iter().map(|(n, p)| format!("{n} ({} {})", p.by, p.at)).collect();
        listing.footer.push(match list.is_empty() {
            true => format!("none of these was declared yet at {}", s.label()),
            false => format!("already declared at {}, left out: {}", s.label(), list.join(", ")),
        });
    }
    let mut doc = serde_json::json!({
        "cost": printed.canonical(), "shorthand": printed.shorthand(), "binding": rule,
        "count": class.cards.len(),
        "cards": class.cards.iter().map(|c| serde_json::json!({"name": c.name, "mana_cost": c.mana_cost, "type_line": c.type_line})).collect::<Vec<_>>(),
        "banned": names_of(&class.banned), "excluded": names_of(&class.excluded),
    });
    if let (Some(s), Some(map)) = (&seated, doc.as_object_mut()) {
        map.insert("round".into(), s.m.round.into());
        map.insert("table".into(), s.table().into());
        let gone = declared.iter().map(|(n, p)| serde_json::json!({ "name": n, "by": p.by, "at": p.at }));
        map.insert("declared".into(), gone.collect::<Vec<_>>().into());
    }
    emit(ctx.format, &listing, &doc)
}

fn check(ctx: &Ctx, cost: &str, name: &str, letter: Option<char>, game: Game) -> Result<()> {
    let printed = reference::Printed::parse(cost)?;
    let store = ctx.open()?;
    let conn = store.conn();
    let seated = game.map(|(t, r)| Seated::at(conn, t, r)).transpose()?;
    let matched = crate::ops::card_names::resolve_card_name(conn, name)?;
    let prior = match (&seated, matched.card()) {
        (Some(s), Some(card)) => notes::prior_declaration(conn, s, &card.name)?,
        _ => None,
    };
    let taken = matched.note();
    match reference::check_match(conn, &printed, letter, name, &matched, prior.as_ref())? {
        Ok(card) => done(
            ctx.format,
            &format!(
                "legal{}: {}{} ({}) may be declared for {}",
                seated.as_ref().map(|s| format!(" at {}", s.label())).unwrap_or_default(),
                card.name,
                taken.as_ref().map(|t| format!(" ({t})")).unwrap_or_default(),
                cost_text(&card),
                if printed.is_land {
                    "a printed land card".to_string()
                } else {
                    format!("a card costing {}", printed.canonical())
                }
            ),
            serde_json::json!({ "legal": true, "card": card.name, "typed": name.trim(), "taken": taken }),
        ),
        Err(refusal) => Err(Error::refused(refusal.to_string())),
    }
}
