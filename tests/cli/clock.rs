//! The round clock (`round start/end/extend`, `time`), the scripted decision clock (`clock --start/--stop`),
//! `decisions` and the projector page.

use crate::harness::Event;

const START: &str = "2025-05-01T10:00:00Z";

fn at(hms: &str) -> String {
    format!("2025-05-01T{hms}Z")
}

/// An event with round 1 seated at tables 1 and 2 (Ana–Bo, Cy–Di), not started.
fn seated() -> Event {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev
}

/// The same, with the round's clock started at 10:00.
fn started() -> Event {
    let ev = seated();
    ev.run(&["round", "start", "--at", START]).ok();
    ev
}

fn time_at(ev: &Event, hms: &str) -> serde_json::Value {
    ev.run_with(&["--json", "time"], &[("MMJUDGE_NOW", &at(hms))]).json()
}

#[test]
fn round_start_time_and_extensions() {
    let ev = started();
    let doc = time_at(&ev, "10:20:00");
    assert_eq!(doc["round"], 1);
    assert_eq!(doc["started_at"], "2025-05-01T10:00:00.000Z");
    let t1 = &doc["tables"][0];
    assert_eq!((t1["table"].as_u64(), t1["time_left_ms"].as_i64()), (Some(1), Some(30 * 60_000)));
    assert_eq!(
        (t1["final_window"].as_bool(), t1["limit_secs"].as_u64(), t1["over"].as_bool()),
        (Some(false), Some(45), Some(false))
    );
    assert_eq!(t1["players"], serde_json::json!(["Ana", "Bo"]));

    ev.run(&["round", "extend", "2", "2.5", "--reason", "deck check"]).ok();
    // 10:36: table 1 is in its final window (14:00 left), table 2 is not (16:30 left).
    let doc = time_at(&ev, "10:36:00");
    let (t1, t2) = (&doc["tables"][0], &doc["tables"][1]);
    assert_eq!((t1["final_window"].as_bool(), t1["limit_secs"].as_u64()), (Some(true), Some(15)));
    assert_eq!((t2["final_window"].as_bool(), t2["limit_secs"].as_u64()), (Some(false), Some(45)));
    assert_eq!(t2["extension_secs"], 150);
    assert_eq!(t2["extensions"][0]["reason"], "deck check");
    assert_eq!(t2["ends_at"], "2025-05-01T10:52:30.000Z");
    // Exactly 15:00 left at table 2 is inside its window.
    let doc = time_at(&ev, "10:37:30");
    assert_eq!(doc["tables"][1]["final_window"], true);
    // 10:51: table 1 is over, table 2 is not.
    let doc = time_at(&ev, "10:51:00");
    assert_eq!((doc["tables"][0]["over"].as_bool(), doc["tables"][1]["over"].as_bool()), (Some(true), Some(false)));
    let text = ev.run_with(&["time"], &[("MMJUDGE_NOW", &at("10:51:00"))]).ok().to_string();
    assert!(text.contains("Over time: table 1.") && text.contains("--by time"), "{text}");
    assert!(text.contains("+2:30 (#1 deck check)"), "{text}");
}

#[test]
fn round_end_lists_open_tables_and_stops_running_decisions() {
    let ev = started();
    ev.set_result_for_clock(1, 1, "A");
    ev.run(&["clock", "2", "--start", "Cy", "--at", &at("10:49:50")]).ok();
    let msg = ev.refuses(&["round", "end", "--at", &at("10:50:00")]);
    assert!(msg.contains("still has 1 table without a result (table 2)") && msg.contains("--force"), "{msg}");
    let doc = ev.run(&["--json", "round", "end", "--at", &at("10:50:00"), "--force"]).json();
    assert_eq!(doc["without_result"], serde_json::json!([2]));
    assert_eq!(doc["stopped_decisions"], 1);
    assert!(doc["summary"].as_str().unwrap_or("").contains("table 2"), "{doc}");
    let d = ev.run(&["--json", "decisions"]).json();
    assert_eq!((d["total"]["count"].as_u64(), d["running"].as_u64()), (Some(1), Some(0)));
    assert_eq!(d["players"][0]["longest_ms"], 10_000);
    // After the end, `time` shows the tables as they stood at the end.
    let doc = time_at(&ev, "11:30:00");
    assert_eq!(doc["at"], "2025-05-01T10:50:00.000Z");
    assert_eq!(doc["tables"][0]["result"], "A");
}

/// "End the round anyway" calls time at every table still playing: `time` gives it no time left and `over`,
/// the judges' pages' tables say so; nothing is recorded at the table, so `round reopen` gives the clock back.
#[test]
fn ending_a_round_anyway_calls_time_at_the_tables_still_playing_and_reopening_restores_their_clocks() {
    let ev = started();
    ev.set_result_for_clock(1, 1, "A");
    ev.run(&["round", "end", "--at", &at("10:10:00"), "--force"]).ok();
    let doc = time_at(&ev, "10:12:00");
    let t2 = &doc["tables"][1];
    assert_eq!(t2["table"], 2);
    assert_eq!((t2["over"].as_bool(), t2["time_left_ms"].as_i64()), (Some(true), Some(0)), "{doc}");
    assert_eq!(
        (t2["ends_at"].as_str(), t2["called_at_close"].as_bool()),
        (Some(at("10:10:00.000").as_str()), Some(true))
    );
    let text = ev.run_with(&["time"], &[("MMJUDGE_NOW", &at("10:12:00"))]).ok().to_string();
    assert!(text.contains("Over time: table 2."), "{text}");
    ev.run(&["round", "reopen"]).ok();
    let doc = time_at(&ev, "10:12:00");
    let t2 = &doc["tables"][1];
    assert_eq!((t2["over"].as_bool(), t2["time_left_ms"].as_i64()), (Some(false), Some(38 * 60_000)), "{doc}");
    assert_eq!(
        (t2["ends_at"].as_str(), t2["called_at_close"].as_bool()),
        (Some(at("10:50:00.000").as_str()), Some(false))
    );
}

#[test]
fn scripted_decisions_record_limit_and_overrun() {
    let ev = started();
    ev.run(&["clock", "1", "--start", "ana", "--at", &at("10:05:00")]).ok();
    let doc = ev.run(&["--json", "clock", "1", "--stop", "--at", &at("10:05:52.300")]).json();
    assert_eq!(
        (doc["duration_ms"].as_i64(), doc["limit_ms"].as_i64(), doc["overrun_ms"].as_i64()),
        (Some(52_300), Some(45_000), Some(7_300))
    );
    assert!(doc["summary"].as_str().unwrap_or("").contains("possible slow play"), "{doc}");
    // Started at 15:10 left: the smaller of 45 s and the window's 15 s applies (window + 15 s = 25 s in).
    ev.run(&["clock", "1", "--start", "Bo", "--at", &at("10:34:50")]).ok();
    let doc = ev.run(&["--json", "clock", "1", "--stop", "--at", &at("10:35:10")]).json();
    assert_eq!((doc["limit_ms"].as_i64(), doc["overrun_ms"].as_i64()), (Some(25_000), Some(0)));
    // Inside the window: 15 s.
    ev.run(&["clock", "1", "--start", "Bo", "--at", &at("10:40:00")]).ok();
    let doc = ev.run(&["--json", "clock", "1", "--stop", "--at", &at("10:40:16")]).json();
    assert_eq!((doc["limit_ms"].as_i64(), doc["overrun_ms"].as_i64()), (Some(15_000), Some(1_000)));
    // A running decision shows in `time`.
    ev.run(&["clock", "2", "--start", "Di", "--at", &at("10:41:00")]).ok();
    let doc = time_at(&ev, "10:41:12");
    assert_eq!(doc["tables"][1]["deciding"]["player"], "Di");
    assert_eq!(doc["tables"][1]["deciding"]["elapsed_ms"], 12_000);
    // The overrun is on the player's record in the audit log.
    let log = ev.run(&["--json", "log", "--player", "ana"]).json();
    let summaries: Vec<&str> =
        log["entries"].as_array().into_iter().flatten().filter_map(|e| e["summary"].as_str()).collect();
    assert!(summaries.iter().any(|s| s.contains("over by 7.3 s")), "{summaries:?}");
}

#[test]
fn decisions_summarise_per_player_and_filter() {
    let ev = started();
    for (table, who, from, to) in [
        ("1", "Ana", "10:01:00", "10:01:10"),
        ("1", "Ana", "10:02:00", "10:02:30"),
        ("1", "Ana", "10:03:00", "10:03:50"),
        ("1", "Bo", "10:04:00", "10:04:20"),
        ("2", "Cy", "10:05:00", "10:05:05"),
    ] {
        ev.run(&["clock", table, "--start", who, "--at", &at(from)]).ok();
        ev.run(&["clock", table, "--stop", "--at", &at(to)]).ok();
    }
    let doc = ev.run(&["--json", "decisions"]).json();
    assert_eq!(doc["total"]["count"], 5);
    let ana = &doc["players"][0];
    assert_eq!(ana["player"], "Ana", "most overruns first");
    assert_eq!(
        (ana["count"].as_u64(), ana["median_ms"].as_i64(), ana["longest_ms"].as_i64(), ana["overruns"].as_u64()),
        (Some(3), Some(30_000), Some(50_000), Some(1))
    );
    assert_eq!(doc["overruns"][0]["overrun_ms"], 5_000);
    let doc = ev.run(&["--json", "decisions", "--table", "2"]).json();
    assert_eq!((doc["total"]["count"].as_u64(), doc["players"][0]["player"].as_str()), (Some(1), Some("Cy")));
    let doc = ev.run(&["--json", "decisions", "--player", "bo"]).json();
    assert_eq!(doc["total"]["count"], 1);
    let csv = ev.run(&["--csv", "decisions"]).ok().to_string();
    assert!(csv.starts_with("player,decisions,median,longest,overruns,overrun total,stalls logged\n"), "{csv}");
    assert!(csv.contains("Ana,3,30.0 s,50.0 s,1,5.0 s,0"), "{csv}");
    let text = ev.run(&["decisions"]).ok().to_string();
    assert!(text.contains("overrun: round 1 table 1, Ana"), "{text}");
}

#[test]
fn projector_page_is_written_for_the_current_round() {
    let ev = started();
    ev.run(&["round", "extend", "2", "3", "--reason", "judge call"]).ok();
    let file = ev.path("clock.html");
    let doc = ev.run(&["--json", "clock", "--html", &file.to_string_lossy()]).json();
    assert_eq!(doc["tables_extended"], 1);
    let html = std::fs::read_to_string(&file).unwrap_or_default();
    for want in [r#"data-start="2025-05-01T10:00:00Z""#, r#"data-table="2" data-ext="180""#, "Test Open", "Round 1"] {
        assert!(html.contains(want), "missing {want}");
    }
    for banned in ["http://", "https://", "<link", "src="] {
        assert!(!html.contains(banned), "external reference {banned}");
    }
}

#[test]
fn refuses_round_clock_misuse() {
    let ev = Event::new();
    assert!(ev.refuses(&["round", "start"]).contains("no round has been paired"));
    assert!(ev.refuses(&["time"]).contains("no round has been paired"));
    let ev = seated();
    assert!(ev.refuses(&["round", "end"]).contains("has not started"));
    assert!(ev.refuses(&["time"]).contains("`mmjudge round start`"));
    assert!(ev.refuses(&["round", "start", "--at", "half past ten"]).contains("cannot read the time"));
    ev.run(&["round", "start", "--at", START]).ok();
    assert!(ev.refuses(&["round", "start"]).contains("already started"));
    assert!(ev.refuses(&["round", "end", "--at", &at("09:59:59")]).contains("before round 1 started"));
    ev.run(&["round", "end", "--at", &at("10:50:00"), "--force"]).ok();
    assert!(ev.refuses(&["round", "end"]).contains("already closed"));
    assert!(ev.refuses(&["round", "extend", "1", "5", "--reason", "late"]).contains("closed"));
    assert!(ev.refuses(&["clock", "1", "--start", "Ana"]).contains("closed"));
}

#[test]
fn refuses_bad_extensions() {
    let ev = started();
    assert!(ev.refuses(&["round", "extend", "1", "0", "--reason", "x"]).contains("more than 0 minutes"));
    assert!(ev.refuses(&["round", "extend", "1", "-3", "--reason", "x"]).contains("more than 0 minutes"));
    assert!(ev.refuses(&["round", "extend", "1", "five", "--reason", "x"]).contains("not a number"));
    assert!(ev.refuses(&["round", "extend", "9", "5", "--reason", "x"]).contains("no match at table 9"));
    assert!(ev.refuses(&["round", "extend", "1", "5", "--reason", " "]).contains("--reason"));
    ev.set_result_for_clock(1, 1, "B");
    assert!(ev.refuses(&["round", "extend", "1", "5", "--reason", "x"]).contains("already has a result"));
}

#[test]
fn refuses_clock_at_a_table_without_a_live_match() {
    let ev = seated();
    assert!(ev.refuses(&["clock", "1"]).contains("has not started"));
    assert!(ev.refuses(&["clock", "1", "--start", "Ana"]).contains("has not started"));
    ev.run(&["round", "start", "--at", START]).ok();
    assert!(ev.refuses(&["clock", "7"]).contains("no match at table 7"));
    assert!(ev.refuses(&["clock", "7", "--start", "Ana"]).contains("no match at table 7"));
    ev.set_result_for_clock(1, 1, "draw");
    assert!(ev.refuses(&["clock", "1"]).contains("already has a result"));
    assert!(ev.refuses(&["clock", "1", "--start", "Ana"]).contains("already has a result"));
    // Without a terminal the live screen refuses (tests and pipes), pointing at --start/--stop.
    assert!(ev.refuses(&["clock", "2"]).contains("needs a terminal"));
}

#[test]
fn refuses_bad_starts_and_stops() {
    let ev = started();
    assert!(ev.refuses(&["clock", "1", "--stop"]).contains("no decision is running"));
    assert!(ev.refuses(&["clock", "1", "--start", "Cy"]).contains("is not at table 1"));
    assert!(ev.refuses(&["clock", "1", "--start", "Zed"]).contains("unknown player"));
    assert!(ev.refuses(&["clock", "1", "--start", "Ana", "--at", "soon"]).contains("cannot read the time"));
    assert!(ev.refuses(&["clock", "1", "--start", "Ana", "--at", &at("09:30:00")]).contains("before round 1 started"));
    ev.run(&["clock", "1", "--start", "Ana", "--at", &at("10:10:00")]).ok();
    assert!(ev.refuses(&["clock", "1", "--start", "Bo"]).contains("already deciding"));
    assert!(ev.refuses(&["clock", "1", "--stop", "--at", "10:6x"]).contains("cannot read the time"));
    assert!(ev.refuses(&["clock", "1", "--stop", "--at", &at("09:59:00")]).contains("before round 1 started"));
    assert!(ev.refuses(&["clock", "1", "--stop", "--at", &at("10:09:59")]).contains("before the decision started"));
    assert!(ev.refuses(&["clock", "1"]).contains("--stop"));
    ev.run(&["clock", "1", "--stop", "--at", &at("10:10:30")]).ok();
}

#[test]
fn usage_errors_for_contradictory_flags() {
    let ev = started();
    for args in [
        &["clock", "1", "--start", "Ana", "--stop"][..],
        &["clock", "1", "--at", "10:00"],
        &["clock", "1", "--html", "x.html"],
        &["clock"],
    ] {
        assert_eq!(ev.run(args).code, 2, "{args:?}");
    }
}

#[test]
fn a_result_stops_the_decision_still_running_at_that_table() {
    let ev = started();
    ev.run(&["clock", "1", "--start", "Bo", "--at", &at("10:20:00")]).ok();
    ev.run(&["result", "1", "ana", "--by", "concession", "--at", &at("10:20:12")]).ok();
    let d = ev.run(&["--json", "decisions"]).json();
    assert_eq!((d["total"]["count"].as_u64(), d["running"].as_u64()), (Some(1), Some(0)), "{d}");
    assert_eq!(d["players"][0]["longest_ms"], 12_000, "stopped at the result's moment, no false overrun");
}
