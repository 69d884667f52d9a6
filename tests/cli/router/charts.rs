//! The judges' pages that draw (#47): the slow-play page `GET /judge/decisions[?player=NAME]`, linked from the
//! dashboard, and the table page's decisions.

use super::{Actor, Req, Site, case};

/// A floor judge's page cookie, after Ana's and Bo's decisions at table 1.
fn timed_site() -> (Site, Actor) {
    let site = Site::playing();
    for who in ["ana", "bo", "ana"] {
        site.ev.run(&["clock", "1", "--start", who]).ok();
        site.ev.run(&["clock", "1", "--stop"]).ok();
    }
    let (_, lee) = site.judges();
    let Actor::Bearer(token) = &lee else { unreachable!() };
    (site, Actor::Cookie(token.clone()))
}

#[test]
fn the_slow_play_page_ranks_and_draws_each_players_decisions() {
    let (site, lee) = timed_site();
    let all = site.send(Req::get("/judge/decisions").by(&lee));
    assert_eq!(all.status, 200, "{}", all.body);
    assert!(all.body.contains("<h1>Slow play</h1>") && all.body.contains("class=\"ranking\""), "{}", all.body);
    assert_eq!(all.body.matches("<section class=\"player-decisions\"").count(), 2, "Ana and Bo are drawn");
    assert_eq!(all.body.matches("<g data-value=").count(), 3, "every decision is a mark");
    assert!(all.body.contains("href=\"/judge/decisions?player=Ana\""), "names link to their own chart");
    assert!(!all.body.contains(" style="), "no style attribute: the pages' CSP allows none");
    let one = site.send(Req::get("/judge/decisions?player=an").by(&lee));
    assert_eq!(one.status, 200, "{}", one.body);
    assert_eq!(one.body.matches("<section class=\"player-decisions\"").count(), 1);
    assert!(one.body.contains("Ana&#39;s decisions against their limits"), "{}", one.body);
    assert_eq!(one.body.matches("<g data-value=").count(), 2);
    site.refusals(vec![
        case(Req::get("/judge/decisions?player=Zed").by(&lee), 404, "unknown player"),
        case(Req::get("/judge/decisions?player=a&player=b").by(&lee), 400, "player"),
    ]);
    let out = site.send(Req::get("/judge/decisions"));
    assert_eq!((out.status, out.header("location")), (303, Some("/login")));
}

#[test]
fn the_dashboard_links_the_slow_play_page_and_the_table_page_draws_its_decisions() {
    let (site, lee) = timed_site();
    let dash = site.send(Req::get("/judge").by(&lee));
    assert!(dash.body.contains("href=\"/judge/decisions\""), "{}", dash.body);
    let table = site.send(Req::get("/judge/table/1").by(&lee));
    assert_eq!(table.status, 200, "{}", table.body);
    assert!(table.body.contains("Ana&#39;s decisions at this table"), "{}", table.body);
    assert!(table.body.contains("Bo&#39;s decisions at this table"), "{}", table.body);
    assert_eq!(table.body.matches("<g data-value=").count(), 3);
    let other = site.send(Req::get("/judge/table/2").by(&lee));
    assert!(!other.body.contains("<g data-value="), "table 2 took no decision");
}

#[test]
fn the_dashboard_draws_the_rounds_progress_and_names_the_tables_still_playing() {
    let (site, lee) = timed_site();
    let dash = site.send(Req::get("/judge").by(&lee));
    assert!(
        dash.body.contains("<h2>The round&#39;s progress</h2>") || dash.body.contains("<h2>The round's progress</h2>")
    );
    assert!(dash.body.contains("Round 1: tables finished"), "{}", dash.body);
    assert!(words(&dash.body).contains("Still playing: table 1 (Ana – Bo), table 2 (Cy – Di)."), "{}", dash.body);
    assert_eq!(dash.body.matches("data-minutes=").count(), 1, "table 3's result is the one point");
    assert!(dash.body.contains("data-marks=\"time\"") && dash.body.contains("data-marks=\"now\""));
    let paired = Site::paired();
    let (_, lee) = paired.judges();
    let Actor::Bearer(token) = &lee else { unreachable!() };
    let before = paired.send(Req::get("/judge").by(&Actor::Cookie(token.clone())));
    assert!(!before.body.contains("tables finished"), "no progress before the round's clock starts");
}

#[test]
fn the_standings_over_rounds_are_a_page_of_their_own_linked_from_the_standings() {
    let site = Site::playing();
    let none = site.send(Req::get("/standings/rounds"));
    assert_eq!(none.status, 200, "{}", none.body);
    assert!(none.body.contains("No round has been played to the end yet."), "{}", none.body);
    for t in [1, 2] {
        site.ev.run(&["result", &t.to_string(), "draw", "--by", "intentional-draw"]).ok();
    }
    let standings = site.send(Req::get("/standings"));
    assert!(standings.body.contains("href=\"/standings/rounds\""), "{}", standings.body);
    assert!(!standings.body.contains("<svg"), "/standings draws nothing: a phone loads no chart it did not open");
    let all = site.send(Req::get("/standings/rounds"));
    assert_eq!(all.status, 200, "{}", all.body);
    assert_eq!(all.body.matches("<g data-player=").count(), 6, "{}", all.body);
    assert!(all.body.contains("Points by round after round 1") && !all.body.contains(" style="), "{}", all.body);
    let one = site.send(Req::get("/standings/rounds?player=fy"));
    assert!(one.body.contains("stroke-dasharray=\"6 3\""), "the player found is dashed: {}", one.body);
    site.refusals(vec![case(Req::get("/standings/rounds?player=Zed"), 404, "unknown player")]);
}

#[test]
fn the_projector_draws_the_rounds_progress_as_the_dashboard_does() {
    let (site, _) = timed_site();
    let wall = site.send(Req::get("/projector"));
    assert_eq!(wall.status, 200, "{}", wall.body);
    assert!(wall.body.contains("<div class=\"progress\" id=\"progress\">"), "{}", wall.body);
    assert!(wall.body.contains("Round 1: tables finished"), "{}", wall.body);
    assert!(words(&wall.body).contains("Still playing: table 1 (Ana – Bo), table 2 (Cy – Di)."), "{}", wall.body);
    assert!(wall.body.contains("<span data-table=\"1\">table 1 (Ana – Bo)</span>"), "the page can take a table off");
    assert_eq!(wall.body.matches("data-minutes=").count(), 1, "table 3's result is the one point");
    assert!(!wall.body.contains("style="), "the projector's CSP allows no style attribute");
    let api = site.send(Req::get("/api/projector"));
    assert!(!api.body.contains("progress"), "the projector's JSON stays as it was: {}", api.body);
    let paired = Site::paired();
    let before = paired.send(Req::get("/projector"));
    assert!(!before.body.contains("id=\"progress\""), "no progress before the round's clock starts");
}

#[test]
fn me_holds_a_players_decisions_behind_a_disclosure_loaded_when_opened() {
    let (site, _) = timed_site();
    let me = site.send(Req::get("/me?name=ana"));
    assert_eq!(me.status, 200, "{}", me.body);
    assert!(me.body.contains("<details class=\"mine\" data-load=\"/me/decisions?name=Ana\">"), "{}", me.body);
    assert!(!me.body.contains("<svg"), "/me draws nothing itself: the chart is loaded when opened");
    let mine = site.send(Req::get("/me/decisions?name=an"));
    assert_eq!(mine.status, 200, "{}", mine.body);
    assert!(mine.body.contains("Ana&#39;s decisions against their limits"), "{}", mine.body);
    assert_eq!(mine.body.matches("<g data-value=").count(), 2, "Ana's two decisions, not Bo's");
    assert!(mine.body.contains("<div data-loaded>") && !mine.body.contains(" style="));
    let none = site.send(Req::get("/me/decisions?name=cy"));
    assert!(none.body.contains("No decision of yours has been timed yet."), "{}", none.body);
    site.refusals(vec![
        case(Req::get("/me/decisions?name=Zed"), 404, "unknown player"),
        case(Req::get("/me/decisions"), 400, "name"),
    ]);
}

/// A page's text without its tags (a list the page edits is marked up item by item).
fn words(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}
