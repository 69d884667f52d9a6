//! Decision clock actions: cancelling a decision started by mistake.

use crate::error::{Error, Result};
use crate::store::clock as store_clock;
use crate::store::{Actor, Change, Store, matches, player, round};

/// `clock TABLE --cancel`: the table in the current round.
#[derive(Debug, Clone, Copy)]
pub struct CancelInput {
    /// The table.
    pub table: u32,
}

/// A cancelled decision.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Cancelled {
    /// The decision's id (gone now).
    pub decision: i64,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// Who was deciding.
    pub player: String,
    /// When it had started (RFC 3339).
    pub started_at: String,
}

/// Discards the decision running at a table of the current round, as if it had never been started: nothing is
/// recorded for the player (the audit log keeps the cancellation).
pub fn cancel_decision(store: &mut Store, actor: &Actor, input: CancelInput) -> Result<Cancelled> {
    let table = input.table;
    store.write(actor, |tx| {
        let number = round::current(tx)?;
        if number == 0 {
            return Err(Error::refused("no round has been paired yet: there is no decision to cancel"));
        }
        let Some(m) = matches::at_table(tx, number, table)? else {
            return Err(Error::refused(format!("no match at table {table} in round {number}: check the table")));
        };
        let Some(d) = store_clock::running(tx, m.id)? else {
            return Err(Error::refused(format!(
                "no decision is running at table {table}: nothing to cancel (`mmjudge decisions --table {table}` lists \
                 the recorded ones)"
            )));
        };
        store_clock::delete_decision(tx, d.id)?;
        let name = player::get(tx, d.player_id)?.name;
        let since = crate::time::unstamp(&d.started_at).map(crate::time::confirm_time).unwrap_or_default();
        let summary = format!(
            "table {table} (round {number}): cancelled the decision {name} started at {since} (started by mistake; \
             nothing recorded)"
        );
        let out = Cancelled { decision: d.id, round: number, table, player: name, started_at: d.started_at };
        Ok((out, Change::about(summary, [d.player_id])))
    })
}
