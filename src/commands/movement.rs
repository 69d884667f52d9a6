//! `movement preview`: a fixed movement's whole schedule and its validation, before an event (see
//! [`crate::ops::round::preview_movement`]).

use super::Ctx;
use crate::cli::movement::MovementCmd;
use crate::domain::movement::Plan;
use crate::error::Result;
use crate::ops::round::{Check, PreviewInput, preview_movement};
use crate::render::{Format, Listing, emit, human_text};

/// Runs a `movement` verb.
pub fn run(ctx: &Ctx, cmd: MovementCmd) -> Result<()> {
    match cmd {
        MovementCmd::Preview { players, tables, rounds, movement, allow } => {
            preview(ctx, PreviewInput { players, tables, rounds, movement, allow })
        }
    }
}

fn preview(ctx: &Ctx, input: PreviewInput) -> Result<()> {
    let preview = preview_movement(&input)?;
    let grid = grid(&preview.plan, preview.players, preview.rounds);
    match ctx.format {
        Format::Human => {
            print!("{}\n{}", human_text(&grid), human_text(&check_listing(&preview.checks)));
            Ok(())
        }
        _ => emit(ctx.format, &grid, &preview.json()),
    }
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
