//! The standings from the server after a forced void of an earlier round's match-ending penalty: the void's
//! answer says what it changed, `/api/standings` and `/standings` keep the later standings (the reopened match
//! needs a result) and list apart the players who played nothing.

use super::{Req, Site};
use serde_json::json;

#[test]
fn a_forced_void_from_the_phone_says_what_it_moved_and_the_standings_stand() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let ev = &site.ev;
    // Gus entered for round 1 and dropped before it: he played nothing.
    ev.run(&["player", "add", "Gus"]).ok();
    ev.sql("UPDATE player SET joined_round = 1, dropped_after = 0 WHERE name = 'Gus';");
    let first = ev.run(&["--json", "penalty", "bo", "slow-play"]).json()["penalty"].as_i64().unwrap_or_default();
    assert_eq!(ev.run(&["--json", "penalty", "bo", "slow-play"]).json()["issued"], "game-loss");
    ev.finish_round(1);
    ev.seat_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Ed"), (3, "Di", "Fy")]);
    ev.finish_round(2);
    let body = json!({ "kind": "penalty", "id": first, "force": true });
    let a = site.send(Req::post("/api/void").json(body).by(&kim).header("Idempotency-Key", "v1"));
    assert_eq!(a.status, 200, "{}", a.body);
    let doc = a.json();
    assert_eq!(doc["standings_moved"], json!([1, 2]), "{doc}");
    assert_eq!((doc["reopened"][0]["round"].as_u64(), doc["reopened"][0]["table"].as_u64()), (Some(1), Some(1)));
    let summary = doc["summary"].as_str().unwrap_or_default();
    assert!(summary.contains("table 1 in round 1 is playing again"), "{summary}");
    assert!(summary.contains("the standings after rounds 1 and 2 change"), "{summary}");
    assert!(!super::names_a_command(summary), "{summary}");

    let api = site.send(Req::get("/api/standings"));
    assert_eq!(api.status, 200, "{}", api.body);
    let s = api.json();
    assert_eq!(s["round"], 2, "{s}");
    assert_eq!(s["needs_result"], json!([{ "round": 1, "table": 1, "players": ["Ana", "Bo"] }]), "{s}");
    let gus = &s["did_not_play"][0];
    assert_eq!((gus["name"].as_str(), gus["dropped"].as_bool()), (Some("Gus"), Some(true)), "{s}");
    assert!(gus["player_id"].as_u64().is_some(), "{s}");
    assert_eq!(s["standings"].as_array().map(Vec::len), Some(6), "{s}");

    let page = site.send(Req::get("/standings"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("<h1>Standings after round 2</h1>"), "{}", page.body);
    assert!(page.body.contains("Did not play, not ranked: Gus <small>(dropped)</small>."), "{}", page.body);
    let needs = "Round 1, table 1 (Ana v Bo) needs a result: not counted until one is recorded.";
    assert!(page.body.contains(needs), "{}", page.body);
}
