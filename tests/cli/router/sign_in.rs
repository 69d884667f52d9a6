//! The table's device signs each player in once (`POST /api/player/code` answers a sign-in for the match, which
//! the device's writes send instead of the code), and a judge renewing a code in one tap ends it: the attack is a
//! device, or an opponent who saw the code typed, acting with the old code or the old sign-in after the renewal.

use super::{Req, Site};
use serde_json::{Value, json};

fn sign_in(site: &Site, table: u32, code: &str) -> String {
    let a = site.send(Req::post("/api/player/code").json(json!({ "table": table, "code": code })).phone(40));
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()["signin"].as_str().expect("a sign-in").to_string()
}

fn post(site: &Site, path: &str, body: Value) -> super::Reply {
    site.send(Req::post(path).json(body).phone(40))
}

#[test]
fn a_player_signed_in_once_acts_without_the_code_and_only_at_their_own_seat() {
    let site = Site::playing();
    let ana = site.code("Ana");
    let before = site.ev.dump();
    let signin = sign_in(&site, 1, &ana);
    assert_eq!(site.ev.dump(), before, "a sign-in writes nothing: a standby answers it too");
    assert!(!signin.split('.').any(|part| part == ana), "the sign-in does not hold the code: {signin}");

    let who = post(&site, "/api/player/code", json!({ "table": 1, "signin": signin }));
    assert_eq!((who.status, who.json()["player"].as_str()), (200, Some("Ana")), "{}", who.body);
    let note = post(&site, "/api/note", json!({ "table": 1, "signin": signin, "cost": "B1", "card": "Demonic Tutor" }));
    assert_eq!(note.status, 200, "{}", note.body);
    assert_eq!(note.json()["player"], "Ana", "{}", note.body);
    let start = post(&site, "/api/clock/start", json!({ "table": 1, "signin": signin }));
    assert_eq!(start.status, 200, "{}", start.body);
    assert!(start.json()["summary"].as_str().unwrap_or_default().contains("Ana"), "{}", start.body);
    let audit = site.ev.run(&["--json", "log"]).json().to_string();
    assert!(!audit.contains(&signin), "the audit never holds a sign-in");

    // Elsewhere, bent, or beside a code: refused, the event as it was.
    let before = site.ev.dump();
    let bo_id = site.ev.run(&["--json", "player", "code", "Bo"]).json()["id"].clone();
    let mut parts: Vec<String> = signin.split('.').map(String::from).collect();
    parts[0] = bo_id.to_string();
    let bent = parts.join(".");
    let cases = [
        (json!({ "table": 2, "signin": signin, "cost": "R", "card": "Lightning Bolt" }), 403, "signed out"),
        (json!({ "table": 1, "signin": bent, "cost": "R", "card": "Lightning Bolt" }), 403, "signed out"),
        (json!({ "table": 1, "signin": "x", "cost": "R", "card": "Lightning Bolt" }), 403, "sign in again"),
        (json!({ "table": 1, "signin": signin, "code": ana, "cost": "R", "card": "Lightning Bolt" }), 400, "not both"),
    ];
    for (body, status, words) in cases {
        let r = post(&site, "/api/note", body.clone());
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert!(r.json()["error"].as_str().unwrap_or_default().contains(words), "{body}: {}", r.body);
    }
    assert_eq!(site.ev.dump(), before, "refused writes change nothing");
    // A sign-in that is not one is never counted as a wrong code: the device still signs in.
    for _ in 0..8 {
        assert_eq!(post(&site, "/api/player/code", json!({ "table": 1, "signin": "0.0.0.0" })).status, 403);
    }
    sign_in(&site, 1, &ana);
}

#[test]
fn a_judge_renewing_a_code_ends_the_old_code_and_every_sign_in_made_with_it() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let old = site.code("Ana");
    let signin = sign_in(&site, 1, &old);
    let bo = sign_in(&site, 1, &site.code("Bo"));
    let renewed = site.send(
        Req::post("/api/player/code/new").json(json!({ "name": "Ana" })).by(&kim).header("Idempotency-Key", "r1"),
    );
    assert_eq!(renewed.status, 200, "{}", renewed.body);
    let new = renewed.json()["code"].as_str().expect("the new code, shown once").to_string();
    assert_ne!(new, old);

    // The attack: the old code (seen by the opponent) and the old device's sign-in no longer act.
    let before = site.ev.dump();
    let card = |who: Value| {
        let mut body = json!({ "table": 1, "cost": "B1", "card": "Demonic Tutor" });
        if let (Some(b), Some(w)) = (body.as_object_mut(), who.as_object()) {
            b.extend(w.clone());
        }
        post(&site, "/api/note", body)
    };
    assert!(card(json!({ "code": old })).json()["error"].as_str().unwrap_or_default().contains("not one of the two"));
    let stale = card(json!({ "signin": signin }));
    assert_eq!(stale.status, 403, "{}", stale.body);
    assert!(stale.body.contains("new code") && stale.body.contains("sign in again"), "{}", stale.body);
    assert_eq!(post(&site, "/api/clock/start", json!({ "table": 1, "signin": signin })).status, 403);
    assert_eq!(post(&site, "/api/player/code", json!({ "table": 1, "signin": signin })).status, 403);
    assert_eq!(site.ev.dump(), before, "nothing done with the old code or sign-in");

    // Bo's sign-in is untouched; Ana signs in again with the new code.
    assert_eq!(post(&site, "/api/clock/start", json!({ "table": 1, "signin": bo })).status, 200);
    let fresh = sign_in(&site, 1, &new);
    assert_eq!(card(json!({ "signin": fresh })).status, 200);
}

#[test]
fn the_judges_table_page_offers_a_head_judge_a_new_code_for_each_player_in_one_tap() {
    let site = Site::playing();
    let (kim, lee) = site.judges();
    let head = site.send(Req::get("/judge/table/1").by(&kim));
    assert_eq!(head.status, 200);
    for name in ["Ana", "Bo"] {
        assert!(head.body.contains(&format!("New code for {name}")), "{name}");
    }
    assert!(head.body.contains("data-shown-once=\"code\""), "its answer (the code) is shown on the page");
    let floor = site.send(Req::get("/judge/table/1").by(&lee));
    assert!(!floor.body.contains("New code for"), "a floor judge is not offered it (head judges only)");
}
