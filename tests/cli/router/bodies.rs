//! Every write's body names only its route's fields: each POST route of the routes table (`web::routes`) that takes a
//! write's fields is sent one it does not take, as JSON and as a form, and refuses it (400) naming it and what the
//! route takes; the table device's routes too, with a code. What a route takes is its body type's derive
//! (`#[serde(deny_unknown_fields)]`, see `web::kit::body`): a body type without it would take the field, and
//! this test names its route.

use super::{Req, Site};
use serde_json::json;

/// POST routes whose body is not a write's fields, and why.
const NOT_FIELDS: [(&str, &str); 11] = [
    ("/login", "the login page's form: tests/cli/router/judges.rs"),
    ("/logout", "the logout form: its CSRF token only"),
    ("/api/login", "a login, before any session: tests/cli/router/limits.rs"),
    ("/api/logout", "no body"),
    ("/api/setup", "the set-up link's body, read by axum's Json (deny_unknown_fields): tests/cli/router/setup.rs"),
    ("/api/cards/import", "a file as the body, its fields in the query string"),
    ("/api/cards/import-rulings", "a file as the body, its fields in the query string"),
    ("/api/pool/import", "a file as the body, its fields in the query string"),
    ("/api/player/import", "a file as the body, its fields in the query string"),
    ("/api/library/register", "a file as the body, its fields in the query string"),
    ("/api/standby/ack", "a standby's acknowledgement, read by axum's Json: tests/cli/router/standby.rs"),
];

/// Every POST route of the router, with whether the table's device sends it (with a code) and whether a judge
/// does (without one).
fn posts() -> Vec<(String, bool, bool)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let routes = std::fs::read_to_string(root.join("src/web/routes.rs")).expect("the router");
    let table = routes.split("fn table()").nth(1).unwrap_or("").split("\n}\n").next().unwrap_or("");
    table
        .split("\n        (")
        .skip(1)
        .filter_map(|entry| {
            let path = entry.split('"').skip(1).step_by(2).find(|l| l.starts_with('/'))?;
            let by_code = entry.contains("by_code(");
            let post = by_code || entry.contains("post(");
            let device = entry.contains("device::");
            // A judge's side: a route for judges, or one that sends a judge's body to a judges' handler.
            post.then(|| (path.to_string(), device, !device || entry.contains("judges::")))
        })
        .filter(|(path, _, _)| !NOT_FIELDS.iter().any(|(p, _)| p == path))
        .collect()
}

#[test]
fn every_route_refuses_a_field_it_does_not_take_naming_it_and_what_it_takes() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let cy = site.code("Cy");
    let before = site.ev.dump();
    let posts = posts();
    assert!(posts.len() > 40, "the routes are read from routes.rs: {posts:?}");
    let words = "the field \"zz_unknown\" is not one this request takes (it takes ";
    let mut failed = Vec::new();
    for (path, device, judge) in posts {
        let mut sent = Vec::new();
        if judge {
            sent.push(("JSON", Req::post(&path).json(json!({ "zz_unknown": 1 })).by(&kim)));
            sent.push(("a form", Req::post(&path).form("zz_unknown=1").by(&kim)));
        }
        if device {
            sent.push(("the device's JSON", Req::post(&path).json(json!({ "table": 2, "code": cy, "zz_unknown": 1 }))));
        }
        for (how, req) in sent {
            let a = site.send(req);
            // A form's refusal is its page, but on the standby's routes (which pass no page layer).
            let page = a.header("content-type").is_some_and(|c| c.starts_with("text/html"));
            match super::refusal_text(&a, page) {
                Ok(said) if a.status == 400 && said.contains(words) => {}
                Ok(said) => failed.push(format!("{path} ({how}): {} {said}", a.status)),
                Err(e) => failed.push(format!("{path} ({how}): {e}")),
            }
        }
    }
    assert!(failed.is_empty(), "{} took a field they do not take:\n{}", failed.len(), failed.join("\n"));
    assert_eq!(site.ev.dump(), before, "nothing refused was recorded");
}

#[test]
fn a_form_names_its_extras_among_what_it_takes_and_a_route_that_takes_at_names_it_once() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let a = site.send(Req::post("/api/ruling").json(json!({ "table": 1, "text": "x", "csrf": "y" })).by(&kim));
    let error = a.json()["error"].as_str().unwrap_or("").to_string();
    assert_eq!(
        error, "the field \"csrf\" is not one this request takes (it takes table, text, round, at): see docs/http.md",
        "JSON carries its CSRF token in a header"
    );
    let a = site.send(Req::post("/api/ruling").form("table=1&text=x&colour=red").by(&kim));
    let said = super::page_message(&a.body);
    assert!(
        said.contains(
            "\"colour\" is not one this request takes (it takes table, text, round, csrf, back, idempotency_key, at)"
        ),
        "{said}"
    );
    let a = site.send(Req::post("/api/note").json(json!({ "table": 1, "text": "x" })).by(&kim));
    let error = a.json()["error"].as_str().unwrap_or("").to_string();
    assert!(error.contains("\"text\" is not one") && error.matches(" at").count() == 1, "{error}");
}

#[test]
fn a_forms_extra_sent_twice_is_refused_as_any_field_given_twice() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let before = site.ev.dump();
    for form in ["table=1&text=x&csrf=a&csrf=b", "table=1&text=x&back=%2Fjudge&back=%2F", "table=1&text=x&at=1&at=2"] {
        let a = site.send(Req::post("/api/ruling").form(form).by(&kim));
        let said = super::refusal_text(&a, true).unwrap_or_else(|e| e);
        let name = form.rsplit('&').next().and_then(|f| f.split('=').next()).unwrap_or("");
        assert!(a.status == 400 && said.contains(&format!("\"{name}\" is given twice")), "{form}: {said}");
    }
    let a = site.send(Req::post("/api/challenge/evidence").form("challenge=1&evidence=1&evidence=1").by(&kim));
    assert!(!super::refusal_text(&a, true).unwrap_or_default().contains("twice"), "boxes of one name: {}", a.body);
    assert_eq!(site.ev.dump(), before, "nothing refused was recorded");
}
