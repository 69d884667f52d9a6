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
