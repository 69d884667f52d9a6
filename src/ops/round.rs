//! Round actions: pairing the next round, taking it back, swapping two players' seats, reopening a round
//! closed by mistake; and a fixed movement's schedule previewed before an event.

pub mod clock;
mod pair;
mod preview;
pub mod progress;
pub mod steps;
mod swap;
pub mod time;

pub use pair::{PairInput, Paired, Unpaired, pair_round, pair_round_with, tables_word, unpair_round, unpaired_words};
pub use preview::{Check, Preview, PreviewInput, preview_movement};
pub use swap::{Moved, SwapInput, Swapped, swap_seats, swapped_words};

use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::store::{Actor, Change, Store, Touched, round};

/// A reopened round.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Reopened {
    /// The round.
    pub round: u32,
    /// When it had been closed (RFC 3339).
    pub was_closed_at: String,
}

/// What `round reopen` did, in words: "reopened round 2 (it was closed at 14:05): its clock runs on ...".
pub fn reopened_words(r: &Reopened) -> String {
    let when = crate::time::unstamp(&r.was_closed_at).map(crate::time::confirm_time).unwrap_or_default();
    format!(
        "reopened round {} (it was closed at {when}): its clock runs on as if it had never been closed; \
         decisions can be timed again",
        r.round
    )
}

/// `round reopen`: undoes `round end` on the current round. The round's clock runs as if it had never been
/// closed (play went on at the tables) and decisions can be timed again; decisions that `round end` stopped
/// stay as they were saved.
pub fn reopen_round(store: &mut Store, actor: &Actor) -> Result<Reopened> {
    store.write(actor, |tx| {
        let number = round::current(tx)?;
        let Some(r) = round::get(tx, number)?.filter(|_| number > 0) else {
            return Err(Error::refused("no round has been paired yet: there is nothing to reopen"));
        };
        let Some(closed) = r.ended_at else {
            let what = format!("round {number} is not closed: nothing to reopen");
            return Err(Refusal::refused(what).way_out_after(crate::error::Join::Aside, WayOut::EndRound).into());
        };
        round::set_ended(tx, number, None)?;
        let when = crate::time::unstamp(&closed).map(crate::time::confirm_time).unwrap_or_else(|_| closed.clone());
        let summary = if r.started_at.is_none() {
            format!("reopened round {number} (closed at {when}): its clock has not started (`mmjudge round start`)")
        } else {
            format!(
                "reopened round {number} (closed at {when}): its clock runs on as if it had never been closed, and \
                 decisions can be timed again"
            )
        };
        let change = Change::new(summary).touching(Touched::round(Topic::Round, number));
        Ok((Reopened { round: number, was_closed_at: closed }, change))
    })
}
