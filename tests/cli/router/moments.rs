//! Moments as they happened: a write replayed from a page's queue (sent with its key) may send the moment it
//! was made (`at`); it is taken when it lies between the table's last record and the arrival and at most two
//! minutes back, else the arrival is; both moments are audited and the answer says which (`at_adjusted`).

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
        }
        let mut req = Req::post(path).json(body);
        if let Some(key) = key {
            req = req.header("Idempotency-Key", key);
        }
        let a = site.send(req);
        assert_eq!(a.status, 200, "{path}: {}", a.body);
        a.json()
    };

    // Made 30 s ago, after the table's last record: taken.
    let made = ago(30);
    let start = tap("/api/clock/start", &cy, Some(made.clone()), Some("t-1"));
    assert_eq!((start["at"].as_str(), start["at_adjusted"].as_bool()), (Some(made.as_str()), Some(false)), "{start}");
    let audit = site.ev.run(&["--json", "log"]).json();
    let last = audit["entries"].as_array().and_then(|e| e.last()).cloned().unwrap_or_default();
    assert_eq!(last["at"].as_str(), Some(made.as_str()), "the audit's moment is the one taken: {last}");
    let line = last["command"].as_str().unwrap_or_default();
    assert!(line.contains(&format!("made at {made}")) && line.contains("arrived at"), "{line}");

    // Made before the table's last record (the start just taken): the arrival is used.
    let early = tap("/api/clock/hand-over", &cy, Some(ago(40)), Some("t-2"));
    assert_eq!(early["at_adjusted"].as_bool(), Some(true), "{early}");
    // Made more than two minutes back: the arrival.
    // Made just now, after that: taken.
    let stale = tap("/api/clock/stop", &di, Some(ago(0)), Some("t-3"));
    assert_eq!(stale["at_adjusted"].as_bool(), Some(false), "{stale}");
    let far = tap("/api/clock/start", &cy, Some(ago(150)), Some("t-4"));
    assert_eq!(far["at_adjusted"].as_bool(), Some(true), "{far}");
    // In the future: the arrival.
    let future = tap("/api/clock/stop", &cy, Some(ago(-60)), Some("t-5"));
    assert_eq!(future["at_adjusted"].as_bool(), Some(true), "{future}");
    // Without a key (not a page's replay) the moment is not read.
    let plain = tap("/api/clock/start", &cy, Some(ago(1)), None);
    assert_eq!(plain.get("at_adjusted"), None, "{plain}");

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
fn a_decisions_overrun_is_counted_from_the_moments_taken() {
    let site = playing();
    let cy = site.code("Cy");
    site.ev.run(&["event", "set", "decision-seconds", "60", "--force"]).ok();
    let send = |path: &str, at: String, key: &str| {
        let body = json!({ "table": 2, "code": cy, "at": at });
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
}
