//! Libraries for the field the event really has: `library build --size/--utopia`, unusable costs left out,
//! `library add-tables K` (the libraries in play untouched), `round pair` naming it when seats run out; and
//! the library and cost lookups a judge types.

use crate::harness::Event;
use crate::pool::with_pool;

/// Every row of the libraries (and their cards) with these ids, to prove them untouched.
fn library_rows(ev: &Event, ids: &[i64]) -> String {
    let conn = rusqlite::Connection::open(ev.db()).expect("open db");
    let mut out = String::new();
    for id in ids {
        let lib: String = conn
            .query_row("SELECT table_no || seat || '/' || utopia FROM library WHERE id = ?1", [id], |r| r.get(0))
            .expect("library");
        out.push_str(&lib);
        let mut stmt = conn
            .prepare(
                "SELECT position, pool_id, name, mana_cost FROM library_card WHERE library_id = ?1 ORDER BY position",
            )
            .expect("cards");
        let rows = stmt
            .query_map([id], |r| {
                Ok(format!(
                    "{}|{:?}|{}|{:?}",
                    r.get::<_, i64>(0)?,
                    r.get::<_, Option<i64>>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<String>>(3)?
                ))
            })
            .expect("rows");
        for row in rows {
            out.push('\n');
            out.push_str(&row.expect("row"));
        }
        out.push('\n');
    }
    out
}

fn library_ids(ev: &Event) -> Vec<i64> {
    let conn = rusqlite::Connection::open(ev.db()).expect("open db");
    let mut stmt = conn.prepare("SELECT id FROM library ORDER BY id").expect("ids");
    stmt.query_map([], |r| r.get(0)).expect("rows").map(|r| r.expect("id")).collect()
}

/// Copies in libraries, per pool card, never more than the pool holds.
fn assert_no_copy_twice(ev: &Event) {
    let pool = ev.run(&["--json", "pool", "list"]).json();
    for c in pool["cards"].as_array().cloned().unwrap_or_default() {
        assert!(c["in_libraries"].as_u64() <= c["copies"].as_u64(), "{c}");
    }
}

#[test]
fn build_takes_the_sizes_and_defaults_to_the_tournament_rules() {
    let ev = with_pool();
    let doc = ev.run(&["--json", "library", "build", "--tables", "2", "--size", "30", "--utopia", "20"]).json();
    assert_eq!((doc["size"].clone(), doc["utopia"].clone()), (30.into(), 20.into()));
    let libs = doc["libraries"].as_array().cloned().unwrap_or_default();
    assert!(libs.len() == 4 && libs.iter().all(|l| l["cards"] == 30 && l["utopia"] == 20), "{doc}");
    assert_eq!(doc["basics"]["needed"], 80);
    let human = ev.run(&["library", "build", "--tables", "2", "--size", "30", "--utopia", "20"]).ok().to_string();
    assert!(human.contains("Built 4 main libraries of 30 cards") && human.contains("x 20 basic lands"), "{human}");
    let doc = ev.run(&["--json", "library", "build", "--tables", "2"]).json();
    assert_eq!((doc["size"].clone(), doc["utopia"].clone()), (40.into(), 30.into()));
    for bad in [["--size", "0"], ["--size", "201"], ["--utopia", "0"], ["--size", "many"]] {
        let msg = ev.refuses(&["library", "build", "--tables", "2", bad[0], bad[1]]);
        assert!(msg.contains(bad[0]), "{msg}");
    }
}

#[test]
fn unusable_costs_stay_out_unless_kept() {
    let ev = with_pool();
    // 9 tables take 720 of the 745 usable copies: Absorb and Flame Wave are left out and named.
    let human = ev.run(&["library", "build", "--tables", "9"]).ok().to_string();
    assert!(
        human.contains("left out for unusable costs (see `mmjudge pool check`): Absorb ({W}{U}{U}), Flame Wave ({3}{R}{R}{R}{R}); --keep-unusable builds them in"),
        "{human}"
    );
    let pool = ev.run(&["--json", "pool", "list"]).json();
    let in_libraries = |name: &str| {
        pool["cards"].as_array().and_then(|c| c.iter().find(|c| c["name"] == name)).map(|c| c["in_libraries"].clone())
    };
    assert_eq!(in_libraries("Flame Wave"), Some(0.into()));
    assert_eq!(in_libraries("Absorb"), Some(0.into()));
    let log = ev.run(&["log"]).ok().to_string();
    assert!(log.contains("left out for unusable costs: Absorb"), "{log}");
    // --keep-unusable builds them in: nothing is left out, and whatever lands in a library is named.
    let doc = ev.run(&["--json", "library", "build", "--tables", "9", "--keep-unusable", "--seed", "3"]).json();
    assert_eq!(doc["left_out"], serde_json::json!([]));
    assert_eq!(doc["spells_left"], 747 - 720);
    let kept = doc["unusable_in_libraries"].as_array().cloned().unwrap_or_default();
    assert!(!kept.is_empty(), "720 of 747 copies: seed 3 takes at least one of them: {doc}");
    let human = ev.run(&["library", "build", "--tables", "9", "--keep-unusable", "--seed", "3"]).ok().to_string();
    assert!(human.contains("kept in with --keep-unusable, though their costs are unusable"), "{human}");
    // The pool short: by how many cards and of which costs, and the copies left out.
    let msg = ev.refuses(&["library", "build", "--tables", "10"]);
    assert!(msg.contains("55 short: about") && msg.contains("costing 2") && msg.contains("--keep-unusable"), "{msg}");
}

#[test]
fn add_tables_builds_new_tables_and_leaves_the_others_byte_identical() {
    let ev = with_pool();
    ev.run(&["library", "build", "--tables", "3", "--size", "36", "--utopia", "25"]).ok();
    let before_ids = library_ids(&ev);
    let before = library_rows(&ev, &before_ids);
    ev.mark_round_paired(1);
    let doc = ev.run(&["--json", "library", "add-tables", "2"]).json();
    assert_eq!(library_rows(&ev, &before_ids), before, "the libraries in play changed");
    assert_eq!(
        (doc["added"].clone(), doc["first_table"].clone(), doc["tables"].clone()),
        (2.into(), 4.into(), 5.into())
    );
    let labels: Vec<&str> = doc["libraries"]
        .as_array()
        .map(|l| l.iter().filter_map(|l| l["library"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(labels, ["4A", "4B", "5A", "5B"]);
    let libs = doc["libraries"].as_array().cloned().unwrap_or_default();
    assert!(libs.iter().all(|l| l["cards"] == 36 && l["utopia"] == 25), "the sizes of the libraries in play: {doc}");
    assert!(libs.iter().all(|l| l["distance_from_mean"].as_f64().is_some_and(|d| d < 12.0)), "{doc}");
    assert_eq!(doc["basics"]["needed"], 100);
    assert_eq!(doc["spells_left"], 745 - 5 * 72);
    assert_no_copy_twice(&ev);
    let list = ev.run(&["--json", "library", "list"]).json();
    assert_eq!(list["libraries"].as_array().map(Vec::len), Some(10));
    let human = ev.run(&["library", "add-tables", "1"]).ok().to_string();
    assert!(
        human.contains("Added table 6: 2 main libraries of 36 cards") && human.contains("tables 1 to 5 are unchanged"),
        "{human}"
    );
    assert!(ev.run(&["log"]).ok().contains("added tables 4 to 5"));
    assert_no_copy_twice(&ev);
}

#[test]
fn add_tables_refusals_leave_the_event_as_it_was() {
    let ev = with_pool();
    assert!(ev.refuses(&["library", "add-tables", "1"]).contains("`mmjudge library build --tables N`"));
    assert!(ev.refuses(&["library", "add-tables", "0"]).contains("from 1 to 10,000"));
    ev.run(&["library", "build", "--tables", "8"]).ok();
    // 105 usable copies left; two more tables need 160.
    let msg = ev.refuses(&["library", "add-tables", "2"]);
    assert!(
        msg.contains("need 160 spell copies, 105 are left in the pool (55 short: about")
            && msg.contains("costing 1")
            && msg.contains("add at most 1 table"),
        "{msg}"
    );
    let sealed = crate::cards::with_reference();
    sealed.run(&["event", "set", "libraries", "sealed"]).ok();
    assert!(sealed.refuses(&["library", "add-tables", "1"]).contains("library register"));
}

#[test]
fn pairing_more_players_than_tables_names_add_tables() {
    let ev = with_pool();
    ev.run(&["library", "build", "--tables", "2"]).ok();
    ev.add_players(6);
    // Before round 1, rebuilding them all is the other way.
    let msg = ev.refuses(&["round", "pair"]);
    assert!(
        msg.contains("6 players need 3 tables but only 2 exist: `mmjudge library add-tables 1`")
            && msg.contains("(before round 1, `mmjudge library build --tables 3` rebuilds them all instead)"),
        "{msg}"
    );
    // Five players: two tables and a bye.
    ev.run(&["player", "remove", "Player 06"]).ok();
    ev.run(&["round", "pair"]).ok();
    ev.finish_round(1);
    ev.run(&["player", "add", "Late Lea", "Late Lou"]).ok();
    let msg = ev.refuses(&["round", "pair"]);
    assert!(
        msg.ends_with(
            "7 players need 3 tables but only 2 exist: `mmjudge library add-tables 1` builds the missing one from \
             what is left in the pool, without touching the libraries in play\n"
        ),
        "{msg}"
    );
    let before_ids = library_ids(&ev);
    let before = library_rows(&ev, &before_ids);
    ev.run(&["library", "add-tables", "1"]).ok();
    assert_eq!(library_rows(&ev, &before_ids), before);
    let paired = ev.run(&["--json", "round", "pair"]).json();
    assert_eq!(paired["tables"], 3, "{paired}");
    assert_eq!(paired["byes"].as_array().map(Vec::len), Some(1), "an odd field: the bye needs no table");
}

#[test]
fn a_sealed_library_is_found_by_any_form_of_its_players_name() {
    let ev = crate::cards::with_reference();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    ev.run(&["event", "set", "libraries", "sealed"]).ok();
    let product = ev.file("ana.csv", "name,count\nForest,8\nShock,2\nGiant Growth,1\nCounterspell,1\n");
    ev.run(&["library", "register", "Ana", &product.to_string_lossy()]).ok();
    for typed in ["Ana", "ana", "ANA", "an", "Àna"] {
        let doc = ev.run(&["--json", "library", "show", typed]).json();
        assert_eq!(doc["player"], "Ana", "{typed}");
    }
    assert!(ev.refuses(&["library", "show", "bo"]).contains("Bo has no sealed library"));
    // Before anyone registers, a sealed event still finds the player (and says what is missing).
    let fresh = crate::cards::with_reference();
    fresh.run(&["player", "add", "Ana"]).ok();
    fresh.run(&["event", "set", "libraries", "sealed"]).ok();
    assert!(fresh.refuses(&["library", "show", "ana"]).contains("Ana has no sealed library"));
    assert!(ev.refuses(&["library", "show", "zed"]).contains("zed"));
}

#[test]
fn a_malformed_cost_is_refused_naming_the_fix() {
    let ev = crate::cards::with_reference();
    for typed in ["ZZ", "Y", "XZZ", "1Z"] {
        let msg = ev.refuses(&["cards", "cost", typed]);
        assert!(msg.contains(&format!("cannot read cost \"{typed}\"")) && msg.contains("{1}{B} or B1"), "{msg}");
    }
    assert!(ev.refuses(&["cards", "check", "ZZ", "Shock"]).contains("cannot read cost"));
    // The one printed cost with {Y} and {Z} is still read.
    ev.run(&["cards", "cost", "{X}{Y}{Z}{R}{R}"]).ok();
}
