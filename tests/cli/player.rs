//! `player` verbs.

use crate::harness::{Event, example};

fn names(ev: &Event) -> Vec<String> {
    let doc = ev.run(&["--json", "player", "list"]).json();
    doc["players"]
        .as_array()
        .map(|a| a.iter().filter_map(|p| p["name"].as_str().map(String::from)).collect())
        .unwrap_or_default()
}

#[test]
fn adds_lists_renames_drops_and_undrops() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana Souza", "Seán O'Brien", "Łucja"]).ok();
    assert_eq!(names(&ev), ["Ana Souza", "Seán O'Brien", "Łucja"]);
    ev.run(&["player", "rename", "sean", "Seán Ó Briain"]).ok();
    ev.run(&["player", "drop", "luc"]).ok();
    let doc = ev.run(&["--json", "player", "list"]).json();
    assert_eq!(doc["players"][1]["name"], "Seán Ó Briain");
    assert_eq!(doc["players"][2]["dropped_after"], 0);
    ev.run(&["player", "undrop", "łucja"]).ok();
    let doc = ev.run(&["--json", "player", "list"]).json();
    assert_eq!(doc["players"][2]["dropped_after"], serde_json::Value::Null);
    let csv = ev.run(&["--csv", "player", "list"]).ok().to_string();
    assert!(csv.starts_with("#,name,id,email,status\n"), "{csv}");
    assert!(csv.contains("Seán Ó Briain"));
}

#[test]
fn refuses_duplicate_and_empty_names() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana"]).ok();
    assert!(ev.refuses(&["player", "add", "  ANA "]).contains("already a player"));
    assert!(ev.refuses(&["player", "add", "Bo", "bo"]).contains("appears twice"));
    assert!(ev.refuses(&["player", "add", "  "]).contains("empty name"));
    assert!(ev.refuses(&["player", "rename", "ana", ""]).contains("empty"));
    assert_eq!(names(&ev), ["Ana"]);
}

#[test]
fn refuses_unknown_and_ambiguous_prefixes_with_closest_names() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Anders", "Björn"]).ok();
    let msg = ev.refuses(&["player", "drop", "an"]);
    assert!(msg.contains("Ana") && msg.contains("Anders") && msg.contains("type more"), "{msg}");
    let msg = ev.refuses(&["player", "drop", "Bjarne"]);
    assert!(msg.contains("Björn"), "{msg}");
    assert!(ev.refuses(&["player", "undrop", "ana"]).contains("has not dropped"));
}

#[test]
fn imports_a_csv_all_or_nothing() {
    let ev = Event::new();
    let good = ev.file("good.csv", "name,id,email\nAna,P1,ana@example.org\n\"Seán O'Brien\",P2,\nZoë,,\n");
    ev.run(&["player", "import", &good.to_string_lossy()]).ok();
    assert_eq!(names(&ev), ["Ana", "Seán O'Brien", "Zoë"]);
    let doc = ev.run(&["--json", "player", "list"]).json();
    assert_eq!(doc["players"][0]["ext_id"], "P1");
    assert_eq!(doc["players"][0]["email"], "ana@example.org");

    let bad = ev.file("bad.csv", "name,id\nBo,P4\n,P5\nana,P6\nCy,P7,extra\n");
    let msg = ev.refuses(&["player", "import", &bad.to_string_lossy()]);
    assert!(msg.contains("line 5"), "{msg}");
    let bad2 = ev.file("bad2.csv", "name,id\nBo,P4\n,P5\nana,P6\n");
    let msg = ev.refuses(&["player", "import", &bad2.to_string_lossy()]);
    assert!(msg.contains("line 3: empty name") && msg.contains("line 4: \"ana\" is already a player"), "{msg}");
    let no_name = ev.file("noname.csv", "player,email\nBo,b@example.org\n");
    assert!(ev.refuses(&["player", "import", &no_name.to_string_lossy()]).contains("no \"name\" column"));
    assert_eq!(names(&ev).len(), 3);
}

/// A file of cards typed as the players is refused before anything is written (the pool would make 455 players
/// named after its cards), naming the file, what gives it away and the command that imports it.
#[test]
fn a_file_of_cards_is_refused_as_the_players_naming_its_own_import() {
    let ev = Event::new();
    ev.file("pool.csv", &std::fs::read_to_string(example("pool.csv")).expect("the pool"));
    let msg = ev.refuses(&["player", "import", "pool.csv"]);
    assert_eq!(
        msg.trim_end(),
        "error: pool.csv: nothing imported: this looks like a card pool (it has a mana_cost column), not a list of \
         players: import it with `mmjudge pool import pool.csv`; a players file has a `name` column, one player a \
         line (and `id` and `email` if you have them)"
    );
    let msg = ev.refuses(&["player", "import", &example("cards.csv")]);
    assert!(msg.contains("a card reference (it has a mana_cost column)"), "{msg}");
    assert!(msg.contains(&format!("`mmjudge cards import {}`", example("cards.csv"))), "{msg}");
    // MTGJSON's AtomicCards (JSON), a Scryfall list, a compressed file, a card CSV whose header has only a cost
    // and a type: each refused as cards, never read as a header of players.
    let json = ev.file("AtomicCards.json", "\u{feff}\n  {\"meta\": {\"date\": \"2025-01-01\"}, \"data\": {}}\n");
    let msg = ev.refuses(&["player", "import", &json.to_string_lossy()]);
    assert!(msg.contains("card data in JSON") && msg.contains("`mmjudge cards import "), "{msg}");
    let list = ev.file("scryfall.json", "[{\"name\": \"Abrade\"}]");
    assert!(ev.refuses(&["player", "import", &list.to_string_lossy()]).contains("card data in JSON"));
    let gz = ev.path("AtomicCards.json.gz");
    std::fs::write(&gz, [0x1f, 0x8b, 0x08, 0x00, 0x00]).expect("gz");
    assert!(ev.refuses(&["player", "import", &gz.to_string_lossy()]).contains("compressed card data"));
    let typed = ev.file("my cards.csv", "Name,Cost,Type\nAbrade,{1}{R},Instant\n");
    let msg = ev.refuses(&["player", "import", &typed.to_string_lossy()]);
    assert!(msg.contains("(it has a cost column)"), "{msg}");
    assert!(msg.contains(&format!("`mmjudge cards import \"{}\"`", typed.display())), "quoted: {msg}");
    assert!(names(&ev).is_empty());
    // A players file with an id and an e-mail still imports.
    ev.run(&["player", "import", &example("players.csv")]).ok();
    assert_eq!(names(&ev).len(), 16);
}

#[test]
fn the_bundled_player_list_imports() {
    let ev = Event::new();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/players.csv");
    ev.run(&["player", "import", &path.to_string_lossy()]).ok();
    let all = names(&ev);
    assert_eq!(all.len(), 16);
    assert!(all.iter().any(|n| n.contains('\'')), "an apostrophe");
    assert!(all.iter().any(|n| !n.is_ascii()), "accents");
}

#[test]
fn dropping_twice_says_when_the_player_left() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana"]).ok();
    ev.run(&["player", "drop", "Ana"]).ok();
    let msg = ev.refuses(&["player", "drop", "Ana"]);
    assert!(msg.contains("already dropped before round 1"), "{msg}");
    assert!(!msg.contains("round 0"), "{msg}");
}
