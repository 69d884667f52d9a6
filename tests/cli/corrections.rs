//! Taking back a judge's slips: `player remove`, `round end --force` and `round reopen`, `clock --cancel`,
//! note ids that are never given twice, and one running decision per table.

use crate::harness::Event;

const START: &str = "2025-05-01T10:00:00Z";

fn at(hms: &str) -> String {
    format!("2025-05-01T{hms}Z")
}

/// Round 1 at tables 1 (Ana-Bo) and 2 (Cy-Di), its clock started at 10:00.
fn started() -> Event {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["round", "start", "--at", START]).ok();
    ev
}

fn players(ev: &Event) -> Vec<String> {
    let doc = ev.run(&["--json", "player", "list"]).json();
    doc["players"].as_array().into_iter().flatten().filter_map(|p| p["name"].as_str().map(String::from)).collect()
}

#[test]
fn player_remove_deletes_a_player_entered_by_mistake() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Anna Typo"]).ok();
    let doc = ev.run(&["--json", "player", "remove", "anna"]).json();
    assert_eq!(doc["name"], "Anna Typo");
    assert_eq!(players(&ev), vec!["Ana", "Bo"]);
    let log = ev.run(&["--json", "log"]).json();
    let last = log["entries"].as_array().and_then(|e| e.last()).cloned().unwrap_or_default();
    assert!(last["summary"].as_str().unwrap_or("").contains("removed Anna Typo"), "{log}");
    assert!(ev.refuses(&["player", "remove", "anna typo"]).contains("unknown player"));
}

#[test]
fn player_remove_refuses_a_seated_player_with_the_way_out() {
    let ev = started();
    let msg = ev.refuses(&["player", "remove", "Ana"]);
    assert!(msg.contains("seated in round 1 (table 1)") && msg.contains("`mmjudge round unpair`"), "{msg}");
    ev.set_result_for_clock(1, 2, "A");
    let msg = ev.refuses(&["player", "remove", "Ana"]);
    assert!(msg.contains("already has results") && msg.contains("`mmjudge player drop Ana`"), "{msg}");
    assert!(msg.contains("(table 1), and that round already has results"), "the round has them, not table 1: {msg}");
}

#[test]
fn player_remove_refuses_a_player_with_history() {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    ev.finish_round(1);
    ev.seat_round(2, &[(1, "Cy", "Di")]);
    let msg = ev.refuses(&["player", "remove", "Bo"]);
    assert!(msg.contains("has a history") && msg.contains("1 match") && msg.contains("player drop Bo"), "{msg}");
    ev.sql("INSERT INTO player (name, name_key) VALUES ('Eve', 'eve');");
    ev.sql(
        "INSERT INTO penalty (player_id, infraction, penalty, judge, at) \
         SELECT id, 'slow-play', 'warning', 'Kim', '2025-05-01T10:00:00Z' FROM player WHERE name = 'Eve';",
    );
    let msg = ev.refuses(&["player", "remove", "Eve"]);
    assert!(msg.contains("1 penalty") && msg.contains("player drop Eve"), "{msg}");
}

#[test]
fn round_end_refuses_open_tables_without_force_and_reopen_undoes_it() {
    let ev = started();
    ev.set_result_for_clock(1, 1, "A");
    let msg = ev.refuses(&["round", "end", "--at", &at("10:50:00")]);
    assert!(msg.contains("1 table without a result (table 2)") && msg.contains("round end --force"), "{msg}");
    ev.run(&["round", "end", "--at", &at("10:50:00"), "--force"]).ok();
    assert!(ev.refuses(&["clock", "2", "--start", "Cy", "--at", &at("10:51:00")]).contains("closed"));
    let doc = ev.run(&["--json", "round", "reopen"]).json();
    assert_eq!((doc["round"].as_u64(), doc["was_closed_at"].as_str()), (Some(1), Some("2025-05-01T10:50:00.000Z")));
    // The clock runs as if the round had never been closed: at 10:55 time is over at table 2, not frozen at 10:50.
    let doc = ev.run_with(&["--json", "time"], &[("MMJUDGE_NOW", &at("10:55:00"))]).json();
    assert_eq!(doc["ended_at"], serde_json::Value::Null);
    assert_eq!(doc["at"], "2025-05-01T10:55:00.000Z");
    assert_eq!(doc["tables"][1]["time_left_ms"], -5 * 60_000);
    // Decisions can be timed again.
    ev.run(&["clock", "2", "--start", "Cy", "--at", &at("10:51:00")]).ok();
    ev.run(&["clock", "2", "--stop", "--at", &at("10:51:20")]).ok();
    assert!(ev.refuses(&["round", "reopen"]).contains("not closed"));
    // Every table with a result: no --force needed.
    ev.set_result_for_clock(1, 2, "B");
    ev.run(&["round", "end", "--at", &at("10:56:00")]).ok();
}

#[test]
fn round_reopen_refusals_leave_the_file_unchanged() {
    let ev = Event::new();
    assert!(ev.refuses(&["round", "reopen"]).contains("no round has been paired"));
    let ev = started();
    assert!(ev.refuses(&["round", "reopen"]).contains("round 1 is not closed"));
}

#[test]
fn clock_cancel_discards_a_decision_started_by_mistake() {
    let ev = started();
    ev.run(&["clock", "1", "--start", "Bo", "--at", &at("10:10:00")]).ok();
    let doc = ev.run(&["--json", "clock", "1", "--cancel"]).json();
    assert_eq!((doc["player"].as_str(), doc["table"].as_u64()), (Some("Bo"), Some(1)));
    let d = ev.run(&["--json", "decisions"]).json();
    assert_eq!((d["total"]["count"].as_u64(), d["running"].as_u64()), (Some(0), Some(0)), "{d}");
    let log = ev.run(&["--json", "log", "--player", "bo"]).json();
    let last = log["entries"].as_array().and_then(|e| e.last()).cloned().unwrap_or_default();
    assert!(last["summary"].as_str().unwrap_or("").contains("cancelled the decision Bo started"), "{log}");
    // The table is free again: Ana's decision is timed.
    ev.run(&["clock", "1", "--start", "Ana", "--at", &at("10:11:00")]).ok();
    ev.run(&["clock", "1", "--stop", "--at", &at("10:11:30")]).ok();
    assert_eq!(ev.run(&["--json", "decisions"]).json()["total"]["count"], 1);
}

#[test]
fn clock_cancel_refusals_leave_the_file_unchanged() {
    let ev = started();
    assert!(ev.refuses(&["clock", "1", "--cancel"]).contains("no decision is running at table 1"));
    assert!(ev.refuses(&["clock", "9", "--cancel"]).contains("no match at table 9"));
    assert_eq!(ev.run(&["clock", "1", "--cancel", "--at", "10:00"]).code, 2, "--cancel takes no --at");
}

#[test]
fn one_decision_per_table_is_kept_by_the_store() {
    let ev = started();
    ev.run(&["clock", "1", "--start", "Bo", "--at", &at("10:10:00")]).ok();
    assert!(ev.refuses(&["clock", "1", "--start", "Ana", "--at", &at("10:10:05")]).contains("already deciding"));
    // Even a writer that skips the check cannot put a second running decision at the table.
    let conn = rusqlite::Connection::open(ev.db()).expect("open");
    let second = conn.execute(
        "INSERT INTO decision (match_id, player_id, started_at) SELECT match_id, player_id, started_at FROM decision",
        [],
    );
    assert!(second.is_err(), "the store took a second running decision at one table");
    // Another table is free.
    ev.run(&["clock", "2", "--start", "Cy", "--at", &at("10:10:05")]).ok();
}

#[test]
fn note_ids_are_never_given_twice() {
    let ev = crate::cards::with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo")]);
    let moment = "2025-05-01T10:05:00Z";
    let first = ev.note(&["1", "ana", "B1", "Demonic Tutor", "--at", moment]);
    let second = ev.note(&["1", "bo", "R", "Shock", "--at", moment]);
    ev.run(&["note", "undo", "1"]).ok();
    let third = ev.note(&["1", "bo", "R", "Shock", "--at", moment]);
    assert!(third > second && second > first, "{first} {second} {third}");
    ev.run(&["note", "undo", "1"]).ok();
    ev.run(&["note", "undo", "1"]).ok();
    let fourth = ev.note(&["1", "ana", "B1", "Demonic Tutor", "--at", moment]);
    assert!(fourth > third, "{third} {fourth}");
}

#[test]
fn changing_a_rule_of_play_mid_round_needs_force_and_says_what_changes() {
    let ev = started();
    ev.set_result_for_clock(1, 1, "A");
    let msg = ev.refuses(&["event", "set", "round-minutes", "60"]);
    assert!(msg.contains("round 1 is being played (1 table without a result)"), "{msg}");
    assert!(msg.contains("time is called at") && msg.contains("--force"), "{msg}");
    let msg = ev.refuses(&["event", "set", "binding", "alphabet"]);
    assert!(msg.contains("checked under alphabet binding instead of standard"), "{msg}");
    let msg = ev.refuses(&["event", "set", "challenge-limit", "3"]);
    assert!(msg.contains("at 3 lost challenges instead of 2"), "{msg}");
    let msg = ev.refuses(&["event", "set", "allow-joke", "on"]);
    assert!(msg.contains("joke cards may now be declared"), "{msg}");
    for key in ["decision-seconds", "final-decision-seconds", "final-window-minutes", "split-combined"] {
        let value = if key == "split-combined" { "on" } else { "10" };
        assert!(ev.refuses(&["event", "set", key, value]).contains("--force"), "{key}");
    }
    // The same value, or a setting that does not touch play, goes through.
    ev.run(&["event", "set", "binding", "standard"]).ok();
    ev.run(&["event", "set", "name", "Spring Open"]).ok();
    let doc = ev.run(&["--json", "event", "set", "round-minutes", "60", "--force"]).json();
    assert_eq!(doc["value"], "60");
    let t = ev.run_with(&["--json", "time"], &[("MMJUDGE_NOW", &at("10:20:00"))]).json();
    assert_eq!(t["tables"][1]["time_left_ms"], 40 * 60_000);
    // Once every table has a result, no round is being played.
    ev.set_result_for_clock(1, 2, "B");
    ev.run(&["event", "set", "binding", "alphabet"]).ok();
}

#[test]
fn player_remove_says_drop_at_once_for_a_seated_player_who_played_an_earlier_round() {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.finish_round(1);
    ev.seat_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Di")]);
    let msg = ev.refuses(&["player", "remove", "Cy"]);
    let want = "error: Cy is seated in round 2 (table 1) and has played round 1, so they cannot be removed: drop them \
                with `mmjudge player drop Cy`, then record table 1 as a no-show win for the opponent";
    assert_eq!(msg.trim_end(), want);
    assert!(!msg.contains("unpair"), "{msg}");
    // The advice works: the drop is accepted.
    ev.run(&["player", "drop", "Cy"]).ok();
}

#[test]
fn player_remove_says_drop_when_the_round_cannot_be_taken_back() {
    let ev = started();
    ev.run(&["player", "add", "Ed"]).ok();
    ev.sql("UPDATE player SET joined_round = 1 WHERE name = 'Ed';");
    ev.sql(
        "INSERT INTO match (round, a_player, result, reason) SELECT 1, id, 'A', 'bye' FROM player WHERE name = 'Ed';",
    );
    ev.run(&["round", "extend", "2", "3", "--reason", "deck check"]).ok();
    let msg = ev.refuses(&["player", "remove", "Ed"]);
    assert!(msg.contains("round 1 cannot be taken back (it has notes, rulings or clock records at table 2)"), "{msg}");
    assert!(msg.contains("`mmjudge player drop Ed`") && !msg.contains("no-show"), "a bye has no table: {msg}");
    // Without those records the round can be taken back, and the player then removed.
    let ev = started();
    let msg = ev.refuses(&["player", "remove", "Ana"]);
    assert!(msg.contains("`mmjudge round unpair`"), "{msg}");
    ev.run(&["round", "unpair"]).ok();
    ev.run(&["player", "remove", "Ana"]).ok();
}

#[test]
fn player_remove_of_a_bye_after_results_advises_a_drop_without_a_table() {
    let ev = started();
    ev.run(&["player", "add", "Gil"]).ok();
    ev.sql("UPDATE player SET joined_round = 1 WHERE name = 'Gil';");
    ev.bye(1, "Gil");
    ev.set_result_for_clock(1, 2, "A");
    let msg = ev.refuses(&["player", "remove", "Gil"]);
    assert_eq!(
        msg.trim_end(),
        "error: Gil is seated in round 1 (a bye), and that round already has results: drop the player with \
         `mmjudge player drop Gil` instead (the bye stays in round 1, and they are not paired again)"
    );
    // The advice works.
    ev.run(&["player", "drop", "Gil"]).ok();
}
