//! Phones and the second laptop: a primary with a standby tells every page where it is (the meta, `failover.js`,
//! and `connect-src` in the Content-Security-Policy); CORS only on the routes a page uses on the standby.

use super::{Req, Site};
use serde_json::json;

/// Makes `site` a primary whose standby advertised `url` (a standby key, the address it gave), as the server's
/// watcher sees it.
fn with_standby(site: &Site, url: &str) -> String {
    site.ev.run(&["--json", "standby", "key"]);
    let mut store = mmjudge::store::Store::open(&site.ev.db()).expect("the event");
    store.bookkeep(|tx| mmjudge::store::replication::standby_at(tx, Some(url))).expect("the standby's address");
    let state = store.read(mmjudge::store::replication::state).expect("the state");
    site.app().failover.note(&state);
    state.event_id
}

fn meta(event: &str) -> String {
    format!(
        r#"<meta name="mmjudge-standby" content="http://127.0.0.1:8099" data-event="{event}" data-timeout-ms="10000">"#
    )
}

#[test]
fn a_primary_with_a_standby_tells_its_pages_where_it_is() {
    let site = Site::playing();
    let home = site.send(Req::get("/"));
    assert!(!home.body.contains("mmjudge-standby"), "no standby, no meta: {}", home.body);
    assert!(home.header("content-security-policy").is_some_and(|c| !c.contains("connect-src")), "{:?}", home.headers);

    let event = with_standby(&site, "http://127.0.0.1:8099/");
    let script = mmjudge::render::assets::url("failover.js");
    for page in ["/", "/me", "/pairings", "/clock", "/login", "/projector", "/table/1", "/no-such-page"] {
        let a = site.send(Req::get(page));
        let head = a.body.find("<head>").expect("a head") + "<head>".len();
        let after = &a.body[head..];
        assert!(after.trim_start().starts_with(&meta(&event)), "{page}: {}", a.body);
        assert!(a.body.contains(&format!(r#"<script src="{script}" defer></script>"#)), "{page}: {}", a.body);
        assert_eq!(a.body.matches("mmjudge-standby").count(), 1, "{page}");
        let csp = a.header("content-security-policy").unwrap_or("");
        assert!(
            csp.contains("default-src 'self'") && csp.ends_with("; connect-src 'self' http://127.0.0.1:8099"),
            "{page}: {csp}"
        );
    }
    let time = site.send(Req::get("/api/time"));
    assert!(time.json()["now"].is_string(), "the JSON answers are as they were: {}", time.body);
    let js = site.send(Req::get(script));
    assert_eq!(js.status, 200);
    assert!(js.body.contains("mmjudge-standby") && js.body.contains("moveTo"), "{}", js.body);

    // The ETag is the page's with its meta: the same page again is 304, and once the page changes it is not.
    let told = site.send(Req::get("/pairings"));
    let tag = told.header("etag").expect("an ETag").to_string();
    assert_eq!(site.send(Req::get("/pairings").header("If-None-Match", &tag)).status, 304);

    // The key revoked: no standby to tell of.
    site.ev.run(&["standby", "key", "--revoke"]);
    let store = mmjudge::store::Store::open(&site.ev.db()).expect("the event");
    site.app().failover.note(&store.read(mmjudge::store::replication::state).expect("the state"));
    let home = site.send(Req::get("/"));
    assert!(!home.body.contains("mmjudge-standby"), "{}", home.body);
    let untold = site.send(Req::get("/pairings").header("If-None-Match", &tag));
    assert_eq!(untold.status, 200, "a page without the meta is not the one kept");
    assert!(!untold.body.contains("mmjudge-standby"));
    assert!(home.header("content-security-policy").is_some_and(|c| !c.contains("connect-src")));
}

#[test]
fn an_address_that_is_not_plain_is_not_advertised() {
    let site = Site::playing();
    with_standby(&site, "http://127.0.0.1:8099\"><script>");
    let home = site.send(Req::get("/"));
    assert!(!home.body.contains("mmjudge-standby"), "{}", home.body);
    assert!(home.header("content-security-policy").is_some_and(|c| !c.contains("connect-src")));
}

#[test]
fn cors_only_on_the_routes_a_page_uses_on_the_standby() {
    let site = Site::playing();
    let ana = site.code("Ana");
    let options = |path: &str| Req { method: "OPTIONS", ..Req::get(path) };
    let cross = |r: Req| r.header("Origin", "http://127.0.0.1:8080");
    let cors: Vec<&str> = mmjudge::web::routes::routes().iter().filter(|r| r.cors).map(|r| r.path).collect();
    assert_eq!(cors.len(), 13, "{cors:?}");
    for path in cors {
        let pre = site.send(
            cross(options(path))
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type,idempotency-key"),
        );
        assert_eq!(pre.status, 204, "{path}: {}", pre.body);
        assert_eq!(pre.header("access-control-allow-origin"), Some("*"), "{path}");
        assert!(pre.header("access-control-allow-methods").is_some_and(|m| m.contains("POST") && m.contains("GET")));
        assert_eq!(pre.header("access-control-allow-headers"), Some("Content-Type, Idempotency-Key"), "{path}");
        assert_eq!(pre.header("access-control-allow-credentials"), None, "{path}");
    }
    let answers = [
        site.send(cross(Req::get("/api/time"))),
        site.send(cross(Req::get("/api/standby/whoami"))),
        site.send(
            cross(Req::post("/api/clock/start"))
                .header("Idempotency-Key", "cors-1")
                .json(json!({ "table": 1, "code": ana })),
        ),
        // A refusal is read across origins too (the page shows it, or keeps the write).
        site.send(cross(Req::post("/api/call")).json(json!({ "table": 9, "code": ana }))),
    ];
    for a in &answers {
        assert_eq!(a.header("access-control-allow-origin"), Some("*"), "{} {}", a.status, a.body);
        assert_eq!(a.header("access-control-allow-credentials"), None);
    }
    assert_eq!(answers[2].status, 200, "{}", answers[2].body);
    assert_eq!(answers[3].status, 404, "{}", answers[3].body);
    // Nothing else: pages, reads, judges' writes and the standby's own routes.
    let (kim, _) = site.judges();
    let others = [
        Req::get("/"),
        Req::get("/api/pairings"),
        Req::get("/api/tables"),
        Req::post("/api/result").by(&kim).json(json!({ "table": 1, "winner": "draw" })),
        Req::post("/api/player/code").json(json!({ "table": 1, "code": ana })),
        Req::get("/api/standby/copy"),
        options("/api/result"),
        options("/api/login"),
    ];
    for r in others {
        let label = format!("{} {}", r.method, r.path);
        let a = site.send(cross(r));
        assert_eq!(a.header("access-control-allow-origin"), None, "{label}: {:?}", a.headers);
        assert_eq!(a.header("access-control-allow-methods"), None, "{label}");
    }
}
