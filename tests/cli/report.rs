//! `report libraries` and `report players`: duplicate scoring of the fixed libraries.

use crate::harness::{Event, Seeded};
use serde_json::Value;

fn event_with(players: &[&str]) -> Event {
    let ev = Event::new();
    let mut args = vec!["player", "add"];
    args.extend_from_slice(players);
    ev.run(&args).ok();
    ev
}

fn close(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 1e-9)
}

/// Six rounds at table 1 between twelve players; library 1A's user wins `a_wins` of them.
fn six_games(a_wins: usize) -> Event {
    let names: Vec<String> = (1..=12).map(|i| format!("P{i:02}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let ev = event_with(&refs);
    let rounds: Vec<[Seeded; 1]> =
        (0..6).map(|r| [(refs[2 * r], refs[2 * r + 1], if r < a_wins { "A" } else { "B" })]).collect();
    let rounds: Vec<&[Seeded]> = rounds.iter().map(|r| r.as_slice()).collect();
    ev.seed_played_rounds(&rounds);
    ev
}

#[test]
fn six_nil_is_flagged_lopsided_and_five_one_is_not() {
    let ev = six_games(6);
    let doc = ev.run(&["--json", "report", "libraries"]).json();
    let t = &doc["tables"][0];
    assert_eq!((t["library_a"].as_str(), t["a_wins"].as_u64(), t["b_wins"].as_u64()), (Some("1A"), Some(6), Some(0)));
    assert!(close(&t["p_value"], 0.03125) && t["lopsided"] == true, "{t}");
    let a = &doc["libraries"][0];
    assert_eq!((a["library"].as_str(), a["games"].as_u64()), (Some("1A"), Some(6)));
    assert!(close(&a["win_rate"], 1.0));
    assert_eq!(doc["games"], 6);
    let text = ev.run(&["report", "libraries"]).ok().to_string();
    assert!(
        text.lines().any(|l| l.contains("1A") && l.contains("6-0-0") && l.contains("0.031") && l.contains("lopsided"))
    );
    let csv = ev.run(&["--csv", "report", "libraries"]).ok().to_string();
    assert!(
        csv.starts_with(
            "table,A,B,A-B-draws,A win rate,B win rate,p-value,flag\n1,1A,1B,6-0-0,1.000,0.000,0.031,lopsided\n"
        ),
        "{csv}"
    );

    let ev = six_games(5);
    let t = &ev.run(&["--json", "report", "libraries"]).json()["tables"][0];
    assert!(close(&t["p_value"], 0.21875) && t["lopsided"] == false, "{t}");
}

/// Table 1: P0 beats P1, P3 (seat B) beats P2, P4 draws P5; table 2: P6 beats P7 (its libraries used once).
fn hand_made() -> Event {
    let ev = event_with(&["P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7"]);
    ev.seed_played_rounds(&[&[("P0", "P1", "A"), ("P6", "P7", "A")], &[("P2", "P3", "B")], &[("P4", "P5", "draw")]]);
    ev
}

#[test]
fn players_are_scored_against_the_other_users_of_their_library() {
    let ev = hand_made();
    let doc = ev.run(&["--json", "report", "players"]).json();
    let players = doc["players"].as_array().cloned().unwrap_or_default();
    let of = |name: &str| players.iter().find(|p| p["name"] == name).cloned().unwrap_or_default();
    // (player, par of their one game, wins above par)
    for (name, par, above) in [
        ("P0", Some(0.25), 0.75), // 1A: the others scored 0 and 0.5
        ("P1", Some(0.75), -0.75),
        ("P2", Some(0.75), -0.75),
        ("P3", Some(0.25), 0.75),
        ("P4", Some(0.5), 0.0),
        ("P6", None, 0.0), // library 2A used once: no par
    ] {
        let p = of(name);
        let game = &p["games"][0];
        match par {
            Some(x) => assert!(close(&game["par"], x), "{name}: {p}"),
            None => assert!(game["par"].is_null(), "{name}: {p}"),
        }
        assert!(close(&p["above_par"], above), "{name}: {p}");
    }
    assert_eq!(of("P0")["games"][0]["library"], "1A");
    assert_eq!(of("P3")["games"][0]["library"], "1B");
    assert_eq!(of("P3")["games"][0]["opponent"], "P2");
    assert!(close(&of("P0")["matchpoint_pct"], 0.875));
    let first: Vec<&str> = players.iter().take(2).filter_map(|p| p["name"].as_str()).collect();
    assert_eq!(first, ["P0", "P3"], "best above par first");

    let one = ev.run(&["report", "players", "p3"]).ok().to_string();
    assert!(one.contains("P3: +0.750 above par"), "{one}");
    assert!(
        one.lines().any(|l| l.contains("1B") && l.contains("P2") && l.contains("won") && l.contains("0.250")),
        "{one}"
    );
    let csv = ev.run(&["--csv", "report", "players"]).ok().to_string();
    assert!(csv.starts_with("player,round,library,opponent,result,par,above par\n"), "{csv}");
    assert!(csv.contains("\nP0,1,1A,P1,won,0.250,+0.750\n"), "{csv}");
    assert!(csv.contains("\nP6,1,2A,P7,won,-,-\n"), "{csv}");
}

#[test]
fn refuses_sealed_events_and_unknown_players() {
    let ev = hand_made();
    assert!(ev.refuses(&["report", "players", "Nobody"]).contains("unknown player"));
    // The mode is locked once round 1 is paired: make this a sealed event directly.
    ev.sql("INSERT OR REPLACE INTO setting (key, value) VALUES ('libraries', 'sealed');");
    assert!(ev.refuses(&["report", "libraries"]).contains("sealed"));
    assert!(ev.refuses(&["report", "players"]).contains("sealed"));
}

#[test]
fn reports_leave_out_results_that_are_not_games_played_and_say_how_many() {
    let ev = six_games(6);
    ev.sql(
        "UPDATE match SET reason = 'no-show' WHERE round = 2; \
         UPDATE match SET reason = 'penalty' WHERE round = 3; \
         UPDATE match SET result = 'draw', reason = 'intentional-draw' WHERE round = 4;",
    );
    ev.bye(6, "P01");
    let doc = ev.run(&["--json", "report", "libraries"]).json();
    assert_eq!((doc["games"].as_u64(), doc["not_games"].as_u64()), (Some(3), Some(4)), "{doc}");
    let by = &doc["not_games_by_reason"];
    assert_eq!((by["bye"].as_u64(), by["no-show"].as_u64(), by["penalty"].as_u64()), (Some(1), Some(1), Some(1)));
    assert_eq!(by["intentional-draw"], 1);
    assert_eq!(doc["tables"][0]["a_wins"], 3, "{doc}");
    let text = ev.run(&["report", "libraries"]).ok().to_string();
    let want = "4 results left out, not games played: 1 bye, 1 intentional draw, 1 no-show, 1 penalty result";
    assert!(text.contains(want), "{text}");
    let players = ev.run(&["--json", "report", "players"]).json();
    assert_eq!(players["not_games"], 4, "{players}");
    let p03 = players["players"].as_array().and_then(|a| a.iter().find(|p| p["name"] == "P03")).cloned();
    assert!(p03.is_none(), "P03's no-show win is not a game: {players}");
    assert!(ev.run(&["report", "players"]).ok().contains(want));
}
