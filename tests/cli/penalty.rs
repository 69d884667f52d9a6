//! `penalty`, `penalties`, `ruling` and `player history`.

use crate::harness::Event;

fn round_one() -> Event {
    let ev = Event::new();
    ev.seat_started_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev
}

fn penalty(ev: &Event, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--json", "penalty"];
    all.extend_from_slice(args);
    ev.run(&all).json()
}

#[test]
fn a_warning_attaches_to_the_players_match_and_leaves_it_running() {
    let ev = round_one();
    let doc = penalty(&ev, &["bo", "slow play", "--note", "took three minutes"]);
    assert_eq!(doc["issued"], "warning");
    assert_eq!(doc["table"], 1);
    assert_eq!(doc["match_ended"], false);
    let list = ev.run(&["--json", "penalties"]).json();
    assert_eq!(list["penalties"][0]["infraction"], "slow-play");
    assert_eq!(list["penalties"][0]["note"], "took three minutes");
    assert_eq!(list["penalties"][0]["judge"], "Test Judge");
}

#[test]
fn a_second_tournament_error_warning_is_a_game_loss_that_ends_the_match() {
    let ev = round_one();
    penalty(&ev, &["bo", "slow"]);
    let doc = penalty(&ev, &["bo", "slow"]);
    assert_eq!(doc["issued"], "game-loss");
    assert!(doc["upgraded"].as_str().unwrap_or_default().contains("2nd Warning"), "{doc}");
    assert_eq!(doc["match_ended"], true);
    assert_eq!(doc["result"]["winner"], "Ana");
    assert_eq!(doc["result"]["reason"], "penalty");
}

#[test]
fn game_play_errors_upgrade_at_the_third_warning() {
    let ev = round_one();
    assert_eq!(penalty(&ev, &["cy", "game-rule-violation"])["issued"], "warning");
    assert_eq!(penalty(&ev, &["cy", "game-rule-violation"])["issued"], "warning");
    assert_eq!(penalty(&ev, &["cy", "game-rule-violation"])["issued"], "game-loss");
    assert_eq!(penalty(&ev, &["di", "failure to maintain"])["issued"], "warning");
}

#[test]
fn a_match_loss_ends_the_match_for_the_opponent() {
    let ev = round_one();
    let out = ev.run(&["penalty", "ana", "outside-assistance", "--table", "1"]);
    assert!(out.ok().contains("the match is over: Bo beat Ana by penalty"), "{}", out.stdout);
}

#[test]
fn the_head_judge_may_choose_the_penalty() {
    let ev = round_one();
    let doc = penalty(&ev, &["di", "hidden-card-error", "--penalty", "gl"]);
    assert_eq!(doc["issued"], "game-loss");
    assert!(doc["upgraded"].as_str().unwrap_or_default().contains("head judge override"));
    assert_eq!(doc["result"]["winner"], "Cy");
    assert!(ev.refuses(&["penalty", "di", "slow", "--penalty", "stern look"]).contains("unknown penalty"));
}

#[test]
fn a_disqualification_ends_the_match_and_removes_the_player() {
    let ev = round_one();
    let doc = penalty(&ev, &["cy", "cheating", "--note", "stacked the deck"]);
    assert_eq!(doc["disqualified"], true);
    assert_eq!(doc["result"]["winner"], "Di");
    let players = ev.run(&["--json", "player", "list"]).json();
    let cy = players["players"].as_array().and_then(|p| p.iter().find(|x| x["name"] == "Cy")).cloned();
    assert_eq!(cy.map(|c| c["status"].clone()), Some(serde_json::json!("disqualified")));
    assert!(ev.refuses(&["penalty", "cy", "stalling"]).contains("Cy is already disqualified"));
}

#[test]
fn penalties_outside_a_match_and_in_earlier_rounds() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    let doc = penalty(&ev, &["ana", "tardiness"]);
    assert_eq!(doc["table"], serde_json::Value::Null);
    ev.seat_started_round(1, &[(1, "Ana", "Bo")]);
    ev.run(&["result", "1", "ana", "--by", "life"]).ok();
    ev.seat_started_round(2, &[(1, "Bo", "Ana")]);
    let out = ev.run(&["penalty", "bo", "decklist", "--round", "1"]);
    assert!(out.ok().contains("already has a result (Ana beat Bo by life), not changed"), "{}", out.stdout);
    let list = ev.run(&["--json", "penalties", "--player", "bo"]).json();
    assert_eq!(list["penalties"][0]["round"], 1);
}

#[test]
fn refuses_an_unknown_infraction_with_the_closest_names() {
    let ev = round_one();
    let msg = ev.refuses(&["penalty", "ana", "cheatnig"]);
    assert!(msg.contains("unknown infraction 'cheatnig': did you mean cheating"), "{msg}");
    let msg = ev.refuses(&["penalty", "ana", "deck"]);
    assert!(msg.contains("decklist-problem, deck-problem"), "{msg}");
}

#[test]
fn refuses_a_penalty_at_a_table_the_player_is_not_at() {
    let ev = round_one();
    let msg = ev.refuses(&["penalty", "ana", "slow", "--table", "2"]);
    assert!(msg.contains("Ana is not at table 2 in round 1 (Cy vs Di); Ana plays at table 1"), "{msg}");
    assert!(ev.refuses(&["penalty", "zed", "slow"]).contains("unknown player"));
}

#[test]
fn rulings_are_logged_at_a_table() {
    let ev = round_one();
    let out = ev.run(&["ruling", "2", "Cy may not take back the attack"]);
    assert!(out.ok().contains("ruling #1 at table 2 in round 1 (Cy vs Di): Cy may not take back the attack"));
    assert!(ev.refuses(&["ruling", "2", "  "]).contains("empty"));
    assert!(ev.refuses(&["ruling", "5", "x"]).contains("no match at table 5"));
}

#[test]
fn player_history_shows_everything_newest_first() {
    let ev = crate::cards::with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    let at = |t: &str| format!("2026-05-01T{t}:00Z");
    ev.note(&["1", "ana", "B1", "Demonic Tutor", "--at", &at("09:30")]);
    ev.note(&["1", "ana", "R", "--unnamed", "--at", &at("09:35")]);
    ev.run(&["penalty", "ana", "slow", "--at", &at("10:05")]).ok();
    ev.run(&["ruling", "1", "Bo's Shock resolves first", "--at", &at("10:10")]).ok();
    ev.run(&["challenge", "1", "--by", "bo", "--about", "x", "--ruling", "denied", "--at", &at("10:20")]).ok();
    ev.run(&["result", "1", "ana", "--by", "life", "--life", "3", "0", "--at", &at("10:40")]).ok();
    ev.seat_started_round(2, &[(1, "Ana", "Cy")]);
    let conn = rusqlite::Connection::open(ev.db()).expect("db");
    conn.execute(
        "INSERT INTO decision (match_id, player_id, started_at, ended_at, duration_ms, limit_ms, overrun_ms)
         VALUES (1, 1, '2026-05-01T10:30:00Z', '2026-05-01T10:31:00Z', 60000, 45000, 15000)",
        [],
    )
    .expect("decision");
    drop(conn);
    let doc = ev.run(&["--json", "player", "history", "ana"]).json();
    let kinds: Vec<&str> =
        doc["entries"].as_array().map(|e| e.iter().filter_map(|x| x["kind"].as_str()).collect()).unwrap_or_default();
    assert_eq!(kinds, ["result", "result", "overrun", "challenge", "ruling", "penalty"]);
    let r1 = &doc["entries"][1];
    assert_eq!(r1["outcome"], "won");
    assert_eq!(r1["notes"], 2);
    assert_eq!(r1["opponent"], "Bo");
    assert_eq!(doc["entries"][0]["outcome"], "playing");
    assert_eq!(doc["entries"][2]["overrun_ms"], 15000);
    assert_eq!(doc["record"]["won"], 1);
    let text = ev.run(&["player", "history", "ana"]).ok().to_string();
    assert!(text.contains("beat Bo by life (3 to 0 life); 2 template notes"), "{text}");
    assert!(text.contains("15.0 s over the 45.0 s limit"), "{text}");
    assert!(ev.refuses(&["player", "history", "zed"]).contains("unknown player"));
}
