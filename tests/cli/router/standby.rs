//! The primary's routes for its standby: the key checked, a copy of the event, acknowledgements only with a
//! stream's token, and who this server is. (The log stream itself never ends: `tests/cli/standby.rs` follows it
//! with two real servers.)

use super::{Req, Site};

fn key(site: &Site) -> String {
    site.ev.run(&["--json", "standby", "key"]).json()["key"].as_str().expect("a key").to_string()
}

#[test]
fn the_standby_routes_check_the_key_and_a_streams_token() {
    let site = Site::playing();
    let no_key = site.send(Req::get("/api/standby/log?after=0"));
    assert_eq!(no_key.status, 401, "{}", no_key.body);
    assert!(no_key.json()["error"].as_str().is_some_and(|e| e.contains("no standby key")), "{}", no_key.body);
    let none_made = site.send(Req::get("/api/standby/copy").header("Authorization", "Bearer abc"));
    assert_eq!(none_made.status, 401, "{}", none_made.body);
    let key = key(&site);
    let wrong = site.send(Req::get("/api/standby/log?after=0").header("Authorization", "Bearer abc"));
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    assert!(wrong.json()["error"].as_str().is_some_and(|e| e.contains("wrong standby key")), "{}", wrong.body);
    let copy = site.send(Req::get("/api/standby/copy").header("Authorization", &format!("Bearer {key}")));
    assert_eq!(copy.status, 200);
    assert!(copy.body.starts_with("SQLite format 3"), "the whole event file");
    let ack = site.send(
        Req::post("/api/standby/ack").header("Authorization", "Bearer abc").json(serde_json::json!({ "seq": 1 })),
    );
    assert_eq!(ack.status, 401, "{}", ack.body);
    let who = site.send(Req::get("/api/standby/whoami")).json();
    assert_eq!((who["role"].as_str(), who["generation"].as_i64()), (Some("primary"), Some(1)), "{who}");
    assert_eq!(who["event"].as_str().map(str::len), Some(32), "{who}");
    let status = site.send(Req::get("/api/standby/status")).json();
    assert_eq!((status["standby_key"].as_bool(), status["following"].is_null()), (Some(true), true), "{status}");
    assert_eq!(status["marked_behind"], false, "{status}");
}

#[test]
fn a_standby_key_kept_in_the_old_form_is_still_taken_and_a_wrong_one_refused() {
    let site = Site::playing();
    // A file from an older mmjudge kept its standby key as a PIN is kept (argon2): Kim's PIN's hash stands for it.
    let conn = rusqlite::Connection::open(site.ev.db()).expect("the event file");
    let sql = "UPDATE replication SET key_hash = (SELECT pin_hash FROM judge WHERE name = 'Kim')";
    assert_eq!(conn.execute(sql, []).expect("the old key kept"), 1);
    drop(conn);
    let old = format!("Bearer {}", site.people.kim);
    let copy = site.send(Req::get("/api/standby/copy").header("Authorization", &old));
    assert_eq!(copy.status, 200, "{}", copy.body);
    let wrong = site.send(Req::get("/api/standby/copy").header("Authorization", "Bearer not it"));
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    assert!(wrong.json()["error"].as_str().is_some_and(|e| e.contains("wrong standby key")), "{}", wrong.body);
}

#[test]
fn detaching_the_second_laptop_needs_a_judges_login() {
    let site = Site::playing();
    let _key = key(&site);
    let anonymous = site.send(Req::post("/api/standby/detach").json(serde_json::json!({})));
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);
    assert!(site.ev.run(&["--json", "standby", "status"]).json()["standby_key"] == true, "nothing changed");
}
