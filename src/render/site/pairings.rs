//! Pairings per round: by table, and by name for players looking for their seat.

use super::{Event, Frame, Page};
use crate::error::Result;
use crate::render::pairings::{WallPage, WallSeat};
use crate::store::PlayerId;
use crate::store::matches::{Match, Outcome};
use askama::Template;
use std::collections::HashMap;

/// One side of a table: the name, and its points before the round and library in small print.
struct Side {
    name: String,
    meta: String,
}

/// One table as shown.
struct Table {
    table: u32,
    a: Side,
    b: Side,
    result: String,
}

#[derive(Template)]
#[template(path = "site/pairings.html")]
struct ByTablePage {
    frame: Frame,
    round: u32,
    tables: Vec<Table>,
    byes: Vec<String>,
    /// The libraries carried for players who stay at one table, in words (empty when none).
    carry: String,
    /// The tables with libraries and no game this round, in words (empty when none).
    idle: String,
}

/// One player's seat as shown.
struct Seat {
    name: String,
    table: String,
    library: String,
    opponent: String,
    points: String,
}

#[derive(Template)]
#[template(path = "site/pairings_by_name.html")]
struct ByNamePage {
    frame: Frame,
    round: u32,
    seats: Vec<Seat>,
}

/// What a recorded result says, for people (`Ana won (life)`), or empty while playing.
pub(super) fn result_text(site: &Event, m: &Match) -> String {
    let reason = m.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
    match (m.outcome, m.b) {
        (Some(Outcome::A), _) => format!("{} won{reason}", site.name(m.a)),
        (Some(Outcome::B), Some(b)) => format!("{} won{reason}", site.name(b)),
        (Some(Outcome::Draw), _) => format!("draw{reason}"),
        _ => String::new(),
    }
}

fn points_of(points: Option<&HashMap<PlayerId, u32>>, p: PlayerId) -> String {
    points.and_then(|m| m.get(&p)).map(u32::to_string).unwrap_or_default()
}

/// `round-N-pairings.html`: the tables of paired round `r`, with `points` before the round (none when the
/// round before is not played).
pub fn by_table(ev: &Event, r: u32, points: Option<&HashMap<PlayerId, u32>>) -> Result<Page> {
    let side = |p: PlayerId, lib| {
        // "3 pts · library 2A", either part left out when unknown.
        let mut meta = String::new();
        if let Some(pts) = points.and_then(|m| m.get(&p)) {
            meta = format!("{pts} {}", if *pts == 1 { "pt" } else { "pts" });
        }
        let library = ev.label(lib);
        if !library.is_empty() {
            if !meta.is_empty() {
                meta.push_str(" · ");
            }
            meta.push_str("library ");
            meta.push_str(library);
        }
        Side { name: ev.name(p).to_string(), meta }
    };
    let carry = crate::ops::pairings::carry_words(&ev.carried(r));
    let frame = ev.frame(format!("Round {r}: pairings"));
    let idle = crate::ops::pairings::idle_words(&ev.idle(r));
    let mut page = ByTablePage { frame, round: r, tables: Vec::new(), byes: Vec::new(), carry, idle };
    for m in ev.round_matches(r) {
        match (m.b, m.table) {
            (Some(b), Some(table)) => page.tables.push(Table {
                table,
                a: side(m.a, m.a_library),
                b: side(b, m.b_library),
                result: result_text(ev, m),
            }),
            _ => page.byes.push(ev.name(m.a).to_string()),
        }
    }
    super::of_round(r, "pairings", "pairings", &page)
}

/// `round-N-pairings-by-name.html`: every player of paired round `r`, alphabetically, with their seat.
pub fn by_name(ev: &Event, r: u32, points: Option<&HashMap<PlayerId, u32>>) -> Result<Page> {
    // Each seat as (player, opponent, library, table), sorted by folded name, then name (each player's name
    // folded once for the whole site), then drawn.
    let mut seats = Vec::new();
    for m in ev.round_matches(r) {
        let sides = [(m.a, m.b, m.a_library), (m.b.unwrap_or(m.a), Some(m.a), m.b_library)];
        for (me, opp, lib) in sides.into_iter().take(if m.is_bye() { 1 } else { 2 }) {
            seats.push((ev.folded(me), ev.name(me), me, opp, lib, m.table));
        }
    }
    seats.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    let seats = seats
        .into_iter()
        .map(|(_, name, me, opp, lib, table)| Seat {
            name: name.to_string(),
            table: super::table_text(table),
            library: ev.library(lib),
            opponent: opp.map(|o| ev.name(o).to_string()).unwrap_or_default(),
            points: points_of(points, me),
        })
        .collect();
    let page = ByNamePage { frame: ev.frame(format!("Round {r}: pairings by name")), round: r, seats };
    super::of_round(r, "pairings-by-name", "by name", &page)
}

/// `round-N-wall.html` (the judges' site): the wall sheet of paired round `r` to print and post, as
/// `pairings --html FILE --wall` writes it.
pub fn wall(ev: &Event, r: u32) -> Result<Page> {
    let mut seats = Vec::new();
    for m in ev.round_matches(r) {
        match m.b {
            Some(b) => {
                seats.push(WallSeat { id: m.a.0, name: ev.name(m.a), table: m.table, seat: Some('A') });
                seats.push(WallSeat { id: b.0, name: ev.name(b), table: m.table, seat: Some('B') });
            }
            None => seats.push(WallSeat { id: m.a.0, name: ev.name(m.a), table: None, seat: None }),
        }
    }
    let head = ev.frame(format!("Round {r}: pairings by name")).head;
    let mut page = WallPage::of_seats(head, ev.settings.name().to_string(), r, seats, false);
    page.carry = crate::ops::pairings::carry_words(&ev.carried(r));
    super::of_round(r, "wall", "wall sheet", &page)
}
