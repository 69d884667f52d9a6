//! Pairings per round: by table, and by name for players looking for their seat.

use super::{Frame, Page, Pages, Site};
use crate::error::Result;
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
pub fn result_text(site: &Site, m: &Match) -> String {
    let reason = m.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
    match (m.outcome, m.b) {
        (Some(Outcome::A), _) => format!("{} won{reason}", site.name(m.a)),
        (Some(Outcome::B), Some(b)) => format!("{} won{reason}", site.name(b)),
        (Some(Outcome::Draw), _) => format!("draw{reason}"),
        _ => String::new(),
    }
}

fn points_of(points: &Option<HashMap<PlayerId, u32>>, p: PlayerId) -> String {
    points.as_ref().and_then(|m| m.get(&p)).map(u32::to_string).unwrap_or_default()
}

fn rounds(site: &Site) -> std::ops::RangeInclusive<u32> {
    1..=site.results.paired
}

/// `round-N-pairings.html`: the tables of each paired round, with points before the round.
pub fn by_table(site: &Site, out: &mut Pages) -> Result<()> {
    for r in rounds(site) {
        {
            let points = site.points_before(r);
            let side = |p: PlayerId, lib| {
                let pts = points_of(&points, p);
                let library = site.library(lib);
                let meta = [
                    (!pts.is_empty()).then(|| format!("{pts} {}", if pts == "1" { "pt" } else { "pts" })),
                    (!library.is_empty()).then(|| format!("library {library}")),
                ];
                Side {
                    name: site.name(p).to_string(),
                    meta: meta.into_iter().flatten().collect::<Vec<_>>().join(" · "),
                }
            };
            let mut page = ByTablePage {
                frame: site.frame(format!("Round {r}: pairings")),
                round: r,
                tables: Vec::new(),
                byes: Vec::new(),
            };
            for m in site.round_matches(r) {
                match (m.b, m.table) {
                    (Some(b), Some(table)) => page.tables.push(Table {
                        table,
                        a: side(m.a, m.a_library),
                        b: side(b, m.b_library),
                        result: result_text(site, m),
                    }),
                    _ => page.byes.push(site.name(m.a).to_string()),
                }
            }
            out.put(Page::of_round(r, "pairings", "pairings", &page)?)?;
        }
    }
    Ok(())
}

/// `round-N-pairings-by-name.html`: every player of each paired round, alphabetically, with their seat.
pub fn by_name(site: &Site, out: &mut Pages) -> Result<()> {
    for r in rounds(site) {
        {
            let points = site.points_before(r);
            let mut seats = Vec::new();
            for m in site.round_matches(r) {
                let sides = [(m.a, m.b, m.a_library), (m.b.unwrap_or(m.a), Some(m.a), m.b_library)];
                for (me, opp, lib) in sides.into_iter().take(if m.is_bye() { 1 } else { 2 }) {
                    seats.push(Seat {
                        name: site.name(me).to_string(),
                        table: super::table_text(m.table),
                        library: site.library(lib),
                        opponent: opp.map(|o| site.name(o).to_string()).unwrap_or_default(),
                        points: points_of(&points, me),
                    });
                }
            }
            seats.sort_by_cached_key(|s| (crate::domain::names::fold(&s.name), s.name.clone()));
            let page = ByNamePage { frame: site.frame(format!("Round {r}: pairings by name")), round: r, seats };
            out.put(Page::of_round(r, "pairings-by-name", "by name", &page)?)?;
        }
    }
    Ok(())
}
