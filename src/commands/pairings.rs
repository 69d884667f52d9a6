//! `pairings`: a round by table and alphabetically by player (byes last), as JSON or CSV, or as
//! printable pages; each player's next seat when the movement is fixed.

use super::Ctx;
use super::played::{Played, Setup, Tables, seats_of};
use crate::cli::round::{PairingsArgs, PairingsBy};
use crate::domain::movement::{MovementKind, Next, next_source};
use crate::domain::names;
use crate::error::{Error, Result};
use crate::render::pairings::{PairingsPage, PlayerLine, TableLine};
use crate::render::{Format, Listing, emit, human_text};
use crate::store::matches::{self, Match, Outcome};
use crate::store::{event as store_event, round};
use rusqlite::Connection;
use std::collections::BTreeMap;

/// Seat of each player (by index) in the next round: (table, seat), or None for a bye.
type NextSeats = BTreeMap<usize, Option<(u32, char)>>;

/// Runs `pairings`.
pub fn run(ctx: &Ctx, args: PairingsArgs) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let current = round::current(conn)?;
    if current == 0 {
        return Err(Error::refused("no round has been paired yet: pair one with `mmjudge round pair`"));
    }
    let number = args.round.unwrap_or(current);
    if number == 0 || number > current {
        return Err(Error::refused(format!("round {number} has not been paired (rounds 1-{current} have)")));
    }
    let page = build(conn, number, current)?;
    if let Some(file) = &args.html {
        let html = page.render().map_err(|e| Error::refused(format!("cannot render the pairings page: {e}")))?;
        crate::output::write(file, crate::output::Kind::Pairings, args.force, html.as_bytes())?;
    }
    let doc = page.json();
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
        println!("wrote {} (by table, then by player; print it or open it on a phone)", file.display());
    }
    Ok(())
}

/// Everything shown about round `number`.
fn build(conn: &Connection, number: u32, current: u32) -> Result<PairingsPage> {
    let played = Played::load(conn, current)?;
    let tables = Tables::load(conn)?;
    let setup = Setup::load(conn)?;
    let all = matches::of_round(conn, number)?;
    let movement = round::get(conn, number)?.map(|r| r.movement).unwrap_or_default();
    let next = next_seats(&played, &setup, &tables, number, current);
    let name = |id| played.index_of(id).map(|i| played.players[i].name.clone()).unwrap_or_default();
    let table_lines: Vec<TableLine> = all
        .iter()
        .filter(|m| !m.is_bye())
        .map(|m| TableLine {
            table: m.table.unwrap_or(0),
            a: name(m.a),
            a_library: tables.label(m.a_library),
            b: m.b.map(name).unwrap_or_default(),
            b_library: tables.label(m.b_library),
            result: result_words(m),
        })
        .collect();
    let mut players: Vec<PlayerLine> = Vec::new();
    for m in &all {
        for (id, seat) in std::iter::once((m.a, 'A')).chain(m.b.map(|b| (b, 'B'))) {
            let index = played.index_of(id);
            let next = index.and_then(|i| next.get(&i).copied());
            players.push(PlayerLine {
                id: id.0,
                name: name(id),
                table: m.table,
                seat: if m.is_bye() { None } else { Some(seat) },
                library: tables.label(if seat == 'A' { m.a_library } else { m.b_library }),
                opponent: m.opponent(id).map(name).unwrap_or_default(),
                next,
            });
        }
    }
    players.sort_by_cached_key(|p| (p.table.is_none(), names::fold(&p.name), p.id));
    let event = store_event::values(conn)?.name().to_string();
    Ok(PairingsPage { event, round: number, movement, tables: table_lines, players })
}

fn result_words(m: &Match) -> String {
    match m.outcome {
        Some(Outcome::A) => "A won".into(),
        Some(Outcome::B) => "B won".into(),
        Some(Outcome::Draw) => "draw".into(),
        None => String::new(),
    }
}

/// Where each player goes in the round after `number`: the round itself once paired, else the fixed
/// plan's next round while the plan still applies (nothing for Swiss).
fn next_seats(played: &Played, setup: &Setup, tables: &Tables, number: u32, current: u32) -> NextSeats {
    if number < current {
        return played.rounds.get(number as usize).map(seats_of).unwrap_or_default();
    }
    if number >= setup.rounds || !setup.fixed || setup.movement == MovementKind::Swiss {
        return NextSeats::new();
    }
    let active = played.active_in(number + 1);
    match next_source(&setup.situation(played, &active, tables.count, false)) {
        Ok(Next::Fixed(planned)) => seats_of(&planned.round),
        _ => NextSeats::new(),
    }
}

/// The listing for people or CSV; `next` adds the next-round column.
fn listing(page: &PairingsPage, by: PairingsBy, next: bool) -> Listing {
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
