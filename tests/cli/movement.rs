//! `movement preview` (the design note's worked examples as golden tests) and a whole Swiss event
//! through the binary, with drops, a disqualification and late entries.

use crate::harness::Event;
use crate::round::rounds_of;
use mmjudge::domain::movement::{Guarantee, validate};
use serde_json::Value;

/// The design note's notation, "T1 P1(A)-P4 | ... | out P7", from a preview's JSON round.
fn notation(round: &Value) -> String {
    let mut parts: Vec<String> = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| format!("T{} P{}(A)-P{}", g["table"], g["a"], g["b"]))
        .collect();
    parts.extend(round["byes"].as_array().unwrap().iter().map(|p| format!("out P{p}")));
    parts.join(" | ")
}

fn golden(args: &[&str], want: &[&str]) {
    let ev = Event::empty();
    let mut all = vec!["--json", "movement", "preview"];
    all.extend(args);
    let doc = ev.run(&all).json();
    let got: Vec<String> = doc["schedule"].as_array().unwrap().iter().map(notation).collect();
    assert_eq!(got, want, "{args:?}");
    for c in doc["checks"].as_array().unwrap() {
        assert!(c["kept"] == true || c["promised"] == false, "{c}");
    }
}

#[test]
fn ex1_mitchell_3_tables() {
    golden(
        &["--players", "6", "--tables", "3", "--rounds", "3", "--movement", "mitchell"],
        &[
            "T1 P1(A)-P4 | T2 P2(A)-P5 | T3 P3(A)-P6",
            "T1 P5(A)-P3 | T2 P6(A)-P1 | T3 P4(A)-P2",
            "T1 P2(A)-P6 | T2 P3(A)-P4 | T3 P1(A)-P5",
        ],
    );
}

#[test]
fn ex2_mitchell_with_the_skip_4_tables() {
    golden(
        &["--players", "8", "--tables", "4", "--rounds", "4", "--movement", "mitchell"],
        &[
            "T1 P1(A)-P5 | T2 P2(A)-P6 | T3 P3(A)-P7 | T4 P4(A)-P8",
            "T1 P6(A)-P4 | T2 P7(A)-P1 | T3 P8(A)-P2 | T4 P5(A)-P3",
            "T1 P3(A)-P8 | T2 P4(A)-P5 | T3 P1(A)-P6 | T4 P2(A)-P7",
            "T1 P5(A)-P2 | T2 P6(A)-P3 | T3 P7(A)-P4 | T4 P8(A)-P1",
        ],
    );
}

#[test]
fn ex2b_square_4_tables() {
    golden(
        &["--players", "8", "--tables", "4", "--rounds", "4", "--movement", "square"],
        &[
            "T1 P1(A)-P5 | T2 P2(A)-P6 | T3 P3(A)-P7 | T4 P4(A)-P8",
            "T1 P7(A)-P2 | T2 P8(A)-P1 | T3 P5(A)-P4 | T4 P6(A)-P3",
            "T1 P3(A)-P8 | T2 P4(A)-P7 | T3 P1(A)-P6 | T4 P2(A)-P5",
            "T1 P6(A)-P4 | T2 P5(A)-P3 | T3 P8(A)-P2 | T4 P7(A)-P1",
        ],
    );
}

#[test]
fn ex3_howell_7_players() {
    golden(
        &["--players", "7", "--tables", "3", "--rounds", "3"],
        &[
            "T1 P2(A)-P7 | T2 P6(A)-P3 | T3 P4(A)-P5 | out P1",
            "T1 P3(A)-P1 | T2 P7(A)-P4 | T3 P5(A)-P6 | out P2",
            "T1 P4(A)-P2 | T2 P1(A)-P5 | T3 P6(A)-P7 | out P3",
        ],
    );
}

#[test]
fn preview_explains_what_it_refuses_and_what_allow_shows() {
    let ev = Event::empty();
    let msg = ev.refuses(&["movement", "preview", "--players", "8", "--movement", "bridge"]);
    assert!(msg.contains("unknown movement 'bridge'") && msg.contains("mitchell"), "{msg}");
    let msg = ev.refuses(&["movement", "preview", "--players", "12", "--movement", "square"]);
    assert!(msg.contains("6 tables") && msg.contains("--movement mitchell"), "{msg}");
    // No square exists for 2 tables: say so, rather than a round limit it never had.
    let msg = ev.refuses(&["movement", "preview", "--players", "4", "--movement", "square"]);
    assert!(msg.contains("does not exist for 2 tables") && msg.contains("--movement mitchell"), "{msg}");
    let msg = ev.refuses(&["movement", "preview", "--players", "8", "--movement", "swiss"]);
    assert!(msg.contains("no schedule to preview"), "{msg}");
    let msg = ev.refuses(&["movement", "preview", "--players", "8", "--rounds", "5"]);
    assert!(msg.contains("at most 4 rounds") && msg.contains("--allow"), "{msg}");
    let msg = ev.refuses(&["movement", "preview", "--players", "8", "--tables", "3"]);
    assert!(msg.contains("--tables 4"), "{msg}");
    let doc = ev.run(&["--json", "movement", "preview", "--players", "8", "--rounds", "5", "--allow"]).json();
    let rematch = doc["checks"].as_array().unwrap().iter().find(|c| c["guarantee"] == "no_rematch").unwrap();
    assert_eq!((rematch["promised"].clone(), rematch["kept"].clone()), (Value::Bool(false), Value::Bool(false)));
    let doc = ev.run(&["--json", "movement", "preview", "--players", "8"]).json();
    assert_eq!(doc["rounds"], 4, "the default stops at the movement's limit");
    let text = ev.run(&["movement", "preview", "--players", "16", "--rounds", "3"]).ok().to_string();
    assert!(text.contains("Square movement on 8 tables") && text.contains("Every promised guarantee holds"));
    let csv = ev.run(&["--csv", "movement", "preview", "--players", "6", "--rounds", "2"]).ok().to_string();
    assert!(csv.starts_with("table,R1,R2\n1,P"), "{csv}");
}

#[test]
fn a_swiss_event_through_the_binary_keeps_its_guarantees_with_drops_and_late_entries() {
    let ev = Event::new();
    ev.run(&["event", "set", "rounds", "8"]).ok();
    let names = ev.add_players(11);
    ev.fake_libraries(9);
    let out = ev.run(&["round", "pair"]).ok().to_string();
    assert!(out.contains("howell"), "{out}");
    let mut swiss_said = false;
    for round in 1..=8u32 {
        if round > 1 {
            let out = ev.run(&["round", "pair"]).ok().to_string();
            swiss_said |= out.contains("the field changed since round 1");
            assert!(!out.contains("allowed"), "{out}");
        }
        ev.finish_round(round);
        match round {
            2 => ev.run(&["player", "drop", &names[3]]).ok().len(),
            3 => ev.run(&["player", "add", "Late Lou", "Late Kim"]).ok().len(),
            4 => {
                ev.sql("UPDATE player SET disqualified = 1 WHERE name = 'Player 07';");
                0
            }
            5 => ev.run(&["player", "add", "Later Lee"]).ok().len(),
            _ => 0,
        };
    }
    assert!(swiss_said);
    let rounds = rounds_of(&ev);
    assert_eq!(rounds.len(), 8);
    let check = [Guarantee::WellFormed, Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::OneSitOut];
    assert_eq!(validate(14, &rounds, &check), vec![]);
    let plays = |p: usize, r: usize| mmjudge::domain::movement::follow::field_of(&rounds[r]).contains(&p);
    assert!(plays(3, 1) && !plays(3, 2), "the drop takes effect from the next round");
    assert!(!plays(11, 2) && plays(11, 3) && plays(12, 3), "late entries join the next pairing");
    assert!(plays(6, 3) && !plays(6, 4), "a disqualified player is not paired");
    assert!(!plays(13, 4) && plays(13, 5));
}
