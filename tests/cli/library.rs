//! `library`: building, listing, showing and swapping libraries, deck sheets, sealed registration.

use crate::harness::Event;
use crate::pool::with_pool;
use std::collections::HashMap;

/// An event with the bundled pool built into 8 tables.
fn built() -> Event {
    Event::cached("library::built", || {
        let ev = with_pool();
        ev.run(&["library", "build", "--tables", "8"]).ok();
        ev
    })
}

fn names_in(ev: &Event, library: &str) -> Vec<String> {
    let doc = ev.run(&["--json", "library", "show", library]).json();
    doc["cards"]
        .as_array()
        .map(|c| c.iter().map(|c| c["name"].as_str().unwrap_or("").to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn builds_balanced_libraries_for_every_table() {
    let ev = with_pool();
    let doc = ev.run(&["--json", "library", "build", "--tables", "8"]).json();
    assert_eq!(doc["seed"], 42, "the event's seed by default");
    let libs = doc["libraries"].as_array().cloned().unwrap_or_default();
    assert_eq!(libs.len(), 16);
    assert_eq!(libs[0]["library"], "1A");
    assert_eq!(libs[15]["library"], "8B");
    assert!(libs.iter().all(|l| l["cards"] == 40 && l["utopia"] == 30));
    assert!(libs.iter().all(|l| l["distance_from_mean"].as_f64().is_some_and(|d| d < 12.0)), "{doc}");
    assert!(doc["worst_pair"]["distance"].as_f64().is_some_and(|d| d <= 6.0), "{doc}");
    assert_eq!(doc["basics"]["needed"], 480);
    assert_eq!(doc["basics"]["in_pool"], 10);
    assert_eq!(doc["basics"]["to_find"], 470);
    // Absorb and Flame Wave (unusable costs) are left out: 745 copies to build from.
    assert_eq!(doc["spells_left"], 745 - 640);
    assert_eq!(doc["unusable_in_libraries"], serde_json::json!([]));
    let left_out: Vec<&str> =
        doc["left_out"].as_array().map(|l| l.iter().filter_map(|c| c["card"].as_str()).collect()).unwrap_or_default();
    assert_eq!(left_out, ["Absorb", "Flame Wave"], "{doc}");
    let human = ev.run(&["library", "build", "--tables", "8"]).ok().to_string();
    assert!(human.contains("worst pair: table") && human.contains("480 basic lands"), "{human}");
}

#[test]
fn no_physical_copy_is_used_twice() {
    let ev = built();
    let pool = ev.run(&["--json", "pool", "list"]).json();
    let copies: HashMap<String, u64> = pool["cards"]
        .as_array()
        .map(|c| {
            c.iter()
                .map(|c| (c["name"].as_str().unwrap_or("").to_string(), c["copies"].as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    let mut used: HashMap<String, u64> = HashMap::new();
    for t in 1..=8 {
        for s in ["A", "B"] {
            for n in names_in(&ev, &format!("{t}{s}")) {
                *used.entry(n).or_default() += 1;
            }
        }
    }
    assert_eq!(used.values().sum::<u64>(), 640);
    for (name, n) in &used {
        assert!(*n <= copies.get(name).copied().unwrap_or(0), "{name}: {n} used");
    }
    let in_libs: u64 =
        pool["cards"].as_array().map(|c| c.iter().map(|c| c["in_libraries"].as_u64().unwrap_or(0)).sum()).unwrap_or(0);
    assert_eq!(in_libs, 640);
}

#[test]
fn the_same_seed_builds_the_same_libraries() {
    let ev = with_pool();
    ev.run(&["library", "build", "--tables", "4", "--seed", "9"]).ok();
    let first = names_in(&ev, "2B");
    ev.run(&["library", "build", "--tables", "4", "--seed", "9"]).ok();
    assert_eq!(names_in(&ev, "2b"), first);
    ev.run(&["library", "build", "--tables", "4", "--seed", "10"]).ok();
    assert_ne!(names_in(&ev, "2B"), first);
    // fewer tables remove the libraries beyond them
    let doc = ev.run(&["--json", "library", "build", "--tables", "2"]).json();
    assert_eq!(doc["removed"], serde_json::json!(["3A", "3B", "4A", "4B"]));
    assert!(ev.refuses(&["library", "show", "3A"]).contains("1A to 2B"));
}

#[test]
fn refuses_impossible_builds() {
    let ev = with_pool();
    assert!(ev.refuses(&["library", "build", "--tables", "0"]).contains("from 1 to 10,000"));
    let msg = ev.refuses(&["library", "build", "--tables", "10"]);
    assert!(
        msg.contains("need 800 spell copies")
            && msg.contains("55 short: about 15 costing 1, 21 costing 2")
            && msg.contains("; 2 copies of unusable costs are left out, which --keep-unusable")
            && msg.contains("at most 9 tables"),
        "{msg}"
    );
    assert!(msg.contains("600 basic lands"), "{msg}");
    let bare = crate::cards::with_reference();
    let msg = bare.refuses(&["library", "build", "--tables", "1"]);
    assert!(msg.contains("80 short") && msg.contains("add cards to the pool"), "{msg}");
}

#[test]
fn rebuilding_after_round_one_needs_force_and_is_audited() {
    let ev = built();
    ev.mark_round_paired(1);
    let msg = ev.refuses(&["library", "build", "--tables", "8"]);
    assert!(msg.contains("locked") && msg.contains("--force"), "{msg}");
    assert!(ev.refuses(&["library", "swap", "1A", "x", "y"]).contains("locked"));
    ev.run(&["library", "build", "--tables", "8", "--force", "--seed", "5"]).ok();
    let log = ev.run(&["log"]).ok().to_string();
    assert!(log.contains("forced: round 1 is paired"), "{log}");
}

#[test]
fn list_and_show_describe_the_libraries() {
    let ev = built();
    let list = ev.run(&["--json", "library", "list"]).json();
    assert_eq!(list["libraries"].as_array().map(Vec::len), Some(16));
    assert_eq!(list["locked"], false);
    let curve: u64 =
        list["libraries"][0]["curve"].as_array().map(|c| c.iter().filter_map(|v| v.as_u64()).sum()).unwrap_or(0);
    assert_eq!(curve, 40);
    let show = ev.run(&["--json", "library", "show", "3a"]).json();
    assert_eq!(show["library"], "3A");
    assert_eq!(show["table"], 3);
    let values: Vec<u64> = show["cards"]
        .as_array()
        .map(|c| c.iter().filter_map(|c| c["mana_value"].as_u64()).collect())
        .unwrap_or_default();
    assert!(values.windows(2).all(|w| w[0] <= w[1]), "sorted by cost: {values:?}");
    let human = ev.run(&["library", "show", "3A"]).ok().to_string();
    assert!(human.contains("Library 3A (table 3, seat A): 40 cards, Utopia 30"), "{human}");
    assert!(ev.refuses(&["library", "show", "9A"]).contains("1A to 8B"));
    assert!(ev.refuses(&["library", "show", "3C"]).contains("table and seat"));
    assert!(with_pool().refuses(&["library", "show", "1A"]).contains("library build"));
}

#[test]
fn swaps_a_card_from_the_pool() {
    let ev = built();
    let before = names_in(&ev, "1A");
    let out = before[0].clone();
    let pool = ev.run(&["--json", "pool", "list"]).json();
    let cards = pool["cards"].as_array().cloned().unwrap_or_default();
    let free = cards
        .iter()
        .find(|c| {
            c["is_land"] == false
                && c["copies"].as_u64() > c["in_libraries"].as_u64()
                && !before.contains(&c["name"].as_str().unwrap_or("").to_string())
        })
        .and_then(|c| c["name"].as_str())
        .unwrap_or("")
        .to_string();
    let full = cards
        .iter()
        .find(|c| c["copies"] == c["in_libraries"] && c["in_libraries"].as_u64() > Some(0))
        .and_then(|c| c["name"].as_str())
        .unwrap_or("")
        .to_string();
    let doc = ev.run(&["--json", "library", "swap", "1a", &out, &free]).json();
    assert_eq!(doc["out"], out.as_str());
    assert_eq!(doc["in"], free.as_str());
    assert!(doc["distance_from_mean"].is_number());
    let after = names_in(&ev, "1A");
    assert!(after.contains(&free) && after.len() == 40, "{after:?}");
    assert!(ev.run(&["log"]).ok().contains(&format!("library 1A: swapped {out} out for {free}")));
    // refusals
    assert!(ev.refuses(&["library", "swap", "1A", "Black Lotus", &free]).contains("not in library 1A"));
    let msg = ev.refuses(&["library", "swap", "1A", &free, &full]);
    assert!(msg.contains("no free copy") && msg.contains("`mmjudge pool list` shows each card's copies"), "{msg}");
    assert!(ev.refuses(&["library", "swap", "1A", &free, "Forest"]).contains("is a land"));
    assert!(ev.refuses(&["library", "swap", "1A", &free, "Not In Pool"]).contains("not in the pool"));
    assert!(ev.refuses(&["library", "swap", "1A", &free, &free]).contains("itself"));
    ev.run(&["pool", "exclude", &out]).ok();
    assert!(ev.refuses(&["library", "swap", "1A", &free, &out]).contains("pool include"));
    // a pool card in a library cannot leave the pool
    assert!(ev.refuses(&["pool", "remove", &free]).contains("library swap"));
}

#[test]
fn deck_sheets_for_every_library_and_one_csv() {
    let ev = built();
    let dir = ev.path("sheets");
    let doc = ev.run(&["--json", "library", "sheets", &dir.to_string_lossy()]).json();
    assert_eq!(doc["sheets"], 16);
    let sheet = std::fs::read_to_string(dir.join("library-3A.html")).unwrap_or_default();
    assert!(sheet.contains("Table 3 · Seat A") && sheet.contains("<b>30</b> basic lands"), "{sheet}");
    assert_eq!(sheet.matches("class=\"box\"").count(), 40 * 6, "built + R1..R5 per card");
    assert!(std::fs::read_to_string(dir.join("index.html")).unwrap_or_default().contains("library-8B.html"));
    let csv = std::fs::read_to_string(dir.join("libraries.csv")).unwrap_or_default();
    assert_eq!(csv.lines().count(), 641);
    assert!(csv.starts_with("library,table,seat,player,position,name,mana_cost,mana_value,type_line,sideboard,utopia"));
    assert!(with_pool().refuses(&["library", "sheets", "x"]).contains("library build"));
}

#[test]
fn sealed_products_become_a_players_libraries() {
    let ev = crate::cards::with_reference();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    let product = ev.file(
        "ana.csv",
        "name,count\nForest,8\nIsland,7\nMountain,7\nShock,2\nGiant Growth,1\nCounterspell,1\nLlanowar Elves,2\nBrainstorm,1\n",
    );
    let p = product.to_string_lossy().to_string();
    assert!(ev.refuses(&["library", "register", "Ana", &p]).contains("libraries sealed"));
    ev.run(&["event", "set", "libraries", "sealed"]).ok();
    assert!(ev.refuses(&["library", "build", "--tables", "1"]).contains("library register"));
    let msg = ev.refuses(&["library", "register", "Ana", &p, "--sideboard", "Shock,Brainstorm"]);
    assert!(msg.contains("exactly 3"), "{msg}");
    let msg = ev.refuses(&["library", "register", "Ana", &p, "--sideboard", "Shock,Lightning Bolt,Brainstorm"]);
    assert!(msg.contains("not in this sealed deck"), "{msg}");
    let msg = ev.refuses(&["library", "register", "Ana", &p, "--sideboard", "Shock,Forest,Brainstorm"]);
    assert!(msg.contains("Utopia"), "{msg}");
    let doc =
        ev.run(&["--json", "library", "register", "ana", &p, "--sideboard", "shock,Giant Growth,Brainstorm"]).json();
    assert_eq!(doc["utopia"], 22);
    assert_eq!(doc["main"], 4);
    assert_eq!(doc["sideboard"].as_array().map(Vec::len), Some(3));
    let show = ev.run(&["--json", "library", "show", "Ana"]).json();
    assert_eq!(show["player"], "Ana");
    assert_eq!(show["utopia"], 22);
    assert_eq!(show["cards"].as_array().map(|c| c.iter().filter(|c| c["sideboard"] == true).count()), Some(3));
    // registering again replaces; after round 1 it needs --force
    ev.run(&["library", "register", "Ana", &p]).ok();
    ev.mark_round_paired(1);
    assert!(ev.refuses(&["library", "register", "Ana", &p]).contains("--force"));
    ev.run(&["library", "register", "Bo", &p]).ok();
    ev.run(&["library", "register", "Ana", &p, "--force"]).ok();
    let dir = ev.path("sealed-sheets");
    ev.run(&["library", "sheets", &dir.to_string_lossy()]).ok();
    assert!(std::fs::read_to_string(dir.join("index.html")).unwrap_or_default().contains("Sealed · Ana"));
    assert!(ev.refuses(&["library", "swap", "Ana", "Shock", "Brainstorm"]).contains("player's own cards"));
}

#[test]
fn a_short_pool_counts_what_it_leaves_apart_in_words() {
    let ev = with_pool();
    ev.run(&["pool", "exclude", "Flame Wave"]).ok();
    ev.run(&["library", "build", "--tables", "8"]).ok();
    ev.run(&["library", "add-tables", "1"]).ok();
    let msg = ev.refuses(&["library", "add-tables", "1"]);
    assert!(
        msg.contains(
            "; 1 more copy is excluded, 1 copy of an unusable cost is left out, which --keep-unusable builds in)"
        ),
        "{msg}"
    );
}
