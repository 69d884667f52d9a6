//! `site DIR`: the event's static web site.

use crate::harness::Event;
use std::collections::BTreeSet;
use std::path::Path;

const XSS: &str = "<script>alert(1)</script>";

/// Two rounds (the second still playing), a bye, a challenge and a ruling, and a player named like an attack.
fn event() -> Event {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di", XSS]).ok();
    ev.seed_played_rounds(&[
        &[("Ana", "Bo", "A"), ("Cy", XSS, "draw"), ("Di", "", "A")],
        &[(XSS, "Ana", "B"), ("Bo", "Di", ""), ("Cy", "", "A")],
    ]);
    let conn = rusqlite::Connection::open(ev.db()).expect("db");
    conn.execute_batch(
        "INSERT INTO challenge (match_id, by_player, about, ruling, loser, judge, at)
           VALUES (1, 1, 'B1 as <b>Demonic Tutor</b>', 'upheld', 2, 'Kim', '2026-05-01T10:20:00.000Z');
         INSERT INTO ruling (match_id, text, judge, at) VALUES (2, 'Shuffle & cut again', 'Kim', '2026-05-01T10:30:00.000Z');",
    )
    .expect("seed challenge");
    ev
}

fn files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned())).collect())
        .unwrap_or_default()
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Every `href="..."` target of a page.
fn links(html: &str) -> Vec<String> {
    html.split("href=\"").skip(1).filter_map(|rest| rest.split('"').next().map(String::from)).collect()
}

#[test]
fn writes_every_page_the_index_links_with_text_escaped() {
    let ev = event();
    let doc = ev.run(&["--json", "site", "out", "--judges"]).json();
    let dir = ev.path("out");
    assert_eq!(doc["ok"], true);
    assert!(doc["index"].as_str().is_some_and(|i| i.ends_with("index.html")));
    let written = files(&dir);
    for want in [
        "index.html",
        "style.css",
        ".mmjudge-site",
        "round-1-standings.html",
        "round-1-pairings.html",
        "round-1-pairings-by-name.html",
        "round-1-slips.html",
        "round-2-pairings.html",
        "round-2-slips.html",
        "round-2-notes.html",
        "judging.html",
        "libraries.html",
        "decks.html",
        "clock.html",
    ] {
        assert!(written.contains(want), "{want} missing from {written:?}");
    }
    assert!(!written.contains("round-2-standings.html"), "round 2 is still being played");
    for file in written.iter().filter(|f| f.ends_with(".html")) {
        let html = read(&dir, file);
        for target in links(&html) {
            assert!(written.contains(&target), "{file} links {target}, which was not written");
        }
        for banned in ["http://", "https://", "@import", "<img", "<iframe"] {
            assert!(!html.contains(banned), "{file} refers outside the site: {banned}");
        }
        assert!(!html.contains(XSS), "{file} shows a player's name as HTML");
        if file != "clock.html" {
            assert!(!html.contains("<script"), "{file} has a script");
        }
    }
    let escaped = "&#60;script&#62;alert(1)&#60;/script&#62;";
    for file in
        ["round-1-standings.html", "round-1-pairings.html", "round-2-pairings-by-name.html", "round-1-slips.html"]
    {
        assert!(read(&dir, file).contains(escaped), "{file} does not show the name as text");
    }
    let judging = read(&dir, "judging.html");
    assert!(
        judging.contains("B1 as &#60;b&#62;Demonic Tutor&#60;/b&#62;") && judging.contains("Shuffle &#38; cut"),
        "{judging}"
    );
}

#[test]
fn slips_show_players_libraries_life_challenges_and_signatures() {
    let ev = event();
    ev.run(&["site", "out"]).ok();
    let slips = read(&ev.path("out"), "round-1-slips.html");
    assert_eq!(slips.matches("class=\"slip\"").count(), 2, "one slip per table, none for the bye");
    assert!(slips.contains("Round 1 · Table 1") && slips.contains("1A") && slips.contains("1B"));
    assert!(slips.contains("Ana won (life)"));
    // Ana won the one challenge at table 1, Bo lost it: Bo's first of two boxes is ticked, Ana's are blank.
    let boxes = |ticked: bool| {
        let tick = |i: u32, t: bool| {
            if t {
                format!(r#"<span class="box ticked" title="lost challenge {i}">✗</span>"#)
            } else {
                format!(r#"<span class="box" title="lost challenge {i}"></span>"#)
            }
        };
        format!(r#"<td class="challenge-boxes">{}{}</td>"#, tick(1, ticked), tick(2, false))
    };
    let ana = format!(r#"<td>Ana</td><td>1A</td><td class="num write-in"></td><td class="num">1</td>{}"#, boxes(false));
    assert!(slips.contains(&ana), "{slips}");
    assert!(slips.contains(&format!(r#"<td class="num">0</td>{}"#, boxes(true))), "{slips}");
    assert!(slips.contains("Signature A") && slips.contains("Signature B") && slips.contains("Judge"));
    let playing = read(&ev.path("out"), "round-2-slips.html");
    assert!(playing.contains("Winner:"), "an unplayed table has boxes to fill in");
    let by_name = read(&ev.path("out"), "round-2-pairings-by-name.html");
    let ana = by_name.find("<td>Ana</td>").unwrap_or(usize::MAX);
    let cy = by_name.find("<td>Cy</td>").unwrap_or(0);
    assert!(ana < cy && by_name.contains("bye"), "alphabetical, with the bye: {by_name}");
}

#[test]
fn refuses_a_file_and_a_folder_that_holds_something_else() {
    let ev = event();
    ev.file("taken.txt", "not a folder");
    assert!(ev.refuses(&["site", "taken.txt"]).contains("is a file"));
    std::fs::create_dir(ev.path("mine")).expect("dir");
    ev.file("mine/notes.txt", "keep me");
    let msg = ev.refuses(&["site", "mine"]);
    assert!(msg.contains("not empty") && msg.contains("--force"), "{msg}");
    assert_eq!(files(&ev.path("mine")), BTreeSet::from(["notes.txt".to_string()]), "nothing written");
    ev.run(&["site", "mine", "--force"]).ok();
    let written = files(&ev.path("mine"));
    assert!(written.contains("index.html") && written.contains("notes.txt"));
    std::fs::create_dir(ev.path("empty")).expect("dir");
    ev.run(&["site", "empty"]).ok();
}

#[test]
fn rewrites_an_earlier_site_and_removes_pages_that_are_gone() {
    let ev = event();
    ev.run(&["site", "out"]).ok();
    std::fs::write(ev.path("out/extra.txt"), "mine").expect("write");
    let conn = rusqlite::Connection::open(ev.db()).expect("db");
    conn.execute("DELETE FROM round WHERE number = 2", []).expect("unpair round 2");
    drop(conn);
    let doc = ev.run(&["--json", "site", "out"]).json();
    let removed: Vec<&str> =
        doc["removed"].as_array().map(|a| a.iter().filter_map(|v| v.as_str()).collect()).unwrap_or_default();
    assert!(removed.contains(&"round-2-pairings.html") && removed.contains(&"round-2-slips.html"), "{doc}");
    let written = files(&ev.path("out"));
    assert!(!written.iter().any(|f| f.starts_with("round-2-")), "{written:?}");
    assert!(written.contains("extra.txt"), "files the site did not write are kept");
}

#[test]
fn of_several_pages_in_the_way_the_first_in_the_sites_order_is_named_and_nothing_is_written() {
    // The pages are drawn on two threads, in no fixed order: the refusal names the page a single thread
    // drawing the site in order meets first, every time, and leaves no page and no temporary file.
    let ev = event();
    for dir in ["out/round-2-slips.html", "out/round-2-pairings-by-name.html", "out/round-1-standings.html"] {
        std::fs::create_dir_all(ev.path(dir)).expect("dir");
    }
    let before = files(&ev.path("out"));
    for _ in 0..4 {
        let msg = ev.refuses(&["site", "out", "--force", "--judges"]);
        assert!(msg.contains("round-1-standings.html is a folder"), "{msg}");
        assert_eq!(files(&ev.path("out")), before, "nothing written, nothing left");
    }
    std::fs::remove_dir(ev.path("out/round-1-standings.html")).expect("rmdir");
    let msg = ev.refuses(&["site", "out", "--force"]);
    assert!(msg.contains("round-2-pairings-by-name.html is a folder"), "{msg}");
}

#[test]
fn an_event_with_no_rounds_still_has_a_site() {
    let ev = Event::new();
    ev.run(&["site", "out"]).ok();
    let index = read(&ev.path("out"), "index.html");
    assert!(index.contains("No round has been paired yet"), "{index}");
    assert!(read(&ev.path("out"), "clock.html").contains("once a round has started"));
}

#[test]
fn note_sheets_show_declared_cards_and_deck_sheets_list_each_librarys_cards() {
    let ev = crate::pool::with_pool();
    ev.run(&["library", "build", "--tables", "2"]).ok();
    ev.seat_started_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.note(&["1", "ana", "B1", "Demonic Tutor", "--at", "09:05"]);
    ev.note(&["1", "bo", "U1", "--unnamed", "--at", "09:07"]);
    ev.run(&["site", "out", "--judges"]).ok();
    let dir = ev.path("out");
    let notes = read(&dir, "round-1-notes.html");
    assert!(notes.contains("Table 1") && notes.contains("Table 2"), "one sheet per table: {notes}");
    let line = |card: &str| notes.find(card).unwrap_or_else(|| panic!("{card} missing: {notes}"));
    assert!(notes.contains("B1:</span> <span class=\"card\">Demonic Tutor</span>"), "{notes}");
    assert!(notes.contains("U1:</span> <span class=\"card\">(unnamed)</span>"), "{notes}");
    assert!(line("Demonic Tutor") < line("(unnamed)"), "seat A's column first");
    assert!(notes.contains("No notes."), "table 2 has an empty sheet");
    assert!(read(&dir, "index.html").contains("round-1-notes.html"));

    let show = ev.run(&["--json", "library", "show", "1A"]).json();
    let first = show["cards"][0]["name"].as_str().unwrap_or_default().to_string();
    let decks = read(&dir, "decks.html");
    for label in ["1A", "1B", "2A", "2B"] {
        assert!(decks.contains(&format!("<span class=\"deck-label\">{label}</span>")), "{label} missing: {decks}");
    }
    let escaped = first.replace('&', "&#38;").replace('\'', "&#39;");
    assert!(!first.is_empty() && decks.contains(&format!("<td>{escaped}</td>")), "{first} missing: {decks}");
    assert!(decks.contains("Utopia library: <strong>"), "{decks}");
    assert_eq!(decks.matches("<tr><td class=\"num\">40</td>").count(), 4, "40 cards per library");
}

/// Pages only the judges' site has: library contents, note sheets, deck sheets, records, card pages.
fn judges_only(file: &str) -> bool {
    ["judging.html", "libraries.html", "decks.html"].contains(&file)
        || file.ends_with("-notes.html")
        || file.ends_with("-wall.html")
        || file.starts_with("card-")
}

#[test]
fn the_public_site_has_no_judges_pages_and_no_remarks() {
    let ev = event();
    ev.run(&["penalty", "bo", "slow play", "--note", "Remark about Bo"]).ok();
    let doc = ev.run(&["--json", "site", "out"]).json();
    assert_eq!(doc["ok"], true);
    let dir = ev.path("out");
    let written = files(&dir);
    for want in ["index.html", "round-1-standings.html", "round-2-pairings.html", "round-2-slips.html", "clock.html"] {
        assert!(written.contains(want), "{want} missing from {written:?}");
    }
    assert!(!written.iter().any(|f| judges_only(f)), "judges' pages in the public site: {written:?}");
    for file in written.iter().filter(|f| f.ends_with(".html")) {
        let html = read(&dir, file);
        for target in links(&html) {
            assert!(written.contains(&target), "{file} links {target}, which was not written");
        }
        for secret in ["Remark about Bo", "slow-play", "Shuffle", "Demonic Tutor", "Judging"] {
            assert!(!html.contains(secret), "{file} shows {secret}: {html}");
        }
    }
    let text = ev.run(&["site", "out"]).ok().to_string();
    assert!(text.contains("wrote the public site"), "{text}");
}

#[test]
fn a_public_run_removes_an_earlier_judges_sites_pages_and_keeps_foreign_files() {
    let ev = event();
    ev.run(&["penalty", "bo", "slow play", "--note", "Remark about Bo"]).ok();
    let text = ev.run(&["site", "out", "--judges"]).ok().to_string();
    assert!(text.contains("wrote the judges' site"), "{text}");
    let dir = ev.path("out");
    let judges = files(&dir);
    for want in ["judging.html", "libraries.html", "decks.html", "round-2-notes.html"] {
        assert!(judges.contains(want), "{want} missing from {judges:?}");
    }
    assert!(read(&dir, "judging.html").contains("Remark about Bo"));
    ev.file("out/mine.txt", "keep me");
    let doc = ev.run(&["--json", "site", "out"]).json();
    let removed: BTreeSet<String> =
        doc["removed"].as_array().into_iter().flatten().filter_map(|f| f.as_str().map(String::from)).collect();
    let gone: BTreeSet<String> = judges.iter().filter(|f| judges_only(f)).cloned().collect();
    assert!(!gone.is_empty());
    assert_eq!(removed, gone);
    let public = files(&dir);
    assert!(!public.iter().any(|f| judges_only(f)), "{public:?}");
    assert!(public.contains("mine.txt") && public.contains("round-1-standings.html"), "{public:?}");
    assert_eq!(read(&dir, "mine.txt"), "keep me");
    ev.run(&["site", "out", "--judges"]).ok();
    assert!(files(&dir).contains("judging.html"), "--judges writes them again");
}

#[test]
fn standings_pages_show_two_decimal_percentages_and_fit_a_phone() {
    let ev = event();
    ev.run(&["site", "out"]).ok();
    let dir = ev.path("out");
    let page = read(&dir, "round-1-standings.html");
    assert!(page.contains(" %</td>"), "{page}");
    let three_decimals = page.split('>').any(|cell| {
        let b = cell.as_bytes();
        b.len() > 5
            && b[1] == b'.'
            && b[..5].iter().enumerate().all(|(i, c)| i == 1 || c.is_ascii_digit())
            && b[5] == b'<'
    });
    assert!(!three_decimals, "fractions shown: {page}");
    for label in ["Record", "Points", "OMW%", "GW%", "OGW%"] {
        assert!(page.contains(&format!("data-label=\"{label}\"")), "{label} has no label for phones");
    }
    let style = read(&dir, "style.css");
    let phones = style.split("@media (max-width: 40rem)").nth(1).unwrap_or_default();
    assert!(phones.contains("table.standings tr { display: flex; flex-wrap: wrap;"), "{phones}");
    assert!(phones.contains("attr(data-label)"), "{phones}");
}

#[test]
fn the_judges_site_has_each_rounds_wall_sheet_as_pairings_writes_it() {
    let ev = event();
    ev.run(&["site", "out", "--judges"]).ok();
    let dir = ev.path("out");
    let index = read(&dir, "index.html");
    for r in 1..=2 {
        assert!(index.contains(&format!(r#"<a href="round-{r}-wall.html">wall sheet</a>"#)), "{index}");
        ev.run(&["pairings", "--round", &r.to_string(), "--html", &format!("wall-{r}.html"), "--wall"]).ok();
        // The same sheet, byte for byte, but for the mark of the command that wrote it.
        let printed = read(&ev.path("."), &format!("wall-{r}.html"));
        let site = read(&dir, &format!("round-{r}-wall.html"));
        let mark = |c: &str| format!(r#"<meta name="generator" content="mmjudge {c}">"#);
        assert!(site.contains(&mark("site")) && printed.contains(&mark("pairings")), "{site}");
        assert_eq!(site.replace(&mark("site"), ""), printed.replace(&mark("pairings"), ""));
        assert!(site.contains("&#60;script&#62;") && !site.contains(XSS), "{site}");
        assert!(site.contains(r#"<td class="num">bye</td>"#), "{site}");
    }
    ev.run(&["site", "public"]).ok();
    assert!(
        !files(&ev.path("public")).iter().any(|f| f.ends_with("-wall.html")),
        "the wall sheet is the judges' print"
    );
}
