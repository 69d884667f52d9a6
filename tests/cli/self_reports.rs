//! The players' side of `mmjudge serve`: self-reported results (confirmed by the opponent, in conflict, settled
//! by a judge) and calls for a judge, through the real server and the command line.

use crate::harness::Event;
use crate::serve::{Events, Server, audit_vias, judge, page_login};
use serde_json::json;
use std::time::Duration;

/// Round 1 started: Ana-Bo at table 1, Cy-Di at table 2.
fn started() -> Event {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["round", "start"]).ok();
    ev
}

use crate::serve::codes;

fn report(server: &Server, body: serde_json::Value) -> crate::serve::Answer {
    server.post_json("/api/self-report", None, &body)
}

/// A report from the phone known by device cookie `n` (a matching report confirms only from another device).
fn report_from(server: &Server, n: u8, body: serde_json::Value) -> crate::serve::Answer {
    let headers = [("Content-Type", "application/json"), ("Cookie", &crate::serve::device_cookie(n))];
    server.request("POST", "/api/self-report", &headers, &body.to_string())
}

/// The current round's open tables as `results --json` lists them.
fn playing(ev: &Event) -> serde_json::Value {
    ev.run(&["--json", "results"]).json()["playing"].clone()
}

#[test]
fn a_report_waits_for_the_opponent_counts_nowhere_and_is_recorded_as_a_judge_would_once_confirmed() {
    let ev = started();
    let code = codes(&ev);
    let standings_before = ev.run(&["--json", "standings"]).stdout;
    let server = Server::start(&ev);
    let mut events = Events::open(&server);

    let first =
        report(&server, json!({ "table": 1, "code": code["Ana"], "winner": "ana", "by": "life", "life": [12, 0] }));
    assert_eq!(first.status, 200, "{}", first.body);
    let doc = first.json();
    assert_eq!(doc["state"], "waiting");
    assert_eq!(doc["player"], "Ana");
    assert_eq!(doc["opponent"], "Bo");
    assert_eq!(doc["report"]["winner"], "Ana");
    assert_eq!(doc["report"]["life"], json!([12, 0]));
    assert_eq!(doc["result"], serde_json::Value::Null);
    events.wait_for("self-report", Duration::from_secs(10));

    // Unconfirmed: not in results, standings or round end.
    assert_eq!(playing(&ev), json!([1, 2]));
    assert_eq!(server.get("/api/results").json()["playing"], json!([1, 2]));
    assert_eq!(ev.run(&["--json", "standings"]).stdout, standings_before);
    assert!(ev.refuses(&["round", "end"]).contains("still has 2 tables without a result"));
    let me = server.get("/api/me?name=bo").json();
    assert_eq!(me["self_report"], "reported by Ana, waiting for Bo");
    assert_eq!(me["result"], serde_json::Value::Null);
    // The opponent's page shows the report in full, to confirm in one tap; the reporter's, whom it waits for.
    let bo_page = server.get("/me?name=bo").body;
    assert!(bo_page.contains("Ana reported: Ana won by life; life: Ana 12, Bo 0 (at "), "{bo_page}");
    assert!(server.get("/me?name=ana").body.contains("Waiting for Bo to confirm it"));
    let waiting = ev.run(&["--json", "result", "reports"]).json();
    assert_eq!(waiting["tables"][0]["state"], "waiting");
    assert_eq!(waiting["tables"][0]["waiting_for"], "Bo");
    let text = ev.run(&["result", "reports"]).ok().to_string();
    assert!(text.contains("table 1: reported by Ana, waiting for Bo"), "{text}");

    // Bo confirms (without life totals: Ana's stand).
    let confirmed = report_from(&server, 2, json!({ "table": 1, "code": code["Bo"], "winner": "Ana", "by": "life" }));
    assert_eq!(confirmed.status, 200, "{}", confirmed.body);
    let doc = confirmed.json();
    assert_eq!(doc["state"], "confirmed");
    assert_eq!(doc["result"]["result"]["winner"], "Ana");
    assert!(doc["summary"].as_str().is_some_and(|s| s.contains("reported by Ana, confirmed by Bo")), "{doc}");
    events.wait_for("result", Duration::from_secs(10));
    assert_eq!(playing(&ev), json!([2]));
    assert_eq!(ev.run(&["--json", "result", "reports"]).json()["tables"], json!([]));

    // Exactly what a judge's `result` records.
    let by_judge = started();
    by_judge.run(&["result", "1", "ana", "--by", "life", "--life", "12", "0"]).ok();
    let table = |e: &Event| {
        let mut t = e.run(&["--json", "results"]).json()["tables"][0].clone();
        t["at"] = serde_json::Value::Null;
        t
    };
    assert_eq!(table(&ev), table(&by_judge));

    // Audited with the players' names and the address, never the code.
    let log = audit_vias(&ev);
    let (who, command, via) = log.last().expect("an audit entry");
    assert_eq!(who, "Bo (player)");
    assert!(command.starts_with("POST /api/self-report"), "{command}");
    assert!(!command.contains(&code["Bo"]), "{command}");
    assert_eq!(via, "web 127.0.0.1");
    let entries = ev.run(&["--json", "log"]).json();
    let last = entries["entries"].as_array().and_then(|e| e.last()).cloned().unwrap_or_default();
    assert!(last["summary"].as_str().is_some_and(|s| s.contains("Ana beat Bo by life")), "{last}");

    // A report after the result is refused.
    let before = ev.dump();
    let late = report(&server, json!({ "table": 1, "code": code["Bo"], "winner": "bo", "by": "concession" }));
    assert!(late.error(409).contains("already has a result"));
    assert_eq!(before, ev.dump());
}

#[test]
fn different_reports_go_to_the_judges_and_a_player_may_replace_their_own() {
    let ev = started();
    let code = codes(&ev);
    let head = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let token = server.login("Kim", &head);

    let first = report(&server, json!({ "table": 1, "code": code["Ana"], "winner": "Ana", "by": "life" }));
    assert_eq!(first.json()["state"], "waiting");
    let again = report(&server, json!({ "table": 1, "code": code["Ana"], "winner": "draw", "by": "intentional-draw" }));
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json()["replaced"], true);
    let reports = ev.run(&["--json", "result", "reports"]).json();
    assert_eq!(reports["tables"][0]["reports"].as_array().map(Vec::len), Some(1), "{reports}");
    assert_eq!(reports["tables"][0]["reports"][0]["reason"], "intentional-draw");

    let other = report(&server, json!({ "table": 1, "code": code["Bo"], "winner": "Bo", "by": "concession" }));
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(other.json()["state"], "conflict");
    assert_eq!(playing(&ev), json!([1, 2]), "a conflict records nothing");
    let dash = server.get_as("/api/judge", &token).json();
    let waiting = &dash["dashboard"]["self_reports"];
    assert_eq!(waiting[0]["table"], 1);
    assert_eq!(waiting[0]["state"], "conflict");
    assert_eq!(waiting[0]["reports"].as_array().map(Vec::len), Some(2));
    let cookie = page_login(&server, "Kim", &head).0;
    let page = server.request("GET", "/judge", &[("Cookie", &cookie)], "");
    assert!(page.body.contains("in conflict"), "{}", page.body);
    let table_page = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "");
    assert!(table_page.body.contains("in conflict"), "{}", table_page.body);
    let text = ev.run(&["result", "reports"]).ok().to_string();
    assert!(text.contains("in conflict"), "{text}");

    // Ana comes round to Bo's word: it is confirmed.
    let agreed =
        report_from(&server, 3, json!({ "table": 1, "code": code["Ana"], "winner": "bo", "by": "concession" }));
    assert_eq!(agreed.json()["state"], "confirmed");
    assert_eq!(playing(&ev), json!([2]));
}

#[test]
fn a_judges_result_settles_the_waiting_reports() {
    let ev = started();
    let code = codes(&ev);
    let head = judge(&ev, "Kim", "floor");
    let server = Server::start(&ev);
    let token = server.login("Kim", &head);
    report(&server, json!({ "table": 1, "code": code["Ana"], "winner": "Ana", "by": "life" }));
    report(&server, json!({ "table": 2, "code": code["Cy"], "winner": "Cy", "by": "concession" }));
    assert_eq!(
        server.get_as("/api/judge", &token).json()["dashboard"]["self_reports"].as_array().map(Vec::len),
        Some(2)
    );
    // A judge records another result at table 1 (CLI) and table 2 (web): the reports are gone.
    ev.run(&["result", "1", "bo", "--by", "concession"]).ok();
    let web = server.post_json("/api/result", Some(&token), &json!({ "table": 2, "winner": "Di", "by": "decking" }));
    assert_eq!(web.status, 200, "{}", web.body);
    assert_eq!(server.get_as("/api/judge", &token).json()["dashboard"]["self_reports"], json!([]));
    assert_eq!(ev.run(&["--json", "result", "reports"]).json()["tables"], json!([]));
    let results = ev.run(&["--json", "results"]).json();
    assert_eq!(results["tables"][0]["winner"], "Bo");
    assert_eq!(results["tables"][1]["winner"], "Di");
    // Taken back, the match has no reports waiting again.
    ev.run(&["result", "clear", "1"]).ok();
    assert_eq!(ev.run(&["--json", "result", "reports"]).json()["tables"], json!([]));
    assert_eq!(server.get("/api/me?name=ana").json()["self_report"], serde_json::Value::Null);
}

#[test]
fn a_code_acts_only_at_its_own_table_and_wrong_codes_are_limited() {
    let ev = started();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let before = ev.dump();
    let foreign = report(&server, json!({ "table": 1, "code": code["Cy"], "winner": "Cy", "by": "life" }));
    assert!(foreign.error(403).contains("not one of the two players'"));
    let call = server.post_json("/api/call", None, &json!({ "table": 1, "code": code["Cy"] }));
    assert!(call.error(403).contains("not one of the two players'"));
    assert!(report(&server, json!({ "table": 9, "code": code["Ana"], "by": "life" })).error(404).contains("table 9"));
    let judges_only = report(&server, json!({ "table": 1, "code": code["Ana"], "winner": "Ana", "by": "no-show" }));
    assert!(judges_only.error(409).contains("a judge's to record"));
    assert!(report(&server, json!({ "table": 1, "code": code["Ana"], "by": "magic" })).error(400).contains("magic"));
    let winner_elsewhere =
        report(&server, json!({ "table": 1, "code": code["Ana"], "winner": "draw", "by": "concession" }));
    winner_elsewhere.error(409);
    assert!(report(&server, json!({ "table": 1 })).error(400).contains("JSON"));
    assert_eq!(before, ev.dump(), "refused reports and calls change nothing");

    // Two wrong codes so far from this address at table 1; three more, then even the right code waits.
    for _ in 0..3 {
        report(&server, json!({ "table": 1, "code": "000000", "winner": "Ana", "by": "life" })).error(403);
    }
    let limited = report(&server, json!({ "table": 1, "code": code["Ana"], "winner": "Ana", "by": "life" }));
    assert!(limited.error(429).contains("too many wrong player codes"));
    assert!(
        server.post_json("/api/call", None, &json!({ "table": 1, "code": code["Ana"] })).error(429).contains("wait")
    );
    assert_eq!(before, ev.dump());
}

#[test]
fn a_call_is_made_once_listed_for_the_judges_and_closed_by_a_judge() {
    let ev = started();
    let code = codes(&ev);
    let floor = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    let token = server.login("Lee", &floor);
    let mut events = Events::open(&server);
    assert_eq!(ev.run(&["--json", "call", "list"]).json()["calls"], json!([]));
    assert!(ev.run(&["call", "list"]).ok().contains("no judge call is open"));

    let call = server.post_json("/api/call", None, &json!({ "table": 1, "code": code["Ana"] }));
    assert_eq!(call.status, 200, "{}", call.body);
    let doc = call.json();
    assert_eq!(
        (doc["table"].clone(), doc["caller"].clone(), doc["repeat"].clone()),
        (json!(1), json!("Ana"), json!(false))
    );
    events.wait_for("call", Duration::from_secs(10));
    let before = ev.dump();
    let again = server.post_json("/api/call", None, &json!({ "table": 1, "code": code["Bo"] }));
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json()["repeat"], true);
    assert_eq!(again.json()["id"], doc["id"], "the open call answers");
    assert_eq!(before, ev.dump(), "a second call writes nothing");

    let dash = server.get_as("/api/judge", &token).json();
    let calls = &dash["dashboard"]["calls"];
    assert_eq!(calls.as_array().map(Vec::len), Some(1), "{dash}");
    assert_eq!(calls[0]["caller"], "Ana");
    assert_eq!(calls[0]["a"], "Ana");
    assert_eq!(calls[0]["b"], "Bo");
    assert!(calls[0]["waiting_seconds"].as_i64().is_some_and(|s| s >= 0));
    let listed = ev.run(&["--json", "call", "list"]).json();
    assert_eq!(listed["round"], 1);
    assert_eq!(listed["calls"][0]["table"], 1);
    assert_eq!(listed["calls"][0]["caller"], "Ana");
    assert!(listed["calls"][0]["since"].as_str().is_some_and(|s| s.ends_with('Z')));
    let csv = ev.run(&["--csv", "call", "list"]).ok().to_string();
    assert_eq!(csv.lines().next(), Some("table,A,B,called by,since,waiting"));
    assert!(csv.lines().nth(1).is_some_and(|l| l.starts_with("1,Ana,Bo,Ana,")), "{csv}");
    assert_eq!(server.get("/api/me?name=bo").json()["call_since"], listed["calls"][0]["since"]);

    // Closing: a judge's login needed; a table without a call refused; then closed once.
    server.post_json("/api/call/close", None, &json!({ "table": 1 })).error(401);
    let before = ev.dump();
    assert!(
        server.post_json("/api/call/close", Some(&token), &json!({ "table": 2 })).error(409).contains("no judge call")
    );
    assert!(server.post_json("/api/call/close", Some(&token), &json!({ "table": 9 })).error(404).contains("table 9"));
    assert_eq!(before, ev.dump());
    let closed = server.post_json("/api/call/close", Some(&token), &json!({ "table": 1 }));
    assert_eq!(closed.status, 200, "{}", closed.body);
    assert_eq!(closed.json()["closed_by"], "Lee");
    events.wait_for("call", Duration::from_secs(10));
    assert_eq!(server.get_as("/api/judge", &token).json()["dashboard"]["calls"], json!([]));
    server.post_json("/api/call/close", Some(&token), &json!({ "table": 1 })).error(409);

    // The same from the command line.
    let second = server.post_json("/api/call", None, &json!({ "table": 2, "code": code["Di"] }));
    assert_eq!(second.json()["repeat"], false);
    assert!(ev.refuses(&["call", "close", "1"]).contains("no judge call is open at table 1"));
    assert!(ev.refuses(&["call", "close", "9"]).contains("table 9"));
    let out = ev.run(&["call", "close", "2"]).ok().to_string();
    assert!(out.contains("closed the judge call at table 2, round 1 (Di called at"), "{out}");
    assert!(ev.refuses(&["call", "close", "2"]).contains("no judge call"));
    let log = audit_vias(&ev);
    assert!(
        log.iter().any(|(who, cmd, via)| who == "Ana (player)"
            && cmd.starts_with("POST /api/call")
            && via == "web 127.0.0.1")
    );
    assert!(log.iter().any(|(who, cmd, _)| who == "Lee" && cmd.starts_with("POST /api/call/close")));
}

#[test]
fn the_players_page_reports_and_calls_by_form_and_the_judges_table_page_closes_the_call() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana <b>Souza</b>", "Bo"]).ok();
    ev.seat_round(1, &[(1, "Ana <b>Souza</b>", "Bo")]);
    ev.run(&["round", "start"]).ok();
    let code = codes(&ev);
    let head = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let page = server.get("/me?name=ana");
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("action=\"/api/self-report\"") && page.body.contains("action=\"/api/call\""),
        "{}",
        page.body
    );
    assert!(!page.body.contains("<b>Souza"), "names are escaped");
    assert!(page.body.contains("self-report call"), "the page follows self-reports and calls live");

    let form = ("Content-Type", "application/x-www-form-urlencoded");
    let ana = &code["Ana <b>Souza</b>"];
    let body = format!("table=1&code={ana}&winner=Bo&by=concession&life=&back=%2Fme%3Fname%3DBo");
    let sent = server.request("POST", "/api/self-report", &[form], &body);
    assert_eq!(sent.status, 303, "{}", sent.body);
    assert_eq!(sent.header("location"), Some("/me?name=Bo"));
    let bo = server.get("/me?name=bo");
    assert!(bo.body.contains("Ana &#60;b&#62;Souza&#60;/b&#62; reported: Bo won by concession"), "{}", bo.body);
    let wrong =
        server.request("POST", "/api/self-report", &[form], "table=1&code=000000&winner=Bo&by=concession&back=%2Fme");
    assert_eq!(wrong.status, 403);
    assert!(wrong.body.contains("not one of the two players") && wrong.body.contains("href=\"/me\""), "{}", wrong.body);
    let called = server.request("POST", "/api/call", &[form], &format!("table=1&code={ana}&back=%2Fme%3Fname%3DBo"));
    assert_eq!(called.status, 303, "{}", called.body);
    assert!(server.get("/me?name=bo").body.contains("A judge is called to your table"));

    let (cookie, csrf) = page_login(&server, "Kim", &head);
    let table = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "");
    assert!(
        table.body.contains("action=\"/api/call/close\"") && table.body.contains("waiting for Bo"),
        "{}",
        table.body
    );
    assert!(!table.body.contains("<b>Souza"), "names are escaped");
    let no_csrf =
        server.request("POST", "/api/call/close", &[form, ("Cookie", &cookie)], "table=1&back=%2Fjudge%2Ftable%2F1");
    assert_eq!(no_csrf.status, 403);
    let body = format!("table=1&csrf={csrf}&back=%2Fjudge%2Ftable%2F1");
    let closed = server.request("POST", "/api/call/close", &[form, ("Cookie", &cookie)], &body);
    assert_eq!(closed.status, 303, "{}", closed.body);
    assert_eq!(ev.run(&["--json", "call", "list"]).json()["calls"], json!([]));
}

#[test]
fn the_listings_before_any_round_and_their_refusals() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    let calls = ev.run(&["--json", "call", "list"]).json();
    assert_eq!(calls, json!({ "round": 0, "calls": [] }));
    assert!(ev.refuses(&["result", "reports"]).contains("no round is paired yet"));
    assert!(ev.refuses(&["call", "close", "1"]).contains("no round is paired yet"));
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    assert!(ev.refuses(&["result", "reports", "--round", "7"]).contains("round 7 is not paired"));
    assert!(ev.refuses(&["call", "close", "0"]).contains("table"));
    let empty = ev.run(&["result", "reports"]).ok().to_string();
    assert!(empty.contains("no self-reported result is waiting"), "{empty}");
    assert_eq!(
        ev.run(&["--csv", "result", "reports"]).ok().lines().next(),
        Some("table,A,B,state,reported by,says,at")
    );
}
