//! One simulated round of the demo: pairing, the clock, and what happens at each table.

use super::{DETAILED_TABLES, Demo};
use crate::domain::challenge::Ruling;
use crate::domain::cost::ManaCost;
use crate::domain::penalty::Infraction;
use crate::domain::result::Reason;
use crate::domain::simulate::{Ending, GameScript, Side};
use crate::error::{Error, Result};
use crate::ops::card_reference::Printed;
use crate::ops::corrections::{ClearInput, VoidInput};
use crate::ops::round::PairInput;
use crate::ops::round::clock::{end_round, start_round};
use crate::ops::table::clocks::clock::{StartInput, StopInput, start_decision, stop_decision};
use crate::ops::table::device::{self, DeviceNoteInput};
use crate::ops::table::records::challenge::{ChallengeInput, record_challenge};
use crate::ops::table::records::penalty::{PenaltyInput, record_penalty};
use crate::ops::table::records::result::{ResultInput, record_result as record};
use crate::store::matches::Match;
use crate::store::voids::VoidKind;
use crate::store::{Actor, PlayerId};
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
    demo.act(&["round", "pair"], None, |s, a| crate::ops::round::pair_round(s, a, PairInput { allow: false }))?;
    let crate::ops::demo::RoundPlan { values, movement, games, names } =
        crate::ops::demo::round_plan(demo.store(), number)?;
    let timing = Timing {
        start,
        minutes: values.number("round-minutes"),
        limit_secs: values.number("decision-seconds"),
        round: number,
    };
    let byes = games.iter().filter(|m| m.is_bye()).count();
    // With deck inspection the judge starts the round that much earlier: its clock starts at `start`.
    let inspection = values.number("inspection-minutes");
    let opens = start - Duration::minutes(inspection);
    demo.set_now(opens);
    demo.act(&["round", "start", "--at", &stamp(opens)], Some(opens), |s, a| start_round(s, a, Some(opens)))?;
    println!(
        "Round {number}: {movement} movement, {}{}{}",
        crate::domain::words::count(games.len() - byes, "table"),
        if byes > 0 { format!(", {}", crate::domain::words::count(byes, "bye")) } else { String::new() },
        if inspection > 0 { format!(", {inspection} minutes of deck inspection first") } else { String::new() }
    );
    let mut tally = Tally::default();
    let mut classes = HashMap::new();
    for m in games.iter().filter(|m| !m.is_bye()) {
        if super::day::no_show(demo, m, &games, &names, start)? {
            tally.results += 1;
            continue;
        }
        play_table(demo, m, &names, &timing, &mut tally, &mut classes)?;
    }
    let end = start + Duration::minutes(timing.minutes + 5);
    demo.set_now(end);
    demo.act(&["round", "end", "--at", &stamp(end)], Some(end), |s, a| end_round(s, a, Some(end), false))?;
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
fn names(names: &HashMap<PlayerId, String>, m: &Match) -> Result<(String, String)> {
    let name = |id: PlayerId| names.get(&id).cloned().ok_or_else(|| Error::not_found(format!("no player #{id:?}")));
    Ok((name(m.a)?, m.b.map(name).transpose()?.unwrap_or_default()))
}

fn play_table(
    demo: &mut Demo,
    m: &Match,
    players: &HashMap<PlayerId, String>,
    timing: &Timing,
    tally: &mut Tally,
    classes: &mut HashMap<String, Vec<String>>,
) -> Result<()> {
    let Some(table) = m.table else { return Ok(()) };
    let detailed = table <= DETAILED_TABLES;
    let script = demo.sim().game(timing.minutes, if detailed { 6 } else { 0 }, timing.limit_secs);
    let (a, b) = names(players, m)?;
    let name = |s: Side| if s == Side::A { a.clone() } else { b.clone() };
    let t = table.to_string();
    if detailed {
        time_decisions(demo, m, &script, timing, tally, &name)?;
        declare(demo, m, &script, timing, tally, classes, &name)?;
        if m.round == 2 && table == 1 {
            return lose_on_challenges(demo, &t, &a, timing, tally);
        }
        if m.round == 3 && table == 2 {
            let at = timing.start + Duration::minutes(20);
            let about = "whether the declared card may block";
            let line = ["challenge", &t, "--by", &b, "--about", about, "--ruling", "upheld", "--at", &stamp(at)];
            demo.act(&line, Some(at), |s, a| record_challenge(s, a, challenge(table, &b, about, Ruling::Upheld, at)))?;
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
        let (table, player) = (m.table.unwrap_or(0), name(d.side));
        let input = StartInput { table, player: player.clone(), at: Some(from) };
        demo.act(&["clock", &t, "--start", &player, "--at", &stamp(from)], Some(from), |s, a| {
            start_decision(s, a, input)
        })?;
        let input = StopInput { table, at: Some(to) };
        demo.act(&["clock", &t, "--stop", "--at", &stamp(to)], Some(to), |s, a| stop_decision(s, a, input))?;
        tally.decisions += 1;
        if d.millis > timing.limit_secs * 1000 {
            tally.overruns += 1;
            if m.round == 1 && tally.overruns == 1 {
                wrong_player_penalty(demo, &t, &name(d.side.other()), to)?;
                let note = "ran over the decision limit";
                let line = ["penalty", &player, "slow-play", "--table", &t, "--at", &stamp(to), "--note", note];
                let input = slow_play(&player, table, to, Some(note))?;
                demo.act(&line, Some(to), |s, a| record_penalty(s, a, input))?;
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
fn wrong_player_penalty(demo: &mut Demo, t: &str, wrong: &str, at: DateTime<Utc>) -> Result<()> {
    let input = slow_play(wrong, t.parse().unwrap_or(0), at, None)?;
    let line = ["penalty", wrong, "slow-play", "--table", t, "--at", &stamp(at)];
    demo.act(&line, Some(at), |s, a| record_penalty(s, a, input))?;
    let last = crate::ops::demo::last_penalty(demo.store())?;
    if let Some(id) = last {
        let reason = "given to the wrong player";
        let input = VoidInput { id, reason: Some(reason.into()), force: false };
        demo.act(&["penalty", "void", &id.to_string(), "--reason", reason], None, |s, a| {
            crate::ops::corrections::void(s, a, VoidKind::Penalty, input)
        })?;
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
        let cards: Vec<(String, Option<String>)> = crate::ops::demo::library_cards(demo.store(), lib)?
            .into_iter()
            .filter(|c| !c.sideboard)
            .map(|c| (c.name, c.mana_cost))
            .collect();
        for i in 0..count {
            let at = timing.start + Duration::minutes(3 + 6 * (k as i64 + 2 * i as i64));
            demo.set_now(at);
            let Some((cost, card)) = pick(demo, &cards, classes, &used)? else { continue };
            if note(demo, &t, &name(side), &cost, &card, at).is_ok() {
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
        let class = crate::ops::demo::class(demo.store(), &cost)?;
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
    let at = demo.now() + Duration::minutes(1);
    if let Err(e) = note(demo, t, who, &cost, &card, at) {
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
        let at = timing.start + Duration::minutes(25 + 5 * i as i64);
        let line = ["challenge", t, "--by", a, "--about", about, "--ruling", "denied", "--at", &stamp(at)];
        let input = challenge(t.parse().unwrap_or(0), a, about, Ruling::Denied, at);
        demo.act(&line, Some(at), |s, actor| record_challenge(s, actor, input))?;
        tally.challenges += 1;
    }
    tally.results += 1;
    println!("  table {t}: {a} lost two challenges, and so the match");
    Ok(())
}

/// A judge's slip, corrected: round 1's first result is entered for the wrong player, taken back with
/// `result clear` (the match is playing again), and then entered right.
fn wrong_winner(
    demo: &mut Demo,
    t: &str,
    script: &GameScript,
    name: &dyn Fn(Side) -> String,
    at: DateTime<Utc>,
) -> Result<()> {
    let loser = match &script.ending {
        Ending::Life { winner, .. } | Ending::Concession { winner } => name(winner.other()),
        Ending::Time { .. } => return Ok(()),
    };
    let table: u32 = t.parse().unwrap_or(0);
    let line = ["result", t, &loser, "--by", "concession", "--at", &stamp(at)];
    let input = result(table, Some(&loser), Reason::Concession, None, at);
    demo.act(&line, Some(at), |s, a| record(s, a, input))?;
    let input = ClearInput { table, round: None, force: false };
    demo.act(&["result", "clear", t], None, |s, a| crate::ops::corrections::clear_result(s, a, input))?;
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
    if t == "1" && timing.round == 1 {
        wrong_winner(demo, t, script, name, at)?;
    }
    let (table, when) = (t.parse().unwrap_or(0), stamp(at));
    match &script.ending {
        Ending::Life { winner, winner_life } => {
            let (la, lb) = if *winner == Side::A { (*winner_life, 0) } else { (0, *winner_life) };
            let (winner, life) = (name(*winner), Some((la, lb)));
            let (la, lb) = (la.to_string(), lb.to_string());
            let line = ["result", t, &winner, "--by", "life", "--life", &la, &lb, "--at", &when];
            let input = result(table, Some(&winner), Reason::Life, life, at);
            demo.act(&line, Some(at), |s, a| record(s, a, input))?;
        }
        Ending::Concession { winner } => {
            let winner = name(*winner);
            let line = ["result", t, &winner, "--by", "concession", "--at", &when];
            let input = result(table, Some(&winner), Reason::Concession, None, at);
            demo.act(&line, Some(at), |s, a| record(s, a, input))?;
        }
        Ending::Time { life_a, life_b } => {
            let (la, lb) = (life_a.to_string(), life_b.to_string());
            let line = ["result", t, "--by", "time", "--life", &la, &lb, "--at", &when];
            let input = result(table, None, Reason::Time, Some((*life_a, *life_b)), at);
            demo.act(&line, Some(at), |s, a| record(s, a, input))?;
            tally.at_time += 1;
        }
    }
    tally.results += 1;
    Ok(())
}

/// A card declared at a table from the table's own device, as `mmjudge serve` takes it (`POST /api/note` with the
/// player's code and the device's client id): the same checks as `mmjudge note`, the player as the actor. The
/// first declaration of the event is sent twice, as a phone on poor Wi-Fi does, and must be recorded once.
fn note(demo: &mut Demo, t: &str, who: &str, cost: &str, card: &str, at: DateTime<Utc>) -> Result<()> {
    let table: u32 = t.parse().unwrap_or(0);
    let crate::ops::demo::Seated { round, name, holder } = crate::ops::demo::seated(demo.store(), table, who)?;
    let client_id = format!("demo-{round}-{t}-{}", at.timestamp());
    let input = DeviceNoteInput {
        holder,
        printed: Printed::parse(cost)?,
        card: Some(card.to_string()),
        letter: None,
        client_id: Some(client_id.clone()),
    };
    let body = serde_json::json!({ "table": table, "cost": cost, "card": card, "client_id": client_id });
    let on_device = |a: &Actor| Actor {
        judge: format!("{name} (player)"),
        command_line: format!("POST /api/note {body}"),
        at: a.at,
        via: format!("web (the demo's table {t} device)"),
        claim: None,
    };
    let retry = input.clone();
    let first = demo.act(&[], Some(at), |s, a| device::declare(s, &on_device(a), input))?;
    if first.note["note"] == 1 {
        let again = demo.act(&[], Some(at), |s, a| device::declare(s, &on_device(a), retry))?;
        if !again.repeat || again.note != first.note {
            return Err(Error::refused("demo: a declaration sent twice was not recorded once"));
        }
    }
    Ok(())
}

/// A challenge heard at a table and its ruling.
fn challenge(table: u32, by: &str, about: &str, ruling: Ruling, at: DateTime<Utc>) -> ChallengeInput {
    ChallengeInput {
        table,
        round: None,
        by: by.to_string(),
        about: about.to_string(),
        by_says: None,
        other_says: None,
        ruling,
        evidence: Vec::new(),
        force: false,
        at: Some(at),
    }
}

/// A slow-play penalty at a table (its penalty as the guide gives it).
fn slow_play(player: &str, table: u32, at: DateTime<Utc>, note: Option<&str>) -> Result<PenaltyInput> {
    let infraction = Infraction::parse("slow-play").map_err(|e| Error::bad_input(e.to_string()))?;
    Ok(PenaltyInput {
        player: player.to_string(),
        infraction,
        penalty: None,
        note: note.map(String::from),
        table: Some(table),
        round: None,
        at: Some(at),
    })
}

/// A result at a table.
fn result(
    table: u32,
    winner: Option<&str>,
    reason: Reason,
    life: Option<(i64, i64)>,
    at: DateTime<Utc>,
) -> ResultInput {
    ResultInput {
        table,
        round: None,
        winner: winner.map(String::from),
        reason,
        life,
        note: None,
        at: Some(at),
        turn: None,
    }
}
