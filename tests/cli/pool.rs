//! `pool`: importing and editing the judges' cards, the curation report, the watch list.

use crate::cards::with_reference;
use crate::harness::{Event, example};

/// An event with the bundled reference and the bundled pool.
pub fn with_pool() -> Event {
    Event::with_pool()
}

fn group<'a>(doc: &'a serde_json::Value, cost: &str) -> &'a serde_json::Value {
    doc["groups"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["cost"] == cost))
        .unwrap_or_else(|| panic!("no group {cost} in {doc}"))
}

fn flags(g: &serde_json::Value) -> Vec<String> {
    g["flags"]
        .as_array()
        .map(|f| f.iter().map(|x| x["flag"].as_str().unwrap_or("").to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn imports_the_bundled_pool_with_lands_apart() {
    let ev = with_reference();
    let doc = ev.run(&["--json", "pool", "import", &example("pool.csv")]).json();
    assert_eq!(doc["copies"], 767, "{doc}");
    assert_eq!(doc["land_copies"], 20);
    assert_eq!(doc["unknown"].as_array().map(Vec::len), Some(0));
    let list = ev.run(&["--json", "pool", "list"]).json();
    assert_eq!(list["totals"]["spells"], 747);
    assert_eq!(list["totals"]["lands"], 20);
    let forest = list["cards"].as_array().and_then(|c| c.iter().find(|c| c["name"] == "Forest")).cloned();
    assert_eq!(forest.map(|f| f["is_basic"].clone()), Some(serde_json::json!(true)));
    // a second import adds; --replace starts over
    ev.run(&["pool", "import", &example("pool.csv")]).ok();
    assert_eq!(ev.run(&["--json", "pool", "list"]).json()["totals"]["copies"], 1534);
    ev.run(&["pool", "import", "--replace", &example("pool.csv")]).ok();
    assert_eq!(ev.run(&["--json", "pool", "list"]).json()["totals"]["copies"], 767);
}

#[test]
fn the_reference_fills_in_costs_and_names() {
    let ev = with_reference();
    let csv = ev.file("p.csv", "name,count,mana_cost\nshock,2,\nDemonic Tutor,,{5}\nfire ice,1,\nShock,1,\n");
    let doc = ev.run(&["--json", "pool", "import", &csv.to_string_lossy()]).json();
    assert_eq!(doc["copies"], 5);
    assert_eq!(doc["cost_notes"][0], "line 3: Demonic Tutor costs {1}{B}, not {5}", "{doc}");
    let list = ev.run(&["--json", "pool", "list"]).json();
    let cards = list["cards"].as_array().cloned().unwrap_or_default();
    let get = |n: &str| cards.iter().find(|c| c["name"] == n).cloned().unwrap_or_default();
    assert_eq!(get("Shock")["copies"], 3);
    assert_eq!(get("Demonic Tutor")["mana_cost"], "{1}{B}");
    assert_eq!(get("Fire // Ice")["mana_cost"], "{1}{R} // {1}{U}");
}

#[test]
fn unknown_names_need_a_cost_and_allow_unknown() {
    let ev = with_reference();
    let csv = ev.file("u.csv", "name,count,mana_cost,type_line\nDemonic Tutr,1,,\n");
    let msg = ev.refuses(&["pool", "import", &csv.to_string_lossy()]);
    assert!(msg.contains("line 2") && msg.contains("Demonic Tutor") && msg.contains("no mana_cost"), "{msg}");
    let csv = ev.file("u2.csv", "name,count,mana_cost,type_line\nHomebrew Bolt,2,{R},Instant\n");
    let msg = ev.refuses(&["pool", "import", &csv.to_string_lossy()]);
    assert!(msg.contains("--allow-unknown"), "{msg}");
    let doc = ev.run(&["--json", "pool", "import", "--allow-unknown", &csv.to_string_lossy()]).json();
    assert_eq!(doc["unknown"][0], "Homebrew Bolt");
    let list = ev.run(&["pool", "list"]).ok().to_string();
    assert!(list.contains("unknown to the reference"), "{list}");
}

#[test]
fn refuses_bad_counts_and_files() {
    let ev = with_reference();
    for (body, want) in [
        ("name,count\nShock,-2\n", "negative"),
        ("name,count\nShock,two\n", "not a whole number"),
        ("name,count\nShock,1.5\n", "not a whole number"),
        ("card title,count\nShock,1\n", "no \"name\" column"),
        ("name,count\n", "no cards"),
        ("name,count\nShock,1,extra\n", "3 fields"),
    ] {
        let f = ev.file("bad.csv", body);
        let msg = ev.refuses(&["pool", "import", &f.to_string_lossy()]);
        assert!(msg.contains(want), "{body}: {msg}");
    }
    let msg = ev.refuses(&["pool", "import", "missing.csv"]);
    assert!(msg.contains("missing.csv"), "{msg}");
    let bare = Event::new();
    let f = bare.file("p.csv", "name\nShock\n");
    assert!(bare.refuses(&["pool", "import", &f.to_string_lossy()]).contains("cards import"));
}

#[test]
fn adds_removes_excludes_and_includes_cards() {
    let ev = with_reference();
    assert!(ev.run(&["pool", "add", "shock", "--count", "3"]).ok().contains("Shock (3 copies now)"));
    ev.run(&["pool", "add", "Shock"]).ok();
    assert!(ev.refuses(&["pool", "add", "Demonic Tutr"]).contains("Demonic Tutor"));
    assert!(ev.refuses(&["pool", "add", "Shock", "--count", "0"]).contains("from 1 to 1,000"));
    assert!(ev.refuses(&["pool", "add", "Homebrew", "--cost", "R"]).contains("--allow-unknown"));
    ev.run(&["pool", "add", "Homebrew", "--cost", "R", "--type", "Instant", "--allow-unknown"]).ok();
    assert!(ev.refuses(&["pool", "remove", "Shock", "--count", "5"]).contains("at most"));
    assert!(ev.refuses(&["pool", "remove", "Shokc"]).contains("Shock"));
    ev.run(&["pool", "remove", "Shock", "--count", "1"]).ok();
    ev.run(&["pool", "exclude", "shock"]).ok();
    assert!(ev.refuses(&["pool", "exclude", "Shock"]).contains("already excluded"));
    let check = ev.run(&["--json", "pool", "check"]).json();
    assert_eq!(check["excluded"]["copies"], 3, "{check}");
    ev.run(&["pool", "include", "Shock"]).ok();
    assert!(ev.refuses(&["pool", "include", "Shock"]).contains("not excluded"));
    ev.run(&["pool", "remove", "Homebrew"]).ok();
    let list = ev.run(&["--json", "pool", "list"]).json();
    assert_eq!(list["cards"].as_array().map(Vec::len), Some(1), "{list}");
}

#[test]
fn the_curation_report_flags_the_problem_costs() {
    let ev = with_pool();
    let doc = ev.run(&["--json", "pool", "check"]).json();
    assert_eq!(doc["binding"], "standard");
    assert_eq!(doc["summary"]["copies"], 747);
    assert_eq!(doc["basic_lands"], 10);
    let wave = group(&doc, "{3}{R}{R}{R}{R}");
    assert_eq!(flags(wave), vec!["unusable", "restrictive"]);
    let twist = group(&doc, "{X}{B}");
    assert!(flags(twist).contains(&"abusive".to_string()));
    assert_eq!(twist["watched"][0], "Mind Twist");
    // A banned card in a class is information, never abusive: nobody may declare it.
    let zero = group(&doc, "{0}");
    assert!(zero["banned"].as_array().is_some_and(|d| d.contains(&"Black Lotus".into())), "{zero}");
    assert_eq!(zero["dangerous"], serde_json::json!([]), "{zero}");
    assert!(!flags(zero).contains(&"abusive".to_string()), "{zero}");
    let blue = group(&doc, "{U}");
    assert!(flags(blue).is_empty(), "{blue}");
    assert_eq!(blue["banned_note"], "{U}: Ancestral Recall is banned; 58 other cards");
    assert_eq!(doc["summary"]["abusive"]["groups"], 1, "only {{X}}{{B}} (Mind Twist) is abusive");
    assert_eq!(flags(group(&doc, "{B}{B}{B}{B}")), vec!["restrictive", "restrictive"]);
    assert!(flags(group(&doc, "{1}{B}")).is_empty(), "{}", group(&doc, "{1}{B}"));
    let human = ev.run(&["pool", "check"]).ok().to_string();
    assert!(human.contains("unusable") && human.contains("Flame Wave"), "{human}");
    assert!(!human.contains("Demonic Tutor"), "clean costs are listed only with --all");
    let page = ev.path("check.html");
    ev.run(&["pool", "check", "--html", &page.to_string_lossy()]).ok();
    let html = std::fs::read_to_string(&page).unwrap_or_default();
    assert!(html.contains("Pool check") && html.contains("{X}{B}") && html.contains("Mind Twist"));
    assert!(!html.contains("<link") && html.contains("@media print"), "one page, stylesheet inlined");
    let csv = ev.run(&["--csv", "pool", "check", "--all"]).ok().to_string();
    assert!(csv.starts_with("cost,copies,class,flag,why,pool cards"), "{csv}");
}

#[test]
fn excluding_a_card_clears_its_flag() {
    let ev = with_pool();
    ev.run(&["pool", "exclude", "Death Wind"]).ok();
    let doc = ev.run(&["--json", "pool", "check"]).json();
    assert!(doc["groups"].as_array().is_some_and(|g| g.iter().all(|g| g["cost"] != "{X}{B}")));
}

#[test]
fn the_watch_list_marks_costs_abusive() {
    let ev = with_pool();
    let list = ev.run(&["--json", "pool", "watch", "list"]).json();
    assert_eq!(list["watch"][0]["card"], "Mind Twist");
    assert!(flags(group(&ev.run(&["--json", "pool", "check"]).json(), "{2}{U}")).is_empty());
    ev.run(&["pool", "watch", "add", "timetwister", "--note", "refills both hands"]).ok();
    let doc = ev.run(&["--json", "pool", "check"]).json();
    assert_eq!(flags(group(&doc, "{2}{U}")), vec!["abusive"]);
    assert!(ev.refuses(&["pool", "watch", "add", "Timetwistr"]).contains("Timetwister"));
    ev.run(&["pool", "watch", "add", "Not A Card", "--force"]).ok();
    ev.run(&["pool", "watch", "remove", "timetwister"]).ok();
    assert!(ev.refuses(&["pool", "watch", "remove", "Timetwister"]).contains("not on the watch list"));
}

#[test]
fn alphabet_binding_checks_cost_and_letter() {
    let ev = with_pool();
    ev.run(&["event", "set", "binding", "alphabet"]).ok();
    let doc = ev.run(&["--json", "pool", "check"]).json();
    assert_eq!(doc["binding"], "alphabet");
    let g = doc["groups"].as_array().and_then(|g| g.iter().find(|g| g["names"][0] == "Shock")).cloned();
    assert_eq!(g.map(|g| g["letter"].clone()), Some(serde_json::json!("s")));
}

#[test]
fn an_empty_pool_has_nothing_to_check() {
    let ev = with_reference();
    assert!(ev.refuses(&["pool", "check"]).contains("pool import"));
    assert!(ev.refuses(&["pool", "exclude", "Shock"]).contains("pool is empty"));
}

#[test]
fn a_name_near_no_card_is_refused_without_an_empty_closest_hint() {
    let ev = with_reference();
    let csv = ev.file("v.csv", "name,count\nActive Volcano,1\n");
    let msg = ev.refuses(&["pool", "import", &csv.to_string_lossy()]);
    let want = "line 2: \"Active Volcano\" is not in the card reference and has no mana_cost: correct the name or \
                give its cost and type";
    assert!(msg.trim_end().ends_with(want), "{msg}");
    let csv = ev.file("v2.csv", "name,count,mana_cost,type_line\nActive Volcano,1,{R},Instant\n");
    let msg = ev.refuses(&["pool", "import", &csv.to_string_lossy()]);
    assert!(msg.contains("line 2: \"Active Volcano\" is not in the card reference; correct the names"), "{msg}");
    let msg = ev.refuses(&["pool", "watch", "add", "Active Volcano"]);
    let want =
        "error: \"Active Volcano\" is not in the card reference: correct the name, or --force to watch it anyway";
    assert_eq!(msg.trim_end(), want);
    // A name near some card still gets them.
    let msg = ev.refuses(&["pool", "watch", "add", "Timetwistr"]);
    assert!(msg.contains("is not in the card reference (closest: Timetwister"), "{msg}");
}
