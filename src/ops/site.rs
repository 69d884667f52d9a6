//! The event's static web site: the event loaded once for every page ([`Site`]), and writing the pages into
//! a folder that is new, empty or an earlier site ([`Pages`]). The pages themselves are drawn by the
//! front end (HTML templates).

mod folder;

pub use folder::{MARKER, STYLE};

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

/// The event, loaded once for every page. Pages needing more read it through `conn` with `store` calls.
pub struct Site<'c> {
    /// The event file, for page-specific reads.
    pub conn: &'c Connection,
    /// The event's settings (its name among them).
    pub settings: Values,
    /// Players, matches, libraries and how far the event has got.
    pub results: Results,
    /// `standings[r]`: the standings after round `r`, for `r` in `0..=results.played`.
    pub standings: Vec<Vec<Line>>,
    /// When the site is written.
    pub now: DateTime<Utc>,
}

impl<'c> Site<'c> {
    /// Loads the event and computes the standings after every played round.
    pub fn load(conn: &'c Connection) -> Result<Site<'c>> {
        let settings = event::values(conn)?;
        let results = Results::load(conn)?;
        let standings = (0..=results.played).map(|r| results.standings(r)).collect();
        Ok(Site { conn, settings, results, standings, now: crate::time::now()? })
    }

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
        id.and_then(|id| self.results.libraries.get(&id)).map(|l| l.label()).unwrap_or_default()
    }

    /// The matches and byes of round `r`, tables in order, byes last.
    pub fn round_matches(&self, r: u32) -> impl Iterator<Item = &Match> {
        // The matches are in round order: the round's are one run of them, found by halving.
        let all = &self.results.matches;
        let (from, to) = (all.partition_point(|m| m.round < r), all.partition_point(|m| m.round <= r));
        all[from..to.max(from)].iter()
    }

    /// Match points of each player before round `r` (None when round `r - 1` is not played).
    pub fn points_before(&self, r: u32) -> Option<HashMap<PlayerId, u32>> {
        let table = self.standings.get(usize::try_from(r.checked_sub(1)?).ok()?)?;
        Some(table.iter().map(|l| (l.player_id, l.points)).collect())
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
/// page is held in memory), and flushed to disk in the background ([`Batch`]); [`Pages::finish`] renames
/// every file into place once all are drawn, checked and flushed,
/// adds the stylesheet and the marker and removes an earlier site's pages that are gone. If anything fails
/// before, the temporary files go and the folder is as it was. A page whose file already holds exactly its
/// bytes is left as it is.
pub struct Pages {
    dir: PathBuf,
    force: bool,
    earlier: folder::Earlier,
    /// The folder did not exist: it is removed again if the site is not written.
    created: bool,
    /// The pages drawn so far, without their HTML (for the index).
    placed: Vec<Page>,
    /// Temporary files ready to replace their destinations.
    batch: Batch,
    finished: bool,
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
            placed: Vec::new(),
            batch: Batch::new(),
            finished: false,
        })
    }

    /// Checks a page's destination and writes the page to its temporary file; keeps its name, round and link.
    pub fn put(&mut self, mut page: Page) -> Result<()> {
        self.prepare(&page.file, Kind::SitePage, page.html.as_bytes())?;
        page.html = String::new();
        self.placed.push(page);
        Ok(())
    }

    /// The pages drawn so far (their HTML already written away).
    pub fn placed(&self) -> &[Page] {
        &self.placed
    }

    fn prepare(&mut self, file: &str, kind: Kind, contents: &[u8]) -> Result<()> {
        folder::check_file(&self.dir, &self.earlier, file, kind, self.force)?;
        let path = self.dir.join(file);
        self.batch.add(&path, kind, contents)
    }

    /// Adds the stylesheet, renames every file into place, removes the earlier site's files that are gone and
    /// writes the marker listing what was written.
    pub fn finish(mut self) -> Result<Written> {
        self.prepare("style.css", Kind::SiteStyle, STYLE.as_bytes())?;
        folder::check_marker(&self.dir, &self.earlier, self.force)?;
        self.finished = true;
        std::mem::take(&mut self.batch).commit()?;
        let mut files: Vec<String> = std::mem::take(&mut self.placed).into_iter().map(|p| p.file).collect();
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
