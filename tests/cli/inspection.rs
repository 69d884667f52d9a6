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

#[test]
fn no_result_by_time_during_inspection_from_the_cli_or_a_phone() {
    let ev = inspecting();
    let during = [("MMJUDGE_NOW", at("10:02:00"))];
    let env: Vec<(&str, &str)> = during.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let before = ev.dump();
    let run = ev.run_with(&["result", "1", "--by", "time", "--life", "20", "20", "--turn", "1"], &env);
    let msg = run.refused().to_string();
    assert!(
        msg.contains("time is called at table 1 at 10:55 (round 1's clock starts at 10:05 after deck inspection)"),
        "{msg}"
    );
    assert_eq!(ev.dump(), before);
    // The judges API refuses it the same way.
    let server = crate::serve::Server::start_with(&ev, &[], &env);
    let pin = crate::serve::judge(&ev, "Kim", "head");
    let token = server.login("Kim", &pin);
    let before = ev.dump();
    let body = serde_json::json!({ "table": 2, "by": "time", "life": [20, 20], "turn": 1 });
    let msg = server.post_json("/api/result", Some(&token), &body).error(409);
    assert!(msg.contains("time is called at table 2 at 10:55 (round 1's clock starts at 10:05"), "{msg}");
    assert_eq!(ev.dump(), before);
}

#[test]
fn the_table_device_says_inspection_runs_instead_of_asking_for_a_later_at() {
    let ev = inspecting();
    let during = [("MMJUDGE_NOW", at("10:02:00"))];
    let env: Vec<(&str, &str)> = during.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let codes = ev.run(&["--json", "player", "codes"]).json();
    let ana = codes["players"].as_array().and_then(|ps| ps.iter().find(|p| p["name"] == "Ana")).expect("Ana");
    let server = crate::serve::Server::start_with(&ev, &[], &env);
    let before = ev.dump();
    let body = serde_json::json!({ "table": 1, "code": ana["code"] });
    let msg = server.post_json("/api/clock/start", None, &body).error(409);
    assert_eq!(msg, "deck inspection until 10:05: the decision clock starts with the round");
    // The CLI without --at says the same; with --at it names the moment given.
    let run = ev.run_with(&["clock", "1", "--start", "Ana"], &env);
    assert!(run.refused().contains("deck inspection until 10:05: the decision clock starts with the round"));
    assert_eq!(ev.dump(), before);
}

#[test]
fn no_card_is_declared_during_inspection_unless_a_judge_logs_it_with_its_moment() {
    let ev = inspecting();
    ev.run(&["cards", "import", &crate::harness::example("cards.csv")]).ok();
    let during = [("MMJUDGE_NOW", at("10:02:00"))];
    let env: Vec<(&str, &str)> = during.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let before = ev.dump();
    let run = ev.run_with(&["note", "1", "Ana", "B1", "Demonic Tutor"], &env);
    assert!(run.refused().contains("deck inspection until 10:05: no card is declared before round 1's clock starts; wait for it, or start it at once with `mmjudge round start --now`"));
    assert_eq!(ev.dump(), before);
    // Once the round's clock runs, the same declaration is taken.
    ev.run_with(&["note", "1", "Ana", "B1", "Demonic Tutor"], &[("MMJUDGE_NOW", &at("10:06:00"))]).ok();
}

#[test]
fn a_round_is_not_closed_before_its_clock_begins_and_the_refusal_says_how_to_start_it() {
    let ev = inspecting();
    let moment = at("10:02:00");
    let env = [("MMJUDGE_NOW", moment.as_str())];
    let before = ev.dump();
    let msg = ev.run_with(&["round", "end", "--force"], &env).refused().to_string();
    assert_eq!(
        msg.trim_end(),
        "error: round 1 is in deck inspection until 10:05: start its clock now with `mmjudge round start --now`, \
         then close it"
    );
    assert_eq!(before, ev.dump(), "the refusal changed the event");
    // The way it names works: the clock starts now, then the round closes.
    ev.run_with(&["round", "start", "--now"], &env).ok();
    let closed = ev.run_with(&["round", "end", "--force"], &env).ok().to_string();
    assert!(closed.contains("round 1 closed at 10:02"), "{closed}");
}

#[test]
fn a_start_set_for_later_says_starts_and_the_round_cannot_close_before_it() {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo")]);
    let moment = at("10:00:00");
    let now = [("MMJUDGE_NOW", moment.as_str())];
    let started = ev.run_with(&["round", "start", "--at", &at("10:30:00")], &now).ok().to_string();
    assert!(started.starts_with("round 1 starts at 10:30: time is called at 11:20"), "{started}");
    let time = ev.run_with(&["time"], &now).ok().to_string();
    assert!(time.contains("Round 1 — starts 10:30, 50 minutes; now 10:00"), "{time}");
    let later = ev.run_with(&["time"], &[("MMJUDGE_NOW", at("10:31:00").as_str())]).ok().to_string();
    assert!(later.contains("Round 1 — started 10:30, 50 minutes; now 10:31"), "{later}");
    let before = ev.dump();
    for args in [&["round", "end", "--force"][..], &["round", "end", "--force", "--at", moment.as_str()][..]] {
        let msg = ev.run_with(args, &now).refused().to_string();
        assert_eq!(
            msg.trim_end(),
            "error: round 1 has not begun (its clock starts at 10:30): start its clock now with \
             `mmjudge round start --now`, then close it",
            "{args:?}"
        );
    }
    assert_eq!(before, ev.dump(), "the refusals changed the event");
}
