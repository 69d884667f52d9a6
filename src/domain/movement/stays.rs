//! Players who stay at one table (a player who cannot move): every round is paired on the libraries as
//! ever, so every guarantee of the movement holds on them; then each stationary player's game is played at
//! their table with its libraries carried there (a relay, as duplicate bridge carries the boards to a
//! stationary pair), and the game whose libraries sit at that table moves to the table it freed.

use super::{Game, Round};

/// A player (index) who plays every round at one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stay {
    /// The player.
    pub player: usize,
    /// The table they stay at.
    pub table: u32,
}

/// A game of the round and the table it is played at; `game.table` names the table its libraries belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// The game as the movement paired it (its libraries are those of `game.table`).
    pub game: Game,
    /// Where it is played.
    pub at: u32,
}

impl Placed {
    /// Whether its libraries are carried to another table.
    pub fn carried(&self) -> bool {
        self.at != self.game.table
    }
}

/// Two stationary players paired with each other (a fixed movement may do it): their game is played at the
/// table of the one with the lower table number, and the other moves that round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Together {
    /// The player who keeps their table.
    pub stays: usize,
    /// The player who moves this round.
    pub moves: usize,
    /// The table of the game.
    pub table: u32,
}

/// A round's games at the tables they are played at.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Placement {
    /// Every game, in the order of the tables they are played at.
    pub games: Vec<Placed>,
    /// Stationary players paired together.
    pub together: Vec<Together>,
}

/// Places the games of `round`: each stationary player's game at their table, the game whose libraries are at
/// that table at the table freed, every other game where its libraries are. Stays are taken by table (the lower
/// first); a stay whose player sits out or is not in the round changes nothing; two stays at one table (which
/// marking refuses) keep the first. The tables played at are those of the round, or a stationary player's
/// table the round left empty.
pub fn place(round: &Round, stays: &[Stay]) -> Placement {
    let mut at: Vec<u32> = round.games.iter().map(|g| g.table).collect();
    let mut pinned = vec![false; at.len()];
    let mut pinned_by: Vec<Option<usize>> = vec![None; at.len()];
    let mut together = Vec::new();
    let mut order: Vec<Stay> = stays.to_vec();
    order.sort_by_key(|s| (s.table, s.player));
    for s in order {
        let Some(gi) = round.games.iter().position(|g| g.a == s.player || g.b == s.player) else { continue };
        if pinned[gi] {
            if let Some(first) = pinned_by[gi] {
                together.push(Together { stays: first, moves: s.player, table: at[gi] });
            }
            continue;
        }
        let holder = at.iter().position(|&t| t == s.table);
        if let Some(h) = holder {
            if pinned[h] && h != gi {
                // Another stationary player holds this table already.
                continue;
            }
            at[h] = at[gi];
        }
        at[gi] = s.table;
        pinned[gi] = true;
        pinned_by[gi] = Some(s.player);
    }
    let mut games: Vec<Placed> = round.games.iter().zip(at).map(|(&game, at)| Placed { game, at }).collect();
    games.sort_by_key(|p| p.at);
    Placement { games, together }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(games: &[(u32, usize, usize)]) -> Round {
        Round { games: games.iter().map(|&(table, a, b)| Game { table, a, b }).collect(), byes: vec![] }
    }

    fn at_of(p: &Placement, player: usize) -> Option<u32> {
        p.games.iter().find(|g| g.game.a == player || g.game.b == player).map(|g| g.at)
    }

    #[test]
    fn a_stationary_game_swaps_tables_with_the_game_of_its_libraries() {
        let r = round(&[(1, 0, 1), (2, 2, 3), (3, 4, 5)]);
        let p = place(&r, &[Stay { player: 5, table: 1 }]);
        assert_eq!(at_of(&p, 5), Some(1));
        assert_eq!(at_of(&p, 0), Some(3), "table 1's libraries' game moves to the freed table");
        assert_eq!(at_of(&p, 2), Some(2));
        let carried: Vec<(u32, u32)> = p.games.iter().filter(|g| g.carried()).map(|g| (g.game.table, g.at)).collect();
        assert_eq!(carried, [(3, 1), (1, 3)]);
    }

    #[test]
    fn a_stationary_player_already_home_moves_nothing_and_a_bye_changes_nothing() {
        let r = Round { games: round(&[(1, 0, 1), (2, 2, 3)]).games, byes: vec![4] };
        let p = place(&r, &[Stay { player: 2, table: 2 }, Stay { player: 4, table: 1 }]);
        assert!(p.games.iter().all(|g| !g.carried()));
    }

    #[test]
    fn an_empty_table_takes_the_game_and_two_stays_paired_together_keep_the_lower_table() {
        let r = round(&[(1, 0, 1), (2, 2, 3)]);
        let p = place(&r, &[Stay { player: 3, table: 5 }]);
        assert_eq!(at_of(&p, 3), Some(5));
        assert_eq!(at_of(&p, 0), Some(1));
        let p = place(&r, &[Stay { player: 3, table: 4 }, Stay { player: 2, table: 1 }]);
        assert_eq!(at_of(&p, 2), Some(1));
        assert_eq!(p.together, [Together { stays: 2, moves: 3, table: 1 }]);
    }

    #[test]
    fn every_stay_is_kept_and_the_tables_stay_distinct() {
        // Ten tables, every way of seating three stationary players at three tables.
        let r = round(&(1..=10).map(|t| (t, 2 * t as usize - 2, 2 * t as usize - 1)).collect::<Vec<_>>());
        for a in 0..20 {
            for b in (a + 1)..20 {
                if a / 2 == b / 2 {
                    continue;
                }
                let stays =
                    [Stay { player: a, table: 7 }, Stay { player: b, table: 2 }, Stay { player: 19, table: 11 }];
                let p = place(&r, &stays);
                let mut tables: Vec<u32> = p.games.iter().map(|g| g.at).collect();
                tables.dedup();
                assert_eq!(tables.len(), 10, "{a} {b}");
                assert_eq!(at_of(&p, a), Some(7));
                assert_eq!(at_of(&p, b), Some(2));
                if a / 2 != 9 && b / 2 != 9 {
                    assert_eq!(at_of(&p, 19), Some(11));
                }
            }
        }
    }
}
