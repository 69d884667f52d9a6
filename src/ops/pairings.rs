//! The pairings of a round: by table and by player (byes last), with each player's next seat when the
//! movement is fixed.

use crate::domain::movement::{MovementKind, Next, next_source};
use crate::domain::names;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::played::{Played, Setup, Tables, seats_of};
use crate::store::matches::{self, Outcome, SeatLine, Seating};
use crate::store::{PlayerId, event as store_event, round};
use rusqlite::Connection;
use serde::Serialize;
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
    /// Libraries carried to another table this round for players who stay at one table.
    pub carry: Vec<Carry>,
    /// Players who stay at one table but play at another this round (two of them met), in words.
    pub away: Vec<String>,
    /// The tables with libraries where no game is played this round (see [`idle_words`]).
    pub idle: Vec<u32>,
}

/// The tables with libraries where no game is played in round `round` (fewer games than tables, or the pairing
/// chose other tables' libraries), in order. A table whose game went to a player who stays at another table is
/// not idle: its libraries are carried there (see [`carried`]), not left where they are.
pub fn idle_tables(conn: &Connection, round: u32) -> Result<Vec<u32>> {
    let round = matches::of_round(conn, round)?;
    let played: std::collections::HashSet<u32> = round.iter().filter_map(|m| m.table).collect();
    let used: std::collections::HashSet<crate::store::LibraryId> =
        round.iter().flat_map(|m| [m.a_library, m.b_library]).flatten().collect();
    let carried_away: std::collections::HashSet<u32> = crate::store::library::fixed_seats(conn)?
        .into_iter()
        .filter_map(|(table, _, id)| used.contains(&id).then_some(table))
        .collect();
    Ok(crate::store::library::fixed_tables(conn)?
        .into_iter()
        .filter(|t| !played.contains(t) && !carried_away.contains(t))
        .collect())
}

/// "no game at table 8 this round (fewer games than tables with libraries): its libraries stay there" (empty
/// when every table with libraries has a game).
pub fn idle_words(idle: &[u32]) -> String {
    let numbers: Vec<String> = idle.iter().map(u32::to_string).collect();
    match numbers.as_slice() {
        [] => String::new(),
        [one] => format!(
            "no game at table {one} this round (fewer games than tables with libraries): its libraries stay there"
        ),
        [rest @ .., last] => format!(
            "no game at tables {} and {last} this round (fewer games than tables with libraries): their libraries \
             stay there",
            rest.join(", ")
        ),
    }
}

/// A library carried from its own table to the table where its game is played (for a player who stays at
/// one table), as the floor judges are told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Carry {
    // Fields in alphabetical order, as the pairings document writes its keys (see `PairingsDoc`).
    /// Its own table.
    pub from: u32,
    /// The library ("5A").
    pub library: String,
    /// Where it is played this round.
    pub to: u32,
}

/// What the floor judges are told before the carried libraries, wherever they are listed.
pub const CARRY_RULE: &str =
    "libraries to carry (a player stays at one table; each library goes back to its own table after the round)";

/// "5A, 5B from table 5 to table 3; 3A, 3B from table 3 to table 5" (empty when nothing is carried).
pub fn carry_words(carry: &[Carry]) -> String {
    let mut parts: Vec<(String, u32, u32)> = Vec::new();
    for c in carry {
        match parts.last_mut() {
            Some((libs, from, to)) if *from == c.from && *to == c.to => {
                libs.push_str(", ");
                libs.push_str(&c.library);
            }
            _ => parts.push((c.library.clone(), c.from, c.to)),
        }
    }
    parts
        .iter()
        .map(|(libs, from, to)| format!("{libs} from table {from} to table {to}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The libraries carried in round `round` (see [`Carry`]), by the table they are carried to.
pub fn carried(conn: &Connection, round: u32) -> Result<Vec<Carry>> {
    Ok(matches::carried_libraries(conn, round)?
        .into_iter()
        .map(|(from, seat, to)| Carry { library: format!("{from}{seat}"), from, to })
        .collect())
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
        serde_json::to_value(self.doc()).unwrap_or_default()
    }

    /// The JSON document as a typed value that borrows the pairings (what [`Pairings::json`] builds), to
    /// serialize without building it.
    pub fn doc(&self) -> PairingsDoc<'_> {
        PairingsDoc {
            away: &self.away,
            carry: &self.carry,
            event: &self.event,
            idle: &self.idle,
            movement: &self.movement,
            players: PlayersDoc(&self.players),
            round: self.round,
            tables: TablesDoc(&self.tables),
        }
    }
}

// The documents below declare their fields in alphabetical order: the order `serde_json::Value` keeps its keys
// in, so writing them directly prints the same bytes as writing their `Value`.

/// The `pairings` JSON document (docs/json.md).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PairingsDoc<'a> {
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    away: &'a [String],
    #[serde(skip_serializing_if = "<[Carry]>::is_empty")]
    carry: &'a [Carry],
    event: &'a str,
    #[serde(skip_serializing_if = "<[u32]>::is_empty")]
    idle: &'a [u32],
    movement: &'a str,
    players: PlayersDoc<'a>,
    round: u32,
    tables: TablesDoc<'a>,
}

/// The tables of the document, serialized one by one.
#[derive(Debug, Clone, Copy)]
struct TablesDoc<'a>(&'a [TableLine]);

/// The players of the document, serialized one by one.
#[derive(Debug, Clone, Copy)]
struct PlayersDoc<'a>(&'a [PlayerLine]);

#[derive(Serialize)]
struct TableDoc<'a> {
    a: SeatDoc<'a>,
    b: SeatDoc<'a>,
    result: Option<&'a str>,
    table: u32,
}

#[derive(Serialize)]
struct SeatDoc<'a> {
    library: &'a str,
    name: &'a str,
}

#[derive(Serialize)]
struct PlayerDoc<'a> {
    bye: bool,
    id: i64,
    library: Option<&'a str>,
    name: &'a str,
    next: Option<NextDoc>,
    opponent: Option<&'a str>,
    seat: Option<char>,
    table: Option<u32>,
}

#[derive(Serialize)]
struct NextDoc {
    bye: bool,
    seat: Option<char>,
    table: Option<u32>,
}

impl Serialize for TablesDoc<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|t| TableDoc {
            a: SeatDoc { library: &t.a_library, name: &t.a },
            b: SeatDoc { library: &t.b_library, name: &t.b },
            result: Some(t.result.as_str()).filter(|r| !r.is_empty()),
            table: t.table,
        }))
    }
}

impl Serialize for PlayersDoc<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|p| PlayerDoc {
            bye: p.table.is_none(),
            id: p.id,
            library: p.table.map(|_| p.library.as_str()),
            name: &p.name,
            next: p.next.map(|n| NextDoc { bye: n.is_none(), seat: n.map(|(_, s)| s), table: n.map(|(t, _)| t) }),
            opponent: Some(p.opponent.as_str()).filter(|o| !o.is_empty()),
            seat: p.seat,
            table: p.table,
        }))
    }
}

/// `pairings [--round N]`: round `round` (the current round when None) by table and by player.
pub fn pairings(conn: &Connection, round: Option<u32>) -> Result<Pairings> {
    let current = round::current(conn)?;
    if current == 0 {
        return Err(Refusal::refused("no round has been paired yet").way_out(WayOut::PairOne).into());
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

/// Everything shown about round `number`: its matches with their players' names and libraries' labels (one
/// query), and the next seats. Only the fixed plan's next round needs the event's history; an earlier round's
/// next seats are the next round's own, and the rest needs nothing but this round.
fn build(conn: &Connection, number: u32, current: u32) -> Result<Pairings> {
    let lines = matches::pairing_lines(conn, number)?;
    let movement = round::get(conn, number)?.map(|r| r.movement).unwrap_or_default();
    let setup = Setup::load(conn)?;
    let next = if number < current {
        seats_in(&matches::seatings_of_round(conn, number + 1)?)
    } else if number < setup.rounds
        && setup.fixed
        && setup.movement != MovementKind::Swiss
        && first_round_planned(conn)?
    {
        let played = Played::load(conn, current)?;
        planned_seats(&played, &setup, &Tables::seats(conn)?, number)
    } else {
        NextSeats::new()
    };
    let mut tables: Vec<TableLine> = Vec::with_capacity(lines.len());
    // Each player with its sort key (byes last, the folded name, the id).
    let mut keyed: Vec<(Key, PlayerLine)> = Vec::with_capacity(2 * lines.len());
    for m in lines {
        let result = result_words(m.outcome);
        let Some(b) = m.b else {
            keyed.push(player_line(m.a, None, m.table, None, &next));
            continue;
        };
        tables.push(TableLine {
            table: m.table.unwrap_or(0),
            a: m.a.name.clone().unwrap_or_default(),
            a_library: m.a.library.clone(),
            b: b.name.clone().unwrap_or_default(),
            b_library: b.library.clone(),
            result,
        });
        let a_name = m.a.name.clone();
        keyed.push(player_line(m.a, b.name.clone(), m.table, Some('A'), &next));
        keyed.push(player_line(b, a_name, m.table, Some('B'), &next));
    }
    // The keys are sorted with the lines' places (moving the small keys, not the lines), then the lines
    // are taken in that order; the place breaks ties as a stable sort would.
    let mut order: Vec<(bool, &[u8], i64, usize)> =
        keyed.iter().enumerate().map(|(i, ((bye, fold, id), _))| (*bye, fold.as_bytes(), *id, i)).collect();
    order.sort_unstable();
    let order: Vec<usize> = order.into_iter().map(|(.., i)| i).collect();
    let mut slots: Vec<Option<PlayerLine>> = keyed.into_iter().map(|(_, p)| Some(p)).collect();
    let players: Vec<PlayerLine> = order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)).collect();
    let event = store_event::values(conn)?.name().to_string();
    let carry = carried(conn, number)?;
    let away = away(conn, &players)?;
    let idle = idle_tables(conn, number)?;
    Ok(Pairings { event, round: number, movement, tables, players, carry, away, idle })
}

/// "Aiko stays at table 5 but plays at table 3 this round (Zoë, who stays at table 3, meets her there)", for each
/// player who stays at one table and sits elsewhere in these pairings.
fn away(conn: &Connection, players: &[PlayerLine]) -> Result<Vec<String>> {
    let stays = crate::store::player::stays(conn)?;
    let mut away = Vec::new();
    for (id, name, stays_at) in &stays {
        let Some(line) = players.iter().find(|p| p.id == id.0) else { continue };
        let Some(table) = line.table.filter(|t| t != stays_at) else { continue };
        let host = stays.iter().find(|(_, _, t)| *t == table).map(|(_, n, _)| n.as_str());
        let why = match host {
            Some(host) => format!(" ({host}, who stays at table {table}, meets them there)"),
            None => String::new(),
        };
        away.push(format!("{name} stays at table {stays_at} but plays at table {table} this round{why}"));
    }
    Ok(away)
}

/// How the players are sorted: byes last, then by folded name, then by id.
type Key = (bool, String, i64);

/// A player's line and its sort key; `seat` is None for a bye.
fn player_line(
    s: SeatLine,
    opponent: Option<String>,
    table: Option<u32>,
    seat: Option<char>,
    next: &NextSeats,
) -> (Key, PlayerLine) {
    // A player without a row shows no name and no next seat.
    let next = if s.name.is_some() { next.get(&s.player).copied() } else { None };
    let name = s.name.unwrap_or_default();
    let fold = s.name_fold.unwrap_or_else(|| names::fold(&name));
    let line = PlayerLine {
        id: s.player.0,
        name,
        table,
        seat,
        library: s.library,
        opponent: opponent.unwrap_or_default(),
        next,
    };
    ((table.is_none(), fold, s.player.0), line)
}

/// Whether round 1 was paired by a planned movement. An event whose first round was Swiss or auto (or is
/// not known) goes on Swiss, so no plan gives the next seats and the history need not be read (the same
/// test as [`next_source`]'s, made before loading every round).
fn first_round_planned(conn: &Connection) -> Result<bool> {
    let first: Option<MovementKind> = round::get(conn, 1)?.and_then(|r| r.movement.parse().ok());
    Ok(!matches!(first.unwrap_or(MovementKind::Swiss), MovementKind::Swiss | MovementKind::Auto))
}

fn result_words(outcome: Option<Outcome>) -> String {
    match outcome {
        Some(Outcome::A) => "A won".into(),
        Some(Outcome::B) => "B won".into(),
        Some(Outcome::Draw) => "draw".into(),
        None => String::new(),
    }
}

/// Each player's seat at a round already paired (byes: a match without a table or a seat B).
fn seats_in(round: &[Seating]) -> NextSeats {
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
        Ok(Next::Fixed(planned)) => seats_of(&placed_round(&planned.round, &played.stays_among(&active)))
            .into_iter()
            .filter_map(|(i, seat)| Some((played.players.get(i)?.id, seat)))
            .collect(),
        _ => NextSeats::new(),
    }
}

/// A round with each game at the table it is played at (players who stay at one table keep it).
fn placed_round(
    round: &crate::domain::movement::Round,
    stays: &[crate::domain::movement::Stay],
) -> crate::domain::movement::Round {
    let placement = crate::domain::movement::place(round, stays);
    let games = placement.games.iter().map(|p| crate::domain::movement::Game { table: p.at, ..p.game }).collect();
    crate::domain::movement::Round { games, byes: round.byes.clone() }
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
