//! M3 — Swiss pairing by score (maximum-weight matching), then seating at tables.
//!
//! Players are joined only to their neighbours in the standings (a window that widens when no
//! perfect pairing exists), and that band is solved exactly by a dynamic programme over the
//! window (`band.rs`), so a round for thousands of players takes time linear in the field.
//! Warnings name players as P1.. (index 0 = P1).

use std::collections::HashSet;

use super::band;
use super::history::{History, PlayerHistory};
use super::matching::{Edge, max_weight_matching};
use super::seating::{Seated, seat_fixed, seat_travelling};
use super::{MovementError, Round, Stay};

/// A player in the Swiss field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SwissPlayer {
    /// Index into the caller's player list (and into the history).
    pub index: usize,
    /// Points so far (pairing brings equal points together).
    pub points: u32,
    /// Whether the player takes part in this round (false = dropped).
    pub active: bool,
}

/// One paired and seated round, plus what could not be met.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SwissOutcome {
    /// The round: games at tables and the bye, if any.
    pub round: Round,
    /// Guarantees that could not be kept, in words (empty when all held).
    pub warnings: Vec<String>,
}

const FIRST_WINDOW: usize = 6;
const TRIES: usize = 4;
/// Fields of this many players and more are paired by the band programme (see [`Graph::solve`]).
const BAND_FROM: usize = 256;
/// What leaving a player three seats apart weighs, in squared points: as much as floating a player
/// across a win's worth of points (3 points, squared). Chess pairing treats a colour difference beyond
/// two as absolute; here it gives way only to a wider float.
const THREE_APART: i64 = 9;
/// Score gaps beyond this weigh the same (keeps weights far from overflow).
const MAX_GAP: u32 = 1 << 16;

/// Pair and seat one Swiss round for the active `players`.
///
/// No rematch, at most one bye each (lowest scores first), and with `fixed_libraries` never a
/// library a player already used, preferring no table revisit; seats are balanced. When a
/// guarantee cannot be kept the round is still produced and `warnings` says what broke.
/// Without fixed libraries, tables are numbered 1..=matches and `tables` is not a limit.
pub fn pair_swiss(
    players: &[SwissPlayer],
    history: &History,
    tables: u32,
    fixed_libraries: bool,
    seed: u64,
) -> Result<SwissOutcome, MovementError> {
    pair_swiss_apart(players, history, tables, fixed_libraries, seed, &[])
}

/// [`pair_swiss`], never pairing two players of `apart` (players who stay at one table) with each other while
/// any other pairing exists; when none does, the round is still produced and `warnings` says who meets. The
/// game of such a player takes their own table's libraries when they are clean for both players and free, so
/// that fewer libraries are carried to them.
pub fn pair_swiss_apart(
    players: &[SwissPlayer],
    history: &History,
    tables: u32,
    fixed_libraries: bool,
    seed: u64,
    apart: &[Stay],
) -> Result<SwissOutcome, MovementError> {
    let field = standings(players, seed);
    if field.len() < 2 {
        return Err(MovementError::TooFewPlayers { players: field.len() });
    }
    let matches = u32::try_from(field.len() / 2).unwrap_or(u32::MAX);
    if fixed_libraries && matches > tables {
        return Err(MovementError::NotEnoughTables { matches, tables });
    }
    let kept_apart: HashSet<(usize, usize)> = apart
        .iter()
        .flat_map(|p| apart.iter().filter(move |q| p.player < q.player).map(move |q| (p.player, q.player)))
        .collect();
    let mut forbidden = kept_apart.clone();
    let mut tries = 0;
    loop {
        let mut warnings = Vec::new();
        let pairing = pair_by_score(&field, history, &forbidden, &mut warnings);
        let seated = if fixed_libraries {
            seat_fixed(history, &pairing.pairs, tables, apart)
        } else {
            seat_travelling(history, &pairing.pairs)
        };
        tries += 1;
        if seated.reused.is_empty() || tries >= TRIES {
            report_seating(&seated, &mut warnings);
            for &(p, q) in pairing.pairs.iter().filter(|&&(p, q)| kept_apart.contains(&(p.min(q), p.max(q)))) {
                warnings.push(format!(
                    "P{} and P{} both stay at their tables but meet: no other pairing exists",
                    p + 1,
                    q + 1
                ));
            }
            let round = Round { games: seated.games, byes: pairing.bye.into_iter().collect() };
            return Ok(SwissOutcome { round, warnings });
        }
        forbidden.extend(seated.reused.iter().map(|&(p, q)| (p.min(q), p.max(q))));
    }
}

fn report_seating(seated: &Seated, warnings: &mut Vec<String>) {
    for &(p, q) in &seated.reused {
        warnings.push(format!(
            "P{} and P{} had to reuse a library: no table was free of both players' past libraries",
            p + 1,
            q + 1
        ));
    }
    if !seated.revisits.is_empty() {
        let names: Vec<String> = seated.revisits.iter().map(|p| format!("P{}", p + 1)).collect();
        let verb = if names.len() == 1 { "comes" } else { "come" };
        warnings.push(format!("{} {verb} back to a table already visited (other library)", names.join(", ")));
    }
}

/// Active players, best first; equal points in a seeded random order.
fn standings(players: &[SwissPlayer], seed: u64) -> Vec<SwissPlayer> {
    let mut seen = HashSet::new();
    let mut field: Vec<SwissPlayer> = players.iter().filter(|p| p.active && seen.insert(p.index)).copied().collect();
    field.sort_by_key(|p| (std::cmp::Reverse(p.points), mix(seed ^ p.index as u64)));
    field
}

/// SplitMix64: a seeded, portable tie-break.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct Pairing {
    /// Pairs in standings order of their better player.
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
}

/// Maximum-weight perfect pairing over a widening window of the standings.
fn pair_by_score(
    field: &[SwissPlayer],
    h: &History,
    forbidden: &HashSet<(usize, usize)>,
    warnings: &mut Vec<String>,
) -> Pairing {
    let n = field.len();
    let mut window = FIRST_WINDOW;
    loop {
        let last = window >= n;
        let g = Graph::build(field, h, forbidden, window, last);
        let mate = g.solve(n, window);
        if mate.iter().all(Option::is_some) || last {
            return g.read(field, h, &mate, warnings);
        }
        window *= 2;
    }
}

struct Graph {
    vertices: usize,
    edges: Vec<Edge>,
}

impl Graph {
    /// Vertices: positions in the standings, plus a bye vertex (last) for an odd field.
    /// With `last`, rematch and forbidden edges are added at the lowest weight so a pairing exists.
    fn build(
        field: &[SwissPlayer],
        h: &History,
        forbidden: &HashSet<(usize, usize)>,
        window: usize,
        last: bool,
    ) -> Graph {
        let n = field.len();
        let w = Weights::new(field);
        let mut edges = Vec::with_capacity(n * window.min(n));
        for i in 0..n {
            for j in i + 1..n.min(i + 1 + window) {
                let (p, q) = (field[i].index, field[j].index);
                let banned = met(h, p, q) || forbidden.contains(&(p.min(q), p.max(q)));
                if !banned {
                    edges.push((i, j, w.pair(h, &field[i], &field[j], j - i)));
                } else if last {
                    edges.push((i, j, 1));
                }
            }
        }
        if n % 2 == 1 {
            Self::bye_edges(field, h, &w, window, last, &mut edges);
        }
        Graph { vertices: n + n % 2, edges }
    }

    /// The bye vertex joins the lowest players who have had no bye (everyone, if `last`).
    fn bye_edges(field: &[SwissPlayer], h: &History, w: &Weights, window: usize, last: bool, edges: &mut Vec<Edge>) {
        let n = field.len();
        let mut joined = 0;
        for i in (0..n).rev() {
            let had_bye = h.get(field[i].index).is_some_and(|x| x.byes > 0);
            if !had_bye && (last || joined < 2 * window) {
                edges.push((i, n, w.bye(&field[i], i)));
                joined += 1;
            } else if had_bye && last {
                edges.push((i, n, 1));
            }
        }
    }

    /// The heaviest perfect matching (each vertex's mate), or the heaviest of the largest size when
    /// no perfect one exists. From [`BAND_FROM`] players the band is solved exactly by a dynamic
    /// programme over the window (linear in the field); a smaller field, or a window too wide for the
    /// programme (nearly everyone near a player has met them), takes the general matching. Both find
    /// the same optimum; only between equally heavy pairings may they choose differently, so small
    /// fields keep exactly the pairings they always had.
    fn solve(&self, n: usize, window: usize) -> Vec<Option<usize>> {
        let band = window.min(n.saturating_sub(1)).max(1);
        if n >= BAND_FROM && band::fits(n, band) {
            if let Some(mate) = band::band_matching(n, band, &self.edges) {
                return mate.into_iter().map(Some).collect();
            }
            if band < n.saturating_sub(1) {
                return vec![None; self.vertices];
            }
        }
        max_weight_matching(self.vertices, &self.edges, true)
    }

    fn read(&self, field: &[SwissPlayer], h: &History, mate: &[Option<usize>], warnings: &mut Vec<String>) -> Pairing {
        let n = field.len();
        let mut pairs = Vec::new();
        let mut bye = None;
        for (i, m) in mate.iter().enumerate().take(n) {
            let p = field[i].index;
            match *m {
                Some(j) if j == n => bye = Some(p),
                Some(j) if j > i => pairs.push((p, field[j].index)),
                Some(_) => {}
                None => warnings.push(format!("P{} could not be paired and sits out", p + 1)),
            }
        }
        for &(p, q) in &pairs {
            if met(h, p, q) {
                warnings.push(format!("P{} meets P{} again: no pairing without a rematch exists", p + 1, q + 1));
            }
        }
        if let Some(p) = bye.filter(|&p| h.get(p).is_some_and(|x| x.byes > 0)) {
            warnings.push(format!("P{} sits out a second time: every player has already had a bye", p + 1));
        }
        Pairing { pairs, bye }
    }
}

fn met(h: &History, p: usize, q: usize) -> bool {
    h.get(p).is_some_and(|x| x.met(q))
}

/// Edge weights: the score gap squared dominates, then owed seats, then standings distance.
struct Weights {
    base: i64,
    score: i64,
    seat: i64,
    min_points: u32,
}

impl Weights {
    fn new(field: &[SwissPlayer]) -> Weights {
        let n = field.len() as i64 + 1;
        let max = field.iter().map(|p| p.points).max().unwrap_or(0);
        let min_points = field.iter().map(|p| p.points).min().unwrap_or(0);
        let gap = i64::from((max - min_points).min(MAX_GAP));
        let (score, seat) = (4 * n, n);
        Weights { base: score * (gap * gap + 1) + seat + n + 2, score, seat, min_points }
    }

    fn pair(&self, h: &History, x: &SwissPlayer, y: &SwissPlayer, distance: usize) -> i64 {
        let d = i64::from(x.points.abs_diff(y.points).min(MAX_GAP));
        let lean = |p: usize| h.get(p).map_or(0, PlayerHistory::seat_lean);
        let (lx, ly) = (lean(x.index), lean(y.index));
        let same_seat_owed = lx.signum() != 0 && lx.signum() == ly.signum();
        // Both already two apart the same way: one of them would end three apart.
        let three_apart = same_seat_owed && lx.abs() >= 2 && ly.abs() >= 2;
        let w = self.base
            - self.score * d * d
            - if same_seat_owed { self.seat } else { 0 }
            - if three_apart { self.score * THREE_APART } else { 0 }
            - distance as i64;
        // Still above a rematch (weight 1), whatever the penalties.
        w.max(2)
    }

    fn bye(&self, p: &SwissPlayer, position: usize) -> i64 {
        let d = i64::from((p.points - self.min_points).min(MAX_GAP));
        self.base - self.score * d * d + position as i64
    }
}

#[cfg(test)]
#[path = "swiss_optimum_tests.rs"]
mod optimum_tests;
