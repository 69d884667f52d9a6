//! Decision statistics: per player, how many decisions were timed, their median and longest, and the overruns
//! (possible slow play) with the stalls logged on the clock screen.

use crate::domain::clock_stats::{Summary, Timed, summarize};
use crate::error::Result;
use crate::ops::player_names;
use crate::ops::table::clocks::clock::name_in;
use crate::ops::table::find_match;
use crate::store::clock::{self as store_clock, DecisionRow};
use crate::store::{MatchId, PlayerId, matches};
use rusqlite::Connection;
use std::collections::BTreeMap;

/// One player's line.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PlayerLine {
    /// The player.
    pub player: String,
    /// Their finished decisions.
    #[serde(flatten)]
    pub summary: Summary,
    /// Stalls logged for them on the clock screen.
    pub stalls: i64,
}

/// One overrun, for a judge to review.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Overrun {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: Option<u32>,
    /// The player.
    pub player: String,
    /// When the decision started (RFC 3339).
    pub started_at: String,
    /// How long it took.
    pub duration_ms: i64,
    /// The limit in force.
    pub limit_ms: i64,
    /// How far over.
    pub overrun_ms: i64,
}

/// The decisions of the event, of a table of the current round, or of a player.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DecisionStats {
    /// Every finished decision.
    pub total: Summary,
    /// Decisions still running (not counted).
    pub running: usize,
    /// Per player, most overruns first.
    pub players: Vec<PlayerLine>,
    /// Every overrun.
    pub overruns: Vec<Overrun>,
}

/// `decisions [--table T] [--player P]`.
pub fn decision_stats(conn: &Connection, table: Option<u32>, player: Option<&str>) -> Result<DecisionStats> {
    let game: Option<MatchId> = match table {
        Some(t) => Some(find_match(conn, t, None)?.id),
        None => None,
    };
    let who: Option<PlayerId> = match player {
        Some(p) => Some(player_names::find(conn, p)?.id),
        None => None,
    };
    let rows = store_clock::decisions(conn, game, who)?;
    let stalls: BTreeMap<PlayerId, i64> = store_clock::stall_counts(conn, game, who)?.into_iter().collect();
    let mut by_player: BTreeMap<PlayerId, Vec<&DecisionRow>> = BTreeMap::new();
    for d in rows.iter().filter(|d| d.ended_at.is_some()) {
        by_player.entry(d.player_id).or_default().push(d);
    }
    for p in stalls.keys() {
        by_player.entry(*p).or_default();
    }
    let names = player_names::names_by_id(conn)?;
    let name = |p: PlayerId| name_in(conn, &names, p);
    let mut players = Vec::new();
    for (p, ds) in &by_player {
        let summary = summarize(&ds.iter().copied().map(timed).collect::<Vec<_>>());
        players.push(PlayerLine { player: name(*p)?, summary, stalls: stalls.get(p).copied().unwrap_or(0) });
    }
    players.sort_by(|a, b| b.summary.overruns.cmp(&a.summary.overruns).then(a.player.cmp(&b.player)));
    let mut overruns = Vec::new();
    for d in rows.iter().filter(|d| d.overrun_ms.unwrap_or(0) > 0) {
        let m = matches::get(conn, d.match_id)?;
        overruns.push(Overrun {
            round: m.round,
            table: m.table,
            player: name(d.player_id)?,
            started_at: d.started_at.clone(),
            duration_ms: d.duration_ms.unwrap_or(0),
            limit_ms: d.limit_ms.unwrap_or(0),
            overrun_ms: d.overrun_ms.unwrap_or(0),
        });
    }
    let running = rows.iter().filter(|d| d.ended_at.is_none()).count();
    let all: Vec<Timed> = rows.iter().filter(|d| d.ended_at.is_some()).map(timed).collect();
    Ok(DecisionStats { total: summarize(&all), running, players, overruns })
}

/// A finished decision as the summary counts it.
fn timed(d: &DecisionRow) -> Timed {
    Timed { duration_ms: d.duration_ms.unwrap_or(0), overrun_ms: d.overrun_ms.unwrap_or(0) }
}
