//! Following the fixed plan round by round, and leaving it for Swiss.

use super::*;
use crate::domain::movement::{Game, plan_fixed};

fn situation<'a>(played: &'a [Round], active: &'a [usize], players: usize) -> Situation<'a> {
    Situation {
        movement: MovementKind::Auto,
        first: played.first().map(|_| MovementKind::Square),
        played,
        players,
        active,
        tables: 10,
        rounds: 4,
        fixed_libraries: true,
        seed: 42,
        allow: false,
        apart: &[],
    }
}

fn all_guarantees() -> Vec<Guarantee> {
    use Guarantee::*;
    vec![WellFormed, NoLibraryReuse, NoRematch, SeatBalance, OneSitOut, NoTableRevisit]
}

/// Plays `rounds` rounds of an event through `propose`, all players active, no results.
fn play(players: usize, rounds: u32, movement: MovementKind) -> Vec<Proposal> {
    let active: Vec<usize> = (0..players).collect();
    let mut played: Vec<Round> = Vec::new();
    let mut out = Vec::new();
    let mut first = None;
    for _ in 0..rounds {
        let s = Situation { movement, first, rounds, ..situation(&played, &active, players) };
        let p = propose(&s, &vec![0; players]).unwrap();
        first = first.or(Some(p.kind));
        played.push(p.round.clone());
        out.push(p);
    }
    out
}

#[test]
fn first_round_places_the_field_in_a_seeded_order() {
    let active: Vec<usize> = (0..8).collect();
    let s = situation(&[], &active, 8);
    let Next::Fixed(a) = next_source(&s).unwrap() else { panic!("fixed expected") };
    assert_eq!(a.kind, MovementKind::Square);
    let again = next_source(&s).unwrap();
    assert_eq!(Next::Fixed(a.clone()), again, "same seed, same round");
    let Next::Fixed(b) = next_source(&Situation { seed: 7, ..s.clone() }).unwrap() else { panic!() };
    assert_ne!(a.round, b.round, "another seed, another order");
    assert_eq!(field_of(&a.round), active.iter().copied().collect());
    assert_eq!(seeded_order(5, 1).len(), 5);
}

#[test]
fn later_rounds_follow_the_plan_and_keep_every_guarantee() {
    for (players, kind) in [(8, MovementKind::Auto), (7, MovementKind::Auto), (9, MovementKind::Mitchell)] {
        let props = play(players, 4, kind);
        assert!(props.iter().all(|p| p.planned.is_some() && p.violations.is_empty()));
        let rounds: Vec<Round> = props.iter().map(|p| p.round.clone()).collect();
        let plan = plan_fixed(props[0].kind, players, 10, 4).unwrap();
        let check = guarantees_of(plan.kind, plan.tables_used, 4, players);
        assert!(validate(players, &rounds, &check).is_empty(), "{players} players");
        // Same rounds as the plan up to renaming the slots.
        for (mine, planned) in rounds.iter().zip(&plan.schedule.rounds) {
            assert_eq!(mine.games.len(), planned.games.len());
            assert_eq!(mine.byes.len(), planned.byes.len());
        }
    }
    let _ = all_guarantees();
}

#[test]
fn a_drop_or_a_late_entry_switches_to_swiss() {
    let props = play(8, 1, MovementKind::Auto);
    let played = vec![props[0].round.clone()];
    let active: Vec<usize> = (0..7).collect();
    let s = situation(&played, &active, 9);
    assert_eq!(next_source(&s).unwrap(), Next::Swiss(SwissBecause::FieldChanged { left: vec![7], joined: vec![] }));
    let active: Vec<usize> = (0..9).collect();
    let s = situation(&played, &active, 9);
    let p = propose(&s, &[3, 0, 3, 0, 3, 0, 3, 0, 0]).unwrap();
    assert_eq!(p.kind, MovementKind::Swiss);
    assert_eq!(p.swiss_because, Some(SwissBecause::FieldChanged { left: vec![], joined: vec![8] }));
    assert!(p.violations.is_empty(), "{:?}", p.violations);
    assert_eq!(p.round.byes.len(), 1);
}

#[test]
fn a_swap_in_round_one_becomes_part_of_the_plan() {
    let props = play(8, 1, MovementKind::Auto);
    let mut r1 = props[0].round.clone();
    let (x, y) = (r1.games[0].a, r1.games[1].b);
    r1.games[0].a = y;
    r1.games[1].b = x;
    let played = vec![r1];
    let active: Vec<usize> = (0..8).collect();
    let mut rounds = played.clone();
    for _ in 0..3 {
        let s = situation(&rounds, &active, 8);
        let Next::Fixed(p) = next_source(&s).unwrap() else { panic!("plan expected") };
        rounds.push(p.round);
    }
    assert!(validate(8, &rounds, &all_guarantees()).is_empty());
}

#[test]
fn a_later_swap_that_breaks_the_plan_leads_to_swiss() {
    let props = play(8, 2, MovementKind::Auto);
    let mut rounds: Vec<Round> = props.iter().map(|p| p.round.clone()).collect();
    // Exchange the two seat-A players of tables 1 and 2 in round 2.
    let (x, y) = (rounds[1].games[0].a, rounds[1].games[1].a);
    rounds[1].games[0].a = y;
    rounds[1].games[1].a = x;
    let active: Vec<usize> = (0..8).collect();
    let mut broke = false;
    for _ in 0..2 {
        let s = situation(&rounds, &active, 8);
        let p = propose(&s, &[0; 8]).unwrap();
        broke |= matches!(p.swiss_because, Some(SwissBecause::PlanWouldBreak(_)));
        assert!(p.violations.is_empty(), "{:?}", p.violations);
        rounds.push(p.round);
    }
    assert!(broke, "the swap should have broken the plan");
    let check = [Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::OneSitOut];
    assert!(validate(8, &rounds, &check).is_empty());
}

#[test]
fn rounds_past_the_limit_need_allow() {
    let active: Vec<usize> = (0..8).collect();
    let mut played: Vec<Round> = Vec::new();
    for number in 1..=5u32 {
        let s = Situation { rounds: 5, ..situation(&played, &active, 8) };
        if number == 1 {
            let Next::Fixed(p) = next_source(&s).unwrap() else { panic!() };
            assert!(p.limit.as_deref().is_some_and(|l| l.contains("round 5 will need")), "{:?}", p.limit);
        }
        if number == 5 {
            let err = propose(&s, &[0; 8]).unwrap_err();
            assert!(matches!(err, MovementError::TooManyRounds(_)), "{err}");
            let allowed = propose(&Situation { allow: true, ..s }, &[0; 8]).unwrap();
            assert_eq!(allowed.kind, MovementKind::Square);
            break;
        }
        played.push(propose(&s, &[0; 8]).unwrap().round);
    }
}

#[test]
fn sealed_and_chosen_swiss() {
    let active: Vec<usize> = (0..5).collect();
    let s = Situation { fixed_libraries: false, tables: 0, ..situation(&[], &active, 5) };
    let p = propose(&s, &[0; 5]).unwrap();
    assert_eq!((p.kind, p.swiss_because.clone()), (MovementKind::Swiss, Some(SwissBecause::Sealed)));
    let tables: Vec<u32> = p.round.games.iter().map(|g| g.table).collect();
    assert_eq!(tables, vec![1, 2]);
    let s = Situation { movement: MovementKind::Swiss, ..situation(&[], &active, 5) };
    assert_eq!(next_source(&s).unwrap(), Next::Swiss(SwissBecause::Chosen));
}

#[test]
fn a_forced_rematch_is_a_violation() {
    let played = vec![Round { games: vec![Game { table: 1, a: 0, b: 1 }], byes: vec![] }];
    let active = [0, 1];
    let s = Situation { movement: MovementKind::Swiss, ..situation(&played, &active, 2) };
    let p = propose(&s, &[3, 0]).unwrap();
    assert!(p.violations.iter().any(|v| v.guarantee == Guarantee::NoRematch), "{:?}", p.violations);
}

#[test]
fn plans_of_even_fields_and_howell_do_not_depend_on_their_length() {
    for (kind, players, tables) in [
        (MovementKind::Square, 16, 8),
        (MovementKind::Mitchell, 12, 6),
        (MovementKind::Mitchell, 10, 5),
        (MovementKind::Howell, 11, 5),
    ] {
        let whole = plan_fixed(kind, players, tables, tables).unwrap().schedule.rounds;
        for k in 1..tables {
            let part = plan_fixed(kind, players, tables, k).unwrap().schedule.rounds;
            assert_eq!(part[..], whole[..k as usize], "{kind} {players} players, {k} rounds");
        }
    }
}

/// Whole events that start on a fixed plan and meet drops and late entries: whatever each round
/// follows (plan or Swiss), nobody meets an opponent twice, plays a library twice or sits out twice.
#[test]
fn random_events_from_a_fixed_start_keep_the_guarantees() {
    let mut x = 7u64;
    let mut below = |n: u64| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
    for event in 0..60u64 {
        let start = 6 + below(24) as usize;
        let total = start + below(4) as usize;
        let rounds = (2 + below(5) as u32).min(start as u32 / 2);
        let tables = (total / 2) as u32 + rounds;
        let mut active: Vec<bool> = (0..total).map(|i| i < start).collect();
        let (mut played, mut points, mut first) = (Vec::new(), vec![0u32; total], None);
        for r in 0..rounds {
            if r > 0 && below(3) == 0 {
                active[below(total as u64) as usize] = false;
            }
            if r > 0 && below(3) == 0 {
                (start..total).for_each(|i| active[i] = true);
            }
            let ids: Vec<usize> = (0..total).filter(|&i| active[i]).collect();
            let s = Situation {
                movement: MovementKind::Auto,
                first,
                played: &played,
                players: total,
                active: &ids,
                tables,
                rounds,
                fixed_libraries: true,
                seed: event,
                allow: false,
                apart: &[],
            };
            let p = propose(&s, &points).unwrap();
            assert!(p.violations.is_empty(), "event {event} round {r}: {:?}", p.violations);
            first = first.or(Some(p.kind));
            for g in &p.round.games {
                points[if below(2) == 0 { g.a } else { g.b }] += 3;
            }
            played.push(p.round);
        }
        let check = [Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::OneSitOut, Guarantee::WellFormed];
        assert_eq!(validate(total, &played, &check), vec![], "event {event}");
    }
}
