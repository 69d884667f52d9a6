//! `log`: the audit log (see [`crate::ops::log`]).

use super::Ctx;
use crate::cli::LogArgs;
use crate::error::Result;
use crate::render::{Listing, emit};

/// Prints the audit log, optionally for one player and/or since a moment.
pub fn run(ctx: &Ctx, args: LogArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let since = match &args.since {
        Some(s) => Some(ctx.at(Some(s))?),
        None => None,
    };
    let entries = crate::ops::log::log(&snapshot, args.player.as_deref(), since)?;
    let mut listing = Listing::new(&["#", "when", "judge", "via", "what", "command"]).titled("Audit log");
    for e in &entries {
        let when = crate::time::unstamp(&e.at).map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string());
        listing.row(vec![
            e.id.to_string(),
            when.unwrap_or_else(|_| e.at.clone()),
            e.judge.clone(),
            e.via.clone(),
            e.summary.clone(),
            e.command.clone(),
        ]);
    }
    if let (true, Some(moment)) = (entries.is_empty(), since) {
        // An empty log since a time of day says which day and moment it read (a time of day is today's, in the
        // laptop's time zone).
        let local = moment.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M");
        listing
            .footer
            .push(format!("nothing changed since {local} (an earlier day: --since 2026-05-01, its midnight)"));
    }
    emit(ctx.format, &listing, &serde_json::json!({ "entries": entries }))
}
