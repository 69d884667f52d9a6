//! Every write can be repeated safely: each POST route (judges' and players', not the login's) takes a key
//! (the `Idempotency-Key` header, a form's `idempotency_key`, the table device's `client_id`); a repeat with
//! the same key answers the first answer again with `"repeat": true` and records nothing more; the same key
//! with other fields is 422; a key that is too long, or a header and a `client_id` that differ, 400.

use super::{Actor, Req, Site};
use serde_json::{Value, json};

/// Who sends a write of the table below.
#[derive(Clone, Copy)]
enum By {
    /// Kim, head judge, by bearer token.
    Kim,
    /// A player by code (the body names the code).
    Player,
}

/// Every write, in an order in which each is taken on the playing fixture: the route, who sends it, a body
/// it takes, and another body for the same route (a repeat's key sent with it is refused). A tap has no field
/// but its table and code, which name who sends it: its other body is the same tap with the moment made
/// (`at`), which a page's replay adds to its first try, so it is answered as a repeat.
fn writes(site: &Site) -> Vec<(&'static str, By, Value, Value)> {
    let (cy, di) = (site.code("Cy"), site.code("Di"));
    let tap = |code: &str| json!({ "table": 2, "code": code });
    let other_tap = |code: &str| json!({ "table": 2, "code": code, "at": "2020-01-01T00:00:00.000Z" });
    vec![
        (
            "/api/note",
            By::Kim,
            json!({ "table": 1, "player": "ana", "cost": "B1", "card": "Demonic Tutor" }),
            json!({ "table": 1, "player": "bo", "cost": "B1", "card": "Demonic Tutor" }),
        ),
        (
            "/api/penalty",
            By::Kim,
            json!({ "player": "bo", "infraction": "slow play" }),
            json!({ "player": "ana", "infraction": "slow play" }),
        ),
        (
            "/api/ruling",
            By::Kim,
            json!({ "table": 1, "text": "Bo keeps the card" }),
            json!({ "table": 1, "text": "Bo does not" }),
        ),
        (
            "/api/extend",
            By::Kim,
            json!({ "table": 1, "minutes": 2, "reason": "deck check" }),
            json!({ "table": 1, "minutes": 3, "reason": "deck check" }),
        ),
        ("/api/clock/start", By::Kim, json!({ "table": 1, "player": "ana" }), json!({ "table": 1, "player": "bo" })),
        ("/api/clock/stop", By::Kim, json!({ "table": 1 }), json!({ "table": 2 })),
        ("/api/void", By::Kim, json!({ "kind": "ruling", "id": 2 }), json!({ "kind": "ruling", "id": 3 })),
        (
            "/api/event/set",
            By::Kim,
            json!({ "key": "round-minutes", "value": 45, "force": true }),
            json!({ "key": "round-minutes", "value": 46, "force": true }),
        ),
        (
            "/api/result",
            By::Kim,
            json!({ "table": 1, "winner": "Ana", "by": "life" }),
            json!({ "table": 1, "winner": "Bo", "by": "life" }),
        ),
        (
            "/api/result/fix",
            By::Kim,
            json!({ "table": 1, "winner": "Bo", "by": "life" }),
            json!({ "table": 1, "winner": "Ana", "by": "life" }),
        ),
        ("/api/result/clear", By::Kim, json!({ "table": 1 }), json!({ "table": 3 })),
        (
            "/api/challenge",
            By::Kim,
            json!({ "table": 1, "by": "bo", "about": "B1", "ruling": "denied" }),
            json!({ "table": 1, "by": "bo", "about": "B1", "ruling": "upheld" }),
        ),
        (
            "/api/note",
            By::Player,
            json!({ "table": 2, "code": di, "cost": "R", "card": "Shock" }),
            json!({ "table": 2, "code": di, "cost": "B1", "card": "Diabolic Edict" }),
        ),
        ("/api/note/undo", By::Player, tap(&di), other_tap(&di)),
        ("/api/clock/start", By::Player, tap(&cy), other_tap(&cy)),
        ("/api/clock/hand-over", By::Player, tap(&cy), other_tap(&cy)),
        ("/api/clock/pass", By::Player, tap(&di), other_tap(&di)),
        ("/api/clock/stop", By::Player, tap(&cy), other_tap(&cy)),
        ("/api/call", By::Player, tap(&cy), other_tap(&cy)),
        ("/api/call/close", By::Kim, json!({ "table": 2 }), json!({ "table": 1 })),
        (
            "/api/self-report",
            By::Player,
            json!({ "table": 2, "code": cy, "winner": "Cy", "by": "life" }),
            json!({ "table": 2, "code": cy, "winner": "Di", "by": "life" }),
        ),
        ("/api/round/end", By::Kim, json!({ "force": true }), json!({})),
        ("/api/round/pair", By::Kim, json!({}), json!({ "allow": true })),
        ("/api/round/start", By::Kim, json!({}), json!({ "force": true })),
    ]
}

#[test]
fn every_write_sent_again_with_its_key_is_answered_again_and_recorded_once() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let send = |path: &str, by: By, body: &Value, key: &str| {
        let req = Req::post(path).json(body.clone()).header("Idempotency-Key", key);
        site.send(match by {
            By::Kim => req.by(&kim),
            By::Player => req,
        })
    };
    let mut failed = Vec::new();
    for (i, (path, by, body, other)) in writes(&site).into_iter().enumerate() {
        let key = format!("k-{i}-{path}");
        if path == "/api/round/end" {
            site.ev.run(&["result", "2", "cy", "--by", "concession"]).ok();
        }
        if path == "/api/round/pair" {
            site.ev.fake_libraries(3);
        }
        let first = send(path, by, &body, &key);
        if first.status != 200 {
            failed.push(format!("{path}: the first answered {} {}", first.status, first.body));
            continue;
        }
        let after = site.ev.dump();
        let again = send(path, by, &body, &key);
        let doc = again.json();
        let mut expected = first.json();
        expected["repeat"] = json!(true);
        if again.status != 200 || doc["repeat"] != json!(true) || doc["summary"] != expected["summary"] {
            failed.push(format!("{path}: the repeat answered {} {}", again.status, again.body));
        }
        if doc != expected {
            failed.push(format!("{path}: the repeat's answer {doc} is not the first's {expected}"));
        }
        let changed = send(path, by, &other, &key);
        if other.get("at").is_some() {
            if changed.status != 200 || changed.json() != expected {
                failed.push(format!("{path}: the replay with its moment answered {} {}", changed.status, changed.body));
            }
        } else if changed.status != 422 || !changed.body.contains(&key) {
            failed.push(format!("{path}: another body with the same key answered {} {}", changed.status, changed.body));
        }
        let long = send(path, by, &body, &"k".repeat(81));
        if long.status != 400 || !long.body.contains("80") {
            failed.push(format!("{path}: a key of 81 characters answered {} {}", long.status, long.body));
        }
        if site.ev.dump() != after {
            failed.push(format!("{path}: a repeat, another body or a long key changed the event"));
        }
    }
    assert!(failed.is_empty(), "{} failed:\n{}", failed.len(), failed.join("\n"));
}

#[test]
fn a_key_is_scoped_by_who_sends_it_and_the_route_and_an_undo_does_not_free_it() {
    let site = Site::playing();
    let (kim, lee) = site.judges();
    let ruling = json!({ "table": 1, "text": "Bo keeps the card" });
    let send = |who: &Actor, path: &str, body: &Value| {
        site.send(Req::post(path).json(body.clone()).header("Idempotency-Key", "same").by(who))
    };
    assert_eq!(send(&kim, "/api/ruling", &ruling).json()["repeat"], Value::Null);
    let lee_too = send(&lee, "/api/ruling", &ruling);
    assert_eq!((lee_too.status, lee_too.json()["repeat"].clone()), (200, Value::Null), "{}", lee_too.body);
    let other_route = send(&kim, "/api/extend", &json!({ "table": 1, "minutes": 2, "reason": "deck check" }));
    assert_eq!(other_route.status, 200, "{}", other_route.body);
    assert_eq!(other_route.json()["repeat"], Value::Null);
    let rulings = site.ev.run(&["--json", "rulings"]).json();
    let count = |doc: &Value| {
        doc["rulings"].as_array().map_or(0, |r| r.iter().filter(|r| r["text"] == "Bo keeps the card").count())
    };
    assert_eq!(count(&rulings), 2, "{rulings}");

    // A declaration taken back: the same key is still the first declaration's, answered again.
    let di = site.code("Di");
    let note = json!({ "table": 2, "code": di, "cost": "R", "card": "Shock", "client_id": "d-1" });
    let first = site.send(Req::post("/api/note").json(note.clone()));
    assert_eq!(first.status, 200, "{}", first.body);
    let undo = site.send(Req::post("/api/note/undo").json(json!({ "table": 2, "code": di })));
    assert_eq!(undo.status, 200, "{}", undo.body);
    let before = site.ev.dump();
    let again = site.send(Req::post("/api/note").json(note.clone()).header("Idempotency-Key", "d-1"));
    assert_eq!((again.status, again.json()["repeat"].clone()), (200, json!(true)), "{}", again.body);
    assert_eq!(site.ev.dump(), before, "an undone declaration sent again is not recorded again");

    // The device's client_id is the key; with a header that differs: 400 naming both.
    let both = site.send(Req::post("/api/note").json(note).header("Idempotency-Key", "d-2"));
    assert_eq!(both.status, 400, "{}", both.body);
    assert!(both.body.contains("client_id") && both.body.contains("Idempotency-Key"), "{}", both.body);
    assert_eq!(site.ev.dump(), before);
}

#[test]
fn a_form_sent_again_with_its_key_goes_back_to_its_page_and_is_recorded_once() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let form = "table=1&text=Bo+keeps+the+card&back=%2Fjudge%2Ftable%2F1&idempotency_key=form-1";
    let send = |f: &str| site.send(Req::post("/api/ruling").form(f).by(&kim));
    let first = send(form);
    assert_eq!(first.status, 303, "{}", first.body);
    assert!(first.header("location").is_some_and(|l| l.starts_with("/judge/table/1?done=")), "{:?}", first.headers);
    let after = site.ev.dump();
    let again = send(form);
    assert_eq!(again.status, 303, "{}", again.body);
    assert!(again.header("location").is_some_and(|l| l.starts_with("/judge/table/1")), "{:?}", again.headers);
    assert_eq!(site.ev.dump(), after, "a form sent again is recorded once");
    let other = send("table=1&text=Other&back=%2Fjudge%2Ftable%2F1&idempotency_key=form-1");
    assert_eq!(other.status, 422, "{}", other.body);
    assert!(other.body.contains("form-1"), "{}", other.body);
    assert_eq!(site.ev.dump(), after);
}

/// A malformed key that reaches the server answers 400 with a JSON error naming the key and what it takes, and
/// writes nothing: a header of non-ASCII text, a `client_id` or form key with a control character or empty.
/// (A header value with a control character or DEL breaks HTTP's own grammar: the HTTP layer refuses it before
/// mmjudge reads it, as docs/http.md says; browsers never send one.)
#[test]
fn a_malformed_key_is_refused_in_json_naming_the_key() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let before = site.ev.dump();
    let ruling = json!({ "table": 1, "text": "Bo keeps the card" });
    let header = site.send(Req::post("/api/ruling").json(ruling.clone()).header("Idempotency-Key", "clé").by(&kim));
    let di = site.code("Di");
    let control = site.send(
        Req::post("/api/note")
            .json(json!({ "table": 2, "code": di, "cost": "R", "card": "Shock", "client_id": "d\u{1}1" })),
    );
    let empty = site.send(
        Req::post("/api/note").json(json!({ "table": 2, "code": di, "cost": "R", "card": "Shock", "client_id": "" })),
    );
    for (what, answer, names) in [
        ("a non-ASCII header", &header, "Idempotency-Key"),
        ("a control character", &control, "client_id"),
        ("an empty key", &empty, "client_id"),
    ] {
        assert_eq!(answer.status, 400, "{what}: {}", answer.body);
        let error = answer.json()["error"].as_str().map(str::to_string).unwrap_or_default();
        assert!(error.contains(names) && error.contains("80"), "{what}: {}", answer.body);
    }
    assert_eq!(site.ev.dump(), before, "a malformed key wrote nothing");
}

#[test]
fn a_keyed_write_its_key_and_its_kept_answer_are_one_change_for_the_standby() {
    let site = Site::playing();
    site.ev.run(&["--json", "standby", "key"]);
    let (kim, _) = site.judges();
    let seq = || {
        let store = mmjudge::store::Store::open(&site.ev.db()).expect("the event");
        store.read(mmjudge::store::replication::state).expect("the state").seq
    };
    let logged = || {
        let conn = rusqlite::Connection::open(site.ev.db()).expect("the event");
        conn.query_row("SELECT count(*) FROM replication_log", [], |r| r.get::<_, i64>(0)).expect("the log")
    };
    // The players' phone is known for their codes already (a phone's first right code is recorded apart).
    const DEVICE: &str = "mmjudge_device=0123456789abcdef0123456789abcdef";
    for name in ["Cy", "Di"] {
        let code = json!({ "table": 2, "code": site.code(name) });
        let known = site.send(Req::post("/api/player/code").json(code).header("Cookie", DEVICE));
        assert_eq!(known.status, 200, "{}", known.body);
    }
    let mut failed = Vec::new();
    for (i, (path, by, body, _)) in writes(&site).into_iter().enumerate() {
        if path == "/api/round/end" {
            site.ev.run(&["result", "2", "cy", "--by", "concession"]).ok();
        }
        if path == "/api/round/pair" {
            site.ev.fake_libraries(3);
        }
        let (before, log_before) = (seq(), logged());
        let req = Req::post(path).json(body.clone()).header("Idempotency-Key", &format!("one-{i}"));
        let res = site.send(match by {
            By::Kim => req.by(&kim),
            By::Player => req.header("Cookie", DEVICE),
        });
        if res.status != 200 {
            failed.push(format!("{path}: answered {} {}", res.status, res.body));
            continue;
        }
        let (after, log_after) = (seq(), logged());
        if after != before + 1 || log_after != log_before + 1 {
            failed.push(format!(
                "{path}: {} changes and {} log entries, not one",
                after - before,
                log_after - log_before
            ));
        }
    }
    assert!(failed.is_empty(), "{} failed:\n{}", failed.len(), failed.join("\n"));
}
