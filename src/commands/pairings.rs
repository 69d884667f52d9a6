//! `pairings`: a round by table and alphabetically by player (byes last), as JSON or CSV, or as
//! printable pages (see [`crate::ops::pairings`]).

use super::Ctx;
use crate::cli::round::{PairingsArgs, PairingsBy, WallSort};
use crate::error::{Error, Result};
use crate::ops::pairings::{self, Pairings, PlayerLine, TableLine};
use crate::render::pairings::{PairingsPage, WallPage};
use crate::render::{Format, Listing, emit, emit_sorted, human_text};

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
    match (ctx.format, args.by) {
        (Format::Json, _) => emit_sorted(ctx.format, Listing::default, &page.doc()),
        (Format::Quiet, _) => Ok(()),
        (Format::Csv, by) => {
            emit(ctx.format, &listing(page, by.unwrap_or(PairingsBy::Name), true), &serde_json::Value::Null)
        }
        (Format::Human, Some(by)) => {
            let next = page.has_next();
            emit(ctx.format, &listing(page, by, next), &serde_json::Value::Null).and_then(|()| wrote(&args))
        }
        (Format::Human, None) => {
            let next = page.has_next();
            let (by_table, by_name) = both(page, next);
            print!("{}\n{}", human_text(&by_table), human_text(&by_name));
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
fn listing(page: Pairings, by: PairingsBy, next: bool) -> Listing {
    let title = title(&page);
    match by {
        PairingsBy::Table => by_table(title, page.tables, &page.players, (&page.carry, &page.away, &page.idle)),
        PairingsBy::Name => by_name(title, page.players, next),
    }
}

/// Both listings (by table, then by player).
fn both(page: Pairings, next: bool) -> (Listing, Listing) {
    let title = title(&page);
    let tables = by_table(title.clone(), page.tables, &page.players, (&page.carry, &page.away, &page.idle));
    (tables, by_name(title, page.players, next))
}

fn title(page: &Pairings) -> String {
    format!("{} — round {} ({})", page.event, page.round, page.movement)
}

/// The tables in order, the byes below.
fn by_table(
    title: String,
    tables: Vec<TableLine>,
    players: &[PlayerLine],
    (carry, away, idle): (&[pairings::Carry], &[String], &[u32]),
) -> Listing {
    let mut l = Listing::new(&["table", "seat A", "library", "seat B", "library", "result"])
        .titled(format!("{title}, by table"));
    l.rows.reserve(tables.len());
    for t in tables {
        l.row(vec![t.table.to_string(), t.a, t.a_library, t.b, t.b_library, t.result]);
    }
    let byes: Vec<&str> = players.iter().filter(|p| p.table.is_none()).map(|p| p.name.as_str()).collect();
    if !byes.is_empty() {
        l.footer.push(format!("bye (a win, 3 points): {}", byes.join(", ")));
    }
    if !carry.is_empty() {
        l.footer.push(format!("{}: {}", pairings::CARRY_RULE, pairings::carry_words(carry)));
    }
    l.footer.extend(away.iter().cloned());
    if !idle.is_empty() {
        l.footer.push(pairings::idle_words(idle));
    }
    l
}

/// The players alphabetically (byes last); `next` adds the next-round column.
fn by_name(title: String, players: Vec<PlayerLine>, next: bool) -> Listing {
    let headers: &[&str] = &["player", "table", "seat", "library", "opponent", "next"];
    let mut l = Listing::new(&headers[..if next { 6 } else { 5 }]).titled(format!("{title}, by player"));
    l.rows.reserve(players.len());
    for p in players {
        let (table, seat, next_words) = (p.table_words(), p.seat_words(), next.then(|| p.next_words()));
        let library = if p.table.is_some() { p.library } else { String::new() };
        let mut row = Vec::with_capacity(6);
        row.extend([p.name, table, seat, library, p.opponent]);
        row.extend(next_words);
        l.row(row);
    }
    l
}
