//! Building the site: everything a site holds is read in one read transaction and each page, drawn by a
//! [`Draw`] (the HTML pages of `render::site`), is written as soon as it is drawn ([`Pages`]).
//!
//! The pages are drawn on two threads ([`Jobs`]): the thread holding the event file reads, either thread
//! draws and writes; each page keeps its place in the site's order ([`Place`]: its kind's rank, listed below
//! in the index's order, then its round), whatever the order the pages are drawn in.

use super::jobs::Jobs;
use super::read::{Clock, Declared, SlipShared};
use super::{Event, Judging, Page, Pages, Place, Site, Written};
use crate::error::{Error, Result};
use crate::ops::library::sheets::{LibrarySheet, library_sheets};
use crate::ops::standings::AfterRound;
use crate::ops::table::records::sheet::{NoteSheet, note_sheets_of_round};
use crate::store::{MatchId, PlayerId, Store};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

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

/// Draws each kind of page of the site from what it read (the front ends pass `render::site::Html`).
/// Drawing may happen on either of two threads; it reads nothing from the event file.
pub trait Draw: Sync {
    /// `round-N-standings.html`: the standings after played round `r`, `lines`.
    fn standings(&self, ev: &Event, r: u32, after: &AfterRound) -> Result<Page>;
    /// `round-N-pairings.html`: the tables of paired round `r`, with `points` before the round.
    fn pairings(&self, ev: &Event, r: u32, points: Option<&HashMap<PlayerId, u32>>) -> Result<Page>;
    /// `round-N-pairings-by-name.html`: every player of paired round `r`, alphabetically, with their seat.
    fn by_name(&self, ev: &Event, r: u32, points: Option<&HashMap<PlayerId, u32>>) -> Result<Page>;
    /// `round-N-wall.html` (the judges' site): the wall sheet of paired round `r`.
    fn wall(&self, ev: &Event, r: u32) -> Result<Page>;
    /// `round-N-slips.html`: the slips of paired round `r`, with its `turns` at time.
    fn slips(&self, ev: &Event, r: u32, turns: &BTreeMap<MatchId, u32>, shared: &SlipShared) -> Result<Page>;
    /// `round-N-notes.html`: each table's note sheet of paired round `r`.
    fn notes(&self, ev: &Event, r: u32, sheets: &[NoteSheet]) -> Result<Page>;
    /// `judging.html`: every challenge, ruling and penalty, and the cards declared.
    fn judging(&self, ev: &Event, judging: Judging, declared: Vec<Declared>) -> Result<Page>;
    /// A declared card's page.
    fn card(&self, ev: &Event, view: crate::ops::cards::CardView, has_text: bool) -> Result<Page>;
    /// `libraries.html`: the duplicate report of the fixed libraries.
    fn libraries(&self, ev: &Event) -> Result<Page>;
    /// `decks.html`: every library's deck sheet.
    fn decks(&self, ev: &Event, sheets: Vec<LibrarySheet>) -> Result<Page>;
    /// `clock.html`: the latest round's projector clock, or a line saying how to start it.
    fn clock(&self, ev: &Event, clock: Clock) -> Result<Page>;
    /// `index.html`, linking `pages` (in the site's order).
    fn index(&self, ev: &Event, pages: &[Page]) -> Result<Page>;
}

/// Writes the event's site for `audience` into `dir` (see [`Pages`]), each page drawn by `draw` and written
/// as soon as it is drawn. Everything is read in one read transaction, so every page shows the same moment.
/// The one way to make a site: `site DIR`, the demo (and the server, should it make one) call it with
/// `render::site::Html`.
pub fn write(store: &Store, dir: &Path, force: bool, audience: Audience, draw: &dyn Draw) -> Result<Written> {
    store.read(|conn| {
        let site = Site::load(conn)?;
        let out = Pages::open(dir, force)?;
        build(&site, audience, draw, &out)?;
        out.finish()
    })
}

/// Draws every page of the site for `audience` into `out`, on two threads, index last.
fn build(site: &Site, audience: Audience, draw: &dyn Draw, out: &Pages) -> Result<()> {
    let slips = site.slip_shared()?;
    let jobs = Jobs::new();
    std::thread::scope(|s| {
        let helper = s.spawn(|| jobs.work());
        read_and_hand_on(site, audience, draw, out, &jobs, &slips);
        jobs.close();
        jobs.work();
        if let Err(panic) = helper.join() {
            std::panic::resume_unwind(panic);
        }
    });
    jobs.finish()?;
    let index = draw.index(site, &out.pages())?;
    out.put((INDEX, 0), index)
}

/// Puts `page`, drawn by `draw`, at `place`.
fn put(out: &Pages, place: Place, draw: impl FnOnce() -> Result<Page>) -> std::result::Result<(), (Place, Error)> {
    draw().and_then(|page| out.put(place, page)).map_err(|e| (place, e))
}

/// Reads what each page needs from the event file and hands its drawing on (or draws it here, for the few
/// pages whose reading and drawing go together), in the site's order.
fn read_and_hand_on<'s>(
    site: &'s Site,
    audience: Audience,
    draw: &'s dyn Draw,
    out: &'s Pages,
    jobs: &Jobs<'s>,
    slips: &'s SlipShared,
) {
    let ev: &'s Event = &site.event;
    let (paired, played) = (ev.results.paired, ev.results.played);
    // The standings after round k (0: before round 1) show on their own page and as the points before round
    // k + 1 on its pairings: computed once for both, by one job per round.
    for k in 0..=paired.saturating_sub(1).max(played) {
        jobs.push((STANDINGS, k), move || round_pages(ev, k, draw, out));
    }
    for r in 1..=paired {
        jobs.here((SLIPS, r), || {
            let turns = crate::store::matches::turns_of_round(site.conn, r).map_err(|e| ((SLIPS, r), e))?;
            jobs.push((SLIPS, r), move || put(out, (SLIPS, r), || draw.slips(ev, r, &turns, slips)));
            Ok(())
        });
    }
    if audience == Audience::Judges {
        for r in 1..=paired {
            jobs.push((WALL, r), move || put(out, (WALL, r), || draw.wall(ev, r)));
        }
        for r in 1..=paired {
            jobs.here((NOTES, r), || {
                let sheets = note_sheets_of_round(site.conn, r).map_err(|e| ((NOTES, r), e))?;
                jobs.push((NOTES, r), move || put(out, (NOTES, r), || draw.notes(ev, r, &sheets)));
                Ok(())
            });
        }
        jobs.here((JUDGING, 0), || {
            put(out, (JUDGING, 0), || {
                let judging = site.judging()?;
                draw.judging(ev, judging, site.declared()?)
            })
        });
        jobs.here((CARDS, 0), || card_pages(site, draw, out).map_err(|e| ((CARDS, 0), e)));
        jobs.push((LIBRARIES, 0), move || put(out, (LIBRARIES, 0), || draw.libraries(ev)));
        jobs.here((DECKS, 0), || {
            let sheets = library_sheets(site.conn).map_err(|e| ((DECKS, 0), e))?;
            jobs.push((DECKS, 0), move || put(out, (DECKS, 0), || draw.decks(ev, sheets)));
            Ok(())
        });
    }
    jobs.here((CLOCK, 0), || put(out, (CLOCK, 0), || draw.clock(ev, site.clock()?)));
}

/// The pages of the standings after round `k`: its standings page (when `k` is a played round) and the
/// pairings of round `k + 1` (by table and by name, when paired) with the points before it (when `k` is
/// played, or 0).
fn round_pages(ev: &Event, k: u32, draw: &dyn Draw, out: &Pages) -> std::result::Result<(), (Place, Error)> {
    let (paired, played) = (ev.results.paired, ev.results.played);
    let shown = (1..=played).contains(&k);
    let pairs = k < paired;
    let after = (k <= played && (shown || pairs)).then(|| ev.results.standings_of_round(k));
    if let (true, Some(after)) = (shown, &after) {
        put(out, (STANDINGS, k), || draw.standings(ev, k, after))?;
    }
    if pairs {
        let points = after.as_ref().map(|a| ev.points_before(k + 1, &a.lines));
        drop(after);
        let r = k + 1;
        put(out, (PAIRINGS, r), || draw.pairings(ev, r, points.as_ref()))?;
        put(out, (BY_NAME, r), || draw.by_name(ev, r, points.as_ref()))?;
    }
    Ok(())
}

/// A page for every card declared in the event (none without a card reference).
fn card_pages(site: &Site, draw: &dyn Draw, out: &Pages) -> Result<()> {
    use crate::ops::card_reference as reference;
    use crate::ops::cards;
    let has_text = cards::reference_has_text(site.conn)?;
    let mut done: Vec<String> = Vec::new();
    for d in site.declared()? {
        let Some(file) = d.page else { continue };
        if done.contains(&file) {
            continue;
        }
        done.push(file);
        if let Some(card) = reference::lookup(site.conn, &d.card)? {
            let at = u32::try_from(done.len()).unwrap_or(u32::MAX);
            out.put((CARDS, at), draw.card(site, cards::view_of(site.conn, card, None, None)?, has_text)?)?;
        }
    }
    Ok(())
}
