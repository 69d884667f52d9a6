//! Names that look the same, one player resolver for every command, and card names as judges type them.

use crate::cards::with_reference;
use crate::harness::Event;

fn names(ev: &Event) -> Vec<String> {
    let doc = ev.run(&["--json", "player", "list"]).json();
    doc["players"].as_array().into_iter().flatten().filter_map(|p| p["name"].as_str().map(String::from)).collect()
}

#[test]
fn names_equal_but_for_accents_case_invisibles_or_composition_are_one_player() {
    let ev = Event::new();
    ev.run(&["player", "add", "Renée Côté", "Ana", "Jos\u{e9} Lima"]).ok();
    let msg = ev.refuses(&["player", "add", "Renee Cote"]);
    assert!(msg.contains("\"Renee Cote\" is already a player (as \"Renée Côté\")"), "{msg}");
    // Invisible and direction characters are refused as typed (one rule for all text), not folded away.
    assert!(ev.refuses(&["player", "add", "Ana\u{200b}"]).contains("(U+200B)"));
    assert!(ev.refuses(&["player", "add", "\u{feff}ANA\u{200e}"]).contains("(U+FEFF)"));
    assert!(ev.refuses(&["player", "add", "Jose\u{301} Lima"]).contains("already a player (as \"José Lima\")"));
    assert!(ev.refuses(&["player", "add", "\u{ff21}na"]).contains("already a player"));
    assert_eq!(names(&ev), ["Renée Côté", "Ana", "José Lima"]);
}

#[test]
fn a_look_alike_in_another_alphabet_is_refused() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Ace Berg"]).ok();
    let msg = ev.refuses(&["player", "add", "\u{410}na"]);
    assert!(msg.contains("looks the same as the player \"Ana\"") && msg.contains("another alphabet"), "{msg}");
    let msg = ev.refuses(&["player", "add", "\u{410}\u{441}\u{435} Berg"]);
    assert!(msg.contains("looks the same as the player \"Ace Berg\""), "{msg}");
    // Names of one alphabet that merely share confusable letters are different people.
    ev.run(&["player", "add", "Arnie", "Amie"]).ok();
    assert_eq!(names(&ev), ["Ana", "Ace Berg", "Arnie", "Amie"]);
}

#[test]
fn empty_control_and_bidi_names_are_refused() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana"]).ok();
    assert!(ev.refuses(&["player", "add", "\u{200b}\u{2060}"]).contains("(U+200B)"));
    assert!(ev.refuses(&["player", "add", " "]).contains("empty name"));
    assert!(ev.refuses(&["player", "add", "Bo\u{7}"]).contains("control character"));
    let msg = ev.refuses(&["player", "add", "Bo\u{202e}nA"]);
    // Bidi controls are refused with every other control character typed anywhere.
    assert!(msg.contains("control character (U+202E)"), "{msg}");
    assert!(ev.refuses(&["player", "add", "Cy\u{2066}x"]).contains("U+2066"));
    assert!(ev.refuses(&["player", "add", "!!"]).contains("no letter or digit"));
    // A zero-width character inside a new name is refused (one rule for every text), and nothing is stored.
    assert!(ev.refuses(&["player", "add", "Bo\u{200b} Lind"]).contains("(U+200B)"));
    assert_eq!(names(&ev), ["Ana"]);
}

#[test]
fn import_and_rename_follow_the_same_rules() {
    let ev = Event::new();
    ev.run(&["player", "add", "Renée Côté", "Ana"]).ok();
    let csv = ev.file("p.csv", "name\nBo\nRenee Cote\n\u{410}na\nZoe\nZoë\nCy\u{202e}\n");
    let msg = ev.refuses(&["player", "import", &csv.to_string_lossy()]);
    for want in [
        "line 3: \"Renee Cote\" is already a player",
        "line 4: \"\u{410}na\" looks the same",
        "line 6: \"Zoë\" appears twice",
    ] {
        assert!(msg.contains(want), "{want}: {msg}");
    }
    let msg = ev.refuses(&["player", "rename", "ana", "Renee COTE"]);
    assert!(msg.contains("cannot rename Ana: \"Renee COTE\" is already a player (as \"Renée Côté\")"), "{msg}");
    assert!(ev.refuses(&["player", "rename", "renee", "\u{200b}"]).contains("(U+200B)"));
    assert!(ev.refuses(&["player", "rename", "renee", "R\u{202d}x"]).contains("U+202D"));
    // A player may be renamed to another spelling of the same name.
    ev.run(&["player", "rename", "renee", "Renee Cote"]).ok();
    assert_eq!(names(&ev), ["Renee Cote", "Ana"]);
}

/// Round 1: Bob Ekström and Ana Souza at table 2, Bo Nilsson and Cy Berg at table 4.
fn bo_and_bob() -> Event {
    let ev = Event::new();
    ev.run(&["player", "add", "Bob Ekström", "Ana Souza", "Bo Nilsson", "Cy Berg"]).ok();
    ev.seat_started_round(1, &[(2, "Bob Ekström", "Ana Souza"), (4, "Bo Nilsson", "Cy Berg")]);
    ev
}

#[test]
fn a_first_name_of_a_player_at_another_table_is_refused_naming_both() {
    let ev = bo_and_bob();
    let msg = ev.refuses(&["result", "2", "bo", "--by", "concession"]);
    assert!(
        msg.contains(
            "\"bo\" is Bo Nilsson at table 4; at table 2 sit Bob Ekström and Ana Souza: type more of the name or \
             check the table"
        ),
        "{msg}"
    );
    let msg = ev.refuses(&["result", "2", "Bo Nilsson", "--by", "concession"]);
    assert!(msg.contains("Bo Nilsson is not at table 2") && msg.contains("plays at table 4"), "{msg}");
    assert!(ev.refuses(&["penalty", "bo", "slow-play", "--table", "2"]).contains("Bo Nilsson at table 4"));
    let msg = ev.refuses(&["challenge", "2", "--by", "bo", "--about", "x", "--ruling", "denied"]);
    assert!(msg.contains("Bo Nilsson at table 4"), "{msg}");
    // Typed in full enough, each one is found where they sit.
    let doc = ev.run(&["--json", "result", "2", "bob", "--by", "concession"]).json();
    assert_eq!(doc["result"]["winner"], "Bob Ekström", "{doc}");
    let doc = ev.run(&["--json", "result", "4", "bo", "--by", "concession"]).json();
    assert_eq!(doc["result"]["winner"], "Bo Nilsson", "{doc}");
}

#[test]
fn the_clock_and_notes_resolve_players_at_a_table_the_same_way() {
    let ev = with_reference();
    ev.run(&["player", "add", "Bob Ekström", "Ana Souza", "Bo Nilsson", "Cy Berg"]).ok();
    ev.seat_round(1, &[(2, "Bob Ekström", "Ana Souza"), (4, "Bo Nilsson", "Cy Berg")]);
    ev.run(&["round", "start", "--at", "2026-05-01T09:00:00Z"]).ok();
    assert!(ev.refuses(&["note", "2", "bo", "R", "Shock"]).contains("Bo Nilsson at table 4"));
    let msg = ev.refuses(&["clock", "2", "--start", "bo", "--at", "2026-05-01T09:10:00Z"]);
    assert!(msg.contains("Bo Nilsson at table 4"), "{msg}");
    let msg = ev.refuses(&["clock", "2", "--start", "cy", "--at", "2026-05-01T09:10:00Z"]);
    assert!(msg.contains("Cy Berg is not at table 2") && msg.contains("plays at table 4"), "{msg}");
}

#[test]
fn every_command_resolves_a_typed_name_the_same_way() {
    let ev = bo_and_bob();
    // An exact word wins over a prefix, accents are ignored, a later word is enough.
    let out = ev.run(&["player", "history", "bo"]).ok().to_string();
    assert!(out.contains("Bo Nilsson") && !out.contains("Bob Ekström"), "{out}");
    let doc = ev.run(&["--json", "log", "--player", "ekstrom"]).json();
    assert!(doc.to_string().contains("Bob Ekström"), "{doc}");
    ev.run(&["player", "drop", "EKSTRÖM"]).ok();
    let doc = ev.run(&["--json", "player", "list"]).json();
    assert_eq!(doc["players"][0]["dropped_after"], 1, "{doc}");
    ev.run(&["player", "undrop", "bob"]).ok();
    // Several equally good matches are listed, closest first.
    ev.run(&["player", "add", "Ana Lima"]).ok();
    let msg = ev.refuses(&["player", "drop", "ana"]);
    assert!(msg.contains("matches several players (Ana Lima, Ana Souza)"), "{msg}");
    // Nothing matching: the closest names, best first.
    let msg = ev.refuses(&["player", "drop", "Bob Ekstrim"]);
    assert!(msg.contains("closest are Bob Ekström"), "{msg}");
    let msg = ev.refuses(&["player", "history", "Nillson"]);
    assert!(msg.contains("closest are Bo Nilsson"), "{msg}");
}

#[test]
fn lookups_in_a_large_field_find_the_one_player() {
    let ev = Event::new();
    let all = ev.add_players(300);
    assert_eq!(all.len(), 300);
    ev.run(&["player", "add", "Zoë Quist"]).ok();
    ev.run(&["player", "drop", "player 150"]).ok();
    ev.run(&["player", "drop", "quist"]).ok();
    let doc = ev.run(&["--json", "player", "list"]).json();
    let dropped: Vec<&str> = doc["players"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| !p["dropped_after"].is_null())
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(dropped, ["Player 150", "Zoë Quist"]);
    assert!(ev.refuses(&["player", "drop", "player 1"]).contains("matches several players"));
}

/// The bundled reference with Ana and Bo at table 1 of round 1.
fn table_one() -> Event {
    let ev = with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo")]);
    ev
}

#[test]
fn a_misspelt_card_clearly_one_card_is_taken_under_its_name() {
    let ev = table_one();
    let doc = ev.run(&["--json", "note", "1", "ana", "4", "Nevinyrals Disk"]).json();
    assert_eq!(doc["card"], "Nevinyrral's Disk");
    assert_eq!(doc["taken"], "taken as Nevinyrral's Disk");
    let out = ev.run(&["note", "1", "bo", "B1", "Demonic Tutr"]).ok().to_string();
    assert!(out.contains("B1: Demonic Tutor") && out.contains("(taken as Demonic Tutor)"), "{out}");
    // The canonical name is what the game remembers: the same card again is refused.
    let msg = ev.refuses(&["note", "1", "bo", "4", "nevinyrral's disk"]);
    assert!(msg.contains("Nevinyrral's Disk"), "{msg}");
    let out = ev.run(&["cards", "check", "4", "Nevinyrals Disk"]).ok().to_string();
    assert!(out.contains("legal: Nevinyrral's Disk (taken as Nevinyrral's Disk)"), "{out}");
}

#[test]
fn a_face_names_its_card_with_a_message() {
    let ev = table_one();
    let doc = ev.run(&["--json", "note", "1", "ana", "U1", "Ice"]).json();
    assert_eq!(doc["card"], "Fire // Ice");
    assert_eq!(doc["taken"], "\"Ice\" is one half of Fire // Ice");
    let doc = ev.run(&["--json", "cards", "check", "U", "Insectile Aberration"]).json();
    assert_eq!(doc["card"], "Delver of Secrets");
    assert_eq!(doc["taken"], "\"Insectile Aberration\" is a face of Delver of Secrets");
}

#[test]
fn a_name_not_clearly_one_card_is_refused_with_the_close_names() {
    let ev = table_one();
    let msg = ev.refuses(&["note", "1", "ana", "B1", "Demonic"]);
    assert!(msg.contains("no card is named \"Demonic\"") && msg.contains("Demonic Tutor"), "{msg}");
    let msg = ev.refuses(&["cards", "check", "R", "Shok"]);
    assert!(msg.contains("\"Shok\" is not clearly one card (close: Shock, Smoke)"), "{msg}");
    let msg = ev.refuses(&["note", "1", "ana", "R", "Shok"]);
    assert!(msg.contains("not clearly one card") && msg.contains("have the player write it"), "{msg}");
    let msg = ev.refuses(&["note", "1", "ana", "B1", "Qqqzzxx Vvv"]);
    assert!(msg.contains("no card is named \"Qqqzzxx Vvv\""), "{msg}");
}

#[test]
fn a_name_that_differs_only_by_a_look_alike_apostrophe_is_refused() {
    let ev = Event::new();
    ev.run(&["player", "add", "Seán O'Brien", "Cy"]).ok();
    let msg = ev.refuses(&["player", "add", "Sean O\u{2019}Brien"]);
    assert!(msg.contains("is already a player (as \"Seán O'Brien\")"), "{msg}");
    let file = ev.file("late.csv", "name\nSean O\u{2019}Brien\n");
    ev.refuses(&["player", "import", &file.to_string_lossy()]);
    ev.refuses(&["player", "rename", "cy", "Se\u{e1}n O\u{2bc}Brien"]);
    // Letters that differ stay different people: "O'Brien" and "OBrien", "Arnie" and "Amie".
    ev.run(&["player", "add", "Sean OBrien", "Arnie", "Amie"]).ok();
    assert_eq!(names(&ev).len(), 5, "{:?}", names(&ev));
}
