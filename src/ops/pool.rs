//! The pool: the judges' physical cards. Adding resolved cards, importing a card list, finding a pool card by
//! name, and which libraries hold its copies. Reading and resolving card lists is in [`import`]; the curation
//! report in [`super::curation`].

pub mod edit;
pub mod import;
pub mod watch;

use crate::domain::names::{self, Resolved};
use crate::error::{Error, Result};
use crate::store::pool::{self as store_pool, NewPoolCard, PoolCard, Watched};
use crate::store::{Change, PoolId, library};
use import::Resolution;
use rusqlite::Connection;
use std::collections::HashMap;

/// The watch list a new event starts with: the rules' own example of a very abusive card ("BX").
pub const DEFAULT_WATCH: &[(&str, &str)] =
    &[("Mind Twist", "the rules' example of a very abusive card: any {X}{B} card can empty a hand")];

/// Seeds a new event's watch list with [`DEFAULT_WATCH`].
pub fn seed_watch_defaults(conn: &Connection) -> Result<()> {
    for (card, note) in DEFAULT_WATCH {
        store_pool::watch_add(conn, &Watched { card: card.to_string(), note: note.to_string() })?;
    }
    Ok(())
}

/// What an import added.
#[derive(Debug, Default, serde::Serialize)]
pub struct Added {
    /// Distinct cards new to the pool.
    pub new_cards: usize,
    /// Copies added.
    pub copies: u32,
    /// Land copies among them (kept apart from the spells).
    pub land_copies: u32,
    /// Cards the reference does not know (kept with the cost and type given).
    pub unknown: Vec<String>,
    /// Lines whose typed cost differs from the reference's (the reference's is kept).
    pub cost_notes: Vec<String>,
    /// Lines with a count of 0, skipped.
    pub zero_lines: usize,
    /// Copies in the pool afterwards.
    pub pool_copies: u32,
    /// Control characters removed from the file's cells.
    pub control_characters_removed: usize,
}

/// Adds resolved cards to the pool (summing copies of cards already there).
pub fn add_resolved(conn: &Connection, res: &Resolution) -> Result<Added> {
    let mut out = Added { cost_notes: res.cost_notes.clone(), zero_lines: res.zero_lines, ..Default::default() };
    for card in &res.cards {
        match store_pool::by_name(conn, &card.name)? {
            Some(existing) => {
                let total = u64::from(existing.copies) + u64::from(card.copies);
                crate::domain::bounds::copies(&existing.name, total, existing.is_basic()).map_err(Error::BadInput)?;
                store_pool::set_copies(conn, existing.id, existing.copies.saturating_add(card.copies))?
            }
            None => {
                store_pool::insert(
                    conn,
                    &NewPoolCard {
                        name: &card.name,
                        mana_cost: card.mana_cost.as_deref(),
                        type_line: &card.type_line,
                        copies: card.copies,
                        is_land: card.is_land,
                        known: card.known,
                    },
                )?;
                out.new_cards += 1;
            }
        }
        out.copies = out.copies.saturating_add(card.copies);
        if card.is_land {
            out.land_copies = out.land_copies.saturating_add(card.copies);
        }
        if !card.known {
            out.unknown.push(card.name.clone());
        }
    }
    let all = store_pool::all(conn)?;
    let total: u64 = all.iter().map(|c| u64::from(c.copies)).sum();
    // Basic lands are bounded apart (the Utopia libraries need many).
    let count = |basic: bool| all.iter().filter(|c| c.is_basic() == basic).map(|c| u64::from(c.copies)).sum();
    crate::domain::bounds::pool(count(false)).map_err(Error::BadInput)?;
    crate::domain::bounds::basics(count(true)).map_err(Error::BadInput)?;
    out.pool_copies = total as u32;
    Ok(out)
}

/// Imports a card list into the pool inside a transaction (shared by `pool import` and the demo).
pub fn import_bytes(
    conn: &Connection,
    bytes: &[u8],
    shown: &str,
    allow_unknown: bool,
    replace: bool,
) -> Result<(Added, Change)> {
    let (lines, removed) = import::read_lines_counted(bytes, shown)?;
    if lines.is_empty() {
        return Err(Error::bad_input(format!("{shown}: no cards under the header row: nothing imported")));
    }
    let res = import::resolve_lines(conn, &lines, allow_unknown)
        .map_err(|e| e.bad_input_after(&format!("{shown}: nothing imported: ")))?;
    if replace {
        if !library::copies_in_use(conn)?.is_empty() {
            let what = "libraries are built from this pool";
            return Err(crate::error::Refusal::refused(what).way_out(crate::error::WayOut::KeepPool).into());
        }
        store_pool::clear(conn)?;
    }
    let mut added = add_resolved(conn, &res)?;
    added.control_characters_removed = removed;
    let summary = format!(
        "{} {} ({}) from {shown}; the pool holds {}",
        if replace { "replaced the pool with" } else { "added" },
        crate::domain::words::count(added.copies, "copy"),
        crate::domain::words::count(added.new_cards, "new card"),
        crate::domain::words::count(added.pool_copies, "copy")
    );
    Ok((added, Change::new(summary)))
}

/// The pool card a typed name means (exact, folded or unambiguous prefix), or why none.
pub fn resolve(conn: &Connection, query: &str) -> Result<PoolCard> {
    let cards = store_pool::all(conn)?;
    let items: Vec<(String, usize)> = cards.iter().enumerate().map(|(i, c)| (c.name.clone(), i)).collect();
    match names::resolve(query, &items) {
        Resolved::One(i) => {
            cards.get(i).cloned().ok_or_else(|| Error::not_found(format!("\"{query}\" is not in the pool")))
        }
        Resolved::Ambiguous(found) => Err(Error::bad_input(format!(
            "\"{query}\" matches several pool cards ({}): type more of the name",
            found.join(", ")
        ))),
        Resolved::Unknown(_) if cards.is_empty() => {
            Err(crate::error::Refusal::not_found(format!("\"{query}\" is not in the pool: the pool is empty"))
                .way_out_after(crate::error::Join::Semicolon, crate::error::WayOut::ImportPool)
                .into())
        }
        Resolved::Unknown(close) => Err(crate::error::Refusal::not_found(format!(
            "\"{query}\" is not in the pool: closest are {}",
            close.join(", ")
        ))
        .way_out_after(crate::error::Join::Semicolon, crate::error::WayOut::ListPool)
        .into()),
    }
}

/// Copies of each pool card in libraries.
pub fn in_use(conn: &Connection) -> Result<HashMap<PoolId, u32>> {
    Ok(library::copies_in_use(conn)?.into_iter().collect())
}

/// "library 1A" or "libraries 1A, 3B": the libraries holding copies of a pool card.
pub fn holders(conn: &Connection, id: PoolId) -> Result<String> {
    Ok(holders_text(&holder_labels(conn, id)?))
}

/// The labels of the libraries holding copies of a pool card.
pub fn holder_labels(conn: &Connection, id: PoolId) -> Result<Vec<String>> {
    Ok(library::holding(conn, id)?.iter().map(|l| l.label()).collect())
}

/// "library 1A" or "libraries 1A, 3B".
pub fn holders_text(labels: &[String]) -> String {
    let word = if labels.len() == 1 { "library" } else { "libraries" };
    format!("{word} {}", labels.join(", "))
}
