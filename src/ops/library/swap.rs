//! `library swap`: a judge's hand edit of one library from the pool, re-checked and audited.

use super::balance::{Sources, balance_lines, load_all};
use super::{check_unlocked, find};
use crate::domain::names::{self, Resolved};
use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::store::library::{self as store_library, LibraryCard};
use crate::store::{Actor, Change, Store, Touched};

/// What `library swap` is asked.
#[derive(Debug, Clone)]
pub struct SwapInput {
    /// The library as the judge names it (`3A`).
    pub library: String,
    /// The card to take out, as typed.
    pub out: String,
    /// The pool card to put in, as typed.
    pub card_in: String,
    /// Edit even though round 1 is paired.
    pub force: bool,
}

/// What a swap did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Swapped {
    /// The library's label.
    pub library: String,
    /// The card taken out.
    pub out: String,
    /// The card put in.
    #[serde(rename = "in")]
    pub card_in: String,
    /// The library's distance from the pool's profile afterwards.
    pub distance_from_mean: f64,
    /// Its distance from its partner afterwards.
    pub pair_distance: Option<f64>,
    /// What the judge should know (curation flags of the new card, copies it now holds).
    pub notes: Vec<String>,
}

/// `library swap LIBRARY OUT IN`: replaces one card of a fixed library with a free copy from the pool.
pub fn swap(store: &mut Store, actor: &Actor, input: SwapInput) -> Result<Swapped> {
    let SwapInput { library, out, card_in, force } = input;
    let (library, out, card_in) = (library.as_str(), out.as_str(), card_in.as_str());
    store.write(actor, |tx| {
        let lib = find(tx, library)?;
        if lib.table.is_none() {
            let what = "a sealed library holds the player's own cards";
            let out = crate::error::WayOut::RegisterLibrary { whose: crate::error::Whose::Again };
            return Err(crate::error::Refusal::refused(what).way_out(out).into());
        }
        let note = check_unlocked(tx, force, "edit them")?;
        let label = lib.label();
        let cards = store_library::cards(tx, lib.id)?;
        let leaving = card_in_library(&cards, out, &label)?;
        let arriving = super::super::pool::resolve(tx, card_in)?;
        if arriving.name.eq_ignore_ascii_case(&leaving.name) {
            return Err(Error::bad_input(format!("{} would replace itself: name two different cards", leaving.name)));
        }
        if arriving.is_land {
            return Err(Error::refused(format!(
                "{} is a land: main libraries hold spells only (lands are kept apart for Utopia)",
                arriving.name
            )));
        }
        if arriving.excluded {
            let what = format!("{} is excluded from building", arriving.name);
            let out = crate::error::WayOut::IncludeCard { name: arriving.name.clone() };
            return Err(crate::error::Refusal::refused(what).way_out(out).into());
        }
        let used = super::super::pool::in_use(tx)?.get(&arriving.id).copied().unwrap_or(0);
        if used >= arriving.copies {
            let what = format!(
                "no free copy of {}: the pool's {} {} in {}",
                arriving.name,
                arriving.copies,
                if arriving.copies == 1 { "copy is" } else { "copies are" },
                super::super::pool::holders(tx, arriving.id)?
            );
            let out = crate::error::WayOut::FreeCopies;
            return Err(crate::error::Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
        }
        store_library::replace_card(
            tx,
            &LibraryCard {
                pool_id: Some(arriving.id),
                name: arriving.name.clone(),
                mana_cost: arriving.mana_cost.clone(),
                sideboard: false,
                ..leaving.clone()
            },
        )?;
        let mut notes: Vec<String> =
            super::super::curation::check_card(tx, &arriving)?.into_iter().map(|f| f.reason).collect();
        let copies_now = cards.iter().filter(|c| c.name.eq_ignore_ascii_case(&arriving.name)).count() + 1;
        if copies_now > 1 {
            notes.push(format!("{label} now holds {copies_now} copies of {}", arriving.name));
        }
        let libs = load_all(tx)?;
        let (lines, _) = balance_lines(&libs, &Sources::load(tx, &libs)?);
        let line = lines.into_iter().find(|l| l.library == label);
        let swapped = Swapped {
            library: label.clone(),
            out: leaving.name.clone(),
            card_in: arriving.name.clone(),
            distance_from_mean: line.as_ref().map_or(0.0, |l| l.distance_from_mean),
            pair_distance: line.and_then(|l| l.pair_distance),
            notes,
        };
        let summary = format!("library {label}: swapped {} out for {}{note}", leaving.name, arriving.name);
        Ok((swapped, Change::new(summary).touching(Touched::event(Topic::Round))))
    })
}

/// The library card a typed name means, or why none.
fn card_in_library(cards: &[LibraryCard], query: &str, label: &str) -> Result<LibraryCard> {
    let mut main: Vec<&LibraryCard> = cards.iter().filter(|c| !c.sideboard).collect();
    main.sort_by_key(|c| c.name.to_lowercase());
    main.dedup_by_key(|c| c.name.to_lowercase());
    let items: Vec<(String, usize)> = main.iter().enumerate().map(|(i, c)| (c.name.clone(), i)).collect();
    match names::resolve(query, &items) {
        Resolved::One(i) => Ok(main[i].clone()),
        Resolved::Ambiguous(found) => Err(Error::bad_input(format!(
            "\"{query}\" matches several cards of library {label} ({}): type more of the name",
            found.join(", ")
        ))),
        Resolved::Unknown(close) => Err(crate::error::Refusal::not_found(format!(
            "\"{query}\" is not in library {label}{}",
            names::closest_hint(&close)
        ))
        .way_out(crate::error::WayOut::ShowLibrary { label: label.to_string() })
        .into()),
    }
}
