//! `standby`: the key a second laptop follows the event with, how far behind it is, and its promotion.

use super::Ctx;
use crate::cli::standby::StandbyCmd;
use crate::error::Result;
use crate::ops::standby;
use crate::render::{Format, done, done_with};

/// Runs a `standby` verb.
pub fn run(ctx: &Ctx, cmd: StandbyCmd) -> Result<()> {
    match cmd {
        StandbyCmd::Key { revoke: false } => {
            let mut store = ctx.open()?;
            let key = standby::new_key(&mut store)?;
            if ctx.format == Format::Json {
                println!("{}", serde_json::json!({ "key": key }));
                return Ok(());
            }
            crate::render::standby::key(&key);
            Ok(())
        }
        StandbyCmd::Key { revoke: true } => {
            let mut store = ctx.open()?;
            let had = standby::revoke_key(&mut store)?;
            let summary =
                if had { "standby key revoked: the standby stops following" } else { "there was no standby key" };
            done(ctx.format, summary, serde_json::json!({ "revoked": had }))
        }
        StandbyCmd::Status => {
            let store = ctx.open()?;
            let status = standby::status(&store, ctx.now()?)?;
            crate::render::standby::status(ctx.format, &status, &ctx.db)
        }
        StandbyCmd::Detach => {
            let mut store = ctx.open()?;
            let out = standby::sync::detach(&mut store, &ctx.actor()?)?;
            let summary = crate::render::standby::detached(&out);
            done_with(ctx.format, &summary, &out)
        }
        StandbyCmd::Promote { force } => {
            let mut store = ctx.open()?;
            let out = standby::promote(&mut store, force)?;
            let summary = crate::render::standby::promoted(&out);
            done_with(ctx.format, &summary, &out)
        }
    }
}

/// After a write on the primary's file whose server runs with `--standby-required`: waits until the second laptop
/// applied it, and says so (or, in one line, that it is not heard from). `before`: the file's last change before
/// the command.
pub fn wait_for_the_second_laptop(ctx: &Ctx, before: Option<i64>) {
    let Some(before) = before else { return };
    if let Some(waited) = standby::sync::after_write(&ctx.db, before) {
        eprintln!("{}", crate::render::standby::waited(&waited, &ctx.db));
    }
}
