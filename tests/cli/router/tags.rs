//! Every read of the routes table that takes an ETag is tagged by its handler, from what its answer was built
//! from (no layer reads a body to hash it), and answers 304 to a phone that names that tag.

use super::{Req, Site};

/// What a read needs beside its address to answer 200.
const QUERIES: [(&str, &str); 3] = [
    ("/api/me", "?name=Ana"),
    ("/api/penalty/preview", "?player=Ana&infraction=slow-play"),
    ("/api/cards/cost", "?cost=B1"),
];

#[test]
fn every_read_that_takes_an_etag_is_tagged_by_its_handler_and_answers_304_to_it() {
    let site = Site::playing();
    let (head, _) = site.judges();
    let cookie = site.login("Kim", &site.people.kim);
    let mut tagged = Vec::new();
    for route in mmjudge::web::routes::routes().iter().filter(|r| r.etag) {
        if route.path.contains("{file}") || route.path.contains("{id}") {
            continue; // the assets (named by their hash, kept for good) and a job of this server's memory
        }
        let query = QUERIES.iter().find(|(p, _)| *p == route.path).map(|(_, q)| *q).unwrap_or("");
        let path = format!("{}{query}", route.path.replace("{n}", "1"));
        let page = !path.starts_with("/api/");
        let ask = |r: Req| if page { r.header("Cookie", &format!("mmjudge_session={cookie}")) } else { r.by(&head) };
        let first = site.send(ask(Req::get(&path)));
        if first.status != 200 {
            continue; // a print of what is not there yet (no standings before a round ends), a redirect
        }
        let mut tag = first.header("etag").unwrap_or_else(|| panic!("{path} answered 200 without an ETag")).to_string();
        if !page && first.body.contains("\"now\":") {
            continue; // a JSON read that carries the server's now is new each time
        }
        // A cookie it set (the login form's pre-session token) is sent back, as a phone does. A page that changed
        // between the two requests (the projector's big clock draws the second it was drawn at) answers 200 with
        // its new tag, which is asked again once.
        let cookies = first.header("set-cookie").and_then(|c| c.split(';').next()).map(String::from);
        let mut again = None;
        for _ in 0..2 {
            let req = Req::get(&path).header("If-None-Match", &tag);
            let req = match &cookies {
                Some(set) if page => req.header("Cookie", &format!("mmjudge_session={cookie}; {set}")),
                _ => ask(req),
            };
            let answer = site.send(req);
            match answer.header("etag") {
                Some(new) if answer.status == 200 && new != tag => tag = new.to_string(),
                _ => {
                    again = Some(answer);
                    break;
                }
            }
        }
        let again = again.unwrap_or_else(|| panic!("{path}: a new tag at each of three requests"));
        assert_eq!(again.status, 304, "{path}: the same answer again");
        assert_eq!(again.body, "", "{path}");
        tagged.push(path);
    }
    assert!(tagged.len() > 25, "{tagged:?}");
}

#[test]
fn a_page_s_tag_changes_with_what_it_draws_and_not_with_the_server_s_now_and_it_is_drawn_once() {
    let site = Site::playing();
    let first = site.send(Req::get("/pairings"));
    let tag = first.header("etag").expect("an ETag").to_string();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let again = site.send(Req::get("/pairings"));
    assert_eq!(first.body, again.body, "the page drawn once is sent again, not drawn again");
    assert_eq!(again.header("etag"), Some(tag.as_str()), "the same page");
    site.ev.run(&["result", "1", "Ana", "--by", "concession"]);
    let after = site.send(Req::get("/pairings").header("If-None-Match", &tag));
    assert_eq!(after.status, 200, "a result recorded from the command line is a new page");
    assert_ne!(after.header("etag"), Some(tag.as_str()));
}
