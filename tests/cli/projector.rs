//! The live projector page (`GET /projector`, `GET /api/projector`) against a real server whose clock is
//! fixed (`MMJUDGE_NOW`): deck inspection, the final window's limit, an extended table with its own end, a
//! table over time, and the QR code of the players' site.

use crate::harness::Event;
use crate::serve::Server;

fn at(hms: &str) -> String {
    format!("2025-05-01T{hms}Z")
}

/// Round 1 at tables 1 to 3, started at 10:00 (after `inspection` minutes of deck inspection from 10:00).
fn round_one(inspection: u32) -> Event {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di"), (3, "Ed <b>", "Flo & Co")]);
    ev.run(&["event", "set", "inspection-minutes", &inspection.to_string()]).ok();
    ev.run_with(&["round", "start", "--at", &at("10:00:00")], &[("MMJUDGE_NOW", &at("10:00:00"))]).ok();
    ev
}

fn server_at(ev: &Event, hms: &str) -> Server {
    Server::start_with(ev, &[], &[("MMJUDGE_NOW", &at(hms))])
}

#[test]
fn during_deck_inspection_every_clock_shows_it_with_its_end() {
    let ev = round_one(5);
    let server = server_at(&ev, "10:02:00");
    let doc = server.get("/api/projector").json();
    let r = &doc["round"];
    assert_eq!(r["phase"], "inspection", "{doc}");
    assert_eq!(r["inspection_from"], "2025-05-01T10:00:00.000Z");
    assert_eq!(r["inspection_until"], "2025-05-01T10:05:00.000Z");
    assert_eq!(r["ends_at"], "2025-05-01T10:55:00.000Z", "round time counts from the end of inspection");
    assert_eq!((r["final_window"].as_bool(), r["limit_secs"].as_u64()), (Some(false), None));
    assert_eq!(doc["site"], format!("http://{}", server.addr));

    let page = server.get("/projector");
    assert_eq!(page.status, 200);
    for want in [
        "Deck inspection — time left",
        ">3:00<",
        r#"data-inspection-until="2025-05-01T10:05:00.000Z""#,
        r#"data-phase="inspection""#,
    ] {
        assert!(page.body.contains(want), "missing {want} in {}", page.body);
    }
    // The players' clock and home page say so too, with the absolute end, and switch by themselves.
    let time = server.get("/api/time").json();
    assert_eq!(time["round"]["inspection_until"], "2025-05-01T10:05:00.000Z", "{time}");
    for path in ["/clock", "/", "/clock?table=2"] {
        let body = server.get(path).body;
        assert!(body.contains("Deck inspection — "), "{path}: {body}");
        assert!(body.contains(r#"data-until="2025-05-01T10:05:00.000Z""#), "{path}: {body}");
        assert!(body.contains(r#"data-from="2025-05-01T10:05:00.000Z""#), "{path}: {body}");
    }
    let me = server.get("/me?name=Ana").body;
    assert!(me.contains("Deck inspection") && me.contains(r#"data-until="2025-05-01T10:05:00.000Z""#), "{me}");
    // Once inspection is over, nothing says so any more.
    drop(server);
    let later = server_at(&ev, "10:06:00");
    assert_eq!(later.get("/api/projector").json()["round"]["phase"], "round");
    assert_eq!(later.get("/api/time").json()["round"]["inspection_until"], serde_json::Value::Null);
    assert!(!later.get("/clock").body.contains("Deck inspection"));
}

#[test]
fn in_the_final_window_the_shorter_limit_is_in_force_and_extended_tables_keep_their_own_end() {
    let ev = round_one(0);
    let now = [("MMJUDGE_NOW", at("10:40:00"))];
    let now: Vec<(&str, &str)> = now.iter().map(|(k, v)| (*k, v.as_str())).collect();
    ev.run_with(&["round", "extend", "2", "5", "--reason", "deck check"], &now).ok();
    let server = server_at(&ev, "10:40:00");
    let doc = server.get("/api/projector").json();
    let r = &doc["round"];
    assert_eq!((r["phase"].as_str(), r["final_window"].as_bool()), (Some("round"), Some(true)), "{doc}");
    assert_eq!(r["limit_secs"], 15);
    let extended = r["extended"].as_array().expect("extended");
    assert_eq!(extended.len(), 1, "{doc}");
    assert_eq!(extended[0]["table"], 2);
    assert_eq!(extended[0]["extension_secs"], 300);
    assert_eq!(extended[0]["ends_at"], "2025-05-01T10:55:00.000Z");
    assert_eq!(extended[0]["final_window_at"], "2025-05-01T10:40:00.000Z");
    assert_eq!(r["over_time"], serde_json::json!([]));
    let page = server.get("/projector").body;
    for want in
        ["Round time left", ">10:00<", "15 s", r#"data-table="2" data-end="2025-05-01T10:55:00.000Z""#, "+300 s"]
    {
        assert!(page.contains(want), "missing {want} in {page}");
    }
}

#[test]
fn a_table_over_time_shows_until_its_result_and_the_page_has_the_players_qr_code() {
    let ev = round_one(0);
    let now = [("MMJUDGE_NOW", at("10:52:00"))];
    let now: Vec<(&str, &str)> = now.iter().map(|(k, v)| (*k, v.as_str())).collect();
    ev.run_with(&["round", "extend", "2", "5", "--reason", "deck check"], &now).ok();
    let server = server_at(&ev, "10:52:00");
    let doc = server.get("/api/projector").json();
    let over: Vec<u64> =
        doc["round"]["over_time"].as_array().expect("over_time").iter().filter_map(|t| t["table"].as_u64()).collect();
    assert_eq!(over, [1, 3], "table 2 has 5 more minutes: {doc}");
    assert_eq!(doc["round"]["extended"][0]["over"], false);
    let page = server.get("/projector");
    assert!(page.body.contains("<svg") && page.body.contains("</svg>"), "the QR code is inline SVG");
    assert!(!page.body.contains("<?xml"), "no XML declaration inside the page");
    assert!(page.body.contains(&format!("http://{}", server.addr)), "the players' address under the code");
    assert!(page.body.contains("Ed &#60;b&#62;") && page.body.contains("Flo &#38; Co"), "names escaped");
    assert!(!page.body.contains("Ed <b>"));
    for banned in ["https://", "<script>", "style=\"", "<link rel=\"stylesheet\" href=\"http"] {
        assert!(!page.body.contains(banned), "nothing from elsewhere, nothing inline: {banned}");
    }
    let script = mmjudge::render::assets::url("projector.js");
    assert!(page.body.contains(&format!(r#"<script src="{script}""#)));
    assert!(server.get(script).body.contains("mm.live("));
    assert!(server.get(mmjudge::render::assets::url("common.js")).body.contains("EventSource"));
    assert_eq!(server.get(mmjudge::render::assets::url("projector.css")).status, 200);

    // A result recorded at the command line takes table 3 off the list at the next read.
    let result = ["result", "3", "--by", "time", "--life", "4", "2", "--at", &at("10:51:00")];
    ev.run_with(&result, &now).ok();
    let doc = server.get("/api/projector").json();
    let over: Vec<u64> =
        doc["round"]["over_time"].as_array().expect("over_time").iter().filter_map(|t| t["table"].as_u64()).collect();
    assert_eq!(over, [1], "{doc}");
    assert_eq!(doc["round"]["finished"], 1);
}

#[test]
fn before_any_round_the_page_still_shows_the_players_address() {
    let ev = Event::new();
    let server = Server::start(&ev);
    let doc = server.get("/api/projector").json();
    assert_eq!(doc["round"], serde_json::Value::Null, "{doc}");
    let page = server.get("/projector").body;
    assert!(page.contains("No round is paired yet.") && page.contains("<svg"), "{page}");
}

#[test]
fn the_table_device_the_judges_table_page_and_the_dashboard_show_deck_inspection_and_switch_by_themselves() {
    let ev = round_one(5);
    let pin = crate::serve::judge(&ev, "Lee", "floor");
    let server = server_at(&ev, "10:02:00");
    let (cookie, _) = crate::serve::page_login(&server, "Lee", &pin);
    let as_judge = |path: &str| server.request("GET", path, &[("Cookie", &cookie)], "");
    for (path, body) in [
        ("/table/1", server.get("/table/1").body),
        ("/judge/table/1", as_judge("/judge/table/1").body),
        ("/judge", as_judge("/judge").body),
    ] {
        assert!(body.contains("Deck inspection — "), "{path}: {body}");
        // The inspection shows until its end, the round's clock from it: the page switches by itself.
        assert!(body.contains(r#"<div class="inspection" data-until="2025-05-01T10:05:00.000Z">"#), "{path}: {body}");
        assert!(body.contains(r#"data-from="2025-05-01T10:05:00.000Z" hidden"#), "{path}: {body}");
    }
    // The dashboard's list of tables says "inspection" where each table's clock will count, until it ends.
    let board = as_judge("/judge").body;
    let cell = r#"<span data-until="2025-05-01T10:05:00.000Z">inspection</span><span class="countdown" data-deadline="2025-05-01T10:55:00.000Z" data-from="2025-05-01T10:05:00.000Z" hidden>"#;
    assert!(board.contains(cell), "{board}");
    drop(server);
    let later = server_at(&ev, "10:06:00");
    let (cookie, _) = crate::serve::page_login(&later, "Lee", &pin);
    for path in ["/table/1", "/judge/table/1", "/judge"] {
        let body = later.request("GET", path, &[("Cookie", &cookie)], "").body;
        assert!(body.contains("data-deadline=\"2025-05-01T10:55:00.000Z\""), "{path}: {body}");
        // The only switch left is the table's own: time called at its end.
        let at_end = body.matches("data-from=\"2025-05-01T10:55:00.000Z\"").count();
        assert!(!body.contains("Deck inspection") && body.matches("data-from=").count() == at_end, "{path}: {body}");
    }
}
