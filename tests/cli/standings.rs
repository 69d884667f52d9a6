//! `standings`: hand-computed cases from Magic's tournament rules, through the binary.

use crate::harness::{Event, Seeded};
use serde_json::Value;

/// An event with these players.
fn event_with(players: &[&str]) -> Event {
    let ev = Event::new();
    let mut args = vec!["player", "add"];
    args.extend_from_slice(players);
    ev.run(&args).ok();
    ev
}

fn standings(ev: &Event, extra: &[&str]) -> Value {
    let mut args = vec!["--json", "standings"];
    args.extend_from_slice(extra);
    ev.run(&args).json()
}

/// The line of a player.
fn line<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["standings"]
        .as_array()
        .and_then(|a| a.iter().find(|l| l["name"] == name))
        .unwrap_or_else(|| panic!("{name} not in {doc}"))
}

fn close(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 1e-9)
}

/// (name, rank) in order.
fn order(doc: &Value) -> Vec<(String, u64)> {
    doc["standings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|l| (l["name"].as_str().unwrap_or_default().to_string(), l["rank"].as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn five_two_one_record_is_sixteen_of_twenty_four() {
    let ev = event_with(&["Five", "O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8"]);
    let results = ["A", "A", "A", "A", "A", "B", "B", "draw"];
    let opponents = ["O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8"];
    let rounds: Vec<[Seeded; 1]> = opponents.iter().zip(results).map(|(o, r)| [("Five", *o, r)]).collect();
    let rounds: Vec<&[Seeded]> = rounds.iter().map(|r| r.as_slice()).collect();
    ev.seed_played_rounds(&rounds);
    let doc = standings(&ev, &[]);
    assert_eq!(doc["round"], 8);
    let five = line(&doc, "Five");
    assert_eq!((five["wins"].as_u64(), five["losses"].as_u64(), five["draws"].as_u64()), (Some(5), Some(2), Some(1)));
    assert_eq!(five["points"], 16);
    assert!(close(&five["gwp"], 16.0 / 24.0) && close(&five["mwp"], 16.0 / 24.0), "{five}");
    let text = ev.run(&["standings"]).ok().to_string();
    let row = text.lines().find(|l| l.contains("Five")).unwrap_or_default();
    assert!(row.contains("5-2-1") && row.contains("66.67 %"), "{text}");
    let csv = ev.run(&["--csv", "standings"]).ok().to_string();
    let row = csv.lines().find(|l| l.contains("Five")).unwrap_or_default();
    assert!(row.contains("0.667") && !row.contains('%'), "CSV keeps the fraction: {csv}");
}

#[test]
fn dropped_one_three_counts_as_a_third_for_opponents() {
    let ev = event_with(&["Drop", "Only", "X", "Y"]);
    ev.seed_played_rounds(&[
        &[("Drop", "X", "A")],
        &[("Drop", "Y", "B")],
        &[("X", "Drop", "A")],
        &[("Only", "Drop", "A")],
    ]);
    ev.run(&["player", "drop", "Drop"]).ok();
    let doc = standings(&ev, &[]);
    let dropped = line(&doc, "Drop");
    assert_eq!(dropped["dropped"], true);
    assert!(close(&dropped["gwp"], 1.0 / 3.0), "1-3 is 0.25, raised to 1/3: {dropped}");
    assert!(close(&line(&doc, "Only")["omwp"], 1.0 / 3.0));
    let text = ev.run(&["standings"]).ok().to_string();
    assert!(text.lines().any(|l| l.contains("Drop") && l.contains("dropped")), "{text}");
    assert_eq!(line(&standings(&ev, &["--round", "3"]), "Drop")["dropped"], false);
}

#[test]
fn three_two_with_a_bye_then_dropped_is_point_six() {
    let ev = event_with(&["Bye", "O1", "O2", "O3", "O4"]);
    ev.seed_played_rounds(&[
        &[("Bye", "", "A")],
        &[("Bye", "O1", "A")],
        &[("O2", "Bye", "B")],
        &[("Bye", "O3", "B")],
        &[("O4", "Bye", "A")],
    ]);
    ev.run(&["player", "drop", "Bye"]).ok();
    let doc = standings(&ev, &[]);
    let p = line(&doc, "Bye");
    assert_eq!((p["wins"].as_u64(), p["losses"].as_u64(), p["byes"].as_u64()), (Some(3), Some(2), Some(1)));
    assert!(close(&p["gwp"], 0.6) && close(&p["mwp"], 0.6), "{p}");
    // Four opponents (the bye is not one): O1 and O2 at 0-1, raised to 1/3; O3 and O4 at 1-0.
    assert!(close(&p["omwp"], (1.0 / 3.0 + 1.0 / 3.0 + 1.0 + 1.0) / 4.0), "{p}");
    assert_eq!(p["dropped"], true);
}

#[test]
fn opponents_below_a_third_are_raised_before_averaging() {
    let ev = event_with(&["P0", "P1", "P2", "P3"]);
    ev.seed_played_rounds(&[&[("P0", "P1", "A"), ("P2", "P3", "A")], &[("P0", "P2", "A"), ("P1", "P3", "draw")]]);
    let doc = standings(&ev, &[]);
    // P1 is 0-1-1 = 1/6, counted as 1/3; P2 is 1-1 = 1/2: (1/3 + 1/2) / 2 = 5/12 (unfloored: 1/3).
    assert!(close(&line(&doc, "P0")["omwp"], 5.0 / 12.0));
    assert!(close(&line(&doc, "P0")["ogwp"], 5.0 / 12.0));
    let want: Vec<(String, u64)> =
        [("P0", 1), ("P2", 2), ("P1", 3), ("P3", 4)].map(|(n, r)| (n.to_string(), r)).to_vec();
    assert_eq!(order(&doc), want);
    let text = ev.run(&["standings"]).ok().to_string();
    assert!(text.lines().any(|l| l.contains("P0") && l.contains("41.67 %")), "{text}");
}

#[test]
fn players_equal_on_everything_share_a_rank() {
    let ev = event_with(&["A", "B", "C", "D", "E", "F"]);
    ev.seed_played_rounds(&[&[("A", "B", "A"), ("C", "D", "A"), ("E", "F", "draw")]]);
    let ranks: Vec<u64> = order(&standings(&ev, &[])).into_iter().map(|(_, r)| r).collect();
    assert_eq!(ranks, [1, 1, 3, 3, 5, 5]);
}

#[test]
fn disqualified_players_leave_and_everyone_below_moves_up() {
    let ev = event_with(&["Ana", "Cheat", "Cy"]);
    ev.seed_played_rounds(&[&[("Cheat", "Ana", "A")], &[("Cheat", "Cy", "A")], &[("Ana", "Cy", "A")]]);
    assert_eq!(order(&standings(&ev, &[]))[0].0, "Cheat");
    ev.seed_disqualified("Cheat");
    let doc = standings(&ev, &[]);
    assert_eq!(order(&doc), [("Ana".to_string(), 1), ("Cy".to_string(), 2)]);
    // Ana's opponents still count the disqualified player: Cheat 2-0 (1) and Cy 0-2 (1/3).
    assert!(close(&line(&doc, "Ana")["omwp"], 2.0 / 3.0));
}

#[test]
fn wins_above_par_breaks_ties_first_when_the_event_says_so() {
    let ev = event_with(&["A", "B", "C", "D"]);
    // Par: A +2, B -1, C 0, D -1. B and C have 3 points; B has the better OMW (0.75 against 0.417).
    ev.seed_played_rounds(&[&[("A", "B", "A"), ("C", "D", "A")], &[("D", "A", "B"), ("B", "C", "A")]]);
    let names = |doc: &Value| order(doc).into_iter().map(|(n, _)| n).collect::<Vec<_>>();
    let plain = standings(&ev, &[]);
    assert_eq!(names(&plain), ["A", "B", "C", "D"]);
    assert_eq!(plain["tiebreak_par"], false);
    assert!(line(&plain, "A")["above_par"].is_null());
    ev.run(&["event", "set", "tiebreak-par", "on"]).ok();
    let with_par = standings(&ev, &[]);
    assert_eq!(names(&with_par), ["A", "C", "B", "D"]);
    assert!(close(&line(&with_par, "A")["above_par"], 2.0));
    let csv = ev.run(&["--csv", "standings"]).ok().to_string();
    assert!(csv.starts_with("rank,player,record,points,above par,OMW%,GW%,OGW%,status\n"), "{csv}");
    assert!(csv.contains("\n1,A,2-0-0,6,+2.000,"), "{csv}");
}

#[test]
fn csv_and_json_shapes() {
    let ev = event_with(&["Ana", "Bo", "Cy"]);
    ev.seed_played_rounds(&[&[("Ana", "Bo", "A"), ("Cy", "", "A")]]);
    let csv = ev.run(&["--csv", "standings", "--round", "1"]).ok().to_string();
    assert_eq!(
        csv,
        "rank,player,record,points,OMW%,GW%,OGW%,status\n1,Ana,1-0-0,3,0.333,1.000,0.333,\n2,Cy,1-0-0,3,0.000,1.000,0.000,\n3,Bo,0-1-0,0,1.000,0.333,1.000,\n"
    );
    let doc = standings(&ev, &[]);
    assert_eq!((doc["round"].as_u64(), doc["rounds_paired"].as_u64()), (Some(1), Some(1)));
    let ana = line(&doc, "Ana");
    for key in ["rank", "player_id", "name", "wins", "losses", "draws", "byes", "points", "mwp", "omwp", "gwp", "ogwp"]
    {
        assert!(!ana[key].is_null(), "{key} missing: {ana}");
    }
}

#[test]
fn refuses_a_round_not_yet_played() {
    let ev = event_with(&["Ana", "Bo", "Cy", "Di"]);
    assert!(ev.refuses(&["standings", "--round", "1"]).contains("no round has been paired yet"));
    ev.seed_played_rounds(&[&[("Ana", "Bo", "A"), ("Cy", "Di", "B")], &[("Ana", "Cy", "A"), ("Bo", "Di", "")]]);
    let msg = ev.refuses(&["standings", "--round", "2"]);
    assert!(msg.contains("round 2 has no result yet at table 2") && msg.contains("mmjudge result 2"), "{msg}");
    assert!(ev.refuses(&["standings", "--round", "3"]).contains("the last paired round is 2"));
    assert!(ev.refuses(&["standings", "--round", "0"]).contains("numbered from 1"));
    // Without --round: after the last round with every result in, saying how far round 2 has got.
    let text = ev.run(&["standings"]).ok().to_string();
    assert!(text.contains("after round 1") && text.contains("round 2 is being played: 1 of 2 results in"), "{text}");
}

/// The `did_not_play` entries: (name, dropped).
fn did_not_play(doc: &Value) -> Vec<(String, bool)> {
    let list = doc["did_not_play"].as_array().cloned().unwrap_or_default();
    list.iter()
        .map(|p| {
            assert!(p["player_id"].as_u64().is_some(), "{p}");
            (p["name"].as_str().unwrap_or_default().to_string(), p["dropped"] == true)
        })
        .collect()
}

#[test]
fn a_player_with_nothing_played_is_not_ranked_but_listed_apart() {
    let ev = event_with(&["Ann", "Bo", "Cy", "Di", "Larry", "Abe"]);
    // Larry drops before round 1; Abe is absent from round 1 (not paired), and plays round 2.
    ev.run(&["player", "drop", "larry"]).ok();
    ev.seed_played_rounds(&[&[("Ann", "Bo", "A"), ("Cy", "Di", "A")]]);
    // Zed enters while round 1 is played (before round 2 is paired): a player of round 2, not of round 1.
    ev.run(&["event", "set", "late-entry", "none"]).ok();
    ev.run(&["player", "add", "Zed"]).ok();
    let one = standings(&ev, &[]);
    assert_eq!(one["round"], 1);
    assert_eq!(order(&one).len(), 4, "only the players who played are ranked: {one}");
    assert_eq!(did_not_play(&one), [("Larry".to_string(), true), ("Abe".to_string(), false)], "{one}");
    assert!(!one.to_string().contains("Zed"), "Zed entered while round 1 was played: {one}");
    let text = ev.run(&["standings"]).ok().to_string();
    assert!(!text.contains("0-0-0") && !text.contains("Zed"), "{text}");
    assert!(text.ends_with("did not play (not ranked): Larry (dropped), Abe\n"), "{text}");
    // Round 2: Abe and Zed play and are ranked; Larry still did not play; round 1's standings are unchanged.
    ev.seed_played_rounds(&[&[("Ann", "Cy", "A"), ("Abe", "Zed", "A"), ("Bo", "Di", "A")]]);
    let two = standings(&ev, &[]);
    assert_eq!(order(&two).len(), 6, "{two}");
    assert_eq!(did_not_play(&two), [("Larry".to_string(), true)], "{two}");
    let again = standings(&ev, &["--round", "1"]);
    assert_eq!((&again["standings"], &again["did_not_play"]), (&one["standings"], &one["did_not_play"]));
    // The CSV ranks the same players; the served and static pages list Larry apart.
    let csv = ev.run(&["--csv", "standings"]).ok().to_string();
    assert!(!csv.contains("Larry") && csv.lines().count() == 7, "{csv}");
    ev.run(&["site", "out"]).ok();
    let page = std::fs::read_to_string(ev.path("out/round-2-standings.html")).expect("page");
    assert!(!page.contains("class=\"player\">Larry"), "{page}");
    assert!(page.contains("Did not play, not ranked: Larry (dropped)."), "{page}");
}

#[test]
fn before_round_1_nobody_is_ranked() {
    let ev = event_with(&["Ann", "Bo"]);
    let doc = standings(&ev, &[]);
    assert_eq!((doc["round"].as_u64(), doc["standings"].as_array().map(Vec::len)), (Some(0), Some(0)), "{doc}");
    assert_eq!(doc["did_not_play"], serde_json::json!([]), "{doc}");
    let text = ev.run(&["standings"]).ok().to_string();
    assert_eq!(text, "Test Open: standings before round 1\n(none)\nno round has been paired yet\n");
}

/// `standings --json` after the last planned round: final, with its winner, only once that round is over
/// with every result in; raising the rounds setting opens the event again, lowering it back closes it.
#[test]
fn the_last_rounds_standings_are_final_with_a_winner() {
    let ev = event_with(&["Ana", "Bo", "Cy", "Di"]);
    ev.run(&["event", "set", "rounds", "2"]).ok();
    ev.seed_played_rounds(&[&[("Ana", "Bo", "A"), ("Cy", "Di", "A")]]);
    let after_one = standings(&ev, &[]);
    assert_eq!((after_one["final"].clone(), after_one["winner"].clone()), (Value::Bool(false), Value::Null));
    ev.seed_played_rounds(&[&[("Ana", "Cy", ""), ("Bo", "Di", "")]]);
    let playing = standings(&ev, &[]);
    assert_eq!((playing["round"].clone(), playing["final"].clone()), (Value::from(1), Value::Bool(false)));
    ev.run(&["result", "1", "Cy", "--by", "life"]).ok();
    ev.run(&["result", "2", "Bo", "--by", "life"]).ok();
    let running = standings(&ev, &[]);
    assert_eq!((running["round"].clone(), running["final"].clone()), (Value::from(2), Value::Bool(false)));
    ev.run(&["round", "end"]).ok();
    let last = standings(&ev, &[]);
    assert_eq!(last["final"], true, "{last}");
    assert_eq!(last["winner"], serde_json::json!(["Cy"]), "{last}");
    let text = ev.run(&["standings"]).ok().to_string();
    assert!(text.contains("final standings after round 2; Cy wins the event"), "{text}");
    let earlier = standings(&ev, &["--round", "1"]);
    assert_eq!((earlier["final"].clone(), earlier["winner"].clone()), (Value::Bool(false), Value::Null));
    ev.run(&["event", "set", "rounds", "3"]).ok();
    let reopened = standings(&ev, &[]);
    assert_eq!((reopened["final"].clone(), reopened["winner"].clone()), (Value::Bool(false), Value::Null));
    ev.run(&["event", "set", "rounds", "2"]).ok();
    assert_eq!(standings(&ev, &[])["final"], true);
}

/// Players equal on every tiebreaker share first: the winner lists both.
#[test]
fn a_shared_first_names_both_winners() {
    let ev = event_with(&["Ana", "Bo"]);
    ev.run(&["event", "set", "rounds", "1"]).ok();
    ev.seed_played_rounds(&[&[("Ana", "Bo", "draw")]]);
    ev.run(&["round", "end"]).ok();
    let doc = standings(&ev, &[]);
    assert_eq!((doc["final"].clone(), doc["winner"].clone()), (Value::Bool(true), serde_json::json!(["Ana", "Bo"])));
    let text = ev.run(&["standings"]).ok().to_string();
    assert!(text.contains("Ana and Bo share first"), "{text}");
}
