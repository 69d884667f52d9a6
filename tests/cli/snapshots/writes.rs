//! The replies of writes: every step of the fixed event's history as typed, and each kind of write again with
//! `--json` on a copy of the finished event.

use super::{SCENARIO, check, event, name_of, run_at, shown, shown_run, template};
use crate::harness::Event;

/// Each scenario step's reply, in the order of the event's history (`NN_` keeps that order in the folder).
#[test]
fn scenario_replies() {
    let template = template();
    for (i, ((time, args), reply)) in SCENARIO.iter().zip(&template.replies).enumerate() {
        let name = format!("{:02}_{}", i + 1, name_of(args));
        check(&name, &format!("{} (at 2026-05-01T{time}Z)", shown(args)), reply);
    }
}

/// Runs a write at `now` (`HH:MM:SS` that day) and snapshots its reply as `json__...`.
fn json_write(ev: &Event, time: &str, args: &[&str]) {
    let mut all = args.to_vec();
    all.push("--json");
    let now = format!("2026-05-01T{time}Z");
    let run = run_at(ev, &now, &all);
    assert_eq!(run.code, 0, "{all:?} failed: {}", run.stderr);
    check(&format!("json__{}", name_of(&all)), &format!("{} (at {now})", shown(&all)), &shown_run(ev, &run));
}

/// The first card of a library, as `library show LIB --json` lists it.
fn first_card(ev: &Event, library: &str) -> String {
    let doc = run_at(ev, super::NOW, &["library", "show", library, "--json"]).json();
    let cards = doc["cards"].as_array().cloned().unwrap_or_default();
    let first = cards.first().unwrap_or_else(|| panic!("library {library} has no cards: {doc}"));
    first["name"].as_str().unwrap_or_else(|| panic!("no card name in {first}")).to_string()
}

/// Event, player, ban, pool and library writes with `--json`.
#[test]
fn setup_writes_as_json() {
    let ev = event();
    json_write(&ev, "11:21:00", &["event", "set", "decision-seconds", "40", "--force"]);
    json_write(&ev, "11:21:10", &["player", "add", "Walk In"]);
    json_write(&ev, "11:21:20", &["player", "rename", "walk", "Wendy Walker"]);
    json_write(&ev, "11:21:30", &["player", "drop", "wendy"]);
    json_write(&ev, "11:21:40", &["player", "undrop", "wendy"]);
    json_write(&ev, "11:22:00", &["ban", "add", "Ancestral Recall", "--group", "too-powerful"]);
    json_write(&ev, "11:22:10", &["ban", "remove", "Ancestral Recall"]);
    json_write(&ev, "11:22:20", &["pool", "add", "Counterspell", "--count", "2"]);
    json_write(&ev, "11:22:30", &["pool", "remove", "Counterspell", "--count", "1"]);
    json_write(&ev, "11:22:40", &["pool", "exclude", "Abrade"]);
    json_write(&ev, "11:22:50", &["pool", "include", "Abrade"]);
    json_write(&ev, "11:23:00", &["pool", "watch", "add", "Ancestral Recall"]);
    json_write(&ev, "11:23:10", &["pool", "watch", "remove", "Ancestral Recall"]);
    let card = first_card(&ev, "2A");
    json_write(&ev, "11:23:20", &["library", "swap", "2A", &card, "Counterspell", "--force"]);
    json_write(&ev, "11:23:30", &["backup", "copy.db"]);
}

/// Table writes during round 3 with `--json`: notes, the clock, challenge, penalty, ruling, extension, swap,
/// results and the round's end.
#[test]
fn table_writes_as_json() {
    let ev = event();
    json_write(&ev, "11:21:00", &["note", "2", "björn", "W", "Swords to Plowshares"]);
    json_write(&ev, "11:21:10", &["note", "undo", "2"]);
    json_write(&ev, "11:21:20", &["clock", "2", "--stop", "--at", "2026-05-01T11:21:20Z"]);
    json_write(&ev, "11:21:30", &["clock", "2", "--start", "björn", "--at", "2026-05-01T11:21:30Z"]);
    json_write(
        &ev,
        "11:22:00",
        &["challenge", "3", "--by", "ingrid", "--about", "a card's text", "--ruling", "upheld"],
    );
    json_write(&ev, "11:22:10", &["penalty", "dmitri", "slow-play"]);
    json_write(&ev, "11:22:20", &["ruling", "3", "Play on"]);
    json_write(&ev, "11:22:30", &["round", "extend", "3", "2", "--reason", "spill"]);
    json_write(&ev, "11:22:40", &["round", "swap", "josé", "aiko"]);
    json_write(&ev, "11:23:00", &["result", "3", "ingrid", "--by", "life", "--life", "4", "0"]);
    json_write(&ev, "11:23:10", &["result", "fix", "3", "dmitri", "--by", "concession"]);
    json_write(&ev, "11:50:00", &["round", "end", "--force"]);
}

/// A new event and a card reference import with `--json`.
#[test]
fn new_event_and_import_as_json() {
    let ev = Event::empty();
    std::fs::copy(crate::harness::example("cards.csv"), ev.path("cards.csv")).expect("copy");
    json_write(&ev, "07:00:00", &["event", "new", "Json Open", "--seed", "1"]);
    json_write(&ev, "07:01:00", &["cards", "import", "cards.csv"]);
}

/// Sealed libraries (a small event of its own): `library register`'s reply, as typed and with `--json`, the
/// sealed libraries as listed and shown, and a refused registration.
#[test]
fn sealed_libraries() {
    let ev = Event::empty();
    std::fs::copy(crate::harness::example("cards.csv"), ev.path("cards.csv")).expect("copy");
    let product = "name,count\nLightning Bolt,2\nCounterspell,1\nSwords to Plowshares,1\nMountain,5\nIsland,4\n";
    std::fs::write(ev.path("ana.csv"), product).expect("write");
    std::fs::write(ev.path("bo.csv"), product).expect("write");
    for args in [
        &["event", "new", "Sealed Open", "--seed", "3"][..],
        &["cards", "import", "cards.csv"],
        &["event", "set", "libraries", "sealed"],
        &["player", "add", "Ana", "Bo"],
    ] {
        run_at(&ev, "2026-05-01T07:00:00Z", args).ok();
    }
    let sideboard = "Counterspell,Swords to Plowshares,Lightning Bolt";
    let args = ["library", "register", "ana", "ana.csv", "--sideboard", sideboard];
    let run = run_at(&ev, "2026-05-01T07:10:00Z", &args);
    check(&format!("sealed__{}", name_of(&args)), &shown(&args), &shown_run(&ev, &run));
    json_write(&ev, "07:11:00", &["library", "register", "bo", "bo.csv", "--sideboard", sideboard]);
    for args in [&["library", "list"][..], &["library", "show", "Ana"]] {
        for format in [None, Some("--json"), Some("--csv")] {
            let mut all = args.to_vec();
            all.extend(format);
            let run = run_at(&ev, "2026-05-01T07:20:00Z", &all);
            check(&format!("sealed__{}", name_of(&all)), &shown(&all), &shown_run(&ev, &run));
        }
    }
    let before = crate::harness::dump(&ev.db());
    let args = ["library", "register", "bo", "bo.csv", "--sideboard", "Counterspell", "--force"];
    let run = run_at(&ev, "2026-05-01T07:30:00Z", &args);
    assert_eq!(before, crate::harness::dump(&ev.db()), "a refused registration changed the event file");
    check(&format!("sealed__refused__{}", name_of(&args)), &shown(&args), run.refused());
}

/// Round writes with `--json` on a copy: round 3 finished, a fourth round paired, taken back, paired again (not
/// snapshotted twice) and started; libraries rebuilt and the pool imported again.
#[test]
fn round_writes_as_json() {
    let ev = event();
    json_write(&ev, "11:30:00", &["event", "set", "rounds", "4"]);
    for (table, winner) in
        [("2", "fatima"), ("3", "ingrid"), ("4", "josé"), ("5", "seán"), ("6", "aiko"), ("7", "chloé")]
    {
        run_at(&ev, "2026-05-01T11:40:00Z", &["result", table, winner, "--by", "life"]).ok();
    }
    run_at(&ev, "2026-05-01T11:50:00Z", &["round", "end"]).ok();
    json_write(&ev, "12:00:00", &["round", "pair"]);
    json_write(&ev, "12:00:30", &["round", "unpair"]);
    run_at(&ev, "2026-05-01T12:01:00Z", &["round", "pair"]).ok();
    json_write(&ev, "12:05:00", &["round", "start"]);
    json_write(&ev, "12:06:00", &["pool", "import", "pool.csv"]);
    json_write(&ev, "12:07:00", &["library", "build", "--tables", "8", "--force"]);
    json_write(&ev, "12:08:00", &["library", "add-tables", "1"]);
}
