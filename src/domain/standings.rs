//! Swiss standings computed as Magic's tournament rules (MTR appendix C) compute them, for events in
//! which a match is ONE game.
//!
//! - Match points: win (or bye) 3, draw 1, loss 0. Game points: 3 per game won, 1 per game drawn; a
//!   bye counts as one game won. With one-game matches the game tallies equal the match tallies, so
//!   GW% = MW% and OGW% = OMW%; both are still computed and used in the MTR's order.
//! - MW% = match points / (3 x matches played, byes included), raised to 1/3 when lower. GW% likewise.
//!   A player who has played nothing has MW% = GW% = 0.
//! - OMW% = average over the player's opponents (one entry per round played, bye rounds left out) of
//!   each opponent's MW% with the 1/3 floor already applied. OGW% likewise. No opponents: 0.
//! - Order: match points, then wins above par (only when a par table is given), OMW%, GW%, OGW%, all
//!   higher first. Players equal on every key share a rank (1, 2, 2, 4); within a rank, lower index first.
//! - Dropped players stay in the standings (flagged) and count for their opponents.
//! - Disqualified players are left out of the output (everyone below moves up), but their matches still
//!   count: their opponents keep the results and the DQ'd player's MW% in their OMW%, as the MTR keeps
//!   a dropped player's record. Players that appear in matches but not among the entrants are handled
//!   the same way (counted, not listed).
//! - Only matches with `round <= up_to_round` count. A record with `b: None` and outcome `AWins` is a bye
//!   and counts as a win. A record with `b: None` and any other outcome is a round the player missed by
//!   entering late (the event's `late-entry loss`): a match loss, counted as a match (and game) played and
//!   lost for the player's MW% and GW%, and, like a bye, without an opponent (it adds nothing to OMW%).
//!   A record pairing a player with themself is ignored.
//!
//! Percentages are kept as exact fractions of integers and compared by cross-multiplying, so ties are
//! exact (for events of at least 30 rounds; beyond that, denominators are rounded to 50 bits).

use std::cmp::{Ordering, Reverse};
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

mod common;
mod fraction;

use fraction::Frac;

/// Result of one game, seen from player A (the first player of a [`MatchRecord`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Player A won (also used for a bye).
    AWins,
    /// Player B won.
    BWins,
    /// The game was drawn.
    Draw,
}

/// One match (one game) of a round; `b: None` means player `a` had a bye.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// Round number, starting at 1.
    pub round: u32,
    /// Index of the first player.
    pub a: usize,
    /// Index of the opponent, or `None` for a bye to `a`.
    pub b: Option<usize>,
    /// Result of the game.
    pub outcome: Outcome,
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    /// Player index, as used in [`MatchRecord`].
    pub index: usize,
    /// Display name.
    pub name: String,
    /// Last round the player took part in before dropping, if they dropped.
    pub dropped_after: Option<u32>,
    /// Disqualified players are not listed (their results still count for their opponents).
    pub disqualified: bool,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// Rank, 1 first; players equal on every tiebreaker share a rank (1, 2, 2, 4).
    pub rank: u32,
    /// Player index.
    pub index: usize,
    /// Display name.
    pub name: String,
    /// Matches won, byes included.
    pub wins: u32,
    /// Matches lost.
    pub losses: u32,
    /// Matches drawn.
    pub draws: u32,
    /// Byes received (already counted in `wins`).
    pub byes: u32,
    /// Rounds missed by entering late, each a match loss (already counted in `losses`).
    pub late_losses: u32,
    /// Match points: 3 per win or bye, 1 per draw.
    pub points: u32,
    /// Match-win percentage, floored at 1/3 (0 if nothing played).
    pub mwp: f64,
    /// Game-win percentage, floored at 1/3 (0 if nothing played).
    pub gwp: f64,
    /// Opponents' match-win percentage (0 without opponents).
    pub omwp: f64,
    /// Opponents' game-win percentage (0 without opponents).
    pub ogwp: f64,
    /// True when the player dropped at or before `up_to_round`.
    pub dropped: bool,
}

/// Running record of one player.
#[derive(Debug, Clone, Default)]
struct Tally {
    wins: u32,
    losses: u32,
    draws: u32,
    byes: u32,
    late_losses: u32,
}

impl Tally {
    fn played(&self) -> u32 {
        self.wins.saturating_add(self.losses).saturating_add(self.draws)
    }
    fn match_points(&self) -> u32 {
        self.wins.saturating_mul(3).saturating_add(self.draws)
    }
    /// One game per match; a bye is one game won, so game points equal match points.
    fn game_points(&self) -> u32 {
        self.match_points()
    }
    fn add(&mut self, result: Outcome, seat_a: bool) {
        match (result, seat_a) {
            (Outcome::Draw, _) => self.draws += 1,
            (Outcome::AWins, true) | (Outcome::BWins, false) => self.wins += 1,
            _ => self.losses += 1,
        }
    }
}

/// Percentage `points / (3 x played)` floored at 1/3; 0 when nothing was played.
fn floored_pct(points: u32, played: u32) -> Frac {
    if played == 0 {
        return Frac::ZERO;
    }
    Frac::new(u128::from(points), 3 * u128::from(played)).max(Frac::THIRD)
}

/// Computed keys of one player (by slot).
struct Keys {
    mw: Frac,
    gw: Frac,
    omw: Frac,
    ogw: Frac,
    par: i64,
}

/// Standings after `up_to_round`, best first (see the module documentation for every rule applied).
/// `par`, when given, maps player index to wins above par and becomes the first tiebreaker after match
/// points (missing players count as 0, compared to 1e-6).
pub fn standings(
    entrants: &[Entrant],
    matches: &[MatchRecord],
    up_to_round: u32,
    par: Option<&HashMap<usize, f64>>,
) -> Vec<Standing> {
    let counted: Vec<&MatchRecord> = matches.iter().filter(|m| m.round <= up_to_round && m.b != Some(m.a)).collect();
    let slots = slot_map(entrants, &counted);
    let tallies = tally(&slots, &counted);
    let keys = compute_keys(&slots, &tallies, &counted, par);
    // Listed: entrants not disqualified, first occurrence of each index only.
    let mut shown: Vec<(usize, &Entrant)> =
        entrants.iter().enumerate().filter(|(pos, e)| !e.disqualified && slots.get(e.index) == Some(*pos)).collect();
    match sort_keys(&shown, &tallies, &keys) {
        // Indices are unique among the shown, so an unstable sort on keys ending with them is the same order.
        Some(sorted) => {
            let mut order: Vec<usize> = (0..shown.len()).collect();
            order.sort_unstable_by_key(|&i| sorted[i]);
            shown = order.into_iter().map(|i| shown[i]).collect();
        }
        None => shown.sort_by(|x, y| {
            compare(&tallies[x.0], &keys[x.0], &tallies[y.0], &keys[y.0]).then(x.1.index.cmp(&y.1.index))
        }),
    }
    let mut out: Vec<Standing> = Vec::with_capacity(shown.len());
    for (pos, &(slot, entrant)) in shown.iter().enumerate() {
        let tied = pos > 0 && {
            let prev = shown[pos - 1].0;
            compare(&tallies[prev], &keys[prev], &tallies[slot], &keys[slot]) == Ordering::Equal
        };
        let rank = match out.last() {
            Some(last) if tied => last.rank,
            _ => u32::try_from(pos + 1).unwrap_or(u32::MAX),
        };
        out.push(line(rank, entrant, &tallies[slot], &keys[slot], up_to_round));
    }
    out
}

/// Slot per player index: entrants first (in order, first occurrence wins), then unknown players. Indices
/// are positions in the event's player list, so a vector indexed by them replaces a hash map.
struct Slots {
    by_index: Vec<usize>,
}

impl Slots {
    const NONE: usize = usize::MAX;

    fn get(&self, index: usize) -> Option<usize> {
        self.by_index.get(index).copied().filter(|&s| s != Slots::NONE)
    }

    fn of(&self, index: usize) -> usize {
        self.by_index[index]
    }

    fn insert(&mut self, index: usize, slot: impl FnOnce() -> usize) {
        if index >= self.by_index.len() {
            self.by_index.resize(index + 1, Slots::NONE);
        }
        if self.by_index[index] == Slots::NONE {
            self.by_index[index] = slot();
        }
    }

    fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.by_index.iter().enumerate().filter(|(_, s)| **s != Slots::NONE).map(|(i, &s)| (i, s))
    }
}

fn slot_map(entrants: &[Entrant], matches: &[&MatchRecord]) -> Slots {
    let largest = entrants.iter().map(|e| e.index).chain(matches.iter().flat_map(|m| std::iter::once(m.a).chain(m.b)));
    let mut slots = Slots { by_index: vec![Slots::NONE; largest.max().map_or(0, |m| m + 1)] };
    for (pos, e) in entrants.iter().enumerate() {
        slots.insert(e.index, || pos);
    }
    let mut next = entrants.len();
    for m in matches {
        for p in std::iter::once(m.a).chain(m.b) {
            slots.insert(p, || {
                next += 1;
                next - 1
            });
        }
    }
    slots
}

fn tally(slots: &Slots, matches: &[&MatchRecord]) -> Vec<Tally> {
    let mut tallies = vec![Tally::default(); slots.iter().map(|(_, s)| s).max().map_or(0, |m| m + 1)];
    for m in matches {
        let a = slots.of(m.a);
        match m.b {
            None if m.outcome == Outcome::AWins => {
                tallies[a].wins += 1;
                tallies[a].byes += 1;
            }
            None => {
                tallies[a].losses += 1;
                tallies[a].late_losses += 1;
            }
            Some(b) => {
                tallies[a].add(m.outcome, true);
                tallies[slots.of(b)].add(m.outcome, false);
            }
        }
    }
    tallies
}

fn compute_keys(
    slots: &Slots,
    tallies: &[Tally],
    matches: &[&MatchRecord],
    par: Option<&HashMap<usize, f64>>,
) -> Vec<Keys> {
    let mut by_slot: Vec<i64> = vec![0; tallies.len()];
    if let Some(par) = par {
        for (index, slot) in slots.iter() {
            by_slot[slot] = par.get(&index).map_or(0, |&x| par_key(x));
        }
    }
    common::keys(slots, tallies, matches, &by_slot).unwrap_or_else(|| fraction_keys(slots, tallies, matches, &by_slot))
}

/// The keys as reduced fractions, added one opponent at a time (for events whose percentages have no common
/// denominator below 2^50; see [`common::keys`]).
fn fraction_keys(slots: &Slots, tallies: &[Tally], matches: &[&MatchRecord], by_slot: &[i64]) -> Vec<Keys> {
    let mw: Vec<Frac> = tallies.iter().map(|t| floored_pct(t.match_points(), t.played())).collect();
    let gw: Vec<Frac> = tallies.iter().map(|t| floored_pct(t.game_points(), t.played())).collect();
    let mut sums = vec![(Frac::ZERO, Frac::ZERO, 0u32); tallies.len()];
    for m in matches {
        if let Some(b) = m.b {
            let (a, b) = (slots.of(m.a), slots.of(b));
            for (me, opp) in [(a, b), (b, a)] {
                let s = &mut sums[me];
                *s = (s.0.add(mw[opp]), s.1.add(gw[opp]), s.2.saturating_add(1));
            }
        }
    }
    sums.iter()
        .enumerate()
        .map(|(slot, &(om, og, n))| Keys {
            mw: mw[slot],
            gw: gw[slot],
            omw: if n == 0 { Frac::ZERO } else { om.div_count(n) },
            ogw: if n == 0 { Frac::ZERO } else { og.div_count(n) },
            par: by_slot[slot],
        })
        .collect()
}

/// Keys sorting as [`compare`] then the index, when every tiebreaker fraction has one denominator (see
/// [`common::keys`]): points, par and numerators, each reversed (higher first), then the player index.
type SortKey = (Reverse<u32>, Reverse<i64>, Reverse<u128>, Reverse<u128>, Reverse<u128>, usize);

fn sort_keys(shown: &[(usize, &Entrant)], tallies: &[Tally], keys: &[Keys]) -> Option<Vec<SortKey>> {
    let den = keys.first().map_or(1, |k| k.omw.den());
    shown
        .iter()
        .map(|&(slot, e)| {
            let k = &keys[slot];
            Some((
                Reverse(tallies[slot].match_points()),
                Reverse(k.par),
                Reverse(k.omw.over_den(den)?),
                Reverse(k.gw.over_den(den)?),
                Reverse(k.ogw.over_den(den)?),
                e.index,
            ))
        })
        .collect()
}

/// Wins above par in millionths, so that the sort order is total (NaN and infinities count as 0).
fn par_key(x: f64) -> i64 {
    if x.is_finite() { (x * 1e6).round() as i64 } else { 0 }
}

/// `Less` when the first player ranks higher (sorts first).
fn compare(ta: &Tally, ka: &Keys, tb: &Tally, kb: &Keys) -> Ordering {
    tb.match_points()
        .cmp(&ta.match_points())
        .then(kb.par.cmp(&ka.par))
        .then(kb.omw.compare(ka.omw))
        .then(kb.gw.compare(ka.gw))
        .then(kb.ogw.compare(ka.ogw))
}

fn line(rank: u32, e: &Entrant, t: &Tally, k: &Keys, up_to_round: u32) -> Standing {
    Standing {
        rank,
        index: e.index,
        name: e.name.clone(),
        wins: t.wins,
        losses: t.losses,
        draws: t.draws,
        byes: t.byes,
        late_losses: t.late_losses,
        points: t.match_points(),
        mwp: k.mw.to_f64(),
        gwp: k.gw.to_f64(),
        omwp: k.omw.to_f64(),
        ogwp: k.ogw.to_f64(),
        dropped: e.dropped_after.is_some_and(|r| r <= up_to_round),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPS: f64 = 1e-9;

    fn players(n: usize) -> Vec<Entrant> {
        (0..n)
            .map(|index| Entrant { index, name: format!("P{index}"), dropped_after: None, disqualified: false })
            .collect()
    }

    fn game(round: u32, a: usize, b: usize, outcome: Outcome) -> MatchRecord {
        MatchRecord { round, a, b: Some(b), outcome }
    }

    fn bye(round: u32, a: usize) -> MatchRecord {
        MatchRecord { round, a, b: None, outcome: Outcome::AWins }
    }

    fn find(table: &[Standing], index: usize) -> &Standing {
        table.iter().find(|s| s.index == index).unwrap()
    }

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < EPS
    }

    #[test]
    fn floored_percentages_follow_the_mtr_examples() {
        // (match points, matches played, expected MW%)
        let cases = [
            (16, 8, 16.0 / 24.0), // 5-2-1
            (3, 4, 1.0 / 3.0),    // 1-3-0, 0.25 raised to 1/3
            (9, 5, 0.6),          // 3-2-0 with a bye
            (0, 3, 1.0 / 3.0),    // 0-3
            (0, 0, 0.0),          // nothing played
            (3, 1, 1.0),
        ];
        for (points, played, want) in cases {
            let got = floored_pct(points, played).to_f64();
            assert!(close(got, want), "{points}/{played}: got {got}, want {want}");
        }
    }

    #[test]
    fn five_two_one_record_is_sixteen_of_twenty_four() {
        let outcomes = [
            Outcome::AWins,
            Outcome::AWins,
            Outcome::AWins,
            Outcome::AWins,
            Outcome::AWins,
            Outcome::BWins,
            Outcome::BWins,
            Outcome::Draw,
        ];
        let matches: Vec<_> = (0..8).map(|i| game(i as u32 + 1, 0, i + 1, outcomes[i])).collect();
        let table = standings(&players(9), &matches, 8, None);
        let p0 = find(&table, 0);
        assert_eq!((p0.wins, p0.losses, p0.draws, p0.points), (5, 2, 1, 16));
        assert!(close(p0.mwp, 2.0 / 3.0));
        assert!(close(p0.gwp, 2.0 / 3.0));
    }

    #[test]
    fn dropped_one_three_counts_as_a_third_for_opponents() {
        // P0 goes 1-3 and drops after round 4; P1 only ever played P0 (and won).
        let matches = vec![
            game(1, 0, 2, Outcome::AWins),
            game(2, 0, 3, Outcome::BWins),
            game(3, 0, 4, Outcome::BWins),
            game(4, 1, 0, Outcome::AWins),
        ];
        let mut entrants = players(5);
        entrants[0].dropped_after = Some(4);
        let table = standings(&entrants, &matches, 4, None);
        let p0 = find(&table, 0);
        assert!(p0.dropped);
        assert!(close(p0.mwp, 1.0 / 3.0));
        assert!(close(find(&table, 1).omwp, 1.0 / 3.0));
        assert!(!find(&standings(&entrants, &matches, 3, None), 0).dropped);
    }

    #[test]
    fn three_two_with_a_bye_is_point_six_and_bye_is_not_an_opponent() {
        let matches = vec![
            bye(1, 0),
            game(2, 0, 1, Outcome::AWins),
            game(3, 2, 0, Outcome::BWins),
            game(4, 0, 3, Outcome::BWins),
            game(5, 4, 0, Outcome::AWins),
        ];
        let table = standings(&players(5), &matches, 5, None);
        let p0 = find(&table, 0);
        assert_eq!((p0.wins, p0.losses, p0.byes, p0.points), (3, 2, 1, 9));
        assert!(close(p0.mwp, 0.6));
        // Four opponents: P1 0-1, P2 0-1 (both 1/3 after the floor), P3 1-0, P4 1-0.
        assert!(close(p0.omwp, (1.0 / 3.0 + 1.0 / 3.0 + 1.0 + 1.0) / 4.0));
    }

    #[test]
    fn opponent_below_a_third_is_raised_before_averaging() {
        let matches = vec![
            game(1, 0, 1, Outcome::AWins),
            game(1, 2, 3, Outcome::AWins),
            game(2, 0, 2, Outcome::AWins),
            game(2, 1, 3, Outcome::Draw),
        ];
        let table = standings(&players(4), &matches, 2, None);
        // P1 is 0-1-1 = 1/6, counted as 1/3; P2 is 1-1 = 1/2. Unfloored would give 1/3.
        assert!(close(find(&table, 0).omwp, 5.0 / 12.0));
        assert!(close(find(&table, 0).ogwp, 5.0 / 12.0));
        let order: Vec<(usize, u32)> = table.iter().map(|s| (s.index, s.rank)).collect();
        // P1 and P3 both have 1 point; P1's opponents (P0 1, P3 1/3) beat P3's (P2 1/2, P1 1/3).
        assert_eq!(order, vec![(0, 1), (2, 2), (1, 3), (3, 4)]);
    }

    #[test]
    fn players_equal_on_everything_share_a_rank() {
        let matches = vec![game(1, 0, 1, Outcome::AWins), game(1, 2, 3, Outcome::AWins), game(1, 4, 5, Outcome::Draw)];
        let table = standings(&players(6), &matches, 1, None);
        let ranks: Vec<(usize, u32)> = table.iter().map(|s| (s.index, s.rank)).collect();
        assert_eq!(ranks, vec![(0, 1), (2, 1), (4, 3), (5, 3), (1, 5), (3, 5)]);
    }

    #[test]
    fn disqualified_player_is_removed_but_still_counts() {
        let matches = vec![game(1, 1, 0, Outcome::AWins), game(2, 1, 2, Outcome::AWins), game(3, 0, 2, Outcome::AWins)];
        let mut entrants = players(3);
        entrants[1].disqualified = true;
        let table = standings(&entrants, &matches, 3, None);
        let order: Vec<(usize, u32)> = table.iter().map(|s| (s.index, s.rank)).collect();
        assert_eq!(order, vec![(0, 1), (2, 2)]);
        // P0's opponents: P1 (2-0 = 1) and P2 (0-2, floored to 1/3).
        assert!(close(table[0].omwp, 2.0 / 3.0));
    }

    #[test]
    fn par_breaks_ties_before_opponents() {
        // P0 and P2 both 1-0; P0's opponent P1 went 1-1, P2's opponent P3 went 0-2.
        let matches = vec![game(1, 0, 1, Outcome::AWins), game(1, 2, 3, Outcome::AWins), game(2, 1, 3, Outcome::AWins)];
        let entrants = players(4);
        let plain = standings(&entrants, &matches[..2], 1, None);
        assert_eq!(plain[0].rank, plain[1].rank);
        let no_par = standings(&entrants, &matches, 2, None);
        assert_eq!(no_par[0].index, 1); // P1 has 3 points too, with the best OMW
        let par = HashMap::from([(2, 0.75), (0, 0.25), (1, -0.5)]);
        let with_par = standings(&entrants, &matches, 2, Some(&par));
        let order: Vec<usize> = with_par.iter().map(|s| s.index).collect();
        assert_eq!(order, vec![2, 0, 1, 3]);
    }

    #[test]
    fn later_rounds_and_unknown_players_are_handled() {
        let matches = vec![
            game(1, 0, 9, Outcome::BWins), // P9 is not an entrant
            game(2, 0, 1, Outcome::AWins),
        ];
        let table = standings(&players(2), &matches, 1, None);
        assert_eq!(table.len(), 2);
        let p0 = find(&table, 0);
        assert_eq!((p0.wins, p0.losses), (0, 1));
        assert!(close(p0.omwp, 1.0));
        assert_eq!(find(&table, 1).points, 0);
    }

    #[test]
    fn a_late_entrants_missed_round_is_a_loss_without_an_opponent() {
        // P2 entered in round 2: round 1 missed (a loss), a bye in round 2, then beat P0 in round 3.
        let missed = MatchRecord { round: 1, a: 2, b: None, outcome: Outcome::BWins };
        let matches = vec![
            game(1, 0, 1, Outcome::AWins),
            missed,
            game(2, 0, 1, Outcome::AWins),
            bye(2, 2),
            game(3, 2, 0, Outcome::AWins),
        ];
        let table = standings(&players(3), &matches, 3, None);
        let late = find(&table, 2);
        assert_eq!((late.wins, late.losses, late.byes, late.late_losses, late.points), (2, 1, 1, 1, 6));
        assert!(close(late.mwp, 2.0 / 3.0), "{}", late.mwp);
        // Only the one real opponent counts for OMW%: P0 at 2-1.
        assert!(close(late.omwp, 2.0 / 3.0), "{}", late.omwp);
        // P0's OMW% averages P1 (0-2, floored to 1/3) twice and P2's 2/3 once.
        let p0 = find(&table, 0);
        assert!(close(p0.omwp, (1.0 / 3.0 + 1.0 / 3.0 + 2.0 / 3.0) / 3.0), "{}", p0.omwp);
        // Equal on points, P2 ranks first on OMW% (it beat the 2-1 P0); its own loss does not lift it.
        assert_eq!(table[0].index, 2);
    }
}
