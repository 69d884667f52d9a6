//! The pages and the JSON reads: a bad query (400), a table, player or round that is not there (404), an
//! address that names nothing (404), a judge's page without a login (to the login page).

use super::{Actor, Req, Site, case};

#[test]
fn pages_refuse_a_bad_query_and_what_is_not_there_in_a_page() {
    let site = Site::playing();
    let (_, lee) = site.judges();
    let Actor::Bearer(token) = &lee else { unreachable!() };
    let cookie = Actor::Cookie(token.clone());
    site.refusals(vec![
        case(Req::get("/nope"), 404, "no page /nope"),
        case(Req::get("/judge/nope"), 404, "no page /judge/nope"),
        case(Req::get("/me?name=Zed"), 404, "unknown player"),
        case(Req::get("/clock?table=x"), 400, "not a table number"),
        case(Req::get("/clock?table=9"), 404, "no table 9"),
        case(Req::get("/pairings?round=x"), 400, "round"),
        case(Req::get("/pairings?round=9"), 404, "round 9"),
        case(Req::get("/standings?round=x"), 400, "round"),
        case(Req::get("/standings?round=9"), 404, "round 9"),
        case(Req::get("/table/x"), 400, "not a table number"),
        case(Req::get("/table/9"), 404, "table 9"),
        case(Req::get("/judge/table/x").by(&cookie), 400, "not a table number"),
        case(Req::get("/judge/table/9").by(&cookie), 404, "table 9"),
        case(Req::get("/login?name=a&name=b"), 400, "name"),
        case(Req::post("/me"), 405, "refused"),
    ]);
}

#[test]
fn judges_pages_without_a_login_go_to_the_login_page() {
    let site = Site::playing();
    for path in ["/judge", "/judge/table/1", "/judge/table/9"] {
        let a = site.send(Req::get(path));
        assert_eq!((a.status, a.header("location")), (303, Some("/login")), "{path}: {}", a.body);
        let stale = site.send(Req::get(path).by(&Actor::Cookie("0".repeat(64))));
        assert_eq!((stale.status, stale.header("location")), (303, Some("/login")), "{path}: {}", stale.body);
        assert!(stale.header("set-cookie").is_some_and(|c| c.contains("Max-Age=0")), "a stale cookie is cleared");
    }
    for path in ["/", "/me", "/pairings", "/clock", "/projector", "/standings", "/login", "/table/1"] {
        let a = site.send(Req::get(path));
        assert_eq!(a.status, 200, "{path}: {}", a.body);
    }
    assert_eq!(site.send(Req::get("/favicon.ico")).status, 204);
}

#[test]
fn api_reads_refuse_a_bad_query_and_what_is_not_there_in_json() {
    let site = Site::playing();
    site.refusals(vec![
        case(Req::get("/api"), 404, "no page /api"),
        case(Req::get("/api/nope"), 404, "no page /api/nope"),
        case(Req::get("/api/table/1/nope"), 404, "no page /api/table/1/nope"),
        case(Req::get("/api/me"), 400, "give your name"),
        case(Req::get("/api/me?name=Zed"), 404, "unknown player"),
        case(Req::get("/api/standings?round=x"), 400, "round"),
        case(Req::get("/api/standings?round=9"), 404, "round 9"),
        case(Req::get("/api/pairings?round=x"), 400, "round"),
        case(Req::get("/api/pairings?round=9"), 404, "round 9"),
        case(Req::get("/api/results?round=-1"), 400, "round"),
        case(Req::get("/api/results?round=9"), 404, "round 9"),
        case(Req::get("/api/table/x/notes"), 400, "not a table number"),
        case(Req::get("/api/table/9/notes"), 404, "table 9"),
        case(Req::get("/api/cards/cost"), 400, "give the printed cost"),
        case(Req::get("/api/cards/cost?cost=Q7"), 400, "Q7"),
        case(Req::get("/api/cards/cost?cost=B1&table=x"), 400, "not a table number"),
        case(Req::get("/api/cards/cost?cost=B1&letter=xy"), 400, "letter"),
        case(Req::get("/api/judge"), 401, "not logged in"),
        case(Req::get("/api/result"), 405, "refused"),
        case(Req::get("/api/judge").by(&Actor::Bearer("0".repeat(64))), 401, "log in"),
    ]);
    for path in ["/api/time", "/api/tables", "/api/me?name=ana", "/api/projector", "/api/standings", "/api/results"] {
        let a = site.send(Req::get(path));
        assert_eq!(a.status, 200, "{path}: {}", a.body);
    }
}

#[test]
fn a_name_matching_several_players_is_refused_on_the_page_and_in_json() {
    let site = Site::playing();
    site.ev.run(&["player", "add", "Anabel"]).ok();
    site.refusals(vec![
        case(Req::get("/me?name=an"), 400, "matches several players"),
        case(Req::get("/api/me?name=an"), 400, "matches several players"),
    ]);
}
