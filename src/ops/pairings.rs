//! The pairings of a round: by table and by player (byes last), with each player's next seat when the
//! movement is fixed.

use crate::domain::movement::{MovementKind, Next, next_source};
use crate::domain::names;
use crate::error::{Error, Result};
use crate::ops::played::{Played, Setup, Tables, seats_of};
use crate::store::matches::{self, Match, Outcome};
use crate::store::{PlayerId, event as store_event, player, round};
use rusqlite::Connection;
use std::collections::HashMap;

/// Seat of each player in the next round: (table, seat), or None for a bye.
type NextSeats = HashMap<PlayerId, Option<(u32, char)>>;

/// A round's pairings.
#[derive(Debug, Clone, PartialEq)]
pub struct Pairings {
    /// Event name.
    pub event: String,
    /// Round number.
    pub round: u32,
    /// The movement that paired it.
    pub movement: String,
    /// Tables in order.
    pub tables: Vec<TableLine>,
    /// Players alphabetically, byes last.
    pub players: Vec<PlayerLine>,
}

/// One table of the round.
#[derive(Debug, Clone, PartialEq)]
pub struct TableLine {
    /// Table number.
    pub table: u32,
    /// Player at seat A.
    pub a: String,
    /// Seat A's library ("3A").
    pub a_library: String,
    /// Player at seat B.
    pub b: String,
    /// Seat B's library.
    pub b_library: String,
    /// "A won", "B won", "draw", or empty while playing.
    pub result: String,
}

/// One player of the round.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerLine {
    /// Player id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Table, or None for a bye.
    pub table: Option<u32>,
    /// Seat 'A' or 'B' (None for a bye).
    pub seat: Option<char>,
    /// The library played ("3A", or a sealed library).
    pub library: String,
    /// The opponent's name (empty for a bye).
    pub opponent: String,
    /// Next round: Some(Some((table, seat))), Some(None) for a bye, None when not known.
    pub next: Option<Option<(u32, char)>>,
}

impl Pairings {
    /// Whether any player has a next seat to show.
    pub fn has_next(&self) -> bool {
        self.players.iter().any(|p| p.next.is_some())
    }

    /// The JSON document (docs/json.md, `pairings`).
    pub fn json(&self) -> serde_json::Value {
        let tables: Vec<serde_json::Value> = self
            .tables
            .iter()
            .map(|t| {
                serde_json::json!({
                    "table": t.table,
                    "a": { "name": t.a, "library": t.a_library },
                    "b": { "name": t.b, "library": t.b_library },
                    "result": if t.result.is_empty() { None } else { Some(&t.result) },
                })
            })
            .collect();
        let players: Vec<serde_json::Value> = self
            .players
            .iter()
            .map(|p| {
                let next = match p.next {
                    Some(Some((t, s))) => serde_json::json!({ "table": t, "seat": s.to_string(), "bye": false }),
                    Some(None) => serde_json::json!({ "table": null, "seat": null, "bye": true }),
                    None => serde_json::Value::Null,
                };
                serde_json::json!({
                    "id": p.id, "name": p.name, "bye": p.table.is_none(), "table": p.table,
                    "seat": p.seat.map(String::from),
                    "library": if p.table.is_some() { Some(&p.library) } else { None },
                    "opponent": if p.opponent.is_empty() { None } else { Some(&p.opponent) },
                    "next": next,
                })
            })
            .collect();
        serde_json::json!({
            "event": self.event, "round": self.round, "movement": self.movement,
            "tables": tables, "players": players,
        })
    }
}

/// `pairings [--round N]`: round `round` (the current round when None) by table and by player.
pub fn pairings(conn: &Connection, round: Option<u32>) -> Result<Pairings> {
    let current = round::current(conn)?;
    if current == 0 {
        return Err(Error::refused("no round has been paired yet: pair one with `mmjudge round pair`"));
    }
    let number = round.unwrap_or(current);
    if number == 0 {
        return Err(Error::bad_input(format!("round {number} has not been paired (rounds 1-{current} have)")));
    }
    if number > current {
        return Err(Error::not_found(format!("round {number} has not been paired (rounds 1-{current} have)")));
    }
    build(conn, number, current)
}

/// Everything shown about round `number`. Only the fixed plan's next round needs the event's history; an
/// earlier round's next seats are the next round's own, and the rest needs nothing but this round.
fn build(conn: &Connection, number: u32, current: u32) -> Result<Pairings> {
    let tables = Tables::load(conn)?;
    let setup = Setup::load(conn)?;
    let all = matches::of_round(conn, number)?;
    let movement = round::get(conn, number)?.map(|r| r.movement).unwrap_or_default();
    let planned = number == current
        && number < setup.rounds
        && setup.fixed
        && setup.movement != MovementKind::Swiss
        && first_round_planned(conn)?;
    let (players, next) = if number < current {
        (player::all(conn)?, seats_in(&matches::of_round(conn, number + 1)?))
    } else if planned {
        let played = Played::load(conn, current)?;
        let next = planned_seats(&played, &setup, &tables, number);
        (played.players, next)
    } else {
        (player::all(conn)?, NextSeats::new())
    };
    let names: HashMap<PlayerId, String> = players.into_iter().map(|p| (p.id, p.name)).collect();
    let name = |id| names.get(&id).cloned().unwrap_or_default();
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
            players.push(PlayerLine {
                id: id.0,
                name: name(id),
                table: m.table,
                seat: if m.is_bye() { None } else { Some(seat) },
                library: tables.label(if seat == 'A' { m.a_library } else { m.b_library }),
                opponent: m.opponent(id).map(name).unwrap_or_default(),
                next: if names.contains_key(&id) { next.get(&id).copied() } else { None },
            });
        }
    }
    players.sort_by_cached_key(|p| (p.table.is_none(), names::fold(&p.name), p.id));
    let event = store_event::values(conn)?.name().to_string();
    Ok(Pairings { event, round: number, movement, tables: table_lines, players })
}

/// Whether round 1 was paired by a planned movement. An event whose first round was Swiss or auto (or is
/// not known) goes on Swiss, so no plan gives the next seats and the history need not be read (the same
/// test as [`next_source`]'s, made before loading every round).
fn first_round_planned(conn: &Connection) -> Result<bool> {
    let first: Option<MovementKind> = round::get(conn, 1)?.and_then(|r| r.movement.parse().ok());
    Ok(!matches!(first.unwrap_or(MovementKind::Swiss), MovementKind::Swiss | MovementKind::Auto))
}

fn result_words(m: &Match) -> String {
    match m.outcome {
        Some(Outcome::A) => "A won".into(),
        Some(Outcome::B) => "B won".into(),
        Some(Outcome::Draw) => "draw".into(),
        None => String::new(),
    }
}

/// Each player's seat at a round already paired (byes: a match without a table or a seat B).
fn seats_in(round: &[Match]) -> NextSeats {
    let mut seats = NextSeats::new();
    for m in round {
        match (m.table, m.b) {
            (Some(table), Some(b)) => {
                seats.insert(m.a, Some((table, 'A')));
                seats.insert(b, Some((table, 'B')));
            }
            _ => {
                seats.insert(m.a, None);
            }
        }
    }
    seats
}

/// Where each player goes in the round after `number` (the current round) by the fixed plan, while the plan
/// still applies.
fn planned_seats(played: &Played, setup: &Setup, tables: &Tables, number: u32) -> NextSeats {
    let active = played.active_in(number + 1);
    match next_source(&setup.situation(played, &active, tables.count, false)) {
        Ok(Next::Fixed(planned)) => seats_of(&planned.round)
            .into_iter()
            .filter_map(|(i, seat)| Some((played.players.get(i)?.id, seat)))
            .collect(),
        _ => NextSeats::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;

    #[test]
    fn a_round_by_table_and_by_player_and_the_rounds_it_refuses() -> Result<()> {
        let (store, _, _) = crate::store::memory_with_one_match()?;
        let view = pairings(store.conn(), None)?;
        assert_eq!((view.round, view.tables.len()), (1, 1));
        assert_eq!((view.tables[0].a.as_str(), view.tables[0].b.as_str()), ("Ana", "Bo"));
        let seats: Vec<(&str, Option<char>, &str)> =
            view.players.iter().map(|p| (p.name.as_str(), p.seat, p.opponent.as_str())).collect();
        assert_eq!(seats, [("Ana", Some('A'), "Bo"), ("Bo", Some('B'), "Ana")]);
        assert_eq!(view.json()["tables"][0]["a"]["name"], "Ana");
        assert_eq!(pairings(store.conn(), Some(2)).map_err(|e| e.kind()).err(), Some(Kind::NotFound));
        assert_eq!(pairings(store.conn(), Some(0)).map_err(|e| e.kind()).err(), Some(Kind::BadInput));
        Ok(())
    }
}
