//! A result taken back in an earlier round (a forced void of a match-ending penalty, `result clear --force`)
//! leaves the standings standing: the match needs a result and counts for nothing, the rest is counted; the
//! void's answer says which match it reopened and which standings it moved.

use crate::harness::{Event, NOTES_NOW, Run};
use serde_json::{Value, json};

fn at_now(ev: &Event, args: &[&str]) -> Run {
    ev.run_with(args, &[("MMJUDGE_NOW", NOTES_NOW)])
}

fn json_of(ev: &Event, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    at_now(ev, &all).json()
}

/// Round 1: Bo's second slow play is a Game Loss that ends table 1 (Ana wins by penalty); Di beats Cy. Round 2:
/// Ana beats Cy, Di beats Bo. Returns the first penalty's id.
fn two_rounds_with_a_match_ended_by_a_penalty() -> (Event, String) {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    let first = json_of(&ev, &["penalty", "bo", "slow-play"])["penalty"].to_string();
    assert_eq!(json_of(&ev, &["penalty", "bo", "slow-play"])["issued"], "game-loss");
    ev.finish_round(1);
    ev.seat_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Di")]);
    ev.finish_round(2);
    (ev, first)
}

/// (name, W-L-D) of each ranked line, best first.
fn records(doc: &Value) -> Vec<(String, String)> {
    let lines = doc["standings"].as_array().cloned().unwrap_or_default();
    lines
        .iter()
        .map(|l| {
            let name = l["name"].as_str().unwrap_or_default().to_string();
            (name, format!("{}-{}-{}", l["wins"], l["losses"], l["draws"]))
        })
        .collect()
}

#[test]
fn a_forced_void_of_an_earlier_rounds_match_ending_penalty_reopens_that_match_and_the_rest_stands() {
    let (ev, first) = two_rounds_with_a_match_ended_by_a_penalty();
    let before = json_of(&ev, &["standings"]);
    assert_eq!(before["round"], 2);
    let out = json_of(&ev, &["penalty", "void", &first, "--force"]);
    // The answer says what it changed: the match reopened, the standings it moves.
    assert_eq!(out["reopened"][0]["round"], 1, "{out}");
    assert_eq!(out["reopened"][0]["table"], 1, "{out}");
    assert_eq!(out["standings_moved"], json!([1, 2]), "{out}");
    let summary = out["summary"].as_str().unwrap_or_default();
    assert!(summary.contains("table 1 in round 1 is playing again (was: Ana won by penalty)"), "{summary}");
    assert!(
        summary.contains(
            "the standings after rounds 1 and 2 change: it needs a result and counts for nothing until one is \
             recorded (the rest stands)"
        ),
        "{summary}"
    );
    // The standings after round 2 stand, without the reopened match: never "before round 1", never all 0-0-0.
    let after = json_of(&ev, &["standings"]);
    assert_eq!(after["round"], 2, "{after}");
    assert_eq!(after["needs_result"], json!([{ "round": 1, "table": 1, "players": ["Ana", "Bo"] }]), "{after}");
    let got = records(&after);
    for (name, record) in [("Di", "2-0-0"), ("Ana", "1-0-0"), ("Bo", "0-1-0"), ("Cy", "0-2-0")] {
        assert!(got.contains(&(name.to_string(), record.to_string())), "{name} {record}: {got:?}");
    }
    let text = at_now(&ev, &["standings"]).ok().to_string();
    assert!(text.starts_with("Test Open: standings after round 2\n"), "{text}");
    assert!(
        text.contains("\nround 1, table 1 (Ana v Bo) needs a result: not counted until one is recorded\n"),
        "{text}"
    );
    // The earlier round's standings say so too.
    let one = json_of(&ev, &["standings", "--round", "1"]);
    assert_eq!(one["needs_result"][0]["table"], 1, "{one}");
    assert_eq!(records(&one).len(), 4, "Ana and Bo are still players of round 1: {one}");
    // The result entered again: the match counts, nothing needs a result.
    at_now(&ev, &["result", "1", "bo", "--by", "concession", "--round", "1"]).ok();
    let back = json_of(&ev, &["standings"]);
    assert_eq!(back["needs_result"], json!([]), "{back}");
    assert!(records(&back).contains(&("Bo".to_string(), "1-1-0".to_string())), "{back}");
}

#[test]
fn a_void_in_the_last_round_played_says_its_standings_wait_for_the_result() {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    let first = json_of(&ev, &["penalty", "bo", "slow-play"])["penalty"].to_string();
    json_of(&ev, &["penalty", "bo", "slow-play"]);
    ev.finish_round(1);
    assert_eq!(json_of(&ev, &["standings"])["round"], 1);
    let out = json_of(&ev, &["penalty", "void", &first]);
    assert_eq!(out["standings_moved"], json!([1]), "{out}");
    let summary = out["summary"].as_str().unwrap_or_default();
    assert!(
        summary.ends_with("; the standings after round 1 wait for it again (there are none before it)"),
        "{summary}"
    );
    // The round being played again: no standings yet, and the refusal says which table waits.
    assert_eq!(json_of(&ev, &["standings"])["round"], 0);
    assert!(ev.refuses(&["standings", "--round", "1"]).contains("round 1 has no result yet at table 1"));
}

#[test]
fn a_forced_result_clear_of_an_earlier_round_leaves_the_later_standings_standing() {
    let (ev, _) = two_rounds_with_a_match_ended_by_a_penalty();
    let out = json_of(&ev, &["result", "clear", "2", "--round", "1", "--force"]);
    assert_eq!(out["standings_moved"], json!([1, 2]), "{out}");
    assert!(out["summary"].as_str().unwrap_or_default().contains("the standings after rounds 1 and 2 change"), "{out}");
    let after = json_of(&ev, &["standings"]);
    assert_eq!(after["round"], 2, "{after}");
    assert_eq!(after["needs_result"][0]["players"], json!(["Cy", "Di"]), "{after}");
}
