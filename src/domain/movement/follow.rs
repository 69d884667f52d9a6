//! Choosing the next round of an event: follow the fixed plan while the field and the history allow
//! it, else pair by Swiss (M3). Every proposal is checked by the one validator.
//!
//! The plan is never stored: round 1 places the field in a seeded order, and later rounds rebuild the
//! plan and read which player holds which slot from round 1 as it was played (so a swap made in
//! round 1 simply becomes part of the plan).

use std::collections::BTreeSet;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::validate::{Guarantee, Violation, guarantees_of, validate};
use super::{
    History, MovementError, MovementKind, Round, Stay, SwissPlayer, max_rounds, pair_swiss_apart, plan_fixed_allow,
};

/// What is known when the next round is paired. Players are indices into the caller's list.
#[derive(Debug, Clone)]
pub struct Situation<'a> {
    /// The event's movement setting.
    pub movement: MovementKind,
    /// The movement that paired round 1 (None before round 1).
    pub first: Option<MovementKind>,
    /// The rounds played so far, first round first.
    pub played: &'a [Round],
    /// Size of the caller's player list (every index is below it).
    pub players: usize,
    /// Players who take part in the next round.
    pub active: &'a [usize],
    /// Tables with both libraries (fixed libraries only).
    pub tables: u32,
    /// The event's number of rounds.
    pub rounds: u32,
    /// Libraries stay at the tables (false: sealed libraries travel with their players).
    pub fixed_libraries: bool,
    /// The event's seed.
    pub seed: u64,
    /// The judge accepts rounds past the movement's limit (`--allow`).
    pub allow: bool,
    /// Players who stay at one table: Swiss never pairs two of them with each other (their game could not be
    /// played at both tables) and seats each one's game at their table's libraries when it can.
    pub apart: &'a [Stay],
}

/// Why a round is paired by Swiss rather than by the fixed plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SwissBecause {
    /// The event's movement is swiss.
    Chosen,
    /// Sealed libraries travel with their players.
    Sealed,
    /// Round 1 was paired by Swiss.
    StartedSwiss,
    /// The field is not round 1's: players who left it, players who joined it.
    FieldChanged {
        /// Round 1 players not in the next round.
        left: Vec<usize>,
        /// Players of the next round who did not play round 1.
        joined: Vec<usize>,
    },
    /// Round 1 as played does not have the plan's shape (tables or byes differ).
    FirstRoundDiffers,
    /// The plan's round would break a promised guarantee given the rounds played (after a swap, say).
    PlanWouldBreak(Vec<Violation>),
}

/// The fixed plan's round for the next round number.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// The fixed movement (mitchell, square or howell).
    pub kind: MovementKind,
    /// Tables the plan uses.
    pub tables_used: u32,
    /// Why this movement (the plan's own sentence).
    pub reason: String,
    /// The round, in the caller's player indices.
    pub round: Round,
    /// Set when the event has more rounds than the movement keeps new: what will happen then.
    pub limit: Option<String>,
    /// Guarantees the round breaks that the plan does not promise (only past the plan's limit,
    /// which the judge allowed).
    pub beyond_plan: Vec<Violation>,
}

/// Where the next round comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// The fixed plan's round.
    Fixed(Planned),
    /// Swiss pairing, and why.
    Swiss(SwissBecause),
}

/// A proposed round with everything a judge must hear about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    /// The movement that pairs it (never Auto).
    pub kind: MovementKind,
    /// The round, in the caller's player indices.
    pub round: Round,
    /// The fixed plan that was followed, if any.
    pub planned: Option<Planned>,
    /// Why Swiss, when it is Swiss.
    pub swiss_because: Option<SwissBecause>,
    /// Guarantees the round breaks (the judge must `--allow` them).
    pub violations: Vec<Violation>,
    /// Things worth saying that break no guarantee (a table revisit in Swiss, say).
    pub notes: Vec<String>,
}

/// The field of a round: everyone who played or sat out.
pub fn field_of(round: &Round) -> BTreeSet<usize> {
    round.games.iter().flat_map(|g| [g.a, g.b]).chain(round.byes.iter().copied()).collect()
}

/// A seeded permutation of `0..n`: slot i of the plan goes to the i-th entry.
pub fn seeded_order(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    order
}

/// What the Swiss movement promises (best effort; a miss needs the judge's `--allow`).
pub fn swiss_guarantees(fixed_libraries: bool) -> Vec<Guarantee> {
    let mut g = vec![Guarantee::WellFormed, Guarantee::NoRematch, Guarantee::OneSitOut];
    if fixed_libraries {
        g.push(Guarantee::NoLibraryReuse);
    }
    g
}

/// Violations of `check` that `next` adds to the rounds `played`.
pub fn violations_of_next(players: usize, played: &[Round], next: &Round, check: &[Guarantee]) -> Vec<Violation> {
    let mut rounds = played.to_vec();
    rounds.push(next.clone());
    let last = u32::try_from(rounds.len()).unwrap_or(u32::MAX);
    validate(players, &rounds, check).into_iter().filter(|v| v.round == last).collect()
}

/// Whether the next round follows the fixed plan, and its round if so.
pub fn next_source(s: &Situation<'_>) -> Result<Next, MovementError> {
    if !s.fixed_libraries {
        return Ok(Next::Swiss(SwissBecause::Sealed));
    }
    if s.movement == MovementKind::Swiss {
        return Ok(Next::Swiss(SwissBecause::Chosen));
    }
    let Some(first) = s.played.first() else {
        return first_round(s).map(Next::Fixed);
    };
    let first_kind = s.first.unwrap_or(MovementKind::Swiss);
    if matches!(first_kind, MovementKind::Swiss | MovementKind::Auto) {
        return Ok(Next::Swiss(SwissBecause::StartedSwiss));
    }
    let field: BTreeSet<usize> = field_of(first);
    let active: BTreeSet<usize> = s.active.iter().copied().collect();
    if field != active {
        let left = field.difference(&active).copied().collect();
        let joined = active.difference(&field).copied().collect();
        return Ok(Next::Swiss(SwissBecause::FieldChanged { left, joined }));
    }
    let kind = if s.movement == MovementKind::Auto { first_kind } else { s.movement };
    let slots: Vec<usize> = field.into_iter().collect();
    let (plan, limit) = plan_for(s, kind, slots.len())?;
    let Some(slot_of) = slots_from_first(&plan.schedule.rounds[0], first, slots.len()) else {
        return Ok(Next::Swiss(SwissBecause::FirstRoundDiffers));
    };
    let number = s.played.len() + 1;
    let round = plan.schedule.rounds.get(number - 1).map(|r| map_round(r, &slot_of)).unwrap_or_default();
    let promised = plan_checks(kind, plan.tables_used, plan.schedule.rounds.len(), slots.len());
    let mut check = swiss_guarantees(true);
    check.extend(promised.iter().filter(|g| !check.contains(g)).copied().collect::<Vec<_>>());
    let (broken, beyond_plan): (Vec<Violation>, Vec<Violation>) =
        violations_of_next(s.players, s.played, &round, &check)
            .into_iter()
            .partition(|v| promised.contains(&v.guarantee));
    if !broken.is_empty() {
        return Ok(Next::Swiss(SwissBecause::PlanWouldBreak(broken)));
    }
    let reason = format!("round {number} of the {kind} movement planned in round 1");
    Ok(Next::Fixed(Planned { kind, tables_used: plan.tables_used, reason, round, limit, beyond_plan }))
}

/// Proposes the next round: the fixed plan's when it applies, else a Swiss round by `points`
/// (indexed like the players), checked by the validator.
pub fn propose(s: &Situation<'_>, points: &[u32]) -> Result<Proposal, MovementError> {
    match next_source(s)? {
        Next::Fixed(planned) => Ok(Proposal {
            kind: planned.kind,
            violations: planned.beyond_plan.clone(),
            round: planned.round.clone(),
            notes: planned.limit.iter().cloned().collect(),
            planned: Some(planned),
            swiss_because: None,
        }),
        Next::Swiss(because) => {
            let field: Vec<SwissPlayer> = s
                .active
                .iter()
                .map(|&index| SwissPlayer { index, points: points.get(index).copied().unwrap_or(0), active: true })
                .collect();
            let history = History::from_rounds(s.players, s.played);
            let round_seed = s.seed.wrapping_add(s.played.len() as u64 + 1);
            let out = pair_swiss_apart(&field, &history, s.tables, s.fixed_libraries, round_seed, s.apart)?;
            // One pass of the validator: the promised guarantees, and seat balance, which Swiss keeps as well
            // as it can (said whenever a player ends up more than one apart).
            let mut check = swiss_guarantees(s.fixed_libraries);
            check.push(Guarantee::SeatBalance);
            let (seats, violations): (Vec<Violation>, Vec<Violation>) =
                violations_of_next(s.players, s.played, &out.round, &check)
                    .into_iter()
                    .partition(|v| v.guarantee == Guarantee::SeatBalance);
            let mut notes: Vec<String> = out
                .warnings
                .into_iter()
                .filter(|w| w.contains("back to a table") || w.contains("stay at their tables"))
                .collect();
            notes.extend(seats.into_iter().map(|v| format!("seats (best effort in Swiss): {}", v.detail)));
            Ok(Proposal {
                kind: MovementKind::Swiss,
                round: out.round,
                planned: None,
                swiss_because: Some(because),
                violations,
                notes,
            })
        }
    }
}

/// Round 1 of a fixed movement: the active players in a seeded order.
fn first_round(s: &Situation<'_>) -> Result<Planned, MovementError> {
    let mut active: Vec<usize> = s.active.to_vec();
    active.sort_unstable();
    active.dedup();
    let (plan, limit) = plan_for(s, s.movement, active.len())?;
    let slot_of: Vec<usize> = seeded_order(active.len(), s.seed).into_iter().map(|i| active[i]).collect();
    let round = map_round(&plan.schedule.rounds[0], &slot_of);
    let (kind, tables_used, reason) = (plan.kind, plan.tables_used, plan.reason);
    Ok(Planned { kind, tables_used, reason, round, limit, beyond_plan: Vec::new() })
}

/// The plan for `n` slots up to the next round, cut at the movement's limit unless the judge allows
/// more (then `limit` is None); with the limit below the next round number, the refusal.
///
/// Plans of an even field and Howell plans are the same whatever their length, so they stop at the
/// next round; an odd field's seats are balanced over the whole plan, which is then built whole.
fn plan_for(s: &Situation<'_>, kind: MovementKind, n: usize) -> Result<(super::Plan, Option<String>), MovementError> {
    let number = u32::try_from(s.played.len() + 1).unwrap_or(u32::MAX);
    let wanted = s.rounds.max(number);
    let probe = plan_fixed_allow(kind, n, s.tables, 1, false)?;
    let length = |rounds: u32| if n.is_multiple_of(2) || probe.kind == MovementKind::Howell { number } else { rounds };
    if s.allow {
        return plan_fixed_allow(kind, n, s.tables, length(wanted), true).map(|p| (p, None));
    }
    let max = max_rounds(probe.kind, probe.tables_used, n).unwrap_or(wanted);
    if number > max {
        // The plan's own refusal names the limit and the ways out.
        return plan_fixed_allow(kind, n, s.tables, wanted, false).map(|p| (p, None));
    }
    let limit = (wanted > max).then(|| {
        format!(
            "the {} movement keeps every opponent and library new for {max} rounds; round {} will need \
             `round pair --allow` (players meet again) or `event set movement swiss`",
            probe.kind,
            max + 1
        )
    });
    plan_fixed_allow(kind, n, s.tables, length(wanted.min(max)), false).map(|p| (p, limit))
}

/// Guarantees a planned round is checked against mid-event (seat balance is a whole-plan property).
fn plan_checks(kind: MovementKind, tables: u32, rounds: usize, players: usize) -> Vec<Guarantee> {
    let rounds = u32::try_from(rounds).unwrap_or(u32::MAX);
    guarantees_of(kind, tables, rounds, players).into_iter().filter(|g| *g != Guarantee::SeatBalance).collect()
}

/// Slot -> player, read from round 1 as played against the plan's round 1.
fn slots_from_first(plan_first: &Round, played: &Round, n: usize) -> Option<Vec<usize>> {
    if plan_first.games.len() != played.games.len() || plan_first.byes.len() != played.byes.len() {
        return None;
    }
    let mut slot_of = vec![usize::MAX; n];
    let at: std::collections::HashMap<u32, &super::Game> = played.games.iter().map(|g| (g.table, g)).collect();
    for g in &plan_first.games {
        let real = at.get(&g.table)?;
        *slot_of.get_mut(g.a)? = real.a;
        *slot_of.get_mut(g.b)? = real.b;
    }
    let (mut planned_byes, mut real_byes) = (plan_first.byes.clone(), played.byes.clone());
    planned_byes.sort_unstable();
    real_byes.sort_unstable();
    for (slot, player) in planned_byes.into_iter().zip(real_byes) {
        *slot_of.get_mut(slot)? = player;
    }
    slot_of.iter().all(|&p| p != usize::MAX).then_some(slot_of)
}

/// A plan round with slots replaced by players.
fn map_round(round: &Round, slot_of: &[usize]) -> Round {
    let at = |slot: usize| slot_of.get(slot).copied().unwrap_or(slot);
    Round {
        games: round.games.iter().map(|g| super::Game { table: g.table, a: at(g.a), b: at(g.b) }).collect(),
        byes: round.byes.iter().map(|&p| at(p)).collect(),
    }
}

#[cfg(test)]
#[path = "follow_tests.rs"]
mod tests;
