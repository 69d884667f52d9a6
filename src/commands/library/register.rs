//! `library register PLAYER FILE.csv [--sideboard A,B,C]`: reads the file, registers the player's sealed
//! libraries through [`crate::ops::library::sealed`] and prints what was stored.

use super::Ctx;
use crate::error::{Error, Result};
use crate::ops::library::sealed::RegisterInput;
use crate::render::done;
use std::path::Path;

/// Runs `library register`.
pub fn register(
    ctx: &Ctx,
    player: &str,
    file: &Path,
    sideboard: Option<&str>,
    allow_unknown: bool,
    force: bool,
) -> Result<()> {
    let bytes = std::fs::read(file).map_err(|e| Error::io(file, e))?;
    let shown = file.display().to_string();
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let input = RegisterInput {
        player: player.to_string(),
        bytes,
        shown,
        sideboard: sideboard.map(str::to_string),
        allow_unknown,
        force,
    };
    let done_ = crate::ops::library::sealed::register(&mut store, &actor, input)?;
    let summary = crate::render::imports::registered(&done_);
    done(ctx.format, &summary, serde_json::to_value(&done_).unwrap_or_default())
}
