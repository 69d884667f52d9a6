//! `result`, `result fix` and `results`.

use crate::harness::Event;

/// An event with round 1 paired: table 1 Ana v Bo, table 2 Cy v Di, Ed with a bye.
fn round_one() -> Event {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.bye(1, "Ed");
    ev
}

#[test]
fn records_results_and_lists_the_round() {
    let ev = round_one();
    ev.mark_started(1);
    let out = ev.run(&["result", "1", "ana", "--by", "life", "--life", "12", "0", "--note", "clean game"]);
    assert_eq!(out.ok().trim(), "table 1, round 1: Ana beat Bo by life (12 to 0 life)");
    let doc = ev.run(&["--json", "results"]).json();
    assert_eq!(doc["round"], 1);
    assert_eq!(doc["tables"][0]["winner"], "Ana");
    assert_eq!(doc["tables"][0]["outcome"], "a");
    assert_eq!(doc["tables"][0]["life"], serde_json::json!([12, 0]));
    assert_eq!(doc["tables"][0]["note"], "clean game");
    assert_eq!(doc["tables"][1]["playing"], true);
    assert_eq!(doc["playing"], serde_json::json!([2]));
    assert_eq!(doc["byes"][0]["player"], "Ed");
    let text = ev.run(&["results"]).ok().to_string();
    assert!(text.contains("Round 1: 1 of 2 tables has a result"), "{text}");
    assert!(text.contains("still playing: table 2"), "{text}");
    let csv = ev.run(&["--csv", "results"]).ok().to_string();
    assert!(csv.starts_with("table,A,B,result,by,life,at\n1,Ana,Bo,Ana won,life,12-0,"), "{csv}");
}

#[test]
fn time_decides_by_life_totals() {
    // Time has long been called: the round's clock ran out the day before.
    let ev = round_one();
    ev.mark_started(1);
    let out = ev.run(&["result", "2", "--by", "time", "--life", "5", "7"]);
    assert!(out.ok().contains("Di beat Cy by time (7 to 5 life)"), "{}", out.stdout);
    let ev = round_one();
    ev.mark_started(1);
    ev.run(&["result", "2", "Cy", "--by", "time", "--life", "6", "2"]).ok();
    ev.run(&["result", "1", "draw", "--by", "time", "--life", "4", "4"]).ok();
    let doc = ev.run(&["--json", "results"]).json();
    assert_eq!(doc["tables"][0]["outcome"], "draw");
    assert_eq!(doc["tables"][1]["winner"], "Cy");
}

#[test]
fn draws_intentional_draws_and_late_results() {
    let ev = round_one();
    ev.run(&["result", "1", "draw", "--by", "intentional-draw", "--at", "2026-05-01T10:15:00Z"]).ok();
    let doc = ev.run(&["--json", "results"]).json();
    assert_eq!(doc["tables"][0]["at"], "2026-05-01T10:15:00.000Z");
    assert_eq!(doc["tables"][0]["reason"], "intentional-draw");
}

#[test]
fn results_of_another_round() {
    let ev = round_one();
    ev.mark_started(1);
    ev.run(&["result", "1", "bo", "--by", "concession"]).ok();
    ev.seat_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Ed")]);
    ev.run(&["result", "2", "ed", "--by", "decking", "--round", "1"]).refused();
    ev.run(&["result", "2", "di", "--by", "decking", "--round", "1"]).ok();
    let doc = ev.run(&["--json", "results", "--round", "1"]).json();
    assert_eq!(doc["playing"], serde_json::json!([]));
    let doc = ev.run(&["--json", "results"]).json();
    assert_eq!(doc["round"], 2);
    assert_eq!(doc["playing"], serde_json::json!([1, 2]));
}

#[test]
fn refuses_a_table_with_no_match() {
    let ev = Event::new();
    assert!(ev.refuses(&["result", "1", "ana", "--by", "life"]).contains("no round is paired yet"));
    assert!(ev.refuses(&["results"]).contains("no round is paired yet"));
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    let msg = ev.refuses(&["result", "9", "ana", "--by", "life"]);
    assert!(msg.contains("no match at table 9 in round 1 (tables are 1-2)"), "{msg}");
    let msg = ev.refuses(&["result", "1", "ana", "--by", "life", "--round", "4"]);
    assert!(msg.contains("round 4 is not paired"), "{msg}");
}

#[test]
fn refuses_a_result_twice() {
    let ev = round_one();
    ev.mark_started(1);
    ev.run(&["result", "1", "ana", "--by", "life"]).ok();
    let msg = ev.refuses(&["result", "1", "bo", "--by", "concession"]);
    assert!(msg.contains("already has a result: Ana beat Bo by life"), "{msg}");
    assert!(msg.contains("mmjudge result fix 1"), "{msg}");
}

#[test]
fn refuses_a_winner_not_at_the_table() {
    let ev = round_one();
    let msg = ev.refuses(&["result", "1", "cy", "--by", "life"]);
    assert!(msg.contains("Cy is not at table 1 in round 1 (Ana vs Bo); Cy plays at table 2"), "{msg}");
    let msg = ev.refuses(&["result", "1", "Zed", "--by", "life"]);
    assert!(msg.contains("unknown player \"Zed\""), "{msg}");
}

#[test]
fn refuses_time_without_life_totals_or_with_a_contradicting_winner() {
    let ev = round_one();
    let msg = ev.refuses(&["result", "1", "ana", "--by", "time"]);
    assert!(msg.contains("--by time needs both life totals"), "{msg}");
    let msg = ev.refuses(&["result", "1", "ana", "--by", "time", "--life", "3", "8"]);
    assert!(msg.contains("Bo (8) beats Ana (3)"), "{msg}");
    let msg = ev.refuses(&["result", "1", "draw", "--by", "time", "--life", "3", "8"]);
    assert!(msg.contains("higher life total wins"), "{msg}");
}

#[test]
fn refuses_negative_life() {
    let ev = round_one();
    let msg = ev.refuses(&["result", "1", "ana", "--by", "life", "--life", "5", "-3"]);
    assert!(msg.contains("life totals are 0 or more, not -3 for Bo"), "{msg}");
    let msg = ev.refuses(&["result", "1", "--by", "time", "--life", "-1", "2"]);
    assert!(msg.contains("0 or more"), "{msg}");
}

#[test]
fn refuses_inconsistent_claims() {
    let ev = round_one();
    assert!(ev.refuses(&["result", "1", "ana", "--by", "lfie"]).contains("did you mean life"));
    assert!(ev.refuses(&["result", "1", "draw", "--by", "concession"]).contains("has a winner"));
    assert!(ev.refuses(&["result", "1", "ana", "--by", "intentional-draw"]).contains("no winner"));
    let msg = ev.refuses(&["result", "1", "--by", "life", "--life", "5", "3"]);
    let want = "error: table 1: name the winner (Ana or Bo, or `draw`): a result --by life needs one; only --by time \
                takes the winner from the --life totals";
    assert_eq!(msg.trim_end(), want);
    let msg = ev.refuses(&["result", "1", "--by", "concession"]);
    assert!(msg.contains("name the winner (Ana or Bo): a result --by concession needs one"), "no draw: {msg}");
    let msg = ev.refuses(&["result", "1", "ana", "--by", "life", "--life", "12", "3"]);
    assert!(msg.contains("--by life means Ana won with Bo at 0"), "{msg}");
}

#[test]
fn fixes_a_result_showing_before_and_after() {
    let ev = round_one();
    ev.mark_started(1);
    ev.run(&["result", "1", "ana", "--by", "life", "--note", "kept"]).ok();
    let doc = ev.run(&["--json", "result", "fix", "1", "bo", "--by", "concession"]).json();
    let summary = doc["summary"].as_str().unwrap_or_default();
    assert!(summary.contains("was Ana beat Bo by life; now Bo beat Ana by concession"), "{summary}");
    assert_eq!(doc["before"]["winner"], "Ana");
    assert_eq!(doc["after"]["winner"], "Bo");
    assert_eq!(doc["after"]["note"], "kept");
    let log = ev.run(&["--json", "log", "--player", "ana"]).json();
    let last = log["entries"].as_array().and_then(|e| e.last()).cloned().unwrap_or_default();
    assert!(last["summary"].as_str().unwrap_or_default().starts_with("fixed table 1"), "{last}");
    assert!(last["command"].as_str().unwrap_or_default().contains("result fix 1 bo"), "{last}");
}

#[test]
fn refuses_fixing_a_result_that_later_rounds_were_paired_on() {
    let ev = round_one();
    ev.mark_started(1);
    ev.run(&["result", "1", "ana", "--by", "life"]).ok();
    ev.seat_round(2, &[(1, "Ana", "Cy")]);
    ev.seat_round(3, &[(1, "Ana", "Di")]);
    let msg = ev.refuses(&["result", "fix", "1", "bo", "--by", "concession", "--round", "1"]);
    assert!(msg.contains("rounds 2, 3 are already paired on this result: add --force"), "{msg}");
    let out = ev.run(&["result", "fix", "1", "bo", "--by", "concession", "--round", "1", "--force"]);
    assert!(out.ok().contains("(rounds 2, 3 are already paired on the old result, not redone)"), "{}", out.stdout);
}

#[test]
fn refuses_fixing_nothing() {
    let ev = round_one();
    ev.mark_started(1);
    assert!(ev.refuses(&["result", "fix", "1", "ana", "--by", "life"]).contains("has no result yet"));
    ev.run(&["result", "1", "ana", "--by", "life"]).ok();
    assert!(ev.refuses(&["result", "fix", "1", "ana", "--by", "life"]).contains("nothing to fix"));
    let msg = ev.refuses(&["result", "fix", "1", "ana", "--by", "time", "--life", "1", "2"]);
    assert!(msg.contains("Bo (2) beats Ana (1)"), "{msg}");
}

#[test]
fn a_prefix_is_tried_against_the_players_at_the_table_first() {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Anders", "Cy")]);
    assert!(ev.run(&["result", "1", "an", "--by", "concession"]).ok().contains("Ana beat Bo"));
    assert!(ev.run(&["penalty", "an", "slow", "--table", "2"]).ok().contains("Warning for Slow Play to Anders"));
    assert!(ev.refuses(&["penalty", "an", "slow"]).contains("matches several players"));
}

#[test]
fn refuses_an_at_before_the_round_started_at_the_table() {
    let ev = round_one();
    ev.run(&["round", "start", "--at", "2025-05-01T10:00:00Z"]).ok();
    let early = "2025-05-01T09:59:00Z";
    for args in [
        &["result", "1", "ana", "--by", "life", "--at", early][..],
        &["note", "1", "ana", "B1", "Demonic Tutor", "--at", early],
        &["challenge", "1", "--by", "ana", "--about", "x", "--ruling", "denied", "--at", early],
        &["ruling", "1", "judge call", "--at", early],
        &["penalty", "ana", "slow", "--table", "1", "--at", early],
        &["penalty", "ana", "slow", "--at", early],
    ] {
        let msg = ev.refuses(args);
        assert!(msg.contains("is before round 1 started"), "{args:?}: {msg}");
    }
    ev.run(&["result", "1", "ana", "--by", "life", "--at", "2025-05-01T10:20:00Z"]).ok();
    let msg = ev.refuses(&["result", "fix", "1", "bo", "--by", "life", "--at", early]);
    assert!(msg.contains("is before round 1 started"), "{msg}");
}

#[test]
fn refusals_resting_on_a_rule_name_its_id_and_rules_shows_it() {
    let ev = round_one();
    ev.mark_started(1);
    let msg = ev.refuses(&["result", "1", "draw", "--by", "time", "--life", "3", "8"]);
    assert!(msg.contains("TR.end-of-match: at time the higher life total wins"), "{msg}");
    let msg = ev.refuses(&["result", "1", "draw", "--by", "concession"]);
    assert!(msg.contains("TR.draws: a game ended by concession has a winner"), "{msg}");
    let msg = ev.refuses(&["result", "1", "ana", "--by", "intentional-draw"]);
    assert!(msg.contains("TR.draws: an intentional draw has no winner"), "{msg}");
    ev.run(&["result", "1", "ana", "--by", "life"]).ok();
    let msg = ev.refuses(&["challenge", "1", "--by", "bo", "--about", "x", "--ruling", "upheld"]);
    assert!(msg.contains("TR.challenges: table 1 in round 1"), "{msg}");
    for id in ["TR.end-of-match", "TR.draws", "TR.challenges"] {
        let shown = ev.run(&["rules", id]).ok().to_string();
        assert!(shown.contains(id), "{id}: {shown}");
    }
}

#[test]
fn a_result_that_says_a_game_was_played_needs_the_rounds_clock() {
    let ev = round_one();
    for args in [
        &["result", "1", "ana", "--by", "life", "--life", "5", "0"][..],
        &["result", "1", "ana", "--by", "decking"],
        &["result", "1", "ana", "--by", "lock"],
    ] {
        let msg = ev.refuses(args);
        assert!(msg.contains("needs a game played, and round 1's clock has not started"), "{msg}");
        assert!(msg.contains("`mmjudge round start`"), "{msg}");
    }
    ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    ev.run(&["result", "2", "draw", "--by", "intentional-draw"]).ok();
    let msg = ev.refuses(&["result", "fix", "2", "cy", "--by", "poison"]);
    assert!(msg.contains("a result by poison needs a game played"), "{msg}");
    ev.run(&["result", "fix", "2", "cy", "--by", "no-show"]).ok();
}

#[test]
fn a_round_with_every_result_ends_although_its_clock_never_ran() {
    let ev = round_one();
    let msg = ev.refuses(&["round", "end"]);
    assert!(msg.contains("round 1 has not started"), "{msg}");
    ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    ev.run(&["result", "2", "di", "--by", "concession"]).ok();
    let out = ev.run(&["round", "end"]).ok().to_string();
    assert!(out.contains("without its clock having run; every table has a result"), "{out}");
    let time = ev.run(&["--json", "time"]).json();
    assert_eq!((time["phase"].as_str(), time["started_at"].is_null()), (Some("closed"), true), "{time}");
    assert!(time["ended_at"].is_string(), "{time}");
    let text = ev.run(&["time"]).ok().to_string();
    assert!(text.contains("Round 1 — closed at"), "{text}");
    assert!(ev.refuses(&["round", "start"]).contains("`mmjudge round reopen`"));
    ev.run(&["round", "reopen"]).ok();
    ev.run(&["round", "end"]).ok();
}
