//! Notes cited as evidence in a challenge already recorded (`challenge evidence ID NOTE...`), and the evidence
//! in full (`challenges --evidence`): who declared what, when, and the card's text.

use crate::cards::with_reference;
use crate::harness::Event;

/// Round 1 at tables 1 (Ana-Bo) and 2 (Cy-Di), two notes at table 1, one at table 2, and a challenge at
/// table 1: (notes at table 1, the note at table 2, the challenge's id).
fn heard() -> (Event, [i64; 2], i64, i64) {
    let ev = with_reference();
    ev.seat_started_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.sql("UPDATE card SET text = 'Search your library for a card.' WHERE name = 'Demonic Tutor'");
    let a = ev.note(&["1", "ana", "B1", "Demonic Tutor"]);
    let b = ev.note(&["1", "bo", "R", "--unnamed"]);
    let other = ev.note(&["2", "cy", "R", "--unnamed"]);
    let doc = ev.run(&["--json", "challenge", "1", "--by", "bo", "--about", "the tutor", "--ruling", "denied"]).json();
    (ev, [a, b], other, doc["challenge"].as_i64().expect("challenge id"))
}

#[test]
fn a_judge_cites_notes_in_a_challenge_already_recorded_and_the_listing_shows_them_in_full() {
    let (ev, [a, b], _, id) = heard();
    let plain = ev.run(&["challenges"]).ok().to_string();
    let plain_json = ev.run(&["--json", "challenges"]).json();
    let (id_s, a_s) = (id.to_string(), a.to_string());
    let out = ev.run(&["--json", "challenge", "evidence", &id_s, &a_s]).json();
    assert_eq!((out["challenge"].as_i64(), out["table"].as_i64()), (Some(id), Some(1)));
    assert_eq!(out["added"], serde_json::json!([a]));
    assert!(out["summary"].as_str().is_some_and(|s| s.contains("Ana B1: Demonic Tutor")), "{out}");
    // Again with one more: the one cited already is named, the new one added.
    let text = ev.run(&["challenge", "evidence", &id_s, &a_s, &b.to_string()]).ok().to_string();
    assert!(text.contains(&format!("#{a} already cited")) && text.contains(&format!("evidence #{b}")), "{text}");

    let doc = ev.run(&["--json", "challenges"]).json();
    assert_eq!(doc["challenges"][0]["evidence"], serde_json::json!([a, b]));
    assert!(doc["challenges"][0].get("evidence_notes").is_none(), "the plain listing keeps its shape");
    let full = ev.run(&["--json", "challenges", "--evidence"]).json();
    let cited = &full["challenges"][0]["evidence_notes"];
    assert_eq!((cited[0]["id"].as_i64(), cited[0]["player"].as_str()), (Some(a), Some("Ana")));
    assert_eq!(cited[0]["text"], "Search your library for a card.");
    assert_eq!((cited[1]["unnamed"].as_bool(), cited[1]["text"].is_null()), (Some(true), true));
    let text = ev.run(&["challenges", "--evidence"]).ok().to_string();
    assert!(text.contains(&format!("challenge #{id} evidence: #{a} Ana B1: Demonic Tutor")), "{text}");
    assert!(text.contains("Search your library for a card."), "{text}");

    // Without --evidence the listing reads as it did (its columns do not change when evidence is added).
    assert_eq!(ev.run(&["challenges"]).ok(), plain);
    let mut before = plain_json;
    before["challenges"][0]["evidence"] = serde_json::json!([a, b]);
    assert_eq!(ev.run(&["--json", "challenges"]).json(), before);
}

#[test]
fn evidence_is_refused_for_notes_of_another_match_voided_notes_and_challenges_unknown_or_voided() {
    let (ev, [a, b], other, id) = heard();
    let id_s = id.to_string();
    let msg = ev.refuses(&["challenge", "evidence", &id_s, &other.to_string()]);
    assert!(msg.contains(&format!("note {other} is not a note of table 1")), "{msg}");
    assert!(ev.refuses(&["challenge", "evidence", "99", &a.to_string()]).contains("no challenge #99"));
    ev.run(&["challenge", "evidence", &id_s, &a.to_string()]).ok();
    let msg = ev.refuses(&["challenge", "evidence", &id_s, &a.to_string()]);
    assert!(msg.contains("already evidence in challenge") && msg.contains("nothing to attach"), "{msg}");
    ev.run(&["note", "void", &b.to_string(), "--reason", "typo"]).ok();
    assert!(ev.refuses(&["challenge", "evidence", &id_s, &b.to_string()]).contains("was voided"));
    ev.run(&["challenge", "void", &id_s, "--reason", "wrong table"]).ok();
    let msg = ev.refuses(&["challenge", "evidence", &id_s, &a.to_string()]);
    assert!(msg.contains(&format!("challenge #{id} was voided")), "{msg}");
    assert_ne!(ev.run(&["challenge", "evidence", &id_s]).code, 0, "at least one note");
}

#[test]
fn the_judges_table_page_shows_the_full_sheet_and_ticked_notes_become_evidence() {
    use crate::serve::{Server, judge, page_login};
    let (ev, [a, b], other, id) = heard();
    let pin = judge(&ev, "Lee", "floor");
    let server = Server::start(&ev);
    let (cookie, csrf) = page_login(&server, "Lee", &pin);
    let page = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "");
    assert_eq!(page.status, 200, "{}", page.body);
    for words in [
        format!("name=\"evidence\" value=\"{a}\""),
        format!("name=\"evidence\" value=\"{b}\""),
        "Search your library for a card.".to_string(),
        format!("formaction=\"/api/challenge/evidence\" formnovalidate name=\"challenge\" value=\"{id}\""),
        "<td>Ana</td>".to_string(),
    ] {
        assert!(page.body.contains(&words), "{words}: {}", page.body);
    }

    // Ticked boxes with the new challenge's form: both notes are its evidence.
    let form_type = ("Content-Type", "application/x-www-form-urlencoded");
    let body = format!(
        "csrf={csrf}&back=/judge/table/1&table=1&by=Ana&about=the+discard&ruling=upheld&evidence={a}&evidence={b}"
    );
    let recorded = server.request("POST", "/api/challenge", &[("Cookie", &cookie), form_type], &body);
    assert_eq!(recorded.status, 303, "{}", recorded.body);
    let doc = ev.run(&["--json", "challenges"]).json();
    assert_eq!(doc["challenges"][1]["evidence"], serde_json::json!([a, b]));

    // Ticked boxes with the first challenge's button (the new challenge's fields come along and are ignored).
    let body =
        format!("csrf={csrf}&back=/judge/table/1&table=1&by=Ana&about=&ruling=upheld&evidence={b}&challenge={id}");
    let attached = server.request("POST", "/api/challenge/evidence", &[("Cookie", &cookie), form_type], &body);
    assert_eq!(attached.status, 303, "{}", attached.body);
    let doc = ev.run(&["--json", "challenges"]).json();
    assert_eq!(doc["challenges"][0]["evidence"], serde_json::json!([b]));
    let page = server.request("GET", "/judge/table/1", &[("Cookie", &cookie)], "");
    assert!(page.body.contains(&format!("evidence: #{b} R: (unnamed)")), "{}", page.body);

    // The JSON route: judges only, refusals change nothing.
    let token = server.login("Lee", &pin);
    let before = ev.dump();
    let post = |token: Option<&str>, body: serde_json::Value| server.post_json("/api/challenge/evidence", token, &body);
    assert_eq!(post(None, serde_json::json!({ "challenge": id, "evidence": [a] })).status, 401);
    let player = serde_json::json!({ "challenge": id, "evidence": [a], "code": "123456" });
    assert_eq!(post(None, player).status, 401, "a player's code is no judge's login");
    let msg = post(Some(&token), serde_json::json!({ "challenge": id, "evidence": [other] })).error(404);
    assert!(msg.contains("is not a note of table 1"), "{msg}");
    assert!(post(Some(&token), serde_json::json!({ "challenge": id, "evidence": [b] })).error(409).contains("already"));
    assert!(
        post(Some(&token), serde_json::json!({ "challenge": id, "evidence": "x" })).error(400).contains("note ids")
    );
    assert!(post(Some(&token), serde_json::json!({ "challenge": id })).error(400).contains("which notes"));
    assert_eq!(ev.dump(), before);
    let ok = post(Some(&token), serde_json::json!({ "challenge": id, "evidence": [a] }));
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.json()["evidence"], serde_json::json!([a, b]));
}
