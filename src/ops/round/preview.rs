//! A fixed movement's whole schedule and its validation, before an event (`movement preview`).

use crate::domain::movement::{
    Guarantee, MovementError, MovementKind, Plan, Violation, guarantees_of, max_rounds, plan_fixed_allow, validate,
};
use crate::error::{Error, Result};

/// Largest field a preview plans (a room of 32,768 tables).
const MAX_PLAYERS: usize = 65_536;
/// Most rounds a preview plans (the event setting's limit).
const MAX_ROUNDS: u32 = 64;
/// Rounds previewed when none are asked for (at most the movement's limit).
const DEFAULT_ROUNDS: u32 = 5;

/// `movement preview --players N [--tables T] [--rounds R] [--movement M] [--allow]`.
#[derive(Debug, Clone)]
pub struct PreviewInput {
    /// Players in the field.
    pub players: usize,
    /// Tables in the room (as many as the movement needs when None).
    pub tables: Option<u32>,
    /// Rounds to plan (up to five, at most the movement's limit, when None).
    pub rounds: Option<u32>,
    /// The movement's name as typed.
    pub movement: String,
    /// Plan past the rounds the movement can keep its guarantees for.
    pub allow: bool,
}

/// One guarantee's outcome over the whole schedule.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Check {
    /// Its key.
    pub guarantee: &'static str,
    /// Its words.
    pub words: &'static str,
    /// Whether the movement promises it for this field.
    pub promised: bool,
    /// Whether the schedule keeps it.
    pub kept: bool,
    /// Where it breaks.
    pub violations: Vec<Violation>,
}

/// A planned schedule and its validation.
#[derive(Debug, Clone)]
pub struct Preview {
    /// The plan.
    pub plan: Plan,
    /// Players in the field.
    pub players: usize,
    /// Tables in the room.
    pub tables: u32,
    /// Rounds planned.
    pub rounds: u32,
    /// Every guarantee, kept or broken.
    pub checks: Vec<Check>,
}

/// Plans a fixed movement's schedule for a field and checks every guarantee on it. Refuses Swiss (it has
/// no schedule) and fields or round counts beyond what a preview plans.
pub fn preview_movement(input: &PreviewInput) -> Result<Preview> {
    let players = input.players;
    let kind: MovementKind = input.movement.parse().map_err(|e: MovementError| Error::bad_input(e.to_string()))?;
    if kind == MovementKind::Swiss {
        return Err(Error::bad_input(
            "the swiss movement pairs each round from the results so far, so it has no schedule to preview: \
             preview auto, mitchell, square or howell",
        ));
    }
    let rounds = match input.rounds {
        Some(r) => r,
        None => plan_fixed_allow(kind, players, u32::MAX, 1, true)
            .ok()
            .and_then(|p| max_rounds(p.kind, p.tables_used, players))
            .map_or(DEFAULT_ROUNDS, |max| max.clamp(1, DEFAULT_ROUNDS)),
    };
    if players > MAX_PLAYERS || rounds > MAX_ROUNDS {
        return Err(Error::bad_input(format!(
            "a preview plans at most {MAX_PLAYERS} players and {MAX_ROUNDS} rounds: ask for fewer"
        )));
    }
    let needed = plan_fixed_allow(kind, players, u32::MAX, 1, true)
        .map(|p| p.tables_used)
        .unwrap_or(u32::try_from(players.div_ceil(2)).unwrap_or(u32::MAX));
    let tables = input.tables.unwrap_or(needed);
    let plan = plan_fixed_allow(kind, players, tables, rounds, input.allow).map_err(|e| refusal(e, needed))?;
    let promised = guarantees_of(plan.kind, plan.tables_used, rounds, players);
    let found = validate(players, &plan.schedule.rounds, &Guarantee::ALL);
    let checks: Vec<Check> = Guarantee::ALL
        .into_iter()
        .map(|g| {
            let violations: Vec<Violation> = found.iter().filter(|v| v.guarantee == g).cloned().collect();
            Check {
                guarantee: g.key(),
                words: g.words(),
                promised: promised.contains(&g),
                kept: violations.is_empty(),
                violations,
            }
        })
        .collect();
    Ok(Preview { plan, players, tables, rounds, checks })
}

fn refusal(e: MovementError, needed: u32) -> Error {
    let msg = e.to_string();
    Error::refused(match e {
        MovementError::TooManyRounds(_) => format!("{msg} (`--allow` shows them anyway)"),
        MovementError::SquareUnavailable(_) => format!("{msg} (`--movement mitchell`)"),
        MovementError::TooManyPlayers(_) => format!("{msg} (`--tables {needed}`)"),
        _ => msg,
    })
}

impl Preview {
    /// The `--json` document of `movement preview` (players numbered from 1).
    pub fn json(&self) -> serde_json::Value {
        let plan = &self.plan;
        let schedule: Vec<serde_json::Value> = plan
            .schedule
            .rounds
            .iter()
            .zip(1u32..)
            .map(|(r, n)| {
                let games: Vec<serde_json::Value> = r
                    .games
                    .iter()
                    .map(|g| serde_json::json!({ "table": g.table, "a": g.a + 1, "b": g.b + 1 }))
                    .collect();
                let byes: Vec<usize> = r.byes.iter().map(|p| p + 1).collect();
                serde_json::json!({ "round": n, "games": games, "byes": byes })
            })
            .collect();
        let checks: Vec<serde_json::Value> = self
            .checks
            .iter()
            .map(|c| {
                let violations: Vec<serde_json::Value> = c
                    .violations
                    .iter()
                    .map(|v| {
                        let ps: Vec<usize> = v.players.iter().map(|p| p + 1).collect();
                        serde_json::json!({ "round": v.round, "players": ps, "detail": v.detail })
                    })
                    .collect();
                serde_json::json!({
                    "guarantee": c.guarantee, "words": c.words, "promised": c.promised, "kept": c.kept,
                    "violations": violations,
                })
            })
            .collect();
        serde_json::json!({
            "movement": plan.kind.name(), "players": self.players, "tables": self.tables,
            "tables_used": plan.tables_used, "rounds": self.rounds, "reason": plan.reason, "schedule": schedule,
            "checks": checks,
        })
    }
}
