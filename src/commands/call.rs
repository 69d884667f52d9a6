//! `call list` and `call close TABLE`: the players' calls for a judge, for a scorekeeper at the command line.
//! The rules are in `ops::table::device::calls`.

use super::Ctx;
use crate::cli::call::CallCmd;
use crate::error::Result;
use crate::ops::table::device::calls::{close_call, open_calls};
use crate::ops::table::hhmm;
use crate::render::{Listing, done_with, emit};

/// Runs `call list` or `call close`.
pub fn run(ctx: &Ctx, cmd: CallCmd) -> Result<()> {
    match cmd {
        CallCmd::List => list(ctx),
        CallCmd::Close { table } => {
            let mut store = ctx.open()?;
            let out = close_call(&mut store, &ctx.actor()?, table)?;
            done_with(ctx.format, &out.summary, &out)
        }
    }
}

fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let view = open_calls(&snapshot, ctx.now()?)?;
    let mut listing = Listing::new(&["table", "A", "B", "called by", "since", "waiting"]);
    for c in &view.calls {
        listing.row(vec![
            if c.finished { format!("{} (finished)", c.call.pairing.table) } else { c.call.pairing.table.to_string() },
            c.call.pairing.a.clone(),
            c.call.pairing.b.clone(),
            c.call.caller.clone(),
            hhmm(&c.call.since),
            waited(c.waiting_seconds),
        ]);
    }
    listing.title = Some(format!("Round {}: judge calls open", view.round));
    if view.calls.is_empty() {
        listing.footer.push("no judge call is open".into());
    } else {
        listing.footer.push("close one with `mmjudge call close TABLE` once a judge is there".into());
    }
    emit(ctx.format, &listing, &view)
}

/// "45 s", "3 min", "1 h 05 min".
fn waited(secs: i64) -> String {
    match secs {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min", s / 60),
        s => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}
