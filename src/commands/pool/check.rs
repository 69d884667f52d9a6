//! `pool check`: prints the curation report of [`crate::ops::curation`], and writes its page.

use super::Ctx;
use crate::domain::curation::{flag_word, short_list};
use crate::error::{Error, Result};
use crate::ops::curation::{CheckedGroup, Report, pool_check};
use crate::render::pages::{CurationPage, curation_summary};
use crate::render::{Format, Listing, emit, human_text};
use std::path::Path;

/// Runs `pool check`.
pub fn run(ctx: &Ctx, all: bool, html: Option<&Path>, force: bool) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let report = pool_check(conn)?;
    if let Some(path) = html {
        let head = crate::ops::event::print_head(conn)?;
        let curves = crate::ops::library::curve::curves(conn)?;
        let page = CurationPage::new(&head, &report)
            .with_curves(&curves)?
            .render()
            .map_err(|e| Error::refused(format!("cannot render the report page: {e}")))?;
        crate::output::write(path, crate::output::Kind::PoolCheck, force, page.as_bytes())?;
    }
    let listing = listing(&report, all);
    if ctx.format == Format::Human {
        print!("{}", human_text(&listing));
        if let Some(path) = html {
            println!("report page written to {}", path.display());
        }
        return Ok(());
    }
    emit(ctx.format, &listing, &report)
}

fn listing(report: &Report, all: bool) -> Listing {
    let mut listing = Listing::new(&["cost", "copies", "class", "flag", "why", "pool cards"])
        .titled(format!("Pool check: {}", curation_summary(report)));
    let shown: Vec<&CheckedGroup> = if all { report.groups.iter().collect() } else { report.flagged() };
    for g in shown {
        let cards = short_list(&g.group.names, 3);
        let base = |flag: &str, why: &str| {
            vec![
                g.label(),
                g.group.copies.to_string(),
                g.group.class_size.to_string(),
                flag.to_string(),
                why.to_string(),
                cards.clone(),
            ]
        };
        if g.flags.is_empty() {
            listing.row(base("", ""));
        }
        for f in &g.flags {
            listing.row(base(flag_word(f.flag), &f.reason));
        }
    }
    let f = &mut listing.footer;
    f.push(format!(
        "class = real cards a copy may be declared as under {} binding (banned and excluded kinds left out)",
        report.binding
    ));
    f.push(format!(
        "lands kept apart: {} ({} basic); excluded from building: {}, {}",
        crate::domain::words::count(report.lands.copies, "copy"),
        report.basic_lands,
        crate::domain::words::count(report.excluded.cards, "card"),
        crate::domain::words::count(report.excluded.copies, "copy")
    ));
    let banned = report.banned_notes();
    if !banned.is_empty() {
        f.push(format!(
            "information, not abusive (no player may declare a banned card): banned cards in {}{}",
            crate::domain::words::count(banned.len(), "class"),
            if all { ":" } else { " (`pool check --all` lists them)" }
        ));
        if all {
            f.extend(banned.iter().map(|n| format!("  {n}")));
        }
    }
    if !all {
        f.push("`pool check --all` lists every cost; `pool exclude NAME` leaves a card out of building".into());
    }
    listing
}
