//! `round pair`, `round unpair`, `round swap` and `pairings`.

use crate::harness::Event;
use mmjudge::domain::movement::{Game, Guarantee, MovementKind, Round, guarantees_of, validate};
use serde_json::Value;

/// Every round of the event from the database, players as indices (id - 1).
pub fn rounds_of(ev: &Event) -> Vec<Round> {
    let conn = rusqlite::Connection::open(ev.db()).expect("open db");
    let mut stmt =
        conn.prepare("SELECT round, table_no, a_player, b_player FROM match ORDER BY round, table_no").expect("sql");
    let rows = stmt
        .query_map([], |r| {
            Ok((r.get::<_, u32>(0)?, r.get::<_, Option<u32>>(1)?, r.get::<_, i64>(2)?, r.get::<_, Option<i64>>(3)?))
        })
        .expect("query");
    let mut rounds: Vec<Round> = Vec::new();
    for row in rows {
        let (n, table, a, b) = row.expect("row");
        while rounds.len() < n as usize {
            rounds.push(Round::default());
        }
        let r = &mut rounds[n as usize - 1];
        match (table, b) {
            (Some(table), Some(b)) => r.games.push(Game { table, a: a as usize - 1, b: b as usize - 1 }),
            _ => r.byes.push(a as usize - 1),
        }
    }
    rounds
}

fn pairings(ev: &Event, round: Option<u32>) -> Value {
    let n = round.map(|r| r.to_string());
    let mut args = vec!["--json", "pairings"];
    if let Some(n) = &n {
        args.extend(["--round", n.as_str()]);
    }
    ev.run(&args).json()
}

fn fixed_event(players: usize, tables: u32, rounds: u32) -> Event {
    let ev = Event::new();
    ev.run(&["event", "set", "rounds", &rounds.to_string()]).ok();
    ev.add_players(players);
    ev.fake_libraries(tables);
    ev
}

#[test]
fn a_fixed_event_follows_its_plan_and_tells_players_where_to_go_next() {
    let ev = fixed_event(16, 8, 4);
    let out = ev.run(&["round", "pair"]).ok().to_string();
    assert!(out.contains("square movement") && out.contains("why: Square movement on 8 tables"), "{out}");
    for round in 1..=4u32 {
        let doc = pairings(&ev, None);
        assert_eq!(doc["round"], round);
        assert_eq!(doc["movement"], "square");
        assert_eq!(doc["tables"].as_array().map(Vec::len), Some(8));
        assert_eq!(doc["tables"][2]["a"]["library"], "3A");
        let next: Vec<Value> = doc["players"].as_array().unwrap().iter().map(|p| p["next"].clone()).collect();
        assert_eq!(next.iter().all(Value::is_null), round == 4, "round {round}: {next:?}");
        ev.finish_round(round);
        if round < 4 {
            ev.run(&["round", "pair"]).ok();
            let now = pairings(&ev, None);
            for (before, after) in doc["players"].as_array().unwrap().iter().zip(now["players"].as_array().unwrap()) {
                assert_eq!(before["name"], after["name"]);
                assert_eq!(before["next"]["table"], after["table"], "{}", before["name"]);
                assert_eq!(before["next"]["seat"], after["seat"]);
            }
        }
    }
    let rounds = rounds_of(&ev);
    let promised = guarantees_of(MovementKind::Square, 8, 4, 16);
    assert!(promised.contains(&Guarantee::NoTableRevisit));
    assert_eq!(validate(16, &rounds, &promised), vec![]);
    let msg = ev.refuses(&["round", "pair"]);
    assert!(msg.contains("all 4 rounds") && msg.contains("event set rounds 5"), "{msg}");
}

#[test]
fn pairing_is_refused_while_results_are_missing() {
    let ev = fixed_event(8, 4, 3);
    ev.run(&["round", "pair"]).ok();
    ev.sql("UPDATE match SET result = 'A', reason = 'life' WHERE table_no IN (1, 3);");
    let msg = ev.refuses(&["round", "pair"]);
    assert!(msg.contains("round 1 is still being played") && msg.contains("tables 2, 4"), "{msg}");
    ev.run(&["round", "start", "--at", "2026-05-01T10:00:00Z"]).ok();
    ev.run(&["round", "end", "--force", "--at", "2026-05-01T10:55:00Z"]).ok();
    let time = ev.run(&["time"]).stdout;
    let msg = ev.refuses(&["round", "pair"]);
    assert!(!msg.contains("still being played"), "a round closed is not played any more: {msg} / {time}");
    assert!(msg.contains("round 1 was closed at") && msg.contains("tables 2, 4 have no result"), "{msg}");
}

#[test]
fn pairing_refuses_a_field_or_room_that_cannot_play() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana"]).ok();
    ev.fake_libraries(2);
    let msg = ev.refuses(&["round", "pair"]);
    assert!(msg.contains("at least 2 active players"), "{msg}");
    let ev = Event::new();
    ev.add_players(6);
    let msg = ev.refuses(&["round", "pair"]);
    assert!(msg.contains("no libraries are built") && msg.contains("library build --tables 3"), "{msg}");
    ev.fake_libraries(2);
    let msg = ev.refuses(&["round", "pair"]);
    assert!(msg.contains("need 3 tables") && msg.contains("library build --tables 3"), "{msg}");
}

#[test]
fn square_is_refused_for_two_and_six_tables_with_a_suggestion() {
    for (players, tables) in [(12usize, 6u32), (4, 2)] {
        let ev = fixed_event(players, tables, 3);
        ev.run(&["event", "set", "movement", "square"]).ok();
        let msg = ev.refuses(&["round", "pair"]);
        assert!(msg.contains("orthogonal Latin squares") && msg.contains("event set movement mitchell"), "{msg}");
    }
    let ev = Event::new();
    let msg = ev.refuses(&["event", "set", "movement", "bridge"]);
    assert!(msg.contains("auto, mitchell, square, howell, swiss"), "{msg}");
}

#[test]
fn rounds_past_the_movement_limit_need_allow() {
    let ev = fixed_event(8, 4, 5);
    let out = ev.run(&["round", "pair"]).ok().to_string();
    assert!(out.contains("note: the square movement keeps every opponent and library new for 4 rounds"), "{out}");
    for round in 1..=4 {
        ev.finish_round(round);
        if round < 4 {
            ev.run(&["round", "pair"]).ok();
        }
    }
    let msg = ev.refuses(&["round", "pair"]);
    assert!(msg.contains("at most 4 rounds") && msg.contains("round pair --allow"), "{msg}");
    let doc = ev.run(&["--json", "round", "pair", "--allow"]).json();
    assert_eq!(doc["round"], 5);
    assert!(doc["allowed"].as_array().is_some_and(|a| a.iter().any(|w| w.as_str().unwrap().contains("again"))));
}

#[test]
fn unpair_takes_back_a_round_without_results_only() {
    let ev = fixed_event(7, 3, 3);
    assert!(ev.refuses(&["round", "unpair"]).contains("no round has been paired"));
    ev.run(&["round", "pair"]).ok();
    let first = pairings(&ev, None);
    assert_eq!(first["movement"], "howell");
    assert_eq!(first["players"][6]["bye"], true, "byes last: {first}");
    // The bye's result does not count: the round can be taken back and paired the same way again.
    ev.run(&["round", "unpair"]).ok();
    assert!(ev.refuses(&["pairings"]).contains("no round has been paired"));
    ev.run(&["round", "pair"]).ok();
    assert_eq!(pairings(&ev, None), first);
    ev.sql("UPDATE match SET result = 'B', reason = 'life' WHERE table_no = 2;");
    let msg = ev.refuses(&["round", "unpair"]);
    assert!(msg.contains("already has results (table 2)"), "{msg}");
}

#[test]
fn swap_exchanges_seats_and_warns_of_a_rematch() {
    let ev = fixed_event(9, 5, 4);
    ev.run(&["round", "pair"]).ok();
    ev.finish_round(1);
    ev.run(&["round", "pair"]).ok();
    let r1 = pairings(&ev, Some(1));
    let doc = pairings(&ev, None);
    let players = doc["players"].as_array().unwrap();
    // X's round-1 opponent Y, and X's round-2 opponent Z: swapping Y and Z makes X meet Y again.
    let seated = |name: &str| players.iter().find(|p| p["name"] == name && p["bye"] == false);
    let (x, y) = players
        .iter()
        .filter(|p| p["bye"] == false)
        .find_map(|x| r1_opponent(&r1, &x["name"]).filter(|y| seated(y).is_some()).map(|y| (x, y)))
        .unwrap();
    let z = x["opponent"].as_str().unwrap().to_string();
    let out = ev.run(&["round", "swap", &y, &z]).ok().to_string();
    assert!(out.contains(&format!("swapped {y} (now table {}", x["table"])), "{out}");
    assert!(out.contains("warning:") && out.contains("again"), "{out}");
    let log = ev.run(&["log"]).ok().to_string();
    assert!(log.contains("swapped"), "{log}");
}

fn r1_opponent(r1: &Value, name: &Value) -> Option<String> {
    let p = r1["players"].as_array()?.iter().find(|p| &p["name"] == name)?;
    p["opponent"].as_str().map(String::from)
}

#[test]
fn swap_refuses_oneself_a_bye_an_absent_player_and_a_decided_table() {
    let ev = fixed_event(5, 2, 3);
    ev.run(&["player", "add", "Zed"]).ok();
    ev.run(&["player", "drop", "Zed"]).ok();
    ev.run(&["round", "pair"]).ok();
    let doc = pairings(&ev, None);
    let bye = doc["players"][4]["name"].as_str().unwrap().to_string();
    let (a, b) = (doc["tables"][0]["a"]["name"].as_str().unwrap(), doc["tables"][1]["b"]["name"].as_str().unwrap());
    assert!(ev.refuses(&["round", "swap", a, a]).contains("name two different players"));
    assert!(ev.refuses(&["round", "swap", a, &bye]).contains("has the bye in round 1, which has no seat to swap"));
    assert!(ev.refuses(&["round", "swap", "Zed", a]).contains("Zed is not paired in round 1"));
    ev.sql("UPDATE match SET result = 'A', reason = 'life' WHERE table_no = 1;");
    assert!(
        ev.refuses(&["round", "swap", a, b])
            .contains("table 1 in round 1 already has a result: take it back with `mmjudge result clear 1`")
    );
}

#[test]
fn sealed_events_pair_by_score_with_the_players_own_libraries() {
    let ev = Event::new();
    ev.run(&["event", "set", "libraries", "sealed"]).ok();
    ev.add_players(5);
    ev.sql("INSERT INTO library (player_id) VALUES (1), (2);");
    let msg = ev.refuses(&["round", "pair"]);
    assert!(msg.contains("Player 03, Player 04, Player 05 have none registered"), "{msg}");
    ev.fake_sealed_libraries();
    let out = ev.run(&["round", "pair"]).ok().to_string();
    assert!(out.contains("swiss") && out.contains("sealed libraries travel"), "{out}");
    let doc = pairings(&ev, None);
    let tables: Vec<u64> = doc["tables"].as_array().unwrap().iter().filter_map(|t| t["table"].as_u64()).collect();
    assert_eq!(tables, [1, 2]);
    assert!(doc["tables"][0]["a"]["library"].as_str().unwrap().starts_with("sealed #"));
    assert!(doc["players"].as_array().unwrap().iter().all(|p| p["next"].is_null()));
    // Sealed libraries travel with their players, through a swap too (library i belongs to player i).
    let (a, b) = (doc["tables"][0]["a"]["name"].as_str().unwrap(), doc["tables"][1]["b"]["name"].as_str().unwrap());
    ev.run(&["round", "swap", a, b]).ok();
    let doc = pairings(&ev, None);
    assert_eq!(doc["tables"][0]["a"]["name"], b);
    for p in doc["players"].as_array().unwrap().iter().filter(|p| p["bye"] == false) {
        assert_eq!(p["library"], format!("sealed #{}", p["id"]), "{p}");
    }
}

#[test]
fn pairings_print_both_ways_as_csv_and_as_printable_pages() {
    let ev = fixed_event(7, 3, 3);
    assert!(ev.refuses(&["pairings"]).contains("no round has been paired"));
    ev.run(&["round", "pair"]).ok();
    let text = ev.run(&["pairings"]).ok().to_string();
    assert!(text.contains("by table") && text.contains("by player") && text.contains("bye (a win, 3 points)"));
    assert!(text.contains("table ") && text.contains(", seat "), "{text}");
    let csv = ev.run(&["--csv", "pairings"]).ok().to_string();
    assert!(csv.starts_with("player,table,seat,library,opponent,next\n"), "{csv}");
    assert!(csv.trim_end().lines().last().unwrap().contains(",bye,"), "byes last: {csv}");
    let csv = ev.run(&["--csv", "pairings", "--by", "table"]).ok().to_string();
    assert!(csv.starts_with("table,seat A,library,seat B,library,result\n1,"), "{csv}");
    let file = ev.path("pairings.html");
    let out = ev.run(&["pairings", "--html", &file.to_string_lossy()]).ok().to_string();
    assert!(out.contains("wrote"));
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.contains("@media print") && html.contains("pairings by player") && html.contains("next: table"));
    assert!(ev.refuses(&["pairings", "--round", "2"]).contains("round 2 has not been paired"));
}
