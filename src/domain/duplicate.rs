//! Duplicate scoring for fixed libraries (design: movements.md, "Duplicate scoring").
//!
//! Each table holds two fixed libraries, one per seat; a library is named by (table, seat). Players
//! move, libraries stay, so a library's results over a round set show whether it is strong, and a
//! player can be scored against the other players who used the same library ("par").
//!
//! - Results: win 1, draw 1/2, loss 0. A library's win rate counts draws as half a win.
//! - Per table, library A's record against library B is tested with a two-sided exact binomial test
//!   (draws left out, p = 1/2); pairs below `alpha` (0.05 by default) are flagged as lopsided.
//! - A game's par for a player is the mean result of the OTHER players who used that library (all
//!   games the player had with that library are left out); no such player: no par. Wins above par =
//!   sum of (result - par) over the games that have a par; matchpoint% = 1/2 + (result - par)/2.
//! - A game that pairs a player with themself is ignored.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::standings::Outcome;

/// Default significance level for flagging a lopsided pair of libraries.
pub const DEFAULT_ALPHA: f64 = 0.05;

/// Seat at a table; each seat holds one fixed library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// Seat A (library tA).
    A,
    /// Seat B (library tB).
    B,
}

/// One game played with fixed libraries: the player at seat A used library (table, A).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LibraryGame {
    /// Round number.
    pub round: u32,
    /// Table number (libraries are fixed per table and seat).
    pub table: u32,
    /// Player at seat A.
    pub a_player: usize,
    /// Player at seat B.
    pub b_player: usize,
    /// Result, seen from seat A.
    pub outcome: Outcome,
}

/// Library A against library B at one table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRecord {
    /// Table number.
    pub table: u32,
    /// Games won by library A.
    pub a_wins: u32,
    /// Games won by library B.
    pub b_wins: u32,
    /// Drawn games (left out of the test).
    pub draws: u32,
    /// Two-sided exact binomial p-value of the decisive games (1 when there are none).
    pub p_value: f64,
    /// True when `p_value < alpha`.
    pub lopsided: bool,
}

/// Record of one library over every game it was used in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LibraryRecord {
    /// Table number.
    pub table: u32,
    /// Seat of the library.
    pub seat: Seat,
    /// Games played with it.
    pub games: u32,
    /// Games its user won.
    pub wins: u32,
    /// Games its user lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// (wins + draws / 2) / games.
    pub win_rate: f64,
    /// The exact (Clopper–Pearson) interval of the win rate at the report's level (a draw half a win): a
    /// library is off par only when the interval leaves out 0.5.
    pub interval: [f64; 2],
}

impl LibraryRecord {
    /// Whether the interval leaves out par (0.5): the library won more (or less) than chance explains.
    pub fn off_par(&self) -> bool {
        self.interval[0] > 0.5 || self.interval[1] < 0.5
    }
}

/// Judges' audit of the libraries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LibraryReport {
    /// Significance level used for `lopsided`.
    pub alpha: f64,
    /// One line per table, by table number.
    pub tables: Vec<TableRecord>,
    /// One line per library, by table then seat.
    pub libraries: Vec<LibraryRecord>,
}

/// One game of a player, with its par.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GamePar {
    /// Round number.
    pub round: u32,
    /// Table number.
    pub table: u32,
    /// Seat, hence library, the player used.
    pub seat: Seat,
    /// 1 win, 0.5 draw, 0 loss.
    pub result: f64,
    /// Mean result of the other players with this library, if any.
    pub par: Option<f64>,
    /// 1/2 + (result - par)/2, when there is a par.
    pub matchpoint_pct: Option<f64>,
}

/// A player's duplicate score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerPar {
    /// Player index.
    pub index: usize,
    /// The player's games, by round.
    pub games: Vec<GamePar>,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Sum of (result - par) over the games with a par.
    pub above_par: f64,
    /// Mean matchpoint% over the games with a par (None if no game has one).
    pub matchpoint_pct: Option<f64>,
}

/// Library report with the default significance level (0.05).
pub fn library_report(games: &[LibraryGame]) -> LibraryReport {
    library_report_with(games, DEFAULT_ALPHA)
}

/// Library report flagging table pairs whose p-value is below `alpha`.
pub fn library_report_with(games: &[LibraryGame], alpha: f64) -> LibraryReport {
    let mut tables: BTreeMap<u32, [u32; 3]> = BTreeMap::new();
    let mut libraries: BTreeMap<(u32, Seat), [u32; 3]> = BTreeMap::new();
    for g in valid(games) {
        let slot = match g.outcome {
            Outcome::AWins => 0,
            Outcome::BWins => 1,
            Outcome::Draw => 2,
        };
        tables.entry(g.table).or_default()[slot] += 1;
        let b_slot = [1, 0, 2][slot];
        libraries.entry((g.table, Seat::A)).or_default()[slot] += 1;
        libraries.entry((g.table, Seat::B)).or_default()[b_slot] += 1;
    }
    let tables = tables
        .into_iter()
        .map(|(table, [a_wins, b_wins, draws])| {
            let p_value = binomial_two_sided(a_wins, b_wins);
            TableRecord { table, a_wins, b_wins, draws, p_value, lopsided: p_value < alpha }
        })
        .collect();
    let libraries = libraries
        .into_iter()
        .map(|((table, seat), [wins, losses, draws])| {
            let SeatRecord { games, win_rate, interval, .. } = record(wins, losses, draws, alpha);
            LibraryRecord { table, seat, games, wins, losses, draws, win_rate, interval }
        })
        .collect();
    LibraryReport { alpha, tables, libraries }
}

/// Seat A's games against seat B over every table, as one record (a draw half a win): seat B's is its mirror.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatRecord {
    /// Games counted.
    pub games: u32,
    /// Games seat A won.
    pub wins: u32,
    /// Games seat A lost (seat B won).
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// (wins + draws / 2) / games.
    pub win_rate: f64,
    /// The exact (Clopper–Pearson) interval of the win rate at level `1 - alpha`: seat A is favoured (or seat B)
    /// only when it leaves out 0.5.
    pub interval: [f64; 2],
}

/// Seat A against seat B over the tables' records, with its exact interval at level `1 - alpha`.
pub fn seat_a(tables: &[TableRecord], alpha: f64) -> SeatRecord {
    let (wins, losses, draws) = tables.iter().fold((0, 0, 0), |(w, l, d), t| (w + t.a_wins, l + t.b_wins, d + t.draws));
    record(wins, losses, draws, alpha)
}

/// A record of games (a library's, or seat A's) with its win rate and exact interval at level `1 - alpha`, a
/// draw half a win.
fn record(wins: u32, losses: u32, draws: u32, alpha: f64) -> SeatRecord {
    let games = wins + losses + draws;
    let points = f64::from(wins) + f64::from(draws) / 2.0;
    let (lo, hi) = super::interval::clopper_pearson(points, f64::from(games), alpha);
    let interval = [round4(lo), round4(hi)];
    SeatRecord { games, wins, losses, draws, win_rate: points / f64::from(games.max(1)), interval }
}

/// A bound to four decimals (what the JSON and the charts show).
fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Two-sided exact binomial p-value for `wins` against `losses` under p = 1/2:
/// 2 x P(X <= min(wins, losses)), capped at 1 (1 when there are no games). Computed in log space,
/// so large counts neither overflow nor underflow to a wrong answer.
pub fn binomial_two_sided(wins: u32, losses: u32) -> f64 {
    let n = u64::from(wins) + u64::from(losses);
    let k = u64::from(wins.min(losses));
    if n == 0 {
        return 1.0;
    }
    let ln_half_n = -(n as f64) * std::f64::consts::LN_2;
    let mut ln_choose = 0.0;
    let mut tail = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_choose + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

/// Each player's games with their par and wins above par, by player index.
pub fn player_par(games: &[LibraryGame]) -> Vec<PlayerPar> {
    // Results are counted in half points so that sums are exact.
    let mut library: HashMap<(u32, Seat), (u64, u64)> = HashMap::new();
    let mut own: HashMap<(u32, Seat, usize), (u64, u64)> = HashMap::new();
    for (key, player, half_points) in uses(games) {
        for total in [library.entry(key).or_default(), own.entry((key.0, key.1, player)).or_default()] {
            total.0 += half_points;
            total.1 += 1;
        }
    }
    let mut players: BTreeMap<usize, Vec<GamePar>> = BTreeMap::new();
    for (g, (key, player, half_points)) in valid(games).flat_map(|g| uses_of(g).map(move |u| (g, u))) {
        let all = library.get(&key).copied().unwrap_or_default();
        let mine = own.get(&(key.0, key.1, player)).copied().unwrap_or_default();
        let others = (all.0.saturating_sub(mine.0), all.1.saturating_sub(mine.1));
        let par = (others.1 > 0).then(|| others.0 as f64 / (2.0 * others.1 as f64));
        let result = half_points as f64 / 2.0;
        players.entry(player).or_default().push(GamePar {
            round: g.round,
            table: g.table,
            seat: key.1,
            result,
            par,
            matchpoint_pct: par.map(|p| 0.5 + (result - p) / 2.0),
        });
    }
    players.into_iter().map(|(index, games)| summarize(index, games)).collect()
}

/// Wins above par per player index, ready for the standings tiebreaker.
pub fn above_par_map(pars: &[PlayerPar]) -> HashMap<usize, f64> {
    pars.iter().map(|p| (p.index, p.above_par)).collect()
}

fn summarize(index: usize, mut games: Vec<GamePar>) -> PlayerPar {
    games.sort_by_key(|g| (g.round, g.table));
    let count = |r: f64| games.iter().filter(|g| g.result == r).count() as u32;
    let (wins, draws, losses) = (count(1.0), count(0.5), count(0.0));
    let with_par: Vec<(f64, f64)> =
        games.iter().filter_map(|g| g.par.map(|p| (g.result - p, g.matchpoint_pct.unwrap_or(0.5)))).collect();
    let above_par = with_par.iter().map(|x| x.0).sum();
    let matchpoint_pct =
        (!with_par.is_empty()).then(|| with_par.iter().map(|x| x.1).sum::<f64>() / with_par.len() as f64);
    PlayerPar { index, games, wins, draws, losses, above_par, matchpoint_pct }
}

fn valid(games: &[LibraryGame]) -> impl Iterator<Item = &LibraryGame> {
    games.iter().filter(|g| g.a_player != g.b_player)
}

/// The two uses of libraries in one game: ((table, seat), player, result in half points).
fn uses_of(g: &LibraryGame) -> impl Iterator<Item = ((u32, Seat), usize, u64)> {
    let (a, b) = match g.outcome {
        Outcome::AWins => (2, 0),
        Outcome::BWins => (0, 2),
        Outcome::Draw => (1, 1),
    };
    [((g.table, Seat::A), g.a_player, a), ((g.table, Seat::B), g.b_player, b)].into_iter()
}

fn uses(games: &[LibraryGame]) -> impl Iterator<Item = ((u32, Seat), usize, u64)> {
    valid(games).flat_map(uses_of)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: u32, table: u32, a: usize, b: usize, outcome: Outcome) -> LibraryGame {
        LibraryGame { round, table, a_player: a, b_player: b, outcome }
    }

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-9
    }

    #[test]
    fn binomial_two_sided_values() {
        // (wins, losses, expected p)
        let cases = [
            (6, 0, 0.03125),
            (0, 6, 0.03125),
            (5, 1, 0.21875),
            (1, 5, 0.21875),
            (3, 3, 1.0),
            (0, 0, 1.0),
            (1, 0, 1.0),
            (10, 0, 2.0 / 1024.0),
            (8, 2, 2.0 * 56.0 / 1024.0),
            (1000, 1000, 1.0),
        ];
        for (w, l, want) in cases {
            let got = binomial_two_sided(w, l);
            assert!(close(got, want), "{w}-{l}: got {got}, want {want}");
        }
        let big = binomial_two_sided(600, 400);
        assert!(big > 0.0 && big < 1e-9, "600-400: {big}");
    }

    /// Table 1: P0 beats P1, P3 beats P2, P4 draws P5; table 2: P6 beats P7 (single use).
    fn hand_made() -> Vec<LibraryGame> {
        vec![
            game(1, 1, 0, 1, Outcome::AWins),
            game(1, 2, 6, 7, Outcome::AWins),
            game(2, 1, 2, 3, Outcome::BWins),
            game(3, 1, 4, 5, Outcome::Draw),
        ]
    }

    #[test]
    fn library_report_counts_tables_and_libraries() {
        let report = library_report(&hand_made());
        assert_eq!(report.tables.len(), 2);
        let t1 = &report.tables[0];
        assert_eq!((t1.table, t1.a_wins, t1.b_wins, t1.draws), (1, 1, 1, 1));
        assert!(close(t1.p_value, 1.0) && !t1.lopsided);
        let libs: Vec<(u32, Seat, u32, u32, f64)> =
            report.libraries.iter().map(|l| (l.table, l.seat, l.games, l.wins, l.win_rate)).collect();
        assert_eq!(
            libs,
            vec![(1, Seat::A, 3, 1, 0.5), (1, Seat::B, 3, 1, 0.5), (2, Seat::A, 1, 1, 1.0), (2, Seat::B, 1, 0, 0.0),]
        );
    }

    #[test]
    fn six_nil_is_lopsided_only_at_the_default_level() {
        let games: Vec<_> =
            (0..6).map(|r| game(r + 1, 3, 2 * r as usize, 2 * r as usize + 1, Outcome::AWins)).collect();
        assert!(library_report(&games).tables[0].lopsided);
        assert!(!library_report_with(&games, 0.01).tables[0].lopsided);
        let five_one: Vec<_> = games
            .iter()
            .enumerate()
            .map(|(i, g)| LibraryGame { outcome: if i == 0 { Outcome::BWins } else { g.outcome }, ..g.clone() })
            .collect();
        assert!(!library_report(&five_one).tables[0].lopsided);
    }

    #[test]
    fn par_is_the_other_users_mean_result() {
        let pars = player_par(&hand_made());
        let by_index: HashMap<usize, &PlayerPar> = pars.iter().map(|p| (p.index, p)).collect();
        // (player, par of their one game, wins above par)
        let cases = [
            (0, Some(0.25), 0.75),  // 1A: others scored 0 and 0.5
            (1, Some(0.75), -0.75), // 1B: others scored 1 and 0.5
            (2, Some(0.75), -0.75), // 1A: others scored 1 and 0.5
            (3, Some(0.25), 0.75),
            (4, Some(0.5), 0.0),
            (5, Some(0.5), 0.0),
            (6, None, 0.0), // library 2A used once: no par
            (7, None, 0.0),
        ];
        for (player, par, above) in cases {
            let p = by_index[&player];
            assert_eq!(p.games[0].par, par, "player {player}");
            assert!(close(p.above_par, above), "player {player}: {}", p.above_par);
        }
        assert_eq!(by_index[&0].matchpoint_pct, Some(0.875));
        assert_eq!(by_index[&6].matchpoint_pct, None);
        assert_eq!((by_index[&4].wins, by_index[&4].draws), (0, 1));
        assert!(close(above_par_map(&pars)[&3], 0.75));
    }

    #[test]
    fn own_earlier_games_with_a_library_are_not_par() {
        // P0 (illegally) uses library 1A twice; par comes from P2 alone.
        let games = vec![
            game(1, 1, 0, 1, Outcome::AWins),
            game(2, 1, 0, 3, Outcome::AWins),
            game(3, 1, 2, 5, Outcome::BWins),
            game(3, 2, 9, 9, Outcome::AWins), // self-pairing, ignored
        ];
        let pars = player_par(&games);
        let p0 = pars.iter().find(|p| p.index == 0).unwrap();
        assert_eq!(p0.games.len(), 2);
        assert!(p0.games.iter().all(|g| g.par == Some(0.0)));
        assert!(close(p0.above_par, 2.0));
        assert!(pars.iter().all(|p| p.index != 9));
    }
}
