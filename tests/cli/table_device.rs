//! The table's own device: player codes, declarations and the decision clock by code, through the real server
//! (`mmjudge serve --bind 127.0.0.1:0`).

use crate::cards::with_reference;
use crate::harness::Event;
use crate::serve::{Events, Server};
use serde_json::json;
use std::time::Duration;

/// The bundled reference; round 1 started at tables 1 (Ana-Bo) and 2 (Cy-Di).
fn started() -> Event {
    let ev = with_reference();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["round", "start"]).ok();
    ev
}

use crate::serve::codes;

fn note_count(ev: &Event) -> usize {
    let doc = ev.run(&["--json", "notes", "1"]).json();
    doc["notes"].as_array().map_or(0, Vec::len)
}

#[test]
fn every_player_has_a_six_digit_code_listed_for_printing_and_renewed_when_lost() {
    let ev = started();
    ev.run(&["player", "add", "Late Entrant"]).ok();
    let all = codes(&ev);
    assert_eq!(all.len(), 5, "late entrants get a code too: {all:?}");
    assert!(all.values().all(|c| c.len() == 6 && c.bytes().all(|b| b.is_ascii_digit())), "{all:?}");
    assert_eq!(codes(&ev), all, "codes are kept, the same from run to run");
    let csv = ev.run(&["--csv", "player", "codes"]).ok().to_string();
    assert!(csv.lines().next().unwrap_or_default().contains("code"), "{csv}");
    assert!(csv.contains(&format!("Ana,{}", all["Ana"])), "{csv}");
    let text = ev.run(&["player", "code", "ana"]).ok().to_string();
    assert_eq!(text.trim(), format!("Ana: code {}", all["Ana"]));
    let renewed = ev.run(&["--json", "player", "code", "ana", "--new"]).json();
    let new = renewed["code"].as_str().expect("code").to_string();
    assert_ne!(new, all["Ana"]);
    assert_eq!(codes(&ev)["Ana"], new);
    assert!(ev.refuses(&["player", "code", "zed", "--new"]).contains("zed"));

    let server = Server::start(&ev);
    let old = json!({ "table": 1, "code": all["Ana"], "cost": "B1", "card": "Demonic Tutor" });
    assert!(server.post_json("/api/note", None, &old).error(403).contains("not one of the two players'"));
    let fresh = json!({ "table": 1, "code": new, "cost": "B1", "card": "Demonic Tutor" });
    assert_eq!(server.post_json("/api/note", None, &fresh).status, 200);
}

#[test]
fn a_player_declares_by_code_checked_as_the_note_command_and_both_devices_see_it() {
    let ev = started();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let mut events = Events::open(&server);
    let post = |body: serde_json::Value| server.post_json("/api/note", None, &body);

    let before = ev.dump();
    let refused = [
        (json!({ "table": 1, "code": code["Cy"], "cost": "B1", "card": "Demonic Tutor" }), 403, "table 1"),
        (json!({ "table": 1, "code": code["Ana"], "cost": "U", "card": "Ancestral Recall" }), 409, "banned"),
        (json!({ "table": 1, "code": code["Ana"], "cost": "B2", "card": "Demonic Tutor" }), 409, "not {2}{B}"),
        (json!({ "table": 1, "code": code["Ana"], "cost": "B1" }), 400, "which card"),
        (json!({ "table": "one", "code": code["Ana"], "cost": "B1", "card": "x" }), 400, "JSON"),
        (json!({ "table": 9, "code": code["Ana"], "cost": "B1", "card": "Demonic Tutor" }), 404, "table 9"),
    ];
    for (body, status, words) in refused {
        let msg = post(body.clone()).error(status);
        assert!(msg.contains(words), "{body}: {msg}");
    }
    assert_eq!(ev.dump(), before, "refused declarations change nothing");

    let first = json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "demonic tutor", "client_id": "a-1" });
    let ok = post(first.clone());
    assert_eq!(ok.status, 200, "{}", ok.body);
    let doc = ok.json();
    assert_eq!(
        (doc["card"].as_str(), doc["player"].as_str(), doc["repeat"].as_bool()),
        (Some("Demonic Tutor"), Some("Ana"), Some(false))
    );
    events.wait_for("note", Duration::from_secs(5));

    // The phone retried on poor Wi-Fi: recorded once, answered with the first outcome, never refused.
    let again = post(first);
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!((again.json()["note"].clone(), again.json()["repeat"].as_bool()), (doc["note"].clone(), Some(true)));
    assert_eq!(note_count(&ev), 1);

    let dup =
        post(json!({ "table": 1, "code": code["Bo"], "cost": "B1", "card": "Demonic Tutor", "client_id": "b-1" }));
    let msg = dup.error(409);
    assert!(msg.starts_with("MM.3e: ") && msg.contains("already declared in this game by Ana"), "{msg}");
    let unnamed = post(json!({ "table": 1, "code": code["Bo"], "cost": "U1", "unnamed": true }));
    assert_eq!(unnamed.status, 200, "{}", unnamed.body);

    // The opponent's device reads the sheet.
    let sheet = server.get("/api/table/1/notes").json();
    let lines: Vec<_> =
        sheet["notes"].as_array().expect("notes").iter().map(|n| (n["player"].clone(), n["card"].clone())).collect();
    assert_eq!(lines, vec![(json!("Ana"), json!("Demonic Tutor")), (json!("Bo"), json!(null))]);
    assert!(sheet["clock"]["now"].is_string());

    // The audit names the player and the device, and never the code.
    let log = crate::serve::audit_vias(&ev);
    let (who, command, via) = log.iter().rev().find(|(_, c, _)| c.starts_with("POST /api/note")).expect("audited");
    assert_eq!(who, "Bo (player)");
    assert!(via.starts_with("web 127.0.0.1") && !command.contains(&code["Bo"]), "{command}");
}

#[test]
fn a_player_takes_back_only_their_own_last_declaration_within_30_seconds() {
    let ev = started();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let note = |who: &str, cost: &str, card: &str| {
        let a =
            server.post_json("/api/note", None, &json!({ "table": 1, "code": code[who], "cost": cost, "card": card }));
        assert_eq!(a.status, 200, "{}", a.body);
        a.json()["note"].as_i64().expect("id")
    };
    let undo = |who: &str| server.post_json("/api/note/undo", None, &json!({ "table": 1, "code": code[who] }));
    let ana = note("Ana", "B1", "Demonic Tutor");
    let before = ev.dump();
    let msg = undo("Bo").error(409);
    assert!(
        msg.contains(&format!("ask a judge to void it (a head judge voids note #{ana}")) && msg.contains("Ana's"),
        "{msg}"
    );
    assert!(undo("Cy").error(403).contains("table 1"));
    assert_eq!(ev.dump(), before);
    let back = undo("Ana");
    assert_eq!(back.status, 200, "{}", back.body);
    assert_eq!(back.json()["removed"]["id"].as_i64(), Some(ana));
    assert_eq!(note_count(&ev), 0);

    let late = note("Ana", "B1", "Demonic Tutor");
    ev.sql(&format!(
        "UPDATE template_note SET at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-31 seconds') WHERE id = {late}"
    ));
    let before = ev.dump();
    let msg = undo("Ana").error(409);
    assert!(msg.contains("more than 30 s ago") && msg.contains(&format!("a head judge voids note #{late}")), "{msg}");
    assert_eq!(ev.dump(), before);
    assert!(undo("Bo").error(409).contains("ask a judge to void it"));
}

#[test]
fn completion_offers_the_costs_class_without_the_templates_used_in_this_game() {
    let ev = started();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let names = |path: &str| -> Vec<String> {
        let a = server.get(path);
        assert_eq!(a.status, 200, "{}", a.body);
        a.json()["cards"].as_array().expect("cards").iter().filter_map(|c| c.as_str().map(String::from)).collect()
    };
    assert!(names("/api/cards/cost?cost=B1&table=1&q=dem").contains(&"Demonic Tutor".to_string()));
    assert!(names("/api/cards/cost?cost=%7B1%7D%7BB%7D&q=TUT").contains(&"Demonic Tutor".to_string()));
    server.post_json(
        "/api/note",
        None,
        &json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Demonic Tutor" }),
    );
    assert!(!names("/api/cards/cost?cost=B1&table=1&q=dem").contains(&"Demonic Tutor".to_string()));
    assert!(names("/api/cards/cost?cost=B1&table=2&q=dem").contains(&"Demonic Tutor".to_string()));
    assert!(server.get("/api/cards/cost?q=dem").error(400).contains("cost"));
    assert!(server.get("/api/cards/cost?cost=ZZ").error(400).contains("cost"));
    assert!(server.get("/api/cards/cost?cost=B1&table=7").error(404).contains("table 7"));
}

#[test]
fn players_run_the_decision_clock_from_the_table_with_server_time_and_deadlines() {
    let ev = started();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let tap = |route: &str, who: &str| server.post_json(route, None, &json!({ "table": 1, "code": code[who] }));
    let started = tap("/api/clock/start", "Ana");
    assert_eq!(started.status, 200, "{}", started.body);
    let doc = started.json();
    assert_eq!(doc["player"], "Ana");
    let clock = &doc["clock"];
    assert_eq!(clock["table"]["decision"]["player"], "Ana");
    assert!(clock["decision_deadline"].is_string() && clock["now"].is_string(), "{clock}");
    assert!(clock["table"]["decision_limit"].as_u64().is_some_and(|s| s == 45 || s == 15), "{clock}");

    let before = ev.dump();
    assert!(tap("/api/clock/hand-over", "Bo").error(409).contains("it is Ana's decision"));
    let running = tap("/api/clock/start", "Bo").error(409);
    assert!(
        running.starts_with("Ana is already deciding at table 1")
            && running.ends_with("; Ana taps Stop or Hand over first"),
        "{running}"
    );
    assert!(tap("/api/clock/stop", "Cy").error(403).contains("table 1"));
    assert_eq!(ev.dump(), before);

    let passed = tap("/api/clock/pass", "Ana");
    assert_eq!(passed.status, 200, "{}", passed.body);
    assert_eq!(passed.json()["started"]["player"], "Bo");
    let stopped = tap("/api/clock/stop", "Bo");
    assert_eq!(stopped.status, 200, "{}", stopped.body);
    let s = stopped.json();
    assert_eq!((s["player"].as_str(), s["overrun_ms"].as_i64()), (Some("Bo"), Some(0)));
    assert!(s["clock"]["table"]["decision"].is_null());
    let decisions = ev.run(&["--json", "decisions"]).json().to_string();
    assert!(decisions.contains("Ana") && decisions.contains("Bo"), "{decisions}");
}

#[test]
fn wrong_codes_are_limited_per_address_and_table() {
    let ev = started();
    let server = Server::start(&ev);
    for i in 0..5 {
        let wrong = json!({ "table": 1, "code": format!("99999{i}"), "cost": "B1", "card": "Demonic Tutor" });
        server.post_json("/api/note", None, &wrong).error(403);
    }
    let code = codes(&ev);
    let right = json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Demonic Tutor" });
    assert!(server.post_json("/api/note", None, &right).error(429).contains("too many wrong player codes"));
}

#[test]
fn wrong_judge_pins_do_not_lock_out_the_players_codes() {
    let ev = started();
    let server = Server::start(&ev);
    for _ in 0..7 {
        server.post_json("/api/login", None, &json!({ "name": "Nobody", "pin": "000000" }));
    }
    let code = codes(&ev);
    let right = json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Demonic Tutor" });
    let answer = server.post_json("/api/note", None, &right);
    assert_eq!(answer.status, 200, "{}", answer.body);
}

#[test]
fn the_table_page_signs_players_in_by_code_and_reads_the_sheet_with_card_text_for_judges() {
    let ev = started();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let page = server.get("/table/1");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Ana&#x27;s code") || page.body.contains("Ana's code"), "{}", page.body);
    let (script, css) = (mmjudge::render::assets::url("table.js"), mmjudge::render::assets::url("table.css"));
    assert!(page.body.contains(script) && page.body.contains("data-table=\"1\""));
    assert_eq!(server.get(script).header("content-type"), Some("text/javascript; charset=utf-8"));
    assert_eq!(server.get(css).status, 200);
    let missing = server.get("/table/9");
    assert!(missing.status == 404 && missing.body.contains("table 9") && missing.body.contains("<nav>"));
    let bad = server.get("/table/x");
    assert!(bad.status == 400 && bad.body.contains("table number") && bad.body.contains("<nav>"));

    let who = server.post_json("/api/player/code", None, &json!({ "table": 1, "code": code["Bo"] }));
    // The answer names the player and carries the device's sign-in for the match (never the code).
    let mut doc = who.json();
    let signin = doc.as_object_mut().and_then(|o| o.remove("signin")).unwrap_or_default();
    assert!(signin.as_str().is_some_and(|s| s.len() > 40 && !s.contains(code["Bo"].as_str())), "{signin}");
    assert_eq!(doc, json!({ "table": 1, "round": 1, "player": "Bo", "seat": "B" }));
    assert!(
        server
            .post_json("/api/player/code", None, &json!({ "table": 2, "code": code["Bo"] }))
            .error(403)
            .contains("table 2")
    );

    ev.sql("UPDATE card SET text = 'Search your library for a card.' WHERE name = 'Demonic Tutor'");
    let noted = server.post_json(
        "/api/note",
        None,
        &json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Demonic Tutor" }),
    );
    let id = noted.json()["note"].as_i64().expect("id");
    let sheet = server.get("/api/table/1/notes").json();
    assert_eq!(sheet["notes"][0]["seat"], "A");
    assert_eq!(sheet["texts"][id.to_string()], "Search your library for a card.");
}

#[test]
fn an_overrun_at_the_table_is_recorded_as_the_clock_command_records_it_and_shows_on_the_dashboard() {
    let ev = started();
    let code = codes(&ev);
    let pin = crate::serve::judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    let tap = |route: &str, who: &str| server.post_json(route, None, &json!({ "table": 1, "code": code[who] }));
    assert_eq!(tap("/api/clock/start", "Ana").status, 200);
    ev.sql("UPDATE round SET started_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-10 minutes')");
    ev.sql("UPDATE decision SET started_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds')");
    let stopped = tap("/api/clock/stop", "Ana").json();
    assert_eq!(stopped["limit_ms"], 45000, "{stopped}");
    assert!(stopped["overrun_ms"].as_i64().is_some_and(|o| (15000..20000).contains(&o)), "{stopped}");
    let decisions = ev.run(&["--json", "decisions"]).json();
    assert_eq!(decisions["overruns"][0]["player"], "Ana", "{decisions}");
    let token = server.login("Lee", &pin);
    let page = server.request("GET", "/judge", &[("Authorization", &format!("Bearer {token}"))], "");
    assert!(page.body.contains("Decision overruns this round") && page.body.contains("Ana"), "{}", page.body);
}

#[test]
fn a_declaration_taken_back_then_sent_again_with_its_client_id_is_answered_again_and_not_recorded() {
    let ev = started();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let post = |body: &serde_json::Value| server.post_json("/api/note", None, body);
    let first = json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Demonic Tutor", "client_id": "a-7" });
    let ok = post(&first);
    assert_eq!(ok.status, 200, "{}", ok.body);
    let id = ok.json()["note"].as_i64().expect("id");
    // A retry of a declaration still standing: the first outcome, recorded once.
    let retry = post(&first).json();
    assert_eq!((retry["note"].as_i64(), retry["repeat"].as_bool()), (Some(id), Some(true)));
    assert_eq!(note_count(&ev), 1);
    let client_rows = || ev.run(&["--json", "notes", "1"]).json()["notes"].as_array().map_or(0, Vec::len);

    let back = server.post_json("/api/note/undo", None, &json!({ "table": 1, "code": code["Ana"] }));
    assert_eq!(back.status, 200, "{}", back.body);
    assert_eq!(client_rows(), 0);

    // Sent again after the undo (the device replays its queue): the client id is the write's key, and an undo
    // does not free it: the first answer again, and nothing recorded.
    let before = ev.dump();
    let again = post(&first);
    assert_eq!(again.status, 200, "{}", again.body);
    let doc = again.json();
    assert_eq!((doc["note"].as_i64(), doc["repeat"].as_bool()), (Some(id), Some(true)), "{doc}");
    assert_eq!(note_count(&ev), 0);
    assert_eq!(ev.dump(), before, "an undone declaration sent again with its key is not recorded again");

    // A new declaration after an undo (a new client id) is recorded as any other.
    let other = json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Demonic Tutor", "client_id": "a-8" });
    let fresh = post(&other);
    assert_eq!(fresh.status, 200, "{}", fresh.body);
    assert_eq!(fresh.json()["repeat"].as_bool(), Some(false));
    assert_eq!(note_count(&ev), 1);

    // The other player's device never gets Ana's outcome for a client id Ana's device used.
    let before = ev.dump();
    let bo = json!({ "table": 1, "code": code["Bo"], "cost": "U1", "unnamed": true, "client_id": "a-8" });
    let msg = post(&bo).error(400);
    assert!(msg.contains("client_id") && msg.contains("Ana"), "{msg}");
    assert_eq!(ev.dump(), before);
}

#[test]
fn player_codes_print_as_slips_with_the_event_the_code_and_the_servers_address() {
    let ev = started();
    let code = codes(&ev);
    let listed = ev.run(&["player", "codes"]).ok().to_string();
    let run = ev.run(&["player", "codes", "--html", "slips.html", "--url", "http://10.0.0.5:8080/"]).ok().to_string();
    // The codes went to the file: the terminal (maybe a shared screen) shows only what was written.
    assert_eq!(
        run,
        "wrote 4 slips to slips.html (print, cut apart and hand out: each player's code is theirs alone)\n"
    );
    assert!(code.values().all(|c| !run.contains(c.as_str())) && !listed.is_empty(), "{run}");
    let html = std::fs::read_to_string(ev.path("slips.html")).expect("slips");
    assert!(html.contains("mmjudge player slips"), "marked as mmjudge's own output");
    assert_eq!(html.matches("class=\"slip\"").count(), 4, "one slip per player");
    for (name, c) in &code {
        assert!(html.contains(&format!("<h2>{name}</h2>")) && html.contains(c.as_str()), "{name}");
    }
    // People type a readable address and find their name; the QR code holds each player's own page.
    assert_eq!(html.matches("<span class=\"url\">http://10.0.0.5:8080/me</span> and find your name").count(), 4);
    let event = ev.run(&["--json", "event", "show"]).json()["name"].as_str().expect("event name").to_string();
    assert!(html.contains(&format!("<h1>{event}</h1>")), "the event's name on each slip");
    assert_eq!(html.matches("<svg").count(), 4, "a QR code on each slip");
    // The JSON listing is as before: slips are a file, never part of the listing.
    let doc = ev.run(&["--json", "player", "codes", "--html", "slips.html"]).json();
    assert_eq!(doc, ev.run(&["--json", "player", "codes"]).json());
    assert!(ev.run(&["player", "codes", "--url", "http://x"]).code != 0, "--url goes with --html");
    ev.run(&["player", "add", "Zoë Lambert"]).ok();
    ev.run(&["player", "codes", "--html", "slips.html", "--url", "http://10.0.0.5:8080/"]).ok();
    let html = std::fs::read_to_string(ev.path("slips.html")).expect("slips");
    assert!(html.contains("<h2>Zoë Lambert</h2>") && !html.contains("Zo%C3%AB"), "nothing percent-encoded to type");
}

#[test]
fn every_refusal_of_the_device_answers_with_its_reason_and_changes_nothing() {
    let ev = started();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let post = |route: &str, body: serde_json::Value| server.post_json(route, None, &body);
    let note = |who: &str, cost: &str, card: &str| {
        let a = post("/api/note", json!({ "table": 1, "code": code[who], "cost": cost, "card": card }));
        assert_eq!(a.status, 200, "{}", a.body);
        a.json()["note"].as_i64().expect("id")
    };
    let undo = |who: &str| post("/api/note/undo", json!({ "table": 1, "code": code[who] }));
    let before = ev.dump();
    let refused = [
        ("/api/note/undo", json!({ "table": 1, "code": code["Ana"] }), 409, "no declarations to take back"),
        ("/api/note", json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Cruel Cut" }), 409, "TR.kinds"),
        ("/api/note", json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Utopia" }), 409, "MM.4e"),
        ("/api/note", json!({ "table": 1, "code": "", "cost": "B1", "card": "Demonic Tutor" }), 400, "player code"),
        (
            "/api/note",
            json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Demonic Tutor", "unnamed": true }),
            400,
            "not both",
        ),
        (
            "/api/note",
            json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Demonic Tutor", "letter": "dx" }),
            400,
            "one letter",
        ),
        ("/api/clock/stop", json!({ "table": 1, "code": code["Ana"] }), 409, "decision"),
        ("/api/clock/start", json!({ "table": 1, "code": code["Di"] }), 403, "table 1"),
        ("/api/clock/pass", json!({ "table": 1, "code": code["Cy"] }), 403, "table 1"),
        ("/api/clock/start", json!({ "table": 7, "code": code["Ana"] }), 404, "table 7"),
    ];
    for (route, body, status, words) in refused {
        let msg = post(route, body.clone()).error(status);
        assert!(msg.contains(words), "{route} {body}: {msg}");
    }
    assert_eq!(ev.dump(), before, "refusals change nothing");
    assert!(server.get("/api/table/9/notes").error(404).contains("table 9"));
    assert!(server.get("/api/table/x/notes").error(400).contains("table number"));

    // Ana's own last declaration, but Bo has declared since: only a judge takes it back now.
    let ana = note("Ana", "B1", "Demonic Tutor");
    note("Bo", "R", "Lightning Bolt");
    let before = ev.dump();
    let msg = undo("Ana").error(409);
    assert!(msg.contains("Bo's") && msg.contains("only their own last one"), "{msg}");
    assert_eq!(ev.dump(), before);
    // A declaration cited as evidence in a challenge is the judge's to void.
    let bolt = undo("Bo");
    assert_eq!(bolt.status, 200, "{}", bolt.body);
    ev.run(&["challenge", "1", "--by", "bo", "--about", "the tutor", "--ruling", "denied"]).ok();
    let challenge = ev.run(&["--json", "challenges"]).json()["challenges"][0]["id"].as_i64().expect("challenge id");
    ev.run(&["challenge", "evidence", &challenge.to_string(), &ana.to_string()]).ok();
    let before = ev.dump();
    let msg = undo("Ana").error(409);
    assert!(msg.contains("evidence in a challenge") && msg.contains(&format!("voids note #{ana}")), "{msg}");
    assert_eq!(ev.dump(), before);
}

#[test]
fn under_the_alphabet_bindings_a_declaration_carries_the_printed_cards_letter() {
    let ev = started();
    ev.run(&["event", "set", "binding", "alphabet", "--force"]).ok();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let post = |body: serde_json::Value| server.post_json("/api/note", None, &body);
    let before = ev.dump();
    let wrong = post(json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Diabolic Edict", "letter": "x" }));
    assert_eq!(wrong.status, 409, "{}", wrong.body);
    assert_eq!(ev.dump(), before);
    let right = post(json!({ "table": 1, "code": code["Ana"], "cost": "B1", "card": "Diabolic Edict", "letter": "d" }));
    assert_eq!(right.status, 200, "{}", right.body);
    assert_eq!(right.json()["card"], "Diabolic Edict");
}

#[test]
fn a_signed_in_player_calls_a_judge_from_the_device_which_shows_the_call_while_it_is_open() {
    let ev = started();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let sign_in = |who: &str| {
        let a = server.post_json("/api/player/code", None, &json!({ "table": 1, "code": code[who] }));
        a.json()["signin"].as_str().expect("a sign-in").to_string()
    };
    let (ana, bo) = (sign_in("Ana"), sign_in("Bo"));
    // The device's page: a "Call a judge" button per seat, and it follows the table's calls live.
    let page = server.get("/table/1").body;
    assert_eq!(page.matches(r#"data-act="call""#).count(), 2, "{page}");
    let watch = page.split(r#"data-watch=""#).filter_map(|w| w.split('"').next()).find(|w| w.contains("note"));
    assert!(watch.is_some_and(|w| w.split(' ').any(|t| t == "call")), "{page}");
    assert_eq!(server.get("/api/table/1/notes").json()["call"], json!(null));

    // Refused: a sign-in of another table, both a code and a sign-in, neither; nothing is written.
    let before = ev.dump();
    let call = |body: serde_json::Value| server.post_json("/api/call", None, &body);
    assert!(call(json!({ "table": 2, "signin": ana })).error(403).contains("signed out"));
    assert!(call(json!({ "table": 1, "signin": ana, "code": code["Ana"] })).error(400).contains("not both"));
    assert!(call(json!({ "table": 1, "signin": "" })).error(400).contains("code"));
    assert_eq!(ev.dump(), before);

    let first = call(json!({ "table": 1, "signin": ana }));
    assert_eq!(first.status, 200, "{}", first.body);
    let doc = first.json();
    assert_eq!(
        (doc["table"].clone(), doc["caller"].clone(), doc["repeat"].clone()),
        (json!(1), json!("Ana"), json!(false))
    );
    let again = call(json!({ "table": 1, "signin": bo })).json();
    assert_eq!(
        (again["id"].clone(), again["caller"].clone(), again["repeat"].clone()),
        (doc["id"].clone(), json!("Ana"), json!(true))
    );
    // The audit names the player, never the sign-in.
    let log = crate::serve::audit_vias(&ev);
    let (who, command, _) = log.iter().rev().find(|(_, c, _)| c.starts_with("POST /api/call")).expect("audited");
    assert!(who == "Ana (player)" && !command.contains(&ana), "{who}: {command}");

    // The device reads the open call with the sheet, until a judge closes it.
    let open = server.get("/api/table/1/notes").json()["call"].clone();
    assert_eq!(
        (open["id"].clone(), open["caller"].clone(), open["since"].clone()),
        (doc["id"].clone(), json!("Ana"), doc["since"].clone())
    );
    assert_eq!(server.get("/api/table/2/notes").json()["call"], json!(null), "another table's device shows no call");
    ev.run(&["call", "close", "1"]).ok();
    assert_eq!(server.get("/api/table/1/notes").json()["call"], json!(null));

    // The player's own page marks the call's line as the answer to its form, so the page shows it in view.
    call(json!({ "table": 1, "signin": bo }));
    let me = server.get("/me?name=Bo").body;
    assert!(
        me.contains(r#"<p class="call" role="status" data-answer-of="/api/call">A judge is called to your table"#),
        "{me}"
    );
}
