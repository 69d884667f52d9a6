//! The set-up link's routes on an event that exists (not started with `serve --new`): the page goes to the
//! judges' dashboard, and `POST /api/setup` is refused whatever it carries.

use super::{Req, Site, case};
use serde_json::json;

#[test]
fn an_event_that_exists_takes_no_set_up() {
    let site = Site::paired();
    let page = site.send(Req::get("/setup"));
    assert_eq!(page.status, 303, "{}", page.body);
    assert_eq!(page.header("location"), Some("/login?setup=done"));
    // The login page says why it is shown: the link was used.
    let login = site.send(Req::get("/login?setup=done")).body;
    assert!(login.contains("This event is set up already: a set-up link works once."), "{login}");
    let body = json!({ "token": "0".repeat(32), "event": "X", "rounds": 3, "head_judge": "Eve" });
    site.refusals(vec![case(Req::post("/api/setup").json(body), 409, "set up already")]);
}

#[test]
fn the_steps_before_round_1_are_for_head_judges_and_refused_in_the_web_words() {
    let site = Site::paired();
    let (kim, lee) = site.judges();
    let file = "name,count\nAbrade,1\n";
    let mut cases = Vec::new();
    for route in [
        "/api/cards/import",
        "/api/cards/import-rulings",
        "/api/pool/import",
        "/api/player/import",
        "/api/library/register?player=Ana",
    ] {
        cases.push(case(Req::post(route).raw("text/csv", file).by(&lee), 403, "head judges"));
    }
    for (route, body) in [
        ("/api/pool/exclude", json!({ "name": "Abrade" })),
        ("/api/pool/include", json!({ "name": "Abrade" })),
        ("/api/pool/watch/add", json!({ "name": "Abrade", "note": "x" })),
        ("/api/pool/watch/remove", json!({ "name": "Abrade" })),
        ("/api/ban/add", json!({ "name": "Abrade", "group": "too-powerful" })),
        ("/api/ban/remove", json!({ "name": "Abrade" })),
        ("/api/library/build", json!({ "tables": 2 })),
        ("/api/library/swap", json!({ "library": "1A", "out": "Abrade", "in": "Absorb" })),
    ] {
        cases.push(case(Req::post(route).json(body).by(&lee), 403, "head judges"));
    }
    cases.push(case(Req::get("/api/job/1").by(&lee), 403, "head judges"));
    cases.push(case(Req::get("/judge/setup").by(&lee), 403, "head judges"));
    // The head judge: no file, a field the route does not take, a build of nothing, a job never started.
    cases.push(case(Req::post("/api/player/import").raw("text/csv", "").by(&kim), 400, "no file was sent"));
    cases.push(case(Req::post("/api/pool/import?allow=1").raw("text/csv", file).by(&kim), 400, "allow"));
    cases.push(case(Req::post("/api/library/build").json(json!({ "tables": 0 })).by(&kim), 400, "tables 0"));
    cases.push(case(Req::get("/api/job/77").by(&kim), 404, "no job 77"));
    site.refusals(cases);
}

#[test]
fn a_card_the_reference_does_not_know_is_watched_or_banned_with_force_in_the_web_words() {
    let site = Site::paired();
    let (kim, _) = site.judges();
    site.ev.run(&["cards", "import", &crate::harness::example("cards.csv")]).ok();
    // The refusal's way out is the form's force, never the command line's flag (the check of every refusal
    // line fails on `--force`).
    site.refusals(vec![
        case(
            Req::post("/api/pool/watch/add").json(json!({ "name": "Xyzzy Nonesuch" })).by(&kim),
            404,
            "tick “The reference does not know it: watch it anyway” and send it again",
        ),
        case(
            Req::post("/api/ban/add").json(json!({ "name": "Abrad", "group": "too-powerful" })).by(&kim),
            404,
            "tick “The reference does not know it: ban it anyway” and send it again",
        ),
    ]);
}
