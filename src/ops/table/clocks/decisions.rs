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
    /// The decision's length as recorded, when a replayed tap's claim recorded it shorter than the server saw it
    /// (the length and overrun above are then the server's): a possible overrun, "claimed shorter".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed_ms: Option<i64>,
}

/// A finished decision's overrun as counted: as recorded, or as the server saw it when a claim recorded it
/// shorter (a claim annotates, never erases). `(duration_ms, overrun_ms, claimed_ms)`; None within its limit.
pub fn counted(d: &DecisionRow) -> Result<Option<(i64, i64, Option<i64>)>> {
    if let (Some(over), Some(seen)) = (super::claims::seen_overrun_ms(d)?, super::claims::seen_ms(d)?) {
        return Ok(Some((seen, over, Some(d.duration_ms.unwrap_or(0)))));
    }
    Ok(d.overrun_ms.filter(|o| *o > 0).map(|o| (d.duration_ms.unwrap_or(0), o, None)))
}

/// The overrun of decision `d` (round `round`, table `table`, player `player`) as counted (see [`counted`]).
pub fn overrun_of(d: &DecisionRow, round: u32, table: Option<u32>, player: String) -> Result<Option<Overrun>> {
    Ok(counted(d)?.map(|(duration_ms, overrun_ms, claimed_ms)| Overrun {
        round,
        table,
        player,
        started_at: d.started_at.clone(),
        duration_ms,
        limit_ms: d.limit_ms.unwrap_or(0),
        overrun_ms,
        claimed_ms,
    }))
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
    /// Every finished decision, oldest first (`decisions --all`; None otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisions: Option<Vec<DecisionLine>>,
}

/// One finished decision as the charts draw it (`decisions --json --all`): the fields of an [`Overrun`], its
/// overrun 0 when it kept within its limit.
pub type DecisionLine = Overrun;

/// Finished decision `d` of round `round` at `table` by `player`, as [`DecisionLine`] gives it.
pub fn line_of(d: &DecisionRow, round: u32, table: Option<u32>, player: String) -> Result<DecisionLine> {
    let recorded = d.duration_ms.unwrap_or(0);
    let seen = super::claims::seen_ms(d)?.unwrap_or(recorded);
    let overrun_ms = counted(d)?.map_or(0, |(_, over, _)| over);
    let shorter = seen > recorded && (d.start_claim.is_some() || d.end_claim.is_some());
    Ok(DecisionLine {
        round,
        table,
        player,
        started_at: d.started_at.clone(),
        duration_ms: if shorter { seen } else { recorded },
        limit_ms: d.limit_ms.unwrap_or(0),
        overrun_ms,
        claimed_ms: shorter.then_some(recorded),
    })
}

/// `decisions [--table T] [--player P] [--all]`: `all` lists every finished decision too.
pub fn decision_stats(conn: &Connection, table: Option<u32>, player: Option<&str>, all: bool) -> Result<DecisionStats> {
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
        let timed: Vec<Timed> = ds.iter().map(|d| timed(d)).collect::<Result<_>>()?;
        players.push(PlayerLine {
            player: name(*p)?,
            summary: summarize(&timed),
            stalls: stalls.get(p).copied().unwrap_or(0),
        });
    }
    players.sort_by(|a, b| b.summary.overruns.cmp(&a.summary.overruns).then(a.player.cmp(&b.player)));
    let mut overruns = Vec::new();
    let mut lines = Vec::new();
    let mut places: BTreeMap<MatchId, (u32, Option<u32>)> = BTreeMap::new();
    for d in rows.iter().filter(|d| d.ended_at.is_some()) {
        let over = counted(d)?.is_some();
        if !over && !all {
            continue;
        }
        let (round, table) = match places.get(&d.match_id) {
            Some(p) => *p,
            None => {
                let m = matches::get(conn, d.match_id)?;
                *places.entry(d.match_id).or_insert((m.round, m.table))
            }
        };
        if over {
            overruns.extend(overrun_of(d, round, table, name(d.player_id)?)?);
        }
        if all {
            lines.push(line_of(d, round, table, name(d.player_id)?)?);
        }
    }
    let running = rows.iter().filter(|d| d.ended_at.is_none()).count();
    let finished: Vec<Timed> = rows.iter().filter(|d| d.ended_at.is_some()).map(timed).collect::<Result<_>>()?;
    let decisions = all.then_some(lines);
    Ok(DecisionStats { total: summarize(&finished), running, players, overruns, decisions })
}

/// A finished decision as the summary counts it (its overrun as [`counted`]).
fn timed(d: &DecisionRow) -> Result<Timed> {
    let overrun_ms = counted(d)?.map_or(0, |(_, over, _)| over);
    Ok(Timed { duration_ms: d.duration_ms.unwrap_or(0), overrun_ms })
}

/// The slow-play page's figures: every player timed, ranked, with every decision.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SlowPlay {
    /// The event's decisions, every one listed.
    pub stats: DecisionStats,
    /// The players with a decision or a stall: most overruns first, then the longest median, then by name.
    pub ranking: Vec<PlayerLine>,
    /// The player asked for (by any unambiguous prefix), found.
    pub found: Option<String>,
}

/// `GET /judge/decisions[?player=NAME]` and `decisions --html FILE [--player NAME]`.
pub fn slow_play(conn: &Connection, player: Option<&str>) -> Result<SlowPlay> {
    let found = match player.map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) => Some(player_names::find(conn, p)?.name),
        None => None,
    };
    let stats = decision_stats(conn, None, None, true)?;
    let mut ranking = stats.players.clone();
    ranking.sort_by(|a, b| {
        b.summary
            .overruns
            .cmp(&a.summary.overruns)
            .then(b.summary.median_ms.cmp(&a.summary.median_ms))
            .then(a.player.cmp(&b.player))
    });
    Ok(SlowPlay { stats, ranking, found })
}
