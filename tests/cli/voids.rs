//! Corrections: `penalty void`, `challenge void`, `ruling void`, `note void`, `round extend void`,
//! `stall void`, `result clear`, and the `rulings` and `stalls` listings.

use crate::cards::with_reference;
use crate::harness::Event;

fn round_one() -> Event {
    let ev = Event::new();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev
}

fn json(ev: &Event, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    at_notes_now(ev, &all).json()
}

/// The result object of table `t` in `results --json`.
fn table(ev: &Event, t: u64) -> serde_json::Value {
    let doc = json(ev, &["results", "--round", "1"]);
    let tables = doc["tables"].as_array().cloned().unwrap_or_default();
    tables.into_iter().find(|x| x["table"] == t).unwrap_or_else(|| panic!("no table {t} in {doc}"))
}

#[test]
fn a_voided_first_warning_makes_the_upgraded_second_a_warning_again_and_reopens_its_match() {
    let ev = round_one();
    let first = json(&ev, &["penalty", "bo", "slow-play", "--at", "10:00"])["penalty"].as_i64().unwrap_or(0);
    let second = json(&ev, &["penalty", "bo", "slow-play", "--at", "10:05"]);
    assert_eq!(second["issued"], "game-loss");
    assert_eq!(table(&ev, 1)["reason"], "penalty");
    let out = json(&ev, &["penalty", "void", &first.to_string(), "--reason", "it was Cy, not Bo"]);
    assert_eq!(out["regraded"][0]["penalty"], second["penalty"]);
    assert_eq!(out["regraded"][0]["was"], "game-loss");
    assert_eq!(out["regraded"][0]["now"], "warning");
    assert_eq!(out["reopened"][0]["table"], 1);
    assert_eq!(out["voided"]["reason"], "it was Cy, not Bo");
    assert_eq!(out["voided"]["judge"], "Test Judge");
    assert_eq!(table(&ev, 1)["playing"], true, "the game loss no longer stands");
    let list = json(&ev, &["penalties"]);
    assert_eq!(list["penalties"][0]["voided"]["reason"], "it was Cy, not Bo");
    assert_eq!(list["penalties"][1]["penalty"], "warning");
    assert_eq!(list["penalties"][1]["upgraded"], serde_json::Value::Null);
    assert_eq!(list["penalties"][1]["voided"], serde_json::Value::Null);
    // The next slow play counts the one Warning left: a Game Loss again.
    assert_eq!(json(&ev, &["penalty", "bo", "slow-play"])["issued"], "game-loss");
    let text = at_notes_now(&ev, &["penalties"]).ok().to_string();
    assert!(text.contains("VOID (Test Judge"), "{text}");
    let log = at_notes_now(&ev, &["log"]).ok().to_string();
    assert!(log.contains(&format!("voided penalty #{first}")), "{log}");
}

#[test]
fn a_voided_disqualification_is_lifted_and_the_match_plays_again() {
    let ev = round_one();
    let dq = json(&ev, &["penalty", "cy", "cheating"]);
    assert_eq!(dq["disqualified"], true);
    let out = json(&ev, &["penalty", "void", &dq["penalty"].to_string()]);
    assert_eq!(out["reinstated"], "Cy");
    assert_eq!(table(&ev, 2)["playing"], true);
    let players = json(&ev, &["player", "list"]);
    let cy = players["players"].as_array().and_then(|p| p.iter().find(|p| p["name"] == "Cy").cloned());
    assert_eq!(cy.map(|p| p["disqualified"].clone()), Some(false.into()));
}

#[test]
fn a_voided_lost_challenge_that_ended_a_match_puts_it_back_to_playing() {
    let ev = round_one();
    ev.mark_started(1);
    let ch = |ruling: &str| {
        json(&ev, &["challenge", "1", "--by", "ana", "--about", "Shock was declared", "--ruling", ruling])
    };
    let first = ch("denied");
    let second = ch("denied");
    assert_eq!(second["match_ended"], true);
    assert_eq!(table(&ev, 1)["reason"], "challenges");
    let out = json(&ev, &["challenge", "void", &first["challenge"].to_string()]);
    assert_eq!(out["reopened"][0]["was"], "Bo won by challenges");
    assert_eq!(table(&ev, 1)["playing"], true);
    let list = json(&ev, &["challenges"]);
    assert!(list["challenges"][0]["voided"].is_object(), "{list}");
    assert!(list["challenges"][1]["voided"].is_null(), "{list}");
    // One lost challenge counts now: the next one loses the match again.
    assert_eq!(ch("denied")["lost_in_match"], 2);
    assert_eq!(table(&ev, 1)["reason"], "challenges");
    let watch = json(&ev, &["challenges", "--watch"]);
    assert_eq!(watch["players"][0]["made"], 2, "the voided challenge is not in the watch report: {watch}");
}

#[test]
fn a_void_with_later_rounds_paired_is_refused_then_forced() {
    let ev = round_one();
    ev.mark_started(1);
    at_notes_now(&ev, &["challenge", "1", "--by", "ana", "--about", "x", "--ruling", "denied"]).ok();
    let second = json(&ev, &["challenge", "1", "--by", "ana", "--about", "y", "--ruling", "denied"]);
    ev.finish_round(1);
    ev.seat_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Di")]);
    let id = second["challenge"].to_string();
    let msg = ev.refuses(&["challenge", "void", &id]);
    assert!(msg.contains(&format!("challenge #{id} is a record of round 1, not of round 2 being played")), "{msg}");
    let out = json(&ev, &["challenge", "void", &id, "--force"]);
    assert_eq!(out["later_rounds"], serde_json::json!([2]));
    assert!(out["summary"].as_str().unwrap_or("").contains("round 2 is already paired"), "{out}");
    assert_eq!(table(&ev, 1)["playing"], true);
}

#[test]
fn a_void_of_an_earlier_round_than_the_one_played_names_it_and_needs_force() {
    let ev = round_one();
    let old = json(&ev, &["ruling", "1", "Bo may not take back the attack"])["ruling"].to_string();
    ev.finish_round(1);
    ev.seat_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Di")]);
    let now = json(&ev, &["ruling", "2", "Di draws a card"])["ruling"].to_string();
    let msg = ev.refuses(&["ruling", "void", &old]);
    assert_eq!(
        msg.trim_end(),
        format!(
            "error: ruling #{old} is a record of round 1, not of round 2 being played: add --force to void it anyway"
        )
    );
    at_notes_now(&ev, &["ruling", "void", &now]).ok();
    let out = json(&ev, &["ruling", "void", &old, "--force"]);
    assert_eq!(out["round"], 1);
}

#[test]
fn refusals_leave_the_event_unchanged() {
    let ev = round_one();
    let p = json(&ev, &["penalty", "bo", "slow-play"])["penalty"].to_string();
    let msg = ev.refuses(&["penalty", "void", "99"]);
    assert!(msg.contains("there is no penalty #99: see the ids with `mmjudge penalties`"), "{msg}");
    at_notes_now(&ev, &["penalty", "void", &p]).ok();
    let msg = ev.refuses(&["penalty", "void", &p]);
    assert!(msg.contains(&format!("penalty #{p} was already voided")), "{msg}");
    for kind in ["challenge", "ruling", "note", "stall"] {
        let msg = ev.refuses(&[kind, "void", "7"]);
        assert!(msg.contains(&format!("there is no {kind} #7")), "{msg}");
    }
    assert!(ev.refuses(&["round", "extend", "void", "7"]).contains("there is no extension #7"));
    assert!(ev.refuses(&["penalty", "void", &p, "--reason", " "]).contains("--reason is empty"));
    assert!(ev.refuses(&["result", "clear", "1"]).contains("no result to clear"));
    assert!(ev.refuses(&["result", "clear", "9"]).contains("no match at table 9"));
}

#[test]
fn result_clear_puts_a_table_back_to_playing_and_respects_later_rounds() {
    let ev = round_one();
    at_notes_now(&ev, &["result", "1", "ana", "--by", "concession"]).ok();
    let out = json(&ev, &["result", "clear", "1"]);
    assert_eq!(out["was"], "Ana won by concession");
    assert_eq!(table(&ev, 1)["playing"], true);
    at_notes_now(&ev, &["result", "1", "bo", "--by", "concession"]).ok();
    ev.finish_round(1);
    ev.seat_round(2, &[(1, "Ana", "Cy"), (2, "Bo", "Di")]);
    let msg = ev.refuses(&["result", "clear", "2", "--round", "1"]);
    assert!(msg.contains("round 2 is already paired on this result"), "{msg}");
    at_notes_now(&ev, &["result", "clear", "2", "--round", "1", "--force"]).ok();
    assert_eq!(table(&ev, 2)["playing"], true);
    assert!(at_notes_now(&ev, &["log"]).ok().contains("cleared the result of table 2 in round 1"));
}

#[test]
fn rulings_are_listed_with_ids_and_voided_ones_marked() {
    let ev = round_one();
    let r = json(&ev, &["ruling", "1", "Bo may not take back the attack"])["ruling"].to_string();
    at_notes_now(&ev, &["ruling", "2", "Di draws a card"]).ok();
    at_notes_now(&ev, &["ruling", "void", &r, "--reason", "wrong table"]).ok();
    let list = json(&ev, &["rulings"]);
    assert_eq!(list["rulings"][0]["id"].to_string(), r);
    assert_eq!(list["rulings"][0]["voided"]["reason"], "wrong table");
    assert!(list["rulings"][1]["voided"].is_null());
    let at_two = json(&ev, &["rulings", "--table", "2"]);
    assert_eq!(at_two["rulings"].as_array().map(Vec::len), Some(1));
    let text = at_notes_now(&ev, &["rulings"]).ok().to_string();
    assert!(text.contains("VOID (Test Judge") && text.contains("2 rulings (1 void)"), "{text}");
    let csv = at_notes_now(&ev, &["--csv", "rulings"]).ok().to_string();
    assert!(csv.starts_with("#,round,table,ruling,judge,at,void\n"), "{csv}");
}

#[test]
fn a_voided_note_no_longer_blocks_the_card_and_stays_on_the_sheet() {
    let ev = with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    let id = ev.note(&["1", "ana", "B1", "Demonic Tutor"]);
    ev.note(&["1", "bo", "R", "Shock"]);
    assert!(ev.refuses(&["note", "1", "bo", "B1", "Demonic Tutor"]).contains("Demonic Tutor"));
    at_notes_now(&ev, &["note", "void", &id.to_string(), "--reason", "Ana named it at table 2"]).ok();
    ev.note(&["1", "bo", "B1", "Demonic Tutor"]);
    let sheet = json(&ev, &["notes", "1"]);
    assert_eq!(sheet["notes"][0]["voided"]["reason"], "Ana named it at table 2");
    assert!(sheet["notes"][1]["voided"].is_null());
    let text = at_notes_now(&ev, &["notes", "1"]).ok().to_string();
    assert!(text.contains("B1: Demonic Tutor (void)") && text.contains("Ana: 0 notes and 1 void"), "{text}");
    let html = ev.path("t1.html");
    at_notes_now(&ev, &["notes", "1", "--html", html.to_str().unwrap_or_default()]).ok();
    let page = std::fs::read_to_string(&html).unwrap_or_default();
    assert!(page.contains("<del>Demonic Tutor</del>"), "{page}");
}

#[test]
fn a_voided_extension_leaves_the_tables_clock() {
    let ev = round_one();
    at_notes_now(&ev, &["round", "start"]).ok();
    let e = json(&ev, &["round", "extend", "1", "5", "--reason", "deck check"]);
    let id = e["extension"].to_string();
    assert_eq!(json(&ev, &["time"])["tables"][0]["extension_secs"], 300);
    let out = json(&ev, &["round", "extend", "void", &id]);
    assert!(out["summary"].as_str().unwrap_or("").contains("the table keeps +0:00 in all"), "{out}");
    let time = json(&ev, &["time"]);
    assert_eq!(time["tables"][0]["extension_secs"], 0);
    assert!(time["tables"][0]["extensions"][0]["voided"].is_object(), "{time}");
    let text = at_notes_now(&ev, &["time"]).ok().to_string();
    assert!(text.contains(&format!("#{id} deck check, void")), "{text}");
}

#[test]
fn a_voided_stall_no_longer_counts() {
    let ev = round_one();
    ev.sql(
        "INSERT INTO stall (match_id, player_id, at) SELECT m.id, m.b_player, '2026-05-01T10:20:00.000Z' \
         FROM match m WHERE m.table_no = 1;",
    );
    let list = json(&ev, &["stalls"]);
    assert_eq!(list["stalls"][0]["player"], "Bo");
    let id = list["stalls"][0]["id"].to_string();
    assert_eq!(json(&ev, &["decisions"])["players"][0]["stalls"], 1);
    at_notes_now(&ev, &["stall", "void", &id, "--reason", "Ana was to act"]).ok();
    let doc = json(&ev, &["decisions"]);
    assert!(doc["players"].as_array().is_none_or(|p| p.iter().all(|p| p["stalls"] == 0)), "{doc}");
    assert!(json(&ev, &["stalls"])["stalls"][0]["voided"].is_object());
    assert!(at_notes_now(&ev, &["stalls", "--table", "1"]).ok().contains("VOID"));
}

#[test]
fn a_voided_game_loss_leaves_a_result_it_did_not_make_and_one_another_penalty_still_makes() {
    let ev = round_one();
    ev.mark_started(1);
    // Table 1: a result by life first; the tardiness Game Loss after it does not change it.
    at_notes_now(&ev, &["result", "1", "ana", "--by", "life", "--life", "5", "0"]).ok();
    let late = json(&ev, &["penalty", "bo", "tardiness"]);
    assert_eq!(late["match_ended"], false);
    let out = json(&ev, &["penalty", "void", &late["penalty"].to_string()]);
    assert_eq!(out["reopened"], serde_json::json!([]));
    assert!(out["summary"].as_str().unwrap_or("").contains("nothing else changes"), "{out}");
    assert_eq!(table(&ev, 1)["reason"], "life");
    // Table 2: two Game Losses to Di; voiding one leaves the match lost to the other.
    let first = json(&ev, &["penalty", "di", "tardiness"]);
    assert_eq!(first["match_ended"], true);
    json(&ev, &["penalty", "di", "decklist-problem"]);
    let out = json(&ev, &["penalty", "void", &first["penalty"].to_string()]);
    assert_eq!(out["reopened"], serde_json::json!([]));
    assert_eq!(table(&ev, 2)["reason"], "penalty");
    // History and the site show the voided penalties, marked.
    let history = at_notes_now(&ev, &["player", "history", "di"]).ok().to_string();
    assert!(history.contains(&format!("#{}: game-loss for tardiness (void)", first["penalty"])), "{history}");
    assert!(history.contains("; 1 penalty"), "the voided one is not counted: {history}");
    let site = ev.path("site");
    at_notes_now(&ev, &["site", site.to_str().unwrap_or_default(), "--judges"]).ok();
    let page = std::fs::read_to_string(site.join("judging.html")).unwrap_or_default();
    assert_eq!(page.matches("<tr class=\"void\">").count(), 2, "{page}");
}

#[test]
fn a_note_is_voided_once() {
    let ev = with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo")]);
    let id = ev.note(&["1", "ana", "R", "Shock"]).to_string();
    at_notes_now(&ev, &["note", "void", &id]).ok();
    let msg = ev.refuses(&["note", "void", &id, "--reason", "again"]);
    assert!(msg.contains(&format!("note #{id} was already voided at")) && msg.contains("by Test Judge"), "{msg}");
}

#[test]
fn upgrades_are_counted_again_in_the_order_penalties_were_given_even_one_logged_late() {
    let ev = round_one();
    at_notes_now(&ev, &["round", "start", "--at", "09:00"]).ok();
    json(&ev, &["penalty", "bo", "slow-play", "--at", "10:05"]);
    let late = json(&ev, &["penalty", "bo", "slow-play", "--at", "10:00"]);
    assert_eq!(late["issued"], "game-loss", "the second one given");
    let third = json(&ev, &["penalty", "bo", "slow-play", "--at", "10:10"]);
    let out = json(&ev, &["penalty", "void", &third["penalty"].to_string()]);
    assert_eq!(out["regraded"], serde_json::json!([]), "{out}");
}

#[test]
fn a_voided_note_is_no_evidence() {
    let ev = with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo")]);
    let id = ev.note(&["1", "ana", "R", "Shock"]).to_string();
    at_notes_now(&ev, &["note", "void", &id]).ok();
    let msg = ev.refuses(&["challenge", "1", "--by", "bo", "--about", "x", "--ruling", "denied", "--evidence", &id]);
    assert!(msg.contains(&format!("note {id} was voided")), "{msg}");
}

#[test]
fn a_void_that_only_renumbers_an_upgrade_does_not_report_it_as_regraded() {
    let ev = round_one();
    at_notes_now(&ev, &["round", "start", "--at", "09:00"]).ok();
    let first = json(&ev, &["penalty", "bo", "slow-play", "--at", "10:00"])["penalty"].to_string();
    json(&ev, &["penalty", "bo", "slow-play", "--at", "10:01", "--penalty", "warning"]);
    let third = json(&ev, &["penalty", "bo", "slow-play", "--at", "10:02"]);
    assert_eq!(third["issued"], "game-loss", "{third}");
    let out = json(&ev, &["penalty", "void", &first]);
    assert_eq!(out["regraded"], serde_json::json!([]), "still a Game Loss: {out}");
    let summary = out["summary"].as_str().unwrap_or_default();
    assert!(summary.ends_with("nothing else changes"), "{summary}");
    let list = json(&ev, &["penalties"]);
    assert!(list.to_string().contains("2nd Warning for Slow Play"), "the upgrade's words follow the void: {list}");
}

/// Runs a command at the harness's fixed moment, so that `--at HH:MM` means the same day whenever the test runs
/// (with the real clock, a morning `--at` is "in the future" between midnight and that hour).
fn at_notes_now(ev: &crate::harness::Event, args: &[&str]) -> crate::harness::Run {
    ev.run_with(args, &[("MMJUDGE_NOW", crate::harness::NOTES_NOW)])
}

#[test]
fn a_voided_note_names_the_challenges_still_citing_it_and_not_one_voided_before() {
    let ev = with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo")]);
    let shock = ev.note(&["1", "bo", "R", "Shock"]).to_string();
    let tutor = ev.note(&["1", "bo", "B1", "Demonic Tutor"]).to_string();
    for id in [&shock, &tutor] {
        let args = ["challenge", "1", "--by", "ana", "--about", "it was used", "--ruling", "upheld", "--evidence", id];
        at_notes_now(&ev, &args).ok();
    }
    at_notes_now(&ev, &["challenge", "void", "1", "--reason", "asked at the wrong table"]).ok();
    let out = at_notes_now(&ev, &["note", "void", &shock]).ok().to_string();
    assert!(!out.contains("evidence in challenge"), "challenge #1 is void: {out}");
    let out = at_notes_now(&ev, &["note", "void", &tutor]).ok().to_string();
    assert!(out.contains("(evidence in challenge #2, still cited)"), "{out}");
}
