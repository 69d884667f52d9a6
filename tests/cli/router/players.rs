//! The players' writes with their codes (the table's device and the forms of `/me`): a body that is not the
//! one expected (400), a code that is not one of the table's two players' (403), a table that is not there
//! (404), and what the rules refuse (409). Each case runs on a new app: five wrong codes at a table hold it back.

use super::{Req, Site, case};
use serde_json::{Value, json};

#[test]
fn players_writes_refuse_a_body_that_is_not_the_one_expected() {
    let site = Site::playing();
    let ana = site.code("Ana");
    let post = |path: &str, body: Value| Req::post(path).json(body).phone(11);
    site.refusals_apart(vec![
        case(post("/api/note", json!({ "table": "one", "code": ana, "cost": "B1", "card": "x" })), 400, "JSON"),
        case(post("/api/note", json!({ "table": 1, "code": ana, "cost": "B1" })), 400, "which card"),
        case(
            post("/api/note", json!({ "table": 1, "code": ana, "cost": "B1", "card": "x", "unnamed": true })),
            400,
            "not both",
        ),
        case(
            post("/api/note", json!({ "table": 1, "code": ana, "cost": "B1", "card": "x", "letter": "xy" })),
            400,
            "letter",
        ),
        case(post("/api/note", json!({ "table": 1, "code": ana, "cost": "Q7", "card": "x" })), 400, "Q7"),
        case(Req::post("/api/note/undo").raw("application/json", "{").phone(11), 400, "not the JSON expected"),
        case(post("/api/note/undo", json!({ "table": 1 })), 400, "sign in on the table's device first"),
        case(post("/api/clock/start", json!({ "table": "one", "code": ana })), 400, "JSON"),
        case(post("/api/clock/stop", json!({ "code": ana })), 400, "missing field"),
        case(Req::post("/api/clock/hand-over").raw("application/json", "{").phone(11), 400, "not the JSON expected"),
        case(Req::post("/api/clock/pass").raw("text/plain", "{}").phone(11), 400, "Content-Type"),
        case(post("/api/clock/pass", json!({ "table": 1 })), 400, "sign in on the table's device first"),
        case(Req::post("/api/player/code").raw("application/json", "{").phone(11), 400, "not the JSON expected"),
        case(post("/api/player/code", json!({ "table": 1 })), 400, "code"),
        case(
            post("/api/self-report", json!({ "table": 1, "code": ana, "winner": "Ana", "by": "sorcery" })),
            400,
            "sorcery",
        ),
        case(
            post("/api/self-report", json!({ "table": 1, "code": ana, "winner": "Ana", "by": "life", "life": "x" })),
            400,
            "life",
        ),
        case(
            post("/api/self-report", json!({ "table": 1, "winner": "Ana", "by": "life" })),
            400,
            "code: type your code",
        ),
        case(post("/api/call", json!({ "table": 1 })), 400, "give your player code"),
        case(post("/api/call", json!({ "code": ana })), 400, "missing field"),
        // The forms of /me: the refusal is a page.
        case(Req::post("/api/call").form("table=1&back=/me").phone(11), 400, "give your player code"),
        case(
            Req::post("/api/self-report").form(&format!("table=1&code={ana}&by=sorcery&back=/me")).phone(11),
            400,
            "sorcery",
        ),
    ]);
}

#[test]
fn a_players_code_acts_only_at_their_own_table() {
    let site = Site::playing();
    let (ana, cy) = (site.code("Ana"), site.code("Cy"));
    let post = |path: &str, body: Value| Req::post(path).json(body).phone(12);
    site.refusals_apart(vec![
        case(
            post("/api/note", json!({ "table": 1, "code": cy, "cost": "B1", "card": "Demonic Tutor" })),
            403,
            "table 1",
        ),
        case(post("/api/note/undo", json!({ "table": 1, "code": cy })), 403, "table 1"),
        case(post("/api/clock/start", json!({ "table": 1, "code": cy })), 403, "table 1"),
        case(post("/api/clock/stop", json!({ "table": 1, "code": cy })), 403, "table 1"),
        case(post("/api/clock/hand-over", json!({ "table": 1, "code": cy })), 403, "table 1"),
        case(post("/api/clock/pass", json!({ "table": 2, "code": ana })), 403, "table 2"),
        case(post("/api/player/code", json!({ "table": 1, "code": cy })), 403, "table 1"),
        case(post("/api/player/code", json!({ "table": 2, "code": "000000" })), 403, "table 2"),
        case(
            post("/api/self-report", json!({ "table": 1, "code": cy, "winner": "Ana", "by": "life" })),
            403,
            "table 1",
        ),
        case(post("/api/call", json!({ "table": 1, "code": cy })), 403, "table 1"),
        case(Req::post("/api/call").form(&format!("table=2&code={ana}&back=/me")).phone(12), 403, "table 2"),
    ]);
}

#[test]
fn every_players_write_with_a_code_takes_the_seat_and_checks_the_code_against_that_seats_player() {
    let site = Site::playing();
    let ana = site.code("Ana");
    let post = |path: &str, body: Value| Req::post(path).json(body).phone(14);
    let at_b = |more: Value| {
        let mut body = json!({ "table": 1, "seat": "B", "code": ana });
        if let (Some(b), Some(m)) = (body.as_object_mut(), more.as_object()) {
            b.extend(m.clone());
        }
        body
    };
    // Ana's right code on Bo's side is a wrong code for Bo, on every route a player writes with a code.
    site.refusals_apart(vec![
        case(post("/api/call", at_b(json!({}))), 403, "not Bo's"),
        case(post("/api/note/undo", at_b(json!({}))), 403, "not Bo's"),
        case(post("/api/self-report", at_b(json!({ "winner": "Ana", "by": "life" }))), 403, "not Bo's"),
        case(post("/api/self-report/confirm", at_b(json!({ "report": 1 }))), 403, "not Bo's"),
        case(post("/api/self-report/dispute", at_b(json!({}))), 403, "not Bo's"),
        case(post("/api/note", at_b(json!({ "cost": "B1", "card": "Demonic Tutor" }))), 403, "not Bo's"),
        case(post("/api/call", json!({ "table": 1, "seat": "C", "code": ana })), 400, "seat"),
    ]);
    // On her own side it is taken.
    let own = site.send(post("/api/call", json!({ "table": 1, "seat": "A", "code": ana })));
    assert_eq!(own.status, 200, "{}", own.body);
}

#[test]
fn players_writes_refuse_a_table_that_is_not_there() {
    let site = Site::playing();
    let ana = site.code("Ana");
    let post = |path: &str, body: Value| Req::post(path).json(body).phone(13);
    site.refusals_apart(vec![
        case(
            post("/api/note", json!({ "table": 9, "code": ana, "cost": "B1", "card": "Demonic Tutor" })),
            404,
            "table 9",
        ),
        case(post("/api/note/undo", json!({ "table": 9, "code": ana })), 404, "table 9"),
        case(post("/api/clock/start", json!({ "table": 9, "code": ana })), 404, "table 9"),
        case(post("/api/clock/hand-over", json!({ "table": 9, "code": ana })), 404, "table 9"),
        case(post("/api/player/code", json!({ "table": 9, "code": ana })), 404, "table 9"),
        case(
            post("/api/self-report", json!({ "table": 9, "code": ana, "winner": "Ana", "by": "life" })),
            404,
            "table 9",
        ),
        case(post("/api/call", json!({ "table": 9, "code": ana })), 404, "table 9"),
        case(
            post("/api/note", json!({ "table": 1, "code": ana, "cost": "B1", "card": "Not A Card" })),
            404,
            "Not A Card",
        ),
    ]);
}

#[test]
fn players_writes_refuse_what_the_rules_do_not_allow() {
    let site = Site::playing();
    let (ana, bo, ed) = (site.code("Ana"), site.code("Bo"), site.code("Ed"));
    let post = |path: &str, body: Value| Req::post(path).json(body).phone(14);
    site.refusals_apart(vec![
        case(
            post("/api/note", json!({ "table": 1, "code": ana, "cost": "U", "card": "Ancestral Recall" })),
            409,
            "banned",
        ),
        case(
            post("/api/note", json!({ "table": 1, "code": ana, "cost": "B2", "card": "Demonic Tutor" })),
            409,
            "not {2}{B}",
        ),
        case(post("/api/note/undo", json!({ "table": 1, "code": bo })), 409, "no declarations"),
        case(post("/api/clock/stop", json!({ "table": 1, "code": ana })), 409, "no decision"),
        case(post("/api/clock/hand-over", json!({ "table": 1, "code": ana })), 409, "no decision"),
        case(post("/api/self-report", json!({ "table": 3, "code": ed, "winner": "Ed", "by": "life" })), 409, "result"),
    ]);
}

#[test]
fn before_the_rounds_clock_starts_a_player_may_not_declare_or_start_a_decision() {
    let site = Site::paired();
    let ana = site.code("Ana");
    let post = |path: &str, body: Value| Req::post(path).json(body).phone(15);
    site.refusals_apart(vec![
        case(
            post("/api/note", json!({ "table": 1, "code": ana, "cost": "B1", "card": "Demonic Tutor" })),
            409,
            "clock",
        ),
        case(post("/api/clock/start", json!({ "table": 1, "code": ana })), 409, "start"),
    ]);
}

#[test]
fn a_confirmation_names_the_report_waiting_and_is_the_other_players() {
    let site = Site::playing();
    let (ana, bo, cy) = (site.code("Ana"), site.code("Bo"), site.code("Cy"));
    let body = json!({ "table": 1, "code": ana, "winner": "Ana", "by": "concession" });
    let sent = site.send(Req::post("/api/self-report").json(body).phone(16));
    assert_eq!(sent.status, 200, "{}", sent.body);
    let id = sent.json()["report"]["id"].as_i64().expect("the report's number");
    let post = |body: Value| Req::post("/api/self-report/confirm").json(body).phone(16);
    site.refusals_apart(vec![
        case(post(json!({ "table": 1, "code": bo })), 400, "missing field"),
        case(post(json!({ "table": 1, "code": bo, "report": "first" })), 400, "JSON"),
        case(post(json!({ "table": 1, "code": cy, "report": id })), 403, "table 1"),
        case(post(json!({ "table": 9, "code": bo, "report": id })), 404, "table 9"),
        case(post(json!({ "table": 1, "code": bo, "report": id + 100 })), 409, "not the report waiting"),
        case(post(json!({ "table": 1, "code": ana, "report": id })), 409, "your own"),
        case(
            Req::post("/api/self-report/confirm").form(&format!("table=1&code={ana}&report={id}&back=/me")).phone(16),
            409,
            "your own",
        ),
        case(post(json!({ "table": 3, "code": site.code("Ed"), "report": id })), 409, "already has a result"),
    ]);
}

#[test]
fn check_in_is_refused_while_it_is_off_or_over() {
    let site = Site::paired();
    let ana = site.code("Ana");
    let (kim, lee) = site.judges();
    let me = |body: Value| Req::post("/api/check-in").json(body).phone(17);
    let judge = || Req::post("/api/player/check-in").json(json!({ "name": "Ana" }));
    site.refusals_apart(vec![
        case(me(json!({ "name": "Ana", "code": ana })), 409, "check-in is off"),
        case(me(json!({ "name": "Ana" })), 400, "missing field"),
        // A name that finds nobody says nothing about it: check-in is off.
        case(me(json!({ "name": "Nobody", "code": ana })), 409, "check-in is off"),
        case(Req::post("/api/check-in").form(&format!("name=Ana&code={ana}&back=/me")).phone(17), 409, "off"),
        case(judge(), 401, "not logged in"),
        case(judge().by(&kim), 409, "check-in is off"),
    ]);
    site.ev.run(&["event", "set", "check-in", "on"]).ok();
    site.refusals_apart(vec![
        case(me(json!({ "name": "Ana", "code": ana })), 409, "check-in is over"),
        case(judge().by(&lee), 409, "check-in is over"),
        case(Req::post("/api/player/check-in").json(json!({})).by(&kim), 400, "missing field"),
    ]);
}

#[test]
fn wrong_check_in_codes_count_per_name_and_per_address() {
    let site = Site::paired();
    site.ev.run(&["round", "unpair"]).ok();
    site.ev.run(&["event", "set", "check-in", "on"]).ok();
    let (ana, bo) = (site.code("Ana"), site.code("Bo"));
    let wrong = |phone: u8| Req::post("/api/check-in").json(json!({ "name": "Ana", "code": bo })).phone(phone);
    // Five wrong codes for Ana from one phone hold that phone back for Ana's name...
    let mut cases: Vec<_> = (0..5).map(|_| case(wrong(30), 403, "do not go together")).collect();
    cases.push(case(Req::post("/api/check-in").json(json!({ "name": "Ana", "code": ana })).phone(30), 429, "wait"));
    site.refusals(cases);
    // ...but never Ana on a phone that sent no wrong code.
    let right = site.send(Req::post("/api/check-in").json(json!({ "name": "Ana", "code": ana })).phone(26));
    assert_eq!(right.status, 200, "{}", right.body);
}

#[test]
fn whose_code_reads_only_its_fields() {
    let site = Site::playing();
    let ana = site.code("Ana");
    let a = site.send(Req::post("/api/player/code").json(json!({ "table": 1, "code": ana, "player": "Bo" })));
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.body.contains("player") && a.body.contains("not one this request takes"), "{}", a.body);
    let ok = site.send(Req::post("/api/player/code").json(json!({ "table": 1, "code": ana })));
    assert_eq!(ok.status, 200, "{}", ok.body);
}
