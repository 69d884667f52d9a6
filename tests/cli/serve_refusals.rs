//! Refusals through HTTP name their way out for a phone: what to tap or whom to ask, never a command line. Each
//! class (400, 401, 403, 404, 409) is provoked by an ordinary mistake; the command line keeps naming the command.
//! (Every refusal any HTTP test reads is also checked for `mmjudge ` and backquotes by `serve::Server::request`.)

use crate::harness::Event;
use crate::serve::{Server, judge, page_login, page_text};
use serde_json::json;

fn event() -> Event {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana Souza", "Bo Nilsson", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ana Souza", "Bo Nilsson"), (2, "Cy", "Di")]);
    ev
}

#[test]
fn each_refusal_class_through_http_says_what_to_tap_or_whom_to_ask() {
    let ev = event();
    let head = judge(&ev, "Kim", "head");
    let floor = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);

    // 401: a wrong PIN.
    let wrong = server.post_json("/api/login", None, &json!({ "name": "Kim", "pin": "000000" })).error(401);
    assert_eq!(
        wrong,
        "wrong judge name or PIN: check both; a new PIN replaces the old one: ask the head judge if yours was renewed"
    );
    let token = server.login("Kim", &head);
    let floor_token = server.login("Lee", &floor);

    // 404: a name the event does not hold.
    let who = server.get("/api/me?name=Zed").error(404);
    assert!(who.starts_with("unknown player \"Zed\": closest are "), "{who}");
    assert!(who.ends_with("; check the spelling or ask a judge"), "{who}");

    // 400: minutes that are not a number.
    let extend = json!({ "table": 1, "minutes": "x", "reason": "deck check" });
    let bad = server.post_json("/api/extend", Some(&token), &extend).error(400);
    assert_eq!(bad, "\"x\" is not a number of minutes; give the extra minutes as a number, such as 5");

    // 409: a declaration before the round's clock, a result by time before time is called.
    let note = json!({ "table": 1, "player": "Ana Souza", "cost": "R", "card": "Shock" });
    let early = server.post_json("/api/note", Some(&token), &note).error(409);
    assert_eq!(
        early,
        "round 1 has not started: no card is declared before its clock starts; a head judge starts it with Start the \
         round on the Judges page"
    );
    let by_time = json!({ "table": 1, "by": "time", "life": [12, 9] });
    let time = server.post_json("/api/result", Some(&token), &by_time).error(409);
    assert_eq!(
        time,
        "time has not been called at table 1: round 1's clock has not started; record the result by another reason \
         (a concession, life, ...)"
    );

    // 409: the round started twice; a second result; a fix of a result never recorded.
    server.post_json("/api/round/start", Some(&token), &json!({})).json();
    let again = server.post_json("/api/round/start", Some(&token), &json!({})).error(409);
    assert!(
        again.starts_with("round 1 already started at ") && again.ends_with("; the Clock page shows it"),
        "{again}"
    );
    let result = json!({ "table": 1, "winner": "Ana Souza", "by": "concession" });
    assert_eq!(server.post_json("/api/result", Some(&token), &result).status, 200);
    let twice = server.post_json("/api/result", Some(&token), &result).error(409);
    assert!(twice.starts_with("table 1"), "{twice}");
    assert!(twice.ends_with("; a head judge corrects it with Fix the result on table 1's judge page"), "{twice}");
    let fix = json!({ "table": 2, "winner": "Cy", "by": "concession" });
    let none = server.post_json("/api/result/fix", Some(&token), &fix).error(409);
    assert!(
        none.ends_with("has no result yet; a judge records it with Record result on table 2's judge page"),
        "{none}"
    );

    // 409: closing or pairing past a table still playing; a record id that does not exist; nothing to stop or close.
    let end = server.post_json("/api/round/end", Some(&token), &json!({})).error(409);
    assert_eq!(
        end,
        "round 1 still has 1 table without a result (table 2); a judge records it with Record result on the table's judge \
         page, or a head judge can close it anyway on the Judges page: “End the round…”, then “Yes, end the round anyway”"
    );
    let pair = server.post_json("/api/round/pair", Some(&token), &json!({})).error(409);
    assert_eq!(
        pair,
        "round 1 is still being played: table 2 has no result; a judge records it with Record result on table 2's \
         judge page"
    );
    let void = json!({ "kind": "penalty", "id": 99, "reason": "typo" });
    let missing = server.post_json("/api/void", Some(&token), &void).error(404);
    assert_eq!(missing, "there is no penalty #99; the penalty ids are on the table's judge page");
    let stop = server.post_json("/api/clock/stop", Some(&token), &json!({ "table": 2 })).error(409);
    assert_eq!(stop, "no decision is running at table 2; a decision starts when its player taps Start my decision");
    let close = server.post_json("/api/call/close", Some(&token), &json!({ "table": 2 })).error(409);
    assert_eq!(close, "no judge call is open at table 2 in round 1 (Cy vs Di); the Judges page lists the open calls");

    // 403: a floor judge voiding.
    let forbidden = server.post_json("/api/void", Some(&floor_token), &void).error(403);
    assert!(!forbidden.is_empty());

    // A refused form answers with a page in the same words.
    let (cookie, csrf) = page_login(&server, "Kim", &head);
    let form = format!("csrf={csrf}&back=/judge/table/1&table=1&winner=Ana+Souza&by=concession");
    let headers = [("Cookie", cookie.as_str()), ("Content-Type", "application/x-www-form-urlencoded")];
    let page = server.request("POST", "/api/result", &headers, &form);
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(page_text(&page.body).contains("a head judge corrects it with Fix the result on table 1"), "{}", page.body);

    // The command line keeps naming the command.
    let cli = ev.refuses(&["result", "1", "Ana Souza", "--by", "concession"]);
    assert!(cli.trim_end().ends_with("; correct it with `mmjudge result fix 1 ...`"), "{cli}");
    let cli = ev.refuses(&["round", "end"]);
    assert!(cli.contains("or close the round anyway with `mmjudge round end --force`"), "{cli}");
}

#[test]
fn a_player_on_their_phone_is_told_whom_to_ask() {
    let ev = event();
    let server = Server::start(&ev);
    let code = crate::serve::codes(&ev)["Cy"].clone();
    let declare = json!({ "table": 2, "code": code, "cost": "R", "card": "Shock" });
    let early = server.post_json("/api/note", None, &declare).error(409);
    assert!(early.ends_with("; a head judge starts it with Start the round on the Judges page"), "{early}");
    let me = server.get("/me?name=Zed");
    assert_eq!(me.status, 404);
    assert!(page_text(&me.body).contains("check the spelling or ask a judge"), "{}", me.body);
}

#[test]
fn the_refusals_that_named_flags_and_commands_on_phones_name_the_form_and_the_button() {
    // Pairing round 1 with a player who never checked in: the dashboard's Check in, not the command line's.
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
    ev.fake_libraries(2);
    ev.run(&["event", "set", "check-in", "on"]).ok();
    for name in ["Ana", "Bo", "Cy"] {
        ev.run(&["player", "check-in", name]).ok();
    }
    let head = judge(&ev, "Kim", "head");
    let cli = ev.refuses(&["round", "pair"]);
    assert!(cli.contains("check them in with `mmjudge player check-in Di`, pair those present with"), "{cli}");
    let server = Server::start(&ev);
    let token = server.login("Kim", &head);
    let pair = server.post_json("/api/round/pair", Some(&token), &json!({})).error(409);
    assert!(
        pair.starts_with("round 1 cannot be paired: 1 player has not checked in (Di); a judge checks them in"),
        "{pair}"
    );
    assert!(
        pair.contains("Check in beside their name on the Judges page") && pair.contains("pairs those present"),
        "{pair}"
    );
    drop(server);

    // A contradictory result and a challenge on a finished match: the form's fields and its force box.
    let ev = event();
    ev.run(&["round", "start"]).ok();
    let head = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let token = server.login("Kim", &head);
    let life = json!({ "table": 2, "winner": "Cy", "by": "life", "life": [12, 3] });
    let said = server.post_json("/api/result", Some(&token), &life).error(409);
    assert_eq!(
        said,
        "table 2: a game ended by life means Cy won with Di at 0, but the life totals given are Cy 12 and Di 3: check \
         the totals or why the game ended"
    );
    let cli = ev.refuses(&["result", "2", "Cy", "--by", "life", "--life", "12", "3"]);
    assert!(cli.contains("--by life means Cy won with Di at 0, but --life gives Cy 12 and Di 3"), "{cli}");
    let time = json!({ "table": 2, "by": "time" });
    let said = server.post_json("/api/result", Some(&token), &time).error(409);
    assert!(!said.contains("--"), "{said}");
    let done = json!({ "table": 1, "winner": "Ana Souza", "by": "concession" });
    assert_eq!(server.post_json("/api/result", Some(&token), &done).status, 200);
    let challenge = json!({ "table": 1, "by": "Bo Nilsson", "about": "B1", "ruling": "denied" });
    let late = server.post_json("/api/challenge", Some(&token), &challenge).error(409);
    assert!(
        late.ends_with(
            "a finished match takes no more challenges; tick “Record it although the match has a result (the \
             result stays)” and send it again"
        ),
        "{late}"
    );
    let cli = ev.refuses(&["challenge", "1", "--by", "Bo Nilsson", "--about", "B1", "--ruling", "denied"]);
    assert!(cli.trim_end().ends_with("; add --force to record this one anyway (the result stays)"), "{cli}");
    // The table's judge page offers that box once the match has a result.
    let (cookie, _) = page_login(&server, "Kim", &head);
    let page = server.request("GET", "/judge/table/1", &[("Cookie", cookie.as_str())], "").body;
    let form = page.split("id=\"challenge-form\"").nth(1).and_then(|f| f.split("</form>").next()).unwrap_or_default();
    assert!(form.contains("name=\"force\""), "{form}");
    let forced = json!({ "table": 1, "by": "Bo Nilsson", "about": "B1", "ruling": "denied", "force": true });
    assert_eq!(server.post_json("/api/challenge", Some(&token), &forced).status, 200);
}

/// Pairing round 1 before the set-up is done names the first step of the set-up page still to do, not a player.
#[test]
fn pairing_round_1_before_the_set_up_names_the_first_step_to_do() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
    let head = judge(&ev, "Kim", "head");
    let server = Server::start(&ev);
    let token = server.login("Kim", &head);
    let before = ev.dump();
    let pair = server.post_json("/api/round/pair", Some(&token), &json!({})).error(409);
    assert_eq!(
        pair,
        "round 1 cannot be paired yet: the card reference is not loaded; a head judge does the Card reference step \
         first, on the set-up page (Judges, then Set up the event)"
    );
    assert_eq!(before, ev.dump());
}
