//! The prints from the phone beyond codes and pairings: each the command line's own page (the site's pages as
//! `site DIR` draws them, a table's note sheet as `notes N --html`, the curation report as `pool check --html`),
//! with a CSP allowing its own style; the event's site as a zip of the files `site DIR --judges` writes. Every
//! judge may read them; nobody without a login.

use super::{Req, Site, case};

/// Every print of this file with a word its page shows.
const PRINTS: [(&str, &str); 7] = [
    ("/judge/print/slips", "Table 1"),
    ("/judge/print/standings", "Ana"),
    ("/judge/print/notes", "Demonic Tutor"),
    ("/judge/print/notes?table=2", "Demonic Tutor"),
    ("/judge/print/decks", "Deck sheets"),
    ("/judge/print/curation", "Mind Twist"),
    ("/judge/print/site.zip", "site/index.html"),
];

/// Round 1 with every result in (tables 1 and 2 finished too), so its standings print; the card pool loaded.
fn played() -> Site {
    let site = Site::playing();
    site.ev.run(&["pool", "import", &crate::harness::example("pool.csv")]).ok();
    site.ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    site.ev.run(&["result", "2", "di", "--by", "concession"]).ok();
    site
}

#[test]
fn every_print_is_a_page_for_head_and_floor_judges_with_its_style_allowed_and_none_for_anyone_else() {
    let site = played();
    let (kim, lee) = site.judges();
    let index = site.send(Req::get("/judge/print").by(&lee)).body;
    for (path, words) in PRINTS {
        let listed = path.split('?').next().unwrap_or(path);
        assert!(index.contains(&format!("href=\"{listed}\"")), "the index lists {listed}: {index}");
        for who in [&kim, &lee] {
            let p = site.send(Req::get(path).by(who));
            assert_eq!(p.status, 200, "{path}: {}", p.body);
            assert!(p.body.contains(words), "{path} shows {words:?}: {}", p.body);
            let csp = p.header("content-security-policy").unwrap_or_default();
            let kind = p.header("content-type").unwrap_or_default();
            if path.ends_with(".zip") {
                assert_eq!(kind, "application/zip", "{path}");
                assert!(p.body.starts_with("PK\u{3}\u{4}"), "a zip archive");
                assert!(p.header("content-disposition").is_some_and(|d| d.contains("site.zip")), "{path}");
            } else {
                assert!(kind.starts_with("text/html"), "{path}: {kind}");
                assert!(csp.contains("default-src 'none'") && !csp.contains("unsafe-inline"), "{path}: {csp}");
                assert!(csp.contains("style-src 'self'") || csp.contains("style-src 'sha256-"), "{path}: {csp}");
            }
        }
    }
    let refused: Vec<_> = PRINTS.iter().map(|(path, _)| case(Req::get(path), 401, "log in")).collect();
    site.refusals(refused);
    // The site's pages link its stylesheet and index here: the stylesheet is served, the index is the prints.
    let style = site.send(Req::get("/judge/print/style.css").by(&lee));
    assert!(style.status == 200 && style.header("content-type").is_some_and(|t| t.starts_with("text/css")));
    let back = site.send(Req::get("/judge/print/index.html").by(&lee));
    assert!(back.status == 303 && back.header("location") == Some("/judge/print"), "{back:?}");
}

/// A print page as served, without the phone's print bar (back to the prints, and Print) and the two files it
/// links: the command line's own page.
fn unbarred(served: &str) -> String {
    let cut = |text: &str, from: &str, to: &str| -> String {
        let Some(start) = text.find(from) else { panic!("no {from:?} in the served print: {text}") };
        let end = start + text[start..].find(to).unwrap_or_else(|| panic!("no {to:?} after {from:?}")) + to.len();
        format!("{}{}", &text[..start], &text[end..])
    };
    let page = cut(served, "<link rel=\"stylesheet\" href=\"/assets/print.", "defer></script>\n");
    cut(&page, "\n<nav class=\"print-bar\">", "</nav>")
}

#[test]
fn a_print_opened_on_the_phone_has_a_print_button_and_a_way_back_that_are_never_printed() {
    let site = played();
    let (kim, _) = site.judges();
    for (path, _) in PRINTS.iter().filter(|(p, _)| !p.ends_with(".zip")).chain([&("/judge/print/codes", "")]) {
        let page = site.send(Req::get(path).by(&kim));
        assert_eq!(page.status, 200, "{path}");
        let bar = page.body.find("<nav class=\"print-bar\"><a href=\"/judge/print\">← Prints</a>");
        let body = page.body.find("<body");
        assert!(bar.is_some() && bar > body, "{path}: the bar is first in the body: {}", page.body);
        assert!(page.body.contains("<button type=\"button\" id=\"print-now\">Print</button>"), "{path}");
        let script = page.body.split("<script src=\"").nth(1).and_then(|s| s.split('"').next()).unwrap_or_default();
        let js = site.send(Req::get(script));
        assert!(js.status == 200 && js.body.contains("window.print()"), "{path}: {script}");
        let css = page.body.split("<link rel=\"stylesheet\" href=\"/assets/print.").nth(1).unwrap_or_default();
        let css = format!("/assets/print.{}", css.split('"').next().unwrap_or_default());
        let style = site.send(Req::get(&css)).body;
        assert!(style.contains("@media print { .print-bar { display: none; } }"), "{path}: never printed: {style}");
        let csp = page.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{path}: {csp}");
    }
}

#[test]
fn a_print_is_the_command_line_s_own_page() {
    let site = played();
    let (_, lee) = site.judges();
    let dir = tempfile::tempdir().expect("a folder");
    let strip = |file: &std::path::Path, what: &str| {
        let text = std::fs::read_to_string(file).expect("the command line's page");
        text.replacen(&format!("\n<meta name=\"generator\" content=\"mmjudge {what}\">"), "", 1)
    };
    let notes = dir.path().join("notes.html");
    site.ev.run(&["notes", "2", "--html", notes.to_str().expect("a path")]).ok();
    assert_eq!(unbarred(&site.send(Req::get("/judge/print/notes?table=2").by(&lee)).body), strip(&notes, "note sheet"));
    let curation = dir.path().join("pool.html");
    site.ev.run(&["pool", "check", "--html", curation.to_str().expect("a path")]).ok();
    assert_eq!(unbarred(&site.send(Req::get("/judge/print/curation").by(&lee)).body), strip(&curation, "pool check"));
    // The site's pages, drawn alone, are the pages `site DIR --judges` writes (but the moment they were written).
    let folder = dir.path().join("site");
    site.ev.run(&["site", folder.to_str().expect("a path"), "--judges"]).ok();
    let written = |s: &str| s.split("Written by mmjudge on").next().unwrap_or_default().to_string();
    for (path, file) in [
        ("/judge/print/slips", "round-1-slips.html"),
        ("/judge/print/standings", "round-1-standings.html"),
        ("/judge/print/notes", "round-1-notes.html"),
        ("/judge/print/decks", "decks.html"),
    ] {
        let served = unbarred(&site.send(Req::get(path).by(&lee)).body);
        assert_eq!(written(&served), written(&strip(&folder.join(file), "site")), "{path} is {file}");
    }
    // The archive holds every file the command line wrote, in the folder `site/`.
    let zip = site.send(Req::get("/judge/print/site.zip").by(&lee)).body;
    for entry in std::fs::read_dir(&folder).expect("the site") {
        let name = entry.expect("a file").file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') {
            assert!(zip.contains(&format!("site/{name}")), "the archive holds {name}");
        }
    }
}

#[test]
fn a_print_of_a_round_not_there_says_which_rounds_are() {
    let site = Site::paired();
    let (kim, _) = site.judges();
    site.refusals(vec![
        case(Req::get("/judge/print/slips?round=2").by(&kim), 404, "round 2 is not paired"),
        case(Req::get("/judge/print/standings").by(&kim), 404, "no standings yet"),
        case(Req::get("/judge/print/notes?round=3").by(&kim), 404, "round 3 is not paired"),
        case(Req::get("/judge/print/notes?table=9").by(&kim), 404, "table 9"),
        case(Req::get("/judge/print/curation").by(&kim), 409, "the pool is empty"),
    ]);
    // The index offers no link to the standings it would answer 404 for: it says when they come.
    let index = site.send(Req::get("/judge/print").by(&kim)).body;
    assert!(!index.contains("href=\"/judge/print/standings\""), "no standings to link yet: {index}");
    assert!(index.contains("Standings<br><small>after round 1"), "{index}");
}

/// The site's archive speaks no command line: no `mmjudge` command, no backquote, no `--flag` in any of its files
/// (its footer's "Written by mmjudge on" and the generator marks that tell the program's own files apart, never
/// shown, are the only "mmjudge " it holds).
#[test]
fn the_sites_archive_speaks_no_command_line() {
    let site = Site::playing();
    let (_, lee) = site.judges();
    let zip = site.send(Req::get("/judge/print/site.zip").by(&lee)).body;
    assert!(zip.contains("site/index.html"), "the archive is read");
    // Each file of the (stored) archive: after its name in its local header, up to the next header.
    let files = zip.split("PK\u{1}\u{2}").next().unwrap_or_default().split("PK\u{3}\u{4}").skip(1);
    let mut read = 0;
    for entry in files {
        let Some(at) = entry.find("site/") else { continue };
        let named = &entry[at..];
        let Some(end) =
            [".html", ".css", ".txt", ".csv"].iter().filter_map(|x| named.find(x).map(|i| i + x.len())).min()
        else {
            continue;
        };
        let (name, text) = named.split_at(end);
        let text = text
            .replace("Written by mmjudge on", "Written on")
            .replace("<meta name=\"generator\" content=\"mmjudge site\">", "")
            .replace("/* generator: mmjudge site */", "");
        if let Some(at) = text.find("mmjudge ") {
            panic!("{name} names a command: …{}…", &text[at.saturating_sub(60)..(at + 60).min(text.len())]);
        }
        // What a reader sees: a style's custom properties (`--fg`) are no flags.
        let mut shown = String::new();
        let mut rest = text.as_str();
        while let Some(open) = rest.find("<style") {
            shown.push_str(&rest[..open]);
            rest = rest[open..].find("</style>").map_or("", |close| &rest[open + close..]);
        }
        shown.push_str(rest);
        let shown = if name.ends_with(".css") { shown.replace("--", "") } else { shown };
        assert!(!super::names_a_command(&shown), "{name} names a command line (a backquote or a --flag)");
        read += 1;
    }
    assert!(read > 5, "the archive's files are read ({read})");
}

#[test]
fn a_large_events_codes_print_in_parts_of_500_each_listed_and_each_a_page_of_its_own() {
    let site = Site::paired();
    let (kim, _) = site.judges();
    let names: Vec<String> = (1..=1_100).map(|i| format!("Late Player {i:04}")).collect();
    let csv = site.ev.file("late.csv", &format!("name\n{}\n", names.join("\n")));
    site.ev.run(&["player", "import", &csv.to_string_lossy()]).ok();
    let all = site.ev.run(&["--json", "player", "codes"]).json()["players"].as_array().cloned().unwrap_or_default();
    let of = all.len().div_ceil(500);
    assert_eq!(of, 3, "{} players", all.len());
    let index = site.send(Req::get("/judge/print").by(&kim)).body;
    for n in 1..=of {
        assert!(index.contains(&format!("href=\"/judge/print/codes?part={n}\"")), "part {n} listed: {index}");
        assert!(index.contains(&format!("part {n} of 3: players ")), "{index}");
    }
    for (n, first) in [(1, 0), (2, 500), (3, 1_000)] {
        let page = site.send(Req::get(&format!("/judge/print/codes?part={n}")).by(&kim));
        assert_eq!(page.status, 200, "part {n}: {}", page.body);
        let slips = page.body.matches("<section class=\"slip\">").count();
        assert_eq!(slips, (all.len() - first).min(500), "part {n}");
        let name = all[first]["name"].as_str().unwrap_or_default();
        assert!(page.body.contains(&format!("<h2>{name}</h2>")), "part {n} starts with {name}");
        assert!(page.body.contains(&format!("Player codes, part {n} of 3: players ")), "part {n}");
    }
    let plain = site.send(Req::get("/judge/print/codes").by(&kim)).body;
    assert!(plain.contains("Player codes, part 1 of 3"), "no part given: the first");
    site.refusals(vec![
        case(Req::get("/judge/print/codes?part=4").by(&kim), 404, "parts 1 to 3"),
        case(Req::get("/judge/print/codes?part=two").by(&kim), 400, "part: give the part's number"),
    ]);
    // The command line writes the same parts.
    let file = site.ev.path("part2.html");
    site.ev.run(&["player", "codes", "--html", &file.to_string_lossy(), "--part", "2"]).ok();
    let written = std::fs::read_to_string(&file).expect("the part");
    assert_eq!(written.matches("<section class=\"slip\">").count(), 500);
    assert!(written.contains("part 2 of 3: players 501 to 1,000"), "the part's words");
    assert!(
        site.ev
            .refuses(&["player", "codes", "--html", &file.to_string_lossy(), "--part", "9"])
            .contains("parts 1 to 3")
    );
}
