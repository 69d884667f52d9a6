//! `library register PLAYER FILE.csv [--sideboard A,B,C]`: a player's opened sealed product becomes their
//! libraries (rules, "Sealed Deck"): basic lands the Utopia library, the rest the main library, with an
//! optional sideboard of exactly three cards.

use super::balance::cost_order;
use crate::domain::library::{SealedCard, SealedError, split_sealed};
use crate::domain::names;
use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::ops::pool::import::{self as pool_import, ResolvedCard};
use crate::store::library::{self as store_library, LibraryCard};
use crate::store::{Actor, Change, LibraryId, Store, Touched, event, round};
use rusqlite::Connection;

/// What `library register` is asked.
#[derive(Debug, Clone)]
pub struct RegisterInput {
    /// The player, as typed.
    pub player: String,
    /// The card list's bytes (CSV).
    pub bytes: Vec<u8>,
    /// The card list's name as messages show it.
    pub shown: String,
    /// The sideboard names, as typed (`A,B,C`).
    pub sideboard: Option<String>,
    /// Keep cards the reference does not know.
    pub allow_unknown: bool,
    /// Register again even though round 1 is paired.
    pub force: bool,
}

/// What a registration stored.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Registered {
    /// The player's name.
    pub player: String,
    /// Cards in the main library.
    pub main: usize,
    /// Basic lands in the Utopia library.
    pub utopia: usize,
    /// The sideboard, by name.
    pub sideboard: Vec<String>,
    /// The player had libraries already, now replaced.
    pub replaced: bool,
    /// Control characters removed from the file's cells.
    pub control_characters_removed: usize,
}

/// `library register`: stores a player's sealed libraries from their card list, in one write.
pub fn register(store: &mut Store, actor: &Actor, input: RegisterInput) -> Result<Registered> {
    let RegisterInput { player, bytes, shown, sideboard, allow_unknown, force } = input;
    let (player, bytes, shown, sideboard) = (player.as_str(), bytes.as_slice(), shown.as_str(), sideboard.as_deref());
    store.write(actor, |tx| {
        if event::values(tx)?.text("libraries") != "sealed" {
            let out = crate::error::WayOut::SetFirst { key: "libraries".into(), value: "sealed".into() };
            return Err(crate::error::Refusal::refused("this event uses judge-built libraries at the tables")
                .way_out(out)
                .into());
        }
        let p = crate::ops::player_names::find(tx, player)?;
        let existing = store_library::of_player(tx, p.id)?;
        let current = round::current(tx)?;
        if existing.is_some() && current > 0 && !force {
            let what = format!("{}'s sealed libraries are locked: round {current} is paired", p.name);
            let out = crate::error::WayOut::ForceAnyway {
                to: "register them again (audited)".into(),
                tick: crate::error::Tick::RegisterAgain,
            };
            return Err(crate::error::Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
        }
        let (lines, removed) = pool_import::read_lines_counted(bytes, shown)?;
        let res = pool_import::resolve_lines(tx, &lines, allow_unknown)
            .map_err(|e| e.bad_input_after(&format!("{shown}: nothing registered: ")))?;
        let count = |basic: bool| res.cards.iter().filter(|c| c.is_basic == basic).map(|c| u64::from(c.copies)).sum();
        let bounded = crate::domain::bounds::library(&format!("{}'s main library", p.name), count(false))
            .and_then(|()| crate::domain::bounds::library(&format!("{}'s Utopia library", p.name), count(true)));
        bounded.map_err(|e| Error::bad_input(format!("{shown}: nothing registered: {e}")))?;
        let copies: Vec<&ResolvedCard> =
            res.cards.iter().flat_map(|c| std::iter::repeat_n(c, c.copies as usize)).collect();
        let sealed: Vec<SealedCard> =
            copies.iter().map(|c| SealedCard { name: c.name.clone(), is_basic_land: c.is_basic }).collect();
        let product: Vec<String> = res.cards.iter().map(|c| c.name.clone()).collect();
        let names = sideboard.map(|s| split_names(s, &product)).unwrap_or_default();
        let split = split_sealed(&sealed, &names).map_err(|e| sideboard_error(e, &product))?;
        if split.main.is_empty() {
            return Err(Error::bad_input(format!(
                "{shown}: no cards besides basic lands: a main library needs spells"
            )));
        }
        let id = match &existing {
            Some(lib) => {
                store_library::clear_cards(tx, lib.id)?;
                store_library::set_utopia(tx, lib.id, split.utopia.len() as u32)?;
                lib.id
            }
            None => store_library::insert(tx, None, None, Some(p.id), split.utopia.len() as u32)?,
        };
        let mut main: Vec<&ResolvedCard> = split.main.iter().map(|&i| copies[i]).collect();
        main.sort_by_key(|c| cost_order(c.mana_cost.as_deref(), &c.name));
        let side: Vec<&ResolvedCard> = split.sideboard.iter().map(|&i| copies[i]).collect();
        store_cards(tx, id, &main, &side)?;
        let out = Registered {
            player: p.name.clone(),
            main: main.len(),
            utopia: split.utopia.len(),
            sideboard: side.iter().map(|c| c.name.clone()).collect(),
            replaced: existing.is_some(),
            control_characters_removed: removed,
        };
        let forced = if existing.is_some() && current > 0 { " (forced: round is paired)" } else { "" };
        let summary = format!(
            "registered {}'s sealed libraries: {} main cards, Utopia {} basic lands{}{forced}",
            p.name,
            out.main,
            out.utopia,
            if out.sideboard.is_empty() { String::new() } else { format!(", sideboard {}", out.sideboard.join(", ")) }
        );
        Ok((out, Change::about(summary, [p.id]).touching(Touched::event(Topic::Round).player(p.id))))
    })
}

fn store_cards(tx: &Connection, id: LibraryId, main: &[&ResolvedCard], side: &[&ResolvedCard]) -> Result<()> {
    let all = main.iter().map(|c| (c, false)).chain(side.iter().map(|c| (c, true)));
    for (pos, (c, sideboard)) in all.enumerate() {
        store_library::insert_card(
            tx,
            &LibraryCard {
                library: id,
                position: pos as u32 + 1,
                pool_id: None,
                name: c.name.clone(),
                mana_cost: c.mana_cost.clone(),
                sideboard,
            },
        )?;
    }
    Ok(())
}

/// Splits `A,B,C` into names, keeping together pieces that form a product card whose name has a comma
/// ("Stature, Size Shifter").
pub fn split_names(text: &str, product: &[String]) -> Vec<String> {
    let pieces: Vec<&str> = text.split(',').collect();
    let known = |s: &str| product.iter().any(|p| names::key(p) == names::key(s));
    let mut out = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        let joined = (i + 1..pieces.len()).rev().map(|j| pieces[i..=j].join(",")).find(|s| known(s));
        match joined {
            Some(name) => {
                i += name.matches(',').count() + 1;
                out.push(name.trim().to_string());
            }
            None => {
                out.push(pieces[i].trim().to_string());
                i += 1;
            }
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// A sideboard refusal, with the closest product names for an unknown one.
fn sideboard_error(e: SealedError, product: &[String]) -> Error {
    match &e {
        SealedError::UnknownCard { name } => {
            let close = names::closest(name, product.iter().map(String::as_str), 3);
            Error::not_found(format!("{e}{}", names::closest_hint(&close)))
        }
        _ => Error::refused(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sideboard_names_keep_commas_of_real_names() {
        let product: Vec<String> =
            ["Shock", "Stature, Size Shifter", "Giant Growth"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            split_names("Shock, Stature, Size Shifter,giant growth", &product),
            vec!["Shock", "Stature, Size Shifter", "giant growth"]
        );
        assert_eq!(split_names("a,,b", &product), vec!["a", "b"]);
    }
}
