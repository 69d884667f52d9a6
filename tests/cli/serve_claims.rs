//! Issue 43: decisions and results that no phone can bend. The deciding player wants a shorter record, the
//! opponent a longer one, and either may hold the other's code; each rule comes with its attack, sent to the
//! real server from other loopback addresses standing for other phones (127.0.0.x, Linux only: elsewhere these
//! tests say they are skipped). The decision limit is 3 s, so that overruns come quickly.

use crate::harness::Event;
use crate::serve::{Server, codes, judge};
use crate::serve_hostile::{Got, ip, other_addresses, send};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Three tables playing round 1 (Ana–Bo, Cy–Di, Ed–Fa), its clock started now, decisions of 3 s.
fn playing() -> Event {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di", "Ed", "Fa", "Gu", "Ha"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di"), (3, "Ed", "Fa"), (4, "Gu", "Ha")]);
    ev.run(&["round", "start"]).ok();
    for key in ["decision-seconds", "final-decision-seconds"] {
        ev.run(&["event", "set", key, "3", "--force"]).ok();
    }
    ev
}

/// One JSON write from phone `from`, with its key (and cookie) if given.
fn write(server: &Server, from: u8, path: &str, body: &Value, key: Option<&str>, cookie: Option<&str>) -> Got {
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(k) = key {
        headers.push(("Idempotency-Key", k));
    }
    let cookie = cookie.map(|c| format!("mmjudge_device={c}"));
    if let Some(c) = &cookie {
        headers.push(("Cookie", c));
    }
    send(ip(from), &server.addr, "POST", path, &headers, &body.to_string())
}

/// A judge's write from phone `from`, by their bearer token.
fn judge_write(server: &Server, from: u8, token: &str, path: &str, body: &Value, key: &str) -> Got {
    let bearer = format!("Bearer {token}");
    let headers = [("Content-Type", "application/json"), ("Idempotency-Key", key), ("Authorization", &bearer)];
    send(ip(from), &server.addr, "POST", path, &headers, &body.to_string())
}

#[track_caller]
fn ok(got: &Got) -> Value {
    assert_eq!(got.status, 200, "{got:?}");
    serde_json::from_str(&got.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", got.body))
}

/// `at` plus `ms` milliseconds, as a page stamps a moment.
fn plus(at: &str, ms: i64) -> String {
    let t = chrono::DateTime::parse_from_rfc3339(at).expect("a moment") + chrono::Duration::milliseconds(ms);
    t.with_timezone(&chrono::Utc).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn now_less(ms: i64) -> String {
    (chrono::Utc::now() - chrono::Duration::milliseconds(ms)).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn ms(doc: &Value, field: &str) -> i64 {
    doc[field].as_i64().unwrap_or_else(|| panic!("no {field} in {doc}"))
}

#[test]
fn a_stop_pre_registered_by_a_409_or_a_wrong_code_claims_no_moment() {
    if !other_addresses("a_stop_pre_registered_by_a_409_or_a_wrong_code_claims_no_moment") {
        return;
    }
    let ev = playing();
    let code = codes(&ev);
    let pin = judge(&ev, "Kim", "floor");
    let server = Server::start(&ev);
    let kim = server.login("Kim", &pin);
    // Before any decision runs, each key is sent once and refused: by a player's code (409 "no decision is
    // running"), by a judge's login (409) and with a wrong code (403).
    let stop = |table: u32, who: &str| json!({ "table": table, "code": code[who] });
    let refused = write(&server, 2, "/api/clock/stop", &stop(1, "Ana"), Some("k-409"), None);
    assert_eq!(refused.status, 409, "{refused:?}");
    let by_judge = judge_write(&server, 3, &kim, "/api/clock/stop", &json!({ "table": 2 }), "k-judge");
    assert_eq!(by_judge.status, 409, "{by_judge:?}");
    let wrong = json!({ "table": 3, "code": "000000" });
    assert_eq!(write(&server, 4, "/api/clock/stop", &wrong, Some("k-403"), None).status, 403);
    // Each decision starts live and runs 6 s.
    let mut started = HashMap::new();
    for (table, who) in [(1, "Ana"), (2, "Cy"), (3, "Ed")] {
        let doc = ok(&write(&server, 5, "/api/clock/start", &json!({ "table": table, "code": code[who] }), None, None));
        started.insert(table, doc["started_at"].as_str().expect("started_at").to_string());
    }
    std::thread::sleep(Duration::from_millis(6_000));
    // Each stop is sent again with its key, claiming 0.3 s after the start.
    let claim = |table: u32| plus(&started[&table], 300);
    let cases = [
        (
            1,
            write(
                &server,
                2,
                "/api/clock/stop",
                &json!({ "table": 1, "code": code["Ana"], "at": claim(1) }),
                Some("k-409"),
                None,
            ),
        ),
        (2, judge_write(&server, 3, &kim, "/api/clock/stop", &json!({ "table": 2, "at": claim(2) }), "k-judge")),
        (
            3,
            write(
                &server,
                4,
                "/api/clock/stop",
                &json!({ "table": 3, "code": code["Ed"], "at": claim(3) }),
                Some("k-403"),
                None,
            ),
        ),
    ];
    for (table, got) in cases {
        let doc = ok(&got);
        assert_eq!(doc["at_adjusted"], true, "table {table}: {doc}");
        assert!(ms(&doc, "duration_ms") >= 5_900, "table {table}: {doc}");
        assert!(ms(&doc, "overrun_ms") >= 2_900, "table {table}: {doc}");
    }
    // `mmjudge decisions` counts the three overruns.
    let doc = ev.run(&["--json", "decisions"]).json();
    assert_eq!(doc["overruns"].as_array().map(Vec::len), Some(3), "{doc}");
}

#[test]
fn a_hand_over_stops_the_decider_and_starts_the_opponent_at_its_arrival() {
    if !other_addresses("a_hand_over_stops_the_decider_and_starts_the_opponent_at_its_arrival") {
        return;
    }
    let ev = playing();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let tap = |who: &str| json!({ "table": 1, "code": code[who] });
    assert_eq!(write(&server, 2, "/api/clock/hand-over", &tap("Ana"), Some("h-1"), None).status, 409);
    let started = ok(&write(&server, 3, "/api/clock/start", &tap("Ana"), None, None));
    let started_at = started["started_at"].as_str().expect("started_at").to_string();
    std::thread::sleep(Duration::from_millis(6_000));
    // The hand-over sent again with its key, claiming 0.2 s after the start.
    let mut body = tap("Ana");
    body["at"] = json!(plus(&started_at, 200));
    let handed = ok(&write(&server, 2, "/api/clock/hand-over", &body, Some("h-1"), None));
    let answered = Instant::now();
    let stopped = &handed["stopped"];
    assert!(ms(stopped, "duration_ms") >= 5_900, "the decider keeps the length the server saw: {handed}");
    assert!(ms(stopped, "overrun_ms") >= 2_900, "the decider keeps the overrun: {handed}");
    // The opponent stops at once: charged only their own think.
    let bos = ok(&write(&server, 4, "/api/clock/stop", &tap("Bo"), None, None));
    let think = answered.elapsed().as_millis() as i64;
    assert!(ms(&bos, "duration_ms") <= think + 200, "Bo thought {think} ms: {bos}");
    assert_eq!(ms(&bos, "overrun_ms"), 0, "{bos}");
}

#[test]
fn a_start_claiming_a_moment_is_live_unless_its_page_says_and_the_server_checks_it_was_replayed() {
    if !other_addresses("a_start_claiming_a_moment_is_live_unless_its_page_says_and_the_server_checks_it_was_replayed")
    {
        return;
    }
    let ev = playing();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let start = |table: u32, who: &str, queued: Option<Value>, key: &str| {
        let mut body = json!({ "table": table, "code": code[who], "at": now_less(1) });
        if let Some(q) = queued {
            body["queued"] = q;
        }
        ok(&write(&server, 2, "/api/clock/start", &body, Some(key), None))
    };
    // Table 1: the 1 ms "replay" (a moment, no queued); table 2: "queued": 503 with no 503 kept for its key;
    // table 3: a replay the page says never got an answer ("unreachable": it cannot be checked).
    let one_ms = start(1, "Ana", None, "s-1");
    let no_503 = start(2, "Cy", Some(json!(503)), "s-2");
    let unreachable = start(3, "Ed", Some(json!("unreachable")), "s-3");
    assert_eq!((one_ms["at_adjusted"].as_bool(), no_503["at_adjusted"].as_bool()), (Some(true), Some(true)));
    assert_eq!(unreachable["at_adjusted"], false, "{unreachable}");
    std::thread::sleep(Duration::from_millis(4_000));
    let stop = |table: u32, who: &str, started: &Value, key: &str| {
        let at = plus(started["started_at"].as_str().expect("started_at"), 500);
        let body = json!({ "table": table, "code": code[who], "at": at, "queued": "unreachable" });
        ok(&write(&server, 3, "/api/clock/stop", &body, Some(key), None))
    };
    for (table, who, started, key) in [(1, "Ana", &one_ms, "e-1"), (2, "Cy", &no_503, "e-2")] {
        let doc = stop(table, who, started, key);
        assert!(ms(&doc, "duration_ms") >= 3_900, "not a replay: the claim is not taken at table {table}: {doc}");
        assert!(ms(&doc, "overrun_ms") >= 900, "{doc}");
    }
    // The unchecked replay keeps its claim (0.5 s) but its overrun as the server saw it is counted, marked
    // "claimed shorter".
    let honest = stop(3, "Ed", &unreachable, "e-3");
    assert_eq!((ms(&honest, "duration_ms"), ms(&honest, "overrun_ms")), (500, 0), "{honest}");
    let doc = ev.run(&["--json", "decisions"]).json();
    let overruns = doc["overruns"].as_array().cloned().unwrap_or_default();
    assert_eq!(overruns.len(), 3, "every overrun, the claimed-shorter one too: {doc}");
    let ed = overruns.iter().find(|o| o["player"] == "Ed").expect("Ed's overrun");
    assert_eq!(ed["claimed_ms"], 500, "{ed}");
    assert!(ms(ed, "overrun_ms") >= 900 && ms(ed, "duration_ms") >= 3_900, "as the server saw it: {ed}");
    let text = ev.run(&["decisions"]).stdout;
    assert!(text.contains("claimed shorter (0.5 s recorded)"), "{text}");
}

#[test]
fn the_opponents_flood_never_holds_back_the_deciders_stop() {
    if !other_addresses("the_opponents_flood_never_holds_back_the_deciders_stop") {
        return;
    }
    let ev = playing();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let started = ok(&write(&server, 2, "/api/clock/start", &json!({ "table": 1, "code": code["Ana"] }), None, None));
    let start = Instant::now();
    // Bo floods self-reports with his own code from his phone until Ana stops.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flood = {
        let (addr, bo, done) = (server.addr.clone(), code["Bo"].clone(), done.clone());
        std::thread::spawn(move || {
            let mut held = 0;
            let body = json!({ "table": 1, "code": bo, "winner": "Bo", "by": "concession" }).to_string();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let got =
                    send(ip(3), &addr, "POST", "/api/self-report", &[("Content-Type", "application/json")], &body);
                held += usize::from(got.status == 429);
            }
            held
        })
    };
    std::thread::sleep(Duration::from_millis(1_500).saturating_sub(start.elapsed()));
    let stop = write(&server, 2, "/api/clock/stop", &json!({ "table": 1, "code": code["Ana"] }), Some("f-1"), None);
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let held = flood.join().expect("the flood");
    let doc = ok(&stop);
    assert!(ms(&doc, "duration_ms") <= 2_000, "{doc} (started {started})");
    assert!(held > 0, "the flood went past Bo's own burst");
}

/// The device cookie an answer sets.
fn cookie_of(got: &Got) -> String {
    got.head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .filter_map(|(_, v)| v.trim().strip_prefix("mmjudge_device="))
        .map(|v| v.split(';').next().unwrap_or_default().to_string())
        .next()
        .unwrap_or_else(|| panic!("no device cookie set: {got:?}"))
}

#[test]
fn a_confirmation_from_the_reporters_device_or_without_a_cookie_is_refused_and_one_on_the_tables_device_is_flagged() {
    if !other_addresses(
        "a_confirmation_from_the_reporters_device_or_without_a_cookie_is_refused_and_one_on_the_tables_device_is_flagged",
    ) {
        return;
    }
    let ev = playing();
    let code = codes(&ev);
    let pin = judge(&ev, "Kim", "floor");
    let server = Server::start(&ev);
    let report = |table: u32, who: &str, winner: &str| json!({ "table": table, "code": code[who], "winner": winner, "by": "concession" });
    // Ana reports on her phone, then sends Bo's confirmation from it: refused, as is one with no device cookie.
    let ana = write(&server, 2, "/api/self-report", &report(1, "Ana", "Ana"), None, None);
    let id = ok(&ana)["report"]["id"].as_i64().expect("a report id");
    let ana_phone = cookie_of(&ana);
    let confirm = |who: &str| json!({ "table": 1, "code": code[who], "report": id });
    for me in [None, Some("Bo")] {
        let mut body = confirm("Bo");
        if let Some(me) = me {
            body["me"] = json!(me);
        }
        let own = write(&server, 2, "/api/self-report/confirm", &body, None, Some(&ana_phone));
        assert_eq!(own.status, 409, "{own:?}");
        assert!(own.body.contains("confirm on the table's device, or on your own phone"), "{own:?}");
    }
    let bare = write(&server, 3, "/api/self-report/confirm", &confirm("Bo"), None, None);
    assert_eq!(bare.status, 409, "{bare:?}");
    assert!(bare.body.contains("confirm on the table's device, or on your own phone"), "{bare:?}");
    // The same report sent in Bo's name from Ana's phone confirms nothing either.
    let twin = write(&server, 2, "/api/self-report", &report(1, "Bo", "Ana"), None, Some(&ana_phone));
    assert_eq!(twin.status, 409, "{twin:?}");
    let waiting = ev.run(&["--json", "result", "reports"]).json();
    assert_eq!(waiting["tables"][0]["state"], "waiting", "nothing recorded: {waiting}");
    // Bo confirms on his own phone (once it is known by its cookie).
    let bo_phone =
        cookie_of(&write(&server, 4, "/api/player/code", &json!({ "table": 1, "code": code["Bo"] }), None, None));
    let done = ok(&write(&server, 4, "/api/self-report/confirm", &confirm("Bo"), None, Some(&bo_phone)));
    assert_eq!((done["state"].as_str(), done.get("confirmed")), (Some("confirmed"), None), "{done}");

    // Table 2's own device: both players signed in on it; Cy reports, Di confirms there.
    let cy_in = write(&server, 5, "/api/player/code", &json!({ "table": 2, "code": code["Cy"] }), None, None);
    let device = cookie_of(&cy_in);
    let cy = ok(&cy_in)["signin"].as_str().expect("a sign-in").to_string();
    let di_in = write(&server, 5, "/api/player/code", &json!({ "table": 2, "code": code["Di"] }), None, Some(&device));
    let di = ok(&di_in)["signin"].as_str().expect("a sign-in").to_string();
    let body = json!({ "table": 2, "signin": cy, "winner": "Di", "by": "concession" });
    let id = ok(&write(&server, 5, "/api/self-report", &body, None, Some(&device)))["report"]["id"].clone();
    let body = json!({ "table": 2, "signin": di, "report": id });
    let on_table = ok(&write(&server, 5, "/api/self-report/confirm", &body, None, Some(&device)));
    assert_eq!((on_table["state"].as_str(), on_table["confirmed"].as_str()), (Some("confirmed"), Some("table-device")));
    let log = ev.run(&["--json", "log"]).json();
    let entries = log["entries"].as_array().cloned().unwrap_or_default();
    assert!(
        entries
            .iter()
            .any(|e| e["summary"].as_str().is_some_and(|s| s.contains("confirmed on the table's device by Di"))),
        "recorded so: {log}"
    );

    // Table 3: Fa confirms from another phone behind the reporter's address (a venue's NAT), one that never signed
    // in as Fa (its cookie from a page read): taken, flagged.
    let ed = write(&server, 6, "/api/self-report", &report(3, "Ed", "Ed"), None, None);
    let id = ok(&ed)["report"]["id"].clone();
    let some_phone = cookie_of(&send(ip(6), &server.addr, "GET", "/me?name=Fa", &[], ""));
    let body = json!({ "table": 3, "code": code["Fa"], "report": id });
    let nat = ok(&write(&server, 6, "/api/self-report/confirm", &body, None, Some(&some_phone)));
    assert_eq!(nat["confirmed"], "same-address", "{nat}");

    // Table 4: Ha confirms on his own phone behind the same address, where he signed in before: his word, unflagged.
    let gu = write(&server, 7, "/api/self-report", &report(4, "Gu", "Gu"), None, None);
    let id = ok(&gu)["report"]["id"].clone();
    let ha_phone =
        cookie_of(&write(&server, 7, "/api/player/code", &json!({ "table": 4, "code": code["Ha"] }), None, None));
    let body = json!({ "table": 4, "code": code["Ha"], "report": id });
    let own = ok(&write(&server, 7, "/api/self-report/confirm", &body, None, Some(&ha_phone)));
    assert_eq!((own["state"].as_str(), own.get("confirmed")), (Some("confirmed"), None), "{own}");

    // Both are flagged on the judges' dashboard.
    let kim = server.login("Kim", &pin);
    let page = server.get_as("/judge", &kim).body.replace("&#39;", "'");
    assert!(page.contains("table 2: Cy's report, confirmed on the table's device by Di"), "{page}");
    assert!(page.contains("table 3: Ed's report, confirmed by Fa from the reporter's network address"), "{page}");
}

#[test]
fn the_opponents_self_report_does_not_cost_a_replayed_declaration_its_moment() {
    if !other_addresses("the_opponents_self_report_does_not_cost_a_replayed_declaration_its_moment") {
        return;
    }
    let ev = playing();
    let code = codes(&ev);
    let server = Server::start(&ev);
    let note = |cost: &str| json!({ "table": 1, "code": code["Ana"], "cost": cost, "unnamed": true });
    ok(&write(&server, 2, "/api/note", &note("B1"), None, None));
    std::thread::sleep(Duration::from_millis(300));
    let made = now_less(0);
    std::thread::sleep(Duration::from_millis(300));
    // Bo reports a result from his phone after Ana's declaration was made offline, before it arrives.
    let body = json!({ "table": 1, "code": code["Bo"], "winner": "Bo", "by": "concession" });
    ok(&write(&server, 3, "/api/self-report", &body, None, None));
    let mut replay = note("R1");
    replay["at"] = json!(made);
    replay["queued"] = json!("unreachable");
    let doc = ok(&write(&server, 2, "/api/note", &replay, Some("n-1"), None));
    assert_eq!(doc["at_adjusted"], false, "the opponent's write is no bound: {doc}");
    // A replay claiming a moment before Ana's own last declaration takes its arrival.
    let mut early = note("G1");
    early["at"] = json!(plus(&made, -200));
    let doc = ok(&write(&server, 2, "/api/note", &early, Some("n-2"), None));
    assert_eq!(doc["at_adjusted"], true, "before the match's last declaration: {doc}");
}
