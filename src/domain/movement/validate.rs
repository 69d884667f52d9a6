//! The one validator of schedules, shared by the tests and the program.

use super::history::{History, PlayerHistory};
use super::{MovementKind, Round, Seat};

/// A property a schedule can keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Guarantee {
    /// No player plays the same library (table, seat) twice.
    NoLibraryReuse,
    /// No two players meet twice.
    NoRematch,
    /// Each player's count of A seats and B seats differ by at most 1 (checked after the last round).
    SeatBalance,
    /// No player sits out twice.
    OneSitOut,
    /// No player comes back to a table at all.
    NoTableRevisit,
    /// Each player is in at most one game or bye per round, each table holds at most one game.
    WellFormed,
}

impl Guarantee {
    /// Every guarantee, in the order they are shown.
    pub const ALL: [Guarantee; 6] = [
        Guarantee::NoLibraryReuse,
        Guarantee::NoRematch,
        Guarantee::SeatBalance,
        Guarantee::OneSitOut,
        Guarantee::NoTableRevisit,
        Guarantee::WellFormed,
    ];

    /// A stable snake_case key (JSON).
    pub fn key(self) -> &'static str {
        match self {
            Guarantee::NoLibraryReuse => "no_library_reuse",
            Guarantee::NoRematch => "no_rematch",
            Guarantee::SeatBalance => "seat_balance",
            Guarantee::OneSitOut => "one_sit_out",
            Guarantee::NoTableRevisit => "no_table_revisit",
            Guarantee::WellFormed => "well_formed",
        }
    }

    /// The guarantee in a judge's words.
    pub fn words(self) -> &'static str {
        match self {
            Guarantee::NoLibraryReuse => "no player plays a library twice",
            Guarantee::NoRematch => "no two players meet twice",
            Guarantee::SeatBalance => "seats A and B within one for everyone",
            Guarantee::OneSitOut => "nobody sits out twice",
            Guarantee::NoTableRevisit => "nobody comes back to a table",
            Guarantee::WellFormed => "one seat per player, one game per table",
        }
    }
}

/// One broken guarantee.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Violation {
    /// The guarantee broken.
    pub guarantee: Guarantee,
    /// Round number, from 1.
    pub round: u32,
    /// Players concerned.
    pub players: Vec<usize>,
    /// What happened, in words (players shown as P1.. = index 0..).
    pub detail: String,
}

/// Check `rounds` (played rounds, possibly followed by one proposed round) against `check`.
///
/// Violations carry the round (from 1) where they happen, so a caller checking a proposed
/// round keeps those whose `round` is the last one. Seat balance is judged after the last round.
pub fn validate(n_players: usize, rounds: &[Round], check: &[Guarantee]) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut h = History::new(n_players);
    h.reserve(rounds.len());
    for (i, round) in rounds.iter().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        check_round(&h, round, number, check, &mut out);
        h.record(round);
    }
    if check.contains(&Guarantee::SeatBalance) {
        let last = u32::try_from(rounds.len()).unwrap_or(u32::MAX);
        for (p, ph) in h.players.iter().enumerate() {
            if ph.seat_lean().abs() > 1 {
                out.push(Violation {
                    guarantee: Guarantee::SeatBalance,
                    round: last,
                    players: vec![p],
                    detail: format!(
                        "P{} sat {} at A and {} at B",
                        p + 1,
                        crate::domain::words::times(ph.seats_a),
                        crate::domain::words::times(ph.seats_b)
                    ),
                });
            }
        }
    }
    out
}

fn check_round(h: &History, round: &Round, number: u32, check: &[Guarantee], out: &mut Vec<Violation>) {
    let on = |g: Guarantee| check.contains(&g);
    let mut push = |guarantee, players: Vec<usize>, detail: String| {
        out.push(Violation { guarantee, round: number, players, detail })
    };
    let none = PlayerHistory::default();
    for g in &round.games {
        let (pa, pb) = (h.get(g.a).unwrap_or(&none), h.get(g.b).unwrap_or(&none));
        let (a, b, t) = (g.a + 1, g.b + 1, g.table);
        if on(Guarantee::NoLibraryReuse) {
            for (p, ph, seat) in [(g.a, pa, Seat::A), (g.b, pb, Seat::B)] {
                if ph.used(t, seat) {
                    let detail = format!("P{} uses library {t}{seat:?} again", p + 1);
                    push(Guarantee::NoLibraryReuse, vec![p], detail);
                }
            }
        }
        if on(Guarantee::NoRematch) && pa.met(g.b) {
            push(Guarantee::NoRematch, vec![g.a, g.b], format!("P{a} meets P{b} again"));
        }
        if on(Guarantee::NoTableRevisit) {
            for (p, ph) in [(g.a, pa), (g.b, pb)] {
                if ph.visited(t) {
                    push(Guarantee::NoTableRevisit, vec![p], format!("P{} comes back to table {t}", p + 1));
                }
            }
        }
    }
    if on(Guarantee::OneSitOut) {
        for &p in &round.byes {
            if h.get(p).is_some_and(|x| x.byes > 0) {
                push(Guarantee::OneSitOut, vec![p], format!("P{} sits out a second time", p + 1));
            }
        }
    }
    if on(Guarantee::WellFormed) {
        well_formed(round, &mut push);
    }
}

fn well_formed(round: &Round, push: &mut impl FnMut(Guarantee, Vec<usize>, String)) {
    let mut seen: Vec<usize> = round.games.iter().flat_map(|g| [g.a, g.b]).collect();
    seen.extend(&round.byes);
    seen.sort_unstable();
    for w in seen.windows(2) {
        if w[0] == w[1] {
            let detail = format!("P{} is placed twice in one round", w[0] + 1);
            push(Guarantee::WellFormed, vec![w[0]], detail);
        }
    }
    let mut tables: Vec<u32> = round.games.iter().map(|g| g.table).collect();
    tables.sort_unstable();
    for w in tables.windows(2) {
        if w[0] == w[1] {
            push(Guarantee::WellFormed, vec![], format!("table {} holds two games", w[0]));
        }
    }
    if tables.first() == Some(&0) {
        push(Guarantee::WellFormed, vec![], "table 0 does not exist; tables start at 1".into());
    }
}

/// What a movement promises for `tables` tables (as used), `rounds` rounds and `players` players.
///
/// Past the movement's round limit ([`super::max_rounds`]) only [`Guarantee::WellFormed`] is promised.
/// Swiss promises its three on a best-effort basis and reports misses as warnings.
pub fn guarantees_of(kind: MovementKind, tables: u32, rounds: u32, players: usize) -> Vec<Guarantee> {
    use Guarantee::*;
    let max = super::max_rounds(kind, tables, players);
    if kind == MovementKind::Swiss {
        return vec![WellFormed, NoRematch, NoLibraryReuse, OneSitOut];
    }
    if max.is_none_or(|m| rounds > m) {
        return vec![WellFormed];
    }
    let mut g = vec![WellFormed, NoLibraryReuse, NoRematch, SeatBalance, OneSitOut];
    let revisit_free = match kind {
        MovementKind::Square => true,
        MovementKind::Mitchell => tables % 2 == 1 || rounds < tables,
        _ => false,
    };
    if revisit_free {
        g.push(NoTableRevisit);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::movement::Game;

    fn g(table: u32, a: usize, b: usize) -> Game {
        Game { table, a, b }
    }

    #[test]
    fn each_guarantee_is_detected() {
        use Guarantee::*;
        let all = [NoLibraryReuse, NoRematch, SeatBalance, OneSitOut, NoTableRevisit, WellFormed];
        let r1 = Round { games: vec![g(1, 0, 1), g(2, 2, 3)], byes: vec![4] };
        let cases: Vec<(Round, Vec<Guarantee>)> = vec![
            (Round { games: vec![g(2, 4, 2)], byes: vec![0] }, vec![NoTableRevisit]),
            (Round { games: vec![g(1, 4, 1)], byes: vec![] }, vec![NoTableRevisit, NoLibraryReuse, SeatBalance]),
            (Round { games: vec![g(3, 1, 0)], byes: vec![4] }, vec![NoRematch, OneSitOut]),
            (Round { games: vec![g(3, 4, 2)], byes: vec![2] }, vec![WellFormed]),
            (Round { games: vec![g(3, 1, 2), g(3, 3, 0)], byes: vec![] }, vec![WellFormed]),
            (Round { games: vec![g(3, 0, 4)], byes: vec![] }, vec![SeatBalance]),
            (Round { games: vec![g(3, 4, 0)], byes: vec![] }, vec![]),
        ];
        for (r2, want) in cases {
            let v = validate(5, &[r1.clone(), r2.clone()], &all);
            let mut got: Vec<Guarantee> = v.iter().map(|x| x.guarantee).collect();
            got.dedup();
            let mut want_sorted = want.clone();
            want_sorted.sort_by_key(|x| *x as u8);
            got.sort_by_key(|x| *x as u8);
            got.dedup();
            assert_eq!(got, want_sorted, "round {r2:?}: {v:?}");
            assert!(v.iter().all(|x| x.round == 2));
        }
    }

    #[test]
    fn unchecked_guarantees_are_ignored() {
        let r = Round { games: vec![g(1, 0, 1)], byes: vec![] };
        assert!(validate(2, &[r.clone(), r], &[Guarantee::OneSitOut]).is_empty());
    }
}
