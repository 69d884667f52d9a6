//! `mmjudge serve`: the judges' table page and the writes made standing at a table, each audited with the
//! judge and the phone's address.

use crate::serve::{Server, audit_vias, judge, page_login};
use serde_json::json;

#[test]
fn a_floor_judge_records_everything_at_the_table_and_head_judges_alone_fix_and_end() {
    let ev = crate::cards::with_reference();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["round", "start"]).ok();
    let (head, floor) = (judge(&ev, "Kim", "head"), judge(&ev, "Lee", "floor"));
    let server = Server::start(&ev);
    let (kim, lee) = (server.login("Kim", &head), server.login("Lee", &floor));
    let post = |path: &str, token: &str, body: serde_json::Value| server.post_json(path, Some(token), &body);
    let ok = |path: &str, token: &str, body: serde_json::Value| {
        let a = post(path, token, body);
        assert_eq!(a.status, 200, "{path}: {}", a.body);
        let doc = a.json();
        assert_eq!(doc["ok"], true, "{doc}");
        assert!(doc["summary"].as_str().is_some_and(|s| !s.is_empty()), "{doc}");
        doc
    };

    let started = ok("/api/clock/start", &lee, json!({ "table": 1, "player": "bo" }));
    assert_eq!(started["player"], "Bo");
    assert_eq!(server.get("/api/tables").json()["tables"][0]["decision"]["player"], "Bo");
    ok("/api/clock/stop", &lee, json!({ "table": 1 }));
    let note = ok("/api/note", &lee, json!({ "table": 1, "player": "ana", "cost": "B1", "card": "demonic tutor" }));
    assert_eq!(note["card"], "Demonic Tutor");
    assert_eq!(note["shorthand"], "B1");
    ok("/api/note", &lee, json!({ "table": 1, "player": "bo", "cost": "U1", "unnamed": true }));
    let challenge = ok("/api/challenge", &lee, json!({ "table": 1, "by": "bo", "about": "B1", "ruling": "denied" }));
    assert!(challenge["challenge"].as_i64().is_some(), "{challenge}");
    let penalty = ok("/api/penalty", &lee, json!({ "player": "bo", "infraction": "slow play" }));
    assert!(penalty["penalty"].as_i64().is_some(), "{penalty}");
    ok("/api/ruling", &lee, json!({ "table": 1, "text": "Bo may not take back the attack" }));
    let extended = ok("/api/extend", &lee, json!({ "table": 2, "minutes": 2, "reason": "deck check" }));
    assert_eq!(extended["seconds"], 120);
    let result = ok("/api/result", &lee, json!({ "table": 1, "winner": "Ana", "by": "life", "life": [12, 0] }));
    assert_eq!(result["table"], 1);

    // Refusals: each with its status, the file unchanged.
    let before = ev.dump();
    assert!(
        post("/api/result", &lee, json!({ "table": 1, "winner": "Bo", "by": "life" })).error(409).contains("already")
    );
    post("/api/result", &lee, json!({ "table": 1, "winner": "Bo", "by": "sorcery" })).error(400);
    post("/api/result", &lee, json!({ "table": 9, "winner": "Bo", "by": "life" })).error(404);
    post("/api/clock/start", &lee, json!({ "table": 2, "player": "Zed" })).error(404);
    post("/api/result/fix", &lee, json!({ "table": 1, "winner": "Bo", "by": "life" })).error(403);
    post("/api/round/end", &lee, json!({ "force": true })).error(403);
    post("/api/extend", &lee, json!({ "table": 2, "minutes": "soon", "reason": "x" })).error(400);
    // A penalty other than the guide's (a deviation) is the head judge's: a floor judge may not disqualify.
    let dq = json!({ "player": "cy", "infraction": "slow play", "penalty": "disqualification", "table": 2 });
    assert!(post("/api/penalty", &lee, dq.clone()).error(403).contains("head judges"));
    assert_eq!(before, ev.dump(), "refused writes change nothing");

    let fixed = ok("/api/result/fix", &kim, json!({ "table": 1, "winner": "Bo", "by": "concession" }));
    assert!(fixed["summary"].as_str().is_some_and(|s| s.contains("Bo")), "{fixed}");
    post("/api/round/end", &kim, json!({})).error(409);
    ok("/api/round/end", &kim, json!({ "force": true }));

    let routes = [
        "POST /api/clock/start",
        "POST /api/clock/stop",
        "POST /api/note",
        "POST /api/challenge",
        "POST /api/penalty",
        "POST /api/ruling",
        "POST /api/extend",
        "POST /api/result",
        "POST /api/result/fix",
        "POST /api/round/end",
    ];
    let log = audit_vias(&ev);
    for route in routes {
        let entries: Vec<_> = log.iter().filter(|(_, c, _)| c.starts_with(&format!("{route} {{"))).collect();
        assert!(!entries.is_empty(), "{route} is audited: {log:?}");
        let who = if route.contains("fix") || route.contains("round") { "Kim" } else { "Lee" };
        assert!(entries.iter().all(|(j, _, v)| j == who && v == "web 127.0.0.1"), "{route}: {entries:?}");
    }
}

#[test]
fn the_table_page_shows_the_table_and_its_forms_post_back_to_it() {
    let ev = crate::cards::with_reference();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    ev.run(&["round", "start"]).ok();
    let pin = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    assert_eq!(server.get("/judge/table/1").status, 303, "a login first");
    let (cookie, csrf) = page_login(&server, "Lee", &pin);
    let page = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "");
    assert_eq!(page.status, 200, "{}", page.body);
    for form in
        ["/api/clock/start", "/api/note", "/api/result", "/api/challenge", "/api/penalty", "/api/ruling", "/api/extend"]
    {
        assert!(page.body.contains(&format!("action=\"{form}\"")), "{form} form: {}", page.body);
    }
    assert_eq!(server.request("GET", "/judge/table/7", &[("Cookie", &cookie)], "").status, 404);
    assert_eq!(server.request("GET", "/judge/table/x", &[("Cookie", &cookie)], "").status, 400);

    let form_type = ("Content-Type", "application/x-www-form-urlencoded");
    let body = format!("csrf={csrf}&back=/judge/table/1&table=1&player=Ana&cost=B1&card=Demonic+Tutor");
    let noted = server.request("POST", "/api/note", &[("Cookie", &cookie), form_type], &body);
    assert_eq!(noted.status, 303, "{}", noted.body);
    assert!(noted.header("location").is_some_and(|l| l.starts_with("/judge/table/1?done=")), "{:?}", noted.headers);
    let page = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "");
    assert!(page.body.contains("Demonic Tutor"), "the note shows on the sheet: {}", page.body);
    // A discarded card left unnamed, from the same form's box; without a card or the box, a plain refusal.
    let body = format!("csrf={csrf}&back=/judge/table/1&table=1&player=Bo&cost=U1&card=&unnamed=true");
    let unnamed = server.request("POST", "/api/note", &[("Cookie", &cookie), form_type], &body);
    assert_eq!(unnamed.status, 303, "{}", unnamed.body);
    let body = format!("csrf={csrf}&back=/judge/table/1&table=1&player=Bo&cost=U1&card=");
    let neither = server.request("POST", "/api/note", &[("Cookie", &cookie), form_type], &body);
    assert_eq!(neither.status, 400);
    assert!(neither.body.contains("mark it unnamed"), "{}", neither.body);
    let body = format!("csrf={csrf}&back=/judge/table/1&table=1&winner=Ana&by=life&life=12%2C0");
    let recorded = server.request("POST", "/api/result", &[("Cookie", &cookie), form_type], &body);
    assert_eq!(recorded.status, 303, "{}", recorded.body);
    let again = server.request("POST", "/api/result", &[("Cookie", &cookie), form_type], &body);
    assert_eq!(again.status, 409);
    assert!(again.body.contains("href=\"/judge/table/1\""), "a refused form links back: {}", again.body);
    assert!(server.get("/api/tables").json()["tables"][0]["result"].as_str().is_some_and(|r| r.contains("Ana won")));
}

#[test]
fn standings_pairings_and_results_answer_as_the_command_line_prints_them() {
    let ev = crate::harness::Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
    let server = Server::start(&ev);
    assert!(server.get("/standings").body.contains("No round has been played"), "before round 1");
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["round", "start"]).ok();
    ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    ev.run(&["result", "2", "di", "--by", "concession"]).ok();
    for (api, cli) in [
        ("/api/standings", vec!["--json", "standings"]),
        ("/api/pairings", vec!["--json", "pairings"]),
        ("/api/results", vec!["--json", "results"]),
        ("/api/pairings?round=1", vec!["--json", "pairings", "--round", "1"]),
    ] {
        let a = server.get(api);
        assert_eq!(a.status, 200, "{api}: {}", a.body);
        assert_eq!(a.json(), ev.run(&cli).json(), "{api} answers as `mmjudge {}`", cli.join(" "));
    }
    let page = server.get("/standings");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Standings after round 1") && page.body.contains("Ana"), "{}", page.body);
    assert!(server.get("/api/standings?round=7").error(404).contains("round 7"));

    let (head, floor) = (judge(&ev, "Kim", "head"), judge(&ev, "Lee", "floor"));
    let (kim, lee) = (server.login("Kim", &head), server.login("Lee", &floor));
    let before = ev.dump();
    server.post_json("/api/round/pair", Some(&lee), &json!({})).error(403);
    let refused = server.post_json("/api/round/pair", Some(&kim), &json!({}));
    assert!(refused.status == 409 || refused.status == 400, "{}", refused.body);
    assert_eq!(before, ev.dump());
}

#[test]
fn a_head_judge_starts_the_round_from_a_phone_and_every_phone_hears_it() {
    let ev = crate::harness::Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let (head, floor) = (judge(&ev, "Kim", "head"), judge(&ev, "Lee", "floor"));
    let server = Server::start(&ev);
    let mut events = crate::serve::Events::open(&server);
    let (kim, lee) = (server.login("Kim", &head), server.login("Lee", &floor));
    let auth = |t: &str| format!("Bearer {t}");
    let floor_try = server.request("POST", "/api/round/start", &[("Authorization", &auth(&lee))], "");
    assert!(floor_try.error(403).contains("head judges"));
    let started = server.request("POST", "/api/round/start", &[("Authorization", &auth(&kim))], "");
    assert_eq!(started.status, 200, "{}", started.body);
    assert_eq!(started.json()["round"], 1);
    assert!(started.json()["ends_at"].as_str().is_some(), "{}", started.body);
    events.wait_for("round", std::time::Duration::from_secs(10));
    assert_eq!(server.get("/api/time").json()["round"]["state"], "running");
    server.request("POST", "/api/round/start", &[("Authorization", &auth(&kim))], "").error(409);
}

#[test]
fn a_head_judge_pairs_the_round_from_a_phone_and_a_player_sees_the_next_table() {
    let ev = crate::harness::Event::new();
    ev.run(&["event", "set", "rounds", "4"]).ok();
    ev.add_players(16);
    ev.fake_libraries(8);
    let head = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let kim = server.login("Kim", &head);
    let paired = server.post_json("/api/round/pair", Some(&kim), &json!({}));
    assert_eq!(paired.status, 200, "{}", paired.body);
    assert_eq!(paired.json()["round"], 1);
    assert!(paired.json()["summary"].as_str().is_some_and(|s| s.contains("paired round 1")), "{}", paired.body);
    // The same "why" line as the command line prints, in the answer a phone shows.
    let why = paired.json()["why"].as_str().unwrap_or_default().to_string();
    assert!(!why.is_empty(), "{}", paired.body);
    assert!(
        paired.json()["summary"].as_str().is_some_and(|s| s.ends_with(&format!(". Why: {why}"))),
        "{}",
        paired.body
    );
    let cli = ev.run(&["--json", "pairings"]).json();
    let first = &cli["players"][0];
    let name = first["name"].as_str().expect("name");
    let me = server.get(&format!("/api/me?name={}", name.replace(' ', "%20"))).json();
    assert_eq!(me["table"], first["table"]);
    assert_eq!(me["library"], first["library"]);
    // `pairings --json` gives the movement's plan; a player's page says nothing of round 2 until it is paired (a
    // late entry may still switch the event to Swiss).
    assert!(first["next"]["table"].as_u64().is_some(), "the square movement plans the next table: {cli}");
    assert!(me["next"].is_null(), "{me}");
}

#[test]
fn the_table_page_records_a_result_at_time_with_its_turn() {
    let ev = crate::harness::Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    // Time is called: the round's clock started long enough ago.
    ev.run(&["round", "start", "--at", "2025-05-01T09:00:00Z"]).ok();
    let pin = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    let (cookie, csrf) = page_login(&server, "Lee", &pin);
    let page = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "").body;
    assert!(page.contains(r#"<label data-shown-by="time">turn at time <input name="turn""#), "{page}");
    assert!(page.contains(r#"<option value="totals" data-enabled-from="#), "{page}");
    assert!(!page.contains("disabled>the life totals decide (time)"), "time is called: a result at time is offered");
    assert!(!page.contains("disabled>time</option>"), "{page}");

    let form_type = ("Content-Type", "application/x-www-form-urlencoded");
    let send = |body: &str| server.request("POST", "/api/result", &[("Cookie", &cookie), form_type], body);
    // A turn with another reason, a turn that is not one: refused, the file unchanged.
    let before = ev.dump();
    let life = send(&format!("csrf={csrf}&back=/judge/table/1&table=1&winner=Ana&by=life&life=12%2C0&turn=4"));
    assert_eq!(life.status, 400, "{}", life.body);
    assert!(life.body.contains("choose time as why the game ended, or leave the turn empty"), "{}", life.body);
    for turn in ["0", "many"] {
        let bad = send(&format!("csrf={csrf}&back=/judge/table/1&table=1&winner=&by=time&life=7%2C9&turn={turn}"));
        assert_eq!(bad.status, 400, "turn={turn}: {}", bad.body);
    }
    assert_eq!(before, ev.dump(), "refused forms change nothing");

    // The life totals decide at time; the turn goes with the result. An empty turn field is no turn.
    let body = format!("csrf={csrf}&back=/judge/table/1&table=1&winner=&by=time&life=7%2C9&turn=6");
    let recorded = send(&body);
    assert_eq!(recorded.status, 303, "{}", recorded.body);
    let body = format!("csrf={csrf}&back=/judge/table/2&table=2&winner=Cy&by=concession&life=&turn=");
    assert_eq!(send(&body).status, 303);
    let results = ev.run(&["--json", "results"]).json();
    assert_eq!(results["tables"][0]["turn"], 6, "{results}");
    assert_eq!((&results["tables"][0]["winner"], &results["tables"][0]["reason"]), (&json!("Bo"), &json!("time")));
    assert!(results["tables"][1].get("turn").is_none(), "{results}");
    let log = crate::serve::audit_vias(&ev);
    assert!(log.iter().any(|(j, c, _)| j == "Lee" && c.contains(r#""turn":"6""#)), "{log:?}");
}

#[test]
fn the_table_page_offers_a_result_at_time_only_once_time_is_called() {
    let ev = crate::harness::Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    let now = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
    ev.run(&["round", "start", "--at", &now]).ok();
    let pin = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    let (cookie, _) = page_login(&server, "Lee", &pin);
    let page = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "").body;
    // Offered from the instant time is called (the page enables them then), not before.
    assert!(page.contains(r#"disabled>the life totals decide (time)</option>"#), "{page}");
    assert!(page.contains(r#"disabled>time</option>"#), "{page}");
    assert!(page.contains(r#"Z" disabled>time</option>"#), "enabled from an instant: {page}");
}
