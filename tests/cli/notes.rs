//! `note`, `note undo`, `notes`, and `cards check` / `cards cost` with `--table`.

use crate::cards::with_reference;
use crate::harness::Event;

/// The bundled reference, round 1 at tables 1 (Ana-Bo) and 2 (Cy-Di).
fn round_one() -> Event {
    let ev = with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev
}

fn note(ev: &Event, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--json", "note"];
    all.extend_from_slice(args);
    ev.run_with(&all, &[("MMJUDGE_NOW", crate::harness::NOTES_NOW)]).json()
}

#[test]
fn records_declarations_in_both_notations_under_their_reference_names() {
    let ev = round_one();
    let doc = note(&ev, &["1", "ana", "B1", "demonic tutor", "--at", "09:05"]);
    assert_eq!(doc["card"], "Demonic Tutor");
    assert_eq!(doc["cost"], "{1}{B}");
    assert_eq!(doc["shorthand"], "B1");
    assert_eq!(doc["player"], "Ana");
    assert_eq!(doc["seat"], "A");
    assert_eq!(doc["late"], false);
    let doc = note(&ev, &["1", "bo", "{R}", "Shock", "--at", "09:07"]);
    assert_eq!(doc["seat"], "B");
    assert!(doc["summary"].as_str().unwrap_or("").contains("Bo R: Shock at 09:07"), "{doc}");
}

#[test]
fn unnamed_cards_keep_their_cost_only() {
    let ev = round_one();
    let doc = note(&ev, &["1", "bo", "U1", "--unnamed"]);
    assert_eq!(doc["unnamed"], true);
    assert_eq!(doc["card"], serde_json::Value::Null);
    assert_eq!(doc["cost"], "{1}{U}");
    // an unnamed card uses no template: two of the same cost are fine
    note(&ev, &["1", "ana", "U1", "--unnamed"]);
    let sheet = ev.run(&["notes", "1"]).ok().to_string();
    assert!(sheet.contains("U1: (unnamed)"), "{sheet}");
}

#[test]
fn the_sheet_has_one_column_per_player_seat_a_left_in_declared_order() {
    let ev = round_one();
    note(&ev, &["1", "bo", "R", "Shock", "--at", "09:10"]);
    note(&ev, &["1", "ana", "B1", "Demonic Tutor", "--at", "09:05"]);
    note(&ev, &["1", "ana", "W", "Swords to Plowshares", "--at", "09:20"]);
    let text = ev.run(&["notes", "1"]).ok().to_string();
    let header = text.lines().find(|l| l.contains("Ana (A)")).unwrap_or_default();
    assert!(header.find("Ana (A)") < header.find("Bo (B)"), "{text}");
    let first = text.lines().find(|l| l.contains("B1: Demonic Tutor")).unwrap_or_default();
    assert!(first.contains("09:05") && first.contains("R: Shock") && first.contains("09:10"), "{text}");
    assert!(text.contains("Ana: 2 notes; Bo: 1 note; the match: still playing"), "{text}");
    let doc = ev.run(&["--json", "notes", "1"]).json();
    let lines: Vec<&str> = doc["notes"].as_array().into_iter().flatten().filter_map(|n| n["card"].as_str()).collect();
    assert_eq!(lines, ["Demonic Tutor", "Shock", "Swords to Plowshares"], "declared order");
    assert_eq!(doc["notes"][0]["time"], "09:05");
    assert_eq!(doc["a"], "Ana");
    assert_eq!(doc["result"]["winner"], serde_json::Value::Null);
    // the other table's sheet is its own
    assert_eq!(ev.run(&["--json", "notes", "2"]).json()["notes"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_template_is_used_once_per_game_by_either_player() {
    let ev = round_one();
    note(&ev, &["1", "ana", "B1", "Demonic Tutor", "--at", "09:05"]);
    let msg = ev.refuses(&["note", "1", "bo", "B1", "Demonic Tutor"]);
    assert!(msg.contains("Demonic Tutor was already declared in this game by Ana at 09:05"), "{msg}");
    let msg = ev.refuses(&["note", "1", "ana", "{1}{B}", "demonic tutor"]);
    assert!(msg.contains("by Ana at 09:05"), "{msg}");
    // another game, or the next round's game, is a new game
    note(&ev, &["2", "cy", "B1", "Demonic Tutor"]);
    ev.seat_started_round(2, &[(1, "Bo", "Ana")]);
    note(&ev, &["1", "bo", "B1", "Demonic Tutor"]);
    // a note for the earlier round names it
    let msg = ev.refuses(&["note", "1", "bo", "B1", "Demonic Tutor", "--round", "1"]);
    assert!(msg.contains("by Ana"), "{msg}");
}

#[test]
fn refuses_a_note_for_a_player_not_at_that_table() {
    let ev = round_one();
    let msg = ev.refuses(&["note", "1", "cy", "B1", "Demonic Tutor"]);
    assert!(msg.contains("Cy is not at table 1 in round 1 (Ana vs Bo); Cy plays at table 2"), "{msg}");
    assert!(ev.refuses(&["note", "1", "zed", "B1", "Demonic Tutor"]).contains("unknown player"));
}

#[test]
fn refuses_a_banned_card() {
    let ev = round_one();
    let msg = ev.refuses(&["note", "1", "ana", "U", "Ancestral Recall"]);
    assert!(msg.contains("Ancestral Recall is banned"), "{msg}");
}

#[test]
fn refuses_a_cost_mismatch() {
    let ev = round_one();
    let msg = ev.refuses(&["note", "1", "ana", "B2", "Demonic Tutor"]);
    assert!(msg.contains("Demonic Tutor costs {1}{B}, not {2}{B}"), "{msg}");
}

#[test]
fn refuses_utopia_as_a_card_name() {
    let ev = round_one();
    assert!(ev.refuses(&["note", "1", "ana", "G", "Utopia"]).contains("\"Utopia\" is the face-down land"));
}

#[test]
fn refuses_an_unknown_card_with_the_closest_names() {
    let ev = round_one();
    // (one slip such as "Demonic Tuttor" is clearly Demonic Tutor and is taken: see tests/cli/names.rs)
    let msg = ev.refuses(&["note", "1", "ana", "B1", "Demonik Tootor"]);
    assert!(msg.contains("no card is named \"Demonik Tootor\"; did you mean Demonic Tutor"), "{msg}");
}

#[test]
fn refuses_an_unparseable_cost() {
    let ev = round_one();
    assert!(ev.refuses(&["note", "1", "ana", "B-1", "Demonic Tutor"]).contains("cannot read cost \"B-1\""));
    assert!(ev.refuses(&["note", "1", "ana", "Q", "--unnamed"]).contains("cannot read cost"));
}

#[test]
fn refuses_a_note_without_a_card_unless_unnamed() {
    let ev = round_one();
    let msg = ev.refuses(&["note", "1", "ana", "B1"]);
    assert!(msg.contains("which card?") && msg.contains("--unnamed"), "{msg}");
    assert!(ev.refuses(&["note", "1", "ana", "R", " "]).contains("no card name given"));
}

#[test]
fn refuses_an_excluded_kind_and_a_missing_letter_under_alphabet_binding() {
    let ev = round_one();
    let doc = ev.run(&["--json", "cards", "find", "Blacker Lotus", "--limit", "1"]).json();
    let cost = doc["cards"][0]["mana_cost"].as_str().unwrap_or("{0}").to_string();
    assert!(ev.refuses(&["note", "1", "ana", &cost, "Blacker Lotus"]).contains("excluded"));
    ev.run(&["event", "set", "binding", "alphabet", "--force"]).ok();
    assert!(ev.refuses(&["note", "1", "ana", "B1", "Dark Ritual"]).contains("--letter"));
    assert!(ev.refuses(&["note", "1", "ana", "B1", "Dark Ritual", "--letter", "x"]).contains("does not bind"));
    note(&ev, &["1", "ana", "B1", "Dark Ritual", "--letter", "d"]);
}

#[test]
fn refuses_tables_without_a_match_and_names_without_a_reference() {
    let ev = round_one();
    assert!(ev.refuses(&["note", "9", "ana", "B1", "Demonic Tutor"]).contains("no match at table 9 in round 1"));
    let bare = Event::new();
    bare.seat_started_round(1, &[(1, "Ana", "Bo")]);
    assert!(bare.refuses(&["note", "1", "ana", "B1", "Demonic Tutor"]).contains("cards import"));
    // an unnamed card needs no reference
    bare.run(&["note", "1", "ana", "B1", "--unnamed"]).ok();
}

#[test]
fn undo_removes_the_tables_last_note_and_says_which() {
    let ev = round_one();
    note(&ev, &["1", "ana", "B1", "Demonic Tutor", "--at", "09:30"]);
    let late = note(&ev, &["1", "bo", "R", "Shock", "--at", "09:05"]);
    note(&ev, &["2", "cy", "W", "Swords to Plowshares"]);
    let out = ev.run(&["note", "undo", "1"]).ok().to_string();
    assert!(
        out.contains(&format!("removed note #{} at table 1 in round 1 (Ana vs Bo): Bo R: Shock", late["note"])),
        "{out}"
    );
    let log = ev.run(&["log"]).ok().to_string();
    assert!(log.contains("removed note"), "audited: {log}");
    // Shock is free again at table 1; table 2 kept its note
    note(&ev, &["1", "ana", "R", "Shock"]);
    assert_eq!(ev.run(&["--json", "notes", "2"]).json()["notes"].as_array().map(Vec::len), Some(1));
}

#[test]
fn refuses_undo_with_no_notes() {
    let ev = round_one();
    assert!(ev.refuses(&["note", "undo", "1"]).contains("table 1 in round 1 (Ana vs Bo) has no notes to undo"));
}

#[test]
fn undo_of_a_note_cited_as_evidence_needs_force() {
    let ev = round_one();
    let id = note(&ev, &["1", "bo", "R", "Shock"])["note"].to_string();
    ev.run(&["challenge", "1", "--by", "ana", "--about", "Shock was used", "--ruling", "upheld", "--evidence", &id])
        .ok();
    let msg = ev.refuses(&["note", "undo", "1"]);
    assert!(msg.contains("is evidence in challenge #1: add --force"), "{msg}");
    let out = ev.run(&["note", "undo", "1", "--force"]).ok().to_string();
    assert!(out.contains("no longer evidence in challenge #1"), "{out}");
    let doc = ev.run(&["--json", "challenges"]).json();
    assert_eq!(doc["challenges"][0]["evidence"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_finished_match_takes_late_notes_and_says_so() {
    let ev = round_one();
    ev.run(&["result", "1", "ana", "--by", "life"]).ok();
    let doc = note(&ev, &["1", "bo", "R", "Shock", "--at", "09:05"]);
    assert_eq!(doc["late"], true);
    assert!(doc["summary"].as_str().unwrap_or("").contains("already has a result (Ana beat Bo by life): noted late"));
}

#[test]
fn the_html_sheet_is_written_and_escaped() {
    let ev = with_reference();
    ev.seat_started_round(1, &[(1, "Ana <b>", "Bo & Co")]);
    note(&ev, &["1", "ana", "B1", "Demonic Tutor", "--at", "09:05"]);
    note(&ev, &["1", "bo", "R", "--unnamed"]);
    let file = ev.path("sheet.html");
    ev.run(&["notes", "1", "--html", &file.to_string_lossy()]).ok();
    let html = std::fs::read_to_string(&file).unwrap_or_default();
    for want in ["Ana &#60;b&#62;", "Bo &#38; Co", "B1:", "Demonic Tutor", "(unnamed)", "09:05", "Test Open"] {
        assert!(html.contains(want), "missing {want}");
    }
    assert!(!html.contains("<b>"), "user text is escaped");
}

#[test]
fn cards_check_and_cost_with_a_table_know_the_templates_used_there() {
    let ev = round_one();
    note(&ev, &["1", "ana", "R", "Shock", "--at", "09:05"]);
    let msg = ev.refuses(&["cards", "check", "R", "Shock", "--table", "1"]);
    assert!(msg.contains("Shock was already declared in this game by Ana at 09:05"), "{msg}");
    ev.run(&["cards", "check", "R", "Shock", "--table", "2"]).ok();
    ev.run(&["cards", "check", "R", "Shock"]).ok();
    let all = ev.run(&["--json", "cards", "cost", "R"]).json();
    let here = ev.run(&["--json", "cards", "cost", "R", "--table", "1"]).json();
    assert_eq!(here["count"].as_u64().map(|n| n + 1), all["count"].as_u64());
    assert_eq!(here["declared"][0]["name"], "Shock");
    assert_eq!(here["declared"][0]["by"], "Ana");
    assert_eq!(here["declared"][0]["at"], "09:05");
    let names = here["cards"].as_array().into_iter().flatten().filter_map(|c| c["name"].as_str());
    assert!(names.clone().all(|n| n != "Shock"));
    let text = ev.run(&["cards", "cost", "R", "--table", "1"]).ok().to_string();
    assert!(text.contains("already declared at table 1 in round 1 (Ana vs Bo), left out: Shock (Ana 09:05)"), "{text}");
    assert!(ev.refuses(&["cards", "cost", "R", "--table", "7"]).contains("no match at table 7"));
}

#[test]
fn a_note_voided_before_a_seat_swap_stays_its_players_and_is_shown_apart_in_every_sheet() {
    let ev = round_one();
    let id = note(&ev, &["1", "ana", "B1", "demonic tutor", "--at", "09:05"])["note"].as_i64().unwrap_or_default();
    ev.run(&["note", "void", &id.to_string(), "--reason", "wrong table"]).ok();
    ev.run(&["round", "swap", "ana", "cy"]).ok();
    // JSON: still Ana's, at no seat of this table.
    let doc = ev.run(&["--json", "notes", "1"]).json();
    assert_eq!((doc["a"].as_str(), doc["notes"][0]["player"].as_str()), (Some("Cy"), Some("Ana")), "{doc}");
    assert_eq!(doc["notes"][0]["seat"], serde_json::Value::Null, "{doc}");
    // Text: not in Cy's column; apart, under Ana's name.
    let text = ev.run(&["notes", "1"]).ok().to_string();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("Demonic Tutor")).collect();
    assert_eq!(
        lines,
        [format!("voided before a seat swap, Ana: #{id} B1: Demonic Tutor (void) at 09:05").as_str()],
        "{text}"
    );
    assert!(text.contains("Cy: 0 notes; Bo: 0 notes"), "{text}");
    // CSV keeps every note: Ana's, apart, in a row of its own under the two seats'.
    let csv = ev.run(&["--csv", "notes", "1"]).ok().to_string();
    let row = format!("{id},\"voided before a seat swap, Ana: B1: Demonic Tutor (void)\",09:05,,,\n");
    assert!(csv.starts_with("#,Cy (A),at,#,Bo (B),at\n") && csv.ends_with(&row), "{csv}");
    // The printable page: Cy's column has no notes; Ana's apart.
    let file = ev.path("t1.html");
    ev.run(&["notes", "1", "--html", &file.to_string_lossy()]).ok();
    let html = std::fs::read_to_string(&file).unwrap_or_default();
    let cy = html.find("Cy <span class=\"seat\">seat A</span>").unwrap_or_else(|| panic!("no column for Cy: {html}"));
    let ana = html.find("Ana <span class=\"seat\">no longer at this table: voided before a seat swap</span>");
    let ana = ana.unwrap_or_else(|| panic!("no column apart for Ana: {html}"));
    let tutor = html.find("<del>Demonic Tutor</del>").unwrap_or_default();
    assert!(cy < ana && ana < tutor, "the voided note is under Ana, after the two seats: {html}");
}
