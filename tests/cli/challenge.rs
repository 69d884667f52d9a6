//! `challenge` and `challenges`.

use crate::harness::Event;

fn round_one() -> Event {
    let ev = Event::new();
    ev.seat_started_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev
}

fn challenge(ev: &Event, table: &str, by: &str, ruling: &str) -> serde_json::Value {
    ev.run(&["--json", "challenge", table, "--by", by, "--about", "what the card does", "--ruling", ruling]).json()
}

#[test]
fn denied_means_the_challenger_lost_it_and_upheld_the_other_player() {
    let ev = round_one();
    let doc = challenge(&ev, "1", "ana", "denied");
    assert_eq!(doc["loser"], "Ana");
    assert_eq!(doc["lost_in_match"], 1);
    let doc = challenge(&ev, "1", "ana", "upheld");
    assert_eq!(doc["loser"], "Bo");
    assert_eq!(doc["match_ended"], false);
}

#[test]
fn the_challenge_limit_loses_the_match_at_once() {
    let ev = round_one();
    challenge(&ev, "1", "ana", "denied");
    let out = ev.run(&["challenge", "1", "--by", "bo", "--about", "Ana already used Shock", "--ruling", "upheld"]);
    let text = out.ok();
    assert!(text.contains("Ana loses the match: Bo beat Ana by challenges"), "{text}");
    let doc = ev.run(&["--json", "results"]).json();
    assert_eq!(doc["tables"][0]["winner"], "Bo");
    assert_eq!(doc["tables"][0]["reason"], "challenges");
}

#[test]
fn the_limit_is_the_event_setting() {
    let ev = round_one();
    ev.run(&["event", "set", "challenge-limit", "1", "--force"]).ok();
    let doc = challenge(&ev, "2", "cy", "upheld");
    assert_eq!(doc["match_ended"], true);
    assert_eq!(doc["result"]["winner"], "Cy");
}

#[test]
fn records_statements_evidence_judge_and_time() {
    let ev = crate::cards::with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo")]);
    let n1 = ev.note(&["1", "bo", "R", "Shock"]).to_string();
    let n2 = ev.note(&["1", "ana", "B1", "Demonic Tutor"]).to_string();
    ev.run(&[
        "--judge",
        "Kim",
        "challenge",
        "1",
        "--by",
        "ana",
        "--about",
        "Bo already declared Shock",
        "--by-says",
        "he cast Shock on turn 2",
        "--other-says",
        "that was Lightning Bolt",
        "--ruling",
        "upheld",
        "--evidence",
        &n1,
        &n2,
        "--at",
        "2026-05-01T10:20:00Z",
    ])
    .ok();
    let doc = ev.run(&["--json", "challenges", "--table", "1"]).json();
    let c = &doc["challenges"][0];
    assert_eq!(c["by_says"], "he cast Shock on turn 2");
    assert_eq!(c["other_says"], "that was Lightning Bolt");
    assert_eq!(c["judge"], "Kim");
    assert_eq!(c["at"], "2026-05-01T10:20:00.000Z");
    assert_eq!(c["evidence"].as_array().map(Vec::len), Some(2));
    assert_eq!(c["loser"], "Bo");
}

#[test]
fn lists_by_table_and_player() {
    let ev = round_one();
    challenge(&ev, "1", "ana", "denied");
    challenge(&ev, "2", "cy", "denied");
    let all = ev.run(&["--json", "challenges"]).json();
    assert_eq!(all["challenges"].as_array().map(Vec::len), Some(2));
    let bo = ev.run(&["--json", "challenges", "--player", "bo"]).json();
    assert_eq!(bo["challenges"].as_array().map(Vec::len), Some(1));
    let t2 = ev.run(&["--json", "challenges", "--table", "2"]).json();
    assert_eq!(t2["challenges"][0]["by"], "Cy");
    let csv = ev.run(&["--csv", "challenges"]).ok().to_string();
    assert!(csv.starts_with("#,round,table,by,about,ruling,lost by,judge,at,void\n"), "{csv}");
}

#[test]
fn the_watch_report_flags_mostly_denied_challengers() {
    let ev = Event::new();
    ev.seat_started_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.seat_started_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Di")]);
    ev.run(&["event", "set", "challenge-limit", "5", "--force"]).ok();
    challenge(&ev, "1", "ana", "denied");
    challenge(&ev, "1", "ana", "denied");
    challenge(&ev, "1", "ana", "upheld");
    challenge(&ev, "2", "bo", "denied");
    let doc = ev.run(&["--json", "challenges", "--watch"]).json();
    let ana = &doc["players"][0];
    assert_eq!(ana["player"], "Ana");
    assert_eq!(ana["made"], 3);
    assert_eq!(ana["denied"], 2);
    assert_eq!(ana["flagged"], true);
    let bo = doc["players"].as_array().and_then(|p| p.iter().find(|x| x["player"] == "Bo")).cloned();
    assert_eq!(bo.map(|b| b["flagged"].clone()), Some(serde_json::json!(false)));
    let text = ev.run(&["challenges", "--watch"]).ok().to_string();
    assert!(text.contains("mostly denied") && text.contains("more than half"), "{text}");
}

#[test]
fn refuses_a_challenge_by_a_player_not_at_the_table() {
    let ev = round_one();
    let msg = ev.refuses(&["challenge", "1", "--by", "cy", "--about", "x", "--ruling", "denied"]);
    assert!(msg.contains("Cy is not at table 1 in round 1 (Ana vs Bo)"), "{msg}");
}

#[test]
fn refuses_a_challenge_after_the_result_unless_forced() {
    let ev = round_one();
    ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    let msg = ev.refuses(&["challenge", "1", "--by", "bo", "--about", "x", "--ruling", "denied"]);
    assert!(msg.contains("already has a result") && msg.contains("--force"), "{msg}");
    ev.run(&["challenge", "1", "--by", "bo", "--about", "x", "--ruling", "denied", "--force"]).ok();
    ev.run(&["event", "set", "challenge-limit", "1", "--force"]).ok();
    let out = ev.run(&["challenge", "1", "--by", "bo", "--about", "y", "--ruling", "denied", "--force"]);
    assert!(out.ok().contains("already has a result (Ana beat Bo by concession), not changed"), "{}", out.stdout);
}

#[test]
fn refuses_evidence_from_another_table_and_empty_points() {
    let ev = round_one();
    let other = ev.note(&["2", "cy", "R", "--unnamed"]).to_string();
    let msg =
        ev.refuses(&["challenge", "1", "--by", "ana", "--about", "x", "--ruling", "denied", "--evidence", &other]);
    assert!(msg.contains(&format!("note {other} is not a note of table 1")), "{msg}");
    let msg = ev.refuses(&["challenge", "1", "--by", "ana", "--about", "x", "--ruling", "denied", "--evidence", "99"]);
    assert!(msg.contains("note 99 is not a note"), "{msg}");
    assert!(ev.refuses(&["challenge", "1", "--by", "ana", "--about", " ", "--ruling", "denied"]).contains("empty"));
    assert!(ev.refuses(&["challenge", "7", "--by", "ana", "--about", "x", "--ruling", "denied"]).contains("table 7"));
}
