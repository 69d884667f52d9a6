//! `cards` and `ban`: the reference, binding classes, declaration checks and the ban list.

use crate::harness::Event;

/// An event with the bundled reference loaded.
pub fn with_reference() -> Event {
    Event::with_reference()
}

/// The card names of a `cards cost --json` document.
fn card_names(doc: &serde_json::Value) -> Vec<String> {
    doc["cards"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| c["name"].as_str().map(String::from)).collect())
        .unwrap_or_default()
}

#[test]
fn imports_the_bundled_reference() {
    let ev = Event::new();
    let cards = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cards.csv");
    let doc = ev.run(&["--json", "cards", "import", &cards.to_string_lossy()]).json();
    assert_eq!(doc["format"], "CSV");
    assert!(doc["cards"].as_u64().unwrap_or(0) > 1500, "{doc}");
    // importing again updates every card: the reference keeps its size
    let again = ev.run(&["--json", "cards", "import", &cards.to_string_lossy()]).json();
    assert_eq!(again["cards"], doc["cards"]);
    assert_eq!((again["updated"].clone(), again["added"].clone()), (doc["cards"].clone(), 0.into()));
    assert_eq!((again["before"].clone(), again["after"].clone()), (doc["cards"].clone(), doc["cards"].clone()));
    assert_eq!(again["replaced"], 0);
}

#[test]
fn checks_declarations_with_the_template_rules() {
    let ev = with_reference();
    assert!(ev.run(&["cards", "check", "B1", "Demonic Tutor"]).ok().starts_with("legal"));
    assert!(ev.run(&["cards", "check", "{1}{B}", "demonic tutor"]).ok().starts_with("legal"));
    // hybrid: Flame Javelin matches every combination of its halves
    for cost in ["RRR", "RR2", "R4", "6"] {
        assert!(ev.run(&["cards", "check", cost, "Flame Javelin"]).ok().starts_with("legal"), "{cost}");
    }
    // phyrexian counts as its colour; no cost counts as {0}; split cards match either half
    ev.run(&["cards", "check", "U", "Gitaxian Probe"]).ok();
    ev.run(&["cards", "check", "0", "Ancestral Vision"]).ok();
    ev.run(&["cards", "check", "0", "Dryad Arbor"]).ok(); // a land has no mana cost: it counts as {0}
    assert!(ev.refuses(&["cards", "check", "0", "Forest"]).contains("Forest"), "basic lands are no template");
    ev.run(&["cards", "check", "R1", "Fire // Ice"]).ok();
    ev.run(&["cards", "check", "U1", "Fire // Ice"]).ok();
    let msg = ev.refuses(&["cards", "check", "B2", "Demonic Tutor"]);
    assert!(msg.contains("Demonic Tutor costs {1}{B}, not {2}{B}"), "{msg}");
    assert!(ev.refuses(&["cards", "check", "U", "Ancestral Recall"]).contains("banned"));
    assert!(ev.refuses(&["cards", "check", "B1", "Utopia"]).contains("Utopia"));
    assert!(ev.refuses(&["cards", "check", "B1", "Demonik Tootor"]).contains("Demonic Tutor"));
    assert!(ev.refuses(&["cards", "check", "B-1", "Demonic Tutor"]).contains("cannot read cost"));
    assert!(ev.refuses(&["cards", "check", "{Q}", "Demonic Tutor"]).contains("\"Q\""));
}

#[test]
fn split_cards_match_the_combined_cost_only_when_the_event_says_so() {
    let ev = with_reference();
    ev.refuses(&["cards", "check", "{2}{U}{R}", "Fire // Ice"]);
    ev.run(&["event", "set", "split-combined", "on"]).ok();
    ev.run(&["cards", "check", "{2}{U}{R}", "Fire // Ice"]).ok();
}

#[test]
fn excluded_kinds_are_refused_unless_allowed() {
    let ev = with_reference();
    let doc = ev.run(&["--json", "cards", "find", "Blacker Lotus", "--limit", "1"]).json();
    assert_eq!(doc["cards"][0]["kinds"][0], "joke", "{doc}");
    let cost = doc["cards"][0]["mana_cost"].as_str().unwrap_or("").to_string();
    assert!(ev.refuses(&["cards", "check", &cost, "Blacker Lotus"]).contains("joke"));
    ev.run(&["event", "set", "allow-joke", "on"]).ok();
    ev.run(&["cards", "check", &cost, "Blacker Lotus"]).ok();
}

#[test]
fn finds_names_forgiving_typos_and_accents() {
    let ev = with_reference();
    let first = |q: &str| ev.run(&["--json", "cards", "find", q]).json()["cards"][0]["name"].clone();
    assert_eq!(first("nevinyrals disk"), "Nevinyrral's Disk");
    assert_eq!(first("dandan"), "Dandân");
    assert_eq!(first("demonic tutr"), "Demonic Tutor");
    assert_eq!(first("fire ice"), "Fire // Ice");
}

#[test]
fn lists_a_binding_class() {
    let ev = with_reference();
    let doc = ev.run(&["--json", "cards", "cost", "RRR"]).json();
    let names = card_names(&doc);
    assert!(names.contains(&"Flame Javelin".to_string()), "{names:?}");
    assert!(names.contains(&"Ball Lightning".to_string()), "{names:?}");
    assert_eq!(doc["count"].as_u64(), Some(names.len() as u64));
    let zero = ev.run(&["--json", "cards", "cost", "0"]).json();
    let banned = zero["banned"].as_array().cloned().unwrap_or_default();
    assert!(banned.iter().any(|b| b == "Black Lotus"), "{zero}");
    let csv = ev.run(&["--csv", "cards", "cost", "B1"]).ok().to_string();
    assert!(csv.starts_with("card,cost,type\n") && csv.contains("Demonic Tutor"), "{csv}");
}

#[test]
fn a_printed_land_may_be_declared_as_a_nonbasic_land() {
    let ev = with_reference();
    ev.run(&["cards", "check", "land", "Wasteland"]).ok();
    assert!(ev.refuses(&["cards", "check", "land", "Forest"]).contains("Forest"), "no basic land under standard");
    assert!(ev.refuses(&["cards", "check", "land", "Demonic Tutor"]).contains("Demonic Tutor"));
    let doc = ev.run(&["--json", "cards", "cost", "land"]).json();
    let names = card_names(&doc);
    assert!(names.contains(&"Wasteland".to_string()) && !names.contains(&"Forest".to_string()), "{names:?}");
    ev.run(&["event", "set", "binding", "alphabet"]).ok();
    ev.run(&["cards", "check", "land", "Forest", "--letter", "f"]).ok();
}

#[test]
fn alphabet_binding_needs_the_printed_letter() {
    let ev = with_reference();
    ev.run(&["event", "set", "binding", "alphabet"]).ok();
    assert!(ev.refuses(&["cards", "check", "B1", "Demonic Tutor"]).contains("--letter"));
    ev.run(&["cards", "check", "B1", "Demonic Tutor", "--letter", "D"]).ok();
    ev.run(&["cards", "check", "U5", "Dark Ritual", "--letter", "d"]).ok();
}

#[test]
fn refuses_bad_reference_files_and_changes_nothing() {
    let ev = with_reference();
    let junk = ev.file("junk.txt", "hello, this is not a card file\n");
    assert!(ev.refuses(&["cards", "import", &junk.to_string_lossy()]).contains("nothing imported"));
    let no_name = ev.file("noname.csv", "card,mana_cost,type_line\nBolt,{R},Instant\n");
    assert!(ev.refuses(&["cards", "import", &no_name.to_string_lossy()]).contains("name"));
    let full = r#"{"data":{"Lightning Bolt":[{"name":"Lightning Bolt","manaCost":"{R}","type":"Instant","layout":"normal"}],"Dark Ritual":[{"name":"Dark Ritual","manaCost":"{B}","type":"Instant","layout":"normal"}]}}"#;
    let truncated = ev.file("cut.json", &full[..full.len() / 2]);
    assert!(ev.refuses(&["cards", "import", &truncated.to_string_lossy()]).contains("nothing imported"));
    assert!(ev.refuses(&["cards", "check", "B1", ""]).contains("name"));
}

#[test]
fn imports_mtgjson_atomic_cards() {
    let ev = Event::new();
    let atomic = r#"{"meta":{},"data":{"Lightning Bolt":[{"name":"Lightning Bolt","manaCost":"{R}","type":"Instant","types":["Instant"],"layout":"normal","text":"Lightning Bolt deals 3 damage to any target."}],"Fire // Ice":[{"name":"Fire // Ice","faceName":"Fire","side":"a","manaCost":"{1}{R}","type":"Instant","types":["Instant"],"layout":"split","text":"x"},{"name":"Fire // Ice","faceName":"Ice","side":"b","manaCost":"{1}{U}","type":"Instant","types":["Instant"],"layout":"split","text":"y"}]}}"#;
    let f = ev.file("atomic.json", atomic);
    let doc = ev.run(&["--json", "cards", "import", &f.to_string_lossy()]).json();
    assert_eq!(doc["cards"], 2, "{doc}");
    ev.run(&["cards", "check", "U1", "Fire // Ice"]).ok();
    ev.run(&["cards", "check", "R", "Lightning Bolt"]).ok();
}

/// The import's line says how many non-card objects (tokens, emblems) were left out only when there were some:
/// a CSV of cards has none, and its line does not say "0 non-card objects".
#[test]
fn the_import_names_non_card_objects_left_out_only_when_there_are_some() {
    let ev = Event::new();
    let cards = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cards.csv");
    let said = ev.run(&["cards", "import", &cards.to_string_lossy()]).ok().to_string();
    assert!(said.contains("the reference had 0 cards and now has 1927; the file has no card texts"), "{said}");
    assert!(!said.contains("non-card"), "{said}");
    let atomic = r#"{"meta":{},"data":{"Lightning Bolt":[{"name":"Lightning Bolt","manaCost":"{R}","type":"Instant","types":["Instant"],"layout":"normal","text":"x"}],"Goblin":[{"name":"Goblin","type":"Token Creature — Goblin","types":["Creature"],"layout":"token","text":""}],"Ajani Emblem":[{"name":"Ajani Emblem","type":"Emblem — Ajani","types":["Emblem"],"layout":"emblem","text":""}]}}"#;
    let f = ev.file("atomic.json", atomic);
    let said = ev.run(&["cards", "import", &f.to_string_lossy()]).ok().to_string();
    assert!(said.contains("; 2 non-card objects left out"), "{said}");
}

#[test]
fn needs_a_reference_before_checking() {
    let ev = Event::new();
    assert!(ev.refuses(&["cards", "check", "B1", "Demonic Tutor"]).contains("cards import"));
}

#[test]
fn manages_the_ban_list() {
    let ev = with_reference();
    let doc = ev.run(&["--json", "ban", "list"]).json();
    let bans = doc["bans"].as_array().cloned().unwrap_or_default();
    assert_eq!(bans.len(), 64, "the ruleset's default list");
    assert!(bans.iter().any(|b| b["card"] == "Time Walk" && b["group"] == "too-powerful"));
    ev.run(&["ban", "add", "demonic tutor", "--group", "too-powerful", "--reason", "finds anything"]).ok();
    assert!(ev.refuses(&["cards", "check", "B1", "Demonic Tutor"]).contains("banned"));
    let msg = ev.refuses(&["ban", "add", "Demonic Tutr", "--group", "too-powerful"]);
    assert!(msg.contains("Demonic Tutor") && msg.contains("--force"), "{msg}");
    assert!(ev.refuses(&["ban", "add", "Dark Ritual", "--group", "silly"]).contains("too-powerful"));
    ev.run(&["ban", "add", "Homebrew Card", "--group", "too-powerful", "--force"]).ok();
    ev.run(&["ban", "remove", "Demonic Tutor"]).ok();
    ev.run(&["cards", "check", "B1", "Demonic Tutor"]).ok();
    assert!(ev.refuses(&["ban", "remove", "Demonic Tutor"]).contains("not banned"));
}

#[test]
fn a_missing_reference_file_says_so_in_words() {
    let ev = Event::new();
    let missing = ev.path("missing.csv");
    let msg = ev.refuses(&["cards", "import", &missing.to_string_lossy()]);
    assert!(msg.contains("no such file: check the path"), "{msg}");
    assert!(!msg.contains("os error"), "{msg}");
}

#[test]
fn ban_add_of_a_name_with_nothing_close_reads_well() {
    let ev = Event::new();
    let csv = ev.file("tiny.csv", "name,mana_cost,type_line\nShock,{R},Instant\n");
    ev.run(&["cards", "import", &csv.to_string_lossy()]).ok();
    let msg = ev.refuses(&["ban", "add", "Zzyzx Qqq", "--group", "too-powerful"]);
    assert!(!msg.contains("closest are ;"), "{msg}");
    assert!(msg.contains("--force"), "{msg}");
}
