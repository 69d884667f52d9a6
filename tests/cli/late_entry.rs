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
    ev.seat_started_round(1, &[(1, "Ann", "Bo"), (2, "Cy", "Di")]);
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

/// The names in a `--json standings` document, best first.
fn names(doc: &Value) -> Vec<String> {
    doc["standings"].as_array().into_iter().flatten().filter_map(|l| l["name"].as_str().map(String::from)).collect()
}

#[test]
fn a_late_entrant_appears_in_the_standings_of_a_round_from_the_round_they_joined() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ann", "Bo", "Cy", "Di"]).ok();
    ev.seed_played_rounds(&[&[("Ann", "Bo", "A"), ("Cy", "Di", "A")]]);
    let round_one = ev.run(&["--json", "standings", "--round", "1"]).json();
    let round_one_csv = ev.run(&["--csv", "standings", "--round", "1"]).ok().to_string();
    ev.run(&["player", "add", "Late"]).ok();
    let rounds: [&[Seeded]; 2] = [
        &[("Ann", "Cy", "A"), ("Bo", "Di", "A"), ("Late", "", "")],
        &[("Late", "Ann", "A"), ("Cy", "Bo", "A"), ("Di", "", "")],
    ];
    ev.seed_played_rounds(&rounds);

    // Round 1's standings are what they were before Late entered: same lines, same ranks, same bytes.
    assert_eq!(ev.run(&["--json", "standings", "--round", "1"]).json()["standings"], round_one["standings"]);
    assert_eq!(ev.run(&["--csv", "standings", "--round", "1"]).ok(), round_one_csv);
    assert!(!ev.run(&["standings", "--round", "1"]).ok().contains("Late "));
    // From round 2, the round Late joined, Late is listed with the match loss of round 1.
    let round_two = ev.run(&["--json", "standings", "--round", "2"]).json();
    assert_eq!(names(&round_two).len(), 5, "{round_two}");
    let late = line(&round_two, "Late");
    assert_eq!(
        (late["wins"].as_u64(), late["losses"].as_u64(), late["late_losses"].as_u64()),
        (Some(1), Some(1), Some(1))
    );
    let csv = ev.run(&["--csv", "standings", "--round", "2"]).ok().to_string();
    assert!(csv.contains(",Late,1-1-0,") && csv.contains("entered late: 1 match loss"), "{csv}");
    // The current standings list every player in the event, as before.
    assert_eq!(names(&ev.run(&["--json", "standings"]).json()).len(), 5);

    // The site's round pages agree: round 1 without Late, round 2 with.
    ev.run(&["site", "out"]).ok();
    let page = |n: u32| std::fs::read_to_string(ev.path(&format!("out/round-{n}-standings.html"))).expect("page");
    let listed = |page: &str, name: &str| page.contains(&format!("class=\"player\">{name}"));
    assert!(!listed(&page(1), "Late") && listed(&page(1), "Ann"), "{}", page(1));
    assert!(listed(&page(2), "Late") && page(2).contains("entered late: 1 match loss"), "{}", page(2));
    // Round 2's pairings still give Late's points before the round (none yet).
    let pairings = std::fs::read_to_string(ev.path("out/round-2-pairings-by-name.html")).expect("page");
    let row = pairings.split("<tr").find(|r| r.contains(">Late<")).unwrap_or_default();
    assert!(row.contains("<td class=\"num\">0</td>"), "{row}");

    // And so does the server, for a round and now.
    let server = crate::serve::Server::start(&ev);
    assert_eq!(server.get("/api/standings?round=1").json()["standings"], round_one["standings"]);
    assert_eq!(server.get("/api/standings?round=2").json(), round_two);
    let page_one = server.get("/standings?round=1").body;
    assert!(!listed(&page_one, "Late") && listed(&page_one, "Ann"), "{page_one}");
    assert!(listed(&server.get("/standings").body, "Late"));
}

/// Bo's status in `player list --json`: the round after which they dropped, or null.
fn dropped_after(ev: &Event, name: &str) -> Value {
    let list = ev.run(&["--json", "player", "list"]).json();
    let p = list["players"].as_array().and_then(|a| a.iter().find(|p| p["name"] == name)).cloned();
    p.map(|p| p["dropped_after"].clone()).unwrap_or_else(|| panic!("{name} not in {list}"))
}

#[test]
fn fixing_or_clearing_a_no_show_takes_back_the_drop_it_made() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ann", "Bo", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ann", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["result", "1", "Ann", "--by", "no-show"]).ok();
    assert_eq!(dropped_after(&ev, "Bo"), Value::from(1));
    // Fixed to a result where Bo played: the drop goes in the same write, and the reply says so.
    let fixed = ev.run(&["result", "fix", "1", "Bo", "--by", "concession"]).ok().to_string();
    assert!(fixed.contains("now Bo beat Ann by concession; Bo is no longer dropped"), "{fixed}");
    assert_eq!(dropped_after(&ev, "Bo"), Value::Null);
    // Fixed back to a no-show, then to the other player's no-show: each absent player in turn.
    ev.run(&["result", "fix", "1", "Ann", "--by", "no-show"]).ok();
    let doc = ev.run(&["--json", "result", "fix", "1", "Bo", "--by", "no-show"]).json();
    assert_eq!((doc["undropped"].as_str(), doc["dropped"].as_str()), (Some("Bo"), Some("Ann")), "{doc}");
    assert_eq!((dropped_after(&ev, "Bo"), dropped_after(&ev, "Ann")), (Value::Null, Value::from(1)));
    // Cleared: the match plays again and Ann is back in.
    let cleared = ev.run(&["result", "clear", "1"]).ok().to_string();
    assert!(cleared.contains("Ann is no longer dropped"), "{cleared}");
    assert_eq!(dropped_after(&ev, "Ann"), Value::Null);
    // A result that did not drop anybody clears without a word about drops.
    ev.run(&["result", "2", "Cy", "--by", "concession"]).ok();
    let doc = ev.run(&["--json", "result", "clear", "2"]).json();
    assert_eq!(doc["undropped"], Value::Null, "{doc}");
}

#[test]
fn a_drop_made_apart_from_the_no_show_stays_when_the_result_is_fixed() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ann", "Bo", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ann", "Bo"), (2, "Cy", "Di")]);
    // Dropped before the no-show was recorded: the result dropped nobody.
    ev.run(&["player", "drop", "Bo"]).ok();
    ev.run(&["result", "1", "Ann", "--by", "no-show"]).ok();
    let fixed = ev.run(&["result", "fix", "1", "Bo", "--by", "concession"]).ok().to_string();
    assert!(!fixed.contains("no longer dropped"), "{fixed}");
    assert_eq!(dropped_after(&ev, "Bo"), Value::from(1));
    // Dropped by the no-show, undropped, then dropped by the judge: that drop is the judge's, and stays.
    ev.run(&["result", "2", "Cy", "--by", "no-show"]).ok();
    ev.run(&["player", "undrop", "Di"]).ok();
    ev.run(&["player", "drop", "Di"]).ok();
    let cleared = ev.run(&["result", "clear", "2"]).ok().to_string();
    assert!(!cleared.contains("no longer dropped"), "{cleared}");
    assert_eq!(dropped_after(&ev, "Di"), Value::from(1));
}

#[test]
fn a_no_show_drop_is_not_taken_back_once_a_later_round_left_the_player_out() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ann", "Bo", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ann", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["result", "1", "Ann", "--by", "no-show"]).ok();
    ev.run(&["result", "2", "Cy", "--by", "concession"]).ok();
    ev.seat_round(2, &[(1, "Ann", "Cy")]);
    ev.bye(2, "Di");
    let want = "Bo was dropped by this no-show result and left out of round 2: take it back first \
                (`mmjudge round unpair`), then";
    for (args, then) in [
        (&["result", "fix", "1", "Bo", "--by", "concession", "--round", "1", "--force"][..], "fix the result again"),
        (&["result", "clear", "1", "--round", "1", "--force"][..], "clear the result again"),
    ] {
        let msg = ev.refuses(args);
        assert_eq!(msg.trim_end(), format!("error: {want} {then}"), "{args:?}");
    }
    assert_eq!(dropped_after(&ev, "Bo"), Value::from(1));
    // Another no-show of Bo keeps the drop, so it is not refused.
    let fixed = ev.run(&["result", "fix", "1", "Ann", "--by", "no-show", "--note", "late", "--round", "1", "--force"]);
    assert!(!fixed.ok().contains("no longer dropped"));
}

#[test]
fn a_no_show_fixed_over_http_takes_back_its_drop_too() {
    use crate::serve::{Server, judge};
    let ev = Event::new();
    ev.run(&["player", "add", "Ann", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ann", "Bo")]);
    ev.run(&["result", "1", "Ann", "--by", "no-show"]).ok();
    let head = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let kim = server.login("Kim", &head);
    let body = serde_json::json!({ "table": 1, "winner": "Bo", "by": "concession" });
    let fixed = server.post_json("/api/result/fix", Some(&kim), &body);
    assert_eq!(fixed.status, 200, "{}", fixed.body);
    let doc = fixed.json();
    assert_eq!(doc["undropped"], "Bo", "{doc}");
    assert!(doc["summary"].as_str().is_some_and(|s| s.contains("Bo is no longer dropped")), "{doc}");
    assert_eq!(dropped_after(&ev, "Bo"), Value::Null);
}
