//! Check-in: `event set check-in on`, `player check-in NAME`, `player list` showing who has not checked in, and
//! round 1 refused until everyone has (or `round pair --drop-absent`).

use crate::harness::{Event, example};
use serde_json::Value;

/// The bundled reference, pool, 16 players and libraries for 8 tables; nothing paired; check-in on.
fn before_round_one() -> Event {
    Event::cached("check_in::before_round_one", || {
        let ev = Event::with_pool();
        ev.run(&["player", "import", &example("players.csv")]).ok();
        ev.run(&["library", "build", "--tables", "8"]).ok();
        ev.run(&["event", "set", "check-in", "on"]).ok();
        ev
    })
}

fn names(ev: &Event) -> Vec<String> {
    let doc = ev.run(&["--json", "player", "list"]).json();
    doc["players"].as_array().into_iter().flatten().filter_map(|p| p["name"].as_str().map(String::from)).collect()
}

fn player(ev: &Event, name: &str) -> Value {
    let doc = ev.run(&["--json", "player", "list"]).json();
    doc["players"].as_array().and_then(|a| a.iter().find(|p| p["name"] == name).cloned()).unwrap_or(Value::Null)
}

#[test]
fn round_one_waits_for_everyone_to_check_in_naming_who_has_not() {
    let ev = before_round_one();
    let all = names(&ev);
    assert_eq!(player(&ev, &all[0])["checked_in"], false);
    let msg = ev.refuses(&["round", "pair"]);
    assert!(msg.starts_with("error: round 1 cannot be paired: 16 players have not checked in (Zoë Lambert, "), "{msg}");
    assert!(msg.contains("and 4 more)"), "{msg}");
    assert!(msg.contains("`mmjudge player check-in NAME`"), "{msg}");
    assert!(msg.contains("`mmjudge round pair --drop-absent`"), "{msg}");
    assert!(msg.contains("`mmjudge event set check-in off`"), "{msg}");
    for name in &all[1..] {
        ev.run(&["player", "check-in", name]).ok();
    }
    let msg = ev.refuses(&["player", "check-in", &all[1]]);
    assert!(msg.contains("already checked in at"), "{msg}");
    let list = ev.run(&["player", "list"]).ok().to_string();
    assert!(list.contains("checked in"), "{list}");
    assert!(list.contains("not checked in yet: Zoë Lambert"), "{list}");
    let msg = ev.refuses(&["round", "pair"]);
    assert!(
        msg.contains(
            "1 player has not checked in (Zoë Lambert): check them in with `mmjudge player check-in \"Zoë Lambert\"`"
        ),
        "{msg}"
    );
    let out = ev.run(&["player", "check-in", "zoë"]).ok().to_string();
    assert_eq!(out.trim(), "checked Zoë Lambert in; everyone has checked in");
    ev.run(&["round", "pair"]).ok();
    // Check-in is over once round 1 is paired; a player added now counts as checked in.
    assert!(ev.refuses(&["player", "check-in", &all[0]]).contains("check-in is over"));
    ev.run(&["player", "add", "Late Comer"]).ok();
    assert_eq!(player(&ev, "Late Comer")["checked_in"], true);
}

#[test]
fn drop_absent_pairs_those_present_and_undrop_takes_it_back() {
    let ev = before_round_one();
    let all = names(&ev);
    for name in &all[2..] {
        ev.run(&["player", "check-in", name]).ok();
    }
    let out = ev.run(&["round", "pair", "--drop-absent"]).ok().to_string();
    assert!(out.contains(&format!("dropped as not arrived: {}, {}", all[0], all[1])), "{out}");
    let gone = player(&ev, &all[0]);
    assert_eq!(
        (gone["dropped_after"].as_u64(), gone["drop_reason"].as_str()),
        (Some(0), Some("not-arrived")),
        "{gone}"
    );
    assert_eq!(gone["status"], "dropped before round 1 (not arrived)");
    let doc = ev.run(&["--json", "pairings"]).json().to_string();
    assert!(!doc.contains(&all[0]), "{doc}");
    ev.run(&["player", "undrop", &all[0]]).ok();
    let back = player(&ev, &all[0]);
    assert_eq!((back["dropped_after"].clone(), back["drop_reason"].clone()), (Value::Null, Value::Null));
    assert_eq!(back["checked_in"], true, "arriving once round 1 is paired is arriving: {back}");
    ev.finish_round(1);
    let msg = ev.refuses(&["round", "pair", "--drop-absent"]);
    assert!(msg.contains("those absent are dropped only when round 1 is paired; this is round 2"), "{msg}");
    assert!(msg.contains("`mmjudge round pair`"), "{msg}");
}

#[test]
fn check_in_refusals_leave_the_event_unchanged() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    let msg = ev.refuses(&["player", "check-in", "ana"]);
    assert_eq!(
        msg.trim_end(),
        "error: check-in is off for this event: turn it on with `mmjudge event set check-in on`"
    );
    let msg = ev.refuses(&["round", "pair", "--drop-absent"]);
    assert!(msg.contains("check-in is off"), "{msg}");
    ev.run(&["event", "set", "check-in", "on"]).ok();
    ev.run(&["player", "drop", "bo"]).ok();
    assert!(ev.refuses(&["player", "check-in", "bo"]).contains("`mmjudge player undrop Bo`"));
    let msg = ev.refuses(&["player", "check-in", "cy"]);
    assert!(msg.contains("\"cy\""), "{msg}");
    let doc = ev.run(&["--json", "player", "list"]).json();
    assert_eq!(doc["players"][1]["drop_reason"], "judge");
    assert_eq!(doc["players"][0]["drop_reason"], Value::Null);
}
