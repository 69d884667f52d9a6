//! `report libraries` and `report players`: duplicate scoring of the fixed libraries (design:
//! movements.md, "Duplicate scoring").

use super::Ctx;
use super::standings::{Results, par, pct};
use crate::cli::standings::ReportCmd;
use crate::domain::duplicate::{self, GamePar, LibraryGame, LibraryRecord, Seat, TableRecord};
use crate::error::{Error, Result};
use crate::render::{Format, Listing, emit};
use crate::store::{PlayerId, event};
use rusqlite::Connection;
use serde::Serialize;
use std::collections::HashMap;

/// Runs a `report` verb.
pub fn run(ctx: &Ctx, cmd: ReportCmd) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    refuse_sealed(conn)?;
    let results = Results::load(conn)?;
    match cmd {
        ReportCmd::Libraries => {
            let doc = libraries(&results);
            emit(ctx.format, &libraries_listing(&doc), &doc)
        }
        ReportCmd::Players { name } => {
            let only = match name {
                Some(n) => Some(super::player::resolve(conn, &n)?.id),
                None => None,
            };
            let doc = players(&results, only);
            let listing = match (only, ctx.format) {
                (None, Format::Human) => players_listing(&doc),
                _ => games_listing(&doc),
            };
            emit(ctx.format, &listing, &doc)
        }
    }
}

/// Whether the event plays with fixed libraries (the duplicate reports need them).
pub fn fixed_libraries(conn: &Connection) -> Result<bool> {
    Ok(event::values(conn)?.text("libraries") == "fixed")
}

fn refuse_sealed(conn: &Connection) -> Result<()> {
    if fixed_libraries(conn)? {
        return Ok(());
    }
    Err(Error::refused(
        "the duplicate reports compare fixed libraries, and this event's libraries are sealed (event setting `libraries`)",
    ))
}

/// The label of a fixed library: table and seat, e.g. `3A`.
pub fn label(table: u32, seat: Seat) -> String {
    format!("{table}{seat:?}")
}

/// The `--json` document of `report libraries`.
#[derive(Debug, Serialize)]
pub struct LibrariesDoc {
    /// Significance level below which a table's pair of libraries is flagged lopsided.
    pub alpha: f64,
    /// Decided games counted.
    pub games: usize,
    /// Decided games left out because they were not played with one table's two fixed libraries.
    pub left_out: usize,
    /// One line per table.
    pub tables: Vec<TableLine>,
    /// One line per library.
    pub libraries: Vec<LibraryLine>,
}

/// A table's two libraries against each other.
#[derive(Debug, Serialize)]
pub struct TableLine {
    /// Label of library A (`3A`).
    pub library_a: String,
    /// Label of library B (`3B`).
    pub library_b: String,
    /// The record and test.
    #[serde(flatten)]
    pub record: TableRecord,
}

/// One library's record.
#[derive(Debug, Serialize)]
pub struct LibraryLine {
    /// Its label (`3A`).
    pub library: String,
    /// The record.
    #[serde(flatten)]
    pub record: LibraryRecord,
}

/// The library report over every result recorded so far.
pub fn libraries(results: &Results) -> LibrariesDoc {
    let (games, left_out) = results.library_games(results.paired);
    let report = duplicate::library_report(&games);
    LibrariesDoc {
        alpha: report.alpha,
        games: games.len(),
        left_out,
        tables: report
            .tables
            .into_iter()
            .map(|t| TableLine { library_a: label(t.table, Seat::A), library_b: label(t.table, Seat::B), record: t })
            .collect(),
        libraries: report
            .libraries
            .into_iter()
            .map(|l| LibraryLine { library: label(l.table, l.seat), record: l })
            .collect(),
    }
}

fn libraries_listing(doc: &LibrariesDoc) -> Listing {
    let mut listing = Listing::new(&["table", "A", "B", "A-B-draws", "A win rate", "B win rate", "p-value", "flag"])
        .titled("Libraries: A against B at each table");
    let rate: HashMap<&str, f64> = doc.libraries.iter().map(|l| (l.library.as_str(), l.record.win_rate)).collect();
    for t in &doc.tables {
        let r = &t.record;
        listing.row(vec![
            r.table.to_string(),
            t.library_a.clone(),
            t.library_b.clone(),
            format!("{}-{}-{}", r.a_wins, r.b_wins, r.draws),
            pct(rate.get(t.library_a.as_str()).copied().unwrap_or(0.0)),
            pct(rate.get(t.library_b.as_str()).copied().unwrap_or(0.0)),
            pct(r.p_value),
            if r.lopsided { "lopsided".into() } else { String::new() },
        ]);
    }
    listing.footer.push(format!(
        "{}; p-value: two-sided binomial test of the decided games (draws left out); lopsided below {} (6-0 is p = 0.031)",
        crate::domain::words::count(doc.games, "game"),
        doc.alpha
    ));
    if doc.left_out > 0 {
        listing.footer.push(format!(
            "{} left out: not played with one table's two fixed libraries",
            crate::domain::words::count(doc.left_out, "game")
        ));
    }
    listing
}

/// The `--json` document of `report players`.
#[derive(Debug, Serialize)]
pub struct PlayersDoc {
    /// Best above par first.
    pub players: Vec<PlayerLine>,
}

/// A player's duplicate score.
#[derive(Debug, Serialize)]
pub struct PlayerLine {
    /// The player's id.
    pub player_id: PlayerId,
    /// The player's name.
    pub name: String,
    /// Games won with fixed libraries.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// Sum of (result - par) over the games that have a par.
    pub above_par: f64,
    /// Mean matchpoint% (1/2 + (result - par)/2) over the games with a par.
    pub matchpoint_pct: Option<f64>,
    /// The games, by round.
    pub games: Vec<GameLine>,
}

/// One game of a player with its library and par.
#[derive(Debug, Serialize)]
pub struct GameLine {
    /// The library the player used (`3A`).
    pub library: String,
    /// The opponent's id.
    pub opponent_id: Option<PlayerId>,
    /// The opponent's name.
    pub opponent: String,
    /// The game, its result (1, 0.5, 0) and par.
    #[serde(flatten)]
    pub game: GamePar,
}

/// Every player's (or one player's) games against par over every result recorded so far.
pub fn players(results: &Results, only: Option<PlayerId>) -> PlayersDoc {
    let (games, _) = results.library_games(results.paired);
    let at: HashMap<(u32, u32), &LibraryGame> = games.iter().map(|g| ((g.round, g.table), g)).collect();
    let name = |i: usize| results.players.get(i).map(|p| p.name.clone()).unwrap_or_default();
    let mut players: Vec<PlayerLine> = duplicate::player_par(&games)
        .into_iter()
        .filter_map(|p| Some((results.players.get(p.index)?.id, p)))
        .filter(|(id, _)| only.is_none_or(|o| o == *id))
        .map(|(player_id, p)| PlayerLine {
            player_id,
            name: name(p.index),
            wins: p.wins,
            losses: p.losses,
            draws: p.draws,
            above_par: p.above_par,
            matchpoint_pct: p.matchpoint_pct,
            games: p
                .games
                .into_iter()
                .map(|g| {
                    let other =
                        at.get(&(g.round, g.table)).map(|x| if g.seat == Seat::A { x.b_player } else { x.a_player });
                    GameLine {
                        library: label(g.table, g.seat),
                        opponent_id: other.and_then(|i| results.players.get(i)).map(|p| p.id),
                        opponent: other.map(name).unwrap_or_default(),
                        game: g,
                    }
                })
                .collect(),
        })
        .collect();
    players.sort_by(|x, y| y.above_par.total_cmp(&x.above_par).then(y.wins.cmp(&x.wins)).then(x.name.cmp(&y.name)));
    PlayersDoc { players }
}

fn players_listing(doc: &PlayersDoc) -> Listing {
    let mut listing = Listing::new(&["player", "record", "games with par", "above par", "matchpoint%"])
        .titled("Players against par (result minus the other users' win rate of the same library)");
    for p in &doc.players {
        listing.row(vec![
            p.name.clone(),
            format!("{}-{}-{}", p.wins, p.losses, p.draws),
            p.games.iter().filter(|g| g.game.par.is_some()).count().to_string(),
            par(p.above_par),
            p.matchpoint_pct.map(pct).unwrap_or_default(),
        ]);
    }
    listing.footer.push("one player's games with their libraries and par: `mmjudge report players NAME`".into());
    listing
}

fn games_listing(doc: &PlayersDoc) -> Listing {
    let mut listing = Listing::new(&["player", "round", "library", "opponent", "result", "par", "above par"]);
    if let [one] = doc.players.as_slice() {
        listing.title = Some(format!("{}: {} above par", one.name, par(one.above_par)));
    }
    for p in &doc.players {
        for g in &p.games {
            let result = match g.game.result {
                r if r >= 1.0 => "won",
                r if r <= 0.0 => "lost",
                _ => "drew",
            };
            listing.row(vec![
                p.name.clone(),
                g.game.round.to_string(),
                g.library.clone(),
                g.opponent.clone(),
                result.into(),
                g.game.par.map(pct).unwrap_or_else(|| "-".into()),
                g.game.par.map(|x| par(g.game.result - x)).unwrap_or_else(|| "-".into()),
            ]);
        }
    }
    listing
        .footer
        .push("par: the mean result of the other players who used that library; - when nobody else has".into());
    listing
}
