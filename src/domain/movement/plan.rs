//! Choosing and building a fixed movement for a whole event.

use super::euler::balance_seats;
use super::howell::howell;
use super::mitchell::mitchell;
use super::square::{square, square_available};
use super::validate::{Guarantee, validate};
use super::{Game, MovementError, MovementKind, Plan, Schedule};

/// The whole fixed schedule for `players` players (slot i = player i) with `tables` tables.
///
/// Refuses more rounds than the movement supports without a rematch; see [`plan_fixed_allow`].
pub fn plan_fixed(kind: MovementKind, players: usize, tables: u32, rounds: u32) -> Result<Plan, MovementError> {
    plan(kind, players, tables, rounds, false)
}

/// Like [`plan_fixed`], but with `allow` the judge accepts rounds past the movement's limit
/// (the rotation continues and players meet again).
pub fn plan_fixed_allow(
    kind: MovementKind,
    players: usize,
    tables: u32,
    rounds: u32,
    allow: bool,
) -> Result<Plan, MovementError> {
    plan(kind, players, tables, rounds, allow)
}

/// Most rounds `kind` plays on `tables` tables (as used) for `players` players while keeping
/// no rematch and no library reuse; `None` for Auto and Swiss (no fixed limit).
pub fn max_rounds(kind: MovementKind, tables: u32, players: usize) -> Option<u32> {
    match kind {
        MovementKind::Mitchell | MovementKind::Square => Some(tables),
        MovementKind::Howell => u32::try_from(players).ok().map(|n| n.min(tables.saturating_mul(2).saturating_add(1))),
        MovementKind::Auto | MovementKind::Swiss => None,
    }
}

fn plan(kind: MovementKind, players: usize, tables: u32, rounds: u32, allow: bool) -> Result<Plan, MovementError> {
    if players < 2 {
        return Err(MovementError::TooFewPlayers { players });
    }
    if rounds == 0 {
        return Err(MovementError::NoRounds);
    }
    let n = u32::try_from(players).map_err(|_| too_many(players, tables))?;
    let chosen = resolve(kind, n)?;
    let (asked, kind) = (kind != MovementKind::Auto, chosen);
    let used = tables_needed(kind, n);
    if used > tables {
        return Err(too_many(players, tables));
    }
    if kind == MovementKind::Square && !square_available(used) {
        // Says the movement does not exist here before any round limit it would have had.
        square(used, 1)?;
    }
    let max = max_rounds(kind, used, players).unwrap_or(u32::MAX);
    if rounds > max && !allow {
        return Err(MovementError::TooManyRounds(format!(
            "the {kind} movement on {used} tables keeps every opponent new for at most {max} rounds, not {rounds}; \
             play at most {max} rounds, use swiss, or allow the extra rounds (players would meet again)"
        )));
    }
    let schedule = build(kind, players, used, rounds)?;
    let reason = reason(kind, players, used, asked);
    Ok(Plan { kind, tables_used: used, reason, schedule })
}

/// Auto's choice: Howell for an odd field, square when it exists for N/2 tables, else Mitchell.
fn resolve(kind: MovementKind, n: u32) -> Result<MovementKind, MovementError> {
    match kind {
        MovementKind::Swiss => Err(MovementError::SwissIsRoundByRound),
        MovementKind::Howell if n.is_multiple_of(2) => Err(MovementError::HowellNeedsOddField { players: n as usize }),
        MovementKind::Auto if n % 2 == 1 => Ok(MovementKind::Howell),
        MovementKind::Auto if n / 2 >= 3 && square_available(n / 2) => Ok(MovementKind::Square),
        MovementKind::Auto => Ok(MovementKind::Mitchell),
        other => Ok(other),
    }
}

fn tables_needed(kind: MovementKind, n: u32) -> u32 {
    if kind == MovementKind::Howell { (n - 1) / 2 } else { n.div_ceil(2) }
}

fn too_many(players: usize, tables: u32) -> MovementError {
    let need = players.div_ceil(2);
    let exist = if tables == 1 { "exists" } else { "exist" };
    let msg = if players % 2 == 1 {
        format!(
            "{players} players need {need} tables (or {} with the Howell movement) but only {tables} {exist}; \
             build more libraries",
            players / 2
        )
    } else {
        format!("{players} players need {need} tables but only {tables} {exist}; build more libraries")
    };
    MovementError::TooManyPlayers(msg)
}

fn build(kind: MovementKind, players: usize, tables: u32, rounds: u32) -> Result<Schedule, MovementError> {
    let mut schedule = match kind {
        MovementKind::Howell => return Ok(howell(tables, rounds)),
        MovementKind::Square => square(tables, rounds)?,
        _ => mitchell(tables, rounds),
    };
    if players % 2 == 1 {
        drop_phantom(&mut schedule, players);
    }
    Ok(schedule)
}

/// Slot `players` (the last Y slot) is a phantom: whoever meets it sits out. Seats are then
/// re-balanced along Euler circuits when no one revisits a table (any seating is library-safe).
fn drop_phantom(schedule: &mut Schedule, players: usize) {
    for round in &mut schedule.rounds {
        let (real, ghost): (Vec<Game>, Vec<Game>) =
            round.games.iter().copied().partition(|g| g.a < players && g.b < players);
        round.byes = ghost.iter().map(|g| g.a.min(g.b)).collect();
        round.games = real;
    }
    let all = [Guarantee::SeatBalance, Guarantee::NoTableRevisit];
    let v = validate(players, &schedule.rounds, &all);
    let unbalanced = v.iter().any(|x| x.guarantee == Guarantee::SeatBalance);
    let revisits = v.iter().any(|x| x.guarantee == Guarantee::NoTableRevisit);
    if unbalanced && !revisits {
        balance_seats(players, &mut schedule.rounds);
    }
}

fn reason(kind: MovementKind, players: usize, tables: u32, asked: bool) -> String {
    match kind {
        MovementKind::Square => format!(
            "Square movement on {tables} tables: with {players} players everyone meets a new opponent, plays a new \
             library and goes to a new table every round, for up to {tables} rounds."
        ),
        MovementKind::Howell => format!(
            "Cyclic Howell movement on {tables} tables: {players} is an odd field, so one player sits out each \
             round (nobody twice) while opponents and libraries stay new, for up to {players} rounds."
        ),
        _ => format!(
            "Mitchell movement on {tables} tables{}: {players} players meet new opponents on new libraries every \
             round, for up to {tables} rounds{}.",
            if asked { ", as asked".to_string() } else { format!(" because {}", mitchell_why(tables)) },
            if players % 2 == 1 { " (whoever meets the empty seat sits out)" } else { "" }
        ),
    }
}

fn mitchell_why(tables: u32) -> String {
    if tables == 2 || tables == 6 {
        format!("no square movement exists for {tables} tables (no pair of orthogonal Latin squares of order {tables})")
    } else if tables < 3 {
        "a square movement on so few tables would be the same".to_string()
    } else {
        format!("the square movement is not built for {tables} tables")
    }
}
