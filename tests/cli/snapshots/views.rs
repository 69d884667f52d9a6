//! Every listing and view of the fixed event at `NOW`, as a table, with `--json` and with `--csv` (a command
//! that has no CSV form is pinned as it answers today).

use super::{event, snap};
use crate::harness::Event;

/// Snapshots `args` as a table, then with `--json`, then with `--csv`.
fn all_formats(ev: &Event, args: &[&str]) {
    snap(ev, args);
    for format in ["--json", "--csv"] {
        let mut with = args.to_vec();
        with.push(format);
        snap(ev, &with);
    }
}

#[test]
fn event_and_players() {
    let ev = event();
    all_formats(&ev, &["event", "show"]);
    all_formats(&ev, &["player", "list"]);
    all_formats(&ev, &["player", "history", "lucja"]);
    all_formats(&ev, &["player", "history", "dmitri"]);
    all_formats(&ev, &["player", "history", "larry"]);
}

#[test]
fn cards_and_bans() {
    let ev = event();
    all_formats(&ev, &["cards", "find", "nevinyrals disk"]);
    all_formats(&ev, &["cards", "find", "bolt"]);
    all_formats(&ev, &["cards", "cost", "B1"]);
    all_formats(&ev, &["cards", "check", "B1", "Demonic Tutor"]);
    all_formats(&ev, &["cards", "check", "B1", "Lightning Bolt"]);
    all_formats(&ev, &["cards", "check", "land", "Wasteland"]);
    all_formats(&ev, &["ban", "list"]);
}

#[test]
fn pool() {
    let ev = event();
    all_formats(&ev, &["pool", "list"]);
    all_formats(&ev, &["pool", "check"]);
    all_formats(&ev, &["pool", "watch", "list"]);
}

#[test]
fn libraries() {
    let ev = event();
    all_formats(&ev, &["library", "list"]);
    all_formats(&ev, &["library", "show", "1a"]);
    all_formats(&ev, &["library", "show", "8B"]);
}

#[test]
fn movement_preview() {
    let ev = event();
    all_formats(&ev, &["movement", "preview", "--players", "16", "--rounds", "5"]);
    all_formats(&ev, &["movement", "preview", "--players", "9", "--rounds", "3"]);
    all_formats(&ev, &["movement", "preview", "--players", "12", "--movement", "mitchell", "--rounds", "3"]);
}

#[test]
fn pairings_and_results() {
    let ev = event();
    all_formats(&ev, &["pairings"]);
    all_formats(&ev, &["pairings", "--by", "table"]);
    all_formats(&ev, &["pairings", "--by", "name"]);
    all_formats(&ev, &["pairings", "--round", "1"]);
    all_formats(&ev, &["pairings", "--round", "2"]);
    all_formats(&ev, &["results"]);
    all_formats(&ev, &["results", "--round", "1"]);
    all_formats(&ev, &["results", "--round", "2"]);
}

#[test]
fn clock_views() {
    let ev = event();
    all_formats(&ev, &["time"]);
    all_formats(&ev, &["decisions"]);
    all_formats(&ev, &["decisions", "--player", "dmitri"]);
    all_formats(&ev, &["decisions", "--table", "2"]);
    all_formats(&ev, &["decisions", "--all"]);
}

#[test]
fn notes_challenges_penalties() {
    let ev = event();
    all_formats(&ev, &["notes", "1", "--round", "1"]);
    all_formats(&ev, &["notes", "3", "--round", "2"]);
    all_formats(&ev, &["notes", "2"]);
    all_formats(&ev, &["challenges"]);
    all_formats(&ev, &["challenges", "--watch"]);
    all_formats(&ev, &["challenges", "--player", "lucja"]);
    all_formats(&ev, &["challenges", "--table", "1", "--round", "1"]);
    all_formats(&ev, &["penalties"]);
    all_formats(&ev, &["penalties", "--player", "zoë"]);
}

#[test]
fn standings_and_reports() {
    let ev = event();
    all_formats(&ev, &["standings"]);
    all_formats(&ev, &["standings", "--round", "1"]);
    all_formats(&ev, &["report", "libraries"]);
    all_formats(&ev, &["report", "players"]);
    all_formats(&ev, &["report", "players", "dmitri"]);
}

#[test]
fn audit_log() {
    let ev = event();
    all_formats(&ev, &["log"]);
    all_formats(&ev, &["log", "--player", "lucja"]);
    all_formats(&ev, &["log", "--since", "11:00"]);
}

/// A new event with nothing in it yet: the empty listings, and the views that need a paired round refusing.
#[test]
fn empty_event() {
    let ev = Event::empty();
    super::run(&ev, &["event", "new", "Empty Open", "--seed", "1"]).ok();
    for args in
        [&["standings"][..], &["decisions"], &["report", "libraries"], &["player", "list"], &["library", "list"]]
    {
        for format in [None, Some("--json"), Some("--csv")] {
            let mut all = args.to_vec();
            all.extend(format);
            let run = super::run(&ev, &all);
            super::check(
                &format!("empty__{}", super::name_of(&all)),
                &super::shown(&all),
                &super::shown_run(&ev, &run),
            );
        }
    }
    for args in [&["time"][..], &["clock", "--html", "clock.html"], &["pairings"], &["results"]] {
        let before = crate::harness::dump(&ev.db());
        let run = super::run(&ev, args);
        assert_eq!(before, crate::harness::dump(&ev.db()), "{args:?} changed the event file");
        super::check(&format!("empty__refused__{}", super::name_of(args)), &super::shown(args), run.refused());
    }
}
