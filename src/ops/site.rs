//! The event's static web site: the event loaded once for every page ([`Site`]), what each page reads
//! ([`read`]), the site built in one read transaction ([`write`]: what `site DIR` and the demo call), and
//! writing the pages into a folder that is new, empty or an earlier site ([`Pages`]). The pages themselves
//! are drawn by `render::site` (HTML templates), through [`Draw`].
//!
//! `Audience::Public` writes the public site (what players may read: pairings, standings, result slips, the
//! clock); `Audience::Judges` adds the judges' pages (each round's wall sheet to print, library contents,
//! note sheets, deck sheets, the judges' records, card pages). A public run over an earlier judges' site
//! removes its judges-only pages (the folder's marker lists what mmjudge wrote).

mod archive;
mod build;
mod folder;
mod jobs;
mod one;
mod read;

pub use archive::archive;
pub use build::{Audience, Draw, write};
pub use folder::{MARKER, STYLE};
pub use one::{One, one_page};
pub use read::{Clock, Declared, SlipShared, card_file};

use crate::domain::settings::Values;
use crate::error::Result;
use crate::ops::standings::{Line, Results};
use crate::output::{Batch, Kind};
use crate::store::challenge::{self, Challenge};
use crate::store::matches::Match;
use crate::store::penalty::{self, Penalty};
use crate::store::ruling::{self, Ruling};
use crate::store::voids::{self, VoidKind, Voided};
use crate::store::{LibraryId, MatchId, PlayerId, event};
use chrono::{DateTime, Utc};
use rusqlite::Connection;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// One page of the site.
#[derive(Debug, Clone)]
pub struct Page {
    /// File name inside the site folder (no folders).
    pub file: String,
    /// The round it belongs to, if it is a round's page.
    pub round: Option<u32>,
    /// The link text in the index (a column of the rounds table for round pages).
    pub link: String,
    /// The page.
    pub html: String,
}

impl Page {
    /// A page of the whole event, `file`, linked as `link` in the index.
    pub fn of_event(file: &str, link: &str, html: String) -> Page {
        Page { file: file.into(), round: None, link: link.into(), html }
    }
}

/// What every page shows around its content (see `templates/site/base.html`).
#[derive(Debug, Clone)]
pub struct Frame {
    /// The event's name.
    pub event: String,
    /// The page's title.
    pub title: String,
    /// When the site was written, for people.
    pub generated: String,
    /// The line repeated at the top of every printed sheet: the event's name, its day, the round (the
    /// page's own, else the round paired last) and the page's title.
    pub head: String,
}

/// The event, loaded once for every page: what any thread drawing pages may read ([`Site`] adds the event
/// file, for the pages that read more).
pub struct Event {
    /// The event's settings (its name among them).
    pub settings: Values,
    /// Players, matches, libraries and how far the event has got.
    pub results: Results,
    /// Each player's name folded for sorting ([`crate::domain::names::fold`]), by player index.
    pub folded: Vec<String>,
    /// Each library's label (`3A`), by id.
    pub labels: HashMap<LibraryId, String>,
    /// When the site is written.
    pub now: DateTime<Utc>,
    /// The event is over (see [`crate::ops::standings::is_over`]): the last round's standings are final.
    pub finished: bool,
}

/// The event, loaded once for every page, and the event file for page-specific reads (`store` calls).
/// Everything of [`Event`] is reached through it (`site.results`).
pub struct Site<'c> {
    /// The event file, for page-specific reads.
    conn: &'c Connection,
    /// What every page reads.
    pub event: Event,
}

impl std::ops::Deref for Site<'_> {
    type Target = Event;
    fn deref(&self) -> &Event {
        &self.event
    }
}

impl<'c> Site<'c> {
    /// Loads the event. The standings after each round are computed by the pages that show them
    /// ([`Results::standings`]), one round at a time.
    pub fn load(conn: &'c Connection) -> Result<Site<'c>> {
        let settings = event::values(conn)?;
        let results = Results::load(conn)?;
        let folded = results.players.iter().map(|p| crate::domain::names::fold(&p.name)).collect();
        let labels = results.libraries.iter().map(|(id, l)| (*id, l.label())).collect();
        let finished = crate::ops::standings::is_over(conn, &results)?;
        let now = crate::time::now()?;
        Ok(Site { conn, event: Event { settings, results, folded, labels, now, finished } })
    }
}

impl Event {
    /// The frame of a page titled `title`.
    pub fn frame(&self, title: impl Into<String>) -> Frame {
        let generated = self.now.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M").to_string();
        let title: String = title.into();
        let head = crate::ops::event::PrintHead {
            event: self.settings.name().to_string(),
            date: self.settings.date().to_string(),
            round: self.results.paired,
        };
        // A round page's title names its round ("Round 2: pairings"); other pages get the round paired last.
        let head = match title.strip_prefix("Round ").and_then(|t| t.split(':').next()?.parse().ok()) {
            Some(r) => head.line(Some(r), title.split_once(": ").map_or("", |t| t.1)),
            None => head.line(None, &title),
        };
        Frame { event: self.settings.name().to_string(), title, generated, head }
    }

    /// A player's name.
    pub fn name(&self, p: PlayerId) -> &str {
        self.results.index_of(p).and_then(|i| self.results.players.get(i)).map_or("?", |x| x.name.as_str())
    }

    /// A library's label (`3A`), or empty.
    pub fn library(&self, id: Option<LibraryId>) -> String {
        self.label(id).to_string()
    }

    /// [`Event::library`], borrowed.
    pub fn label(&self, id: Option<LibraryId>) -> &str {
        id.and_then(|id| self.labels.get(&id)).map_or("", String::as_str)
    }

    /// The libraries carried in round `r` for players who stay at one table: each from its own table to the
    /// table its game is played at.
    pub fn carried(&self, r: u32) -> Vec<crate::ops::pairings::Carry> {
        let mut carry = Vec::new();
        for m in self.round_matches(r) {
            let Some(to) = m.table else { continue };
            for id in [m.a_library, m.b_library].into_iter().flatten() {
                let Some(lib) = self.results.libraries.get(&id) else { continue };
                if let Some(from) = lib.table.filter(|&t| t != to) {
                    carry.push(crate::ops::pairings::Carry { library: lib.label(), from, to });
                }
            }
        }
        carry.sort_by_key(|c| (c.to, c.from));
        carry
    }

    /// The tables with libraries where no game is played in round `r`, in order (see
    /// [`crate::ops::pairings::idle_tables`]).
    pub fn idle(&self, r: u32) -> Vec<u32> {
        let mut played: std::collections::HashSet<u32> = self.round_matches(r).filter_map(|m| m.table).collect();
        // A table whose libraries are carried to another is not idle either.
        let used = self.round_matches(r).flat_map(|m| [m.a_library, m.b_library]).flatten();
        played.extend(used.filter_map(|id| self.results.libraries.get(&id)?.table));
        let fixed: std::collections::BTreeSet<u32> =
            self.results.libraries.values().filter_map(|lib| lib.table).collect();
        fixed.into_iter().filter(|t| !played.contains(t)).collect()
    }

    /// The matches and byes of round `r`, tables in order, byes last.
    pub fn round_matches(&self, r: u32) -> impl Iterator<Item = &Match> {
        // The matches are in round order: the round's are one run of them, found by halving.
        let all = &self.results.matches;
        let (from, to) = (all.partition_point(|m| m.round < r), all.partition_point(|m| m.round <= r));
        all[from..to.max(from)].iter()
    }

    /// Match points of each player in `standings` (the standings after the round before a round).
    pub fn points(standings: &[Line]) -> HashMap<PlayerId, u32> {
        standings.iter().map(|l| (l.player_id, l.points)).collect()
    }

    /// Match points before round `r` of each player, from `standings` (the standings of round `r - 1`, which
    /// rank only the players in the event by then who played): a late entrant joining at `r`, or a player who
    /// has played nothing yet, has none.
    pub fn points_before(&self, r: u32, standings: &[Line]) -> HashMap<PlayerId, u32> {
        let mut points = Event::points(standings);
        for p in self.results.players.iter().filter(|p| p.joined_round <= r && !p.disqualified) {
            points.entry(p.id).or_insert(0);
        }
        points
    }

    /// A player's name folded for sorting, by the player's id.
    pub fn folded(&self, p: PlayerId) -> &str {
        self.results.index_of(p).and_then(|i| self.folded.get(i)).map_or("?", String::as_str)
    }
}

/// Every challenge, ruling and penalty of the event, each with its void when voided.
pub struct Judging {
    /// The challenges, by round and table.
    pub challenges: Vec<(Challenge, Option<Voided>)>,
    /// The rulings.
    pub rulings: Vec<(Ruling, Option<Voided>)>,
    /// The penalties.
    pub penalties: Vec<(Penalty, Option<Voided>)>,
}

impl Site<'_> {
    /// The judges' records: every challenge, ruling and penalty, voided ones with their void.
    pub fn judging(&self) -> Result<Judging> {
        let conn = self.conn;
        let mut void_c = voids::of_kind(conn, VoidKind::Challenge)?;
        let mut void_r = voids::of_kind(conn, VoidKind::Ruling)?;
        let mut void_p = voids::of_kind(conn, VoidKind::Penalty)?;
        Ok(Judging {
            challenges: challenge::list(conn, None, None)?
                .into_iter()
                .map(|c| {
                    let v = void_c.remove(&c.id);
                    (c, v)
                })
                .collect(),
            rulings: ruling::list(conn, None)?
                .into_iter()
                .map(|r| {
                    let v = void_r.remove(&r.id);
                    (r, v)
                })
                .collect(),
            penalties: penalty::list(conn, None)?
                .into_iter()
                .map(|p| {
                    let v = void_p.remove(&p.id);
                    (p, v)
                })
                .collect(),
        })
    }

    /// Every challenge heard, by match.
    pub fn challenges_by_match(&self) -> Result<HashMap<MatchId, Vec<Challenge>>> {
        let mut by_match: HashMap<MatchId, Vec<Challenge>> = HashMap::new();
        for c in challenge::list(self.conn, None, None)? {
            by_match.entry(c.match_id).or_default().push(c);
        }
        Ok(by_match)
    }
}

/// What [`Pages`] wrote.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Written {
    /// The folder.
    pub dir: String,
    /// The index page's path.
    pub index: String,
    /// Every file written, stylesheet included.
    pub files: Vec<String>,
    /// Files of an earlier site that no longer belong (removed).
    pub removed: Vec<String>,
}

/// The site being written into a folder, one page at a time: each page's destination is checked, and the
/// page stamped and written to a temporary file beside it, as soon as the page is drawn (so no more than one
/// page per drawing thread is held in memory), and flushed to disk in the background ([`Batch`]);
/// [`Pages::finish`] renames every file into place once all are drawn, checked and flushed,
/// adds the stylesheet and the marker and removes an earlier site's pages that are gone. If anything fails
/// before, the temporary files go and the folder is as it was. A page whose file already holds exactly its
/// bytes is left as it is. Several threads may put pages at once; each page has its place in the site's
/// order (see [`Pages::put`]), whatever the order they come in.
pub struct Pages {
    dir: PathBuf,
    force: bool,
    earlier: folder::Earlier,
    /// The folder did not exist: it is removed again if the site is not written.
    created: bool,
    /// The pages drawn so far, without their HTML (for the index), each with its place.
    placed: Mutex<Vec<(Place, Page)>>,
    /// Temporary files ready to replace their destinations.
    batch: Batch,
    finished: bool,
}

/// A page's place in the site's order: its kind's rank, then its number among the pages of that kind.
pub type Place = (usize, u32);

thread_local! {
    /// The buffer the last page drawn on this thread was written from, kept for the next page (a page of
    /// several megabytes then needs no growing).
    static BUFFER: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
}

impl Pages {
    /// Starts a site in `dir` (created if missing). Refuses a file, and a non-empty folder that is not an
    /// earlier mmjudge site unless `force`.
    pub fn open(dir: &Path, force: bool) -> Result<Pages> {
        let earlier = folder::check(dir, force)?;
        let created = !dir.exists();
        std::fs::create_dir_all(dir).map_err(|e| crate::error::Error::io(dir, e))?;
        Ok(Pages {
            dir: dir.to_path_buf(),
            force,
            earlier,
            created,
            placed: Mutex::new(Vec::new()),
            batch: Batch::new(),
            finished: false,
        })
    }

    /// An empty buffer to draw a page into: the one this thread's last page left, capacity and all.
    pub fn buffer() -> String {
        let mut b = BUFFER.take();
        b.clear();
        b
    }

    /// Checks a page's destination and writes the page to its temporary file; keeps its name, round and link,
    /// at `place` in the site's order.
    pub fn put(&self, place: Place, mut page: Page) -> Result<()> {
        self.prepare(&page.file, Kind::SitePage, page.html.as_bytes())?;
        BUFFER.set(std::mem::take(&mut page.html));
        self.placed().push((place, page));
        Ok(())
    }

    fn placed(&self) -> MutexGuard<'_, Vec<(Place, Page)>> {
        self.placed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The pages drawn so far (their HTML already written away), in the site's order.
    pub fn pages(&self) -> Vec<Page> {
        let mut placed = self.placed().clone();
        placed.sort_by_key(|(place, _)| *place);
        placed.into_iter().map(|(_, page)| page).collect()
    }

    fn prepare(&self, file: &str, kind: Kind, contents: &[u8]) -> Result<()> {
        folder::check_file(&self.dir, &self.earlier, file, kind, self.force)?;
        let path = self.dir.join(file);
        self.batch.add_shared(&path, kind, contents)
    }

    /// Adds the stylesheet, renames every file into place, removes the earlier site's files that are gone and
    /// writes the marker listing what was written.
    pub fn finish(mut self) -> Result<Written> {
        self.prepare("style.css", Kind::SiteStyle, STYLE.as_bytes())?;
        folder::check_marker(&self.dir, &self.earlier, self.force)?;
        self.finished = true;
        std::mem::take(&mut self.batch).commit()?;
        let mut files: Vec<String> = self.pages().into_iter().map(|p| p.file).collect();
        files.push("style.css".into());
        folder::finish(&self.dir, files, &self.earlier)
    }
}

impl Drop for Pages {
    fn drop(&mut self) {
        if !self.finished {
            drop(std::mem::take(&mut self.batch));
            if self.created {
                let _ = std::fs::remove_dir(&self.dir);
            }
        }
    }
}
