//! The event as the movement domain sees it: players by index, the rounds played as games and byes,
//! points, the tables with libraries; shared by pairing a round, swapping seats and showing the pairings.

use crate::domain::movement::{Game, MovementKind, Round, Situation, Stay, SwissBecause, Violation};
use crate::domain::settings::Values;
use crate::error::{Error, Result};
use crate::store::library::{self, Library};
use crate::store::matches::{self, Outcome, Seating};
use crate::store::player::Player;
use crate::store::{LibraryId, PlayerId, event as store_event, player, round};
use rusqlite::Connection;
use std::collections::{BTreeMap, HashMap};

/// Players, rounds and points up to a round, in the domain's indices (index = position in `players`).
pub struct Played {
    /// Every player, in the order they were added.
    pub players: Vec<Player>,
    index: HashMap<PlayerId, usize>,
    /// Rounds 1..=up_to as games and byes.
    pub rounds: Vec<Round>,
    /// Match points per player (win or bye 3, draw 1) over those rounds.
    pub points: Vec<u32>,
    /// The movement that paired round 1.
    pub first: Option<MovementKind>,
    /// Players who stay at one table (`player seat`), by index, the lower table first: Swiss never pairs two of
    /// them together, and seats each one's game at their table's libraries when it can.
    pub stays: Vec<Stay>,
}

impl Played {
    /// Loads rounds 1..=`up_to`.
    pub fn load(conn: &Connection, up_to: u32) -> Result<Played> {
        let players = player::all(conn)?;
        let index: HashMap<PlayerId, usize> = players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
        let mut rounds = vec![Round::default(); up_to as usize];
        let mut points = vec![0u32; players.len()];
        for m in matches::seatings(conn, up_to)?.iter().filter(|m| m.round >= 1) {
            let (Some(&a), slot) = (index.get(&m.a), &mut rounds[m.round as usize - 1]) else { continue };
            let b = m.b.and_then(|b| index.get(&b).copied());
            // A game is its libraries' table to the movement (where it was played may differ: a player who
            // stays at one table has the libraries carried to them).
            match (m.libraries_of.or(m.table), b) {
                (Some(table), Some(b)) => slot.games.push(Game { table, a, b }),
                _ => slot.byes.push(a),
            }
            add_points(&mut points, m, a, b);
        }
        for r in &mut rounds {
            r.games.sort_by_key(|g| g.table);
        }
        let first = round::get(conn, 1)?.and_then(|r| r.movement.parse().ok());
        let mut stays: Vec<Stay> =
            players.iter().enumerate().filter_map(|(player, p)| Some(Stay { player, table: p.stays_at? })).collect();
        stays.sort_by_key(|s| (s.table, s.player));
        Ok(Played { players, index, rounds, points, first, stays })
    }

    /// The stationary players among `active`.
    pub fn stays_among(&self, active: &[usize]) -> Vec<Stay> {
        self.stays.iter().filter(|s| active.contains(&s.player)).copied().collect()
    }

    /// The index of a player.
    pub fn index_of(&self, id: PlayerId) -> Option<usize> {
        self.index.get(&id).copied()
    }

    /// Names by index, for wording violations.
    pub fn names(&self) -> Vec<&str> {
        self.players.iter().map(|p| p.name.as_str()).collect()
    }

    /// Indices of the players who can be paired in round `number`.
    pub fn active_in(&self, number: u32) -> Vec<usize> {
        self.players.iter().enumerate().filter(|(_, p)| p.active_in(number)).map(|(i, _)| i).collect()
    }
}

fn add_points(points: &mut [u32], m: &Seating, a: usize, b: Option<usize>) {
    let mut give = |i: usize, n: u32| {
        if let Some(p) = points.get_mut(i) {
            *p += n;
        }
    };
    match (m.outcome, b) {
        (_, None) if m.b.is_none() => give(a, 3),
        (Some(Outcome::A), _) => give(a, 3),
        (Some(Outcome::B), Some(b)) => give(b, 3),
        (Some(Outcome::Draw), Some(b)) => {
            give(a, 1);
            give(b, 1);
        }
        _ => {}
    }
}

/// The fixed libraries by (table, seat), and how many tables 1..=k have both seats.
pub struct Tables {
    /// Library ids at (table, 'A' or 'B').
    pub at: HashMap<(u32, char), LibraryId>,
    /// Tables 1..=count are complete (both libraries).
    pub count: u32,
    /// Library labels by id ("3A", "sealed #7").
    pub labels: HashMap<LibraryId, String>,
}

impl Tables {
    /// Reads every library.
    pub fn load(conn: &Connection) -> Result<Tables> {
        let libs: Vec<Library> = library::all(conn)?;
        let mut at = HashMap::new();
        for l in &libs {
            if let (Some(t), Some(seat)) = (l.table, l.seat.as_deref().and_then(|s| s.chars().next())) {
                at.insert((t, seat), l.id);
            }
        }
        let count = complete(&at);
        let labels = libs.iter().map(|l| (l.id, l.label())).collect();
        Ok(Tables { at, count, labels })
    }

    /// Only the fixed libraries' places (no labels): what pairing needs.
    pub fn seats(conn: &Connection) -> Result<Tables> {
        let mut at = HashMap::new();
        for (t, seat, id) in library::fixed_seats(conn)? {
            if let Some(seat) = seat.chars().next() {
                at.insert((t, seat), id);
            }
        }
        let count = complete(&at);
        Ok(Tables { at, count, labels: HashMap::new() })
    }

    /// A library's label, or "-".
    pub fn label(&self, id: Option<LibraryId>) -> String {
        id.and_then(|i| self.labels.get(&i).cloned()).unwrap_or_else(|| "-".into())
    }
}

/// How many tables 1..=k have both libraries.
fn complete(at: &HashMap<(u32, char), LibraryId>) -> u32 {
    let mut count = 0;
    while at.contains_key(&(count + 1, 'A')) && at.contains_key(&(count + 1, 'B')) {
        count += 1;
    }
    count
}

/// The event settings a pairing needs.
pub struct Setup {
    /// The movement setting.
    pub movement: MovementKind,
    /// The event's number of rounds.
    pub rounds: u32,
    /// Fixed libraries (false: sealed).
    pub fixed: bool,
    /// The event's seed.
    pub seed: u64,
}

impl Setup {
    /// Reads the settings.
    pub fn load(conn: &Connection) -> Result<Setup> {
        let values: Values = store_event::values(conn)?;
        let movement = values.text("movement").parse().map_err(|e| Error::refused(format!("{e}")))?;
        let rounds = u32::try_from(values.number("rounds")).unwrap_or(1);
        Ok(Setup { movement, rounds, fixed: values.text("libraries") != "sealed", seed: values.seed() })
    }

    /// The situation for pairing round `played.rounds.len() + 1`.
    pub fn situation<'a>(&self, played: &'a Played, active: &'a [usize], tables: u32, allow: bool) -> Situation<'a> {
        Situation {
            movement: self.movement,
            first: played.first,
            played: &played.rounds,
            players: played.players.len(),
            active,
            tables,
            rounds: self.rounds,
            fixed_libraries: self.fixed,
            seed: self.seed,
            allow,
            apart: &played.stays,
        }
    }
}

/// Replaces the domain's player tokens (P1 = index 0) in `text` by names.
pub fn name_players(text: &str, names: &[&str]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find('P') {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 1..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let before_ok = !out.chars().last().is_some_and(char::is_alphanumeric);
        let name =
            after[..digits].parse::<usize>().ok().filter(|_| before_ok).and_then(|n| names.get(n.wrapping_sub(1)));
        match name {
            Some(name) => out.push_str(name),
            None => out.push_str(&rest[pos..pos + 1 + digits]),
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// One violation in words, with names.
pub fn describe(v: &Violation, names: &[&str]) -> String {
    name_players(&v.detail, names)
}

/// Why the round is Swiss, in a judge's words.
pub fn swiss_words(because: &SwissBecause, names: &[&str]) -> String {
    let carry = "Swiss pairing by score from now on, avoiding every player's past opponents and libraries";
    match because {
        SwissBecause::Chosen => "the event's movement is swiss: paired by score".into(),
        SwissBecause::Sealed => "sealed libraries travel with their players: paired by score (Swiss)".into(),
        SwissBecause::StartedSwiss => "round 1 was paired by Swiss, so the event carries on by Swiss".into(),
        SwissBecause::FieldChanged { left, joined } => {
            let list = |ix: &[usize]| ix.iter().filter_map(|&i| names.get(i).copied()).collect::<Vec<_>>().join(", ");
            let mut parts = Vec::new();
            if !left.is_empty() {
                parts.push(format!("left: {}", list(left)));
            }
            if !joined.is_empty() {
                parts.push(format!("joined: {}", list(joined)));
            }
            format!(
                "the field changed since round 1 ({}), so the fixed movement no longer fits: {carry}",
                parts.join("; ")
            )
        }
        SwissBecause::FirstRoundDiffers => format!("round 1 no longer has the fixed plan's shape: {carry}"),
        SwissBecause::PlanWouldBreak(v) => {
            let what: Vec<String> = v.iter().take(3).map(|x| describe(x, names)).collect();
            format!("the planned round would break a guarantee after earlier changes ({}): {carry}", what.join("; "))
        }
    }
}

/// "3, 5, 8" (at most `max` listed, then "and N more").
pub fn list_numbers(numbers: &[u32], max: usize) -> String {
    let shown: Vec<String> = numbers.iter().take(max).map(u32::to_string).collect();
    let more = numbers.len().saturating_sub(max);
    if more > 0 { format!("{} and {more} more", shown.join(", ")) } else { shown.join(", ") }
}

/// Each player's seat in a round: index -> (table, seat) or None for a bye.
pub fn seats_of(round: &Round) -> BTreeMap<usize, Option<(u32, char)>> {
    let mut seats = BTreeMap::new();
    for g in &round.games {
        seats.insert(g.a, Some((g.table, 'A')));
        seats.insert(g.b, Some((g.table, 'B')));
    }
    for &p in &round.byes {
        seats.insert(p, None);
    }
    seats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_replace_player_tokens_only() {
        let names = ["Ana", "Bo", "Cy", "D", "E", "F", "G", "H", "I", "J", "K", "Lu"];
        assert_eq!(name_players("P1 meets P12 again", &names), "Ana meets Lu again");
        assert_eq!(name_players("P2 uses library 3A again", &names), "Bo uses library 3A again");
        assert_eq!(name_players("APP3 P99 P", &names), "APP3 P99 P");
        assert_eq!(list_numbers(&[1, 2, 3, 4], 2), "1, 2 and 2 more");
    }
}
