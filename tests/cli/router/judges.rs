//! The judges' writes: without a login (401), a floor judge on a head judge's route or a cookie without its
//! CSRF token (403), a body that is not the one expected (400), a table, player or record that is not there
//! (404), and what the rules refuse (409).

use super::{Actor, Case, Req, Site, case};
use serde_json::{Value, json};

/// Every judge's write with a body it would take.
pub(super) fn writes() -> Vec<(&'static str, Value)> {
    vec![
        ("/api/round/pair", json!({})),
        ("/api/round/start", json!({})),
        ("/api/round/end", json!({})),
        ("/api/result", json!({ "table": 1, "winner": "Ana", "by": "life" })),
        ("/api/result/fix", json!({ "table": 3, "winner": "Fy", "by": "life" })),
        ("/api/result/clear", json!({ "table": 3 })),
        ("/api/note", json!({ "table": 1, "player": "ana", "cost": "B1", "card": "Demonic Tutor" })),
        ("/api/challenge", json!({ "table": 1, "by": "bo", "about": "B1", "ruling": "denied" })),
        ("/api/challenge/evidence", json!({ "challenge": 1, "evidence": [1] })),
        ("/api/penalty", json!({ "player": "bo", "infraction": "slow play" })),
        ("/api/ruling", json!({ "table": 1, "text": "Bo keeps the card" })),
        ("/api/extend", json!({ "table": 1, "minutes": 2, "reason": "deck check" })),
        ("/api/clock/start", json!({ "table": 1, "player": "ana" })),
        ("/api/clock/stop", json!({ "table": 1 })),
        ("/api/void", json!({ "kind": "ruling", "id": 2 })),
        ("/api/event/set", json!({ "key": "round-minutes", "value": 45 })),
        ("/api/call/close", json!({ "table": 1 })),
        ("/api/player/check-in", json!({ "name": "Ana" })),
        ("/api/player/add", json!({ "names": ["Zed"] })),
        ("/api/player/drop", json!({ "name": "Ana" })),
        ("/api/player/undrop", json!({ "name": "Ana" })),
        ("/api/player/rename", json!({ "name": "Ana", "to": "Anna" })),
        ("/api/player/remove", json!({ "name": "Ana" })),
        ("/api/player/code/new", json!({ "name": "Ana", "new": true })),
        ("/api/player/seat", json!({ "name": "Ana", "table": 1 })),
        ("/api/round/swap", json!({ "first": "Ana", "second": "Cy" })),
        ("/api/round/unpair", json!({})),
        ("/api/round/reopen", json!({})),
        ("/api/library/add-tables", json!({ "tables": 1, "seed": 7 })),
        ("/api/judge/add", json!({ "name": "Max", "role": "floor" })),
        ("/api/judge/pin", json!({ "name": "Lee" })),
        ("/api/judge/remove", json!({ "name": "Lee" })),
        ("/api/logout", json!({})),
    ]
}

/// The writes for head judges only, with the words of their refusal to a floor judge.
const HEAD_ONLY: [&str; 21] = [
    "/api/player/add",
    "/api/player/seat",
    "/api/player/drop",
    "/api/player/undrop",
    "/api/player/rename",
    "/api/player/remove",
    "/api/player/code/new",
    "/api/round/swap",
    "/api/round/unpair",
    "/api/round/reopen",
    "/api/library/add-tables",
    "/api/judge/add",
    "/api/judge/pin",
    "/api/judge/remove",
    "/api/round/pair",
    "/api/round/start",
    "/api/round/end",
    "/api/result/fix",
    "/api/result/clear",
    "/api/void",
    "/api/event/set",
];

#[test]
fn judges_writes_need_a_login_that_has_not_ended() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    site.ev.sql("UPDATE judge_session SET expires = '2020-01-01T00:00:00.000Z';");
    let mut cases: Vec<Case> = Vec::new();
    for (path, body) in writes() {
        cases.push(case(Req::post(path).json(body.clone()), 401, "not logged in"));
        cases.push(case(Req::post(path).json(body.clone()).by(&kim), 401, "ended after 12 hours"));
        cases.push(case(Req::post(path).json(body).by(&Actor::Bearer("f".repeat(64))), 401, "log in again"));
    }
    // A page's form without a login: the refusal is a page.
    cases.push(case(Req::post("/logout").form("csrf=x"), 401, "not logged in"));
    cases.push(case(Req::post("/api/result").form("table=1&winner=Ana&by=life"), 401, "not logged in"));
    site.refusals(cases);
}

#[test]
fn floor_judges_are_refused_head_judges_writes_and_cookies_need_their_csrf_token() {
    let site = Site::playing();
    let (_, lee) = site.judges();
    let Actor::Bearer(token) = &lee else { unreachable!() };
    let cookie = Actor::Cookie(token.clone());
    let mut cases: Vec<Case> = Vec::new();
    for (path, body) in writes() {
        if HEAD_ONLY.contains(&path) {
            cases.push(case(Req::post(path).json(body.clone()).by(&lee), 403, "head judges"));
        }
        if path != "/api/logout" {
            cases.push(case(Req::post(path).json(body).by(&cookie), 403, "CSRF"));
        }
    }
    let deviation = json!({ "player": "cy", "infraction": "slow play", "penalty": "disqualification" });
    cases.push(case(Req::post("/api/penalty").json(deviation).by(&lee), 403, "penalty other than the guide's"));
    // From a page's form: the refusal is a page.
    cases.push(case(Req::post("/logout").form("csrf=wrong").by(&cookie), 403, "reload the page"));
    cases.push(case(Req::post("/api/void").form("kind=ruling&id=2&csrf=wrong").by(&cookie), 403, "CSRF token"));
    site.refusals(cases);
}

#[test]
fn judges_writes_refuse_a_body_that_is_not_the_one_expected() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let mut cases: Vec<Case> = Vec::new();
    for (path, _) in writes() {
        if path == "/api/logout" {
            continue; // no body read
        }
        cases.push(case(Req::post(path).raw("application/json", "{").by(&kim), 400, "not the JSON expected"));
    }
    let post = |path: &str, body: Value| Req::post(path).json(body).by(&kim);
    cases.extend([
        case(post("/api/result", json!({ "winner": "Ana", "by": "life" })), 400, "missing field"),
        case(post("/api/result", json!({ "table": 1, "winner": "Ana", "by": "sorcery" })), 400, "sorcery"),
        case(post("/api/result", json!({ "table": 1, "winner": "Ana", "by": "life", "life": [7] })), 400, "JSON"),
        case(post("/api/result", json!({ "table": 1, "winner": "Ana", "by": "time", "turn": "x" })), 400, "turn"),
        case(post("/api/result/fix", json!({ "table": "one", "by": "life" })), 400, "JSON"),
        case(post("/api/result/clear", json!({ "table": -1 })), 400, "JSON"),
        case(post("/api/note", json!({ "table": 1, "player": "ana", "cost": "B1" })), 400, "which card"),
        case(post("/api/note", json!({ "table": 1, "player": "ana", "cost": "Q7", "card": "x" })), 400, "Q7"),
        case(
            post("/api/challenge", json!({ "table": 1, "by": "bo", "about": "B1", "ruling": "maybe" })),
            400,
            "upheld",
        ),
        case(
            post(
                "/api/challenge",
                json!({ "table": 1, "by": "bo", "about": "B1", "ruling": "denied", "evidence": "x" }),
            ),
            400,
            "note ids",
        ),
        case(post("/api/challenge/evidence", json!({ "challenge": 1, "evidence": "#x" })), 400, "note ids"),
        case(post("/api/penalty", json!({ "player": "bo", "infraction": "nonsense" })), 400, "nonsense"),
        case(
            post("/api/penalty", json!({ "player": "bo", "infraction": "slow play", "penalty": "exile" })),
            400,
            "exile",
        ),
        case(post("/api/ruling", json!({ "table": 1 })), 400, "missing field"),
        case(post("/api/extend", json!({ "table": 1, "minutes": "soon", "reason": "x" })), 400, "soon"),
        case(post("/api/clock/start", json!({ "table": 1 })), 400, "missing field"),
        case(post("/api/void", json!({ "kind": "bogus", "id": 2 })), 400, "not a kind of record"),
        case(post("/api/void", json!({ "kind": "ruling", "id": 2, "reason": "a\u{7}b" })), 400, "reason"),
        case(post("/api/event/set", json!({ "key": "round-minutes", "value": "abc" })), 400, "abc"),
        case(post("/api/round/pair", json!({ "allow": "yes" })), 400, "JSON"),
        case(post("/api/call/close", json!({})), 400, "missing field"),
        // JSON sent as a form, and a form's field that is not a number.
        case(Req::post("/api/ruling").form("{\"table\": 1}").by(&kim), 400, "sent as a form"),
        case(Req::post("/api/ruling").form("table=x&text=y").by(&kim), 400, "fields are not the ones expected"),
    ]);
    site.refusals(cases);
}

#[test]
fn judges_writes_refuse_a_table_player_or_record_that_is_not_there() {
    let site = Site::playing();
    let (kim, lee) = site.judges();
    let post = |path: &str, body: Value| Req::post(path).json(body).by(&kim);
    let floor = |path: &str, body: Value| Req::post(path).json(body).by(&lee);
    site.refusals(vec![
        case(floor("/api/result", json!({ "table": 9, "winner": "Ana", "by": "life" })), 404, "table 9"),
        case(floor("/api/result", json!({ "table": 1, "winner": "Zed", "by": "life" })), 404, "Zed"),
        case(post("/api/result/fix", json!({ "table": 9, "winner": "Ana", "by": "life" })), 404, "table 9"),
        case(post("/api/result/clear", json!({ "table": 9 })), 404, "table 9"),
        case(post("/api/result/clear", json!({ "table": 1, "round": 7 })), 404, "round 7"),
        case(
            floor("/api/note", json!({ "table": 9, "player": "ana", "cost": "B1", "card": "Demonic Tutor" })),
            404,
            "table 9",
        ),
        case(
            floor("/api/note", json!({ "table": 1, "player": "zed", "cost": "B1", "card": "Demonic Tutor" })),
            404,
            "zed",
        ),
        case(
            floor("/api/note", json!({ "table": 1, "player": "ana", "cost": "B1", "card": "Not A Card" })),
            404,
            "Not A Card",
        ),
        case(
            floor("/api/challenge", json!({ "table": 9, "by": "bo", "about": "B1", "ruling": "denied" })),
            404,
            "table 9",
        ),
        case(floor("/api/challenge/evidence", json!({ "challenge": 99, "evidence": [1] })), 404, "99"),
        case(
            floor("/api/challenge/evidence", json!({ "challenge": 1, "evidence": [1] })),
            404,
            "not a note of table 1",
        ),
        case(floor("/api/penalty", json!({ "player": "zed", "infraction": "slow play" })), 404, "zed"),
        case(floor("/api/ruling", json!({ "table": 9, "text": "x" })), 404, "table 9"),
        case(floor("/api/extend", json!({ "table": 9, "minutes": 2, "reason": "x" })), 404, "table 9"),
        case(floor("/api/clock/start", json!({ "table": 9, "player": "ana" })), 404, "table 9"),
        case(floor("/api/clock/start", json!({ "table": 1, "player": "zed" })), 404, "zed"),
        case(floor("/api/clock/stop", json!({ "table": 9 })), 404, "table 9"),
        case(post("/api/void", json!({ "kind": "ruling", "id": 99 })), 404, "99"),
        case(post("/api/void", json!({ "kind": "penalty", "id": 1 })), 404, "penalty"),
        case(post("/api/event/set", json!({ "key": "nonsense", "value": 1 })), 404, "nonsense"),
        case(floor("/api/result", json!({ "table": 1, "round": 7, "winner": "Ana", "by": "life" })), 404, "round 7"),
        case(floor("/api/call/close", json!({ "table": 9 })), 404, "table 9"),
    ]);
}

#[test]
fn judges_writes_refuse_what_the_rules_do_not_allow() {
    let site = Site::playing();
    let (kim, lee) = site.judges();
    let post = |path: &str, body: Value| Req::post(path).json(body).by(&kim);
    let floor = |path: &str, body: Value| Req::post(path).json(body).by(&lee);
    site.refusals(vec![
        case(floor("/api/result", json!({ "table": 3, "winner": "Fy", "by": "life" })), 409, "already"),
        case(floor("/api/result", json!({ "table": 1, "winner": "Ana", "by": "time", "turn": 3 })), 409, "time"),
        case(post("/api/result/fix", json!({ "table": 1, "winner": "Ana", "by": "life" })), 409, "no result"),
        case(post("/api/result/clear", json!({ "table": 1 })), 409, "no result"),
        case(post("/api/round/pair", json!({})), 409, "round 1"),
        case(post("/api/round/start", json!({})), 409, "already"),
        case(post("/api/round/end", json!({})), 409, "without a result"),
        case(post("/api/void", json!({ "kind": "ruling", "id": 1 })), 409, "already voided"),
        case(floor("/api/clock/stop", json!({ "table": 1 })), 409, "no decision"),
        case(floor("/api/call/close", json!({ "table": 1 })), 409, "no judge call is open"),
        case(floor("/api/extend", json!({ "table": 3, "minutes": 2, "reason": "x" })), 409, "result"),
        case(
            post("/api/event/set", json!({ "key": "round-minutes", "value": 45 })),
            409,
            "“Change it although round 1 is being played”",
        ),
    ]);
    // Forced, the answer says what changed in the page's words: the setting's plain name, no flag.
    let forced = site.send(post("/api/event/set", json!({ "key": "round-minutes", "value": 45, "force": true })));
    let summary = forced.json()["summary"].as_str().unwrap_or_default().to_string();
    assert!(summary.starts_with("Round length: 50 minutes → 45 minutes; round 1 is being played"), "{summary}");
    assert!(!summary.contains("--"), "{summary}");
}

#[test]
fn before_the_rounds_clock_starts_the_rules_refuse_what_needs_it() {
    let site = Site::paired();
    let (kim, lee) = site.judges();
    let post = |path: &str, body: Value| Req::post(path).json(body).by(&kim);
    let floor = |path: &str, body: Value| Req::post(path).json(body).by(&lee);
    site.refusals(vec![
        case(
            floor("/api/note", json!({ "table": 1, "player": "ana", "cost": "B1", "card": "Demonic Tutor" })),
            409,
            "clock",
        ),
        case(floor("/api/result", json!({ "table": 1, "winner": "Ana", "by": "time", "turn": 3 })), 409, "time"),
        case(post("/api/round/end", json!({ "force": true })), 409, "not started"),
        case(post("/api/round/pair", json!({})), 409, "round 1"),
        case(floor("/api/clock/start", json!({ "table": 1, "player": "ana" })), 409, "start"),
    ]);
}

#[test]
fn a_judge_checks_a_player_in_from_the_dashboard() {
    let site = Site::paired();
    site.ev.run(&["round", "unpair"]).ok();
    site.ev.run(&["event", "set", "check-in", "on"]).ok();
    let (_, lee) = site.judges();
    let board = site.send(Req::get("/api/judge").by(&lee)).json();
    assert_eq!(board["dashboard"]["not_checked_in"][0], "Ana", "{board}");
    let a = site.send(Req::post("/api/player/check-in").json(serde_json::json!({ "name": "ana" })).by(&lee));
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.json()["summary"].as_str().is_some_and(|s| s.starts_with("checked Ana in; 5 players")), "{}", a.body);
    site.refusals(vec![case(
        Req::post("/api/player/check-in").json(serde_json::json!({ "name": "Ana" })).by(&lee),
        409,
        "already checked in",
    )]);
}
