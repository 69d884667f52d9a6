//! What each write tells the phones: the topics it stored with its audit entry (`audit_topic`), and the round,
//! table and player they concern. One event, one command after another through the real binary; each row is a
//! command line and the topics its write named ("" for a write no page shows).

use crate::harness::{Event, example};

/// The topics the latest audit entry named, in order: `topic r<round> t<table> <who>`, where `who` is the seat
/// (A or B) of a player at that table, else the player's name.
fn topics_of_last(ev: &Event) -> String {
    let conn = rusqlite::Connection::open(ev.db()).expect("open db");
    let mut stmt = conn
        .prepare(
            "SELECT t.topic, t.round, t.table_no,
                    CASE WHEN t.player_id IS NULL THEN NULL
                         WHEN m.a_player = t.player_id THEN 'A'
                         WHEN m.b_player = t.player_id THEN 'B'
                         ELSE (SELECT name FROM player WHERE id = t.player_id) END
             FROM audit_topic t LEFT JOIN match m ON m.round = t.round AND m.table_no = t.table_no
             WHERE t.audit_id = (SELECT max(id) FROM audit) ORDER BY t.rowid",
        )
        .expect("prepare");
    let rows = stmt
        .query_map([], |r| {
            let mut words = vec![r.get::<_, String>(0)?];
            words.extend(r.get::<_, Option<i64>>(1)?.map(|n| format!("r{n}")));
            words.extend(r.get::<_, Option<i64>>(2)?.map(|n| format!("t{n}")));
            words.extend(r.get::<_, Option<String>>(3)?);
            Ok(words.join(" "))
        })
        .expect("query");
    rows.map(|r| r.expect("row")).collect::<Vec<_>>().join(", ")
}

/// The player at `seat` (A or B) of `table` in the current round.
fn seat(ev: &Event, table: i64, seat: &str) -> String {
    let doc = ev.run(&["--json", "pairings"]).json();
    let players = doc["players"].as_array().cloned().unwrap_or_default();
    let p = players.iter().find(|p| p["table"].as_i64() == Some(table) && p["seat"] == seat);
    p.and_then(|p| p["name"].as_str()).map(String::from).unwrap_or_else(|| panic!("nobody at {table}{seat}: {doc}"))
}

/// Runs each command and checks the topics its write stored.
#[track_caller]
fn check(ev: &Event, rows: &[(Vec<String>, &str)]) {
    for (args, want) in rows {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ev.run(&args).ok();
        assert_eq!(topics_of_last(ev), *want, "mmjudge {}", args.join(" "));
    }
}

/// A command line from words.
fn cmd(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The id the `--json` answer of a command gives in `field`.
fn id_of(ev: &Event, words: &[&str], field: &str) -> String {
    let mut args = vec!["--json"];
    args.extend_from_slice(words);
    let doc = ev.run(&args).json();
    doc[field].as_i64().map(|n| n.to_string()).unwrap_or_else(|| panic!("no {field} in {doc}"))
}

#[test]
fn each_write_names_its_topics_and_what_they_concern() {
    let ev = Event::new();
    let (cards, pool, players) = (example("cards.csv"), example("pool.csv"), example("players.csv"));
    check(
        &ev,
        &[
            // The card reference, the pool and the judges are on no page: phones hear nothing.
            (cmd(&["cards", "import", &cards]), ""),
            (cmd(&["pool", "import", &pool]), ""),
            (cmd(&["pool", "add", "Abrade"]), ""),
            (cmd(&["pool", "exclude", "Abrade"]), ""),
            (cmd(&["judge", "add", "Kim", "--role", "head"]), ""),
            (cmd(&["judge", "add", "Lee", "--role", "head"]), ""),
            (cmd(&["judge", "pin", "Kim"]), ""),
            // The event's players, libraries, settings and rounds: every page reloads.
            (cmd(&["player", "import", &players]), "round"),
            (cmd(&["player", "add", "Late Comer"]), "round"),
            (cmd(&["player", "rename", "Late Comer", "Late Arrival"]), "round Late Arrival"),
            (cmd(&["player", "remove", "Late Arrival"]), "round"),
            (cmd(&["library", "build", "--tables", "8"]), "round"),
            (cmd(&["event", "set", "challenge-limit", "3"]), "round"),
            (cmd(&["round", "pair"]), "round r1"),
            (cmd(&["round", "unpair"]), "round r1"),
            (cmd(&["round", "pair"]), "round r1"),
        ],
    );
    let (a7, a8) = (seat(&ev, 7, "A"), seat(&ev, 8, "A"));
    check(
        &ev,
        &[
            (cmd(&["round", "swap", &a7, &a8]), &format!("round r1 {a7}, round r1 {a8}")),
            (cmd(&["round", "start"]), "round r1"),
        ],
    );
    let s = |t, x| seat(&ev, t, x);
    let (a1, a2, b2, a3, a4, a6, b6) = (s(1, "A"), s(2, "A"), s(2, "B"), s(3, "A"), s(4, "A"), s(6, "A"), s(6, "B"));
    let note = id_of(&ev, &["note", "3", &a3, "B1", "--unnamed"], "note");
    assert_eq!(topics_of_last(&ev), "note r1 t3 A");
    check(
        &ev,
        &[
            // Records at a table: its notes, rulings, penalties and challenges.
            (cmd(&["note", "1", &a1, "U1", "--unnamed"]), "note r1 t1 A"),
            (cmd(&["note", "undo", "1"]), "note r1 t1 A"),
            (cmd(&["ruling", "1", "stop the clock: call the self-report"]), "note r1 t1"),
            // A remark's words do not make a penalty a clock, a call or a self-report.
            (cmd(&["penalty", &a2, "slow-play", "--note", "stall clock call self-report"]), "note r1 t2 A"),
            // A penalty that ends the match is a result too.
            (cmd(&["penalty", &b2, "slow-play", "--penalty", "game-loss"]), "note r1 t2 B, result r1 t2"),
            (cmd(&["challenge", "3", "--by", &a3, "--about", "the template", "--ruling", "denied"]), "note r1 t3 A"),
            // The decision clock and the round's time.
            (cmd(&["clock", "4", "--start", &a4]), "clock r1 t4 A"),
            (cmd(&["clock", "4", "--stop"]), "clock r1 t4 A"),
            (cmd(&["clock", "4", "--start", &a4]), "clock r1 t4 A"),
            (cmd(&["clock", "4", "--cancel"]), "clock r1 t4 A"),
            (cmd(&["round", "extend", "5", "3", "--reason", "deck check"]), "clock r1 t5"),
            // Results.
            (cmd(&["result", "6", &a6, "--by", "concession"]), "result r1 t6"),
            (cmd(&["result", "fix", "6", &b6, "--by", "concession"]), "result r1 t6"),
            (cmd(&["result", "clear", "6"]), "result r1 t6"),
        ],
    );
    let challenge = id_of(&ev, &["challenge", "3", "--by", &a3, "--about", "again", "--ruling", "upheld"], "challenge");
    assert_eq!(topics_of_last(&ev), "note r1 t3 A");
    let extension = id_of(&ev, &["round", "extend", "5", "2", "--reason", "judge call"], "extension");
    let ruling = id_of(&ev, &["ruling", "3", "a ruling"], "ruling");
    let a8_now = s(8, "A");
    let dq = id_of(&ev, &["penalty", &a8_now, "slow-play", "--penalty", "dq"], "penalty");
    // Out of the standings too, as a drop is.
    assert_eq!(topics_of_last(&ev), format!("note r1 t8 A, result r1 t8, round {a8_now}"));
    let game_loss = ev.run(&["--json", "penalties"]).json()["penalties"]
        .as_array()
        .and_then(|all| all.iter().find(|p| p["penalty"] == "game-loss").map(|p| p["id"].to_string()))
        .expect("the game loss");
    check(
        &ev,
        &[
            (cmd(&["challenge", "evidence", &challenge, &note]), "note r1 t3"),
            // Voids: the record's topic, and the result a void takes back.
            (cmd(&["penalty", "void", &game_loss]), "note r1 t2 B, result r1 t2"),
            (cmd(&["penalty", "void", &dq]), &format!("note r1 t8 A, result r1 t8, round {a8_now}")),
            (cmd(&["challenge", "void", &challenge]), "note r1 t3 A"),
            (cmd(&["ruling", "void", &ruling]), "note r1 t3"),
            (cmd(&["note", "void", &note]), "note r1 t3"),
            (cmd(&["round", "extend", "void", &extension]), "clock r1 t5"),
            // A player's standing and code.
            (cmd(&["player", "drop", &a1]), &format!("round {a1}")),
            (cmd(&["player", "undrop", &a1]), &format!("round {a1}")),
            (cmd(&["player", "code", &a1, "--new"]), ""),
            // The round's close.
            (cmd(&["round", "end", "--force"]), "round r1"),
            (cmd(&["round", "reopen"]), "round r1"),
            (cmd(&["judge", "remove", "Kim"]), ""),
        ],
    );
}
