//! `site DIR`: the event's static web site — standings, pairings, result slips, judges' records and
//! reports — as plain HTML files with one stylesheet, no JavaScript (except the projector clock) and no
//! network.
//!
//! Each page is one builder function (`fn(&Site) -> Result<Vec<Page>>`) plus one askama template in
//! `templates/site/` that extends `site/base.html`. [`BUILDERS`] lists them in the index's order; the
//! index links every page a builder returned (round pages in the round's row, under the page's `link`).

mod clock;
mod decks;
mod folder;
mod index;
mod judging;
mod libraries;
mod notes;
mod pairings;
mod slips;
mod standings;

use super::Ctx;
use crate::ops::standings::{Line, Results};
use crate::cli::standings::SiteArgs;
use crate::domain::settings::Values;
use crate::error::{Error, Result};
use crate::render::done;
use crate::store::matches::Match;
use crate::store::{LibraryId, PlayerId, event};
use chrono::{DateTime, Utc};
use rusqlite::Connection;
use std::path::Path;

/// Builds the pages of one kind. Round pages set [`Page::round`].
pub type Builder = fn(&Site) -> Result<Vec<Page>>;

/// Every page builder, in the order the index lists their pages.
pub const BUILDERS: &[Builder] = &[
    standings::pages,
    pairings::by_table,
    pairings::by_name,
    slips::pages,
    notes::pages,
    judging::page,
    libraries::page,
    decks::page,
    clock::page,
];

/// One written page.
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
    /// Round `r`'s page of a kind: `round-R-KIND.html`, linked as `link` in the round's row of the index.
    pub fn of_round(r: u32, kind: &str, link: &str, page: &impl askama::Template) -> Result<Page> {
        Ok(Page { file: format!("round-{r}-{kind}.html"), round: Some(r), link: link.into(), html: render(page)? })
    }

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
}

/// The event, loaded once for every builder. Builders needing more read it through `conn` with `store` calls.
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
        Frame { event: self.settings.name().to_string(), title: title.into(), generated }
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
        self.results.matches.iter().filter(move |m| m.round == r)
    }

    /// Match points of each player before round `r` (None when round `r - 1` is not played).
    pub fn points_before(&self, r: u32) -> Option<std::collections::HashMap<PlayerId, u32>> {
        let table = self.standings.get(usize::try_from(r.checked_sub(1)?).ok()?)?;
        Some(table.iter().map(|l| (l.player_id, l.points)).collect())
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

/// Every page of the site, index last.
pub fn build(site: &Site) -> Result<Vec<Page>> {
    let mut pages = Vec::new();
    for builder in BUILDERS {
        pages.extend(builder(site)?);
    }
    let index = index::page(site, &pages)?;
    pages.push(index);
    Ok(pages)
}

/// What `write_site` wrote.
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

/// Writes the event's site into `dir` (created if missing). Refuses a file, and a non-empty folder that
/// is not an earlier mmjudge site unless `force`; replaces an earlier site's pages, removing those that
/// no longer exist. The pages are built in one read transaction, so they all show the same moment.
pub fn write_site(store: &crate::store::Store, dir: &Path, force: bool) -> Result<Written> {
    let pages = store.read(|conn| {
        let site = Site::load(conn)?;
        build(&site)
    })?;
    let earlier = folder::check(dir, &pages, force)?;
    folder::write(dir, &pages, &earlier, force)
}

/// Runs `site DIR [--force]`.
pub fn run(ctx: &Ctx, args: SiteArgs) -> Result<()> {
    let store = ctx.open()?;
    let written = write_site(&store, &args.dir, args.force)?;
    let summary = format!("wrote the site ({} files) to {}: open {}", written.files.len(), written.dir, written.index);
    done(ctx.format, &summary, serde_json::to_value(&written).unwrap_or_default())
}
