//! The `cards` group's views and writes: importing the reference and its rulings, showing a card, finding
//! cards by name or text, a printed cost's class, a declaration checked. One function each, typed input and
//! outcome; the command line and the server render them.

mod class;
mod find;
mod import;
mod show;

pub use class::{Checked, CostClass, PrintedInput, check, class_for, cost_class, refusal_error};
pub use find::{FindInput, Found, NameHit, TextFound, TextHit, find, matched_words, tokens};
pub use import::{ImportInput, Imported, Phase, Progress, import, parse_reference};
pub use show::{CardView, FaceView, InGame, Status, resolve, show, show_at, view_of};

use crate::error::{Error, Result};
use crate::store::card_text::{self, Details, Ruling};
use crate::store::cards::{self, Face};
use crate::store::{Actor, Change, Store, round};
use rusqlite::Connection;
use std::collections::HashMap;

/// Whether the reference holds any card's text (without, card pages say how to import one that does).
pub fn reference_has_text(conn: &Connection) -> Result<bool> {
    card_text::has_text(conn)
}

/// What an updated card had that a file may not give again (texts, rulings, Oracle id).
#[derive(Debug, Clone, Default)]
pub struct Kept {
    /// The card's text fields.
    pub details: Details,
    /// Its faces (with their texts).
    pub faces: Vec<Face>,
    /// Its rulings.
    pub rulings: Vec<Ruling>,
}

/// Removes the card named exactly `name`, if there is one, and returns what it had.
pub fn take_old(conn: &Connection, name: &str) -> Result<Option<Kept>> {
    let Some(id) = card_text::id_by_name(conn, name)? else { return Ok(None) };
    let kept = Kept {
        details: card_text::details(conn, id)?,
        faces: cards::faces(conn, id)?,
        rulings: card_text::rulings(conn, id)?,
    };
    card_text::remove(conn, id)?;
    Ok(Some(kept))
}

/// Refuses to empty the reference while a round is being played (its tables' notes are checked against it).
pub fn refuse_replace_during_round(conn: &Connection) -> Result<()> {
    let current = round::current(conn)?;
    if let Some(r) = round::get(conn, current)?
        && r.started_at.is_some()
        && r.ended_at.is_none()
    {
        let what = format!("round {current} is being played and its notes are checked against the reference");
        return Err(crate::error::Refusal::refused(what).way_out(crate::error::WayOut::KeepReference).into());
    }
    Ok(())
}

/// What `cards import-rulings` did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct RulingsImported {
    /// Rulings in the file.
    pub rulings: usize,
    /// Cards of the reference that received rulings.
    pub cards: usize,
    /// Rulings whose Oracle id no card of the reference has.
    pub unmatched: usize,
    /// Cards of the reference with no Oracle id (imported from a file that does not give one).
    pub cards_without_oracle_id: u32,
}

#[derive(serde::Deserialize)]
struct ScryfallRuling {
    #[serde(default)]
    oracle_id: String,
    #[serde(default)]
    published_at: String,
    #[serde(default)]
    comment: String,
}

/// Reads a Scryfall rulings file (a JSON array of ruling objects, or a list object with `data`).
pub fn parse_rulings(bytes: &[u8], shown: &str) -> Result<Vec<(String, Ruling)>> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum File {
        Bare(Vec<ScryfallRuling>),
        List { data: Vec<ScryfallRuling> },
    }
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let file: File = serde_json::from_slice(bytes).map_err(|e| {
        Error::bad_input(format!(
            "{shown}: not a Scryfall rulings file ({e}): download the \"Rulings\" bulk file from scryfall.com/docs/api/bulk-data"
        ))
    })?;
    let list = match file {
        File::Bare(v) | File::List { data: v } => v,
    };
    Ok(list
        .into_iter()
        .filter(|r| !r.oracle_id.is_empty() && !r.comment.trim().is_empty())
        .map(|r| (r.oracle_id, Ruling { date: r.published_at, text: r.comment.trim().to_string() }))
        .collect())
}

/// Gives the reference's cards the rulings of a Scryfall rulings file, matched by Oracle id (a matched
/// card's rulings are replaced by the file's).
pub fn import_rulings(
    store: &mut Store,
    actor: &Actor,
    rulings: Vec<(String, Ruling)>,
    shown: &str,
) -> Result<RulingsImported> {
    store.write(actor, |tx| {
        if cards::count(tx)? == 0 {
            let out = crate::error::WayOut::ImportCards { need: crate::error::Cards::BeforeRulings };
            return Err(crate::error::Refusal::refused("no card reference loaded").way_out(out).into());
        }
        let by_oracle: HashMap<String, Vec<_>> =
            card_text::oracle_ids(tx)?.into_iter().fold(HashMap::new(), |mut m, (o, id)| {
                m.entry(o).or_default().push(id);
                m
            });
        let mut out = RulingsImported { rulings: rulings.len(), ..Default::default() };
        let mut per_card: HashMap<crate::store::CardId, Vec<Ruling>> = HashMap::new();
        for (oracle, ruling) in rulings {
            match by_oracle.get(&oracle) {
                Some(ids) => ids.iter().for_each(|id| per_card.entry(*id).or_default().push(ruling.clone())),
                None => out.unmatched += 1,
            }
        }
        if per_card.is_empty() {
            return Err(Error::not_found(format!(
                "{shown}: none of its {} rulings is for a card of the reference (they are matched by Scryfall Oracle id: import a Scryfall or MTGJSON card file first)",
                out.rulings
            )));
        }
        for (id, mut list) in per_card {
            list.sort_by(|a, b| a.date.cmp(&b.date));
            card_text::set_rulings(tx, id, &list)?;
            out.cards += 1;
        }
        out.cards_without_oracle_id = cards::count(tx)?.saturating_sub(card_text::oracle_ids(tx)?.len() as u32);
        let summary = format!("imported {} rulings for {} cards from {shown}", out.rulings - out.unmatched, out.cards);
        Ok((out, Change::new(summary)))
    })
}
