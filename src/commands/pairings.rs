//! `pairings`: a round by table and alphabetically by player (byes last), as JSON or CSV, or as
//! printable pages (see [`crate::ops::pairings`]).

use super::Ctx;
use crate::cli::round::{PairingsArgs, PairingsBy, WallSort};
use crate::error::{Error, Result};
use crate::ops::pairings::{self, Pairings};
use crate::render::pairings::{PairingsPage, WallPage};
use crate::render::{Format, Listing, emit, human_text};

/// Runs `pairings`.
pub fn run(ctx: &Ctx, args: PairingsArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let page = pairings::pairings(&snapshot, args.round)?;
    if let Some(file) = &args.html {
        let head = crate::ops::event::print_head(&snapshot)?;
        let html = if args.wall {
            let by_last = args.sort == Some(WallSort::Last);
            WallPage::new(&page, head.line(Some(page.round), "pairings by name"), by_last).render()
        } else {
            let mut print = PairingsPage::from(page.clone());
            print.head = head.line(Some(page.round), "pairings");
            print.render()
        }
        .map_err(|e| Error::refused(format!("cannot render the pairings page: {e}")))?;
        crate::output::write(file, crate::output::Kind::Pairings, args.force, html.as_bytes())?;
    }
    // The JSON document only when it is printed.
    let doc = if ctx.format == Format::Json { page.json() } else { serde_json::Value::Null };
    match (ctx.format, args.by) {
        (Format::Json | Format::Quiet, _) => emit(ctx.format, &Listing::default(), &doc),
        (Format::Csv, by) => emit(ctx.format, &listing(&page, by.unwrap_or(PairingsBy::Name), true), &doc),
        (Format::Human, Some(by)) => {
            emit(ctx.format, &listing(&page, by, page.has_next()), &doc).and_then(|()| wrote(&args))
        }
        (Format::Human, None) => {
            let by_table = human_text(&listing(&page, PairingsBy::Table, false));
            print!("{by_table}\n{}", human_text(&listing(&page, PairingsBy::Name, page.has_next())));
            wrote(&args)
        }
    }
}

fn wrote(args: &PairingsArgs) -> Result<()> {
    if let Some(file) = &args.html {
        if args.wall {
            println!("wrote {} (the wall sheet: every player by name, then table; print it)", file.display());
        } else {
            println!("wrote {} (by table, then by player; print it or open it on a phone)", file.display());
        }
    }
    Ok(())
}

/// The listing for people or CSV; `next` adds the next-round column.
fn listing(page: &Pairings, by: PairingsBy, next: bool) -> Listing {
    let title = format!("{} — round {} ({})", page.event, page.round, page.movement);
    match by {
        PairingsBy::Table => {
            let mut l = Listing::new(&["table", "seat A", "library", "seat B", "library", "result"])
                .titled(format!("{title}, by table"));
            for t in &page.tables {
                l.row(vec![
                    t.table.to_string(),
                    t.a.clone(),
                    t.a_library.clone(),
                    t.b.clone(),
                    t.b_library.clone(),
                    t.result.clone(),
                ]);
            }
            let byes: Vec<&str> = page.players.iter().filter(|p| p.table.is_none()).map(|p| p.name.as_str()).collect();
            if !byes.is_empty() {
                l.footer.push(format!("bye (a win, 3 points): {}", byes.join(", ")));
            }
            l
        }
        PairingsBy::Name => {
            let headers: &[&str] = &["player", "table", "seat", "library", "opponent", "next"];
            let mut l = Listing::new(&headers[..if next { 6 } else { 5 }]).titled(format!("{title}, by player"));
            for p in &page.players {
                let mut row = vec![
                    p.name.clone(),
                    p.table_words(),
                    p.seat_words(),
                    if p.table.is_some() { p.library.clone() } else { String::new() },
                    p.opponent.clone(),
                ];
                if next {
                    row.push(p.next_words());
                }
                l.row(row);
            }
            l
        }
    }
}
