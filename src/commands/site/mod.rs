//! `site DIR`: the event's static web site — standings, pairings, result slips, judges' records and
//! reports — as plain HTML files with one stylesheet, no JavaScript (except the projector clock) and no
//! network.
//!
//! Each kind of page is drawn by a function of its module from the event ([`Event`]) and what it read from
//! the event file, with one askama template in `templates/site/` that extends `site/base.html`. The pages are
//! drawn on two threads ([`jobs`]): the thread holding the event file reads, either thread draws and writes;
//! each page keeps its place in the site's order ([`Place`]: its kind's rank, listed below in the index's
//! order, then its round), whatever the order the pages are drawn in.
//!
//! `site DIR` writes the public site (what players may read: pairings, standings, result slips, the
//! clock); `site DIR --judges` adds the judges' pages (each round's wall sheet to print, library contents,
//! note sheets, deck sheets, the judges' records, card pages). A public run over an earlier judges' site
//! removes its judges-only pages (the folder's marker lists what mmjudge wrote).

mod cards;
mod clock;
mod decks;
mod index;
mod jobs;
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
use jobs::Jobs;
use std::path::Path;

pub use crate::ops::site::{Event, Frame, Page, Pages, Place, Site, Written};

/// The ranks of the kinds of page, in the order the index lists them: the standings after each round, the
/// pairings by table and by name, the wall sheet (judges only), the result slips; then the judges' pages (note
/// sheets, the judges' records, card pages, the library report, deck sheets); the projector clock; the index
/// last.
const STANDINGS: usize = 0;
const PAIRINGS: usize = 1;
const BY_NAME: usize = 2;
const WALL: usize = 3;
const SLIPS: usize = 4;
const NOTES: usize = 5;
const JUDGING: usize = 6;
const CARDS: usize = 7;
const LIBRARIES: usize = 8;
const DECKS: usize = 9;
const CLOCK: usize = 10;
const INDEX: usize = 11;

/// Who a site is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Players and spectators: pairings, standings, result slips, the clock.
    Public,
    /// The judges: every page, with the judges' own: library contents, note sheets, deck sheets, the judges'
    /// records (remarks, penalties) and the card pages they link.
    Judges,
}

impl Page {
    /// Round `r`'s page of a kind: `round-R-KIND.html`, linked as `link` in the round's row of the index.
    pub fn of_round(r: u32, kind: &str, link: &str, page: &impl askama::Template) -> Result<Page> {
        Ok(Page { file: format!("round-{r}-{kind}.html"), round: Some(r), link: link.into(), html: render(page)? })
    }
}

/// Renders an askama template, or says which page could not be written.
pub fn render(page: &impl askama::Template) -> Result<String> {
    let mut html = Pages::buffer();
    page.render_into(&mut html).map_err(|e| Error::refused(format!("cannot write a page of the site: {e}")))?;
    Ok(html)
}

/// A match's table for people (`bye` when it had none).
pub fn table_text(table: Option<u32>) -> String {
    table.map_or_else(|| "bye".into(), |t| t.to_string())
}

/// Draws every page of the site for `audience` into `out`, on two threads, index last.
pub fn build(site: &Site, audience: Audience, out: &Pages) -> Result<()> {
    let slips = slips::Shared::load(site)?;
    let jobs = Jobs::new();
    std::thread::scope(|s| {
        let helper = s.spawn(|| jobs.work());
        read_and_hand_on(site, audience, out, &jobs, &slips);
        jobs.close();
        jobs.work();
        if let Err(panic) = helper.join() {
            std::panic::resume_unwind(panic);
        }
    });
    jobs.finish()?;
    let index = index::page(site, &out.pages())?;
    out.put((INDEX, 0), index)
}

/// Puts `page`, drawn by `draw`, at `place`.
fn put(out: &Pages, place: Place, draw: impl FnOnce() -> Result<Page>) -> std::result::Result<(), (Place, Error)> {
    draw().and_then(|page| out.put(place, page)).map_err(|e| (place, e))
}

/// Reads what each page needs from the event file and hands its drawing on (or draws it here, for the few
/// pages that read the event file as they are drawn), in the site's order.
fn read_and_hand_on<'s>(site: &'s Site, audience: Audience, out: &'s Pages, jobs: &Jobs<'s>, slips: &'s slips::Shared) {
    let ev: &'s Event = &site.event;
    let (paired, played) = (ev.results.paired, ev.results.played);
    // The standings after round k (0: before round 1) show on their own page and as the points before round
    // k + 1 on its pairings: computed once for both, by one job per round.
    for k in 0..=paired.saturating_sub(1).max(played) {
        jobs.push((STANDINGS, k), move || round_pages(ev, k, out));
    }
    for r in 1..=paired {
        jobs.here((SLIPS, r), || {
            let turns = slips::turns(site, r).map_err(|e| ((SLIPS, r), e))?;
            jobs.push((SLIPS, r), move || put(out, (SLIPS, r), || slips::page(ev, r, &turns, slips)));
            Ok(())
        });
    }
    if audience == Audience::Judges {
        for r in 1..=paired {
            jobs.push((WALL, r), move || put(out, (WALL, r), || pairings::wall(ev, r)));
        }
        for r in 1..=paired {
            jobs.here((NOTES, r), || {
                let sheets = notes::sheets(site, r).map_err(|e| ((NOTES, r), e))?;
                jobs.push((NOTES, r), move || put(out, (NOTES, r), || notes::page(ev, r, &sheets)));
                Ok(())
            });
        }
        jobs.here((JUDGING, 0), || put(out, (JUDGING, 0), || judging::page(site)));
        jobs.here((CARDS, 0), || cards::pages(site, out).map_err(|e| ((CARDS, 0), e)));
        jobs.push((LIBRARIES, 0), move || put(out, (LIBRARIES, 0), || libraries::page(ev)));
        jobs.here((DECKS, 0), || {
            let sheets = decks::sheets(site).map_err(|e| ((DECKS, 0), e))?;
            jobs.push((DECKS, 0), move || put(out, (DECKS, 0), || decks::page(ev, sheets)));
            Ok(())
        });
    }
    jobs.here((CLOCK, 0), || put(out, (CLOCK, 0), || clock::page(site)));
}

/// The pages of the standings after round `k`: its standings page (when `k` is a played round) and the
/// pairings of round `k + 1` (by table and by name, when paired) with the points before it (when `k` is
/// played, or 0).
fn round_pages(ev: &Event, k: u32, out: &Pages) -> std::result::Result<(), (Place, Error)> {
    let (paired, played) = (ev.results.paired, ev.results.played);
    let shown = (1..=played).contains(&k);
    let pairs = k < paired;
    let lines = (k <= played && (shown || pairs)).then(|| ev.results.standings_of_round(k));
    if shown {
        put(out, (STANDINGS, k), || standings::page(ev, k, lines.as_deref().unwrap_or_default()))?;
    }
    if pairs {
        let points = lines.as_deref().map(|l| ev.points_before(k + 1, l));
        drop(lines);
        let r = k + 1;
        put(out, (PAIRINGS, r), || pairings::by_table(ev, r, points.as_ref()))?;
        put(out, (BY_NAME, r), || pairings::by_name(ev, r, points.as_ref()))?;
    }
    Ok(())
}

/// Writes the event's site into `dir` (see [`Pages`]), one page at a time. The pages are drawn in one read
/// transaction, so they all show the same moment.
pub fn write_site(store: &crate::store::Store, dir: &Path, force: bool, audience: Audience) -> Result<Written> {
    store.read(|conn| {
        let site = Site::load(conn)?;
        let out = Pages::open(dir, force)?;
        build(&site, audience, &out)?;
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
