//! Moments given with `--at`: records of what happened are refused when dated ahead of now, before the event,
//! before their round, or outside the years 2000-2100; `round start` may be scheduled up to 12 hours ahead.

use crate::harness::Event;

const NOW: &str = "2025-05-01T11:00:00Z";

fn at(hms: &str) -> String {
    format!("2025-05-01T{hms}Z")
}

/// The bundled reference, round 1 at table 1 (Ana-Bo), its clock started at 10:00.
fn started() -> Event {
    let ev = crate::cards::with_reference();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo")]);
    ev.run(&["round", "start", "--at", &at("10:00:00")]).ok();
    ev
}

/// Runs a command that must be refused at the fixed now, proving the file unchanged; returns the message.
#[track_caller]
fn refused_at_now(ev: &Event, args: &[&str]) -> String {
    let before = ev.dump();
    let run = ev.run_with(args, &[("MMJUDGE_NOW", NOW)]);
    let msg = run.refused().to_string();
    assert_eq!(before, ev.dump(), "a refused command changed the database: {args:?}");
    msg
}

/// Every kind of record, dated `moment`.
fn records(moment: &str) -> Vec<Vec<String>> {
    let lines: [&[&str]; 7] = [
        &["result", "1", "ana", "--by", "concession"],
        &["note", "1", "ana", "B1", "Demonic Tutor"],
        &["challenge", "1", "--by", "bo", "--about", "what Shock does", "--ruling", "denied"],
        &["penalty", "bo", "slow-play", "--table", "1"],
        &["penalty", "bo", "slow-play"],
        &["ruling", "1", "Bo may not take back the attack"],
        &["clock", "1", "--start", "ana"],
    ];
    lines
        .iter()
        .map(|l| l.iter().map(|s| s.to_string()).chain(["--at".to_string(), moment.to_string()]).collect())
        .collect()
}

#[test]
fn records_dated_ahead_of_now_are_refused() {
    let ev = started();
    for args in records(&at("11:10:00")) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let msg = refused_at_now(&ev, &args);
        assert!(msg.contains("is 10 minutes in the future") && msg.contains("leave --at out"), "{args:?}: {msg}");
    }
    // Up to 2 minutes ahead is a laptop clock's drift: taken.
    ev.run_with(&["ruling", "1", "Replay the turn", "--at", &at("11:01:30")], &[("MMJUDGE_NOW", NOW)]).ok();
}

#[test]
fn records_dated_before_the_event_or_the_round_are_refused() {
    let ev = started();
    for args in records("2024-12-31T12:00:00Z") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let msg = refused_at_now(&ev, &args);
        let clock = args[0] == "clock" && msg.contains("before round 1 started");
        assert!(msg.contains("before the event was created") || clock, "{args:?}: {msg}");
    }
    for args in records(&at("09:59:00")) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        if args.contains(&"--table") || args[0] != "penalty" {
            let msg = refused_at_now(&ev, &args);
            assert!(msg.contains("before round 1 started"), "{args:?}: {msg}");
        }
    }
}

#[test]
fn moments_outside_the_years_2000_to_2100_are_refused_everywhere() {
    let ev = started();
    for moment in ["0000-01-01T00:00:00+14:00", "2101-01-01T00:00:00Z", "1999-12-31T23:59:59Z"] {
        let mut all = records(moment);
        all.push(vec!["round".into(), "end".into(), "--at".into(), moment.into()]);
        all.push(vec!["log".into(), "--since".into(), moment.into()]);
        for args in all {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let msg = refused_at_now(&ev, &args);
            assert!(msg.contains("outside the years 2000-2100"), "{args:?}: {msg}");
        }
    }
    let fresh = Event::new();
    fresh.seat_round_for_clock(1, &[(1, "Ana", "Bo")]);
    let msg = fresh.refuses(&["round", "start", "--at", "0000-01-01T00:00:00+14:00"]);
    assert!(msg.contains("outside the years 2000-2100"), "{msg}");
    // The clock still reads back: nothing unreadable was stored.
    fresh.run(&["round", "start", "--at", &at("10:00:00")]).ok();
    fresh.run_with(&["time"], &[("MMJUDGE_NOW", NOW)]).ok();
}

#[test]
fn round_start_may_be_scheduled_up_to_12_hours_ahead() {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo")]);
    let msg = refused_at_now(&ev, &["round", "start", "--at", "2025-05-01T23:30:00Z"]);
    assert!(msg.contains("12 hours and 30 minutes") || msg.contains("12 hours"), "{msg}");
    assert!(msg.contains("at most 12 hours ahead"), "{msg}");
    let msg = refused_at_now(&ev, &["round", "start", "--at", "2024-12-31T09:00:00Z"]);
    assert!(msg.contains("before the event was created"), "{msg}");
    ev.run_with(&["round", "start", "--at", "2025-05-01T22:00:00Z"], &[("MMJUDGE_NOW", NOW)]).ok();
}

#[test]
fn confirmations_show_the_date_of_a_moment_on_another_day() {
    let ev = started();
    let out =
        ev.run_with(&["round", "end", "--at", &at("10:50:00"), "--force"], &[("MMJUDGE_NOW", "2025-05-03T09:00:00Z")]);
    assert!(out.ok().contains("closed at 2025-0"), "two days later, in any time zone: {}", out.stdout);
    let fresh = started();
    let out =
        fresh.run_with(&["note", "1", "ana", "B1", "Demonic Tutor", "--at", &at("10:05:00")], &[("MMJUDGE_NOW", NOW)]);
    assert!(!out.ok().contains("2025-0"), "same day: the time alone: {}", out.stdout);
    let out = fresh.run_with(
        &["note", "1", "bo", "R", "Shock", "--at", &at("10:06:00")],
        &[("MMJUDGE_NOW", "2025-05-03T09:00:00Z")],
    );
    assert!(out.ok().contains(" at 2025-0"), "{}", out.stdout);
}
