//! The table's operations called as a front end calls them (one in-memory event: Ana and Bo at table 1 of
//! round 1), checking their typed outcomes and the kind of each refusal.

use super::clocks::clock::{StartInput, StopInput, hand_over, start_decision, stop_decision};
use super::records::challenge::{ChallengeInput, record_challenge};
use super::records::note::{NoteInput, UndoInput, add_note, undo_note};
use super::records::penalty::{PenaltyInput, record_penalty};
use super::records::ruling::{RulingInput, record_ruling};
use super::view;
use crate::domain::challenge::Ruling;
use crate::domain::penalty::{Infraction, PenaltyKind};
use crate::error::{Kind, Result};
use crate::ops::card_reference::Printed;
use crate::store::{Actor, Store, round};
use chrono::{DateTime, Duration, Utc};

fn at(minutes: i64) -> Result<DateTime<Utc>> {
    Ok(crate::time::unstamp("2025-05-01T09:00:00.000Z")? + Duration::minutes(minutes))
}

fn actor(minutes: i64) -> Result<Actor> {
    Ok(Actor { judge: "Kim".into(), command_line: "test".into(), at: at(minutes)?, via: "cli".into(), claim: None })
}

/// The event with round 1's clock started at 09:00.
fn event() -> Result<Store> {
    let (store, _, _) = crate::store::memory_with_one_match()?;
    round::set_started(store.conn(), 1, Some(&crate::time::stamp(at(0)?)))?;
    Ok(store)
}

fn kind<T>(r: Result<T>) -> Option<Kind> {
    r.err().map(|e| e.kind())
}

fn challenge(by: &str, ruling: Ruling) -> ChallengeInput {
    ChallengeInput {
        table: 1,
        round: None,
        by: by.into(),
        about: "a template".into(),
        by_says: None,
        other_says: None,
        ruling,
        evidence: Vec::new(),
        force: false,
        at: None,
    }
}

#[test]
fn a_note_is_added_and_taken_back_once() -> Result<()> {
    let mut store = event()?;
    let input = NoteInput {
        table: 1,
        round: None,
        player: "bo".into(),
        printed: Printed::parse("B1")?,
        card: None,
        letter: None,
        at: None,
    };
    let note = add_note(&mut store, &actor(5)?, input)?;
    assert_eq!((note.player.as_str(), note.unnamed, note.late), ("Bo", true, false));
    let undo = UndoInput { table: 1, round: None, force: false };
    assert_eq!(undo_note(&mut store, &actor(6)?, undo)?.removed.id, note.note);
    assert_eq!(kind(undo_note(&mut store, &actor(7)?, undo)), Some(Kind::Refused));
    Ok(())
}

#[test]
fn the_second_lost_challenge_ends_the_match_and_a_finished_match_takes_no_more() -> Result<()> {
    let mut store = event()?;
    let first = record_challenge(&mut store, &actor(5)?, challenge("ana", Ruling::Denied))?;
    assert_eq!((first.loser.as_str(), first.lost_in_match, first.match_ended), ("Ana", 1, false));
    let second = record_challenge(&mut store, &actor(6)?, challenge("bo", Ruling::Upheld))?;
    assert!(second.match_ended);
    assert_eq!(second.result.winner.as_deref(), Some("Bo"));
    assert_eq!(second.result.reason.as_deref(), Some("challenges"));
    assert_eq!(kind(record_challenge(&mut store, &actor(7)?, challenge("ana", Ruling::Denied))), Some(Kind::Refused));
    let mut empty = challenge("ana", Ruling::Denied);
    empty.about = "  ".into();
    assert_eq!(kind(record_challenge(&mut store, &actor(8)?, empty)), Some(Kind::BadInput));
    Ok(())
}

#[test]
fn a_match_loss_ends_the_match_for_the_opponent() -> Result<()> {
    let mut store = event()?;
    let input = PenaltyInput {
        player: "ana".into(),
        infraction: Infraction::OutsideAssistance,
        penalty: None,
        note: None,
        table: None,
        round: None,
        at: None,
    };
    let out = record_penalty(&mut store, &actor(5)?, input)?;
    assert_eq!((out.issued.as_str(), out.table, out.match_ended), (PenaltyKind::MatchLoss.slug(), Some(1), true));
    assert_eq!(out.result.and_then(|r| r.winner).as_deref(), Some("Bo"));
    Ok(())
}

#[test]
fn a_decision_is_timed_and_the_table_view_gathers_the_records() -> Result<()> {
    let mut store = event()?;
    let start = StartInput { table: 1, player: "ana".into(), at: None };
    let started = start_decision(&mut store, &actor(10)?, start.clone())?;
    assert_eq!(started.player, "Ana");
    assert_eq!(kind(start_decision(&mut store, &actor(10)?, start)), Some(Kind::Refused));
    let stopped = stop_decision(&mut store, &actor(11)?, StopInput { table: 1, at: None })?;
    assert_eq!((stopped.decision, stopped.duration_ms), (started.decision, 60_000));
    let text = RulingInput { table: 1, round: None, text: "the Discard Rule applies".into(), at: None };
    let ruling = record_ruling(&mut store, &actor(12)?, text)?;
    let blank = RulingInput { table: 1, round: None, text: " ".into(), at: None };
    assert_eq!(kind(record_ruling(&mut store, &actor(12)?, blank)), Some(Kind::BadInput));
    let table = view(store.conn(), 1, None, at(20)?)?;
    assert_eq!(
        (table.pairing.a.as_str(), table.pairing.b.as_str(), table.outcome.as_str()),
        ("Ana", "Bo", "still playing")
    );
    assert_eq!(table.rulings.iter().map(|r| r.id).collect::<Vec<_>>(), vec![ruling.ruling]);
    assert!(table.clock.is_some_and(|c| c.deciding.is_none() && !c.over));
    assert_eq!(kind(view(store.conn(), 4, None, at(20)?)), Some(Kind::NotFound));
    Ok(())
}

#[test]
fn a_judges_cancellation_bounds_the_claim_of_a_later_replayed_start() -> Result<()> {
    use super::clocks::clock::{CancelInput, cancel_decision};
    use crate::store::{Claimed, Queued};
    let mut store = event()?;
    let ana = StartInput { table: 1, player: "ana".into(), at: None };
    start_decision(&mut store, &actor(10)?, ana.clone())?;
    cancel_decision(&mut store, &actor(12)?, CancelInput { table: 1 })?;
    // A start the page kept while the network was down, claiming a moment before the cancellation.
    let replayed = |made: i64| -> Result<Actor> {
        let claim = Claimed { made: at(made)?, seen: at(13)?, arrival: at(13)?, queued: Some(Queued::Unreachable) };
        Ok(Actor { claim: Some(claim), ..actor(13)? })
    };
    let before = start_decision(&mut store, &replayed(11)?, ana.clone())?;
    assert_eq!(before.started_at, crate::time::stamp(at(13)?), "a claim before the cancellation: the arrival");
    cancel_decision(&mut store, &actor(13)?, CancelInput { table: 1 })?;
    let mut after = replayed(12)?;
    if let Some(c) = after.claim.as_mut() {
        c.made = at(13)? + Duration::seconds(20);
        c.seen = at(14)?;
        c.arrival = at(14)?;
    }
    after.at = at(14)?;
    let taken = start_decision(&mut store, &after, ana)?;
    assert_eq!(taken.started_at, crate::time::stamp(at(13)? + Duration::seconds(20)), "after it: the claim");
    Ok(())
}

#[test]
fn a_hand_over_stops_one_decision_and_starts_the_other_players() -> Result<()> {
    let mut store = event()?;
    let stop = StopInput { table: 1, at: None };
    assert_eq!(kind(hand_over(&mut store, &actor(10)?, stop)), Some(Kind::Refused), "nothing is running yet");
    start_decision(&mut store, &actor(10)?, StartInput { table: 1, player: "bo".into(), at: None })?;
    let passed = hand_over(&mut store, &actor(11)?, stop)?;
    assert_eq!((passed.stopped.player.as_str(), passed.stopped.duration_ms), ("Bo", 60_000));
    assert_eq!(
        (passed.started.player.as_str(), passed.started.started_at.as_str()),
        ("Ana", passed.stopped.ended_at.as_str())
    );
    let last = stop_decision(&mut store, &actor(13)?, stop)?;
    assert_eq!((last.player.as_str(), last.duration_ms), ("Ana", 120_000));
    Ok(())
}

#[test]
fn a_players_declaration_after_the_result_is_refused_while_a_judges_late_note_is_taken() -> Result<()> {
    use super::device::{DeviceNoteInput, declare};
    let mut store = event()?;
    let bo = crate::ops::player_names::find(store.conn(), "bo")?;
    let code = crate::store::player_codes::of(store.conn(), bo.id)?.unwrap_or_default();
    let holder = super::device::holder(store.conn(), 1, &code)?;
    let device = || -> Result<DeviceNoteInput> {
        Ok(DeviceNoteInput {
            holder: holder.clone(),
            printed: Printed::parse("B1")?,
            card: None,
            letter: None,
            client_id: None,
        })
    };
    declare(&mut store, &actor(5)?, device()?)?;
    let input = super::records::result::ResultInput {
        table: 1,
        round: None,
        winner: Some("ana".into()),
        reason: crate::domain::result::Reason::Concession,
        life: None,
        note: None,
        at: None,
        turn: None,
    };
    super::records::result::record_result(&mut store, &actor(6)?, input)?;
    assert_eq!(kind(declare(&mut store, &actor(7)?, device()?)), Some(Kind::Refused));
    let late = NoteInput {
        table: 1,
        round: None,
        player: "bo".into(),
        printed: Printed::parse("R")?,
        card: None,
        letter: None,
        at: Some(at(4)?),
    };
    assert!(add_note(&mut store, &actor(8)?, late)?.late, "a judge copies a late note in, at its own moment");
    Ok(())
}

#[test]
fn the_pairing_is_written_where_its_fields_were() -> Result<()> {
    // Flattened, the pairing's keys come where the field sits: first, before the result (docs/json.md).
    fn json<T: serde::Serialize>(v: &T) -> String {
        serde_json::to_string(v).unwrap_or_default()
    }
    let store = event()?;
    let table = json(&view(store.conn(), 1, None, at(20)?)?);
    let sheet = json(&super::records::sheet::note_sheet(store.conn(), 1, None)?);
    for doc in [table, sheet] {
        assert!(doc.starts_with(r#"{"round":1,"table":1,"match":1,"a":"Ana","b":"Bo","result":{"#), "{doc}");
    }
    Ok(())
}
