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

/// The end of the event on the pages: once the last planned round has ended with every result in, the dashboard,
/// the home page, `/me`, the projector, `/standings`, the standings print and `/api/time` say it is over and name
/// the winner; the settings section shows every setting as its control; raising Rounds opens the event again.
#[test]
fn once_the_last_round_is_over_every_page_names_the_winner_and_raising_rounds_opens_it_again() {
    let ev = crate::cards::with_reference();
    ev.run(&["event", "set", "rounds", "1"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["result", "1", "ana", "--by", "concession"]).ok();
    let head = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let (kim, csrf) = page_login(&server, "Kim", &head);
    let page = |path: &str| server.request("GET", path, &[("Cookie", &kim)], "").body;
    // Not over while a result is missing.
    assert!(!page("/").contains("The event is over"));
    assert!(server.get("/api/time").json()["finished"].is_null());
    ev.run(&["result", "2", "cy", "--by", "concession"]).ok();
    // The clock never ran and every result is in: over.
    let time = server.get("/api/time").json();
    assert_eq!(time["finished"]["rounds"], 1, "{time}");
    let winners = time["finished"]["winners"].as_array().cloned().unwrap_or_default();
    assert_eq!(winners.len(), 2, "Ana and Cy, each 1-0 on every tiebreaker, share first: {time}");
    for path in ["/", "/judge", "/me?name=Ana"] {
        let body = page(path);
        assert!(body.contains("The event is over") && body.contains("Ana and Cy share first"), "{path}: {body}");
    }
    assert!(page("/me?name=Ana").contains("You share first place, with 3 points (1-0-0)."));
    assert!(page("/me?name=Bo").contains("You share 3rd place of 4, with 0 points (0-1-0)."));
    assert!(page("/judge").contains("To play another round, raise Rounds in the settings below"));
    let projector = page("/projector");
    assert!(projector.contains("Final standings") && projector.contains("Ana and Cy share first"), "{projector}");
    assert!(page("/standings").contains("<h1>Final standings</h1>"));
    assert!(page("/judge/print/standings").contains("Final standings"));
    // Settings as controls: each setting's plain name and control; no key box.
    let dash = page("/judge");
    assert!(dash.contains("id=\"setting-check-in\"") && dash.contains("<legend>Check-in</legend>"), "{dash}");
    assert!(dash.contains("<label for=\"set-round-minutes\" class=\"name\">Round length</label>"), "{dash}");
    assert!(!dash.contains("placeholder=\"setting"), "no key/value box: {dash}");
    // Raising the rounds setting opens the event again; the round's next step is pairing round 2.
    let body = format!("csrf={csrf}&back=/judge&key=rounds&value=2");
    assert_eq!(server.request("POST", "/api/event/set", &[("Cookie", &kim), FORM], &body).status, 303);
    assert!(server.get("/api/time").json()["finished"].is_null());
    let dash = page("/judge");
    assert!(!dash.contains("The event is over") && dash.contains("Pair the next round"), "{dash}");
    assert!(!page("/standings").contains("Final standings"));
}
