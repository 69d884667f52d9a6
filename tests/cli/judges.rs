//! `judge` verbs: the judges who log in to the live server, and the audit log's "via".

use crate::harness::Event;

fn sessions(ev: &Event) -> i64 {
    let conn = rusqlite::Connection::open(ev.db()).expect("open db");
    conn.query_row("SELECT count(*) FROM judge_session", [], |r| r.get(0)).expect("count")
}

fn fake_session(ev: &Event, judge: &str, token_hash: &str) {
    ev.sql(&format!(
        "INSERT INTO judge_session (token_hash, judge_id, csrf, created, expires)
         SELECT '{token_hash}', id, 'c', '2025-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z' FROM judge WHERE name = '{judge}';"
    ));
}

#[test]
fn add_prints_a_pin_once_and_keeps_only_its_hash() {
    let ev = Event::new();
    let doc = ev.run(&["--json", "judge", "add", "Kim", "--role", "head"]).json();
    assert_eq!(doc["name"], "Kim");
    assert_eq!(doc["role"], "head");
    let pin = doc["pin"].as_str().expect("pin").to_string();
    assert_eq!(pin.len(), 6);
    assert!(pin.chars().all(|c| c.is_ascii_digit()));
    assert_eq!(doc.as_object().map(|o| o.len()), Some(3), "{doc}");
    assert!(!ev.dump().contains(&pin), "the PIN must not be stored in clear");
    let human =
        ev.run(&["judge", "add", "Lee Ray", "--role", "floor", "--url", "http://10.0.0.5:8080"]).ok().to_string();
    assert!(human.contains("PIN: "), "{human}");
    assert!(human.contains("http://10.0.0.5:8080/login?name=Lee%20Ray#pin="), "{human}");
    assert!(human.contains('█'), "a QR code is drawn: {human}");
    let list = ev.run(&["--json", "judge", "list"]).json();
    assert_eq!(list["judges"][0]["name"], "Kim");
    assert_eq!(list["judges"][1]["role"], "floor");
    assert_eq!(list["judges"][1]["sessions"], 0);
    let csv = ev.run(&["--csv", "judge", "list"]).ok().to_string();
    assert!(csv.starts_with("judge,role,added,open logins\nKim,head,"), "{csv}");
}

#[test]
fn renewing_a_pin_or_removing_a_judge_ends_the_judges_logins() {
    let ev = Event::new();
    ev.run(&["judge", "add", "Kim", "--role", "head"]).ok();
    ev.run(&["judge", "add", "Bo", "--role", "floor"]).ok();
    fake_session(&ev, "Kim", "k1");
    fake_session(&ev, "Bo", "b1");
    let first = ev.run(&["--json", "judge", "pin", "kim"]).json();
    let second = ev.run(&["--json", "judge", "pin", "kim"]).json();
    assert_ne!(first["pin"], second["pin"]);
    assert_eq!(sessions(&ev), 1, "Kim's login ended, Bo's stays");
    let out = ev.run(&["--json", "judge", "remove", "bo"]).json();
    assert_eq!(out["sessions_ended"], 1);
    assert_eq!(sessions(&ev), 0);
    let list = ev.run(&["--json", "judge", "list"]).json();
    assert_eq!(list["judges"].as_array().map(Vec::len), Some(1));
}

#[test]
fn refusals_change_nothing() {
    let ev = Event::new();
    ev.run(&["judge", "add", "Kim", "--role", "head"]).ok();
    assert!(ev.refuses(&["judge", "add", " kim ", "--role", "floor"]).contains("already added"));
    assert!(ev.refuses(&["judge", "add", "  ", "--role", "floor"]).contains("judge's name"));
    assert!(ev.refuses(&["judge", "pin", "nobody"]).contains("no judge named \"nobody\""));
    assert!(ev.refuses(&["judge", "remove", "nobody"]).contains("the judges are Kim"));
}

#[test]
fn the_log_says_where_each_write_came_from() {
    let ev = Event::new();
    ev.run(&["judge", "add", "Kim", "--role", "head"]).ok();
    ev.sql("INSERT INTO audit (at, judge, command_line, summary, via) VALUES ('2025-01-02T00:00:00.000Z', 'Kim', 'POST /api/note', 'note', 'web 192.168.1.23');");
    let doc = ev.run(&["--json", "log"]).json();
    let entries = doc["entries"].as_array().expect("entries");
    assert_eq!(entries[0]["via"], "cli");
    assert_eq!(entries[1]["via"], "cli");
    assert_eq!(entries[2]["via"], "web 192.168.1.23");
    let human = ev.run(&["log"]).ok().to_string();
    assert!(human.contains("web 192.168.1.23"), "{human}");
}

/// `judge link`: the text (its token and QR code aside: they are new each time) and the JSON, kept as snapshots;
/// the token is stored only as its hash.
#[test]
fn a_login_link_is_printed_once_with_its_qr_code_and_kept_only_hashed() {
    let ev = Event::new();
    ev.run(&["judge", "add", "Kim Head", "--role", "head"]).ok();
    let env = [("MMJUDGE_NOW", "2025-05-01T10:00:00Z"), ("TZ", "UTC")];
    let human = ev.run_with(&["judge", "link", "kim head", "--url", "http://10.0.0.5:8080"], &env).ok().to_string();
    assert!(human.contains('█'), "a QR code is drawn: {human}");
    let token = human.split("#link=").nth(1).and_then(|t| t.lines().next()).unwrap_or_default().to_string();
    assert_eq!(token.len(), 32, "{human}");
    assert!(!ev.dump().contains(&token), "the link's token must not be stored in clear");
    let text: String = human
        .replace(&token, "<token>")
        .lines()
        .filter(|l| !l.contains('█') && !l.contains('▀') && !l.contains('▄'))
        .map(|l| format!("{l}\n"))
        .collect();
    insta::assert_snapshot!("judge_link_text", text);
    let mut doc = ev.run_with(&["--json", "judge", "link", "Kim Head", "--minutes", "30"], &env).json();
    let link = doc["link"].as_str().unwrap_or_default().to_string();
    let token = link.split("#link=").nth(1).unwrap_or_default().to_string();
    doc["link"] = serde_json::Value::String(link.replace(&token, "<token>"));
    insta::assert_snapshot!("judge_link_json", serde_json::to_string_pretty(&doc).unwrap_or_default());
}
