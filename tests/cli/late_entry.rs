//! Late and absent players: match losses for the rounds a late entrant missed (`event set late-entry`), and
//! a `no-show` result dropping the player who did not come.

use crate::harness::{Event, Seeded};
use serde_json::Value;

fn line<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["standings"]
        .as_array()
        .and_then(|a| a.iter().find(|l| l["name"] == name))
        .unwrap_or_else(|| panic!("{name} not in {doc}"))
}

fn close(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 1e-9)
}

/// Ann, Bo, Cy and Di play round 1; Late is added after it, takes the bye in round 2 and beats Ann in round 3.
fn late_event() -> Event {
    let ev = Event::new();
    ev.run(&["player", "add", "Ann", "Bo", "Cy", "Di"]).ok();
    ev.seed_played_rounds(&[&[("Ann", "Bo", "A"), ("Cy", "Di", "A")]]);
    let added = ev.run(&["player", "add", "Late"]).ok().to_string();
    assert!(added.contains("joining from round 2"), "{added}");
    let rounds: [&[Seeded]; 2] = [
        &[("Ann", "Cy", "A"), ("Bo", "Di", "A"), ("Late", "", "")],
        &[("Late", "Ann", "A"), ("Cy", "Bo", "A"), ("Di", "", "")],
    ];
    ev.seed_played_rounds(&rounds);
    ev
}

#[test]
fn a_late_entrant_loses_each_round_missed_in_standings_and_history() {
    let ev = late_event();
    let doc = ev.run(&["--json", "standings"]).json();
    let late = line(&doc, "Late");
    assert_eq!((late["wins"].as_u64(), late["losses"].as_u64(), late["byes"].as_u64()), (Some(2), Some(1), Some(1)));
    assert_eq!(late["late_losses"], 1);
    assert_eq!(late["points"], 6);
    // The missed round counts as played and lost: 6 points of 9, not 6 of 6.
    assert!(close(&late["mwp"], 2.0 / 3.0) && close(&late["gwp"], 2.0 / 3.0), "{late}");
    // It has no opponent: Late's OMW% is Ann's alone (2-1).
    assert!(close(&late["omwp"], 2.0 / 3.0), "{late}");
    // Ann's opponents' average takes Late at 2/3 (not the 1.0 of a 2-0 record).
    assert!(close(&line(&doc, "Ann")["omwp"], (1.0 / 3.0 + 2.0 / 3.0 + 2.0 / 3.0) / 3.0), "{doc}");
    let text = ev.run(&["standings"]).ok().to_string();
    let row = text.lines().find(|l| l.contains("Late")).unwrap_or_default();
    assert!(row.contains("2-1-0") && row.contains("entered late: 1 match loss"), "{text}");

    let history = ev.run(&["--json", "player", "history", "Late"]).json();
    assert_eq!(history["record"]["lost"], 1, "{history}");
    let missed = history["entries"].as_array().and_then(|e| e.iter().find(|e| e["reason"] == "late-entry"));
    let missed = missed.unwrap_or_else(|| panic!("no late-entry entry in {history}"));
    assert_eq!((missed["round"].as_u64(), missed["outcome"].as_str()), (Some(1), Some("lost")));
    let text = ev.run(&["player", "history", "Late"]).ok().to_string();
    assert!(text.contains("match loss: entered late (joined round 2), not paired in round 1"), "{text}");
}

#[test]
fn late_entry_none_gives_no_losses() {
    let ev = late_event();
    ev.run(&["event", "set", "late-entry", "none"]).ok();
    let doc = ev.run(&["--json", "standings"]).json();
    let late = line(&doc, "Late");
    assert_eq!((late["losses"].as_u64(), late["late_losses"].as_u64()), (Some(0), Some(0)));
    assert!(close(&late["mwp"], 1.0), "{late}");
    // Without the loss the late entrant's perfect record lifts them over Ann on GW%; with it, not.
    let rank = |d: &Value, n: &str| line(d, n)["rank"].as_u64();
    assert!(rank(&doc, "Late") < rank(&doc, "Ann").map(|r| r + 1), "{doc}");
    let history = ev.run(&["--json", "player", "history", "Late"]).json();
    assert_eq!(history["record"]["lost"], 0, "{history}");
    let msg = ev.refuses(&["event", "set", "late-entry", "sometimes"]);
    assert!(msg.contains("late-entry is one of loss, none"), "{msg}");
}

#[test]
fn a_no_show_result_drops_the_absent_player_until_undropped() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ann", "Bo", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ann", "Bo"), (2, "Cy", "Di")]);
    let out = ev.run(&["result", "1", "Ann", "--by", "no-show"]).ok().to_string();
    assert!(out.contains("Bo did not show and is dropped"), "{out}");
    assert!(out.contains("mmjudge player undrop \"Bo\""), "{out}");
    let list = ev.run(&["--json", "player", "list"]).json();
    let bo = list["players"].as_array().and_then(|a| a.iter().find(|p| p["name"] == "Bo")).cloned();
    assert_eq!(bo.map(|b| b["dropped_after"].clone()), Some(Value::from(1)), "{list}");
    // An ordinary result drops nobody; the JSON names the dropped player or null.
    let doc = ev.run(&["--json", "result", "2", "Cy", "--by", "life"]).json();
    assert_eq!(doc["dropped"], Value::Null);
    ev.run(&["player", "undrop", "Bo"]).ok();
    let list = ev.run(&["--json", "player", "list"]).json();
    assert!(!list.to_string().contains("dropped after"), "{list}");
    // Recorded as a fix too: the player who did not show is dropped.
    let fixed = ev.run(&["result", "fix", "2", "Cy", "--by", "no-show"]).ok().to_string();
    assert!(fixed.contains("Di did not show and is dropped"), "{fixed}");
}
