//! Seat balance over whole Swiss events: a large field over many rounds, and a small field with a drop and
//! a late entry.

use super::history::History;
use super::{Round, SwissPlayer, pair_swiss};

/// Tiny deterministic generator for results.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Plays `rounds` Swiss rounds with fixed libraries on `tables` tables; `active(round, player)` says who
/// plays. Results are seeded: seat A or B wins, now and then a draw. Returns the history.
fn play(players: usize, rounds: u32, tables: u32, seed: u64, active: impl Fn(u32, usize) -> bool) -> Played {
    let mut rng = Lcg(seed);
    let mut points = vec![0u32; players];
    let mut played: Vec<Round> = Vec::new();
    let mut h = History::new(players);
    let mut before_last = Vec::new();
    for r in 1..=rounds {
        before_last.clone_from(&points);
        let field: Vec<SwissPlayer> =
            (0..players).map(|i| SwissPlayer { index: i, points: points[i], active: active(r, i) }).collect();
        let out = pair_swiss(&field, &h, tables, true, seed.wrapping_add(u64::from(r))).expect("a round");
        for g in &out.round.games {
            match rng.below(10) {
                0 => {
                    points[g.a] += 1;
                    points[g.b] += 1;
                }
                1..=4 => points[g.b] += 3,
                _ => points[g.a] += 3,
            }
        }
        out.round.byes.iter().for_each(|&p| points[p] += 3);
        h.record(&out.round);
        played.push(out.round);
    }
    Played { history: h, rounds: played, before_last }
}

/// A played event: the history after it, its rounds, and the points before its last round.
struct Played {
    history: History,
    rounds: Vec<Round>,
    before_last: Vec<u32>,
}

/// Players whose seats A and B differ by two or more.
fn unbalanced(h: &History) -> Vec<usize> {
    (0..h.players.len()).filter(|&p| h.players[p].seat_lean().abs() >= 2).collect()
}

/// 8,192 players, 13 rounds: everyone ends with |A - B| = 1 at most (about 3 s in a debug build).
#[test]
fn a_large_field_keeps_every_seat_balanced() {
    // Seeds where, before a pair of players both two apart the same way weighed like a float across a win,
    // one player at the top tables ended three apart.
    for seed in [2, 3, 7, 19] {
        let h = play(8192, 13, 4096, seed, |_, _| true).history;
        let off = unbalanced(&h);
        assert!(
            off.is_empty(),
            "seed {seed}: {} players with |A - B| >= 2, first {:?}",
            off.len(),
            &off[..off.len().min(10)]
        );
    }
}

/// A small field with a drop and a late entry reaches the lower bound of unbalanced seats.
///
/// The lower bound. Every game gives one player seat A and the other seat B, so a player's A - B has
/// the parity of their games: after an even number it can be 0, after an odd number it is 1 at best.
/// Ignoring points, nobody ever needs to be two apart: the active players' leans sum to minus the
/// dropped players' (here at most 2 in size), so no lean side ever holds more than half the field and
/// a pairing that never puts two players leaning the same way together exists (an odd field gives its
/// bye to the larger side). Points come first, though. Before round 6 everyone here has played an odd
/// number of games, so everyone leans one way or the other; a score group holding more players who
/// lean A than players who lean B must pair some who lean A together (or float them, which costs
/// points), and each such pair leaves one of the two players at 2. So the bound for the field is: the
/// players already two apart, plus the fewest same-lean pairs among the pairings that bring points
/// together as closely as possible without rematches. Fixed libraries can raise it further when no
/// free table takes a pair with the seats the right way round.
///
/// The test: 20 players on 11 tables over 6 rounds, player 8 drops after round 2 and a 21st player
/// enters in round 3; for 40 seeded events the players ending two or more apart are exactly that
/// bound (found independently by a general matching), and no table turned a pair's seats the wrong way.
#[test]
fn a_small_field_with_a_drop_and_a_late_entry_reaches_the_seat_bound() {
    let mut reached = 0;
    for seed in 0..40u64 {
        let e = play(21, 6, 11, seed, |r, p| (p != 7 || r <= 2) && (p != 20 || r >= 3));
        let off = unbalanced(&e.history);
        let (last, earlier) = e.rounds.split_last().expect("rounds");
        let h = History::from_rounds(21, earlier);
        let lean = |p: usize| h.players[p].seat_lean();
        let same = last.games.iter().filter(|g| lean(g.a) * lean(g.b) > 0).count();
        let turned = last.games.iter().filter(|g| lean(g.a) > lean(g.b)).count();
        let already = (0..21).filter(|&p| lean(p).abs() >= 2).count();
        let least = fewest_same_lean_pairs(&h, last, &e.before_last);
        assert_eq!((same, turned), (least, 0), "seed {seed}: same-lean pairs and seats turned the wrong way");
        assert_eq!(off.len(), least + already, "seed {seed}: {off:?}");
        reached += usize::from(off.is_empty());
    }
    // The bound is often above 0 (results scatter the leans within score groups), but not always.
    assert!(reached > 0);
}

/// The fewest pairs of players leaning the same way among the pairings of `round`'s field that
/// bring points together as closely as possible and avoid rematches (found by the general matching).
fn fewest_same_lean_pairs(h: &History, round: &Round, points: &[u32]) -> usize {
    let field: Vec<usize> = round.games.iter().flat_map(|g| [g.a, g.b]).collect();
    let n = field.len() as i64;
    let lean = |p: usize| h.get(p).map_or(0, |x| x.seat_lean().signum());
    let mut edges = Vec::new();
    for i in 0..field.len() {
        for j in i + 1..field.len() {
            let (p, q) = (field[i], field[j]);
            if h.get(p).is_some_and(|x| x.met(q)) {
                continue;
            }
            let d = i64::from(points[p].abs_diff(points[q]));
            let same = i64::from(lean(p) != 0 && lean(p) == lean(q));
            edges.push((i, j, 1_000_000 - (n + 1) * d * d - same));
        }
    }
    let mate = super::matching::max_weight_matching(field.len(), &edges, true);
    (0..field.len())
        .filter(|&i| mate[i].is_some_and(|j| j > i && lean(field[i]) != 0 && lean(field[i]) == lean(field[j])))
        .count()
}
