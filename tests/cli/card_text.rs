//! Card texts: `cards import` keeping texts and rulings (adding, `--replace`), `cards show`,
//! `cards find --text`, `cards import-rulings`, `rules`, and the template-rule fixes found on real data.
//! The fixtures are small and written for these tests (texts in our own words).

use crate::harness::Event;

/// A small MTGJSON set: texts, P/T, loyalty, rulings, a split card, a double-faced card, a ban.
const SET: &str = r#"{"meta":{"version":"5"},"data":{"code":"TST","type":"expansion","cards":[
 {"name":"Demonic Tutor","layout":"normal","manaCost":"{1}{B}","type":"Sorcery",
  "text":"Look through your library for any one card, put it into your hand, then shuffle.",
  "rulings":[{"date":"2004-10-04","text":"The card you find stays hidden from your opponent."}],
  "identifiers":{"scryfallOracleId":"oid-tutor"},"printings":["TST"],"legalities":{"vintage":"Legal"}},
 {"name":"Night's Whisper","layout":"normal","manaCost":"{1}{B}","type":"Sorcery",
  "text":"You draw two cards and you lose 2 life.","printings":["TST"],"legalities":{"vintage":"Legal"}},
 {"name":"Grim Study","layout":"normal","manaCost":"{1}{B}","type":"Enchantment",
  "text":"At the beginning of your upkeep, you lose 1 life and draw a card.","printings":["TST"]},
 {"name":"Divination","layout":"normal","manaCost":"{2}{U}","type":"Sorcery","text":"Draw two cards.",
  "identifiers":{"scryfallOracleId":"oid-divination"},"printings":["TST"]},
 {"name":"Scholar of Tomes","layout":"normal","manaCost":"{2}{U}","type":"Creature — Human Wizard",
  "text":"When this creature enters, draw a card.","power":"1","toughness":"3","printings":["TST"]},
 {"name":"Grizzly Bears","layout":"normal","manaCost":"{1}{G}","type":"Creature — Bear",
  "power":"2","toughness":"2","printings":["TST"]},
 {"name":"Jace Beleren","layout":"normal","manaCost":"{1}{U}{U}","type":"Legendary Planeswalker — Jace",
  "text":"+2: Each player draws a card.\n−1: Target player draws a card.","loyalty":"3","printings":["TST"]},
 {"name":"Fire // Ice","faceName":"Fire","side":"a","layout":"split","manaCost":"{1}{R}","type":"Instant",
  "text":"Fire deals 2 damage split between one or two targets.","printings":["TST"]},
 {"name":"Fire // Ice","faceName":"Ice","side":"b","layout":"split","manaCost":"{1}{U}","type":"Instant",
  "text":"Tap target permanent.\nDraw a card.","printings":["TST"]},
 {"name":"Delver of Secrets // Insectile Aberration","faceName":"Delver of Secrets","side":"a",
  "layout":"transform","manaCost":"{U}","type":"Creature — Human Wizard","power":"1","toughness":"1",
  "text":"Each upkeep, look at your top card; if it is an instant or sorcery, transform this.","printings":["TST"]},
 {"name":"Delver of Secrets // Insectile Aberration","faceName":"Insectile Aberration","side":"b",
  "layout":"transform","type":"Creature — Human Insect","power":"3","toughness":"2","text":"Flying",
  "printings":["TST"]},
 {"name":"Black Lotus","layout":"normal","manaCost":"{0}","type":"Artifact",
  "text":"{T}, Sacrifice this: Add three mana of one color.","printings":["TST"]}
]}}"#;

/// An event with the fixture set imported.
fn with_set() -> Event {
    let ev = Event::new();
    let f = ev.file("set.json", SET);
    at_notes_now(&ev, &["cards", "import", &f.to_string_lossy()]).ok();
    ev
}

fn show(ev: &Event, name: &str) -> serde_json::Value {
    at_notes_now(ev, &["--json", "cards", "show", name]).json()
}

#[test]
fn show_gives_text_pt_loyalty_rulings_and_mental_magic_status() {
    let ev = with_set();
    let tutor = show(&ev, "Demonic Tutor");
    assert_eq!(tutor["mana_cost"], "{1}{B}");
    assert_eq!(tutor["mana_value"], 2);
    assert_eq!(
        tutor["faces"][0]["text"],
        "Look through your library for any one card, put it into your hand, then shuffle."
    );
    assert_eq!(tutor["rulings"][0]["date"], "2004-10-04");
    assert!(tutor["mental_magic_rulings"][0]["text"].as_str().unwrap_or("").contains("no template"), "{tutor}");
    assert_eq!(tutor["status"]["binding"], "standard");
    assert_eq!(tutor["status"]["class_size"], 3, "Demonic Tutor, Night's Whisper, Grim Study: {tutor}");
    assert_eq!(tutor["status"]["banned"], serde_json::Value::Null);
    let bears = show(&ev, "Grizzly Bears");
    assert_eq!((bears["faces"][0]["power"].clone(), bears["faces"][0]["toughness"].clone()), ("2".into(), "2".into()));
    let jace = show(&ev, "Jace Beleren");
    assert_eq!(jace["faces"][0]["loyalty"], "3");
    let lotus = show(&ev, "Black Lotus");
    assert_eq!(lotus["status"]["banned"], "too-powerful");
    let text = at_notes_now(&ev, &["cards", "show", "Demonic Tutor"]).ok().to_string();
    for want in ["Look through your library", "2004-10-04", "3 cards share its binding class", "MM ruling"] {
        assert!(text.contains(want), "{want}: {text}");
    }
}

#[test]
fn show_finds_a_card_by_a_face_a_half_or_a_typo() {
    let ev = with_set();
    let delver = show(&ev, "Insectile Aberration");
    assert_eq!(delver["name"], "Delver of Secrets");
    assert_eq!(delver["asked"], "Insectile Aberration");
    assert_eq!(delver["faces"][1]["power"], "3");
    let fire = show(&ev, "ice");
    assert_eq!(fire["name"], "Fire // Ice");
    assert_eq!(fire["mana_value"], 4);
    assert_eq!(fire["faces"][1]["text"], "Tap target permanent.\nDraw a card.");
    assert_eq!(show(&ev, "demonic tutr")["name"], "Demonic Tutor");
    assert!(ev.refuses(&["cards", "show", "zzzz qqqq"]).contains("zzzz qqqq"));
}

#[test]
fn show_with_a_table_says_who_declared_the_card_and_when() {
    let ev = with_set();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    at_notes_now(&ev, &["round", "start", "--at", "09:00"]).ok();
    let doc = at_notes_now(&ev, &["--json", "cards", "show", "Demonic Tutor", "--table", "1"]).json();
    assert_eq!(doc["game"]["declared"], serde_json::Value::Null);
    at_notes_now(&ev, &["note", "1", "ana", "B1", "Demonic Tutor", "--at", "09:05"]).ok();
    let doc = at_notes_now(&ev, &["--json", "cards", "show", "Demonic Tutor", "--table", "1"]).json();
    assert_eq!(
        (doc["game"]["declared"]["by"].clone(), doc["game"]["declared"]["at"].clone()),
        ("Ana".into(), "09:05".into())
    );
    let text = at_notes_now(&ev, &["cards", "show", "demonic tutor", "--table", "1"]).ok().to_string();
    assert!(text.contains("already declared") && text.contains("Ana"), "{text}");
    let again = ev.refuses(&["note", "1", "bo", "B1", "Demonic Tutor"]);
    assert!(again.starts_with("error: MM.3e: a template is declared once per game"), "{again}");
}

#[test]
fn find_text_ranks_cards_and_shows_the_matching_words() {
    let ev = with_set();
    let doc = at_notes_now(&ev, &["--json", "cards", "find", "--text", "draw a card"]).json();
    let names: Vec<&str> =
        doc["cards"].as_array().map(|a| a.iter().filter_map(|c| c["name"].as_str()).collect()).unwrap_or_default();
    assert!(names.contains(&"Scholar of Tomes") && names.contains(&"Fire // Ice"), "{names:?}");
    assert!(!names.contains(&"Grizzly Bears"), "{names:?}");
    assert_eq!(doc["every_word"], true);
    let first = &doc["cards"][0];
    let matched = first["matched"].as_array().cloned().unwrap_or_default();
    assert!(matched.iter().any(|w| w.as_str().is_some_and(|w| w.contains("draw"))), "{doc}");
    assert!(first["snippet"].as_str().is_some_and(|s| s.contains('«')), "{doc}");
    // within a binding class, and by type
    let doc = at_notes_now(&ev, &["--json", "cards", "find", "--text", "draw", "--cost", "B1"]).json();
    let names: Vec<&str> =
        doc["cards"].as_array().map(|a| a.iter().filter_map(|c| c["name"].as_str()).collect()).unwrap_or_default();
    assert_eq!(
        names,
        vec!["Night's Whisper", "Grim Study"].into_iter().filter(|n| names.contains(n)).collect::<Vec<_>>()
    );
    assert!(names.len() == 2 && !names.contains(&"Divination"), "{names:?}");
    let doc = at_notes_now(&ev, &["--json", "cards", "find", "--text", "draw a card", "--type", "creature"]).json();
    assert_eq!(doc["cards"].as_array().map(|a| a.len()), Some(1), "{doc}");
    assert_eq!(doc["cards"][0]["name"], "Scholar of Tomes");
    // no card has every word: some of them
    let doc = at_notes_now(&ev, &["--json", "cards", "find", "--text", "draw zebra"]).json();
    assert_eq!(doc["every_word"], false);
    assert!(doc["cards"].as_array().is_some_and(|a| !a.is_empty()));
    let text = at_notes_now(&ev, &["cards", "find", "--text", "lose life"]).ok().to_string();
    assert!(text.contains("«lose»") && text.contains("Night's Whisper"), "{text}");
}

#[test]
fn find_text_without_texts_says_how_to_get_them() {
    let ev = Event::new();
    let csv = ev.file("c.csv", "name,mana_cost,type_line\nShock,{R},Instant\n");
    at_notes_now(&ev, &["cards", "import", &csv.to_string_lossy()]).ok();
    assert!(ev.refuses(&["cards", "find", "--text", "damage"]).contains("import an MTGJSON or Scryfall"));
    let doc = show(&ev, "Shock");
    assert_eq!(doc["faces"][0]["text"], serde_json::Value::Null);
    assert!(at_notes_now(&ev, &["cards", "show", "Shock"]).ok().contains("no text in this reference"));
}

#[test]
fn import_adds_and_updates_and_replace_starts_from_empty() {
    let ev = with_set();
    let csv = ev.file(
        "more.csv",
        "name,mana_cost,type_line,text\nShock,{R},Instant,Shock deals 2 damage to any target.\nDivination,{2}{U},Sorcery,\n",
    );
    let doc = at_notes_now(&ev, &["--json", "cards", "import", &csv.to_string_lossy()]).json();
    assert_eq!((doc["before"].as_u64(), doc["after"].as_u64()), (Some(10), Some(11)), "{doc}");
    assert_eq!((doc["added"].as_u64(), doc["updated"].as_u64()), (Some(1), Some(1)));
    // kept: the rest of the reference; Divination keeps the text and Oracle id the CSV did not give
    assert_eq!(show(&ev, "Demonic Tutor")["rulings"][0]["date"], "2004-10-04");
    assert_eq!(show(&ev, "Divination")["faces"][0]["text"], "Draw two cards.");
    assert_eq!(show(&ev, "Shock")["faces"][0]["text"], "Shock deals 2 damage to any target.");
    let human = at_notes_now(&ev, &["cards", "import", &csv.to_string_lossy()]).ok().to_string();
    assert!(human.contains("had 11 cards and now has 11"), "{human}");
    let doc = at_notes_now(&ev, &["--json", "cards", "import", &csv.to_string_lossy(), "--replace"]).json();
    assert_eq!((doc["replaced"].as_u64(), doc["after"].as_u64()), (Some(11), Some(2)), "{doc}");
    assert!(ev.refuses(&["cards", "show", "Demonic Tutor"]).contains("Demonic Tutor"));
}

#[test]
fn replace_during_a_round_needs_force() {
    let ev = with_set();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    at_notes_now(&ev, &["round", "start", "--at", "09:00"]).ok();
    let f = ev.file("set2.json", SET);
    let msg = ev.refuses(&["cards", "import", &f.to_string_lossy(), "--replace"]);
    assert!(msg.contains("round 1 is being played") && msg.contains("--force"), "{msg}");
    at_notes_now(&ev, &["cards", "import", &f.to_string_lossy()]).ok();
    at_notes_now(&ev, &["cards", "import", &f.to_string_lossy(), "--replace", "--force"]).ok();
}

#[test]
fn scryfall_texts_and_the_rulings_file() {
    let ev = Event::new();
    let bulk = r#"[
 {"object":"card","name":"Fire // Ice","layout":"split","mana_cost":"{1}{R} // {1}{U}","oracle_id":"oid-fire",
  "type_line":"Instant // Instant","set":"apc","games":["paper"],
  "card_faces":[{"name":"Fire","mana_cost":"{1}{R}","type_line":"Instant","oracle_text":"Fire hits one or two targets for 2 in all."},
                {"name":"Ice","mana_cost":"{1}{U}","type_line":"Instant","oracle_text":"Tap a permanent. Draw a card."}]},
 {"object":"card","name":"Divination","layout":"normal","mana_cost":"{2}{U}","oracle_id":"oid-divination",
  "type_line":"Sorcery","oracle_text":"Draw two cards.","set":"m10","games":["paper"]}]"#;
    let f = ev.file("oracle.json", bulk);
    at_notes_now(&ev, &["cards", "import", &f.to_string_lossy()]).ok();
    assert_eq!(show(&ev, "Fire")["faces"][0]["text"], "Fire hits one or two targets for 2 in all.");
    let rulings = r#"[{"object":"ruling","oracle_id":"oid-divination","source":"wotc","published_at":"2009-10-01","comment":"Both cards come from your own library."},
 {"object":"ruling","oracle_id":"oid-unknown","source":"wotc","published_at":"2010-01-01","comment":"For a card we do not have."}]"#;
    let r = ev.file("rulings.json", rulings);
    let doc = at_notes_now(&ev, &["--json", "cards", "import-rulings", &r.to_string_lossy()]).json();
    assert_eq!((doc["cards"].as_u64(), doc["unmatched"].as_u64()), (Some(1), Some(1)), "{doc}");
    assert_eq!(show(&ev, "Divination")["rulings"][0]["text"], "Both cards come from your own library.");
    let none = ev.file("none.json", r#"[{"oracle_id":"x","published_at":"2010-01-01","comment":"c"}]"#);
    assert!(ev.refuses(&["cards", "import-rulings", &none.to_string_lossy()]).contains("none of its 1 rulings"));
    let junk = ev.file("junk.json", "{\"nope\": 1}");
    assert!(ev.refuses(&["cards", "import-rulings", &junk.to_string_lossy()]).contains("not a Scryfall rulings file"));
}

#[test]
fn rules_lists_shows_and_searches() {
    let ev = Event::new();
    let all = at_notes_now(&ev, &["--json", "rules"]).json();
    assert!(all["rules"].as_array().is_some_and(|r| r.len() >= 20));
    let one = at_notes_now(&ev, &["--json", "rules", "MM.3h"]).json();
    assert_eq!(one["rules"][0]["id"], "MM.3h");
    assert_eq!(one["rules"].as_array().map(|a| a.len()), Some(1));
    assert!(at_notes_now(&ev, &["rules", "hybrid"]).ok().contains("MM.3h"));
    assert!(ev.refuses(&["rules", "no such rule words"]).contains("mmjudge rules"));
}

/// Cards for the template-rule fixes, in the shared CSV's shapes.
const FIXES_CSV: &str = "name,mana_cost,type_line,layout,faces,flags,sets
Who // What // When // Where // Why,{X}{W} // {2}{R} // {2}{U} // {3}{B} // {1}{G},Instant,split,Who= // What= // When= // Where= // Why=,,UNH
Fire // Ice,{1}{R} // {1}{U},Instant // Instant,split,Fire={1}{R} // Ice={1}{U},,APC
Counterspell,{U}{U},Instant,normal,,,LEA
Frost Lance,{1}{U},Instant,normal,,,LEA
Shock,{R},Instant,normal,,,LEA
+2 Mace,{1}{W},Artifact — Equipment,normal,,,AFR
Mesa Pegasus,{1}{W},Creature — Pegasus,normal,,,LEA
Wasteland,,Land,normal,,,TMP
Chilling Snowbolt,{1}{S}{R},Instant,normal,,,CSP
Crushing Blow,{2}{R},Instant,normal,,,LEA
";

fn with_fixes() -> Event {
    let ev = Event::new();
    let f = ev.file("fixes.csv", FIXES_CSV);
    at_notes_now(&ev, &["cards", "import", &f.to_string_lossy()]).ok();
    ev
}

#[test]
fn split_faces_without_costs_take_the_printed_halves() {
    let ev = with_fixes();
    at_notes_now(&ev, &["cards", "check", "WX", "Who // What // When // Where // Why"]).ok();
    at_notes_now(&ev, &["cards", "check", "G1", "Who // What // When // Where // Why"]).ok();
    let msg = ev.refuses(&["cards", "check", "0", "Who // What // When // Where // Why"]);
    assert!(msg.starts_with("error: MM.3: "), "{msg}");
}

#[test]
fn alphabet_lands_need_no_letter_and_initials_skip_signs() {
    let ev = with_fixes();
    at_notes_now(&ev, &["event", "set", "binding", "alphabet"]).ok();
    at_notes_now(&ev, &["cards", "check", "land", "Wasteland"]).ok();
    at_notes_now(&ev, &["cards", "check", "W1", "+2 Mace", "--letter", "m"]).ok();
    let msg = ev.refuses(&["cards", "check", "W1", "+2 Mace", "--letter", "p"]);
    assert!(msg.starts_with("error: BV.alphabet: "), "{msg}");
    assert!(ev.refuses(&["cards", "check", "B1", "Shock"]).contains("--letter"));
}

#[test]
fn snow_counts_as_one_generic_under_the_generic_alphabet_rules() {
    let ev = with_fixes();
    at_notes_now(&ev, &["event", "set", "binding", "alphabet-generic"]).ok();
    at_notes_now(&ev, &["cards", "check", "R2", "Chilling Snowbolt", "--letter", "c"]).ok();
    at_notes_now(&ev, &["event", "set", "binding", "alphabet-exact"]).ok();
    at_notes_now(&ev, &["cards", "check", "R2", "Chilling Snowbolt", "--letter", "c"]).ok();
    at_notes_now(&ev, &["cards", "check", "R2", "Crushing Blow", "--letter", "c"]).ok();
}

#[test]
fn a_typed_split_cost_is_understood() {
    let ev = with_fixes();
    at_notes_now(&ev, &["cards", "check", "{1}{R} // {1}{U}", "Fire // Ice"]).ok();
    at_notes_now(&ev, &["cards", "check", "R1 // U1", "Frost Lance"]).ok();
    let doc = at_notes_now(&ev, &["--json", "cards", "cost", "{1}{R} // {1}{U}"]).json();
    assert_eq!(doc["cost"], "{1}{R} // {1}{U}");
    let names: Vec<&str> =
        doc["cards"].as_array().map(|a| a.iter().filter_map(|c| c["name"].as_str()).collect()).unwrap_or_default();
    assert_eq!(names, vec!["Fire // Ice", "Frost Lance"]);
    assert!(ev.refuses(&["cards", "check", "R1 // U1", "Counterspell"]).contains("Counterspell"));
}

#[test]
fn note_sheets_show_a_declared_cards_text_on_hover() {
    let ev = with_set();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    at_notes_now(&ev, &["round", "start", "--at", "09:00"]).ok();
    at_notes_now(&ev, &["note", "1", "ana", "B1", "Demonic Tutor", "--at", "09:05"]).ok();
    let sheet = ev.path("t1.html");
    at_notes_now(&ev, &["notes", "1", "--html", &sheet.to_string_lossy()]).ok();
    let html = std::fs::read_to_string(&sheet).unwrap_or_default();
    assert!(html.contains("title=\"Look through your library for any one card"), "{html}");
    let site = ev.path("site");
    at_notes_now(&ev, &["site", &site.to_string_lossy(), "--judges"]).ok();
    let page = std::fs::read_to_string(site.join("round-1-notes.html")).unwrap_or_default();
    assert!(page.contains("title=\"Look through your library for any one card"), "{page}");
}

#[test]
fn the_sites_judging_page_links_each_declared_card_to_its_page() {
    let ev = with_set();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    at_notes_now(&ev, &["round", "start", "--at", "09:00"]).ok();
    at_notes_now(&ev, &["note", "1", "ana", "B1", "Demonic Tutor", "--at", "09:05"]).ok();
    at_notes_now(&ev, &["note", "1", "bo", "G1", "Grizzly Bears", "--at", "09:07"]).ok();
    ev.run_with(&["site", "out", "--judges"], &[("MMJUDGE_NOW", "2026-05-01T10:00:00Z")]).ok();
    let read = |f: &str| std::fs::read_to_string(ev.path("out").join(f)).unwrap_or_default();
    let judging = read("judging.html");
    assert!(judging.contains(r#"<a href="card-demonic-tutor.html">Demonic Tutor</a>"#), "{judging}");
    assert!(judging.contains(r#"<a href="card-grizzly-bears.html">Grizzly Bears</a>"#), "{judging}");
    let tutor = read("card-demonic-tutor.html");
    assert!(tutor.contains("Look through your library for any one card"), "{tutor}");
    assert!(tutor.contains("The card you find stays hidden from your opponent."), "{tutor}");
    assert!(tutor.contains("{1}{B} (mana value 2)"), "{tutor}");
    assert!(!tutor.contains("mmjudge cards import FILE"), "a card with text needs no import: {tutor}");
    let bears = read("card-grizzly-bears.html");
    assert!(bears.contains("<p>2/2</p>") && !bears.contains("mmjudge cards import FILE"), "{bears}");
    let index = read("index.html");
    assert!(!index.contains("card-demonic-tutor.html"), "card pages are reached from the judging page: {index}");
    insta::assert_snapshot!("site_card_page_demonic_tutor", tutor);
}

#[test]
fn a_card_page_says_how_to_get_texts_when_the_reference_has_none() {
    let ev = Event::new();
    let f = ev.file("names.csv", "name,mana_cost,type_line\nDemonic Tutor,{1}{B},Sorcery\nDuress,{B},Sorcery\n");
    at_notes_now(&ev, &["cards", "import", "--replace", &f.to_string_lossy()]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    at_notes_now(&ev, &["round", "start", "--at", "09:00"]).ok();
    at_notes_now(&ev, &["note", "1", "ana", "B1", "Demonic Tutor", "--at", "09:05"]).ok();
    at_notes_now(&ev, &["site", "out", "--judges"]).ok();
    let page = std::fs::read_to_string(ev.path("out").join("card-demonic-tutor.html")).unwrap_or_default();
    assert!(page.contains("the card step of the set-up page") && page.contains("MTGJSON or Scryfall"), "{page}");
    assert!(!page.contains("mmjudge cards import"), "the site speaks no command line: {page}");
}

/// Runs a command at the harness's fixed moment, so that `--at HH:MM` means the same day whenever the test runs
/// (with the real clock, a morning `--at` is "in the future" between midnight and that hour).
fn at_notes_now(ev: &crate::harness::Event, args: &[&str]) -> crate::harness::Run {
    ev.run_with(args, &[("MMJUDGE_NOW", crate::harness::NOTES_NOW)])
}
