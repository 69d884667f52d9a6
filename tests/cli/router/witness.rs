//! A confirmation is the other player's word: from the report's own device, or with no device cookie, it is
//! refused; from another phone behind the reporter's address (a venue's NAT) it is taken and flagged, and the
//! player in whose name it was confirmed may say "That's not what happened" until the next round is paired (a
//! conflict for a judge).

use super::{Req, Site};
use serde_json::json;

#[test]
fn a_result_confirmed_from_the_reporters_address_is_flagged_and_its_confirmer_may_dispute_it() {
    let site = Site::playing();
    let (ana, bo) = (site.code("Ana"), site.code("Bo"));
    let report = json!({ "table": 1, "code": ana, "winner": "Ana", "by": "concession" });
    let sent = site.send(Req::post("/api/self-report").json(report).device(1).phone(2));
    assert_eq!(sent.status, 200, "{}", sent.body);
    let id = sent.json()["report"]["id"].clone();
    // Nothing to dispute yet.
    let early = site.send(Req::post("/api/self-report/dispute").json(json!({ "table": 1, "code": bo })));
    assert_eq!(early.status, 409, "{}", early.body);
    assert!(early.body.contains("call a judge"), "{}", early.body);
    // Bo's confirmation from Ana's phone, or from a phone with no cookie: refused.
    let confirm = json!({ "table": 1, "code": bo, "report": id });
    let own = site.send(Req::post("/api/self-report/confirm").json(confirm.clone()).device(1).phone(2));
    assert_eq!(own.status, 409, "{}", own.body);
    assert!(own.body.contains("confirm on the table's device, or on your own phone"), "{}", own.body);
    let none = site.send(Req::post("/api/self-report/confirm").json(confirm.clone()).phone(3));
    assert_eq!(none.status, 409, "{}", none.body);
    // From another phone behind the same address: taken, flagged.
    let nat = site.send(Req::post("/api/self-report/confirm").json(confirm).device(2).phone(2));
    assert_eq!(nat.status, 200, "{}", nat.body);
    assert_eq!(nat.json()["confirmed"], "same-address", "{}", nat.body);
    // Bo's page says so and offers "That's not what happened"; Ana's does not.
    let page = site.send(Req::get("/me?name=Bo")).body.replace("&#39;", "'");
    assert!(page.contains("That's not what happened") && page.contains("/api/self-report/dispute"), "{page}");
    let api = site.send(Req::get("/api/me?name=Bo")).json();
    assert_eq!(api["flagged"]["kind"], "same-address", "{api}");
    assert!(site.send(Req::get("/api/me?name=Ana")).json().get("flagged").is_none());
    let by_ana = site.send(Req::post("/api/self-report/dispute").json(json!({ "table": 1, "code": ana })));
    assert_eq!(by_ana.status, 409, "only Bo's word is open: {}", by_ana.body);
    // Bo disputes it: a conflict on the judges' dashboard.
    let disputed = site.send(Req::post("/api/self-report/dispute").json(json!({ "table": 1, "code": bo, "me": "Bo" })));
    assert_eq!(disputed.status, 200, "{}", disputed.body);
    assert_eq!(disputed.json()["disputed"], true, "{}", disputed.body);
    let (kim, _) = site.judges();
    let dashboard = site.send(Req::get("/judge").by(&kim)).body.replace("&#39;", "'");
    assert!(
        dashboard.contains("table 1: Ana's report, confirmed by Bo from the reporter's network address; Bo says that's not what happened: in conflict, a judge decides"),
        "{dashboard}"
    );
    let page = site.send(Req::get("/me?name=Bo")).body.replace("&#39;", "'");
    assert!(page.contains("You said that's not what happened: the judges decide."), "{page}");
}

#[test]
fn the_tables_device_reads_the_waiting_report_and_life_totals_are_taken_by_name() {
    let site = Site::playing();
    let ana = site.code("Ana");
    let page = site.send(Req::get("/table/1")).body.replace("&#39;", "'");
    for words in ["Ana's life total (optional)", "Bo's life total (optional)", "Report as Ana", "Report as Bo"] {
        assert!(page.contains(words), "the device's result form asks by name: {words}\n{page}");
    }
    assert_eq!(site.send(Req::get("/api/table/1/notes")).json()["report"], serde_json::Value::Null);
    // Each player's life total by name (a form's fields); one without the other is refused in words.
    let half = json!({ "table": 1, "code": ana, "winner": "Ana", "by": "life", "life_a": "7" });
    let refused = site.send(Req::post("/api/self-report").json(half).device(1).phone(2));
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("give both players' totals, or neither"), "{}", refused.body);
    let report = json!({ "table": 1, "code": ana, "winner": "Ana", "by": "life", "life_a": "7", "life_b": "" });
    assert_eq!(site.send(Req::post("/api/self-report").json(report).device(1).phone(2)).status, 400);
    let report = json!({ "table": 1, "code": ana, "winner": "Ana", "by": "life", "life_a": 7, "life_b": "0" });
    let sent = site.send(Req::post("/api/self-report").json(report).device(1).phone(2));
    assert_eq!(sent.status, 200, "{}", sent.body);
    // The device reads it, with whom it waits for, for its Confirm button.
    let doc = site.send(Req::get("/api/table/1/notes")).json();
    let waiting = &doc["report"];
    assert_eq!((waiting["by"].as_str(), waiting["waiting_for"].as_str()), (Some("Ana"), Some("Bo")), "{doc}");
    assert_eq!(waiting["id"], sent.json()["report"]["id"], "{doc}");
    assert_eq!(waiting["text"], "Ana reported: Ana won by life; life: Ana 7, Bo 0", "{doc}");
    // /me asks each total by name too.
    let me = site.send(Req::get("/me?name=Bo")).body.replace("&#39;", "'");
    assert!(me.contains("Your life total (optional) <input name=\"life_b\""), "{me}");
    assert!(me.contains("Ana's life total (optional) <input name=\"life_a\""), "{me}");
}

#[test]
fn reports_that_differ_are_for_a_judge_on_me_and_the_device_and_a_confirmation_from_elsewhere_is_refused() {
    let site = Site::playing();
    let (ana, bo) = (site.code("Ana"), site.code("Bo"));
    let ana_says = json!({ "table": 1, "code": ana, "winner": "Ana", "by": "concession" });
    let sent = site.send(Req::post("/api/self-report").json(ana_says).device(1).phone(2));
    let id = sent.json()["report"]["id"].clone();
    // Bo says otherwise on his own phone.
    let bo_says = json!({ "table": 1, "code": bo, "winner": "Bo", "by": "concession" });
    let differ = site.send(Req::post("/api/self-report").json(bo_says).device(2).phone(2));
    assert_eq!(differ.json()["state"], "conflict", "{}", differ.body);
    // The table's device, where Bo's sign-in stays, still offering Ana's report: a confirmation there is refused.
    let signed = site.send(Req::post("/api/player/code").json(json!({ "table": 1, "code": bo })).device(3).phone(2));
    let signin = signed.json()["signin"].as_str().expect("a sign-in").to_string();
    let confirm = json!({ "table": 1, "signin": signin, "report": id });
    let elsewhere = site.send(Req::post("/api/self-report/confirm").json(confirm).device(3).phone(2));
    assert_eq!(elsewhere.status, 409, "{}", elsewhere.body);
    assert!(
        elsewhere.body.contains("Bo reported a different result from another device (Bo beat Ana by concession)")
            && elsewhere.body.contains("call a judge to table 1"),
        "{}",
        elsewhere.body
    );
    // The device reads the two reports, and offers nothing to confirm.
    let notes = site.send(Req::get("/api/table/1/notes")).json();
    assert!(notes["report"].is_null(), "{notes}");
    assert_eq!(
        notes["reports_differ"], "Ana says Ana beat Bo by concession; Bo says Bo beat Ana by concession",
        "{notes}"
    );
    // Each player's page says a judge decides.
    let page = site.send(Req::get("/me?name=Ana")).body.replace("&#39;", "'");
    for words in ["The two reports differ", "A judge decides", "Change your report"] {
        assert!(page.contains(words), "{words}: {page}");
    }
    assert!(!page.contains("Your opponent confirms with their own code"), "{page}");
    assert_eq!(site.send(Req::get("/api/me?name=Bo")).json()["reports_differ"], notes["reports_differ"]);
}
