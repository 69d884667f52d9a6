//! Curation that points at the real problems: abusive means a watched card a player may declare; banned cards
//! in a class are information, never abusive.

use crate::pool::with_pool;

fn group<'a>(doc: &'a serde_json::Value, cost: &str) -> &'a serde_json::Value {
    doc["groups"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["cost"] == cost))
        .unwrap_or_else(|| panic!("no group {cost} in {doc}"))
}

fn abusive(doc: &serde_json::Value) -> Vec<String> {
    doc["groups"]
        .as_array()
        .map(|g| {
            g.iter()
                .filter(|g| g["flags"].as_array().is_some_and(|f| f.iter().any(|f| f["flag"] == "abusive")))
                .filter_map(|g| g["cost"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn only_watched_cards_make_a_cost_abusive() {
    let ev = with_pool();
    let doc = ev.run(&["--json", "pool", "check"]).json();
    assert_eq!(abusive(&doc), ["{X}{B}"], "Mind Twist is watched by default");
    assert_eq!(group(&doc, "{X}{B}")["watched"], serde_json::json!(["Mind Twist"]));
    let white = group(&doc, "{1}{W}");
    assert_eq!(white["banned"], serde_json::json!(["Balance"]));
    assert_eq!(white["banned_note"], "{1}{W}: Balance is banned; 59 other cards");
    assert_eq!(white["flags"], serde_json::json!([]));
    assert_eq!(group(&doc, "{1}{B}")["banned_note"], serde_json::Value::Null);
    // A card the judges mark makes its costs abusive; taking it off the list clears them.
    ev.run(&["pool", "watch", "add", "Timetwister"]).ok();
    assert_eq!(abusive(&ev.run(&["--json", "pool", "check"]).json()), ["{X}{B}", "{2}{U}"]);
    ev.run(&["pool", "watch", "remove", "Mind Twist"]).ok();
    ev.run(&["pool", "watch", "remove", "Timetwister"]).ok();
    assert!(abusive(&ev.run(&["--json", "pool", "check"]).json()).is_empty());
}

#[test]
fn a_banned_card_on_the_watch_list_stays_information() {
    let ev = with_pool();
    let reply = ev.run(&["pool", "watch", "add", "Balance"]).ok().to_string();
    assert!(reply.contains("it is banned, so no player may declare it and it flags no cost abusive"), "{reply}");
    let doc = ev.run(&["--json", "pool", "check"]).json();
    assert_eq!(abusive(&doc), ["{X}{B}"]);
}

#[test]
fn the_report_lists_banned_cards_apart_from_the_warnings() {
    let ev = with_pool();
    let human = ev.run(&["pool", "check"]).ok().to_string();
    assert!(human.contains("{X}{B} can be declared as Mind Twist"), "{human}");
    assert!(!human.contains("can be declared as Balance") && !human.contains("Balance is banned"), "{human}");
    assert!(human.contains("information, not abusive") && human.contains("`pool check --all` lists them"), "{human}");
    let all = ev.run(&["pool", "check", "--all"]).ok().to_string();
    assert!(all.contains("  {1}{W}: Balance is banned; 59 other cards\n"), "{all}");
    let page = ev.path("check.html");
    ev.run(&["pool", "check", "--html", &page.to_string_lossy()]).ok();
    let html = std::fs::read_to_string(&page).unwrap_or_default();
    assert!(html.contains("Banned cards in the classes (information)"), "{html}");
    assert!(html.contains("{1}{W}: Balance is banned; 59 other cards"), "{html}");
}

/// A pool short for the tables the entered players need: the report says what to find, by mana value, with the
/// figures the build counts, and the Utopia lands as lands to set out; without players, nothing.
#[test]
fn a_short_pool_says_what_to_find_for_the_players_tables() {
    let ev = with_pool();
    assert!(ev.run(&["--json", "pool", "check"]).json()["to_find"].is_null(), "no player entered yet");
    let names: Vec<String> = (1..=40).map(|i| format!("Player {i:02}")).collect();
    let mut args = vec!["player", "add"];
    args.extend(names.iter().map(String::as_str));
    ev.run(&args).ok();
    let doc = ev.run(&["--json", "pool", "check"]).json();
    let find = &doc["to_find"];
    assert_eq!((find["tables"].as_u64(), find["spells_needed"].as_u64()), (Some(20), Some(1600)), "{find}");
    let (have, short) = (find["spells_have"].as_u64().unwrap_or(0), find["spells_short"].as_u64().unwrap_or(0));
    assert!(have > 0 && have + short == 1600, "{find}");
    let by_value: u64 =
        find["by_mana_value"].as_array().map(|a| a.iter().filter_map(|n| n.as_u64()).sum()).unwrap_or(0);
    assert!(by_value > 0, "{find}");
    assert_eq!(find["basic_lands"]["needed"], 1200, "two Utopia libraries of 30 lands a table: {find}");
    let page = ev.path("check.html");
    ev.run(&["pool", "check", "--html", &page.to_string_lossy()]).ok();
    let html = std::fs::read_to_string(&page).unwrap_or_default();
    assert!(html.contains("<h2>What to find</h2>"), "{html}");
    assert!(html.contains(&format!("Spells to find: {short}: about ")), "{html}");
    assert!(html.contains("Basic lands to set out beside the tables for Utopia: 1200"), "{html}");
    assert!(!html.contains("need 1200 basic lands"), "{html}");
}
