//! `mmjudge serve`: what a head judge corrects from a phone (the round's actions and settings on the dashboard;
//! fix or clear a result and void records on the table page), forms floor judges never see.

use crate::serve::{Server, judge, page_login};

const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

#[test]
fn a_head_judge_runs_the_round_and_changes_a_setting_from_the_dashboard_a_floor_judge_sees_no_such_form() {
    let ev = crate::cards::with_reference();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    let (head, floor) = (judge(&ev, "Kim", "head"), judge(&ev, "Lee", "floor"));
    let server = Server::start(&ev);
    let (kim, kim_csrf) = page_login(&server, "Kim", &head);
    let (lee, lee_csrf) = page_login(&server, "Lee", &floor);
    let dash = server.request("GET", "/judge", &[("Cookie", &kim)], "").body;
    let forms = ["/api/round/pair", "/api/round/start", "/api/round/end", "/api/event/set"];
    // The round is paired and not started: start is the step offered (pair and end follow the round).
    for form in ["/api/round/start", "/api/event/set"] {
        assert!(dash.contains(&format!("action=\"{form}\"")), "{form} for a head judge: {dash}");
    }
    for form in ["/api/round/pair", "/api/round/end"] {
        assert!(!dash.contains(&format!("action=\"{form}\"")), "{form} is not a step now: {dash}");
    }
    let floor_dash = server.request("GET", "/judge", &[("Cookie", &lee)], "").body;
    assert!(forms.iter().all(|f| !floor_dash.contains(f)) && !floor_dash.contains("Head judge"), "{floor_dash}");
    // A floor judge who sends the form anyway: 403, nothing changed.
    let before = ev.dump();
    let refused =
        server.request("POST", "/api/round/start", &[("Cookie", &lee), FORM], &format!("csrf={lee_csrf}&back=/judge"));
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(refused.body.contains("head judge") && refused.body.contains("href=\"/judge\""), "{}", refused.body);
    assert_eq!(ev.dump(), before);
    // The head judge starts the round, back to the dashboard.
    let post = |route: &str, fields: &str| {
        server.request("POST", route, &[("Cookie", &kim), FORM], &format!("csrf={kim_csrf}&back=/judge{fields}"))
    };
    let started = post("/api/round/start", "");
    assert_eq!(started.status, 303, "{}", started.body);
    let back = started.header("location").unwrap_or_default().to_string();
    assert!(back.starts_with("/judge?done="), "back to the dashboard naming what was done: {back}");
    let answered = server.request("GET", &back, &[("Cookie", &kim)], "").body;
    assert!(answered.contains("class=\"done\"") && answered.contains("round 1 started at"), "{answered}");
    let before = ev.dump();
    assert!(ev.refuses(&["round", "start"]).contains("already"), "the round's clock started from the form");
    assert_eq!(ev.dump(), before);
    // Ending with tables unfinished is refused with the rule's words; the force box ends it.
    let before = ev.dump();
    let early = post("/api/round/end", "");
    assert_eq!(early.status, 409, "{}", early.body);
    assert!(early.body.contains("“Yes, end the round anyway”") && !early.body.contains("--"), "{}", early.body);
    assert_eq!(ev.dump(), before);
    assert_eq!(post("/api/round/end", "&force=true").status, 303);
    // A setting changed from the form.
    let set = post("/api/event/set", "&key=round-minutes&value=45");
    assert_eq!(set.status, 409, "round 1 has tables playing: {}", set.body);
    assert!(set.body.contains("round 1 is being played"), "the rule's words: {}", set.body);
    let set = post("/api/event/set", "&key=round-minutes&value=45&force=true");
    assert_eq!(set.status, 303, "{}", set.body);
    assert!(ev.run(&["event", "show"]).ok().contains("45"), "round-minutes changed");
    // Its Done line says what the forced change does, in the page's words (no flag).
    let back = set.header("location").expect("back").to_string();
    let page = server.request("GET", &back, &[("Cookie", &kim)], "").body;
    let done = page.lines().find(|l| l.contains("class=\"done\"")).unwrap_or_default();
    assert!(
        done.contains("Round length: 50 minutes → 45 minutes; round 1 is being played") && !done.contains("--"),
        "{done}"
    );
    // The pairing form: the round ended, results in.
    ev.run(&["result", "1", "ana", "--round", "1", "--by", "concession"]).ok();
    ev.run(&["result", "2", "cy", "--round", "1", "--by", "concession"]).ok();
    let before_pair = ev.dump();
    let refused = post("/api/round/pair", "");
    assert!(refused.status == 409 && refused.body.contains("no libraries are built"), "{}", refused.body);
    // (The pairing form reaches the pairing itself: its refusal here is the rule's, shown on the page.)
    assert_eq!(ev.dump(), before_pair);
}

#[test]
fn a_head_judge_fixes_clears_and_voids_at_the_table_a_floor_judge_sees_no_such_form() {
    let ev = crate::cards::with_reference();
    ev.seat_round(1, &[(1, "Ana", "Bo")]);
    ev.run(&["round", "start"]).ok();
    ev.run(&["note", "1", "ana", "B1", "Demonic Tutor"]).ok();
    ev.run(&["ruling", "1", "Bo may not take back the attack"]).ok();
    ev.run(&["penalty", "bo", "slow play"]).ok();
    ev.run(&["round", "extend", "1", "3", "--reason", "deck check"]).ok();
    ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    let (head, floor) = (judge(&ev, "Kim", "head"), judge(&ev, "Lee", "floor"));
    let server = Server::start(&ev);
    let (kim, csrf) = page_login(&server, "Kim", &head);
    let (lee, _) = page_login(&server, "Lee", &floor);
    let page = server.request("GET", "/judge/table/1", &[("Cookie", &kim)], "").body;
    for form in ["/api/result/fix", "/api/result/clear", "/api/void"] {
        assert!(page.contains(&format!("action=\"{form}\"")), "{form}: {page}");
    }
    for kind in ["note", "ruling", "penalty", "extension"] {
        assert!(page.contains(&format!("name=\"kind\" value=\"{kind}\"")), "a void button for the {kind}: {page}");
    }
    let floor_page = server.request("GET", "/judge/table/1", &[("Cookie", &lee)], "").body;
    assert!(!floor_page.contains("/api/void") && !floor_page.contains("/api/result/fix"), "{floor_page}");
    let post = |route: &str, fields: &str| {
        let body = format!("csrf={csrf}&back=/judge/table/1&table=1{fields}");
        server.request("POST", route, &[("Cookie", &kim), FORM], &body)
    };
    // Void the ruling with a reason: back to the table page, shown as void.
    let ruling = ev.run(&["--json", "rulings"]).json()["rulings"][0]["id"].as_i64().expect("ruling id");
    // (The void form sends no table: bodies name only their route's fields.)
    let body = format!("csrf={csrf}&back=/judge/table/1&kind=ruling&id={ruling}&reason=wrong+table");
    let voided = server.request("POST", "/api/void", &[("Cookie", &kim), FORM], &body);
    assert_eq!(voided.status, 303, "{}", voided.body);
    assert!(voided.header("location").is_some_and(|l| l.starts_with("/judge/table/1?done=")), "{:?}", voided.headers);
    assert!(ev.run(&["--json", "rulings"]).json()["rulings"][0]["voided"].is_object(), "voided");
    // Fix the result, then clear it.
    let fixed = post("/api/result/fix", "&winner=Bo&by=life&life=0%2C4");
    assert_eq!(fixed.status, 303, "{}", fixed.body);
    assert!(ev.run(&["results"]).ok().contains("Bo"), "fixed to Bo");
    assert_eq!(post("/api/result/clear", "").status, 303);
    let after = server.request("GET", "/judge/table/1", &[("Cookie", &kim)], "").body;
    assert!(!after.contains("action=\"/api/result/fix\""), "no result to fix once cleared: {after}");
}
