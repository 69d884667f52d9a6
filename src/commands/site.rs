//! `site DIR [--judges] [--force]`: the event's static web site, built and written by `ops::site::write`
//! with the pages of `render::site`.

use super::Ctx;
use crate::cli::standings::SiteArgs;
use crate::error::Result;
use crate::ops::site::{self, Audience};
use crate::render::done;

/// Runs `site DIR [--judges] [--force]`.
pub fn run(ctx: &Ctx, args: SiteArgs) -> Result<()> {
    let store = ctx.open()?;
    let audience = if args.judges { Audience::Judges } else { Audience::Public };
    let written = site::write(&store, &args.dir, args.force, audience, &crate::render::site::Html)?;
    let which = if args.judges { "the judges' site" } else { "the public site" };
    let mut summary =
        format!("wrote {which} ({} files) to {}: open {}", written.files.len(), written.dir, written.index);
    if !written.removed.is_empty() {
        summary.push_str(&format!("; removed {} pages of the earlier site", written.removed.len()));
    }
    done(ctx.format, &summary, serde_json::to_value(&written).unwrap_or_default())
}
