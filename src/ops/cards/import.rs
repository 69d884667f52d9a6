//! `cards import`: reads a card reference file (CSV, MTGJSON, Scryfall) and stores its cards, adding to the
//! reference or replacing it.

use crate::domain::binding::{BindingRule, CardShape, binding_keys};
use crate::domain::cardref::{self, CardRecord};
use crate::domain::names;
use crate::error::{Error, Result};
use crate::ops::card_reference as reference;
use crate::store::card_text;
use crate::store::cards::{self, Face, NewCard};
use crate::store::{Actor, Change, Store};
use rusqlite::Connection;

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

/// A `cards import`: the file's bytes and how to store them.
#[derive(Debug, Clone, Default)]
pub struct ImportInput<'a> {
    /// The file's contents.
    pub bytes: &'a [u8],
    /// The file as named to the judge (in messages and the audit log).
    pub shown: &'a str,
    /// Start from an empty reference.
    pub replace: bool,
    /// Replace even while a round is being played.
    pub force: bool,
}

/// Which part of an import a progress report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Reading the file: (bytes read, bytes in the file).
    Reading,
    /// Storing the cards: (cards stored, cards in the file).
    Storing,
}

/// How far an import is: called with the phase and (done, total) now and then.
pub type Progress<'p> = &'p mut dyn FnMut(Phase, u64, u64);

/// Imports a card reference: refuses `replace` during a round without `force`, reads the file (refusing what
/// cannot be read, nothing stored), then stores its cards in one write.
pub fn import(store: &mut Store, actor: &Actor, input: ImportInput, progress: Progress) -> Result<Imported> {
    if input.replace && !input.force {
        super::refuse_replace_during_round(store.conn())?;
    }
    let parsed =
        cardref::parse_detailed(input.bytes, &mut |done, total| progress(Phase::Reading, done as u64, total as u64))
            .map_err(|e| Error::bad_input(format!("{}: {e}; nothing imported", input.shown)))?;
    store.write(actor, |tx| store_reference(tx, &parsed, input.shown, progress, input.replace))
}

/// Reads a card reference (CSV, MTGJSON or Scryfall JSON) from bytes, refusing what cannot be read.
pub fn parse_reference(bytes: &[u8], shown: &str) -> Result<cardref::ParseOutcome> {
    cardref::parse_detailed(bytes, &mut |_, _| {})
        .map_err(|e| Error::bad_input(format!("{shown}: {e}; nothing imported")))
}

/// Stores a parsed reference: adds its cards and updates those already there (keeping the texts, rulings
/// and Oracle id the file does not give), or with `replace` starts from an empty reference.
fn store_reference(
    tx: &Connection,
    parsed: &cardref::ParseOutcome,
    shown: &str,
    progress: Progress,
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
    card_text::hold_index(tx)?;
    if replace {
        cards::clear(tx)?;
    }
    let total = parsed.cards.len() as u64;
    progress(Phase::Storing, 0, total);
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
            progress(Phase::Storing, i as u64, total);
        }
    }
    progress(Phase::Storing, total, total);
    out.cards = parsed.cards.len();
    card_text::index_held(tx)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_import_reports_reading_the_file_then_storing_its_cards() -> Result<()> {
        let (mut store, _, _) = crate::store::memory_with_one_match()?;
        let actor = crate::store::test_actor("2025-05-01T09:05:00.000Z")?;
        let csv = "name,mana_cost,type_line\nDemonic Tutor,{1}{B},Sorcery\nShock,{R},Instant\n";
        let input = ImportInput { bytes: csv.as_bytes(), shown: "cards.csv", replace: false, force: false };
        let mut seen: Vec<(Phase, u64, u64)> = Vec::new();
        import(&mut store, &actor, input, &mut |phase, done, total| seen.push((phase, done, total)))?;
        let first_storing = seen.iter().position(|s| s.0 == Phase::Storing);
        let last_reading = seen.iter().rposition(|s| s.0 == Phase::Reading);
        assert!(matches!((last_reading, first_storing), (Some(r), Some(s)) if r < s), "{seen:?}");
        assert_eq!(seen.last(), Some(&(Phase::Storing, 2, 2)), "{seen:?}");
        Ok(())
    }

    /// The cards whose indexed text matches `words` (the full-text index as `cards find --text` reads it).
    fn found(store: &Store, words: &str) -> Result<Vec<String>> {
        let hits = card_text::search(store.conn(), words, &card_text::TextFilter { class: None }, 50)?;
        let mut names =
            hits.iter().map(|h| cards::get(store.conn(), h.id).map(|c| c.name)).collect::<Result<Vec<_>>>()?;
        names.sort();
        Ok(names)
    }

    #[test]
    fn the_text_index_follows_every_import_added_updated_or_replaced_and_holds_nothing_after() -> Result<()> {
        let (mut store, _, _) = crate::store::memory_with_one_match()?;
        let actor = crate::store::test_actor("2025-05-01T09:05:00.000Z")?;
        let import_csv = |store: &mut Store, csv: &str, replace: bool| {
            let input = ImportInput { bytes: csv.as_bytes(), shown: "cards.csv", replace, force: true };
            import(store, &actor, input, &mut |_, _, _| {})
        };
        let head = "name,mana_cost,type_line,text\n";
        import_csv(
            &mut store,
            &format!("{head}Shock,{{R}},Instant,Shock deals 2 damage\nOpt,{{U}},Instant,Scry 1\n"),
            false,
        )?;
        assert_eq!(found(&store, "damage")?, ["Shock"]);
        // Updated: the old words leave the index, the new ones come in; a card the file leaves alone keeps its own.
        import_csv(
            &mut store,
            &format!("{head}Shock,{{R}},Instant,Shock gains flying\nDuress,{{B}},Sorcery,Discard\n"),
            false,
        )?;
        assert_eq!(found(&store, "damage")?, Vec::<String>::new());
        assert_eq!(found(&store, "flying")?, ["Shock"]);
        assert_eq!(found(&store, "scry")?, ["Opt"]);
        assert_eq!(found(&store, "discard")?, ["Duress"]);
        // Replaced: only the file's cards are found.
        import_csv(&mut store, &format!("{head}Ponder,{{U}},Sorcery,Look at the top three\n"), true)?;
        assert_eq!(found(&store, "scry OR flying OR discard")?, Vec::<String>::new());
        assert_eq!(found(&store, "three")?, ["Ponder"]);
        assert_eq!(card_text::index_counts(store.conn())?, (1, 0), "one card indexed, nothing held once written");
        // A card removed outside an import leaves the index at once (the triggers keep it in step again).
        crate::ops::cards::take_old(store.conn(), "Ponder")?;
        assert_eq!(found(&store, "three")?, Vec::<String>::new());
        Ok(())
    }
}
