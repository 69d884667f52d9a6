//! The server's answers as a reviewer found them: refused pages answer HTML with the site's navigation and
//! refused API requests JSON, query strings are checked with a one-line message, `/pairings?round=N` shows
//! round N, players read the web's words, and the judges' pages word things once and truthfully.

use crate::harness::Event;
use crate::serve::{Answer, Server, judge, page_login};

/// A refused page: its status, HTML with the site's navigation and the one-line message.
#[track_caller]
fn refused_page(a: &Answer, status: u16, message: &str) {
    assert_eq!(a.status, status, "{}", a.body);
    assert!(a.header("content-type").is_some_and(|c| c.starts_with("text/html")), "{:?}", a.headers);
    assert!(a.body.contains("<nav>") && a.body.contains("href=\"/standings\""), "{}", a.body);
    assert!(a.body.contains(message), "{message} not in {}", a.body);
    assert!(!a.body.contains("{\"error\""), "{}", a.body);
}

fn two_rounds() -> Event {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.finish_round(1);
    ev.seat_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Di")]);
    ev
}

#[test]
fn refused_pages_answer_html_with_the_navigation_and_the_api_answers_json() {
    let ev = two_rounds();
    let pin = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    refused_page(&server.get("/table/99"), 404, "no table 99 in this round");
    refused_page(&server.get("/clock?table=99"), 404, "no table 99 in this round");
    refused_page(&server.get("/table/abc"), 400, "is not a table number");
    refused_page(&server.get("/clock?table=x"), 400, "is not a table number");
    let (cookie, _) = page_login(&server, "Kim", &pin);
    let judge_page = server.request("GET", "/judge/table/99", &[("Cookie", &cookie)], "");
    refused_page(&judge_page, 404, "no table 99");
    refused_page(&server.get("/standings?round=x"), 400, "round: give a round number such as 3");
    refused_page(&server.get("/pairings?round=x"), 400, "round: give a round number such as 3");
    for api in ["/api/standings?round=x", "/api/pairings?round=x", "/api/results?round=-1"] {
        assert_eq!(server.get(api).error(400), "round: give a round number such as 3", "{api}");
    }
    // Round 0: the words of the web, not the command line's `--round 1`.
    assert_eq!(server.get("/api/standings?round=0").error(400), "rounds are numbered from 1; give round 1");
    assert!(server.get("/api/table/99/notes").error(404).contains("99"));
}

#[test]
fn a_json_body_sent_as_a_form_is_told_to_send_its_content_type() {
    let ev = two_rounds();
    let pin = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let token = server.login("Kim", &pin);
    let before = ev.dump();
    let a = server.request(
        "POST",
        "/api/result",
        &[("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", &format!("Bearer {token}"))],
        r#"{"table":1,"winner":"Ana","by":"concession"}"#,
    );
    // Sent as a form, it is answered as a page's form is: the refused page, its line naming the header to send.
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(crate::serve::refusal_text(&a).contains("Content-Type: application/json"), "{}", a.body);
    let no_type = server.request("POST", "/api/login", &[], r#"{"name":"Kim","pin":"1"}"#);
    assert!(no_type.error(400).contains("Content-Type: application/json"), "{}", no_type.body);
    assert_eq!(before, ev.dump(), "refused requests change nothing");
}

#[test]
fn the_pairings_page_shows_the_round_asked_and_refuses_a_round_not_paired() {
    let ev = two_rounds();
    let server = Server::start(&ev);
    let now = server.get("/pairings");
    assert!(now.body.contains("Round 2 · pairings"), "{}", now.body);
    let first = server.get("/pairings?round=1");
    assert_eq!(first.status, 200);
    assert!(first.body.contains("Round 1 · pairings"), "{}", first.body);
    assert!(first.body.contains("<td>Bo</td><td class=\"num\">1</td><td>B</td><td>Ana</td>"), "{}", first.body);
    refused_page(&server.get("/pairings?round=9"), 404, "round 9 has not been paired (rounds 1-2 have)");
    assert_eq!(server.get("/api/pairings?round=9").error(404), "round 9 has not been paired (rounds 1-2 have)");
    assert_eq!(server.get("/api/pairings?round=1").json()["round"], 1);
}

/// Round 1 started: Ana-Bo at table 1, Cy-Di at table 2; each player's code by name.
fn started() -> (Event, std::collections::HashMap<String, String>) {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["round", "start"]).ok();
    let doc = ev.run(&["--json", "player", "codes"]).json();
    let codes = doc["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| (p["name"].as_str().unwrap_or_default().to_string(), p["code"].as_str().unwrap_or_default().into()))
        .collect();
    (ev, codes)
}

#[test]
fn players_read_the_web_s_words_and_the_command_line_keeps_its_own() {
    let (ev, code) = started();
    let server = Server::start(&ev);
    let me = server.get("/me?name=bold");
    assert_eq!(me.status, 404);
    assert!(me.body.contains("bold") && me.body.contains("; check the spelling or ask a judge"), "{}", me.body);
    assert!(!me.body.contains("mmjudge"), "no command on a player's screen: {}", me.body);
    let cli = ev.refuses(&["player", "remove", "bold"]);
    assert!(cli.contains("see `mmjudge player list`"), "{cli}");

    let tap =
        |who: &str| server.post_json("/api/clock/start", None, &serde_json::json!({ "table": 1, "code": code[who] }));
    assert_eq!(tap("Ana").status, 200);
    let before = ev.dump();
    let running = tap("Bo").error(409);
    assert!(running.starts_with("Ana is already deciding at table 1 (since "), "{running}");
    assert!(running.ends_with("; Ana taps Stop or Hand over first"), "{running}");
    assert_eq!(ev.dump(), before);
    let cli = ev.refuses(&["clock", "1", "--start", "Bo"]);
    assert!(cli.contains("stop it first with `mmjudge clock 1 --stop`"), "{cli}");
}

#[test]
fn the_self_report_form_takes_life_by_name_or_as_two_totals_with_a_space_or_a_comma() {
    let (ev, code) = started();
    let server = Server::start(&ev);
    let form = |table: u32, who: &str, life: &str| {
        let body = serde_urlencoded::to_string([
            ("table", table.to_string()),
            ("code", code[who].clone()),
            ("winner", who.to_string()),
            ("by", "life".to_string()),
            ("life", life.to_string()),
            ("back", format!("/me?name={who}")),
        ])
        .expect("form");
        server.request("POST", "/api/self-report", &[("Content-Type", "application/x-www-form-urlencoded")], &body)
    };
    // The page asks each life total by name (`life_a`, `life_b`); `life` with both, as older pages send it, is
    // still taken.
    let page = server.get("/me?name=Ana");
    assert!(page.body.contains("Your life total (optional) <input name=\"life_a\""), "{}", page.body);
    let before = ev.dump();
    let refused = form(1, "Ana", "7");
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("life: two totals, seat A&#39;s then seat B&#39;s, e.g. 7 0"), "{}", refused.body);
    assert_eq!(ev.dump(), before);
    assert_eq!(form(1, "Ana", "7 0").status, 303);
    assert_eq!(form(2, "Cy", "7, 0").status, 303);
    let confirm = |who: &str, winner: &str, life: &str| {
        let body = format!("table=1&code={}&winner={winner}&by=life&life={life}&back=/me", code[who]);
        let phone = crate::serve::device_cookie(2);
        let headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", phone.as_str())];
        server.request("POST", "/api/self-report", &headers, &body)
    };
    assert_eq!(confirm("Bo", "Ana", "7,0").status, 303);
    let results = ev.run(&["--json", "results"]).json();
    assert!(results.to_string().contains("[7,0]"), "Ana's 7 0 and Bo's 7,0 agree: {results}");
}

#[test]
fn the_judges_table_page_words_a_conflict_once() {
    let (ev, code) = started();
    let pin = judge(&ev, "Kim", "floor");
    let server = Server::start(&ev);
    for (who, winner) in [("Ana", "Ana"), ("Bo", "Bo")] {
        let body = serde_json::json!({ "table": 1, "code": code[who], "winner": winner, "by": "concession" });
        assert_eq!(server.post_json("/api/self-report", None, &body).status, 200);
    }
    let (cookie, _) = page_login(&server, "Kim", &pin);
    let page = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Self-reported result: <strong>in conflict: "), "{}", page.body);
    assert!(!page.body.contains("in conflict</strong>: in conflict"), "{}", page.body);
}

#[test]
fn during_deck_inspection_time_me_and_the_judges_table_page_show_inspection_then_the_round() {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["event", "set", "inspection-minutes", "5"]).ok();
    let now = [("MMJUDGE_NOW", "2025-05-01T10:02:00Z")];
    ev.run_with(&["round", "start", "--at", "2025-05-01T10:00:00Z"], &[("MMJUDGE_NOW", "2025-05-01T10:00:00Z")]).ok();
    let doc = ev.run_with(&["--json", "time"], &now).json();
    assert_eq!(doc["tables"][0]["time_left_ms"], 50 * 60_000, "inspection is not round time: {doc}");
    let text = ev.run_with(&["time"], &now).ok().to_string();
    assert!(text.contains("deck inspection, 3:00 left") && text.contains("50:00"), "{text}");
    assert!(!text.contains("53:00"), "{text}");

    let pin = judge(&ev, "Kim", "floor");
    let server = Server::start_with(&ev, &[], &now);
    let me = server.get("/me?name=Ana");
    assert!(me.body.contains("left, then 50:00; the round's clock starts at"), "{}", me.body);
    let time_left = "<dt data-from=\"2025-05-01T10:05:00.000Z\" hidden>Time<span data-until=\"2025-05-01T10:55:00.000Z\"> \
                     left</span></dt>";
    assert!(me.body.contains(time_left), "{}", me.body);
    let (cookie, _) = page_login(&server, "Kim", &pin);
    let page = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "");
    assert!(page.body.contains("Deck inspection — <strong><span class=\"countdown\""), "{}", page.body);
    assert!(page.body.contains("left, then 50:00</p>"), "{}", page.body);
    assert!(page.body.contains("<p class=\"clock\" data-from=\"2025-05-01T10:05:00.000Z\" hidden>"), "{}", page.body);
}

#[test]
fn the_live_standings_fit_a_phone_one_block_per_player_as_the_static_site_does() {
    let ev = two_rounds();
    let server = Server::start(&ev);
    let page = server.get("/standings");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("<table class=\"standings\">"), "{}", page.body);
    assert!(page.body.contains("<td class=\"record\" data-label=\"W-L-D\">1-0-0</td>"), "{}", page.body);
    assert!(page.body.contains("data-label=\"OGW%\""), "{}", page.body);
    let css = server.get(mmjudge::render::assets::url("app.css")).body;
    let narrow = css.split("@media (max-width: 40rem)").nth(1).expect("a phone-width rule");
    assert!(narrow.contains("table.standings thead { display: none; }"), "{css}");
    assert!(narrow.contains("table.standings tr { display: flex; flex-wrap: wrap;"), "{css}");
    assert!(css.contains("td.record { white-space: nowrap; }"), "a record never wraps: {css}");
}
