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
    assert!(a.error(400).contains("Content-Type: application/json"), "{}", a.body);
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
