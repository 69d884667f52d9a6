//! Whom a guess is aimed at, and what it spent (see `web::kit::limit` for the rules and their arithmetic): a
//! judge's PIN is aimed at the judge, a check-in's code at the player the name finds, and a code at a table at the
//! player of the seat it names ([`at_table`]). A name that finds nobody (or several) has no target: it is counted
//! per address.
//!
//! A device is trusted for its own player only: a right code makes the device known for the player whose code it
//! is, never for their opponent, and a device's trust skips only its own player's budget.

use crate::domain::result::Seat;
use crate::error::Result;
use crate::store::{Store, guesses};
use rusqlite::Connection;

/// The judge a login's name finds (their target), if any.
pub fn judge(conn: &Connection, name: &str) -> Result<Option<String>> {
    let key = crate::domain::names::key(name);
    Ok(crate::store::judges::by_key(conn, &key)?.map(|j| guesses::judge(j.id)))
}

/// A code's try at a table: whom it is aimed at, and whose code it is among them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeAim {
    /// The players whose budgets it spends when wrong (none: no such table, counted per address only).
    pub targets: Vec<String>,
    /// The one among them whose code it is: a right answer makes the device known for them alone.
    pub owner: Option<String>,
    /// The code is wrong for every target: the refusal's words (403, as a wrong code), given without looking
    /// further.
    pub wrong: Option<String>,
}

/// Whom a code typed at `table` (in the current round) is aimed at: the player of the `seat` named; without a
/// seat, the player whose page it came from (`page_of`), else both (a page or script that names no seat, as
/// before: a wrong code counts against both). The code is then checked against the aimed players only.
pub fn at_table(
    conn: &Connection,
    table: u32,
    seat: Option<Seat>,
    page_of: Option<&str>,
    code: &str,
) -> Result<CodeAim> {
    let Ok(seated) = super::table::Seated::at(conn, table, None) else {
        return Ok(CodeAim { targets: Vec::new(), owner: None, wrong: None });
    };
    let both = [Seat::A, Seat::B];
    let of_page = page_of
        .map(crate::domain::names::key)
        .and_then(|page| both.into_iter().find(|s| crate::domain::names::key(&seated.player(*s).name) == page));
    let seats: Vec<Seat> = match seat.or(of_page) {
        Some(s) => vec![s],
        None => both.to_vec(),
    };
    let code = code.trim();
    let mut owner = None;
    for s in &seats {
        let p = seated.player(*s);
        if owner.is_none() && !code.is_empty() && crate::store::player_codes::of(conn, p.id)?.as_deref() == Some(code) {
            owner = Some(guesses::player(p.id.0));
        }
    }
    let targets = seats.iter().map(|s| guesses::player(seated.player(*s).id.0)).collect();
    let round = seated.m.round;
    let wrong = match seats.as_slice() {
        _ if owner.is_some() || code.is_empty() => None,
        [s] if seat.is_none() => Some(format!(
            "that code is not {}'s: check the six digits on your slip (and that this page is yours), or ask a judge \
             for a new code",
            seated.player(*s).name
        )),
        [s] => Some(format!(
            "that code is not {}'s, at table {table} seat {} in round {round}: type your own code on your own side, or ask a judge",
            seated.player(*s).name,
            if *s == Seat::A { "A" } else { "B" },
        )),
        _ => Some(format!(
            "that code is not one of the two players' at table {table} in round {round}: type your own code at your own table, or ask a judge"
        )),
    };
    Ok(CodeAim { targets, owner, wrong })
}

/// The one player a check-in's name finds (their target); none when it finds nobody or several.
pub fn name(conn: &Connection, name: &str) -> Result<Option<String>> {
    Ok(super::player_names::find(conn, name).ok().map(|p| guesses::player(p.id.0)))
}

/// A mark of the targets' secrets as they are now: an address's count of wrong tries is kept under its key and
/// this mark, so a new code or PIN starts the address's count afresh too (a player who typed their code wrong
/// five times behind a venue's shared address is let in at once with the new code a judge gives them, as the
/// 429 says). Kept in memory only; it tells one secret from the next and nothing more.
pub fn mark(conn: &Connection, targets: &[String]) -> Result<u64> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for t in targets {
        guesses::secret(conn, t)?.hash(&mut h);
    }
    Ok(h.finish())
}

/// Each target's count (wrong tries still counted, when the last was counted in Unix milliseconds).
pub fn levels(conn: &Connection, targets: &[String]) -> Result<Vec<Option<(f64, i64)>>> {
    targets.iter().map(|t| guesses::level(conn, t)).collect()
}

/// Whether the device (its cookie's hash) succeeded for each of the targets.
pub fn known(conn: &Connection, targets: &[String], device: &str) -> Result<Vec<bool>> {
    targets.iter().map(|t| guesses::known(conn, t, device)).collect()
}

/// Counts one wrong try against each target, in one transaction: `next` gives a target's new count from its
/// old one. Neither audited nor announced (the replication carries it to a standby).
pub fn spend(store: &mut Store, targets: &[String], next: impl Fn(Option<(f64, i64)>) -> (f64, i64)) -> Result<()> {
    store.lower_half(|tx| {
        for t in targets {
            let (level, at) = next(guesses::level(tx, t)?);
            guesses::set_level(tx, t, level, at)?;
        }
        Ok(())
    })
}

/// Records that the device succeeded for the targets (once each; a target keeps its newest
/// [`guesses::DEVICES`]).
pub fn know(store: &mut Store, targets: &[String], device: &str) -> Result<()> {
    store.lower_half(|tx| {
        for t in targets {
            guesses::know(tx, t, device)?;
        }
        Ok(())
    })
}
