//! A head judge's event-day actions from the phone, each its command's action: done for a head judge (the
//! event changed as the command line would), and refused in the web's words (no command line) when the rules
//! refuse it. Floor judges' 403s are in [`super::judges`].

use super::{Actor, Req, Site, case};
use serde_json::{Value, json};

fn post(site: &Site, who: &Actor, path: &str, body: Value, key: &str) -> super::Reply {
    site.send(Req::post(path).json(body).by(who).header("Idempotency-Key", key))
}

#[test]
fn a_head_judge_manages_players_from_the_phone_each_as_its_command() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    // A late entry: the late-entry rule said in the answer, in the web's words.
    let a = post(&site, &kim, "/api/player/add", json!({ "names": ["Zed Late"] }), "k1");
    assert_eq!(a.status, 200, "{}", a.body);
    let summary = a.json()["summary"].as_str().unwrap_or_default().to_string();
    assert!(summary.contains("added 1 player: Zed Late") && summary.contains("joining from round 2"), "{summary}");
    assert!(summary.contains("a match loss for round 1") && !super::names_a_command(&summary), "{summary}");
    assert!(site.ev.run(&["player", "list"]).ok().contains("Zed Late"));
    let d = post(&site, &kim, "/api/player/drop", json!({ "name": "Zed" }), "k2");
    assert_eq!(d.status, 200, "{}", d.body);
    assert!(site.ev.run(&["player", "list"]).ok().contains("dropped"), "dropped");
    assert_eq!(post(&site, &kim, "/api/player/undrop", json!({ "name": "Zed" }), "k3").status, 200);
    let r = post(&site, &kim, "/api/player/rename", json!({ "name": "Zed Late", "to": "Zed Later" }), "k4");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(site.ev.run(&["player", "list"]).ok().contains("Zed Later"));
    let gone = post(&site, &kim, "/api/player/remove", json!({ "name": "Zed Later" }), "k5");
    assert_eq!(gone.status, 200, "{}", gone.body);
    assert!(!site.ev.run(&["player", "list"]).ok().contains("Zed"), "removed");
    // A lost code: the new code in the first answer only; a repeat says to make another, with no code.
    let before = site.ev.run(&["--json", "player", "code", "Ana"]).json()["code"].as_str().unwrap_or("").to_string();
    let first = post(&site, &kim, "/api/player/code/new", json!({ "name": "Ana", "new": true }), "k6");
    assert_eq!(first.status, 200, "{}", first.body);
    let code = first.json()["code"].as_str().unwrap_or_default().to_string();
    let now = site.ev.run(&["--json", "player", "code", "Ana"]).json()["code"].as_str().unwrap_or("").to_string();
    assert!(code.len() == 6 && code == now && code != before, "{code} {now} {before}");
    let again = post(&site, &kim, "/api/player/code/new", json!({ "name": "Ana", "new": true }), "k6");
    let doc = again.json();
    assert_eq!(doc["repeat"], true, "{doc}");
    assert!(doc.get("code").is_none() && !again.body.contains(&code), "a kept answer holds no code: {doc}");
    assert!(doc["summary"].as_str().unwrap_or("").contains("make another"), "{doc}");
    let conn = rusqlite::Connection::open(site.ev.db()).expect("the event");
    let kept: String = conn
        .query_row("SELECT coalesce(group_concat(answer, ' '), '') FROM write_key", [], |r| r.get(0))
        .expect("the kept answers");
    assert!(!kept.contains(&code), "the stored answers hold no code: {kept}");
}

#[test]
fn a_head_judge_keeps_a_player_who_cannot_move_at_one_table_from_the_phone() {
    let site = Site::playing();
    site.ev.fake_libraries(3);
    let (kim, _) = site.judges();
    let r = post(&site, &kim, "/api/player/seat", json!({ "name": "Ana", "table": 2 }), "s1");
    assert_eq!(r.status, 200, "{}", r.body);
    let doc = r.json();
    assert_eq!((doc["stays_at"].as_u64(), doc["name"].as_str()), (Some(2), Some("Ana")), "{doc}");
    assert!(doc["summary"].as_str().unwrap_or("").starts_with("Ana stays at table 2"), "{doc}");
    let listed = site.ev.run(&["--json", "player", "list"]).json();
    let ana = listed["players"].as_array().and_then(|p| p.iter().find(|p| p["name"] == "Ana")).cloned();
    assert_eq!(ana.map(|a| a["stays_at"].clone()), Some(json!(2)));
    let head = |body: Value| Req::post("/api/player/seat").json(body).by(&kim);
    site.refusals(vec![
        case(head(json!({ "name": "Ana", "table": 99 })), 409, "table 99 has no libraries"),
        case(head(json!({ "name": "Ana", "table": "two" })), 400, "table takes a table's number"),
        case(head(json!({ "name": "Ana", "table": -1 })), 400, "table takes a table's number (1, 2, ...), not \"-1\""),
        case(head(json!({ "name": "Ana" })), 400, "table"),
        case(head(json!({ "name": "Ana", "table": 0 })), 400, "table 0 is no table"),
        case(head(json!({ "name": "Nobody", "table": 1 })), 404, "Nobody"),
    ]);
}

#[test]
fn the_libraries_carried_to_a_player_who_stays_are_where_the_floor_judges_look() {
    let site = Site::paired();
    let (kim, lee) = site.judges();
    site.ev.run(&["round", "unpair"]).ok();
    site.ev.fake_libraries(3);
    // Who sits at table 3 when nobody stays: kept at table 1, their game comes to table 1 with its libraries.
    site.ev.run(&["round", "pair"]).ok();
    let doc = site.ev.run(&["--json", "pairings"]).json();
    let who = doc["tables"][2]["a"]["name"].as_str().unwrap_or_default().to_string();
    site.ev.run(&["round", "unpair"]).ok();
    assert_eq!(post(&site, &kim, "/api/player/seat", json!({ "name": who, "table": 1 }), "c1").status, 200);
    let p = post(&site, &kim, "/api/round/pair", json!({}), "c2");
    assert_eq!(p.status, 200, "{}", p.body);
    let carry = "3A, 3B from table 3 to table 1; 1A, 1B from table 1 to table 3";
    assert!(p.json()["summary"].as_str().unwrap_or("").contains(carry), "{}", p.body);
    for (path, by) in [
        ("/judge", Some(&lee)),
        ("/pairings", None),
        ("/judge/print/pairings", Some(&lee)),
        ("/judge/print/pairings/wall", Some(&lee)),
    ] {
        let req = Req::get(path);
        let page = site.send(match by {
            Some(judge) => req.by(judge),
            None => req,
        });
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        assert!(page.body.contains("Libraries to carry") && page.body.contains(carry), "{path}: {}", page.body);
    }
    let doc = site.send(Req::get("/api/pairings")).json();
    assert_eq!(doc["carry"][0], json!({ "from": 3, "library": "3A", "to": 1 }), "{doc}");
    let slips = site.send(Req::get("/judge/print/slips").by(&lee)).body;
    for words in [
        "Libraries 3A and 3B are carried here from table 3 this round: back to table 3 after the round.",
        "Libraries 1A and 1B are carried here from table 1 this round: back to table 1 after the round.",
    ] {
        assert!(slips.contains(words), "{words}: {slips}");
    }
}

#[test]
fn a_head_judge_swaps_takes_back_reopens_and_pairs_those_present_from_the_phone() {
    let site = Site::paired();
    let (kim, _) = site.judges();
    let s = post(&site, &kim, "/api/round/swap", json!({ "first": "Ana", "second": "Cy" }), "s1");
    assert_eq!(s.status, 200, "{}", s.body);
    assert!(s.json()["summary"].as_str().unwrap_or("").starts_with("swapped Ana"), "{}", s.body);
    let u = post(&site, &kim, "/api/round/unpair", json!({}), "u1");
    assert_eq!(u.status, 200, "{}", u.body);
    assert!(u.json()["summary"].as_str().unwrap_or("").starts_with("took back round 1"), "{}", u.body);
    // Round 1 with check-in on and one player absent: refused naming the taps, then paired with those present.
    let site = Site::paired();
    let (kim, _) = site.judges();
    site.ev.run(&["round", "unpair"]).ok();
    site.ev.fake_libraries(3);
    site.ev.run(&["event", "set", "check-in", "on"]).ok();
    for p in ["Ana", "Bo", "Cy", "Di", "Ed"] {
        site.ev.run(&["player", "check-in", p]).ok();
    }
    site.refusals(vec![case(Req::post("/api/round/pair").json(json!({})).by(&kim), 409, "Pair those present")]);
    let p = post(&site, &kim, "/api/round/pair", json!({ "drop_absent": true }), "p1");
    assert_eq!(p.status, 200, "{}", p.body);
    let summary = p.json()["summary"].as_str().unwrap_or("").to_string();
    assert!(summary.contains("dropped as not arrived: Fy") && !super::names_a_command(&summary), "{summary}");
    // Reopen: the round ended, then reopened.
    site.ev.run(&["round", "start"]).ok();
    site.ev.run(&["round", "end", "--force"]).ok();
    let r = post(&site, &kim, "/api/round/reopen", json!({}), "r1");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["summary"].as_str().unwrap_or("").starts_with("reopened round 1"), "{}", r.body);
}

#[test]
fn a_head_judge_s_actions_refused_say_so_in_the_web_s_words() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let head = |path: &str, body: Value| Req::post(path).json(body).by(&kim);
    site.refusals(vec![
        case(head("/api/player/add", json!({ "names": [] })), 400, "at least one"),
        case(head("/api/player/add", json!({ "names": ["Ana"] })), 409, "Ana"),
        case(head("/api/player/drop", json!({ "name": "Nobody" })), 404, "Nobody"),
        case(head("/api/player/undrop", json!({ "name": "Ana" })), 409, "Ana"),
        case(head("/api/player/rename", json!({ "name": "Ana", "to": "Bo" })), 409, "Bo"),
        case(head("/api/player/remove", json!({ "name": "Ana" })), 409, "Ana"),
        case(head("/api/player/code/new", json!({ "name": "Ana", "new": false })), 400, "new"),
        case(head("/api/round/swap", json!({ "first": "Ana", "second": "Ana" })), 400, "two different players"),
        case(head("/api/round/unpair", json!({})), 409, "round 1"),
        case(head("/api/round/reopen", json!({})), 409, "not closed"),
        case(head("/api/round/pair", json!({ "drop_absent": true })), 409, "round 1"),
        case(head("/api/library/add-tables", json!({ "tables": 0 })), 400, "adds nothing"),
    ]);
}

#[test]
fn the_players_page_offers_a_head_judge_each_player_s_buttons_and_a_floor_judge_none() {
    let site = Site::paired();
    site.ev.run(&["round", "unpair"]).ok();
    site.ev.run(&["event", "set", "check-in", "on"]).ok();
    for p in ["Ana", "Bo", "Cy", "Di", "Ed"] {
        site.ev.run(&["player", "check-in", p]).ok();
    }
    let (kim, lee) = site.judges();
    let cookie = |a: &Actor| match a {
        Actor::Bearer(t) => Actor::Cookie(t.clone()),
        other => other.clone(),
    };
    let (kim, lee) = (cookie(&kim), cookie(&lee));
    let page = site.send(Req::get("/judge/players").by(&kim));
    assert_eq!(page.status, 200, "{}", page.body);
    for form in [
        "/api/player/drop",
        "/api/player/rename",
        "/api/player/remove",
        "/api/player/code/new",
        "/api/player/add",
        "/api/player/seat",
    ] {
        assert!(page.body.contains(&format!("action=\"{form}\"")), "{form}: {}", page.body);
    }
    assert!(page.body.contains("not checked in") && page.body.contains("action=\"/api/player/check-in\""));
    let found = site.send(Req::get("/judge/players?q=fy").by(&kim)).body;
    assert!(found.contains("<strong>Fy</strong>") && !found.contains("<strong>Ana</strong>"), "{found}");
    let floor = site.send(Req::get("/judge/players").by(&lee)).body;
    assert!(!floor.contains("/api/player/drop") && floor.contains("<strong>Ana</strong>"), "{floor}");
    // The dashboard names who is absent beside Pair those present.
    let dash = site.send(Req::get("/judge").by(&kim)).body;
    assert!(dash.contains("name=\"drop_absent\"") && dash.contains("Fy has not checked in"), "{dash}");
    assert!(site.send(Req::get("/judge/players")).status == 303 || site.send(Req::get("/judge/players")).status == 200);
}

#[test]
fn prints_are_the_command_line_s_pages_with_their_style_allowed_by_hash_and_codes_for_head_judges_only() {
    let site = Site::paired();
    let (kim, lee) = site.judges();
    let index = site.send(Req::get("/judge/print").by(&kim));
    assert_eq!(index.status, 200, "{}", index.body);
    assert!(index.body.contains("/judge/print/codes") && index.body.contains("/judge/print/pairings/wall"));
    let floor_index = site.send(Req::get("/judge/print").by(&lee)).body;
    assert!(!floor_index.contains("/judge/print/codes") && floor_index.contains("/judge/print/pairings"));
    let codes = site.send(Req::get("/judge/print/codes").by(&kim));
    assert_eq!(codes.status, 200, "{}", codes.body);
    assert_eq!(codes.header("cache-control"), Some("no-store"), "{:?}", codes.headers);
    assert!(codes.body.contains(&site.code("Ana")) && codes.body.contains("192.0.2.1:8080"), "{}", codes.body);
    let csp = codes.header("content-security-policy").unwrap_or_default().to_string();
    assert!(csp.contains("style-src 'self' 'sha256-") && !csp.contains("unsafe-inline"), "{csp}");
    let one = site.send(Req::get("/judge/print/codes?name=Bo").by(&kim)).body;
    assert!(one.contains(&site.code("Bo")) && !one.contains(&site.code("Ana")), "one slip: {one}");
    site.refusals(vec![case(Req::get("/judge/print/codes").by(&lee), 403, "head judges")]);
    for path in ["/judge/print/pairings", "/judge/print/pairings/wall"] {
        let p = site.send(Req::get(path).by(&lee));
        assert!(p.status == 200 && p.body.contains("Ana"), "{path}: {}", p.body);
        assert!(p.header("content-security-policy").is_some_and(|c| c.contains("'sha256-")), "{path}");
    }
}
