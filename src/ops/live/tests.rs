//! Tests of the live views (`ops::live`).

use super::{changes_since, round_overruns, tables};
use crate::domain::result::Reason;
use crate::error::Result;
use crate::ops::card_reference::Printed;
use crate::ops::judges::{self, Role};
use crate::ops::table::clocks::live;
use crate::ops::table::device;
use crate::ops::table::device::calls;
use crate::ops::table::device::self_report;
use crate::store::{Actor, Store, audit, clock, matches, player_codes, round};
use chrono::Duration;

#[test]
fn the_tables_there_are_are_said_as_they_are() {
    assert_eq!(super::tables_words(vec![1, 2, 3, 4, 5, 6, 7]), "the tables are 1 to 7");
    assert_eq!(super::tables_words(vec![7, 1, 2, 3, 4, 6]), "the tables are 1 to 4, 6 and 7");
    assert_eq!(super::tables_words(vec![3]), "the only table is 3");
    assert_eq!(super::tables_words(vec![1, 3, 5]), "the tables are 1, 3 and 5");
}

/// A decision begun 10 s before the final window opens: every page's data gives the server's deadline (the
/// window's opening plus 15 s, a limit of 25 s), not its start plus 45 s; the limit in force switches at the
/// window. A round ended anyway: time is called at the table (state, `ends_at`), and reopened, it is not.
#[test]
fn every_page_gets_the_servers_decision_deadline_and_time_called_at_the_close() -> crate::error::Result<()> {
    let (store, m, [ana, _]) = crate::store::memory_with_one_match()?;
    let conn = store.conn();
    round::set_started(conn, 1, Some("2025-05-01T09:00:00.000Z"))?;
    clock::start_decision(conn, m, ana, "2025-05-01T09:34:50.000Z")?;
    let at = |s: &str| crate::time::unstamp(s);
    let t = tables(&store, at("2025-05-01T09:34:55.000Z")?)?.remove(0);
    assert_eq!(t.decision_deadline.as_deref(), Some("2025-05-01T09:35:15.000Z"));
    assert_eq!((t.decision_limit, t.window_limit), (Some(45), Some(15)));
    assert_eq!(t.final_window_at.as_deref(), Some("2025-05-01T09:35:00.000Z"));
    let device = tables(&store, at("2025-05-01T09:35:05.000Z")?)?.remove(0);
    assert_eq!(device.decision_limit, Some(15));
    assert_eq!((device.state, device.called_at_close), ("playing", false));
    round::set_ended(conn, 1, Some("2025-05-01T09:36:00.000Z"))?;
    let closed = tables(&store, at("2025-05-01T09:40:00.000Z")?)?.remove(0);
    assert_eq!((closed.state, closed.called_at_close), ("over-time", true));
    assert_eq!(closed.ends_at.as_deref(), Some("2025-05-01T09:36:00.000Z"));
    round::set_ended(conn, 1, None)?;
    let reopened = tables(&store, at("2025-05-01T09:40:00.000Z")?)?.remove(0);
    assert_eq!((reopened.state, reopened.called_at_close), ("playing", false));
    assert_eq!(reopened.ends_at.as_deref(), Some("2025-05-01T09:50:00.000Z"));
    Ok(())
}

#[test]
fn the_dashboard_lists_the_overruns_of_its_round_only() -> crate::error::Result<()> {
    let (store, m1, [ana, bo]) = crate::store::memory_with_one_match()?;
    let conn = store.conn();
    round::insert(conn, 2, "swiss", "2025-05-01T10:00:00.000Z")?;
    let nm = matches::NewMatch { round: 2, table: Some(4), a: bo, b: Some(ana), a_library: None, b_library: None };
    let m2 = matches::insert(conn, &nm)?;
    let decide = |m, p, at: &str, overrun_ms| {
        let f =
            clock::FinishedDecision { ended_at: at, duration_ms: 45_000 + overrun_ms, limit_ms: 45_000, overrun_ms };
        clock::insert_decision(conn, m, p, at, &f)
    };
    decide(m1, bo, "2025-05-01T09:20:00.000Z", 7_000)?;
    decide(m1, ana, "2025-05-01T09:10:00.000Z", 3_000)?;
    decide(m1, bo, "2025-05-01T09:30:00.000Z", 0)?;
    decide(m2, ana, "2025-05-01T10:10:00.000Z", 9_000)?;
    let one = round_overruns(&store, 1)?;
    let shown: Vec<_> = one.iter().map(|o| (o.round, o.table, o.player.as_str(), o.overrun_ms)).collect();
    assert_eq!(shown, vec![(1, Some(1), "Ana", 3_000), (1, Some(1), "Bo", 7_000)]);
    let two = round_overruns(&store, 2)?;
    assert_eq!(two.iter().map(|o| (o.table, o.overrun_ms)).collect::<Vec<_>>(), vec![(Some(4), 9_000)]);
    assert!(round_overruns(&store, 3)?.is_empty());
    Ok(())
}

/// A player's write from a phone at `minutes` past 09:00.
fn phone(minutes: i64) -> Result<Actor> {
    let at = crate::time::unstamp("2025-05-01T09:00:00.000Z")? + Duration::minutes(minutes);
    Ok(Actor { judge: "player".into(), command_line: "test".into(), at, via: "web 10.0.0.2".into(), claim: None })
}

/// The topics the write `f` stored, as `topic r<round> t<table> <player>`.
fn topics<T>(store: &mut Store, f: impl FnOnce(&mut Store) -> Result<T>) -> Result<String> {
    let before = store.read(audit::last_id)?;
    f(store)?;
    let rows = store.read(|conn| audit::topics_after(conn, before))?;
    let names = store.read(crate::ops::player_names::names_by_id)?;
    let words = rows.iter().map(|(_, t)| {
        let mut w = vec![t.topic.to_string()];
        w.extend(t.round.map(|n| format!("r{n}")));
        w.extend(t.table.map(|n| format!("t{n}")));
        w.extend(t.player.and_then(|p| names.get(&p).cloned()));
        w.join(" ")
    });
    Ok(words.collect::<Vec<_>>().join(", "))
}

/// The writes a phone makes (the table's device, a player's own page, the clock screen, a judge's login)
/// and the topics each names; then what a phone that slept through them is sent.
#[test]
fn each_write_from_a_phone_names_its_topics() -> Result<()> {
    let (mut store, _, [ana, bo]) = crate::store::memory_with_one_match()?;
    round::set_started(store.conn(), 1, Some("2025-05-01T09:00:00.000Z"))?;
    player_codes::set(store.conn(), ana, "111111")?;
    player_codes::set(store.conn(), bo, "222222")?;
    let at1 = |s: &Store, code: &str| device::holder(s.conn(), 1, code);
    let declare = |s: &Store, code: &str| -> Result<device::DeviceNoteInput> {
        let printed = Printed::parse("B1")?;
        Ok(device::DeviceNoteInput { holder: at1(s, code)?, printed, card: None, letter: None, client_id: None })
    };
    let report = |s: &Store, code: &str, winner: &str| -> Result<self_report::SelfReportInput> {
        Ok(self_report::SelfReportInput {
            holder: at1(s, code)?,
            winner: Some(winner.into()),
            reason: Reason::Concession,
            life: None,
            origin: crate::store::self_reports::Origin { device: Some(format!("phone {code}")), ..Default::default() },
        })
    };
    let pin = judges::add_judge(&mut store, &phone(0)?, "Kim", Role::Floor)?.pin;
    let start = crate::time::unstamp("2025-05-01T09:20:00.000Z")?;
    let live_table = live::open_live(&store, 1)?;
    let ana_at_1 = |topic: &str| format!("{topic} r1 t1 Ana");
    let rows: Vec<(String, String)> = vec![
        (topics(&mut store, |s| judges::login(s, &phone(1)?, "Kim", &pin))?, String::new()),
        (topics(&mut store, |s| device::declare(s, &phone(2)?, declare(s, "111111")?))?, ana_at_1("note")),
        (topics(&mut store, |s| device::take_back(s, &phone(2)?, &at1(s, "111111")?))?, ana_at_1("note")),
        (topics(&mut store, |s| device::clock_start(s, &phone(3)?, &at1(s, "111111")?))?, ana_at_1("clock")),
        (
            topics(&mut store, |s| device::clock_hand_over(s, &phone(4)?, &at1(s, "111111")?))?,
            "clock r1 t1 Ana, clock r1 t1 Bo".into(),
        ),
        (topics(&mut store, |s| device::clock_stop(s, &phone(5)?, &at1(s, "222222")?))?, "clock r1 t1 Bo".into()),
        (topics(&mut store, |s| live::begin_decision(s, &phone(20)?, &live_table, ana, start))?, ana_at_1("clock")),
        (topics(&mut store, |s| live::log_stall(s, &phone(21)?, &live_table, ana, start))?, ana_at_1("clock")),
        (
            topics(&mut store, |s| {
                let span = (start, start + Duration::minutes(2));
                live::save_decision(s, &phone(22)?, &live_table, ana, span, Duration::zero())
            })?,
            ana_at_1("clock"),
        ),
        (
            topics(&mut store, |s| live::pause_extension(s, &phone(23)?, &live_table, 90, "judge call"))?,
            "clock r1 t1".into(),
        ),
        (topics(&mut store, |s| calls::call_judge(s, &phone(24)?, &at1(s, "222222")?))?, "call r1 t1 Bo".into()),
        (topics(&mut store, |s| calls::close_call(s, &phone(25)?, 1))?, "call r1 t1 Bo".into()),
        (
            topics(&mut store, |s| self_report::self_report(s, &phone(30)?, report(s, "111111", "Ana")?))?,
            ana_at_1("self-report"),
        ),
        (
            topics(&mut store, |s| self_report::self_report(s, &phone(31)?, report(s, "222222", "Bo")?))?,
            "self-report r1 t1 Bo".into(),
        ),
        // The opponent's word confirms it: the match's result is recorded.
        (
            topics(&mut store, |s| self_report::self_report(s, &phone(32)?, report(s, "222222", "Ana")?))?,
            "self-report r1 t1 Bo, result r1 t1".into(),
        ),
    ];
    for (i, (got, want)) in rows.iter().enumerate() {
        assert_eq!(got, want, "write {i}");
    }
    // A phone asleep since the start is sent each topic once, with the id of its latest write.
    let (last, changes) = changes_since(&store, 0)?;
    let names: Vec<_> = changes.iter().map(|(_, n)| *n).collect();
    assert_eq!(names, ["note", "clock", "call", "self-report", "result"]);
    assert_eq!(changes.iter().map(|(id, _)| *id).max(), Some(last));
    assert_eq!(changes[3].0, changes[4].0, "the confirmation is one write");
    Ok(())
}
