//! Moments as they happened: a write replayed from a page's queue (sent with its key) may send the moment it
//! was made (`at`) and why its page kept it (`queued`); a decision's moment is taken when it lies between the
//! decision's recorded start and the key's first arrival (kept only from a try answered 503) and at most two
//! minutes back, else that arrival is; both moments are audited and the answer says which (`at_adjusted`).

use super::{Req, Site};
use serde_json::{Value, json};

fn ago(seconds: i64) -> String {
    (chrono::Utc::now() - chrono::Duration::seconds(seconds)).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The playing fixture, its audit's moments ten minutes back (as if the fixture was written then).
fn playing() -> Site {
    let site = Site::playing();
    let back = |column: &str| format!("{column} = strftime('%Y-%m-%dT%H:%M:%fZ', {column}, '-10 minutes')");
    site.ev.sql(&format!("UPDATE audit SET {};", back("at")));
    site.ev.sql(&format!("UPDATE round SET {}, {};", back("paired_at"), back("started_at")));
    site
}

#[test]
fn a_replayed_tap_is_recorded_at_the_moment_it_was_made_within_two_minutes_and_after_the_tables_last_record() {
    let site = playing();
    let (cy, di) = (site.code("Cy"), site.code("Di"));
    let tap = |path: &str, code: &str, at: Option<String>, key: Option<&str>| {
        let mut body = json!({ "table": 2, "code": code });
        if let Some(at) = at {
            body["at"] = Value::String(at);
            body["queued"] = json!("unreachable");
        }
        let mut req = Req::post(path).json(body);
        if let Some(key) = key {
            req = req.header("Idempotency-Key", key);
        }
        let a = site.send(req);
        assert_eq!(a.status, 200, "{path}: {}", a.body);
        a.json()
    };

    // Made 30 s ago, replayed by a page that never got an answer: taken.
    let made = ago(30);
    let start = tap("/api/clock/start", &cy, Some(made.clone()), Some("t-1"));
    assert_eq!((start["at"].as_str(), start["at_adjusted"].as_bool()), (Some(made.as_str()), Some(false)), "{start}");
    let audit = site.ev.run(&["--json", "log"]).json();
    let last = audit["entries"].as_array().and_then(|e| e.last()).cloned().unwrap_or_default();
    assert_eq!(last["at"].as_str(), Some(made.as_str()), "the audit's moment is the one taken: {last}");
    let line = last["command"].as_str().unwrap_or_default();
    assert!(line.contains(&format!("made at {made}")) && line.contains("arrived at"), "{line}");
    assert!(line.contains("queued unreachable"), "{line}");

    // Made before the decision's recorded start (the start just taken): the arrival is used.
    let early = tap("/api/clock/hand-over", &cy, Some(ago(40)), Some("t-2"));
    assert_eq!(early["at_adjusted"].as_bool(), Some(true), "{early}");
    // Made more than two minutes back: the arrival.
    // Made a moment before it arrived, but that decision (Di's, handed over at the arrival) started live: a claim
    // never shortens it, the server's arrival is kept.
    let stale = tap("/api/clock/stop", &di, Some(ago(0)), Some("t-3"));
    assert_eq!(stale["at_adjusted"].as_bool(), Some(true), "{stale}");
    let far = tap("/api/clock/start", &cy, Some(ago(150)), Some("t-4"));
    assert_eq!(far["at_adjusted"].as_bool(), Some(true), "{far}");
    // In the future: the arrival.
    let future = tap("/api/clock/stop", &cy, Some(ago(-60)), Some("t-5"));
    assert_eq!(future["at_adjusted"].as_bool(), Some(true), "{future}");
    // Without a key (not a page's replay) a moment is refused, in the web's words.
    let plain = site.send(Req::post("/api/clock/start").json(json!({ "table": 2, "code": cy, "at": ago(1) })));
    assert_eq!(plain.status, 400, "{}", plain.body);
    assert!(plain.body.contains("only a write sent again from a page's queue"), "{}", plain.body);
    assert!(!super::names_a_command(&plain.body), "{}", plain.body);
    // The device's client_id is the key on the clock routes too.
    let by_id = site
        .send(Req::post("/api/clock/start").json(json!({ "table": 2, "code": cy, "client_id": "c-1", "at": ago(1) })));
    assert_eq!(by_id.status, 200, "{}", by_id.body);
    assert!(by_id.json()["at_adjusted"].is_boolean(), "its moment read: {}", by_id.body);
    let again = site.send(Req::post("/api/clock/start").json(json!({ "table": 2, "code": cy, "client_id": "c-1" })));
    assert_eq!(again.json()["repeat"].as_bool(), Some(true), "{}", again.body);

    // A moment that is not one: 400 naming it.
    let bad = site.send(
        Req::post("/api/clock/stop")
            .json(json!({ "table": 2, "code": cy, "at": "soon" }))
            .header("Idempotency-Key", "t-6"),
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.body.contains("at:"), "{}", bad.body);
}

#[test]
fn a_decision_whose_start_was_also_replayed_keeps_its_claimed_moments() {
    let site = playing();
    let cy = site.code("Cy");
    site.ev.run(&["event", "set", "decision-seconds", "60", "--force"]).ok();
    let send = |path: &str, at: String, key: &str| {
        let body = json!({ "table": 2, "code": cy, "at": at, "queued": "unreachable" });
        let a = site.send(Req::post(path).json(body).header("Idempotency-Key", key));
        assert_eq!(a.status, 200, "{path}: {}", a.body);
        a.json()
    };
    // Started 100 s ago and stopped 10 s ago (both sent late): 90 s of decision, recorded as such.
    send("/api/clock/start", ago(100), "o-1");
    let stopped = send("/api/clock/stop", ago(10), "o-2");
    assert_eq!(stopped["at_adjusted"].as_bool(), Some(false), "{stopped}");
    let text = stopped.to_string();
    assert!(text.contains("90") || text.contains("1:30"), "the decision lasted 90 s: {text}");
    // Both lengths on the judges' table page: 90 s claimed, about none as the server saw it.
    let (kim, _) = site.judges();
    let page = site.send(Req::get("/judge/table/2").by(&kim));
    assert!(page.body.contains("Cy: 90."), "{}", page.body);
    assert!(page.body.contains("s as the server saw it; recorded 90."), "{}", page.body);
    assert!(page.body.contains("the claim was taken: the start was sent late too"), "{}", page.body);
}

/// Moves the table's decision running and the audit's last entry `seconds` back: a start that arrived live that
/// long ago (the router cannot wait 55 s).
fn started_live_ago(site: &Site, seconds: i64) -> String {
    let back = format!("'-{seconds} seconds'");
    site.ev.sql(&format!(
        "UPDATE decision SET started_at = strftime('%Y-%m-%dT%H:%M:%fZ', started_at, {back}) WHERE ended_at IS NULL;
         UPDATE audit SET at = strftime('%Y-%m-%dT%H:%M:%fZ', at, {back}) WHERE id = (SELECT max(id) FROM audit);"
    ));
    let conn = rusqlite::Connection::open(site.ev.db()).expect("open");
    conn.query_row("SELECT started_at FROM decision WHERE ended_at IS NULL", [], |r| r.get(0))
        .expect("a running decision")
}

fn plus_one_second(at: &str) -> String {
    let t = chrono::DateTime::parse_from_rfc3339(at).expect("a moment") + chrono::Duration::seconds(1);
    t.with_timezone(&chrono::Utc).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[test]
fn a_stop_claimed_one_second_after_a_live_start_keeps_the_length_the_server_saw_from_a_players_code() {
    let site = playing();
    let cy = site.code("Cy");
    let start = site.send(Req::post("/api/clock/start").json(json!({ "table": 2, "code": cy })));
    assert_eq!(start.status, 200, "{}", start.body);
    let started = started_live_ago(&site, 55);
    let body = json!({ "table": 2, "code": cy, "at": plus_one_second(&started) });
    let stop = site.send(Req::post("/api/clock/stop").json(body).header("Idempotency-Key", "attack-1"));
    assert_eq!(stop.status, 200, "{}", stop.body);
    let stop = stop.json();
    assert_eq!(stop["at_adjusted"].as_bool(), Some(true), "{stop}");
    let ms = stop["duration_ms"].as_i64().unwrap_or(0);
    assert!(ms >= 55_000, "the length is at least what the server saw: {stop}");
    assert!(stop["overrun_ms"].as_i64().unwrap_or(0) > 0, "the overrun stands: {stop}");
    // The judges' table page shows both lengths beside the decision.
    let (kim, _) = site.judges();
    let page = site.send(Req::get("/judge/table/2").by(&kim));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Cy: 1.0 s as claimed, 55"), "{}", page.body);
    assert!(page.body.contains("the claim was not taken: the start arrived live"), "{}", page.body);
}

#[test]
fn a_stop_claimed_one_second_after_a_live_start_keeps_the_length_the_server_saw_from_a_judges_login() {
    let site = playing();
    let (kim, _) = site.judges();
    let start = site.send(Req::post("/api/clock/start").json(json!({ "table": 2, "player": "cy" })).by(&kim));
    assert_eq!(start.status, 200, "{}", start.body);
    let started = started_live_ago(&site, 55);
    let body = json!({ "table": 2, "at": plus_one_second(&started) });
    let stop = site.send(Req::post("/api/clock/stop").json(body).header("Idempotency-Key", "attack-2").by(&kim));
    assert_eq!(stop.status, 200, "{}", stop.body);
    let stop = stop.json();
    assert_eq!(stop["at_adjusted"].as_bool(), Some(true), "{stop}");
    assert!(stop["duration_ms"].as_i64().unwrap_or(0) >= 55_000, "{stop}");
    assert!(stop["overrun_ms"].as_i64().unwrap_or(0) > 0, "{stop}");
}

#[test]
fn a_replays_window_counts_from_its_first_arrival_when_a_503_made_it_wait_and_never_from_a_429() {
    let site = playing();
    let (ana, cy) = (site.code("Ana"), site.code("Cy"));
    // Both starts, sent late too: replays (their claims taken).
    for (table, code, key) in [(1, &ana, "w-1"), (2, &cy, "w-2")] {
        let body = json!({ "table": table, "code": code, "at": ago(117), "queued": "unreachable" });
        let start = site.send(Req::post("/api/clock/start").json(body).header("Idempotency-Key", key));
        assert_eq!(start.json()["at_adjusted"].as_bool(), Some(false), "{}", start.body);
    }
    // Table 2's stop, made 116 s ago, reaches a server not in charge (503: the second laptop before a head judge
    // promotes it): its first arrival is kept.
    let standby = |on: bool| {
        *site.app().replica.standby_of.lock().expect("the replica") = on.then(|| "http://192.0.2.9:8080".into())
    };
    standby(true);
    let made = ago(116);
    let body = json!({ "table": 2, "code": cy, "at": made, "queued": 503 });
    let busy = site.send(Req::post("/api/clock/stop").json(body.clone()).header("Idempotency-Key", "w-3"));
    assert_eq!(busy.status, 503, "{}", busy.body);
    standby(false);
    // Table 1's stop, made as long ago, is held back (429) for its phone's own wrong codes: no arrival kept.
    for _ in 0..5 {
        site.send(Req::post("/api/clock/stop").json(json!({ "table": 1, "code": "000000" })).phone(9));
    }
    let held_body = json!({ "table": 1, "code": ana, "at": made, "queued": "unreachable" });
    let held =
        site.send(Req::post("/api/clock/stop").json(held_body.clone()).header("Idempotency-Key", "w-4").phone(9));
    assert_eq!(held.status, 429, "{}", held.body);
    // Both sent again more than two minutes after they were made (from another address).
    std::thread::sleep(std::time::Duration::from_millis(4_500));
    let stop = site.send(Req::post("/api/clock/stop").json(body).header("Idempotency-Key", "w-3").phone(10));
    assert_eq!(stop.status, 200, "{}", stop.body);
    let stop = stop.json();
    assert_eq!((stop["at"].as_str(), stop["at_adjusted"].as_bool()), (Some(made.as_str()), Some(false)), "{stop}");
    let late = site.send(Req::post("/api/clock/stop").json(held_body).header("Idempotency-Key", "w-4").phone(10));
    assert_eq!(late.status, 200, "{}", late.body);
    let late = late.json();
    assert_eq!(late["at_adjusted"].as_bool(), Some(true), "a 429 keeps no first arrival: {late}");
    assert!(late["duration_ms"].as_i64().unwrap_or(0) >= 120_000, "{late}");
    // A 503 claim whose key the server kept no 503 for is not a replay: the arrival is taken.
    let body = json!({ "table": 2, "code": cy, "at": ago(1), "queued": 503 });
    let start = site.send(Req::post("/api/clock/start").json(body).header("Idempotency-Key", "w-5"));
    assert_eq!(start.json()["at_adjusted"].as_bool(), Some(true), "{}", start.body);
}
