//! Bytes on the venue's Wi-Fi: reads carry an ETag and answer 304 when nothing changed, pages and reads go out
//! compressed (brotli or gzip, whichever the phone takes).

use crate::harness::Event;
use crate::serve::Server;

#[test]
fn reads_carry_an_etag_and_answer_304_when_nothing_changed() {
    let ev = Event::playing();
    let server = Server::start(&ev);
    for path in ["/pairings", "/standings", "/api/pairings", "/api/standings", "/clock", "/"] {
        let first = server.get(path);
        assert_eq!(first.status, 200, "{path}");
        let tag = first.header("etag").unwrap_or_else(|| panic!("{path} has no ETag")).to_string();
        assert!(tag.starts_with("W/\""), "{tag}");
        assert_eq!(first.header("cache-control"), Some("no-cache"), "{path}");
        let again = server.request("GET", path, &[("If-None-Match", &tag)], "");
        assert_eq!(again.status, 304, "{path}");
        assert_eq!(again.body, "", "{path}");
        assert_eq!(again.header("etag"), Some(tag.as_str()), "{path}");
        let other = server.request("GET", path, &[("If-None-Match", "W/\"0\"")], "");
        assert_eq!(other.status, 200, "{path}");
    }
    // A change makes a new ETag.
    let tables = server.get("/api/tables");
    let before = server.get("/pairings").header("etag").map(str::to_string);
    let winner = tables.json()["tables"][0]["seats"][0]["player"].as_str().expect("a player").to_string();
    ev.run(&["result", "1", &winner, "--by", "concession"]).ok();
    let after = server.get("/pairings");
    assert_ne!(after.header("etag").map(str::to_string), before);
    // A judge's own answers are kept by no shared cache; assets are kept for good.
    assert_eq!(server.get("/judge").header("cache-control"), Some("private, no-cache"));
    let asset = server.get(mmjudge::render::assets::url("common.js"));
    assert_eq!(asset.header("cache-control"), Some("public, max-age=31536000, immutable"));
    assert!(asset.header("etag").is_none());
}

#[test]
fn pages_go_out_compressed_with_the_encoding_the_phone_takes() {
    let ev = Event::playing();
    let server = Server::start(&ev);
    let plain = server.get("/pairings");
    assert!(plain.header("content-encoding").is_none());
    let plain_len = plain.body.len();
    for (accept, expected) in [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("br;q=1.0, gzip;q=0.5", "br")] {
        let a = server.request("GET", "/pairings", &[("Accept-Encoding", accept)], "");
        assert_eq!(a.status, 200);
        assert_eq!(a.header("content-encoding"), Some(expected), "{accept}");
        assert!(a.header("vary").is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")));
        assert!(a.sent * 2 < plain_len, "{accept}: {} of {plain_len}", a.sent);
        let b = server.request("GET", "/pairings", &[("Accept-Encoding", accept)], "");
        assert_eq!(b.header("etag"), plain.header("etag"), "one ETag, whatever the encoding");
    }
}

#[test]
fn a_long_pairings_list_opens_at_a_hundred_rows_or_at_the_name_searched() {
    let ev = Event::new();
    let names: Vec<(String, String)> = (0..150).map(|t| (format!("P{:03}a", t), format!("P{:03}b", t))).collect();
    let tables: Vec<(u32, &str, &str)> =
        names.iter().enumerate().map(|(i, (a, b))| (i as u32 + 1, a.as_str(), b.as_str())).collect();
    ev.seat_round(1, &tables);
    let server = Server::start(&ev);
    let first = server.get("/pairings");
    assert_eq!(first.status, 200);
    assert_eq!(first.body.matches("<tr data-table=").count(), 100, "{}", first.body);
    assert!(first.body.contains("<tr data-table=\"100\">") && !first.body.contains("<tr data-table=\"101\">"));
    assert!(first.body.contains(r#"href="/pairings?from=100" data-more"#), "{}", first.body);
    let next = server.get("/pairings?from=100");
    assert_eq!(next.body.matches("<tr data-table=").count(), 50);
    assert!(next.body.contains("<tr data-table=\"101\">"), "{}", next.body);
    // 300 names by name: the last hundred come after the tables are all shown.
    assert!(next.body.contains(r#"href="/pairings?from=200" data-more"#));
    let last = server.get("/pairings?from=200");
    assert!(last.body.contains("<td>P149b</td>") && !last.body.contains("data-more"), "{}", last.body);
    // Their own table first, then the list.
    let mine = server.get("/pairings?name=p120B");
    let found = mine.body.find("<tr data-table=\"121\">").expect("the table of the name searched");
    assert!(found < mine.body.find("id=\"by-table\"").expect("the list"), "{}", mine.body);
    assert!(mine.body.contains("<td>P120b</td>"), "their row by name");
    assert!(mine.body.contains("value=\"p120B\""), "the search box keeps the name");
}

#[test]
fn the_pairings_header_counts_the_tables_finished_of_every_table_not_the_rows_shown() {
    let ev = Event::new();
    let names: Vec<(String, String)> = (0..150).map(|t| (format!("P{:03}a", t), format!("P{:03}b", t))).collect();
    let tables: Vec<(u32, &str, &str)> =
        names.iter().enumerate().map(|(i, (a, b))| (i as u32 + 1, a.as_str(), b.as_str())).collect();
    ev.seat_round(1, &tables);
    let server = Server::start(&ev);
    let header = |page: &str| {
        let body = server.get(page).body;
        let at = body.find("data-finished=\"1\">").unwrap_or_else(|| panic!("{page} has no count: {body}"));
        body[at..].split('<').next().unwrap_or_default().trim_start_matches("data-finished=\"1\">").to_string()
    };
    assert_eq!(header("/pairings"), "0 of 150 tables finished.");
    ev.run(&["result", "140", "P139a", "--by", "concession"]).ok();
    // A table beyond the hundred rows shown counts too, on every window and search of the list.
    for page in ["/pairings", "/pairings?from=100", "/pairings?name=P003"] {
        assert_eq!(header(page), "1 of 150 tables finished.", "{page}");
    }
}
