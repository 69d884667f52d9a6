//! A player who stays at one table (`player seat`): every round is paired on the libraries as ever (checked with
//! the movement's validator on the libraries), the stationary player's game is played at their table, and the
//! libraries carried there are listed.

use crate::harness::Event;
use mmjudge::domain::movement::{Game, Guarantee, Round, validate};
use serde_json::Value;
use std::collections::BTreeSet;

/// One match as stored: (round, table played at, a, b, library table of seat A, seat A's and B's library ids).
struct Played {
    round: u32,
    table: Option<u32>,
    a: usize,
    b: Option<usize>,
    libraries_of: Option<u32>,
    a_library: Option<i64>,
    b_library: Option<i64>,
}

fn matches(ev: &Event) -> Vec<Played> {
    let conn = rusqlite::Connection::open(ev.db()).expect("open db");
    let mut stmt = conn
        .prepare(
            "SELECT m.round, m.table_no, m.a_player, m.b_player, l.table_no, m.a_library, m.b_library
             FROM match m LEFT JOIN library l ON l.id = m.a_library ORDER BY m.round, m.table_no",
        )
        .expect("sql");
    let rows = stmt
        .query_map([], |r| {
            Ok(Played {
                round: r.get(0)?,
                table: r.get(1)?,
                a: r.get::<_, i64>(2)? as usize - 1,
                b: r.get::<_, Option<i64>>(3)?.map(|b| b as usize - 1),
                libraries_of: r.get(4)?,
                a_library: r.get(5)?,
                b_library: r.get(6)?,
            })
        })
        .expect("query");
    rows.map(|r| r.expect("row")).collect()
}

/// The rounds as the movement sees them: each game at its libraries' table.
fn rounds_on_libraries(all: &[Played]) -> Vec<Round> {
    let mut rounds: Vec<Round> = Vec::new();
    for m in all {
        while rounds.len() < m.round as usize {
            rounds.push(Round::default());
        }
        let r = &mut rounds[m.round as usize - 1];
        match (m.libraries_of.or(m.table), m.b) {
            (Some(table), Some(b)) => r.games.push(Game { table, a: m.a, b }),
            _ => r.byes.push(m.a),
        }
    }
    for r in &mut rounds {
        r.games.sort_by_key(|g| g.table);
    }
    rounds
}

/// Checks a round as stored: every library at exactly one table, every table once, and the pairings' `carry`
/// naming exactly the libraries played away from their own table.
fn check_round(ev: &Event, all: &[Played], round: u32) {
    let this: Vec<&Played> = all.iter().filter(|m| m.round == round && m.b.is_some()).collect();
    let tables: BTreeSet<u32> = this.iter().filter_map(|m| m.table).collect();
    assert_eq!(tables.len(), this.len(), "round {round}: a table twice");
    let libraries: Vec<i64> = this.iter().flat_map(|m| [m.a_library, m.b_library]).flatten().collect();
    let distinct: BTreeSet<i64> = libraries.iter().copied().collect();
    assert_eq!(distinct.len(), libraries.len(), "round {round}: a library at two tables");
    let mut want: Vec<(String, u32, u32)> = Vec::new();
    for m in &this {
        let (Some(from), Some(to)) = (m.libraries_of, m.table) else { continue };
        if from != to {
            want.push((format!("{from}A"), from, to));
            want.push((format!("{from}B"), from, to));
        }
    }
    want.sort_by_key(|(l, from, to)| (*to, *from, l.clone()));
    let doc = ev.run(&["--json", "pairings", "--round", &round.to_string()]).json();
    let mut got: Vec<(String, u32, u32)> = doc["carry"]
        .as_array()
        .map(|c| {
            c.iter()
                .map(|c| {
                    let n = |k: &str| c[k].as_u64().unwrap_or(0) as u32;
                    (c["library"].as_str().unwrap_or("").to_string(), n("from"), n("to"))
                })
                .collect()
        })
        .unwrap_or_default();
    got.sort_by_key(|(l, from, to)| (*to, *from, l.clone()));
    assert_eq!(got, want, "round {round}: the carried libraries");
    // A table said to have no game keeps its libraries there: none of them is carried away.
    for idle in doc["idle"].as_array().into_iter().flatten().filter_map(Value::as_u64) {
        assert!(got.iter().all(|(_, from, _)| u64::from(*from) != idle), "round {round}: table {idle} in {doc}");
        assert!(!tables.contains(&(idle as u32)), "round {round}: table {idle} has a game: {doc}");
    }
}

/// Where a player sits in the current round's pairings: (table, library).
fn seat_of(doc: &Value, name: &str) -> Option<(u64, String)> {
    let p = doc["players"].as_array()?.iter().find(|p| p["name"] == name)?;
    Some((p["table"].as_u64()?, p["library"].as_str()?.to_string()))
}

#[test]
fn a_stationary_player_keeps_their_table_through_a_twelve_round_fixed_movement() {
    let ev = Event::new();
    ev.run(&["event", "set", "rounds", "12"]).ok();
    let names = ev.add_players(24);
    ev.fake_libraries(12);
    let said = ev.run(&["player", "seat", "Player 05", "--table", "3"]).ok().to_string();
    assert!(said.contains("Player 05 stays at table 3"), "{said}");
    let listed = ev.run(&["--json", "player", "list"]).json();
    assert_eq!(listed["players"][4]["stays_at"], 3);
    assert_eq!(listed["players"][0]["stays_at"], Value::Null);
    let mut carried_rounds = 0;
    for round in 1..=12 {
        let paired = ev.run(&["--json", "round", "pair"]).json();
        assert_ne!(paired["movement"], "swiss", "round {round} left the fixed plan: {paired}");
        let doc = ev.run(&["--json", "pairings"]).json();
        let (table, library) = seat_of(&doc, &names[4]).expect("Player 05 plays every round");
        assert_eq!(table, 3, "round {round}");
        if !library.starts_with("3") {
            carried_rounds += 1;
            assert!(paired["carry"].as_array().is_some_and(|c| !c.is_empty()), "{paired}");
            let summary = paired["summary"].as_str().unwrap_or("");
            assert!(summary.contains("; libraries to carry (") && summary.contains(&library), "{summary}");
        }
        ev.finish_round(round);
    }
    assert!(carried_rounds >= 10, "libraries came to table 3 in only {carried_rounds} rounds");
    let all = matches(&ev);
    for round in 1..=12 {
        check_round(&ev, &all, round);
    }
    let rounds = rounds_on_libraries(&all);
    let every = [Guarantee::WellFormed, Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::OneSitOut];
    assert_eq!(validate(24, &rounds, &every), vec![], "the movement's guarantees on the libraries");
}

#[test]
fn two_stationary_players_through_six_swiss_rounds_with_a_bye_each_round() {
    let ev = Event::new();
    ev.run(&["event", "set", "movement", "swiss"]).ok();
    ev.run(&["event", "set", "rounds", "6"]).ok();
    let names = ev.add_players(26);
    ev.fake_libraries(13);
    ev.run(&["player", "drop", "Player 26"]).ok();
    ev.run(&["player", "seat", "Player 01", "--table", "7"]).ok();
    ev.run(&["player", "seat", "Player 02", "--table", "2"]).ok();
    for round in 1..=6 {
        let paired = ev.run(&["--json", "round", "pair"]).json();
        assert_eq!(paired["byes"].as_array().map(Vec::len), Some(1), "{paired}");
        let doc = ev.run(&["--json", "pairings"]).json();
        for (who, table) in [(&names[0], 7), (&names[1], 2)] {
            match seat_of(&doc, who) {
                Some((t, _)) => assert_eq!(t, table, "round {round}: {who}"),
                None => {
                    // A bye: nobody else is carried to a table on their account.
                    assert!(paired["byes"][0] == who.as_str(), "{who} neither plays nor sits out in {paired}")
                }
            }
        }
        let opponent = doc["players"].as_array().and_then(|p| p.iter().find(|p| p["name"] == names[0].as_str()));
        assert_ne!(opponent.map(|p| p["opponent"].clone()), Some(Value::from(names[1].as_str())), "round {round}");
        ev.finish_round(round);
    }
    let all = matches(&ev);
    for round in 1..=6 {
        check_round(&ev, &all, round);
    }
    let rounds = rounds_on_libraries(&all);
    let swiss = [Guarantee::WellFormed, Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::OneSitOut];
    assert_eq!(validate(26, &rounds, &swiss), vec![]);
}

#[test]
fn two_stationary_players_a_fixed_movement_pairs_play_at_the_lower_table() {
    let ev = Event::new();
    ev.run(&["event", "set", "movement", "mitchell"]).ok();
    ev.add_players(4);
    ev.fake_libraries(2);
    ev.run(&["round", "pair"]).ok();
    let doc = ev.run(&["--json", "pairings"]).json();
    let (a, b) = (doc["tables"][1]["a"]["name"].clone(), doc["tables"][1]["b"]["name"].clone());
    let (a, b) = (a.as_str().unwrap_or("").to_string(), b.as_str().unwrap_or("").to_string());
    ev.run(&["round", "unpair"]).ok();
    ev.run(&["player", "seat", &b, "--table", "1"]).ok();
    ev.run(&["player", "seat", &a, "--table", "2"]).ok();
    let paired = ev.run(&["--json", "round", "pair"]).json();
    let moves: Vec<String> =
        paired["moves"].as_array().unwrap_or(&vec![]).iter().map(|n| n.as_str().unwrap_or("").to_string()).collect();
    let want = format!("{b} and {a} both stay at their tables and meet this round: their game is at table 1");
    assert!(moves.iter().any(|n| n.starts_with(&want)), "{moves:?}");
    assert!(paired["summary"].as_str().unwrap_or("").contains(&want), "the answer and the audit say it: {paired}");
    let doc = ev.run(&["--json", "pairings"]).json();
    let away =
        format!("{a} stays at table 2 but plays at table 1 this round ({b}, who stays at table 1, meets them there)");
    assert_eq!(doc["away"][0], away.as_str(), "{doc}");
    assert!(ev.run(&["pairings"]).ok().contains(&away), "the pairings say it");
    assert_eq!(seat_of(&doc, &b).map(|s| s.0), Some(1));
    assert_eq!(doc["carry"].as_array().map(Vec::len), Some(4), "{doc}");
    let all = matches(&ev);
    check_round(&ev, &all, 1);
}

#[test]
fn a_stay_is_refused_where_it_cannot_hold_and_ends_with_a_drop() {
    let ev = Event::new();
    ev.add_players(4);
    let refused = ev.refuses(&["player", "seat", "Player 01", "--table", "1"]);
    assert!(refused.contains("no libraries are built yet"), "{refused}");
    ev.fake_libraries(2);
    let refused = ev.refuses(&["player", "seat", "Player 01", "--table", "3"]);
    assert!(refused.contains("table 3 has no libraries (tables 1 to 2 have)"), "{refused}");
    ev.run(&["player", "seat", "Player 01", "--table", "2"]).ok();
    let before = ev.dump();
    let refused = ev.refuses(&["player", "seat", "Player 02", "--table", "2"]);
    assert!(refused.contains("Player 01 already stays at table 2"), "{refused}");
    assert_eq!(ev.dump(), before, "a refusal leaves the event as it was");
    let dropped = ev.run(&["player", "drop", "Player 01"]).ok().to_string();
    assert!(dropped.contains("their stay at table 2 waits for their return"), "{dropped}");
    assert_eq!(ev.run(&["--json", "player", "list"]).json()["players"][0]["stays_at"], 2);
    let refused = ev.refuses(&["player", "seat", "Player 01", "--table", "1"]);
    assert!(refused.contains("no longer in the event"), "{refused}");
    // Back in, the stay holds again; a dropped player's table is free to another meanwhile, and then theirs ends.
    let back = ev.run(&["player", "undrop", "Player 01"]).ok().to_string();
    assert!(!back.contains("stays"), "{back}");
    assert_eq!(ev.run(&["--json", "player", "list"]).json()["players"][0]["stays_at"], 2);
    ev.run(&["player", "drop", "Player 01"]).ok();
    ev.run(&["player", "seat", "Player 02", "--table", "2"]).ok();
    let back = ev.run(&["player", "undrop", "Player 01"]).ok().to_string();
    assert!(back.contains("another player stays at table 2 now, so they move with the others"), "{back}");
    assert_eq!(ev.run(&["--json", "player", "list"]).json()["players"][0]["stays_at"], Value::Null);
    let refused = ev.refuses(&["player", "seat", "Player 02", "--table", "2"]);
    assert!(refused.contains("already stays at table 2: nothing to change"), "{refused}");
    let moved = ev.run(&["player", "seat", "Player 02", "--table", "1"]).ok().to_string();
    assert!(moved.contains("Player 02 stays at table 1 (instead of table 2)"), "{moved}");
    let cleared = ev.run(&["player", "seat", "Player 02", "--clear"]).ok().to_string();
    assert!(cleared.contains("Player 02 no longer stays at table 1"), "{cleared}");
    let refused = ev.refuses(&["player", "seat", "Player 02", "--clear"]);
    assert!(refused.contains("does not stay at a table: nothing to end"), "{refused}");
    let log = ev.run(&["log"]).ok().to_string();
    assert!(log.contains("Player 02 stays at table 2"), "the stay is audited: {log}");
}

#[test]
fn a_rebuild_that_removes_the_table_ends_the_stay_with_a_word() {
    let ev = crate::pool::with_pool();
    ev.add_players(8);
    ev.run(&["library", "build", "--tables", "4", "--size", "20"]).ok();
    ev.run(&["player", "seat", "Player 03", "--table", "4"]).ok();
    let built = ev.run(&["--json", "library", "build", "--tables", "3", "--size", "20"]).json();
    assert_eq!(
        (built["stays_ended"][0]["name"].as_str(), built["stays_ended"][0]["table"].as_u64()),
        (Some("Player 03"), Some(4))
    );
    ev.run(&["player", "seat", "Player 03", "--table", "3"]).ok();
    let said = ev.run(&["library", "build", "--tables", "2", "--size", "20"]).ok().to_string();
    assert!(said.contains("Player 03 no longer stays at table 3 (it has no libraries now)"), "{said}");
    let log = ev.run(&["log"]).ok().to_string();
    assert!(log.contains("Player 03 no longer stays at table 3"), "{log}");
    let listed = ev.run(&["--json", "player", "list"]).json();
    assert_eq!(listed["players"][2]["stays_at"], Value::Null);
}

/// Every output that shows a stationary player's carried libraries, as snapshots: the pairing's reply, the
/// pairings as a table, JSON and printed pages (by table, and the wall sheet), and the player list.
#[test]
fn the_carried_libraries_in_every_output() {
    let ev = Event::new();
    let env = [("MMJUDGE_NOW", "2025-05-01T10:00:00Z"), ("TZ", "UTC")];
    let run = |args: &[&str]| ev.run_with(args, &env).ok().to_string();
    run(&["event", "set", "movement", "mitchell"]);
    ev.add_players(8);
    ev.fake_libraries(4);
    insta::assert_snapshot!("stationary_player_seat", run(&["player", "seat", "Player 05", "--table", "1"]));
    insta::assert_snapshot!(
        "stationary_player_seat_json",
        run(&["--json", "player", "seat", "Player 06", "--table", "4"])
    );
    insta::assert_snapshot!("stationary_player_list", run(&["player", "list"]));
    insta::assert_snapshot!("stationary_round_pair", run(&["--json", "round", "pair"]));
    insta::assert_snapshot!("stationary_pairings", run(&["pairings"]));
    insta::assert_snapshot!("stationary_pairings_json", run(&["--json", "pairings"]));
    run(&["pairings", "--html", "pairings.html"]);
    run(&["pairings", "--html", "wall.html", "--wall"]);
    let read = |name: &str| std::fs::read_to_string(ev.path(name)).unwrap_or_default();
    insta::assert_snapshot!("stationary_pairings_html", read("pairings.html"));
    insta::assert_snapshot!("stationary_pairings_wall_html", read("wall.html"));
    // The result slips name the libraries at each table, and those carried there say where they go back.
    run(&["site", "site"]);
    let slips = read("site/round-1-slips.html");
    assert!(slips.contains("Libraries 4A and 4B are carried here from table 4 this round"), "{slips}");
    insta::assert_snapshot!("stationary_slips_html", slips);
}

#[test]
fn a_swap_that_moves_a_stationary_player_off_their_table_says_so() {
    let ev = Event::new();
    ev.add_players(4);
    ev.fake_libraries(2);
    ev.run(&["player", "seat", "Player 01", "--table", "1"]).ok();
    ev.run(&["round", "pair"]).ok();
    let doc = ev.run(&["--json", "pairings"]).json();
    let other = doc["tables"][1]["a"]["name"].as_str().unwrap_or_default().to_string();
    let swapped = ev.run(&["--json", "round", "swap", "Player 01", &other]).json();
    let warnings = swapped["warnings"].to_string();
    assert!(
        warnings.contains("Player 01 stays at table 1 (a player who cannot move) but sits at table 2 this round"),
        "{swapped}"
    );
}

#[test]
fn sealed_libraries_travel_with_their_players_and_nothing_is_carried() {
    let ev = Event::new();
    ev.run(&["event", "set", "libraries", "sealed"]).ok();
    ev.add_players(6);
    ev.fake_sealed_libraries();
    let refused = ev.refuses(&["player", "seat", "Player 04", "--table", "4"]);
    assert!(refused.contains("table 4 is not used: 6 players play at tables 1 to 3"), "{refused}");
    ev.run(&["player", "seat", "Player 04", "--table", "3"]).ok();
    for round in 1..=3 {
        let paired = ev.run(&["--json", "round", "pair"]).json();
        assert!(paired.get("carry").is_none(), "sealed libraries need no carrying: {paired}");
        let doc = ev.run(&["--json", "pairings"]).json();
        assert_eq!(seat_of(&doc, "Player 04").map(|s| s.0), Some(3), "round {round}: {doc}");
        assert!(doc.get("carry").is_none(), "{doc}");
        ev.finish_round(round);
    }
}

#[test]
fn a_stationary_player_s_bye_leaves_their_table_to_its_own_game() {
    // Cyclic Howell on 7 players: one sits out each round, nobody twice. Whoever sits out round 1 stays at
    // table 2 (a stay changes no pairing of a fixed movement).
    let ev = Event::new();
    ev.run(&["event", "set", "movement", "howell"]).ok();
    ev.run(&["event", "set", "rounds", "7"]).ok();
    ev.add_players(7);
    ev.fake_libraries(3);
    let out = ev.run(&["--json", "round", "pair"]).json()["byes"][0].as_str().unwrap_or_default().to_string();
    ev.run(&["round", "unpair"]).ok();
    ev.run(&["player", "seat", &out, "--table", "2"]).ok();
    for round in 1..=7 {
        let paired = ev.run(&["--json", "round", "pair"]).json();
        let doc = ev.run(&["--json", "pairings"]).json();
        if round == 1 {
            assert_eq!(paired["byes"][0], out.as_str(), "{paired}");
            assert!(paired.get("carry").is_none(), "nothing is carried for a player who sits out: {paired}");
            assert_eq!(doc["tables"][1]["a"]["library"], "2A", "table 2 plays its own libraries: {doc}");
        } else {
            assert_eq!(seat_of(&doc, &out).map(|s| s.0), Some(2), "round {round}: {doc}");
        }
        ev.finish_round(round);
    }
    let all = matches(&ev);
    for round in 1..=7 {
        check_round(&ev, &all, round);
    }
    let every = [Guarantee::WellFormed, Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::OneSitOut];
    assert_eq!(validate(7, &rounds_on_libraries(&all), &every), vec![]);
}

#[test]
fn a_stationary_player_who_drops_frees_their_table_and_keeps_it_on_return() {
    let ev = Event::new();
    ev.run(&["event", "set", "rounds", "6"]).ok();
    let names = ev.add_players(12);
    ev.fake_libraries(6);
    ev.run(&["player", "seat", "Player 04", "--table", "5"]).ok();
    for round in 1..=2 {
        ev.run(&["round", "pair"]).ok();
        let doc = ev.run(&["--json", "pairings"]).json();
        assert_eq!(seat_of(&doc, &names[3]).map(|s| s.0), Some(5), "round {round}");
        ev.finish_round(round);
    }
    ev.run(&["player", "drop", "Player 04"]).ok();
    // Out: nobody is carried on their account; every game is played where its libraries are.
    let paired = ev.run(&["--json", "round", "pair"]).json();
    assert!(paired.get("carry").is_none(), "{paired}");
    let doc = ev.run(&["--json", "pairings"]).json();
    assert_eq!(seat_of(&doc, &names[3]), None, "{doc}");
    assert!(doc.get("away").is_none(), "a dropped player is said to be nowhere: {doc}");
    ev.finish_round(3);
    // Back in: their game is at table 5 again, the libraries carried to them.
    ev.run(&["player", "undrop", "Player 04"]).ok();
    for round in 4..=6 {
        ev.run(&["round", "pair"]).ok();
        let doc = ev.run(&["--json", "pairings"]).json();
        assert_eq!(seat_of(&doc, &names[3]).map(|s| s.0), Some(5), "round {round}: {doc}");
        ev.finish_round(round);
    }
    let all = matches(&ev);
    for round in 1..=6 {
        check_round(&ev, &all, round);
    }
    let every = [Guarantee::WellFormed, Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::OneSitOut];
    assert_eq!(validate(12, &rounds_on_libraries(&all), &every), vec![]);
}

#[test]
fn fewer_games_than_tables_a_stationary_player_s_game_comes_to_their_table_and_no_table_is_said_idle_wrongly() {
    let ev = Event::new();
    ev.run(&["event", "set", "movement", "swiss"]).ok();
    ev.run(&["event", "set", "rounds", "5"]).ok();
    let names = ev.add_players(10);
    ev.fake_libraries(7);
    ev.run(&["player", "seat", "Player 03", "--table", "7"]).ok();
    for round in 1..=5 {
        ev.run(&["round", "pair"]).ok();
        let doc = ev.run(&["--json", "pairings"]).json();
        assert_eq!(seat_of(&doc, &names[2]).map(|s| s.0), Some(7), "round {round}: {doc}");
        // Five games on seven tables: two tables without a game, whatever was carried.
        let idle = doc["idle"].as_array().map(Vec::len).unwrap_or(0);
        let emptied = doc["carry"].as_array().map(|c| c.len() / 2).unwrap_or(0);
        assert!(idle + emptied >= 2 && idle <= 2, "round {round}: {doc}");
        ev.finish_round(round);
    }
    let all = matches(&ev);
    for round in 1..=5 {
        check_round(&ev, &all, round);
    }
    let every = [Guarantee::WellFormed, Guarantee::NoRematch, Guarantee::NoLibraryReuse, Guarantee::OneSitOut];
    assert_eq!(validate(10, &rounds_on_libraries(&all), &every), vec![]);
}
