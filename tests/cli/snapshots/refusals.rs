//! A representative refusal per command group on the fixed event at `NOW`: exit 1, one line, the event file
//! unchanged; each line is snapshotted as `refused__<command line>`.

use super::{event, refused};

#[test]
fn event_players_cards() {
    let ev = event();
    refused(&ev, &["event", "set", "round-minutes", "abc"]);
    refused(&ev, &["event", "new", "Again"]);
    refused(&ev, &["player", "drop", "nobody"]);
    refused(&ev, &["player", "add", "Dmitri Volkov"]);
    refused(&ev, &["player", "rename", "dmitri", "Zoë Lambert"]);
    refused(&ev, &["player", "history", "nobody"]);
    refused(&ev, &["cards", "check", "B1", "Lightning Bolt"]);
    refused(&ev, &["cards", "find", ""]);
    refused(&ev, &["cards", "import", "missing.csv"]);
    refused(&ev, &["ban", "add", "Not A Card", "--group", "too-powerful"]);
    refused(&ev, &["ban", "remove", "Lightning Bolt"]);
}

#[test]
fn pool_library_movement() {
    let ev = event();
    refused(&ev, &["pool", "add", "Not A Card"]);
    refused(&ev, &["pool", "remove", "Not A Card"]);
    refused(&ev, &["pool", "exclude", "Not A Card"]);
    refused(&ev, &["pool", "watch", "add", "Not A Card"]);
    refused(&ev, &["library", "swap", "1A", "Not In It", "Lightning Bolt"]);
    refused(&ev, &["library", "show", "9A"]);
    refused(&ev, &["library", "build", "--tables", "8"]);
    refused(&ev, &["library", "register", "dmitri", "players.csv"]);
    refused(&ev, &["movement", "preview", "--players", "1"]);
}

#[test]
fn round_and_clock() {
    let ev = event();
    refused(&ev, &["round", "pair"]);
    refused(&ev, &["round", "unpair"]);
    refused(&ev, &["round", "swap", "kwame", "tomás"]);
    refused(&ev, &["round", "start"]);
    refused(&ev, &["round", "extend", "9", "3", "--reason", "spill"]);
    refused(&ev, &["pairings", "--round", "9"]);
    refused(&ev, &["clock", "9", "--start", "dmitri"]);
    refused(&ev, &["clock", "2", "--start", "björn"]);
    refused(&ev, &["decisions", "--player", "nobody"]);
}

#[test]
fn table_writes() {
    let ev = event();
    refused(&ev, &["note", "2", "björn", "UU", "Lightning Bolt"]);
    refused(&ev, &["note", "2", "björn", "G", "Llanowar Elves"]);
    refused(&ev, &["note", "undo", "5"]);
    refused(&ev, &["notes", "9"]);
    refused(&ev, &["challenge", "1", "--by", "kwame", "--about", "x", "--ruling", "upheld"]);
    refused(&ev, &["challenges", "--player", "nobody"]);
    refused(&ev, &["penalty", "dmitri", "nonsense"]);
    refused(&ev, &["penalties", "--player", "nobody"]);
    refused(&ev, &["ruling", "9", "x"]);
    refused(&ev, &["result", "1", "kwame", "--by", "life"]);
    refused(&ev, &["result", "2", "björn", "--by", "time"]);
    refused(&ev, &["result", "fix", "2", "björn", "--by", "life"]);
    refused(&ev, &["results", "--round", "9"]);
}

#[test]
fn reports_and_files() {
    let ev = event();
    std::fs::create_dir(ev.path("notsite")).expect("mkdir");
    std::fs::write(ev.path("notsite/mine.txt"), "mine").expect("write");
    refused(&ev, &["standings", "--round", "9"]);
    refused(&ev, &["report", "players", "nobody"]);
    refused(&ev, &["site", "notsite"]);
    refused(&ev, &["log", "--since", "yesterday"]);
    refused(&ev, &["backup", "event.db"]);
}
