//! `cards import`: reading a card reference (CSV, MTGJSON or Scryfall JSON) and storing it, adding to the
//! reference or replacing it, in one write.

use crate::domain::binding::{BindingRule, CardShape, binding_keys};
use crate::domain::cardref::{self, CardRecord};
use crate::domain::names;
use crate::error::{Error, Result};
use crate::ops::card_reference as reference;
use crate::store::card_text;
use crate::store::cards::{self, Face, NewCard};
use crate::store::{Actor, Change, Store};
use rusqlite::Connection;

/// What `cards import` is asked.
#[derive(Debug)]
pub struct ImportInput {
    /// The file's cards, read with [`parse_reference`].
    pub parsed: cardref::ParseOutcome,
    /// The file's name as messages show it.
    pub shown: String,
    /// Start from an empty reference instead of adding to it.
    pub replace: bool,
    /// Replace it even while a round is being played.
    pub force: bool,
}

/// `cards import`: stores a parsed reference in one write (refusing `replace` during a round without
/// `force`). `progress` hears (cards stored, cards in the file) now and then, for a progress bar.
pub fn import_cards(
    store: &mut Store,
    actor: &Actor,
    input: &ImportInput,
    progress: &dyn Fn(usize, usize),
) -> Result<Imported> {
    if input.replace && !input.force {
        super::refuse_replace_during_round(store.conn())?;
    }
    store.write(actor, |tx| store_reference(tx, &input.parsed, &input.shown, progress, input.replace))
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

/// Reads a card reference (CSV, MTGJSON or Scryfall JSON) from bytes, refusing what cannot be read.
pub fn parse_reference(bytes: &[u8], shown: &str) -> Result<cardref::ParseOutcome> {
    cardref::parse_detailed(bytes, &mut |_, _| {})
        .map_err(|e| Error::refused(format!("{shown}: {e}; nothing imported")))
}

/// Stores a parsed reference: adds its cards and updates those already there (keeping the texts, rulings
/// and Oracle id the file does not give), or with `replace` starts from an empty reference.
fn store_reference(
    tx: &Connection,
    parsed: &cardref::ParseOutcome,
    shown: &str,
    progress: &dyn Fn(usize, usize),
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
    progress(0, parsed.cards.len());
    for (i, record) in parsed.cards.iter().enumerate() {
        let kept = super::take_old(tx, &record.name)?;
        match kept {
            Some(_) => out.updated += 1,
            None => out.added += 1,
        }
        out.with_text += usize::from(record.text.text.is_some());
        out.with_rulings += usize::from(!record.rulings.is_empty());
        store_card(tx, record, &mut out, kept)?;
        if i % 1000 == 0 {
            progress(i, parsed.cards.len());
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

/// Stores one card with its faces and its binding keys under every rule.
fn store_card(tx: &Connection, r: &CardRecord, out: &mut Imported, kept: Option<super::Kept>) -> Result<()> {
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
