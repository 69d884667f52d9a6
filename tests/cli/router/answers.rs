//! What judges get: an answer on the page for every form (`?done=ID`, in the web's words, what the tool decided
//! by itself included), the table's history, the infractions list and the penalty the guide gives before sending,
//! the head judge's round steps, the table's decision clock, and the table rules from the web (a void of an
//! earlier round, a declaration after a result, a judge's note at a moment).

use super::{Actor, Req, Site, case, names_a_command};
use serde_json::json;

/// A judge's cookie session and its form token, read from the dashboard.
fn cookie_of(site: &Site, who: &Actor) -> (Actor, String) {
    let Actor::Bearer(token) = who else { unreachable!() };
    let cookie = Actor::Cookie(token.clone());
    let page = site.send(Req::get("/judge").by(&cookie)).body;
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).and_then(|s| s.split('"').next()).expect("a form token");
    (cookie, csrf.to_string())
}

/// A form posted from a judge's page; the address it goes back to.
#[track_caller]
fn form(site: &Site, (cookie, csrf): &(Actor, String), path: &str, fields: &str) -> String {
    let a = site.send(Req::post(path).form(&format!("csrf={csrf}&{fields}")).by(cookie));
    assert_eq!(a.status, 303, "{path} {fields}: {}", a.body);
    a.header("location").expect("back to the page").to_string()
}

#[test]
fn a_penalty_form_goes_back_naming_its_outcome_and_the_page_shows_the_upgrade_until_the_next_action() {
    let site = Site::playing();
    let (_, lee) = site.judges();
    let floor = cookie_of(&site, &lee);
    let back = form(&site, &floor, "/api/penalty", "back=/judge/table/1&table=1&player=Bo&infraction=slow-play");
    assert!(back.starts_with("/judge/table/1?done="), "{back}");
    let page = site.send(Req::get(&back).by(&floor.0)).body;
    assert!(page.contains("class=\"done\"") && page.contains("Warning for Slow Play to Bo"), "{page}");
    // The second: the guide upgrades it to a Game Loss, which ends the match; the page says so.
    let back = form(&site, &floor, "/api/penalty", "back=/judge/table/1&table=1&player=Bo&infraction=slow-play");
    let page = site.send(Req::get(&back).by(&floor.0)).body;
    let done = page.split("class=\"done\"").nth(1).and_then(|s| s.split("</p>").next()).unwrap_or_default();
    assert!(done.contains("Game Loss") && done.contains("upgraded to Game Loss"), "{done}");
    assert!(done.contains("the match is over"), "what the tool decided by itself: {done}");
    // A live refresh re-reads the same address: the answer stays; the table page alone shows none.
    assert_eq!(site.send(Req::get(&back).by(&floor.0)).body.matches("class=\"done\"").count(), 1);
    assert!(!site.send(Req::get("/judge/table/1").by(&floor.0)).body.contains("class=\"done\""));
    // A third, with the match over: the answer says a head judge may fix it, in the web's words.
    let third =
        site.send(Req::post("/api/penalty").json(json!({ "player": "bo", "infraction": "slow play" })).by(&lee));
    assert_eq!(third.status, 200, "{}", third.body);
    let summary = third.json()["summary"].as_str().unwrap_or_default().to_string();
    assert!(summary.contains("a head judge may fix the result on the table's page"), "{summary}");
    assert!(!names_a_command(&summary), "{summary}");
    // The command line's audit line keeps its own words.
    assert!(site.ev.run(&["log"]).ok().contains("use `mmjudge result fix 1 --round 1` if needed"));
    // An address naming no entry shows nothing.
    assert!(!site.send(Req::get("/judge/table/1?done=99999").by(&floor.0)).body.contains("class=\"done\""));
    assert!(!site.send(Req::get("/judge?done=x").by(&floor.0)).body.contains("class=\"done\""));
}

#[test]
fn the_table_page_lists_its_history_and_the_infractions_and_the_guide_previews_the_penalty() {
    let site = Site::playing();
    let (_, lee) = site.judges();
    let floor = cookie_of(&site, &lee);
    let ask = |q: &str| site.send(Req::get(&format!("/api/penalty/preview?{q}")).by(&lee));
    let first = ask("player=bo&infraction=slow-play");
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.json()["words"], "1st Slow Play in this event: Warning");
    form(&site, &floor, "/api/penalty", "back=/judge/table/1&table=1&player=Bo&infraction=slow-play");
    let second = ask("player=Bo&infraction=slow").json();
    assert_eq!(
        (second["words"].as_str(), second["penalty"].as_str()),
        (Some("2nd Slow Play in this event: Game Loss"), Some("game-loss"))
    );
    assert_eq!(ask("player=ana&infraction=slow-play").json()["words"], "1st Slow Play in this event: Warning");
    site.refusals(vec![
        case(Req::get("/api/penalty/preview?player=bo&infraction=slow-play"), 401, "not logged in"),
        case(Req::get("/api/penalty/preview?player=bo&infraction=nope").by(&lee), 400, "nope"),
        case(Req::get("/api/penalty/preview?player=zed&infraction=slow-play").by(&lee), 404, "zed"),
        case(Req::get("/api/penalty/preview?player=bo").by(&lee), 400, "infraction"),
    ]);
    let page = site.send(Req::get("/judge/table/1").by(&floor.0)).body;
    assert!(
        page.contains("<select name=\"infraction\"") && page.contains("<option value=\"slow-play\">Slow Play</option>")
    );
    assert!(page.contains("id=\"penalty-preview\""), "{page}");
    let history = page.split("id=\"history\"").nth(1).and_then(|s| s.split("</section>").next()).unwrap_or_default();
    assert!(history.contains("Warning for Slow Play to Bo"), "{history}");
    assert!(history.contains("<s><small>#1") && history.contains("Bo may not take back the attack</s>"), "{history}");
    assert!(history.contains("Ana must reveal the declared card"), "{history}");
    assert!(history.contains("Bo challenged"), "{history}");
    assert!(history.contains("<strong>Ana</strong>: none"), "{history}");
    assert!(!names_a_command(history), "{history}");
}

#[test]
fn a_head_judge_is_offered_the_steps_the_round_allows() {
    let paired = Site::paired();
    let (kim, lee) = paired.judges();
    let head = cookie_of(&paired, &kim);
    let dash = paired.send(Req::get("/judge").by(&head.0)).body;
    assert!(dash.contains("Round 1 is paired; its clock has not started."), "{dash}");
    assert!(dash.contains("action=\"/api/round/start\"") && !dash.contains("action=\"/api/round/end\""), "{dash}");
    assert!(!dash.contains("action=\"/api/round/pair\""), "{dash}");
    let back = form(&paired, &head, "/api/round/start", "back=/judge");
    let dash = paired.send(Req::get(&back).by(&head.0)).body;
    assert!(dash.contains("Done: round 1 started at"), "{dash}");
    assert!(dash.contains("action=\"/api/round/end\"") && !dash.contains("action=\"/api/round/start\""), "{dash}");
    // End asks to confirm, listing the tables without a result, with force on that confirmation.
    let confirm = dash.split("id=\"end-round\"").nth(1).and_then(|s| s.split("</details>").next()).unwrap_or_default();
    assert!(
        confirm.contains("table 1</a>, <a href=\"/judge/table/2\">table 2</a>, <a href=\"/judge/table/3\">table 3"),
        "{confirm}"
    );
    assert!(
        confirm.contains("name=\"force\" value=\"true\"") && confirm.contains("stay without a result"),
        "{confirm}"
    );
    let back = form(&paired, &head, "/api/round/end", "back=/judge&force=true");
    let dash = paired.send(Req::get(&back).by(&head.0)).body;
    let done = dash.split("class=\"done\"").nth(1).and_then(|s| s.split("</p>").next()).unwrap_or_default();
    assert!(done.contains("no result yet") && done.contains("record each on its table"), "{done}");
    assert!(!names_a_command(done), "{done}");
    assert!(dash.contains("Round 1 is over: pair round 2 next.") && dash.contains("action=\"/api/round/pair\""));
    let floor = cookie_of(&paired, &lee);
    assert!(!paired.send(Req::get("/judge").by(&floor.0)).body.contains("Round 1 is over: pair"));
}

#[test]
fn the_round_end_and_a_no_show_answer_in_the_webs_words() {
    let site = Site::playing();
    let (kim, lee) = site.judges();
    let shown =
        site.send(Req::post("/api/result").json(json!({ "table": 1, "winner": "Ana", "by": "no-show" })).by(&lee));
    assert_eq!(shown.status, 200, "{}", shown.body);
    let summary = shown.json()["summary"].as_str().unwrap_or_default().to_string();
    assert!(
        summary.contains("Bo did not show and is dropped") && summary.contains("a head judge can take the drop back")
    );
    assert!(!names_a_command(&summary), "{summary}");
    let ended = site.send(Req::post("/api/round/end").json(json!({ "force": true })).by(&kim));
    assert_eq!(ended.status, 200, "{}", ended.body);
    let summary = ended.json()["summary"].as_str().unwrap_or_default().to_string();
    assert!(summary.contains("time called at table 2: no result yet (record each on its table's page)"), "{summary}");
    assert!(!names_a_command(&summary), "{summary}");
}

#[test]
fn the_web_keeps_the_table_rules_a_void_of_an_earlier_round_a_declaration_after_a_result_a_note_at_a_moment() {
    let site = Site::playing();
    let (kim, lee) = site.judges();
    // A judge's note at a moment, as --at.
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let noted = site.send(
        Req::post("/api/note")
            .json(json!({ "table": 1, "player": "ana", "cost": "B1", "card": "Demonic Tutor", "at": now }))
            .by(&lee),
    );
    assert_eq!(noted.status, 200, "{}", noted.body);
    site.refusals(vec![
        case(
            Req::post("/api/note")
                .json(json!({ "table": 1, "player": "ana", "cost": "B1", "card": "Vampiric Tutor", "at": "soon" }))
                .by(&lee),
            400,
            "soon",
        ),
        // A player's declaration once the match has a result.
        case(
            Req::post("/api/note")
                .json(json!({ "table": 3, "code": site.code("Ed"), "cost": "B1", "card": "Demonic Tutor" })),
            409,
            "already has a result",
        ),
    ]);
    // A record of round 1 voided while round 2 is played: 409 naming the round, unless forced.
    site.ev.run(&["round", "end", "--force"]).ok();
    site.ev.seat_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Di")]);
    site.refusals(vec![case(
        Req::post("/api/void").json(json!({ "kind": "ruling", "id": 2, "reason": "typo" })).by(&kim),
        409,
        "record of round 1",
    )]);
    let forced = site.send(Req::post("/api/void").json(json!({ "kind": "ruling", "id": 2, "force": true })).by(&kim));
    assert_eq!(forced.status, 200, "{}", forced.body);
}

#[test]
fn the_tables_device_shows_the_round_time_the_final_window_and_one_clock_button_per_player() {
    let site = Site::playing();
    let page = site.send(Req::get("/table/1")).body;
    assert!(page.contains("class=\"roundtime\""), "{page}");
    assert!(page.contains("decisions: ") && page.contains(" s decisions</span>"), "{page}");
    assert_eq!(page.matches("class=\"dbig\"").count(), 2, "{page}");
    assert!(!page.contains("data-tap=\"hand-over\">Hand over"), "{page}");
}

#[test]
fn keeping_a_player_at_a_table_from_the_players_page_and_letting_them_go_with_an_empty_table() {
    let site = Site::playing();
    site.ev.fake_libraries(3);
    let (kim, _) = site.judges();
    let head = cookie_of(&site, &kim);
    let back = form(&site, &head, "/api/player/seat", "back=/judge/players&name=Ana&table=2");
    let page = site.send(Req::get(&back).by(&head.0)).body;
    assert!(page.contains("Ana stays at table 2") && page.contains("stays at table 2</small>"), "{page}");
    assert!(page.contains("Let Ana move with the others again"), "{page}");
    let back = form(&site, &head, "/api/player/seat", "back=/judge/players&name=Ana&table=");
    let page = site.send(Req::get(&back).by(&head.0)).body;
    assert!(page.contains("Ana no longer stays at table 2") && !names_a_command(&page), "{page}");
}

/// The result and penalty forms start with nobody chosen, and a result or a penalty that names nobody is
/// refused on the page's form and on the JSON route alike: nothing is recorded for seat A by default. The
/// life totals are asked by each player's name.
#[test]
fn a_result_or_a_penalty_naming_nobody_is_refused_on_the_form_and_the_json_route() {
    let site = Site::playing();
    let (kim, lee) = site.judges();
    let floor = cookie_of(&site, &lee);
    let page = site.send(Req::get("/judge/table/1").by(&floor.0)).body;
    assert!(page.contains("<option value=\"\" selected disabled>who won?</option>"), "{page}");
    assert!(page.contains("<option value=\"\" selected disabled>whose penalty?</option>"), "{page}");
    assert!(page.contains("Ana's life <input name=\"life_a\"") && page.contains("Bo's life <input name=\"life_b\""));
    let before = site.ev.dump();
    let (cookie, csrf) = &floor;
    let sent = |path: &str, fields: &str| site.send(Req::post(path).form(&format!("csrf={csrf}&{fields}")).by(cookie));
    let refused = sent("/api/result", "back=/judge/table/1&table=1&by=concession");
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(super::page_message(&refused.body).contains("name the winner (Ana or Bo"), "{}", refused.body);
    let refused = sent("/api/result", "back=/judge/table/1&table=1&winner=&by=life&life_a=0&life_b=7");
    assert_eq!(refused.status, 409, "{}", refused.body);
    let refused = sent("/api/penalty", "back=/judge/table/1&table=1&player=&infraction=slow-play");
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(super::page_message(&refused.body).contains("choose the player who is penalised"), "{}", refused.body);
    site.refusals(vec![
        case(Req::post("/api/result").json(json!({ "table": 1, "by": "life" })).by(&kim), 409, "name the winner"),
        case(
            Req::post("/api/penalty").json(json!({ "table": 1, "infraction": "slow play" })).by(&kim),
            400,
            "choose the player who is penalised",
        ),
    ]);
    assert_eq!(before, site.ev.dump(), "nothing was recorded");
    // Each player's life total by name: seat A's and seat B's.
    let back = form(&site, &floor, "/api/result", "back=/judge/table/1&table=1&winner=Bo&by=life&life_a=0&life_b=7");
    let page = site.send(Req::get(&back).by(&floor.0)).body;
    assert!(page.contains("Bo won"), "{page}");
    assert!(page.contains("Only a head judge can fix it"), "a floor judge is told who fixes it: {page}");
    let (head, head_csrf) = cookie_of(&site, &kim);
    let fix = "back=/judge/table/1&table=1&winner=Bo&by=life&life_a=0";
    let one_total = site.send(Req::post("/api/result/fix").form(&format!("csrf={head_csrf}&{fix}")).by(&head));
    assert_eq!(one_total.status, 400, "{}", one_total.body);
    assert!(super::page_message(&one_total.body).contains("give both players' totals"), "{}", one_total.body);
}
