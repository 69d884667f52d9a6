//! One simulated round of the demo: pairing, the clock, and what happens at each table.

use super::{DETAILED_TABLES, Demo};
use crate::domain::cost::ManaCost;
use crate::domain::simulate::{Ending, GameScript, Side};
use crate::error::Result;
use crate::ops::card_reference as reference;
use crate::store::matches::Match;
use crate::store::{event, library, matches, player, round};
use crate::time::stamp;
use chrono::{DateTime, Duration, Utc};
use std::collections::{HashMap, HashSet};

/// What happened in a round, for the one-line summary.
#[derive(Default)]
struct Tally {
    results: usize,
    at_time: usize,
    notes: usize,
    refused: usize,
    decisions: usize,
    overruns: usize,
    challenges: usize,
}

/// The round's timing settings.
struct Timing {
    start: DateTime<Utc>,
    minutes: i64,
    limit_secs: i64,
    round: u32,
}

/// Pairs, plays and closes one round.
pub fn play_round(demo: &mut Demo, number: u32, start: DateTime<Utc>) -> Result<()> {
    demo.set_now(start - Duration::minutes(10));
    demo.run(&["round", "pair"])?;
    let store = demo.store()?;
    let conn = store.conn();
    let values = event::values(conn)?;
    let timing = Timing {
        start,
        minutes: values.number("round-minutes"),
        limit_secs: values.number("decision-seconds"),
        round: number,
    };
    let movement = round::get(conn, number)?.map(|r| r.movement).unwrap_or_default();
    let games = matches::of_round(conn, number)?;
    let byes = games.iter().filter(|m| m.is_bye()).count();
    drop(store);
    demo.set_now(start);
    demo.run(&["round", "start", "--at", &stamp(start)])?;
    println!(
        "Round {number}: {movement} movement, {}{}",
        crate::domain::words::count(games.len() - byes, "table"),
        if byes > 0 { format!(", {}", crate::domain::words::count(byes, "bye")) } else { String::new() }
    );
    let mut tally = Tally::default();
    let mut classes = HashMap::new();
    for m in games.iter().filter(|m| !m.is_bye()) {
        play_table(demo, m, &timing, &mut tally, &mut classes)?;
    }
    let end = start + Duration::minutes(timing.minutes + 5);
    demo.set_now(end);
    demo.run(&["round", "end", "--at", &stamp(end)])?;
    println!(
        "  {} ({} at time), {} declared ({} refused), {} timed ({} over the limit), {}",
        crate::domain::words::count(tally.results, "result"),
        tally.at_time,
        crate::domain::words::count(tally.notes, "template"),
        tally.refused,
        crate::domain::words::count(tally.decisions, "decision"),
        tally.overruns,
        crate::domain::words::count(tally.challenges, "challenge")
    );
    Ok(())
}

/// The two players' names at a match.
fn names(demo: &Demo, m: &Match) -> Result<(String, String)> {
    let store = demo.store()?;
    let a = player::get(store.conn(), m.a)?.name;
    let b = match m.b {
        Some(b) => player::get(store.conn(), b)?.name,
        None => String::new(),
    };
    Ok((a, b))
}

fn play_table(
    demo: &mut Demo,
    m: &Match,
    timing: &Timing,
    tally: &mut Tally,
    classes: &mut HashMap<String, Vec<String>>,
) -> Result<()> {
    let Some(table) = m.table else { return Ok(()) };
    let detailed = table <= DETAILED_TABLES;
    let script = demo.sim().game(timing.minutes, if detailed { 6 } else { 0 }, timing.limit_secs);
    let (a, b) = names(demo, m)?;
    let name = |s: Side| if s == Side::A { a.clone() } else { b.clone() };
    let t = table.to_string();
    if detailed {
        time_decisions(demo, m, &script, timing, tally, &name)?;
        declare(demo, m, &script, timing, tally, classes, &name)?;
        if m.round == 2 && table == 1 {
            return lose_on_challenges(demo, &t, &a, timing, tally);
        }
        if m.round == 3 && table == 2 {
            let at = stamp(timing.start + Duration::minutes(20));
            demo.run(&[
                "challenge",
                &t,
                "--by",
                &b,
                "--about",
                "whether the declared card may block",
                "--ruling",
                "upheld",
                "--at",
                &at,
            ])?;
            tally.challenges += 1;
        }
    }
    record_result(demo, &t, &script, timing, tally, &name)
}

fn time_decisions(
    demo: &mut Demo,
    m: &Match,
    script: &GameScript,
    timing: &Timing,
    tally: &mut Tally,
    name: &dyn Fn(Side) -> String,
) -> Result<()> {
    let t = m.table.unwrap_or(0).to_string();
    for d in script.decisions.iter().filter(|d| d.at_secs < script.minutes * 60 - 30) {
        let from = timing.start + Duration::seconds(d.at_secs);
        let to = from + Duration::milliseconds(d.millis);
        demo.set_now(to);
        demo.run(&["clock", &t, "--start", &name(d.side), "--at", &stamp(from)])?;
        demo.run(&["clock", &t, "--stop", "--at", &stamp(to)])?;
        tally.decisions += 1;
        if d.millis > timing.limit_secs * 1000 {
            tally.overruns += 1;
            if m.round == 1 && tally.overruns == 1 {
                wrong_player_penalty(demo, &t, &name(d.side.other()), &stamp(to))?;
                demo.run(&[
                    "penalty",
                    &name(d.side),
                    "slow-play",
                    "--table",
                    &t,
                    "--at",
                    &stamp(to),
                    "--note",
                    "ran over the decision limit",
                ])?;
                println!(
                    "  table {t}: {} ran {:.0} s over the decision limit: warning for slow play",
                    name(d.side),
                    (d.millis as f64 / 1000.0) - timing.limit_secs as f64
                );
            }
        }
    }
    Ok(())
}

/// A judge's slip, corrected: the penalty goes to the wrong player first, is voided (it stays listed, struck
/// through, and counts for nothing), then goes to the right one.
fn wrong_player_penalty(demo: &mut Demo, t: &str, wrong: &str, at: &str) -> Result<()> {
    demo.run(&["penalty", wrong, "slow-play", "--table", t, "--at", at])?;
    let store = demo.store()?;
    let last = crate::store::penalty::list(store.conn(), None)?.last().map(|p| p.id);
    drop(store);
    if let Some(id) = last {
        demo.run(&["penalty", "void", &id.to_string(), "--reason", "given to the wrong player"])?;
        println!("  table {t}: a slow-play warning went to {wrong} by mistake: voided with `penalty void {id}`");
    }
    Ok(())
}

/// Declares templates from each player's library, legal ones chosen from each printed cost's class, plus a
/// few refused attempts shown as the judge sees them.
fn declare(
    demo: &mut Demo,
    m: &Match,
    script: &GameScript,
    timing: &Timing,
    tally: &mut Tally,
    classes: &mut HashMap<String, Vec<String>>,
    name: &dyn Fn(Side) -> String,
) -> Result<()> {
    let t = m.table.unwrap_or(0).to_string();
    let mut used: HashSet<String> = HashSet::new();
    let mut last: Option<(String, String)> = None;
    let turns = [(Side::A, m.a_library, script.declarations.0), (Side::B, m.b_library, script.declarations.1)];
    for (k, (side, lib, count)) in turns.into_iter().enumerate() {
        let Some(lib) = lib else { continue };
        let cards: Vec<(String, Option<String>)> = library::cards(demo.store()?.conn(), lib)?
            .into_iter()
            .filter(|c| !c.sideboard)
            .map(|c| (c.name, c.mana_cost))
            .collect();
        for i in 0..count {
            let at = timing.start + Duration::minutes(3 + 6 * (k as i64 + 2 * i as i64));
            demo.set_now(at);
            let Some((cost, card)) = pick(demo, &cards, classes, &used)? else { continue };
            if demo.run(&["note", &t, &name(side), &cost, &card, "--at", &stamp(at)]).is_ok() {
                tally.notes += 1;
                used.insert(card.clone());
                last = Some((cost, card));
            }
        }
        if side == Side::A
            && let Some((cost, card)) = &last
        {
            try_refused(demo, m, &t, &name(Side::B), cost, card, tally)?;
        }
    }
    Ok(())
}

/// A printed cost from the library and a legal, unused template for it.
fn pick(
    demo: &mut Demo,
    cards: &[(String, Option<String>)],
    classes: &mut HashMap<String, Vec<String>>,
    used: &HashSet<String>,
) -> Result<Option<(String, String)>> {
    let costed: Vec<&String> = cards.iter().filter_map(|(_, c)| c.as_ref()).filter(|c| !c.contains("//")).collect();
    if costed.is_empty() {
        return Ok(None);
    }
    let cost_text = costed[demo.sim().below(costed.len())].clone();
    let Ok(cost) = ManaCost::parse(&cost_text) else { return Ok(None) };
    if !classes.contains_key(&cost_text) {
        let store = demo.store()?;
        let class = reference::class(store.conn(), &cost, None, false)?;
        classes.insert(cost_text.clone(), class.cards.into_iter().map(|c| c.name).collect());
    }
    let free: Vec<&String> =
        classes.get(&cost_text).map(|v| v.iter().filter(|c| !used.contains(*c)).collect()).unwrap_or_default();
    if free.is_empty() {
        return Ok(None);
    }
    let card = free[demo.sim().below(free.len())].clone();
    Ok(Some((cost.shorthand(), card)))
}

/// Shows up to three refused declarations (a template used twice, a cost mismatch, "Utopia").
fn try_refused(
    demo: &mut Demo,
    m: &Match,
    t: &str,
    who: &str,
    cost: &str,
    card: &str,
    tally: &mut Tally,
) -> Result<()> {
    // One attempt a round at most, until three kinds have been shown.
    let shown = demo.shown_refusals;
    if shown >= 3 || shown >= m.round as usize {
        return Ok(());
    }
    let attempt: [String; 2] = match shown {
        0 => [cost.to_string(), card.to_string()],
        1 => [if cost == "B1" { "B2".into() } else { cost.to_string() }, "Demonic Tutor".into()],
        _ => [cost.to_string(), "Utopia".into()],
    };
    let [cost, card] = attempt;
    let at = stamp(demo.now() + Duration::minutes(1));
    if let Err(e) = demo.run(&["note", t, who, &cost, &card, "--at", &at]) {
        println!("  table {t}: {who} declares \"{cost}: {card}\" — refused: {e}");
        demo.shown_refusals += 1;
        tally.refused += 1;
    }
    Ok(())
}

/// Round 2, table 1: the player at seat A challenges twice, is wrong twice, and loses the match.
fn lose_on_challenges(demo: &mut Demo, t: &str, a: &str, timing: &Timing, tally: &mut Tally) -> Result<()> {
    for (i, about) in ["what the declared Prodigal Sorcerer does", "whether the creature was tapped"].iter().enumerate()
    {
        let at = stamp(timing.start + Duration::minutes(25 + 5 * i as i64));
        demo.run(&["challenge", t, "--by", a, "--about", about, "--ruling", "denied", "--at", &at])?;
        tally.challenges += 1;
    }
    tally.results += 1;
    println!("  table {t}: {a} lost two challenges, and so the match");
    Ok(())
}

/// A judge's slip, corrected: round 1's first result is entered for the wrong player, taken back with
/// `result clear` (the match is playing again), and then entered right.
fn wrong_winner(demo: &mut Demo, t: &str, script: &GameScript, name: &dyn Fn(Side) -> String, at: &str) -> Result<()> {
    let loser = match &script.ending {
        Ending::Life { winner, .. } | Ending::Concession { winner } => name(winner.other()),
        Ending::Time { .. } => return Ok(()),
    };
    demo.run(&["result", t, &loser, "--by", "concession", "--at", at])?;
    demo.run(&["result", "clear", t])?;
    println!(
        "  table {t}: the result went to {loser} by mistake: taken back with `result clear {t}`, then entered right"
    );
    Ok(())
}

fn record_result(
    demo: &mut Demo,
    t: &str,
    script: &GameScript,
    timing: &Timing,
    tally: &mut Tally,
    name: &dyn Fn(Side) -> String,
) -> Result<()> {
    let at = match script.ending {
        Ending::Time { .. } => timing.start + Duration::minutes(timing.minutes + 3),
        _ => timing.start + Duration::minutes(script.minutes),
    };
    demo.set_now(at);
    let at = stamp(at);
    if t == "1" && timing.round == 1 {
        wrong_winner(demo, t, script, name, &at)?;
    }
    match &script.ending {
        Ending::Life { winner, winner_life } => {
            let (la, lb) = if *winner == Side::A { (*winner_life, 0) } else { (0, *winner_life) };
            let (la, lb) = (la.to_string(), lb.to_string());
            demo.run(&["result", t, &name(*winner), "--by", "life", "--life", &la, &lb, "--at", &at])?;
        }
        Ending::Concession { winner } => demo.run(&["result", t, &name(*winner), "--by", "concession", "--at", &at])?,
        Ending::Time { life_a, life_b } => {
            let (la, lb) = (life_a.to_string(), life_b.to_string());
            demo.run(&["result", t, "--by", "time", "--life", &la, &lb, "--at", &at])?;
            tally.at_time += 1;
        }
    }
    tally.results += 1;
    Ok(())
}
