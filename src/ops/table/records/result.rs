//! A match's result at a table: recording it, correcting it, and the round's results.

use crate::domain::result::{Claim, Reason, Seat, Verdict, decide};
use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::player_names::names_by_id;
use crate::ops::table::{Pairing, RecordedResult, ResultText, Seated, moment, outcome_of, round_or_current};
use crate::store::matches::{self, Outcome};
use crate::store::{Actor, Change, MatchId, PlayerId, Store};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// A result as the judge gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultInput {
    /// The table.
    pub table: u32,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// The winner (a name or the beginning of one, matched against the two players first), or `draw`;
    /// `None` when the reason decides by itself (time, with life totals).
    pub winner: Option<String>,
    /// Why the game ended.
    pub reason: Reason,
    /// Life totals (seat A, seat B).
    pub life: Option<(i64, i64)>,
    /// A judge's remark (blank is none).
    pub note: Option<String>,
    /// When the game ended, if not now (a fix keeps the recorded moment when none is given).
    pub at: Option<DateTime<Utc>>,
    /// The turn the game was on when time was called (only with `--by time`).
    pub turn: Option<u32>,
}

/// Refuses a turn at time given with another reason than time.
fn check_turn(input: &ResultInput) -> Result<()> {
    match input.turn {
        Some(t) if input.reason != Reason::Time => {
            Err(Refusal::bad_input(format!("turn {t} is the turn the game was on when time was called"))
                .way_out(WayOut::TurnAtTime)
                .into())
        }
        Some(t) if !(1..=999).contains(&t) => Err(Error::bad_input(format!(
            "turn {t} is not a turn the game can be on: give a number from 1 to 999, or leave it out"
        ))),
        _ => Ok(()),
    }
}

/// A recorded result.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ResultOutcome {
    /// The round, table, match and players.
    #[serde(flatten)]
    pub pairing: Pairing,
    /// The result as recorded now.
    pub result: RecordedResult,
    /// The player dropped for not showing (a `no-show` result), if any.
    pub dropped: Option<String>,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
    /// The same in the web's words (no command to type).
    #[serde(skip)]
    pub web_summary: String,
}

/// A corrected result.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FixOutcome {
    /// The round, table, match and players.
    #[serde(flatten)]
    pub pairing: Pairing,
    /// The result it had.
    pub before: RecordedResult,
    /// The result it has now.
    pub after: RecordedResult,
    /// Rounds already paired after this one on the old result (not redone).
    pub later_rounds: Vec<u32>,
    /// The player dropped for not showing (a `no-show` result), if any.
    pub dropped: Option<String>,
    /// The player the old `no-show` result had dropped, no longer dropped, if any.
    pub undropped: Option<String>,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
    /// The same in the web's words (no command to type).
    #[serde(skip)]
    pub web_summary: String,
}

/// The verdict a given result stands for at this table.
pub(in crate::ops) fn verdict(conn: &Connection, seated: &Seated, input: &ResultInput) -> Result<Verdict> {
    let given = match input.winner.as_deref() {
        Some(w) if w.trim().eq_ignore_ascii_case("draw") => Some(Verdict::Draw),
        Some(w) => Some(Verdict::Won(seated.resolve_player(conn, w)?.0)),
        None => None,
    };
    let claim = Claim { verdict: given, reason: input.reason, life: input.life };
    decide(claim, (&seated.a.name, &seated.b.name)).map_err(|e| {
        let table = seated.table();
        Refusal::refused(format!("table {table}: {}", e.web)).flags(format!("table {table}: {}", e.command_line)).into()
    })
}

/// A `no-show` result drops the player who did not show (the loser) after the current round, so the next
/// pairing leaves them out; returns their name. Nothing when they already dropped or were disqualified.
fn drop_no_show(conn: &Connection, seated: &Seated, v: Verdict, reason: Reason, at: &str) -> Result<Option<String>> {
    let Some(absent) = no_show_absent(seated, v, reason) else { return Ok(None) };
    if absent.dropped_after.is_some() || absent.disqualified {
        return Ok(None);
    }
    crate::store::player::drop_for_no_show(conn, absent.id, crate::store::round::current(conn)?, seated.m.id)?;
    crate::store::player::set_dropped_at(conn, absent.id, at)?;
    Ok(Some(absent.name.clone()))
}

/// The player a `no-show` result says did not come (the loser), if the result is one.
fn no_show_absent(seated: &Seated, v: Verdict, reason: Reason) -> Option<&crate::store::player::Player> {
    match (reason, v) {
        (Reason::NoShow, Verdict::Won(Seat::A)) => Some(&seated.b),
        (Reason::NoShow, Verdict::Won(Seat::B)) => Some(&seated.a),
        _ => None,
    }
}

/// Takes back the drop that this match's `no-show` result made, now that the result no longer says that player
/// did not show (`absent` is who the result says is absent now, if anyone); returns their name. A drop made
/// otherwise (`player drop`) stays. Refused while a later round is paired without them: the way out takes the
/// rounds back, then does `again` to the result again.
pub(crate) fn undo_no_show_drop(
    conn: &Connection,
    m: &crate::store::matches::Match,
    absent: Option<PlayerId>,
    again: crate::error::Again,
) -> Result<Option<String>> {
    let Some(p) = crate::store::player::dropped_by_no_show(conn, m.id)? else { return Ok(None) };
    if absent == Some(p) {
        return Ok(None);
    }
    let player = crate::store::player::get(conn, p)?;
    let after = player.dropped_after.unwrap_or(m.round);
    let later = crate::store::round::after(conn, after)?;
    if !later.is_empty() {
        let list: Vec<String> = later.iter().map(u32::to_string).collect();
        let rounds = if later.len() == 1 { "round" } else { "rounds" };
        let what =
            format!("{} was dropped by this no-show result and left out of {rounds} {}", player.name, list.join(", "));
        let out = WayOut::Unpair(crate::error::Unpair::NoShow { several: later.len() != 1, then: again });
        return Err(Refusal::refused(what).way_out(out).into());
    }
    crate::store::player::set_dropped(conn, p, None)?;
    Ok(Some(player.name))
}

/// "; Bo is no longer dropped ..." for the reply and the audit line.
pub(crate) fn undropped_words(name: Option<&str>) -> String {
    name.map(|n| format!("; {n} is no longer dropped (the no-show that dropped them is gone)")).unwrap_or_default()
}

/// "; Bo did not show and is dropped ..." for the reply and the audit line.
fn dropped_words(name: Option<&str>) -> String {
    name.map(|n| {
        format!("; {n} did not show and is dropped (not paired from the next round; `mmjudge player undrop \"{n}\"` keeps them in)")
    })
    .unwrap_or_default()
}

/// [`dropped_words`] in the web's words.
fn dropped_web_words(name: Option<&str>) -> String {
    name.map(|n| {
        format!(
            "; {n} did not show and is dropped (not paired from the next round; a head judge can take the drop back)"
        )
    })
    .unwrap_or_default()
}

/// Refuses a judge's remark holding a control character or longer than the bound (see `flag_field`).
fn check_note(input: &ResultInput) -> Result<()> {
    match note_of(input) {
        Some(n) => crate::ops::table::flag_field("--note", "the note", n).map(|_| ()),
        None => Ok(()),
    }
}

fn note_of(input: &ResultInput) -> Option<&str> {
    input.note.as_deref().map(str::trim).filter(|n| !n.is_empty())
}

/// `result TABLE WINNER --by REASON`: records the result of a match still playing (a match with a result is
/// corrected with [`fix_result`]); a decision still running at the table ends with it.
pub fn record_result(store: &mut Store, actor: &Actor, input: ResultInput) -> Result<ResultOutcome> {
    store.write(actor, |tx| record_result_in(tx, actor, &input))
}

/// [`record_result`] inside a write already under way (the players' confirmed self-report records through it).
pub fn record_result_in(tx: &Connection, actor: &Actor, input: &ResultInput) -> Result<(ResultOutcome, Change)> {
    let at = moment(input.at, actor);
    check_turn(input)?;
    check_note(input)?;
    let mut seated = Seated::at(tx, input.table, input.round)?;
    seated.not_before_start(tx, input.at)?;
    if seated.m.outcome.is_some() {
        let what = format!("{} already has a result: {}", seated.label(), seated.describe_recorded());
        let out = WayOut::FixResult { table: Some(seated.table()) };
        return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
    }
    let v = verdict(tx, &seated, input)?;
    seated.played_by(tx, input.reason, input.at.unwrap_or(actor.at))?;
    time_called(tx, &seated, &input.reason, input.at.unwrap_or(actor.at))?;
    seated.record(
        tx,
        v,
        input.reason,
        ResultText { life: input.life, note: note_of(input), at: &at, turn: input.turn },
    )?;
    let dropped = drop_no_show(tx, &seated, v, input.reason, &at)?;
    let mut summary = format!("table {}, round {}: {}", seated.table(), seated.m.round, seated.describe_recorded());
    let web_summary = format!("{summary}{}", dropped_web_words(dropped.as_deref()));
    summary.push_str(&dropped_words(dropped.as_deref()));
    let out = ResultOutcome {
        pairing: seated.pairing(),
        result: seated.result(),
        dropped,
        summary: summary.clone(),
        web_summary,
    };
    Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching(seated.touched(Topic::Result))))
}

/// `result fix TABLE ...`: replaces a recorded result (a note or moment not given is kept); refused while
/// later rounds are paired on it unless `force`, and when nothing would change.
pub fn fix_result(store: &mut Store, actor: &Actor, input: ResultInput, force: bool) -> Result<FixOutcome> {
    let given_at = input.at.map(crate::time::stamp);
    check_turn(&input)?;
    check_note(&input)?;
    store.write(actor, |tx| {
        let mut seated = Seated::at(tx, input.table, input.round)?;
        let table = seated.table();
        if seated.m.outcome.is_none() {
            let what = format!("{} has no result yet", seated.label());
            return Err(Refusal::refused(what).way_out(WayOut::RecordResult { table: Some(table) }).into());
        }
        let later = later_rounds_paired(tx, seated.m.round, force, "fix it")?;
        let before_words = seated.describe_recorded();
        let before = seated.result();
        let v = verdict(tx, &seated, &input)?;
        let note = note_of(&input).map(String::from).or_else(|| seated.m.note.clone());
        let at = given_at.clone().or_else(|| seated.m.result_at.clone()).unwrap_or_default();
        seated.not_before_start(tx, input.at)?;
        let moment = if at.is_empty() { actor.at } else { crate::time::unstamp(&at)? };
        seated.played_by(tx, input.reason, moment)?;
        // A fix that makes the result one by time, moves a result by time or changes its winner, needs time
        // called by its moment.
        if input.reason == Reason::Time
            && (seated.m.reason.as_deref() != Some(Reason::Time.slug())
                || input.at.is_some()
                || seated.m.outcome != Some(outcome_of(v)))
        {
            time_called(tx, &seated, &input.reason, moment)?;
        }
        let unchanged = seated.m.outcome == Some(outcome_of(v))
            && seated.m.reason.as_deref() == Some(input.reason.slug())
            && seated.m.life == input.life
            && seated.turn == input.turn
            && seated.m.note == note
            && seated.m.result_at.as_deref() == Some(at.as_str());
        if unchanged {
            return Err(Error::refused(format!("nothing to fix: {} is already {before_words}", seated.label())));
        }
        seated.record(
            tx,
            v,
            input.reason,
            ResultText { life: input.life, note: note.as_deref(), at: &at, turn: input.turn },
        )?;
        let absent = no_show_absent(&seated, v, input.reason).map(|p| p.id);
        let undropped = undo_no_show_drop(tx, &seated.m, absent, crate::error::Again::Fix)?;
        let dropped = drop_no_show(tx, &seated, v, input.reason, &crate::time::stamp(actor.at))?;
        let mut summary = format!(
            "fixed table {table}, round {}: was {before_words}; now {}",
            seated.m.round,
            seated.describe_recorded()
        );
        if !later.is_empty() {
            summary.push_str(&format!(" ({} already paired on the old result, not redone)", rounds_words(&later)));
        }
        summary.push_str(&undropped_words(undropped.as_deref()));
        let web_summary = format!("{summary}{}", dropped_web_words(dropped.as_deref()));
        summary.push_str(&dropped_words(dropped.as_deref()));
        let out = FixOutcome {
            pairing: seated.pairing(),
            before,
            after: seated.result(),
            later_rounds: later,
            dropped,
            undropped,
            summary: summary.clone(),
            web_summary,
        };
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching(seated.touched(Topic::Result))))
    })
}

/// One table of a round with its result (`playing` while it has none).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TableResult {
    /// The table.
    pub table: u32,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The player at seat A.
    pub a: String,
    /// The player at seat B.
    pub b: String,
    /// Whether the match has no result yet.
    pub playing: bool,
    /// Seat A won, seat B won, or a draw.
    pub outcome: Option<Outcome>,
    /// The winner's name.
    pub winner: Option<String>,
    /// Why the game ended.
    pub reason: Option<String>,
    /// Life totals (A, B).
    pub life: Option<[i64; 2]>,
    /// A judge's remark.
    pub note: Option<String>,
    /// When the result was recorded (RFC 3339).
    pub at: Option<String>,
    /// The turn the game was on when time was called (only when recorded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
}

/// A player with the round's bye.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Bye {
    /// The bye's match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The player.
    pub player: String,
}

/// A round's results: every table, the byes, the tables still playing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoundResults {
    /// The round.
    pub round: u32,
    /// Its tables, in order.
    pub tables: Vec<TableResult>,
    /// Its byes.
    pub byes: Vec<Bye>,
    /// The tables without a result.
    pub playing: Vec<u32>,
}

/// `results [--round N]`: the round's tables with their results and the ones still playing.
pub fn round_results(conn: &Connection, round: Option<u32>) -> Result<RoundResults> {
    let n = round_or_current(conn, round)?;
    let names = names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let mut out = RoundResults { round: n, tables: Vec::new(), byes: Vec::new(), playing: Vec::new() };
    let turns = matches::turns_of_round(conn, n)?;
    for m in matches::of_round(conn, n)? {
        let a = name(m.a);
        let Some(b) = m.b.map(name) else {
            out.byes.push(Bye { match_id: m.id, player: a });
            continue;
        };
        let table = m.table.unwrap_or(0);
        if m.outcome.is_none() {
            out.playing.push(table);
        }
        let winner = match m.outcome {
            Some(Outcome::A) => Some(a.clone()),
            Some(Outcome::B) => Some(b.clone()),
            _ => None,
        };
        out.tables.push(TableResult {
            table,
            match_id: m.id,
            a,
            b,
            playing: m.outcome.is_none(),
            outcome: m.outcome,
            winner,
            reason: m.reason,
            life: m.life.map(|(x, y)| [x, y]),
            note: m.note,
            at: m.result_at,
            turn: turns.get(&m.id).copied(),
        });
    }
    Ok(out)
}

/// Refuses a result "by time" before time is called at its table: the moment (`--at`, or now) must be at or after
/// the table's end (the round's start plus the round's length and the table's extensions), or after the round was
/// closed (`round end`), whichever comes first. A round whose clock never started has no time to call.
pub(in crate::ops) fn time_called(tx: &Connection, seated: &Seated, reason: &Reason, at: DateTime<Utc>) -> Result<()> {
    if *reason != Reason::Time {
        return Ok(());
    }
    let table = seated.table();
    let number = seated.m.round;
    let Some(r) = crate::store::round::get(tx, number)? else { return Ok(()) };
    let Some(started) = r.started_at.as_deref().map(crate::time::unstamp).transpose()? else {
        let why = format!("time has not been called at table {table}: round {number}'s clock has not started");
        return Err(Refusal::refused(why)
            .way_out_after(crate::error::Join::Space, WayOut::OtherReason { later: false })
            .into());
    };
    let closed = r.ended_at.as_deref().map(crate::time::unstamp).transpose()?;
    let called = crate::ops::table::clocks::clock::table_clock(tx, started, &seated.m)?.closed_at(closed).called();
    if at >= called {
        return Ok(());
    }
    let moment = if at < started {
        let after = if crate::store::event::values(tx)?.number("inspection-minutes") > 0 {
            " after deck inspection"
        } else {
            ""
        };
        format!("round {number}'s clock starts at {}{after}", clock_words(started))
    } else {
        format!("{} left on its clock", crate::ops::table::clocks::clock::clock_text(called - at))
    };
    let why = format!("time is called at table {table} at {} ({moment})", clock_words(called));
    Err(Refusal::refused(why).way_out(WayOut::OtherReason { later: true }).into())
}

/// A moment for a message: local `HH:MM`, or `HH:MM:SS` when it falls between minutes (an extension of 2.5 min).
fn clock_words(at: DateTime<Utc>) -> String {
    use chrono::Timelike;
    if at.second() == 0 && at.nanosecond() == 0 {
        crate::time::confirm_time(at)
    } else {
        crate::ops::table::clocks::clock::when(at)
    }
}

/// Refuses taking back or changing a result of `round` while later rounds are paired, unless `force`;
/// returns those rounds. `what` completes "add --force to ... anyway".
pub fn later_rounds_paired(conn: &Connection, round_no: u32, force: bool, what: &str) -> Result<Vec<u32>> {
    let later = crate::store::round::after(conn, round_no)?;
    if !later.is_empty() && !force {
        let to = format!("{what} anyway (those pairings are not redone)");
        let tick = if what == "fix it" { crate::error::Tick::FixLater } else { crate::error::Tick::ClearLater };
        let refused = format!("{} already paired on this result", rounds_words(&later));
        return Err(Refusal::refused(refused).way_out(WayOut::ForceAnyway { to, tick }).into());
    }
    Ok(later)
}

/// "round 3 is" or "rounds 3, 4 are".
pub fn rounds_words(rounds: &[u32]) -> String {
    let list: Vec<String> = rounds.iter().map(u32::to_string).collect();
    if rounds.len() == 1 { format!("round {} is", list[0]) } else { format!("rounds {} are", list.join(", ")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;

    fn actor() -> Result<Actor> {
        crate::store::test_actor("2025-05-01T09:30:00.000Z")
    }

    fn input(table: u32) -> ResultInput {
        ResultInput {
            table,
            round: None,
            winner: Some("bo".into()),
            reason: Reason::Concession,
            life: None,
            note: None,
            at: None,
            turn: None,
        }
    }

    #[test]
    fn a_result_is_recorded_once_and_refused_after() -> Result<()> {
        let (mut store, m, _) = crate::store::memory_with_one_match()?;
        let out = record_result(&mut store, &actor()?, input(1))?;
        assert_eq!((out.pairing.match_id, out.pairing.round, out.pairing.table), (m, 1, 1));
        assert_eq!(out.result.winner.as_deref(), Some("Bo"));
        assert_eq!(out.result.outcome, Some(Outcome::B));
        let again = record_result(&mut store, &actor()?, input(1)).err().map(|e| e.kind());
        assert_eq!(again, Some(Kind::Refused));
        Ok(())
    }

    #[test]
    fn an_unknown_table_is_not_found_and_a_fix_needs_a_result() -> Result<()> {
        let (mut store, _, _) = crate::store::memory_with_one_match()?;
        let missing = record_result(&mut store, &actor()?, input(7)).err().map(|e| e.kind());
        assert_eq!(missing, Some(Kind::NotFound));
        let fix = fix_result(&mut store, &actor()?, input(1), false).err().map(|e| e.kind());
        assert_eq!(fix, Some(Kind::Refused));
        Ok(())
    }
}
