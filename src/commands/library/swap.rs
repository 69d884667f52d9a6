//! `library swap`: prints what [`crate::ops::library::swap`] did.

use super::Ctx;
use crate::error::Result;
use crate::ops::library::swap::SwapInput;
use crate::render::{Format, done};

/// Runs `library swap LIBRARY OUT IN`.
pub fn swap(ctx: &Ctx, library: &str, out: &str, card_in: &str, force: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let input = SwapInput { library: library.into(), out: out.into(), card_in: card_in.into(), force };
    let swapped = crate::ops::library::swap::swap(&mut store, &actor, input)?;
    let mut summary = format!(
        "library {}: {} out, {} in; now {:.1} cards off profile",
        swapped.library, swapped.out, swapped.card_in, swapped.distance_from_mean
    );
    if let Some(d) = swapped.pair_distance {
        summary.push_str(&format!(", {d:.0} apart from its partner"));
    }
    done(ctx.format, &summary, serde_json::to_value(&swapped).unwrap_or_default())?;
    if ctx.format == Format::Human {
        swapped.notes.iter().for_each(|n| println!("note: {n}"));
    }
    Ok(())
}
