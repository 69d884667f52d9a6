//! Logins and the limits: a wrong PIN (401), a login form from elsewhere (403), a body over the limit (413),
//! too many wrong PINs or player codes (429).

use super::{Actor, Req, Site, case};
use serde_json::{Value, json};

/// The login form's pre-session token, as its cookie and its field repeat it.
const LOGIN_TOKEN: &str = "0123456789abcdef0123456789abcdef";

fn login_form(phone: u8, body: &str) -> Req {
    Req::post("/login").form(body).header("Cookie", &format!("mmjudge_login={LOGIN_TOKEN}")).phone(phone)
}

#[test]
fn a_login_is_refused_a_wrong_pin_a_bad_body_and_a_form_from_elsewhere() {
    let site = Site::playing();
    let post = |body: Value| Req::post("/api/login").json(body).phone(20);
    site.refusals_apart(vec![
        case(post(json!({ "name": "Kim", "pin": "000000x" })), 401, "wrong judge name or PIN"),
        case(post(json!({ "name": "Nobody", "pin": site.people.kim })), 401, "wrong judge name or PIN"),
        case(post(json!({ "name": "Kim" })), 400, "not the JSON expected"),
        case(Req::post("/api/login").raw("application/json", "{").phone(20), 400, "not the JSON expected"),
        case(Req::post("/api/login").raw("text/plain", "{}").phone(20), 400, "Content-Type"),
        case(Req::post("/login").form(&format!("name=Kim&pin={}", site.people.kim)).phone(20), 403, "CSRF"),
        case(
            Req::post("/login").form(&format!("name=Kim&pin={}&csrf={LOGIN_TOKEN}", site.people.kim)).phone(20),
            403,
            "came from elsewhere",
        ),
        case(login_form(20, &format!("name=Kim&pin=000000x&csrf={LOGIN_TOKEN}")), 401, "wrong judge name or PIN"),
        case(login_form(20, &format!("name=Kim&csrf={LOGIN_TOKEN}")), 400, "pin"),
    ]);
    // The right PIN through the form: to the dashboard with a session cookie.
    let ok = site.send(login_form(20, &format!("name=Kim&pin={}&csrf={LOGIN_TOKEN}", site.people.kim)));
    assert_eq!((ok.status, ok.header("location")), (303, Some("/judge")), "{}", ok.body);
}

#[test]
fn a_body_over_the_limit_is_refused_413_on_every_write() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let Actor::Bearer(token) = &kim else { unreachable!() };
    let cookie = Actor::Cookie(token.clone());
    let ana = site.code("Ana");
    let pad = "x".repeat(20 * 1024);
    let big = |mut body: Value| {
        body["pad"] = Value::String(pad.clone());
        body
    };
    let mut cases = Vec::new();
    for (path, body) in super::judges::writes() {
        if path == "/api/logout" {
            continue; // reads no body
        }
        cases.push(case(Req::post(path).json(big(body)).by(&kim), 413, "too large"));
    }
    for path in
        ["/api/note", "/api/note/undo", "/api/clock/start", "/api/clock/hand-over", "/api/player/code", "/api/call"]
    {
        cases.push(case(Req::post(path).json(big(json!({ "table": 1, "code": ana }))).phone(30), 413, "too large"));
    }
    let report = json!({ "table": 1, "code": ana, "winner": "Ana", "by": "life" });
    cases.push(case(Req::post("/api/self-report").json(big(report)).phone(30), 413, "too large"));
    cases.push(case(
        Req::post("/api/login").json(big(json!({ "name": "Kim", "pin": "1" }))).phone(30),
        413,
        "too large",
    ));
    cases.push(case(login_form(30, &format!("name=Kim&pin=1&csrf={LOGIN_TOKEN}&pad={pad}")), 413, "too large"));
    cases.push(case(Req::post("/logout").form(&format!("csrf=x&pad={pad}")).by(&cookie), 413, "too large"));
    cases.push(case(Req::post("/api/ruling").form(&format!("table=1&text={pad}")).by(&cookie), 413, "too large"));
    site.refusals(cases);
}

#[test]
fn too_many_wrong_pins_hold_the_phone_back_never_another() {
    let site = Site::playing();
    let kim = site.people.kim.clone();
    for _ in 0..5 {
        let a = site.send(Req::post("/api/login").json(json!({ "name": "Kim", "pin": "000000x" })).phone(21));
        assert_eq!(a.status, 401, "{}", a.body);
    }
    site.refusals(vec![
        case(Req::post("/api/login").json(json!({ "name": "Kim", "pin": kim })).phone(21), 429, "too many wrong PINs"),
        case(login_form(21, &format!("name=Kim&pin={kim}&csrf={LOGIN_TOKEN}")), 429, "too many wrong PINs"),
        // Another name from the same phone is only checked (issue 27: counts are per address and name).
        case(Req::post("/api/login").json(json!({ "name": "Lee", "pin": "1" })).phone(21), 401, "wrong judge name"),
    ]);
    // Another phone, which sent no wrong PIN, is never held back by the limiter.
    let judge = site.send(login_form(22, &format!("name=Kim&pin={kim}&csrf={LOGIN_TOKEN}")));
    assert_eq!(judge.status, 303, "{}", judge.body);
    let other = site.send(Req::post("/api/login").json(json!({ "name": "Lee", "pin": site.people.lee })).phone(22));
    assert_eq!(other.status, 200, "{}", other.body);
}

#[test]
fn too_many_wrong_codes_at_a_table_hold_that_phone_back_never_another() {
    let site = Site::playing();
    let (ana, bo) = (site.code("Ana"), site.code("Bo"));
    for wrong in ["000000", "111111", "222222", "333333", "444444"] {
        let a = site.send(Req::post("/api/player/code").json(json!({ "table": 1, "code": wrong })).phone(23));
        assert_eq!(a.status, 403, "{}", a.body);
    }
    let post = |path: &str, body: Value, phone: u8| Req::post(path).json(body).phone(phone);
    site.refusals(vec![
        case(post("/api/player/code", json!({ "table": 1, "code": ana }), 23), 429, "too many wrong player codes"),
        case(
            post("/api/note", json!({ "table": 1, "code": ana, "cost": "B1", "card": "Demonic Tutor" }), 23),
            429,
            "wait",
        ),
        case(post("/api/note/undo", json!({ "table": 1, "code": ana }), 23), 429, "wait"),
        case(post("/api/clock/start", json!({ "table": 1, "code": ana }), 23), 429, "wait"),
        case(post("/api/clock/hand-over", json!({ "table": 1, "code": bo }), 23), 429, "wait"),
        case(
            post("/api/self-report", json!({ "table": 1, "code": bo, "winner": "Bo", "by": "life" }), 23),
            429,
            "wait",
        ),
        case(post("/api/call", json!({ "table": 1, "code": bo }), 23), 429, "wait"),
        case(Req::post("/api/call").form(&format!("table=1&code={bo}&back=/me")).phone(23), 429, "wait"),
    ]);
    // Another phone at the same table, which sent no wrong code: its right code always works (issue 27).
    let other = site.send(Req::post("/api/player/code").json(json!({ "table": 1, "code": bo })).phone(24));
    assert_eq!(other.status, 200, "{}", other.body);
    // A judge's PIN is counted apart.
    let (kim, _) = site.judges();
    let a = site.send(Req::get("/api/judge").by(&kim));
    assert_eq!(a.status, 200, "{}", a.body);
}

#[test]
fn a_login_for_a_name_that_is_no_judge_takes_no_turn_at_hashing() {
    let site = Site::playing();
    let app = site.app();
    // Every turn at hashing taken (a storm of logins under way): a name that is no judge's is still answered at
    // once as a wrong login, while a judge's name waits its turn and is answered 503 after two seconds.
    let held = app.hashing.try_acquire_many(mmjudge::web::kit::state::HASHING as u32).expect("every turn");
    let login = |name: &str| Req::post("/api/login").json(json!({ "name": name, "pin": "123456" })).phone(21);
    let unknown = site.send(login("Nobody At All"));
    assert_eq!(unknown.status, 401, "{}", unknown.body);
    assert!(unknown.body.contains("wrong judge name or PIN"), "{}", unknown.body);
    let known = site.send(login("Kim"));
    assert_eq!(known.status, 503, "{}", known.body);
    drop(held);
    let right = site.send(Req::post("/api/login").json(json!({ "name": "Kim", "pin": site.people.kim })).phone(22));
    assert_eq!(right.status, 200, "{}", right.body);
}
