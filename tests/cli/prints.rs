//! Prints a floor can use: the event's date, the print head on every sheet (event, day, round), the wall
//! sheet, result slips with challenge and turn boxes (`result --by time --turn N`), one deck sheet per page,
//! and the site's standings saying who entered late. Page counts per printed sheet are checked by printing in
//! Chromium (`scripts/check-site.sh`); these tests check what the pages hold.

use crate::harness::{Event, Seeded};

const NOW: &str = "2026-05-01T11:00:00Z";

/// Four players; round 1 seated and started (Ann v Bo at table 1, Cy v Di at table 2), no results.
fn playing() -> Event {
    let ev = Event::new();
    ev.run(&["player", "add", "Ann Zeller", "Bo Young", "Cy Adams", "Di Baker"]).ok();
    ev.seed_played_rounds(&[&[("Ann Zeller", "Bo Young", ""), ("Cy Adams", "Di Baker", "")]]);
    ev
}

fn read(ev: &Event, name: &str) -> String {
    std::fs::read_to_string(ev.path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The print head of a page: the text of its repeated header cell.
fn print_head(html: &str) -> String {
    let start = html.find(r#"<td class="print-head">"#).map(|i| i + r#"<td class="print-head">"#.len());
    let start = start.unwrap_or_else(|| panic!("no print head in {html}"));
    html[start..].split("</td>").next().unwrap_or_default().to_string()
}

#[test]
fn the_event_has_a_date_shown_and_set() {
    let ev = Event::new();
    // The day of `event new` (the harness creates events on 2025-01-01).
    assert_eq!(ev.run(&["--json", "event", "show"]).json()["settings"]["date"], "2025-01-01");
    let changed = ev.run(&["event", "set", "date", "2026-05-02"]).ok().to_string();
    assert!(changed.contains("date: 2025-01-01 -> 2026-05-02"), "{changed}");
    let shown = ev.run(&["event", "show"]).ok().to_string();
    assert!(shown.lines().any(|l| l.contains("date") && l.contains("2026-05-02")), "{shown}");
    for bad in ["2026-13-01", "tomorrow", "2026-5-2x"] {
        let msg = ev.refuses(&["event", "set", "date", bad]);
        assert!(msg.contains("date is a day written YYYY-MM-DD"), "{msg}");
    }
}

#[test]
fn every_print_carries_the_event_its_day_and_round() {
    let ev = playing();
    ev.run(&["event", "set", "date", "2026-05-01"]).ok();
    ev.run(&["pairings", "--html", "pairings.html"]).ok();
    let html = read(&ev, "pairings.html");
    assert_eq!(print_head(&html), "Test Open · 2026-05-01 · Round 1 · pairings");
    // One repeated header for the whole page (Chromium repeats a table's <thead> on every printed sheet).
    assert!(html.contains(r#"<table class="print-frame"><thead>"#), "{html}");
    ev.run_with(&["notes", "2", "--html", "notes.html"], &[("MMJUDGE_NOW", NOW)]).ok();
    assert_eq!(print_head(&read(&ev, "notes.html")), "Test Open · 2026-05-01 · Round 1 · table 2 · note sheet");
    ev.run(&["cards", "import", &crate::harness::example("cards.csv")]).ok();
    ev.run(&["pool", "import", &crate::harness::example("pool.csv")]).ok();
    ev.run(&["pool", "check", "--html", "check.html"]).ok();
    assert_eq!(print_head(&read(&ev, "check.html")), "Test Open · 2026-05-01 · Round 1 · pool check");
    ev.run(&["library", "sheets", "sheets"]).ok();
    let sheet = read(&ev, "sheets/library-1A.html");
    assert_eq!(print_head(&sheet), "Test Open · 2026-05-01 · Round 1 · library 1A");
    assert!(sheet.contains(r#"<main class="deck-sheet">"#), "the deck sheet's print rules need its class");
    ev.run_with(&["site", "site", "--judges"], &[("MMJUDGE_NOW", NOW)]).ok();
    assert_eq!(print_head(&read(&ev, "site/round-1-slips.html")), "Test Open · 2026-05-01 · Round 1 · result slips");
    assert_eq!(print_head(&read(&ev, "site/decks.html")), "Test Open · 2026-05-01 · Round 1 · Deck sheets");
    assert_eq!(print_head(&read(&ev, "site/round-1-notes.html")), "Test Open · 2026-05-01 · Round 1 · note sheets");
}

#[test]
fn the_wall_sheet_lists_every_name_then_the_table() {
    let ev = playing();
    ev.run(&["player", "add", "Late Zed"]).ok();
    ev.sql("INSERT INTO match (round, a_player, result, reason) SELECT 1, id, 'A', 'bye' FROM player WHERE name = 'Late Zed'");
    let out = ev.run(&["pairings", "--html", "wall.html", "--wall"]).ok().to_string();
    assert!(out.contains("wrote wall.html (the wall sheet"), "{out}");
    let html = read(&ev, "wall.html");
    assert!(print_head(&html).starts_with("Test Open · 2025-01-01 · Round 1"), "{html}");
    let order = |html: &str| -> Vec<String> {
        html.split(r#"<td class="name">"#)
            .skip(1)
            .map(|r| r.split('<').next().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(order(&html), ["Ann Zeller", "Bo Young", "Cy Adams", "Di Baker", "Late Zed"]);
    assert!(
        html.contains(r#"<td class="name">Cy Adams</td><td class="num">2 <span class="wall-seat">A</span>"#),
        "{html}"
    );
    assert!(html.contains(r#"<td class="name">Late Zed</td><td class="num">bye</td>"#), "{html}");
    ev.run(&["pairings", "--html", "wall.html", "--wall", "--sort", "last"]).ok();
    assert_eq!(order(&read(&ev, "wall.html")), ["Cy Adams", "Di Baker", "Bo Young", "Late Zed", "Ann Zeller"]);
    // --sort belongs to the wall sheet.
    let bad = ev.run(&["pairings", "--html", "p.html", "--sort", "last"]);
    assert_ne!(bad.code, 0, "{bad:?}");
    assert!(!ev.path("p.html").exists());
}

#[test]
fn slips_have_challenge_boxes_and_a_turn_box_that_result_fills() {
    let ev = playing();
    let out = ev.run_with(
        &["--json", "result", "1", "--by", "time", "--life", "7", "9", "--turn", "6"],
        &[("MMJUDGE_NOW", NOW)],
    );
    let doc = out.json();
    assert_eq!(doc["result"]["turn"], 6, "{doc}");
    assert!(doc["summary"].as_str().unwrap_or_default().ends_with("by time (9 to 7 life) on turn 6"), "{doc}");
    ev.run_with(&["result", "2", "cy", "--by", "concession"], &[("MMJUDGE_NOW", NOW)]).ok();
    let results = ev.run(&["--json", "results"]).json();
    assert_eq!(results["tables"][0]["turn"], 6, "{results}");
    assert!(results["tables"][1].get("turn").is_none(), "no turn key without a turn: {results}");
    let text = ev.run(&["results"]).ok().to_string();
    assert!(text.contains("turn"), "{text}");

    ev.run_with(&["site", "site"], &[("MMJUDGE_NOW", NOW)]).ok();
    let slips = read(&ev, "site/round-1-slips.html");
    // Two boxes per player: two lost challenges lose the match.
    assert_eq!(slips.matches(r#"title="lost challenge "#).count(), 8, "{slips}");
    assert_eq!(slips.matches("At time, the game was on turn").count(), 2);
    assert!(slips.contains(r#"<span class="turn-box">6</span>"#), "{slips}");
    assert!(slips.contains(r#"<span class="turn-box"></span>"#), "{slips}");

    // A turn belongs to a result at time; clearing the result clears it.
    let msg = ev.refuses(&["result", "fix", "1", "bo", "--by", "concession", "--turn", "4"]);
    assert!(msg.contains("turn 4 is the turn the game was on when time was called: give it with --by time"), "{msg}");
    ev.run(&["result", "clear", "1"]).ok();
    let results = ev.run(&["--json", "results"]).json();
    assert!(results["tables"][0].get("turn").is_none(), "{results}");
    assert!(!ev.run(&["results"]).ok().contains("turn"));
}

#[test]
fn a_turn_needs_time_and_stays_in_its_bounds() {
    let ev = playing();
    let msg = ev.refuses(&["result", "1", "ann", "--by", "life", "--turn", "3"]);
    assert!(msg.contains("give it with --by time"), "{msg}");
    let zero = ev.run(&["result", "1", "--by", "time", "--life", "1", "2", "--turn", "0"]);
    assert_ne!(zero.code, 0, "{zero:?}");
    let results = ev.run(&["--json", "results"]).json();
    assert_eq!(results["tables"][0]["playing"], true, "{results}");
}

#[test]
fn the_site_standings_say_who_entered_late_with_two_decimals() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ann", "Bo", "Cy", "Di"]).ok();
    ev.seed_played_rounds(&[&[("Ann", "Bo", "A"), ("Cy", "Di", "A")]]);
    ev.run(&["player", "add", "Late"]).ok();
    let round: [&[Seeded]; 1] = [&[("Ann", "Cy", "A"), ("Bo", "Di", "A"), ("Late", "", "")]];
    ev.seed_played_rounds(&round);
    ev.run_with(&["site", "site"], &[("MMJUDGE_NOW", NOW)]).ok();
    let page = read(&ev, "site/round-2-standings.html");
    let row = page.lines().find(|l| l.contains(">Late<") || l.contains(">Late ")).unwrap_or_default();
    assert!(row.contains(r#"<span class="meta late">entered late: 1 match loss</span>"#), "{page}");
    // On a phone every column stays in sight: none is hidden at narrow widths.
    assert!(page.contains(r#"<table class="standings">"#) && !page.contains("hide-narrow"), "{page}");
    // Late: one bye won, one round lost: 50.00 % of games.
    assert!(row.contains("50.00 %"), "{row}");
    let text = ev.run(&["standings"]).ok().to_string();
    assert!(text.contains(" %"), "{text}");
    let csv = ev.run(&["--csv", "standings"]).ok().to_string();
    assert!(csv.lines().skip(1).all(|l| !l.contains('%')), "CSV keeps fractions: {csv}");
}
