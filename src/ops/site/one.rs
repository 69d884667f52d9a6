//! One page of the site, drawn on its own (the judges' prints on the server): the same reading and the same
//! [`Draw`] as the whole site, for one kind of page and one round.

use super::{Draw, Page, Site};
use crate::error::{Error, Result};
use crate::ops::library::sheets::library_sheets;
use crate::ops::table::records::sheet::note_sheets_of_round;
use crate::store::Store;

/// Which page of the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum One {
    /// The result slips of a paired round (the round paired last when `None`).
    Slips(Option<u32>),
    /// The standings after a played round (the last round played when `None`).
    Standings(Option<u32>),
    /// Every table's note sheet of a paired round (the round paired last when `None`).
    Notes(Option<u32>),
    /// Every library's deck sheet.
    Decks,
}

/// Draws the one page `one` of the site with `draw`, everything read in one read transaction.
pub fn one_page(store: &Store, one: One, draw: &dyn Draw) -> Result<Page> {
    store.read(|conn| {
        let site = Site::load(conn)?;
        let ev = &site.event;
        let (paired, played) = (ev.results.paired, ev.results.played);
        match one {
            One::Slips(r) => {
                let r = paired_round(r, paired, "result slips")?;
                let turns = crate::store::matches::turns_of_round(conn, r)?;
                draw.slips(ev, r, &turns, &site.slip_shared()?)
            }
            One::Standings(r) => {
                let r = match r {
                    None if played == 0 => {
                        return Err(Error::not_found(
                            "no standings yet: they are printed once every result of round 1 is in",
                        ));
                    }
                    None => played,
                    Some(r) if (1..=played).contains(&r) => r,
                    Some(r) => {
                        return Err(Error::not_found(format!(
                            "no standings after round {r}: {}",
                            match played {
                                0 => "no round has every result in yet".to_string(),
                                1 => "round 1 is the only round with every result in".to_string(),
                                n => format!("rounds 1 to {n} have every result in"),
                            }
                        )));
                    }
                };
                draw.standings(ev, r, &ev.results.standings_of_round(r))
            }
            One::Notes(r) => {
                let r = paired_round(r, paired, "note sheets")?;
                draw.notes(ev, r, &note_sheets_of_round(conn, r)?)
            }
            One::Decks => draw.decks(ev, library_sheets(conn)?),
        }
    })
}

/// Round `r` if it is paired (the round paired last when `None`), else why not, naming `what`.
fn paired_round(r: Option<u32>, paired: u32, what: &str) -> Result<u32> {
    match r {
        None if paired == 0 => Err(Error::not_found(format!(
            "no {what} yet: round 1 is not paired (a head judge pairs it on the Judges page)"
        ))),
        None => Ok(paired),
        Some(r) if (1..=paired).contains(&r) => Ok(r),
        Some(r) => Err(Error::not_found(match paired {
            0 => format!("round {r} is not paired: no round is paired yet"),
            1 => format!("round {r} is not paired: the {what} of round 1 can be printed"),
            n => format!("round {r} is not paired: the {what} of rounds 1 to {n} can be printed"),
        })),
    }
}
