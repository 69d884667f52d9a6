//! `movement preview`: a fixed movement's whole schedule and its validation, before an event.

use super::Ctx;
use crate::cli::movement::MovementCmd;
use crate::domain::movement::{
    Guarantee, MovementError, MovementKind, Plan, Violation, guarantees_of, max_rounds, plan_fixed_allow, validate,
};
use crate::error::{Error, Result};
use crate::render::{Format, Listing, emit, human_text};

/// Largest field a preview plans (a room of 32,768 tables).
const MAX_PLAYERS: usize = 65_536;
/// Most rounds a preview plans (the event setting's limit).
const MAX_ROUNDS: u32 = 64;
/// Rounds previewed when none are asked for (at most the movement's limit).
const DEFAULT_ROUNDS: u32 = 5;

/// Runs a `movement` verb.
pub fn run(ctx: &Ctx, cmd: MovementCmd) -> Result<()> {
    match cmd {
        MovementCmd::Preview { players, tables, rounds, movement, allow } => {
            preview(ctx, players, tables, rounds, &movement, allow)
        }
    }
}

/// One guarantee's outcome over the whole schedule.
#[derive(Debug, serde::Serialize)]
struct Check {
    guarantee: &'static str,
    words: &'static str,
    promised: bool,
    kept: bool,
    violations: Vec<Violation>,
}

fn preview(
    ctx: &Ctx,
    players: usize,
    tables: Option<u32>,
    rounds: Option<u32>,
    movement: &str,
    allow: bool,
) -> Result<()> {
    let kind: MovementKind = movement.parse().map_err(|e: MovementError| Error::refused(e.to_string()))?;
    if kind == MovementKind::Swiss {
        return Err(Error::refused(
            "the swiss movement pairs each round from the results so far, so it has no schedule to preview: \
             preview auto, mitchell, square or howell",
        ));
    }
    let rounds = match rounds {
        Some(r) => r,
        None => plan_fixed_allow(kind, players, u32::MAX, 1, true)
            .ok()
            .and_then(|p| max_rounds(p.kind, p.tables_used, players))
            .map_or(DEFAULT_ROUNDS, |max| max.clamp(1, DEFAULT_ROUNDS)),
    };
    if players > MAX_PLAYERS || rounds > MAX_ROUNDS {
        return Err(Error::refused(format!(
            "a preview plans at most {MAX_PLAYERS} players and {MAX_ROUNDS} rounds: ask for fewer"
        )));
    }
    let needed = plan_fixed_allow(kind, players, u32::MAX, 1, true)
        .map(|p| p.tables_used)
        .unwrap_or(u32::try_from(players.div_ceil(2)).unwrap_or(u32::MAX));
    let tables = tables.unwrap_or(needed);
    let plan = plan_fixed_allow(kind, players, tables, rounds, allow).map_err(|e| refusal(e, needed))?;
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
    let doc = document(&plan, players, tables, rounds, &checks);
    let grid = grid(&plan, players, rounds);
    match ctx.format {
        Format::Human => {
            print!("{}\n{}", human_text(&grid), human_text(&check_listing(&checks)));
            Ok(())
        }
        _ => emit(ctx.format, &grid, &doc),
    }
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

/// Tables down, rounds across: "P1-P4" is P1 at seat A against P4 at seat B.
fn grid(plan: &Plan, players: usize, rounds: u32) -> Listing {
    let mut headers = vec!["table".to_string()];
    headers.extend((1..=rounds).map(|r| format!("R{r}")));
    let title = format!(
        "{} ({} P1-P{players}, {}; A-B = seat A against seat B)",
        plan.reason.trim_end_matches('.'),
        crate::domain::words::count(players, "player"),
        crate::domain::words::count(rounds, "round")
    );
    let mut l = Listing { title: Some(title), headers, ..Default::default() };
    for t in 1..=plan.tables_used {
        let mut row = vec![t.to_string()];
        for r in &plan.schedule.rounds {
            let cell = r.games.iter().find(|g| g.table == t).map(|g| format!("P{}-P{}", g.a + 1, g.b + 1));
            row.push(cell.unwrap_or_else(|| "idle".into()));
        }
        l.row(row);
    }
    if plan.schedule.rounds.iter().any(|r| !r.byes.is_empty()) {
        let mut row = vec!["out".to_string()];
        for r in &plan.schedule.rounds {
            let out: Vec<String> = r.byes.iter().map(|p| format!("P{}", p + 1)).collect();
            row.push(out.join(" "));
        }
        l.row(row);
    }
    l
}

fn check_listing(checks: &[Check]) -> Listing {
    let mut l = Listing::new(&["guarantee", "promised", "outcome"]).titled("Validation");
    for c in checks {
        let outcome = match c.violations.first() {
            None => "kept".to_string(),
            Some(v) => {
                let more = c.violations.len() - 1;
                let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                format!("broken: {} (round {}){more}", v.detail, v.round)
            }
        };
        l.row(vec![c.words.into(), if c.promised { "yes" } else { "no" }.into(), outcome]);
    }
    let broken_promise = checks.iter().any(|c| c.promised && !c.kept);
    l.footer.push(if broken_promise {
        "A promised guarantee is broken: report this schedule to the mmjudge maintainers.".into()
    } else {
        "Every promised guarantee holds.".into()
    });
    l
}

fn document(plan: &Plan, players: usize, tables: u32, rounds: u32, checks: &[Check]) -> serde_json::Value {
    let schedule: Vec<serde_json::Value> = plan
        .schedule
        .rounds
        .iter()
        .zip(1u32..)
        .map(|(r, n)| {
            let games: Vec<serde_json::Value> =
                r.games.iter().map(|g| serde_json::json!({ "table": g.table, "a": g.a + 1, "b": g.b + 1 })).collect();
            let byes: Vec<usize> = r.byes.iter().map(|p| p + 1).collect();
            serde_json::json!({ "round": n, "games": games, "byes": byes })
        })
        .collect();
    let checks: Vec<serde_json::Value> = checks
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
        "movement": plan.kind.name(), "players": players, "tables": tables, "tables_used": plan.tables_used,
        "rounds": rounds, "reason": plan.reason, "schedule": schedule, "checks": checks,
    })
}
