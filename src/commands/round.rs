//! `round`: pair the next round, take it back, swap two players' seats (see [`crate::ops::round`]).

use super::Ctx;
use crate::cli::round::RoundCmd;
use crate::error::{Error, Result};
use crate::ops::round::{self, PairInput, Paired, SwapInput};
use crate::render::{Format, done};

/// Runs a `round` verb.
pub fn run(ctx: &Ctx, cmd: RoundCmd) -> Result<()> {
    match cmd {
        RoundCmd::Pair { allow, drop_absent } => pair(ctx, allow, drop_absent),
        RoundCmd::Unpair => unpair(ctx),
        RoundCmd::Swap { first, second } => swap(ctx, first, second),
        // The round clock's verbs are dispatched to `round_clock` and `corrections` by the dispatcher.
        RoundCmd::Start { .. } | RoundCmd::End { .. } | RoundCmd::Reopen | RoundCmd::Extend(_) => {
            Err(Error::bad_input("this round verb is run by the round clock's module"))
        }
    }
}

fn pair(ctx: &Ctx, allow: bool, drop_absent: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let paired = round::pair_round_with(&mut store, &ctx.actor()?, PairInput { allow }, drop_absent)?;
    print_paired(ctx, &paired)
}

fn print_paired(ctx: &Ctx, p: &Paired) -> Result<()> {
    let byes = if p.byes.is_empty() { String::new() } else { format!("; bye: {}", p.byes.join(", ")) };
    let summary =
        format!("paired round {} by the {} movement: {}{byes}", p.round, p.movement, round::tables_word(p.tables))
            + &p.carry_words()
            + &p.moves_words()
            + &p.closed_calls_words()
            + &p.dropped_absent_words();
    let extra = serde_json::to_value(p).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    done(ctx.format, &summary, extra)?;
    if ctx.format == Format::Human {
        println!("  why: {}", p.why);
        for n in &p.notes {
            println!("  note: {n}");
        }
        for a in p.allowed.iter().take(10) {
            println!("  allowed: {a}");
        }
        if p.allowed.len() > 10 {
            println!("  allowed: {} more (see --json)", p.allowed.len() - 10);
        }
        println!("see the tables with `mmjudge pairings` (printable pages: `mmjudge pairings --html pairings.html`)");
    }
    Ok(())
}

fn unpair(ctx: &Ctx) -> Result<()> {
    let mut store = ctx.open()?;
    let unpaired = round::unpair_round(&mut store, &ctx.actor()?)?;
    done(ctx.format, &round::unpaired_words(&unpaired), serde_json::json!({}))
}

/// Exchanges the seats of two players of the current round, then warns of any rematch or library reuse
/// it creates.
fn swap(ctx: &Ctx, first: String, second: String) -> Result<()> {
    let mut store = ctx.open()?;
    let swapped = round::swap_seats(&mut store, &ctx.actor()?, SwapInput { first, second })?;
    let extra = serde_json::json!({ "warnings": swapped.warnings });
    done(ctx.format, &round::swapped_words(&swapped), extra)?;
    if ctx.format == Format::Human {
        for w in &swapped.warnings {
            println!("  warning: {w}");
        }
    }
    Ok(())
}
