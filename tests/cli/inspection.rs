//! Deck inspection (`event set inspection-minutes N`): `round start` starts inspection, the round's clock
//! starts N minutes later or at `round start --now`; `time` shows the phase; no decision clock before.

use crate::harness::Event;

fn at(hms: &str) -> String {
    format!("2025-05-01T{hms}Z")
}

/// Round 1 seated at tables 1 and 2, five minutes of inspection, started at 10:00.
fn inspecting() -> Event {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["event", "set", "inspection-minutes", "5"]).ok();
    let out = ev.run_with(&["round", "start", "--at", &at("10:00:00")], &[("MMJUDGE_NOW", &at("10:00:00"))]);
    let text = out.ok().to_string();
    assert!(text.contains("deck inspection from 10:00 for 5 minutes; the round's clock starts at 10:05"), "{text}");
    ev
}

#[test]
fn inspection_runs_first_and_the_round_clock_starts_when_it_ends() {
    let ev = inspecting();
    let doc = ev.run_with(&["--json", "time"], &[("MMJUDGE_NOW", &at("10:02:00"))]).json();
    assert_eq!((doc["phase"].as_str(), doc["inspection_left_ms"].as_i64()), (Some("inspection"), Some(180_000)));
    assert_eq!(doc["started_at"], "2025-05-01T10:05:00.000Z");
    assert_eq!(doc["tables"][0]["started"], false);
    let text = ev.run_with(&["time"], &[("MMJUDGE_NOW", &at("10:02:00"))]).ok().to_string();
    assert!(text.contains("deck inspection, 3:00 left; the round's clock starts 10:05"), "{text}");
    let doc = ev.run_with(&["--json", "time"], &[("MMJUDGE_NOW", &at("10:06:00"))]).json();
    assert_eq!((doc["phase"].as_str(), doc["inspection_left_ms"].as_i64()), (Some("round"), None));
    // Round time is counted from the end of inspection: 50 minutes from 10:05.
    assert_eq!(doc["tables"][0]["ends_at"], "2025-05-01T10:55:00.000Z");
}

#[test]
fn no_decision_clock_during_inspection() {
    let ev = inspecting();
    let msg = ev.refuses(&["clock", "1", "--start", "Ana", "--at", &at("10:03:00")]);
    assert!(msg.contains("before round 1 started"), "{msg}");
}

#[test]
fn a_judge_starts_the_round_early() {
    let ev = inspecting();
    let out = ev.run_with(&["--json", "round", "start", "--now"], &[("MMJUDGE_NOW", &at("10:03:00"))]).json();
    assert_eq!(out["started_at"], "2025-05-01T10:03:00.000Z", "{out}");
    assert_eq!(out["ends_at"], "2025-05-01T10:53:00.000Z", "{out}");
    let msg = ev.refuses(&["round", "start", "--now"]);
    assert!(msg.contains("already started"), "{msg}");
}

#[test]
fn start_now_needs_a_started_round() {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo")]);
    let msg = ev.refuses(&["round", "start", "--now"]);
    assert!(msg.contains("has not been started: `mmjudge round start`"), "{msg}");
}
