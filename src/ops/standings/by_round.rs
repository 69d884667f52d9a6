//! Points by round: each player's match points after every round, for the standings drawn over rounds (the
//! top 16 of the latest standings and a player found by name). One pass over the results: an earlier round's
//! points never change, so only the latest round's standings are ranked.

use super::{AfterRound, Results, end, is_over};
use crate::domain::standings as rules;
use crate::error::Result;
use crate::ops::player_names;
use rusqlite::Connection;

/// One player's line of the chart.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PointsLine {
    /// Their rank in the latest standings.
    pub rank: u32,
    /// The player.
    pub name: String,
    /// Their match points after each round from 1 (None for a round before they entered).
    pub points: Vec<Option<u32>>,
    /// The player found by name.
    pub found: bool,
}

/// The standings over rounds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PointsByRound {
    /// The latest round played (the standings are after it).
    pub round: u32,
    /// These are the final standings.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// The final standings' winner (the names ranked first), once final.
    pub winner: Option<Vec<String>>,
    /// The top of the latest standings (at most [`TOP`]), then the player found when not among them.
    pub lines: Vec<PointsLine>,
    /// Players ranked in all.
    pub ranked: usize,
    /// The player asked for, found.
    pub found: Option<String>,
}

/// The lines drawn besides the player found.
pub const TOP: usize = 16;

impl Results {
    /// Each player's (by index) match points after each round 1..=`upto`: 3 per win or bye, 1 per draw, as the
    /// standings count them; a late entrant's missed rounds count as losses (0) under `late-entry loss`.
    pub fn points_by_round(&self, upto: u32) -> Vec<Vec<u32>> {
        let rounds = upto as usize;
        let mut gained = vec![vec![0u32; rounds]; self.players.len()];
        for m in self.matches.iter().filter(|m| m.round >= 1 && m.round <= upto) {
            let Some(r) = self.record(m, upto) else { continue };
            let (a, b) = match (r.b, r.outcome) {
                (_, rules::Outcome::Draw) => (1, 1),
                (_, rules::Outcome::AWins) => (3, 0),
                (_, rules::Outcome::BWins) => (0, 3),
            };
            gained[r.a][m.round as usize - 1] += a;
            if let Some(bi) = r.b {
                gained[bi][m.round as usize - 1] += b;
            }
        }
        gained
            .into_iter()
            .map(|g| {
                g.iter()
                    .scan(0u32, |sum, x| {
                        *sum += x;
                        Some(*sum)
                    })
                    .collect()
            })
            .collect()
    }
}

/// The top of the latest standings and the player `player` (any unambiguous beginning of the name), with their
/// points after each round.
pub fn points_by_round(conn: &Connection, player: Option<&str>) -> Result<PointsByRound> {
    let found = match player.map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) => Some(player_names::find(conn, p)?.name),
        None => None,
    };
    let results = Results::load_for_standings(conn)?;
    let round = results.played;
    let after = results.standings_of_round(round);
    let is_final = round == results.paired && round > 0 && is_over(conn, &results)?;
    Ok(of_round(&results, round, &after, is_final, found))
}

/// The top of the standings `after` round `round` (and the player `found`), with their points after each round
/// up to it (the site's standings page of that round).
pub fn of_round(
    results: &Results,
    round: u32,
    after: &AfterRound,
    is_final: bool,
    found: Option<String>,
) -> PointsByRound {
    let points = results.points_by_round(round);
    let line = |l: &super::Line| -> PointsLine {
        let i = results.index_of(l.player_id);
        let joined = i.map_or(1, |i| results.players[i].joined_round);
        let theirs = i.map(|i| points[i].clone()).unwrap_or_default();
        PointsLine {
            rank: l.rank,
            name: l.name.clone(),
            points: theirs.iter().enumerate().map(|(r, p)| (r as u32 + 1 >= joined).then_some(*p)).collect(),
            found: found.as_deref() == Some(l.name.as_str()),
        }
    };
    let mut lines: Vec<PointsLine> = after.lines.iter().take(TOP).map(line).collect();
    if let Some(name) = &found
        && !lines.iter().any(|l| &l.name == name)
        && let Some(l) = after.lines.iter().find(|l| &l.name == name)
    {
        lines.push(line(l));
    }
    PointsByRound {
        round,
        is_final,
        winner: is_final.then(|| end::winners(&after.lines)),
        lines,
        ranked: after.lines.len(),
        found,
    }
}
