//! A one-time login link (`judge link NAME`): it logs a judge in once, without the PIN, even while guessers from
//! many addresses have spent the PIN's budget (the attack), and never again; a wrong link, another judge's, or one
//! that ended, changes nothing.

use super::{Req, Site};
use serde_json::{Value, json};

/// A new link for `name` made at the event's computer; its token.
fn link(site: &Site, name: &str, extra: &[&str]) -> String {
    let mut args = vec!["--json", "judge", "link", name, "--url", "http://192.0.2.1:8080"];
    args.extend_from_slice(extra);
    let doc = site.ev.run(&args).json();
    let url = doc["link"].as_str().unwrap_or_default().to_string();
    assert!(url.starts_with("http://192.0.2.1:8080/login?name="), "{doc}");
    url.split("#link=").nth(1).unwrap_or_default().to_string()
}

#[test]
fn a_login_link_logs_a_judge_in_once_while_guessers_hold_the_pin_back() {
    let site = Site::playing();
    let token = link(&site, "Kim", &[]);
    assert_eq!(token.len(), 32, "128 random bits as hex");
    // The attack: wrong PINs for Kim from 150 addresses spend the PIN's budget; Kim's own PIN from a new phone waits.
    for phone in 50..200u8 {
        let a = site.send(Req::post("/api/login").json(json!({ "name": "Kim", "pin": "999999x" })).phone(phone));
        assert!(matches!(a.status, 401 | 429), "{}", a.body);
    }
    let pin = site.send(Req::post("/api/login").json(json!({ "name": "Kim", "pin": site.people.kim })).phone(220));
    assert_eq!(pin.status, 429, "the budget is spent: {}", pin.body);

    // Another judge's name, or a wrong token, does not log in and does not use the link up.
    let lee = site.send(Req::post("/api/login").json(json!({ "name": "Lee", "link": token })).phone(221));
    assert_eq!(lee.status, 401, "{}", lee.body);
    let wrong = site.send(Req::post("/api/login").json(json!({ "name": "Kim", "link": "0".repeat(32) })).phone(221));
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    assert!(wrong.json()["error"].as_str().unwrap_or_default().contains("login link"), "{}", wrong.body);

    // The link logs Kim in, once.
    let first = site.send(Req::post("/api/login").json(json!({ "name": "Kim", "link": token })).phone(221));
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!((first.json()["name"].clone(), first.json()["role"].clone()), (json!("Kim"), json!("head")));
    let bearer = first.json()["token"].as_str().unwrap_or_default().to_string();
    let dash = site.send(Req::get("/api/judge").header("Authorization", &format!("Bearer {bearer}")));
    assert_eq!(dash.status, 200, "the session works: {}", dash.body);
    let again = site.send(Req::post("/api/login").json(json!({ "name": "Kim", "link": token })).phone(222));
    assert_eq!(again.status, 401, "a link works once: {}", again.body);

    // Both or neither of PIN and link: 400 in words.
    let both = site.send(Req::post("/api/login").json(json!({ "name": "Kim", "pin": "1", "link": token })).phone(223));
    assert_eq!(both.status, 400, "{}", both.body);
    // The audit names the judge and the way in; the PIN is unchanged (Lee's and Kim's logins by PIN elsewhere).
    let log = site.ev.run(&["--json", "log"]).json();
    let lines: Vec<&Value> = log["entries"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
    assert!(
        lines.iter().any(|e| e["summary"].as_str().is_some_and(|s| s.contains("Kim logged in with a one-time link"))),
        "{log}"
    );
}

#[test]
fn a_login_link_ends_after_its_minutes_and_the_page_form_takes_it() {
    let site = Site::playing();
    let at = "2026-11-28T10:00:00Z";
    let doc = site.ev.run_with(&["--json", "judge", "link", "Lee", "--minutes", "5"], &[("MMJUDGE_NOW", at)]).json();
    assert_eq!(doc["expires"], json!("2026-11-28T10:05:00.000Z"), "{doc}");
    let token = doc["link"].as_str().and_then(|l| l.split("#link=").nth(1)).unwrap_or_default().to_string();
    let late = site.send(Req::post("/api/login").json(json!({ "name": "Lee", "link": token })));
    assert_eq!(late.status, 401, "an ended link: {}", late.body);

    // The login page's form sends the link in place of the PIN (the page reads it from `#link=`).
    let fresh = link(&site, "Lee", &[]);
    let cookie = "mmjudge_login=0123456789abcdef0123456789abcdef";
    let form = format!("name=Lee&pin=&link={fresh}&csrf=0123456789abcdef0123456789abcdef");
    let a = site.send(Req::post("/login").form(&form).header("Cookie", cookie).phone(30));
    assert_eq!(a.status, 303, "{}", a.body);
    assert!(a.header("set-cookie").is_some_and(|c| c.starts_with("mmjudge_session=")), "{:?}", a.headers);

    // Bad lifetimes are refused in one line, nothing made.
    let before = site.ev.dump();
    for bad in ["0", "1441"] {
        let r = site.ev.run(&["judge", "link", "Lee", "--minutes", bad]);
        assert!(r.refused().contains("1 to 1440 minutes"), "{}", r.stderr);
    }
    assert_eq!(site.ev.dump(), before);
}
