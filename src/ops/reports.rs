//! The duplicate reports of the fixed libraries (design: movements.md, "Duplicate scoring"): each table's
//! library A against library B, and each player's games against par.

use crate::domain::duplicate::{self, GamePar, LibraryGame, LibraryRecord, Seat, TableRecord};
use crate::error::{Error, Result};
use crate::ops::standings::Results;
use crate::store::{PlayerId, event};
use rusqlite::Connection;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

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

/// `report libraries`: the library report over every result recorded so far; refused for sealed libraries.
pub fn libraries(conn: &Connection) -> Result<LibraryReport> {
    refuse_sealed(conn)?;
    Ok(library_report(&Results::load(conn)?))
}

/// `report players [NAME]`: every player's (or the one named player's) games against par over every
/// result recorded so far; refused for sealed libraries.
pub fn players(conn: &Connection, only: Option<&str>) -> Result<PlayerReport> {
    refuse_sealed(conn)?;
    let results = Results::load(conn)?;
    let only = match only {
        Some(n) => Some(crate::ops::player_names::find(conn, n)?.id),
        None => None,
    };
    Ok(player_report(&results, only))
}

/// The library report (the `--json` document of `report libraries`).
#[derive(Debug, Serialize)]
pub struct LibraryReport {
    /// Significance level below which a table's pair of libraries is flagged lopsided.
    pub alpha: f64,
    /// Decided games counted.
    pub games: usize,
    /// Decided games left out because they were not played with one table's two fixed libraries.
    pub left_out: usize,
    /// Results left out because they were not games played: byes, no-shows, penalties (tardiness and other
    /// game or match losses) and intentional draws.
    pub not_games: usize,
    /// Those results by reason (`bye`, `no-show`, `penalty`, `intentional-draw`).
    pub not_games_by_reason: BTreeMap<String, usize>,
    /// One line per table.
    pub tables: Vec<TableLine>,
    /// One line per library.
    pub libraries: Vec<LibraryLine>,
    /// Seat A against seat B over every table (a draw half a win), with its exact interval.
    pub seat_a: duplicate::SeatRecord,
}

/// "3 results left out, not games played: 2 byes, 1 no-show" (nothing when none).
pub fn not_games_words(by_reason: &BTreeMap<String, usize>) -> Option<String> {
    let total: usize = by_reason.values().sum();
    if total == 0 {
        return None;
    }
    let noun = |r: &str| match r {
        "penalty" => "penalty result".to_string(),
        "intentional-draw" => "intentional draw".to_string(),
        other => other.to_string(),
    };
    let parts: Vec<String> = by_reason.iter().map(|(r, &n)| crate::domain::words::count(n as i64, &noun(r))).collect();
    Some(format!(
        "{} left out, not games played: {}",
        crate::domain::words::count(total as i64, "result"),
        parts.join(", ")
    ))
}

impl LibraryReport {
    /// A library's win rate by its label (0 when it has none).
    pub fn win_rate(&self, label: &str) -> f64 {
        self.libraries.iter().find(|l| l.library == label).map_or(0.0, |l| l.record.win_rate)
    }
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

/// The library report over every result recorded so far, from results already loaded.
pub fn library_report(results: &Results) -> LibraryReport {
    let (games, left_out) = results.library_games(results.paired);
    let report = duplicate::library_report(&games);
    let not_games_by_reason = results.not_games(results.paired);
    let seat_a = duplicate::seat_a(&report.tables, report.alpha);
    LibraryReport {
        seat_a,
        alpha: report.alpha,
        games: games.len(),
        left_out,
        not_games: not_games_by_reason.values().sum(),
        not_games_by_reason,
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

/// The players against par (the `--json` document of `report players`).
#[derive(Debug, Serialize)]
pub struct PlayerReport {
    /// Best above par first.
    pub players: Vec<PlayerLine>,
    /// Results left out because they were not games played (see [`LibraryReport::not_games`]).
    pub not_games: usize,
    /// Those results by reason.
    pub not_games_by_reason: BTreeMap<String, usize>,
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

/// Every player's (or one player's) games against par over every result recorded so far, from results
/// already loaded.
pub fn player_report(results: &Results, only: Option<PlayerId>) -> PlayerReport {
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
    let not_games_by_reason = results.not_games(results.paired);
    PlayerReport { players, not_games: not_games_by_reason.values().sum(), not_games_by_reason }
}
