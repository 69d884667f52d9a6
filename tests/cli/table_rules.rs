//! Three rules at the table: a seat swap only before play at either table, a result by time only once time is
//! called at its table, a declaration only once the round's clock runs. Each through the command line and, where
//! the server takes the write, through `mmjudge serve`; every refusal leaves the event file as it was.

use crate::cards::with_reference;
use crate::harness::{Event, Run};
use crate::serve::{Server, codes, judge};
use serde_json::json;

const START: &str = "2025-05-01T10:00:00Z";

fn at(hms: &str) -> String {
    format!("2025-05-01T{hms}Z")
}

/// Runs at a fixed moment of 2025-05-01, in UTC.
fn run_at(ev: &Event, hms: &str, args: &[&str]) -> Run {
    ev.run_with(args, &[("MMJUDGE_NOW", &at(hms)), ("TZ", "UTC")])
}

/// A command refused at a fixed moment: one line, exit 1, the event file unchanged. Returns the message.
#[track_caller]
fn refused_at(ev: &Event, hms: &str, args: &[&str]) -> String {
    let before = ev.dump();
    let msg = run_at(ev, hms, args).refused().to_string();
    assert_eq!(before, ev.dump(), "a refused command changed the event: {args:?}");
    msg
}

/// The bundled reference; round 1 paired at tables 1 (Ana-Bo), 2 (Cy-Di) and 3 (Ed-Flo), not started.
fn paired() -> Event {
    Event::cached("table_rules::paired", || {
        let ev = with_reference();
        ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di"), (3, "Ed", "Flo")]);
        ev
    })
}

/// [`paired`] with round 1's clock started at 10:00 (50 minutes: time is called at 10:50).
fn started() -> Event {
    let ev = paired();
    run_at(&ev, "10:00:00", &["round", "start", "--at", START]).ok();
    ev
}

fn seats(ev: &Event, table: usize) -> (String, String) {
    let doc = run_at(ev, "10:00:00", &["--json", "pairings"]).json();
    let t = &doc["tables"][table - 1];
    (t["a"]["name"].as_str().unwrap_or_default().into(), t["b"]["name"].as_str().unwrap_or_default().into())
}

// 1. `round swap` only before play at either table.

#[test]
fn a_swap_before_play_is_taken_even_after_the_round_started() {
    let ev = started();
    run_at(&ev, "10:01:00", &["round", "swap", "ana", "cy"]).ok();
    assert_eq!(seats(&ev, 1), ("Cy".into(), "Bo".into()));
    assert_eq!(seats(&ev, 2), ("Ana".into(), "Di".into()));
}

#[test]
fn a_swap_is_refused_once_a_table_holds_a_template_note_and_taken_once_it_is_voided() {
    let ev = started();
    let id = ev.note(&["1", "ana", "R", "Shock", "--at", &at("10:05:00")]);
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "ana", "cy"]);
    assert_eq!(
        msg.trim_end(),
        "error: table 1 in round 1 already holds play (1 template note): its game is under way with these players in \
         these seats; take it back first with `mmjudge note void ID` (ids in `mmjudge notes 1`), then swap"
    );
    // Either player of the table, from either side of the swap, and the two players of the table itself.
    refused_at(&ev, "10:06:00", &["round", "swap", "cy", "bo"]);
    refused_at(&ev, "10:06:00", &["round", "swap", "ana", "bo"]);
    // Tables without play still swap.
    run_at(&ev, "10:06:00", &["round", "swap", "cy", "ed"]).ok();
    // A voided note counts for nothing: the swap is taken, and the card is free again at the table.
    run_at(&ev, "10:07:00", &["note", "void", &id.to_string(), "--reason", "wrong seats"]).ok();
    run_at(&ev, "10:08:00", &["round", "swap", "ana", "ed"]).ok();
    assert_eq!(seats(&ev, 1), ("Ed".into(), "Bo".into()));
    ev.note(&["1", "bo", "R", "Shock", "--at", &at("10:09:00")]);
}

#[test]
fn a_swap_is_refused_while_a_decision_runs_and_after_one_was_timed() {
    let ev = started();
    run_at(&ev, "10:05:00", &["clock", "2", "--start", "cy", "--at", &at("10:05:00")]).ok();
    let msg = refused_at(&ev, "10:05:30", &["round", "swap", "ana", "di"]);
    assert!(msg.contains("table 2 in round 1 already holds play (1 running decision)"), "{msg}");
    assert!(msg.contains("`mmjudge clock 2 --cancel`"), "{msg}");
    run_at(&ev, "10:05:40", &["clock", "2", "--cancel"]).ok();
    run_at(&ev, "10:05:50", &["round", "swap", "ana", "di"]).ok();
    run_at(&ev, "10:06:00", &["clock", "2", "--start", "ana", "--at", &at("10:06:00")]).ok();
    run_at(&ev, "10:06:20", &["clock", "2", "--stop", "--at", &at("10:06:20")]).ok();
    let msg = refused_at(&ev, "10:07:00", &["round", "swap", "ana", "ed"]);
    assert!(msg.contains("(1 timed decision)"), "{msg}");
    assert!(msg.contains("a timed decision cannot be taken back, so they stay where they sit"), "{msg}");
}

#[test]
fn a_swap_is_refused_at_a_table_with_an_extension_a_penalty_a_ruling_or_a_challenge() {
    let ev = started();
    run_at(&ev, "10:05:00", &["round", "extend", "1", "3", "--reason", "deck check"]).ok();
    run_at(&ev, "10:05:00", &["penalty", "cy", "slow-play", "--table", "2"]).ok();
    run_at(&ev, "10:05:00", &["ruling", "3", "Ed keeps the card"]).ok();
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "ana", "cy"]);
    assert!(
        msg.contains("tables 1 and 2 in round 1 already hold play (table 1: 1 extension; table 2: 1 penalty)"),
        "{msg}"
    );
    assert!(msg.contains("`mmjudge round extend void ID`"), "{msg}");
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "di", "ed"]);
    assert!(
        msg.contains("tables 2 and 3 in round 1 already hold play (table 2: 1 penalty; table 3: 1 ruling)"),
        "{msg}"
    );
    assert!(msg.contains("`mmjudge penalty void ID`"), "{msg}");
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "flo", "ed"]);
    assert!(msg.contains("table 3 in round 1 already holds play (1 ruling)"), "{msg}");
    let ev = started();
    let ch = ["challenge", "1", "--by", "bo", "--about", "what Shock does", "--ruling", "upheld"];
    run_at(&ev, "10:05:00", &ch).ok();
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "bo", "cy"]);
    assert!(msg.contains("(1 challenge)") && msg.contains("`mmjudge challenge void ID`"), "{msg}");
}

#[test]
fn a_swap_is_refused_at_a_table_with_an_open_judge_call_or_a_players_result_report() {
    let ev = started();
    // The rows the players' phones write (`POST /api/call`, `POST /api/self-report`).
    ev.sql(
        "INSERT INTO judge_call (match_id, player_id, at) SELECT m.id, m.a_player, '2025-05-01T10:05:00.000Z' \
         FROM match m WHERE m.table_no = 1;
         INSERT INTO self_report (match_id, player_id, outcome, reason, at) SELECT m.id, m.a_player, 'A', \
         'concession', '2025-05-01T10:05:00.000Z' FROM match m WHERE m.table_no = 2;",
    );
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "ana", "ed"]);
    assert!(msg.contains("(1 open judge call)") && msg.contains("`mmjudge call close 1`"), "{msg}");
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "di", "ed"]);
    assert!(msg.contains("(1 player's result report)") && msg.contains("cannot be taken back"), "{msg}");
    run_at(&ev, "10:07:00", &["call", "close", "1"]).ok();
    run_at(&ev, "10:07:00", &["round", "swap", "ana", "ed"]).ok();
}

// 2. `result --by time` only once time is called at the table.

#[test]
fn a_result_by_time_is_refused_before_the_round_starts() {
    let ev = paired();
    let msg = refused_at(&ev, "09:50:00", &["result", "1", "--by", "time", "--life", "12", "9"]);
    assert_eq!(
        msg.trim_end(),
        "error: time has not been called at table 1: round 1's clock has not started (`mmjudge round start`); \
         before it, a result is by concession, intentional-draw, no-show or penalty"
    );
}

#[test]
fn a_result_by_time_waits_for_the_tables_own_end() {
    let ev = started();
    run_at(&ev, "10:20:00", &["round", "extend", "1", "2.5", "--reason", "judge call"]).ok();
    let msg = refused_at(&ev, "10:10:00", &["result", "2", "--by", "time", "--life", "12", "9"]);
    assert_eq!(
        msg.trim_end(),
        "error: time is called at table 2 at 10:50 (40:00 left on its clock): record the result by another reason \
         (--by concession, life, ...), or by time once time is called or the round is closed (`mmjudge round end`)"
    );
    // Table 1's extension moves its time: refused at 10:51, taken at its own end.
    let msg = refused_at(&ev, "10:51:00", &["result", "1", "--by", "time", "--life", "3", "8"]);
    assert!(msg.contains("time is called at table 1 at 10:52:30 (1:30 left on its clock)"), "{msg}");
    let msg =
        refused_at(&ev, "10:55:00", &["result", "1", "--by", "time", "--life", "3", "8", "--at", &at("10:52:00")]);
    assert!(msg.contains("at 10:52:30"), "{msg}");
    run_at(&ev, "10:51:00", &["result", "2", "--by", "time", "--life", "12", "9"]).ok();
    run_at(&ev, "10:55:00", &["result", "1", "--by", "time", "--life", "3", "8", "--at", &at("10:52:30")]).ok();
    // Other reasons are taken at any moment of the round.
    run_at(&ev, "10:12:00", &["result", "3", "ed", "--by", "concession"]).ok();
}

#[test]
fn a_closed_round_calls_time_at_every_table_still_playing() {
    let ev = started();
    run_at(&ev, "10:20:00", &["round", "end", "--force"]).ok();
    let msg =
        refused_at(&ev, "10:25:00", &["result", "1", "--by", "time", "--life", "3", "8", "--at", &at("10:15:00")]);
    assert!(msg.contains("time is called at table 1 at 10:20 ("), "{msg}");
    run_at(&ev, "10:21:00", &["result", "1", "--by", "time", "--life", "3", "8"]).ok();
}

#[test]
fn a_fix_to_a_result_by_time_needs_time_called_by_its_moment() {
    let ev = started();
    run_at(&ev, "10:05:00", &["result", "1", "ana", "--by", "concession"]).ok();
    let msg = refused_at(&ev, "10:30:00", &["result", "fix", "1", "--by", "time", "--life", "9", "3"]);
    assert!(msg.contains("time is called at table 1 at 10:50 (45:00 left on its clock)"), "{msg}");
    run_at(&ev, "10:56:00", &["result", "fix", "1", "--by", "time", "--life", "9", "3", "--at", &at("10:55:00")]).ok();
}

#[test]
fn a_fix_that_changes_the_winner_by_time_needs_time_called_even_after_a_reopen() {
    let ev = started();
    // The round closes at 10:20 (time called everywhere), a result by time is taken, then the round reopens.
    run_at(&ev, "10:20:00", &["round", "end", "--force"]).ok();
    run_at(&ev, "10:21:00", &["result", "1", "--by", "time", "--life", "9", "3"]).ok();
    run_at(&ev, "10:22:00", &["round", "reopen"]).ok();
    // The clock runs again: a result by time is refused, and so is a fix to the other player by time.
    let msg = refused_at(&ev, "10:30:00", &["result", "2", "--by", "time", "--life", "9", "3"]);
    assert!(msg.contains("time is called at table 2 at 10:50 (20:00 left on its clock)"), "{msg}");
    // (The fix keeps the result's moment, 10:21, unless given with --at.)
    let msg = refused_at(&ev, "10:30:00", &["result", "fix", "1", "--by", "time", "--life", "3", "9"]);
    assert!(msg.contains("time is called at table 1 at 10:50 (29:00 left on its clock)"), "{msg}");
    // A fix keeping the winner by time (a remark, life totals) is taken; once time is called, the flip too.
    run_at(&ev, "10:30:00", &["result", "fix", "1", "--by", "time", "--life", "9", "4"]).ok();
    let flip = ["result", "fix", "1", "--by", "time", "--life", "3", "9", "--at", "10:51"];
    let fixed = run_at(&ev, "10:52:00", &flip).ok().to_string();
    assert!(fixed.contains("now Bo beat Ana by time"), "{fixed}");
}

#[test]
fn the_judges_api_and_the_players_reports_refuse_a_result_by_time_before_time() {
    let ev = started();
    let env = [("MMJUDGE_NOW", at("10:10:00")), ("TZ", "UTC".into())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let pin = judge(&ev, "Kim", "floor");
    let server = Server::start_with(&ev, &[], &env);
    let token = server.login("Kim", &pin);
    let (cookie, csrf) = crate::serve::page_login(&server, "Kim", &pin);
    let before = ev.dump();
    let body = json!({ "table": 2, "by": "time", "life": [12, 9] });
    let msg = server.post_json("/api/result", Some(&token), &body).error(409);
    assert!(msg.starts_with("time is called at table 2 at 10:50 (40:00 left on its clock)"), "{msg}");
    // The judges' table page: its form answers with the same line.
    let form = format!("csrf={csrf}&back=/judge/table/2&table=2&winner=&by=time&life=12%2C9&turn=7");
    let headers = [("Cookie", cookie.as_str()), ("Content-Type", "application/x-www-form-urlencoded")];
    let page = server.request("POST", "/api/result", &headers, &form);
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(page.body.contains("time is called at table 2 at 10:50 (40:00 left on its clock)"), "{}", page.body);
    let code = codes(&ev)["Cy"].clone();
    let report = json!({ "table": 2, "code": code, "by": "time", "life": [12, 9] });
    let msg = server.post_json("/api/self-report", None, &report).error(409);
    assert_eq!(
        msg,
        "time is called at table 2 at 10:50 (40:00 left on its clock); record the result by another reason (a \
         concession, life, ...), or by time once time is called"
    );
    assert!(!page.body.contains("mmjudge round") && !page.body.contains("--by"), "{}", page.body);
    assert_eq!(before, ev.dump());
}

// 3. No declaration before the round's clock runs.

#[test]
fn a_declaration_before_the_round_starts_is_refused_even_for_a_finished_match_or_with_at() {
    let ev = paired();
    let msg = refused_at(&ev, "09:55:00", &["note", "2", "cy", "R", "Shock"]);
    assert_eq!(
        msg.trim_end(),
        "error: round 1 has not started: no card is declared before its clock starts; start it with `mmjudge round start`"
    );
    refused_at(&ev, "09:55:00", &["note", "2", "cy", "R", "Shock", "--at", &at("09:50:00")]);
    // A match with a result before the round started takes no "late" note either.
    run_at(&ev, "09:56:00", &["result", "2", "cy", "--by", "concession"]).ok();
    let msg = refused_at(&ev, "09:57:00", &["note", "2", "cy", "R", "Shock"]);
    assert!(msg.contains("round 1 has not started"), "{msg}");
    // Once the clock runs, a note is taken; a judge's late note must itself be after the start.
    run_at(&ev, "10:00:00", &["round", "start"]).ok();
    let msg = refused_at(&ev, "10:05:00", &["note", "1", "ana", "R", "Shock", "--at", &at("09:59:00")]);
    assert!(msg.contains("is before round 1 started"), "{msg}");
    run_at(&ev, "10:05:00", &["note", "1", "ana", "R", "Shock", "--at", &at("10:01:00")]).ok();
    let late = run_at(&ev, "10:05:00", &["--json", "note", "2", "cy", "R", "Shock"]).json();
    assert_eq!(late["late"], true);
}

#[test]
fn a_declaration_is_refused_until_a_start_set_for_later() {
    let ev = paired();
    run_at(&ev, "09:59:00", &["round", "start", "--at", &at("10:00:00")]).ok();
    let msg = refused_at(&ev, "09:59:30", &["note", "1", "ana", "R", "Shock"]);
    assert_eq!(
        msg.trim_end(),
        "error: round 1's clock starts at 10:00: no card is declared before round 1's clock starts; wait for it, or \
         start it at once with `mmjudge round start --now`"
    );
    run_at(&ev, "10:00:00", &["note", "1", "ana", "R", "Shock"]).ok();
}

#[test]
fn the_server_refuses_a_declaration_before_the_round_starts_from_a_player_or_a_judge() {
    let ev = paired();
    run_at(&ev, "09:56:00", &["result", "2", "cy", "--by", "concession"]).ok();
    let env = [("MMJUDGE_NOW", at("09:58:00")), ("TZ", "UTC".into())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let pin = judge(&ev, "Kim", "floor");
    let server = Server::start_with(&ev, &[], &env);
    let token = server.login("Kim", &pin);
    let code = codes(&ev)["Cy"].clone();
    let before = ev.dump();
    for table in [1, 2] {
        let who = if table == 1 { "Ana" } else { "Cy" };
        let code = codes(&ev)[who].clone();
        let body = json!({ "table": table, "code": code, "cost": "R", "card": "Shock" });
        let msg = server.post_json("/api/note", None, &body).error(409);
        // A phone is never told to type a command.
        assert_eq!(
            msg,
            "round 1 has not started: no card is declared before its clock starts; a head judge starts it with Start the round on the Judges page"
        );
    }
    let body = json!({ "table": 2, "code": code, "cost": "R", "card": "Shock", "client_id": "x-1" });
    server.post_json("/api/note", None, &body).error(409);
    let judge_note = json!({ "table": 1, "player": "Ana", "cost": "R", "card": "Shock" });
    let msg = server.post_json("/api/note", Some(&token), &judge_note).error(409);
    assert_eq!(
        msg,
        "round 1 has not started: no card is declared before its clock starts; a head judge starts it with Start the round on the Judges page"
    );
    assert_eq!(before, ev.dump());
}

#[test]
fn a_swap_at_a_table_with_a_result_names_result_clear_as_the_way_out() {
    let ev = started();
    ev.set_result_for_clock(1, 1, "A");
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "ana", "cy"]);
    assert_eq!(
        msg.trim_end(),
        "error: table 1 in round 1 already has a result: take it back with `mmjudge result clear 1`, swap the seats, \
         then record the result again"
    );
    // The way out works.
    run_at(&ev, "10:07:00", &["result", "clear", "1"]).ok();
    run_at(&ev, "10:07:00", &["round", "swap", "ana", "cy"]).ok();
    assert_eq!(seats(&ev, 1), ("Cy".into(), "Bo".into()));
}

#[test]
fn a_swap_between_two_tables_holding_play_names_both_in_one_line() {
    let ev = started();
    run_at(&ev, "10:05:00", &["round", "extend", "1", "3", "--reason", "deck check"]).ok();
    run_at(&ev, "10:05:00", &["penalty", "cy", "slow-play", "--table", "2"]).ok();
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "ana", "cy"]);
    assert_eq!(
        msg.trim_end(),
        "error: tables 1 and 2 in round 1 already hold play (table 1: 1 extension; table 2: 1 penalty): their games \
         are under way with these players in these seats; take them back first with `mmjudge round extend void ID`, \
         `mmjudge penalty void ID`, then swap"
    );
}

#[test]
fn a_swap_with_a_bye_says_what_changes_the_byes() {
    let ev = started();
    run_at(&ev, "10:00:00", &["player", "add", "Gil"]).ok();
    ev.bye(1, "Gil");
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "ana", "gil"]);
    assert_eq!(
        msg.trim_end(),
        "error: Gil has the bye in round 1, which has no seat to swap; to change the round's byes, take it back with \
         `mmjudge round unpair` and pair it again with `mmjudge round pair`"
    );
    // The way out is open: the round holds no play yet.
    let doc = run_at(&ev, "10:06:00", &["--json", "round", "unpair"]).json();
    assert_eq!(doc["summary"], "took back round 1: 3 tables and 1 bye", "{doc}");
    // Once the round holds play, its byes stand, and the refusal says so.
    let ev = started();
    run_at(&ev, "10:00:00", &["player", "add", "Gil"]).ok();
    ev.bye(1, "Gil");
    run_at(&ev, "10:05:00", &["round", "extend", "2", "3", "--reason", "deck check"]).ok();
    let msg = refused_at(&ev, "10:06:00", &["round", "swap", "gil", "ed"]);
    assert_eq!(
        msg.trim_end(),
        "error: Gil has the bye in round 1, which has no seat to swap; the round already holds play, so its byes \
         stand: swap two players seated at tables"
    );
}
