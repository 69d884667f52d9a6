//! A player's call for a judge across the round's end: `round end` names it, `call list` keeps it (a finished
//! table marked so) until a judge closes it or the next round is paired, which closes it and says so.

use crate::harness::Event;
use crate::serve::Server;
use serde_json::json;

#[test]
fn a_call_open_at_the_rounds_end_is_named_kept_listed_and_closed_by_the_next_pairing() {
    let ev = Event::playing();
    let pairings = ev.run(&["--json", "pairings"]).json().to_string();
    let codes = ev.run(&["--json", "player", "codes"]).json();
    let code_of = |name: &str| {
        codes["players"].as_array().and_then(|ps| ps.iter().find(|p| p["name"] == name)).expect("player")["code"]
            .clone()
    };
    let doc: serde_json::Value = serde_json::from_str(&pairings).expect("json");
    let players = doc["players"].as_array().expect("players").clone();
    let at = |table: u64| {
        players
            .iter()
            .find(|p| p["table"] == table && p["seat"] == "A")
            .and_then(|p| p["name"].as_str())
            .map(String::from)
    };
    let tables = players.iter().filter(|p| p["seat"] == "A").count();
    let caller = at(1).expect("a player at table 1");
    let server = Server::start(&ev);
    // Players at tables 1 and 2 call a judge; table 2's result is then recorded.
    for table in [1, 2] {
        let who = at(table).expect("a player");
        let call = server.post_json("/api/call", None, &json!({ "table": table, "code": code_of(&who) }));
        assert_eq!(call.status, 200, "{}", call.body);
    }
    ev.run(&["result", "2", "draw", "--by", "intentional-draw"]).ok();
    let listed = ev.run(&["--json", "call", "list"]).json();
    assert_eq!(listed["calls"][1]["finished"], true, "table 2's call stays, its table finished: {listed}");
    assert_eq!(listed["calls"][0]["finished"], false);
    assert!(ev.run(&["call", "list"]).ok().contains("2 (finished)"));
    // The round ends (not refused by the calls): the reply names them; they stay listed.
    let ended = ev.run(&["round", "end", "--force"]).ok().to_string();
    assert!(ended.contains("judge calls still open at tables 1, 2"), "{ended}");
    assert_eq!(ev.run(&["--json", "call", "list"]).json()["calls"].as_array().map(Vec::len), Some(2));
    assert!(ev.run(&["call", "list"]).ok().contains(&caller));
    // Every result in, the next pairing closes the calls left open and says so.
    for t in 1..=tables {
        if t != 2 {
            ev.run(&["result", &t.to_string(), "draw", "--by", "intentional-draw", "--round", "1"]).ok();
        }
    }
    let paired = ev.run(&["round", "pair"]).ok().to_string();
    assert!(paired.contains("closed 2 judge calls left open in round 1"), "{paired}");
    assert_eq!(ev.run(&["--json", "call", "list"]).json()["calls"], json!([]));
}
