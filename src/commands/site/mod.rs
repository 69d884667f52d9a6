//! `site DIR`: the event's static web site — standings, pairings, result slips, judges' records and
//! reports — as plain HTML files with one stylesheet, no JavaScript (except the projector clock) and no
//! network.
//!
//! Each page is one builder function (`fn(&Site, &mut Pages) -> Result<()>`, handing each page to
//! [`Pages::put`] as soon as it is drawn) plus one askama template in `templates/site/` that extends
//! `site/base.html`. [`BUILDERS`] lists them in the index's order; the index links every page a builder put
//! (round pages in the round's row, under the page's `link`).
//!
//! `site DIR` writes the public site (what players may read: pairings, standings, result slips, the
//! clock); `site DIR --judges` adds the judges' pages ([`JUDGES_ONLY`]: library contents, note sheets, deck
//! sheets, the judges' records, card pages). A public run over an earlier judges' site removes its
//! judges-only pages (the folder's marker lists what mmjudge wrote).

mod cards;
mod clock;
mod decks;
mod index;
mod judging;
mod libraries;
mod notes;
mod pairings;
mod slips;
mod standings;

use super::Ctx;
use crate::cli::standings::SiteArgs;
use crate::error::{Error, Result};
use crate::render::done;
use std::path::Path;

pub use crate::ops::site::{Frame, Page, Pages, Site, Written};

/// Draws the pages of one kind, handing each to [`Pages::put`]. Round pages set [`Page::round`].
pub type Builder = fn(&Site, &mut Pages) -> Result<()>;

/// Every page builder, in the order the index lists their pages.
pub const BUILDERS: &[Builder] = &[
    standings::pages,
    pairings::by_table,
    pairings::by_name,
    slips::pages,
    notes::pages,
    judging::page,
    cards::pages,
    libraries::page,
    decks::page,
    clock::page,
];

/// The builders of the judges' pages, left out of the public site: library contents, note sheets, the
/// judges' records (remarks, penalties) and the card pages they link.
pub const JUDGES_ONLY: &[Builder] = &[notes::pages, judging::page, cards::pages, libraries::page, decks::page];

/// Who a site is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Players and spectators: pairings, standings, result slips, the clock.
    Public,
    /// The judges: every page.
    Judges,
}

/// Whether `builder` draws a page for `audience`.
fn shown_to(builder: Builder, audience: Audience) -> bool {
    audience == Audience::Judges || !JUDGES_ONLY.iter().any(|b| std::ptr::fn_addr_eq(*b, builder))
}

impl Page {
    /// Round `r`'s page of a kind: `round-R-KIND.html`, linked as `link` in the round's row of the index.
    pub fn of_round(r: u32, kind: &str, link: &str, page: &impl askama::Template) -> Result<Page> {
        Ok(Page { file: format!("round-{r}-{kind}.html"), round: Some(r), link: link.into(), html: render(page)? })
    }
}

/// Renders an askama template, or says which page could not be written.
pub fn render(page: &impl askama::Template) -> Result<String> {
    page.render().map_err(|e| Error::refused(format!("cannot write a page of the site: {e}")))
}

/// A match's table for people (`bye` when it had none).
pub fn table_text(table: Option<u32>) -> String {
    table.map_or_else(|| "bye".into(), |t| t.to_string())
}

/// Draws every page of the site for `audience` into `out`, index last.
pub fn build(site: &Site, audience: Audience, out: &mut Pages) -> Result<()> {
    for builder in BUILDERS.iter().filter(|b| shown_to(**b, audience)) {
        builder(site, out)?;
    }
    let index = index::page(site, out.placed())?;
    out.put(index)
}

/// Writes the event's site into `dir` (see [`Pages`]), one page at a time. The pages are drawn in one read
/// transaction, so they all show the same moment.
pub fn write_site(store: &crate::store::Store, dir: &Path, force: bool, audience: Audience) -> Result<Written> {
    store.read(|conn| {
        let site = Site::load(conn)?;
        let mut out = Pages::open(dir, force)?;
        build(&site, audience, &mut out)?;
        out.finish()
    })
}

/// Runs `site DIR [--judges] [--force]`.
pub fn run(ctx: &Ctx, args: SiteArgs) -> Result<()> {
    let store = ctx.open()?;
    let audience = if args.judges { Audience::Judges } else { Audience::Public };
    let written = write_site(&store, &args.dir, args.force, audience)?;
    let which = if args.judges { "the judges' site" } else { "the public site" };
    let mut summary =
        format!("wrote {which} ({} files) to {}: open {}", written.files.len(), written.dir, written.index);
    if !written.removed.is_empty() {
        summary.push_str(&format!("; removed {} pages of the earlier site", written.removed.len()));
    }
    done(ctx.format, &summary, serde_json::to_value(&written).unwrap_or_default())
}
