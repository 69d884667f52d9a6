//! What players see on the live site (issue 26): the bye wherever a round is shown, the next round only once
//! paired, a report confirmed in one tap, their own state in words, time called as the rules say, and check-in
//! from `/me` and the judges' dashboard.

use crate::harness::Event;
use crate::router::{Actor, Req, Site};
use crate::serve::{Server, judge};
use serde_json::json;

/// Round 1 playing with Gil added and given the bye.
fn with_a_bye() -> Site {
    let site = Site::playing();
    site.ev.run(&["player", "add", "Gil"]).ok();
    site.ev.bye(1, "Gil");
    site
}

#[test]
fn the_bye_is_shown_on_pairings_me_the_dashboard_and_the_projector() {
    let site = with_a_bye();
    let pairings = site.send(Req::get("/pairings"));
    assert_eq!(pairings.status, 200);
    let bye_row = "<tr class=\"bye\"><td class=\"num\">bye</td><td class=\"player\">Gil</td><td></td><td>a win, 3 points</td></tr>";
    assert!(pairings.body.contains(bye_row), "by table: {}", pairings.body);
    let by_name = pairings.body.split("id=\"by-name\"").nth(1).unwrap_or_default();
    assert!(by_name.contains("<td>Gil</td><td class=\"num\">bye</td>"), "by name: {by_name}");
    let me = site.send(Req::get("/me?name=Gil"));
    assert!(me.body.contains("Round 1: you have the bye: a win, 3 points."), "{}", me.body);
    let api = site.send(Req::get("/api/me?name=Gil")).json();
    assert_eq!(api["bye_result"], json!({ "round": 1, "player": "Gil", "counts_as": "win", "points": 3 }));
    let (_, lee) = site.judges();
    let Actor::Bearer(token) = &lee else { unreachable!() };
    let board = site.send(Req::get("/judge").by(&Actor::Cookie(token.clone())));
    assert!(board.body.contains("<p class=\"byes\">Bye: Gil (a win, 3 points).</p>"), "{}", board.body);
    let projector = site.send(Req::get("/projector"));
    assert!(projector.body.contains("<p class=\"byes\">Bye: Gil (a win, 3 points).</p>"), "{}", projector.body);
}

#[test]
fn the_next_round_shows_only_once_it_is_paired() {
    let site = Site::playing();
    let api = site.send(Req::get("/api/me?name=Ana")).json();
    assert!(api.get("next").is_none_or(|n| n.is_null()), "round 2 is not paired: {api}");
    let me = site.send(Req::get("/me?name=Ana"));
    assert!(!me.body.contains("Next round"), "{}", me.body);
}

#[test]
fn the_opponent_reads_the_waiting_report_in_full_and_confirms_it_in_one_tap() {
    let site = Site::playing();
    let (ana, bo) = (site.code("Ana"), site.code("Bo"));
    let body = json!({ "table": 1, "code": ana, "winner": "Ana", "by": "life", "life": [7, 0] });
    let sent = site.send(Req::post("/api/self-report").json(body));
    assert_eq!(sent.status, 200, "{}", sent.body);
    let id = sent.json()["report"]["id"].as_i64().expect("id");

    let api = site.send(Req::get("/api/me?name=Bo")).json();
    let w = &api["waiting_report"];
    assert_eq!(
        (&w["id"], &w["by"], &w["winner"], &w["reason"]),
        (&json!(id), &json!("Ana"), &json!("Ana"), &json!("life"))
    );
    assert_eq!(w["life"], json!([7, 0]));
    assert!(w["at"].as_str().is_some_and(|a| a.ends_with('Z')), "{w}");

    let page = site.send(Req::get("/me?name=Bo")).body;
    assert!(page.contains("Ana reported: Ana won by life; life: Ana 7, Bo 0 (at <time datetime="), "{page}");
    assert!(page.contains("action=\"/api/self-report/confirm\""), "{page}");
    assert!(page.contains(&format!("name=\"report\" value=\"{id}\"")), "{page}");
    assert!(page.contains("<button>Confirm</button>"), "{page}");
    assert!(page.contains("<summary>That's not what happened</summary>"), "{page}");
    assert!(page.contains("<option value=\"\" selected disabled>who won?</option>"), "no winner preset: {page}");
    let own = site.send(Req::get("/me?name=Ana")).body;
    assert!(own.contains("Waiting for Bo to confirm it") && !own.contains("<button>Confirm</button>"), "{own}");

    // One tap: the form of /me, back to /me.
    let form = format!("table=1&code={bo}&report={id}&back=/me?name=Bo");
    let tapped = site.send(Req::post("/api/self-report/confirm").form(&form).device(2));
    assert_eq!((tapped.status, tapped.header("location")), (303, Some("/me?name=Bo")), "{}", tapped.body);
    let api = site.send(Req::get("/api/me?name=Bo")).json();
    assert_eq!(api["result"], "Ana won by life", "{api}");
    assert!(api.get("waiting_report").is_none_or(|w| w.is_null()), "{api}");
    let page = site.send(Req::get("/me?name=Bo")).body;
    assert!(
        page.contains("<dt>Result</dt><dd>Ana won by life</dd>") && !page.contains("class=\"countdown\""),
        "{page}"
    );
}

#[test]
fn a_confirmation_by_json_answers_as_a_self_report_confirmed() {
    let site = Site::playing();
    let (cy, di) = (site.code("Cy"), site.code("Di"));
    let sent = site.send(
        Req::post("/api/self-report")
            .json(json!({ "table": 2, "code": di, "winner": "draw", "by": "intentional-draw" })),
    );
    let id = sent.json()["report"]["id"].as_i64().expect("id");
    let page = site.send(Req::get("/me?name=Cy")).body;
    assert!(page.contains("Di reported: a draw (intentional draw)"), "{page}");
    let confirm = json!({ "table": 2, "code": cy, "report": id });
    let a = site.send(Req::post("/api/self-report/confirm").json(confirm).device(3));
    assert_eq!(a.status, 200, "{}", a.body);
    let doc = a.json();
    assert_eq!(
        (&doc["ok"], &doc["state"], &doc["player"], &doc["report"]["id"]),
        (&json!(true), &json!("confirmed"), &json!("Cy"), &json!(id))
    );
    assert!(doc["summary"].as_str().is_some_and(|s| s.contains("reported by Di")), "{doc}");
}

#[test]
fn a_dropped_player_reads_when_they_dropped() {
    let site = Site::playing();
    site.ev.run(&["player", "drop", "Cy"]).ok();
    let page = site.send(Req::get("/me?name=Cy")).body;
    assert!(page.contains("<p class=\"state\">You dropped after round 1 (<time datetime=\""), "{page}");
    let api = site.send(Req::get("/api/me?name=Cy")).json();
    assert_eq!((&api["state"]["kind"], &api["state"]["after_round"]), (&json!("dropped"), &json!(1)), "{api}");
}

#[test]
fn a_player_not_seated_reads_why() {
    let site = with_a_bye();
    site.ev.run(&["player", "drop", "Gil"]).ok();
    site.ev.sql("DELETE FROM match WHERE b_player IS NULL;");
    let page = site.send(Req::get("/me?name=Gil")).body;
    assert!(page.contains("You dropped after round 1 ("), "{page}");
    assert!(page.contains("You are not seated in round 1; see a judge if this is not right."), "{page}");
    assert!(!page.contains("You are not seated in round 1: see a judge."), "{page}");
}

#[test]
fn check_in_from_me_and_from_the_dashboard() {
    let site = Site::paired();
    site.ev.run(&["round", "unpair"]).ok();
    site.ev.run(&["event", "set", "check-in", "on"]).ok();
    let page = site.send(Req::get("/me?name=Ana")).body;
    assert!(page.contains("action=\"/api/check-in\"") && page.contains("<button>Check in</button>"), "{page}");
    assert_eq!(site.send(Req::get("/api/me?name=Ana")).json()["checked_in"], false);

    let ana = site.code("Ana");
    let form = format!("name=Ana&code={ana}&back=/me?name=Ana");
    let a = site.send(Req::post("/api/check-in").form(&form));
    assert_eq!((a.status, a.header("location")), (303, Some("/me?name=Ana")), "{}", a.body);
    let page = site.send(Req::get("/me?name=Ana")).body;
    assert!(page.contains("You have checked in") && !page.contains("action=\"/api/check-in\""), "{page}");
    assert_eq!(site.send(Req::get("/api/me?name=Ana")).json()["checked_in"], true);
    // A repeated tap answers what was found.
    let again = site.send(Req::post("/api/check-in").json(json!({ "name": "ana", "code": ana })));
    assert_eq!((again.status, &again.json()["already"]), (200, &json!(true)), "{}", again.body);

    // The dashboard lists who has not, each with a button.
    let (_, lee) = site.judges();
    let Actor::Bearer(token) = &lee else { unreachable!() };
    let board = site.send(Req::get("/judge").by(&Actor::Cookie(token.clone()))).body;
    assert!(board.contains("<h2>Not checked in (5)</h2>"), "{board}");
    assert!(
        board.contains("<li>Bo <form class=\"inline\" method=\"post\" action=\"/api/player/check-in\">"),
        "{board}"
    );
    assert!(!board.contains("<li>Ana "), "{board}");
    let csrf = board.split("name=\"csrf\" value=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or_default();
    let tap = Req::post("/api/player/check-in")
        .form(&format!("csrf={csrf}&name=Bo&back=/judge"))
        .by(&Actor::Cookie(token.clone()));
    let a = site.send(tap);
    assert_eq!(a.status, 303, "{}", a.body);
    assert!(a.header("location").is_some_and(|l| l.starts_with("/judge?done=")), "{:?}", a.header("location"));
    let board = site.send(Req::get("/judge").by(&Actor::Cookie(token.clone()))).body;
    assert!(board.contains("<h2>Not checked in (4)</h2>") && !board.contains("<li>Bo "), "{board}");
}

#[test]
fn after_time_is_called_me_and_the_clock_say_what_the_rules_say_then_the_result() {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run_with(&["round", "start", "--at", "2025-05-01T10:00:00Z"], &[("MMJUDGE_NOW", "2025-05-01T10:00:00Z")]).ok();
    let _ = judge(&ev, "Kim", "head");
    let called = "Time is called. The player whose turn it is finishes that turn; then the player with the higher \
                  life total wins, unless a player shows a complete lock (the judges decide what counts as one).";
    {
        let server = Server::start_with(&ev, &[], &[("MMJUDGE_NOW", "2025-05-01T10:40:00Z")]);
        let me = server.get("/me?name=Ana").body;
        assert!(me.contains("<strong class=\"time-called\" data-from=\"2025-05-01T10:50:00.000Z\" hidden>"), "{me}");
        assert!(me.contains("<span data-until=\"2025-05-01T10:50:00.000Z\"><span class=\"countdown\""), "{me}");
    }
    let server = Server::start_with(&ev, &[], &[("MMJUDGE_NOW", "2025-05-01T10:51:00Z")]);
    let me = server.get("/me?name=Ana").body;
    let words = called.replace('\'', "&#x27;");
    assert!(
        me.contains(&format!("<strong class=\"time-called\" data-from=\"2025-05-01T10:50:00.000Z\">{words}</strong>")),
        "{me}"
    );
    assert!(me.contains("<span data-until=\"2025-05-01T10:50:00.000Z\" hidden>"), "{me}");
    let clock = server.get("/clock?table=1").body;
    assert!(
        clock.contains(&format!("<p class=\"big time-called\" data-from=\"2025-05-01T10:50:00.000Z\">{words}</p>")),
        "{clock}"
    );
    assert!(clock.contains("<p class=\"clock\" data-until=\"2025-05-01T10:50:00.000Z\" hidden>"), "{clock}");
    // Once the match has a result: the result, not the clock.
    ev.set_result_for_clock(1, 1, "A");
    let me = server.get("/me?name=Ana").body;
    assert!(me.contains("<dt>Result</dt><dd>Ana won by life</dd>"), "{me}");
    assert!(!me.contains("class=\"countdown\"") && !me.contains("time-called"), "{me}");
    let clock = server.get("/clock?table=1").body;
    assert!(clock.contains("<p class=\"big\">Ana won by life</p>") && !clock.contains("time-called"), "{clock}");
}

#[test]
fn a_confirmation_tells_the_pages_that_follow_results() {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo")]);
    ev.run(&["round", "start"]).ok();
    let code = crate::serve::codes(&ev);
    let server = Server::start(&ev);
    let body = json!({ "table": 1, "code": code["Ana"], "winner": "Ana", "by": "concession" });
    let id = server.post_json("/api/self-report", None, &body).json()["report"]["id"].as_i64().expect("id");
    let mut events = crate::serve::Events::open(&server);
    let body = json!({ "table": 1, "code": code["Bo"], "report": id }).to_string();
    let headers = [("Content-Type", "application/json"), ("Cookie", &crate::serve::device_cookie(2))];
    let a = server.request("POST", "/api/self-report/confirm", &headers, &body);
    assert_eq!(a.status, 200, "{}", a.body);
    events.wait_for("result", std::time::Duration::from_secs(10));
}

#[test]
fn a_check_in_tells_the_dashboard_and_the_players_page() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.run(&["event", "set", "check-in", "on"]).ok();
    let code = crate::serve::codes(&ev);
    let server = Server::start(&ev);
    let mut events = crate::serve::Events::open(&server);
    let a = server.post_json("/api/check-in", None, &json!({ "name": "Bo", "code": code["Bo"] }));
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["summary"], "Bo checked in with their code; 1 player still to check in");
    events.wait_for("round", std::time::Duration::from_secs(10));
}

/// Issue 34: on Bo's page a report took Ana's code (seen on the shared table device), and Bo's own code then
/// confirmed it: one player won alone. A page found by a name acts only with that player's code.
#[test]
fn a_report_filed_with_the_opponents_code_from_the_wrong_page_is_refused() {
    let site = Site::playing();
    let (ana, bo) = (site.code("Ana"), site.code("Bo"));
    let before = site.ev.dump();
    // Bo's page, Ana's code: "Ana concedes".
    let form = format!("table=1&me=Bo&code={ana}&winner=Bo&by=concession&back=/me?name=Bo");
    let refused = site.send(Req::post("/api/self-report").form(&form));
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(refused.body.replace("&#39;", "'").contains("that code is not Bo's"), "{}", refused.body);
    let json = json!({ "table": 1, "me": "Bo", "code": ana, "winner": "Bo", "by": "concession" });
    let refused = site.send(Req::post("/api/self-report").json(json));
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(refused.body.replace("&#39;", "'").contains("that code is not Bo's"), "{}", refused.body);
    let call = site.send(Req::post("/api/call").json(json!({ "table": 1, "me": "Bo", "code": ana })));
    assert_eq!(call.status, 403, "{}", call.body);
    assert_eq!(before, site.ev.dump(), "nothing was recorded");
    // Bo's own code works on Bo's page; the confirmation then needs Ana's own code on Ana's page.
    let form = format!("table=1&me=Bo&code={bo}&winner=Bo&by=concession&back=/me?name=Bo");
    let sent = site.send(Req::post("/api/self-report").form(&form));
    assert_eq!(sent.status, 303, "{}", sent.body);
    let id = site.send(Req::get("/api/me?name=Ana")).json()["waiting_report"]["id"].as_i64().expect("waiting");
    let form = format!("table=1&me=Ana&code={bo}&report={id}&back=/me?name=Ana");
    let refused = site.send(Req::post("/api/self-report/confirm").form(&form));
    assert_eq!(refused.status, 403, "Bo confirms his own report on Ana's page: {}", refused.body);
    let form = format!("table=1&me=Ana&code={ana}&report={id}&back=/me?name=Ana");
    assert_eq!(site.send(Req::post("/api/self-report/confirm").form(&form).device(4)).status, 303);
    // Every code field is masked and numeric.
    let page = site.send(Req::get("/me?name=Ana")).body;
    for field in page.split("<input name=\"code\"").skip(1) {
        assert!(field.starts_with(" type=\"password\" inputmode=\"numeric\""), "{field}");
    }
}
