//! Every route of the routes table (`web::routes`) is sent a request by this suite, and what refuses nothing answers.

use super::{Req, Site};

/// Routes sent nothing here, and why.
const NOT_SENT: [(&str, &str); 1] = [("/events", "a stream whose answer never ends: the TCP tests read it")];

#[test]
fn every_route_of_the_router_is_sent_a_request_in_this_suite() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut suite = String::new();
    for entry in std::fs::read_dir(root.join("tests/cli/router")).expect("the suite") {
        let path = entry.expect("a file").path();
        if path.extension().is_some_and(|e| e == "rs") {
            suite.push_str(&std::fs::read_to_string(&path).expect("a test file"));
        }
    }
    let routes = mmjudge::web::routes::routes();
    let paths: Vec<&str> = routes.iter().map(|r| r.path).collect();
    assert!(paths.len() > 40, "the routes are read from the routes table: {paths:?}");
    let missing: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| !NOT_SENT.iter().any(|(n, _)| n == p))
        .filter(|p| match p.split_once('{') {
            Some((prefix, _)) => !suite.contains(&format!("\"{prefix}")),
            None => !suite.contains(&format!("\"{p}\"")) && !suite.contains(&format!("\"{p}?")),
        })
        .collect();
    assert!(missing.is_empty(), "routes this suite sends nothing: {missing:?}");
}

#[test]
fn an_asset_is_served_by_its_hashed_name_only() {
    let site = Site::playing();
    assert_eq!(site.send(Req::get("/assets/app.js")).status, 404);
    assert_eq!(site.send(Req::get("/assets/app.0123456789.js")).status, 404);
}

#[test]
fn what_refuses_nothing_answers() {
    let site = Site::playing();
    let assets =
        mmjudge::render::assets::all().map(|(a, address)| (address, a.content_type.split(';').next().unwrap_or("")));
    let pages = [
        ("/", "text/html"),
        ("/projector", "text/html"),
        ("/api/projector", "application/json"),
        ("/api/time", "application/json"),
        ("/api/tables", "application/json"),
    ];
    for (path, content_type) in pages.into_iter().chain(assets) {
        let a = site.send(Req::get(path));
        assert_eq!(a.status, 200, "{path}: {}", a.body);
        assert!(a.header("content-type").is_some_and(|c| c.starts_with(content_type)), "{path}: {:?}", a.headers);
    }
}
