//! Files the user points at: outputs never replace the event, an SQLite file or a foreign file; `event new`
//! and `backup` are all or nothing; read-only events can be read; a marked file with broken tables gets one
//! line.

use crate::harness::{Event, dump};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every single-file output, with `FILE` standing for its destination.
const OUTPUTS: &[&[&str]] = &[
    &["pairings", "--html", "FILE"],
    &["pool", "check", "--html", "FILE"],
    &["notes", "1", "--html", "FILE"],
    &["clock", "--html", "FILE"],
    &["player", "codes", "--html", "FILE"],
];

fn with_file<'a>(args: &[&'a str], file: &'a str) -> Vec<&'a str> {
    args.iter().map(|a| if *a == "FILE" { file } else { a }).collect()
}

fn files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned())).collect())
        .unwrap_or_default()
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn no_output_ever_replaces_the_event_or_another_sqlite_file() {
    let ev = Event::playing();
    ev.run(&["backup", "copy.db"]).ok();
    let event_bytes = bytes(&ev.db());
    for output in OUTPUTS {
        for target in ["event.db", "copy.db"] {
            for force in [false, true] {
                let mut args = with_file(output, target);
                if force {
                    args.push("--force");
                }
                let msg = ev.refuses(&args);
                assert!(msg.contains("SQLite") && msg.contains("never writes over"), "{args:?}: {msg}");
            }
        }
    }
    assert_eq!(bytes(&ev.db()), event_bytes, "the event file is byte for byte the same");
    ev.run(&["--db", "copy.db", "standings"]).ok();
    // The folders of library sheets and the site: a page name taken by an SQLite file.
    for (cmd, dir) in [("site", "site"), ("library", "sheets")] {
        std::fs::create_dir(ev.path(dir)).expect("dir");
        std::fs::copy(ev.db(), ev.path(&format!("{dir}/index.html"))).expect("copy");
        let args: Vec<&str> =
            if cmd == "site" { vec!["site", dir, "--force"] } else { vec![cmd, "sheets", dir, "--force"] };
        let msg = ev.refuses(&args);
        assert!(msg.contains("SQLite"), "{msg}");
        assert_eq!(files(&ev.path(dir)), BTreeSet::from(["index.html".to_string()]), "{cmd}: nothing written");
    }
}

#[test]
fn outputs_replace_their_own_kind_and_need_force_for_anything_else() {
    let ev = Event::playing();
    for output in OUTPUTS {
        let mine = ev.file("mine.html", "<p>my own notes</p>");
        let msg = ev.refuses(&with_file(output, "mine.html"));
        assert!(msg.contains("--force") && msg.contains("was not written by"), "{output:?}: {msg}");
        assert_eq!(bytes(&mine), b"<p>my own notes</p>");
        ev.run(&with_file(output, "out.html")).ok();
        ev.run(&with_file(output, "out.html")).ok(); // its own earlier output: replaced freely
        let mut forced = with_file(output, "mine.html");
        forced.push("--force");
        ev.run(&forced).ok();
        assert!(bytes(&mine).starts_with(b"<!doctype html>"), "{output:?}");
        std::fs::remove_file(ev.path("out.html")).expect("rm");
        std::fs::remove_file(&mine).expect("rm");
        ev.file("empty.html", "");
        ev.run(&with_file(output, "empty.html")).ok(); // an empty file holds nothing to lose
        std::fs::remove_file(ev.path("empty.html")).expect("rm");
    }
    // Another kind of mmjudge output is not the same kind.
    ev.run(&["pairings", "--html", "p.html"]).ok();
    let msg = ev.refuses(&["notes", "1", "--html", "p.html"]);
    assert!(msg.contains("was not written by `mmjudge notes"), "{msg}");
    assert!(files(ev.dir.path()).iter().all(|f| !f.ends_with(".tmp")), "no temporary file is left");
}

#[test]
fn every_page_written_to_disk_ends_with_one_newline() {
    let ev = Event::playing();
    ev.run(&["pool", "import", &crate::harness::example("pool.csv")]).ok();
    let mut pages = Vec::new();
    for (i, output) in OUTPUTS.iter().enumerate() {
        let file = format!("out-{i}.html");
        ev.run(&with_file(output, &file)).ok();
        pages.push(ev.path(&file));
    }
    ev.run(&["site", "out"]).ok();
    pages.extend(files(&ev.path("out")).iter().filter(|f| f.ends_with(".html")).map(|f| ev.path(&format!("out/{f}"))));
    assert!(pages.len() > OUTPUTS.len(), "the site's pages too: {pages:?}");
    for page in pages {
        let b = bytes(&page);
        assert!(b.ends_with(b">\n") && !b.ends_with(b"\n\n"), "{page:?} ends with one newline");
    }
}

/// Makes a named pipe at `path` (as `/dev/null` is a device: neither is a file).
#[cfg(unix)]
fn pipe(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_device_or_a_pipe_is_never_replaced_even_with_force() {
    use std::os::unix::fs::FileTypeExt;
    let ev = Event::playing();
    let fifo = ev.path("null");
    pipe(&fifo);
    let is_pipe = || std::fs::symlink_metadata(&fifo).is_ok_and(|m| m.file_type().is_fifo());
    for output in OUTPUTS.iter().copied().chain([&["backup", "FILE"][..]]) {
        let mut forced = with_file(output, "null");
        forced.push("--force");
        let msg = ev.refuses(&forced);
        assert!(
            msg.contains("null is a device, pipe or socket, not a file") && msg.contains("even with --force"),
            "{msg}"
        );
        assert!(is_pipe(), "{output:?} replaced the pipe");
    }
    // `--db` naming one (as `--db /dev/null` would): `event new` does not put an event in its place.
    for args in [&["event", "new", "X"][..], &["event", "new", "X", "--force"], &["standings"]] {
        let run = ev.run_with(args, &[("MMJUDGE_DB", "null")]);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stdout);
        assert_eq!(
            run.stderr,
            "error: null: is a device, pipe or socket, not a file: give the event's file, e.g. --db spring.db\n"
        );
        assert!(is_pipe(), "{args:?} replaced the pipe");
    }
}

#[cfg(unix)]
#[test]
fn an_output_never_writes_through_a_symbolic_link() {
    let ev = Event::playing();
    let victim = ev.file("victim.txt", "keep me");
    std::os::unix::fs::symlink(&victim, ev.path("link.html")).expect("symlink");
    std::os::unix::fs::symlink(ev.db(), ev.path("event-link.html")).expect("symlink");
    let msg = ev.refuses(&["pairings", "--html", "link.html"]);
    assert!(msg.contains("symbolic link") && msg.contains("--force"), "{msg}");
    let before = bytes(&ev.db());
    ev.run(&["pairings", "--html", "link.html", "--force"]).ok();
    ev.run(&["pairings", "--html", "event-link.html", "--force"]).ok();
    assert_eq!(bytes(&victim), b"keep me", "the link's target is untouched");
    assert_eq!(bytes(&ev.db()), before);
    assert!(!ev.path("link.html").is_symlink(), "the link itself was replaced");
}

#[test]
fn library_sheets_check_every_file_before_writing_any() {
    let ev = Event::playing();
    std::fs::create_dir(ev.path("sheets")).expect("dir");
    ev.file("sheets/libraries.csv", "my,own\nspreadsheet,1\n");
    let msg = ev.refuses(&["library", "sheets", "sheets"]);
    assert!(msg.contains("libraries.csv") && msg.contains("--force"), "{msg}");
    assert_eq!(files(&ev.path("sheets")), BTreeSet::from(["libraries.csv".to_string()]), "nothing written");
    ev.run(&["library", "sheets", "sheets", "--force"]).ok();
    ev.run(&["library", "sheets", "sheets"]).ok(); // its own sheets and CSV: replaced freely
    assert!(files(&ev.path("sheets")).contains("library-1A.html"));
}

#[test]
fn an_interrupted_first_site_does_not_block_the_next() {
    let ev = Event::playing();
    ev.run(&["site", "out"]).ok();
    // As if the first run had died before its marker: pages, the stylesheet, a temporary file.
    std::fs::remove_file(ev.path("out/.mmjudge-site")).expect("rm marker");
    std::fs::remove_file(ev.path("out/index.html")).expect("rm index");
    ev.file("out/.mmjudge-4242-7-index.html.tmp", "<!doctype html><head>half");
    ev.run(&["site", "out"]).ok();
    assert!(files(&ev.path("out")).contains("index.html"));
}

#[cfg(unix)]
#[test]
fn site_deletes_only_regular_files_it_wrote_and_follows_no_link_out() {
    let ev = Event::playing();
    ev.run(&["site", "out"]).ok();
    let outside = ev.file("outside.html", "<p>a page of mine outside the site</p>");
    std::os::unix::fs::symlink(&outside, ev.path("out/old-link.html")).expect("symlink");
    ev.file("out/mine.txt", "keep me");
    // A marker that lists the link, a foreign file and a path out of the folder.
    let marker = ev.path("out/.mmjudge-site");
    let mut text = std::fs::read_to_string(&marker).expect("marker");
    text.push_str("old-link.html\nmine.txt\n../outside.html\n");
    std::fs::write(&marker, text).expect("marker");
    let doc = ev.run(&["--json", "site", "out"]).json();
    assert_eq!(doc["removed"], serde_json::json!([]), "{doc}");
    assert!(ev.path("out/old-link.html").is_symlink() && ev.path("out/mine.txt").exists());
    assert_eq!(bytes(&outside), b"<p>a page of mine outside the site</p>");
    // A page name taken by a link out of the folder: refused, and with --force the link is replaced.
    std::fs::remove_file(ev.path("out/index.html")).expect("rm");
    std::os::unix::fs::symlink(&outside, ev.path("out/index.html")).expect("symlink");
    assert!(ev.refuses(&["site", "out"]).contains("symbolic link"));
    ev.run(&["site", "out", "--force"]).ok();
    assert_eq!(bytes(&outside), b"<p>a page of mine outside the site</p>");
    assert!(!ev.path("out/index.html").is_symlink());
}

#[test]
fn backup_reads_the_same_way_and_reading_it_changes_no_byte() {
    let ev = Event::playing();
    ev.run(&["backup", "copy.db"]).ok();
    let copy = bytes(&ev.path("copy.db"));
    for cmd in [&["standings"][..], &["pairings"], &["event", "show"], &["results"], &["log"]] {
        let mut on_copy = vec!["--db", "copy.db", "--json"];
        on_copy.extend_from_slice(cmd);
        let mut on_event = vec!["--json"];
        on_event.extend_from_slice(cmd);
        assert_eq!(ev.run(&on_copy).json(), ev.run(&on_event).json(), "{cmd:?}");
    }
    ev.run(&["--db", "copy.db", "site", "copy-site"]).ok();
    assert_eq!(bytes(&ev.path("copy.db")), copy, "reading a backup leaves every byte as it was");
    assert!(!ev.path("copy.db-wal").exists() && !ev.path("copy.db-journal").exists());
}

#[test]
fn backup_never_replaces_a_file_and_writes_uri_like_names_literally() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana"]).ok();
    ev.run(&["backup", "copy.db"]).ok();
    for force in [false, true] {
        let mut args = vec!["backup", "copy.db"];
        if force {
            args.push("--force");
        }
        assert!(ev.refuses(&args).contains("already exists"));
    }
    let notes = ev.file("notes.txt", "mine");
    assert!(ev.refuses(&["backup", "notes.txt"]).contains("--force"));
    assert_eq!(bytes(&notes), b"mine");
    std::fs::create_dir(ev.path("copies")).expect("dir");
    let msg = ev.refuses(&["backup", "copies"]);
    assert!(msg.contains("is a folder") && msg.contains("copies/backup.db"), "{msg}");
    let uri = "file:named.db?mode=memory";
    ev.run(&["backup", uri]).ok();
    assert!(ev.path(uri).is_file(), "the file named is written");
    let doc = ev.run(&["--db", uri, "--json", "player", "list"]).json();
    assert_eq!(doc["players"].as_array().map(Vec::len), Some(1));
    assert!(files(ev.dir.path()).iter().all(|f| !f.ends_with(".tmp")), "{:?}", files(ev.dir.path()));
}

#[test]
fn event_new_force_keeps_the_old_event_beside_the_new_one() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo"]).ok();
    let old = dump(&ev.db());
    let doc = ev
        .run_with(&["--json", "event", "new", "Second", "--force"], &[("MMJUDGE_NOW", "2026-06-13T09:00:05Z")])
        .json();
    assert_eq!(doc["kept"], ev.path("event-replaced-20260613-090005.db").display().to_string(), "{doc}");
    let kept = ev.path("event-replaced-20260613-090005.db");
    assert_eq!(dump(&kept), old, "the old event is kept whole");
    assert_eq!(ev.run(&["--json", "event", "show"]).json()["name"], "Second");
    let human = ev.run(&["event", "new", "Third", "--force"]).ok().to_string();
    assert!(human.contains("kept as") && human.contains("event-replaced-"), "{human}");
}

#[test]
fn event_new_replaces_an_empty_file_or_an_unfinished_event_without_force() {
    let ev = Event::empty();
    ev.file("event.db", "");
    ev.run(&["event", "new", "From Empty"]).ok();
    // What an interrupted older `event new` left: the schema, the mark, no settings and no audit entry.
    let version: i64 = {
        let conn = rusqlite::Connection::open(ev.db()).expect("db");
        conn.query_row("PRAGMA user_version", [], |r| r.get(0)).expect("version")
    };
    let half = ev.path("half.db");
    {
        let conn = rusqlite::Connection::open(&half).expect("db");
        let schema: Vec<String> = {
            let src = rusqlite::Connection::open(ev.db()).expect("db");
            let mut stmt = src
                .prepare("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'card_fts_%'")
                .expect("schema");
            stmt.query_map([], |r| r.get(0)).expect("rows").map(|r| r.expect("row")).collect()
        };
        for sql in schema {
            conn.execute_batch(&sql).expect("create");
        }
        conn.pragma_update(None, "user_version", version).expect("version");
        conn.pragma_update(None, "application_id", 0x4d4d_4a47).expect("mark");
    }
    let doc = ev.run(&["--db", "half.db", "--json", "event", "new", "From Half"]).json();
    assert_eq!(doc["kept"], serde_json::Value::Null);
    assert_eq!(ev.run(&["--db", "half.db", "--json", "event", "show"]).json()["name"], "From Half");
    // A killed `event new` leaves only a hidden temporary file, which blocks nothing.
    ev.file(".mmjudge-999-0-fresh.db.tmp", "SQLite format 3\0half");
    ev.run(&["--db", "fresh.db", "event", "new", "Fresh"]).ok();
    // Not an event: refused, unchanged, even with --force.
    let text = ev.file("notes.db", "my notes, not a database, long enough to have a header.........");
    ev.run(&["--db", "notes.db", "event", "new", "X", "--force"]).refused();
    assert_eq!(bytes(&text), b"my notes, not a database, long enough to have a header.........");
}

#[test]
fn a_refused_demo_leaves_no_file() {
    let ev = Event::empty();
    let run = ev.run(&["--db", "missing/folder/demo.db", "demo", "--players", "4", "--rounds", "1"]);
    run.refused();
    assert_eq!(files(ev.dir.path()), BTreeSet::new(), "nothing is left behind");
    ev.run(&["--db", "real.db", "event", "new", "Real Open"]).ok();
    let before = dump(&ev.path("real.db"));
    ev.run(&["--db", "real.db", "demo", "--players", "4", "--rounds", "1"]).refused();
    assert_eq!(dump(&ev.path("real.db")), before);
    let left: BTreeSet<String> =
        files(ev.dir.path()).into_iter().filter(|f| !f.ends_with("-wal") && !f.ends_with("-shm")).collect();
    assert_eq!(left, BTreeSet::from(["real.db".to_string()]), "no demo folder, no demo file");
    // Refused at the very end (its site folder holds a page of mine): everything it made goes.
    std::fs::create_dir_all(ev.path("mine/site")).expect("dir");
    let page = ev.file("mine/site/index.html", "<p>my page</p>");
    ev.run(&["--db", "demo.db", "demo", "--players", "4", "--rounds", "1", "--out", "mine"]).refused();
    assert_eq!(bytes(&page), b"<p>my page</p>");
    assert_eq!(files(&ev.path("mine")), BTreeSet::from(["site".to_string()]));
    assert_eq!(files(&ev.path("mine/site")), BTreeSet::from(["index.html".to_string()]));
    assert!(!ev.path("demo.db").exists());
}

#[test]
fn a_marked_file_with_broken_tables_gets_one_line() {
    let ev = Event::new();
    let broken = ev.path("broken.db");
    {
        let conn = rusqlite::Connection::open(&broken).expect("db");
        conn.execute_batch("CREATE TABLE player (x); CREATE TABLE setting (y);").expect("create");
        conn.pragma_update(None, "application_id", 0x4d4d_4a47).expect("mark");
    }
    let msg = ev.run(&["--db", "broken.db", "standings"]).refused().to_string();
    assert!(msg.contains("mmjudge's mark") && !msg.contains("CREATE"), "{msg}");
    // The current version's number, with core tables missing.
    let version: i64 = {
        let conn = rusqlite::Connection::open(ev.db()).expect("db");
        conn.query_row("PRAGMA user_version", [], |r| r.get(0)).expect("version")
    };
    rusqlite::Connection::open(&broken).expect("db").pragma_update(None, "user_version", version).expect("v");
    let msg = ev.run(&["--db", "broken.db", "event", "show"]).refused().to_string();
    assert!(msg.contains("tables are missing"), "{msg}");
}

/// Makes `path` read-only even for root (`chattr +i`), undone on drop; None where that is not possible.
struct ReadOnly(Vec<PathBuf>);

impl ReadOnly {
    fn make(paths: &[PathBuf]) -> Option<ReadOnly> {
        let mut done = ReadOnly(Vec::new());
        for p in paths {
            let chmod = if p.is_dir() { 0o555 } else { 0o444 };
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(p, std::fs::Permissions::from_mode(chmod)).ok()?;
            }
            let _ = std::process::Command::new("chattr").arg("+i").arg(p).output();
            done.0.push(p.clone());
        }
        // Check that it took: creating a file in the folder must fail.
        let probe = paths.iter().find(|p| p.is_dir())?.join("probe");
        if std::fs::write(&probe, "x").is_ok() {
            let _ = std::fs::remove_file(&probe);
            return None;
        }
        Some(done)
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::process::Command::new("chattr").arg("-i").arg(p).output();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755));
            }
        }
    }
}

#[test]
fn a_read_only_event_in_a_read_only_folder_can_be_read_and_says_so_when_written() {
    let ev = Event::playing();
    let shelf = ev.path("shelf");
    std::fs::create_dir(&shelf).expect("dir");
    let db = shelf.join("event.db");
    std::fs::copy(ev.db(), &db).expect("copy");
    let expected = ev.run(&["--json", "standings"]).json();
    let Some(_guard) = ReadOnly::make(&[db.clone(), shelf.clone()]) else {
        eprintln!("skipped: this system cannot make a folder read-only for this user");
        return;
    };
    let before = bytes(&db);
    let on = |args: &[&str]| {
        let mut all = vec!["--db", "shelf/event.db"];
        all.extend_from_slice(args);
        ev.run(&all)
    };
    assert_eq!(on(&["--json", "standings"]).json(), expected);
    on(&["event", "show"]).ok();
    on(&["site", "elsewhere"]).ok();
    on(&["backup", "copy.db"]).ok();
    let msg = on(&["player", "add", "Late Larry"]).refused().to_string();
    assert!(msg.contains("read-only") && msg.contains("shelf/event.db"), "{msg}");
    assert_eq!(bytes(&db), before);
    assert_eq!(files(&shelf), BTreeSet::from(["event.db".to_string()]));
}

#[test]
fn a_site_written_before_pages_carried_their_mark_is_still_replaced() {
    let ev = Event::playing();
    ev.run(&["site", "out"]).ok();
    for page in ["index.html", "style.css"] {
        let path = ev.path(&format!("out/{page}"));
        let text = std::fs::read_to_string(&path).expect("read");
        let unmarked: Vec<&str> = text.lines().filter(|l| !l.contains("mmjudge site")).collect();
        std::fs::write(&path, unmarked.join("\n")).expect("write");
    }
    // Those pages were there when that site wrote its marker (the marker is written last).
    let marker = std::fs::File::options().append(true).open(ev.path("out/.mmjudge-site")).expect("marker");
    marker.set_modified(std::time::SystemTime::now()).expect("touch the marker");
    ev.run(&["site", "out"]).ok(); // the marker lists them: no --force needed
    assert!(std::fs::read_to_string(ev.path("out/index.html")).expect("read").contains("content=\"mmjudge site\""));
}

#[test]
fn a_file_written_over_a_page_after_the_site_is_not_replaced_without_force() {
    let ev = Event::playing();
    ev.run(&["site", "out"]).ok();
    let page = ev.path("out/index.html");
    std::fs::write(&page, "my own notes\n").expect("write");
    // Later than the site's marker, as it is for anyone editing a page (the file system's clock is coarser than
    // a test: a write within the same tick would carry the marker's own time).
    let marker = std::fs::metadata(ev.path("out/.mmjudge-site")).and_then(|m| m.modified()).expect("marker time");
    let own = std::fs::File::options().append(true).open(&page).expect("open");
    own.set_modified(marker + std::time::Duration::from_secs(1)).expect("set the time");
    let msg = ev.run(&["site", "out"]).refused().to_string();
    assert!(msg.contains("index.html") && msg.contains("--force"), "{msg}");
    assert_eq!(std::fs::read_to_string(&page).expect("read"), "my own notes\n", "left as it was");
    ev.run(&["site", "out", "--force"]).ok();
    assert!(std::fs::read_to_string(&page).expect("read").contains("content=\"mmjudge site\""));
}

#[test]
fn no_output_takes_the_name_of_an_sqlite_companion_file_even_when_it_is_absent() {
    // With no one using the event its `-wal` and `-shm` are gone; a file written under one of those names
    // would be taken by SQLite as part of the event and deleted on the next close (a "backup" that vanishes).
    let ev = Event::playing();
    let event_bytes = bytes(&ev.db());
    for name in ["event.db-wal", "event.db-shm", "event.db-journal"] {
        assert!(!ev.path(name).exists(), "{name} is absent");
        let mut commands: Vec<Vec<&str>> = OUTPUTS.iter().map(|o| with_file(o, name)).collect();
        commands.push(vec!["backup", name]);
        for args in commands {
            // Not `refuses`: its dump opens the event and would leave a `-wal` of its own.
            let run = ev.run(&args);
            let msg = run.refused();
            assert!(msg.contains("event.db") && msg.contains("SQLite"), "{args:?}: {msg}");
            assert!(!ev.path(name).exists(), "{args:?}: nothing written as {name}");
            assert_eq!(bytes(&ev.db()), event_bytes, "{args:?}");
        }
    }
    assert_eq!(bytes(&ev.db()), event_bytes);
}

#[test]
fn a_marked_file_whose_table_lost_its_columns_names_the_fix() {
    let ev = Event::playing();
    ev.sql("PRAGMA foreign_keys = OFF; DROP TABLE player; CREATE TABLE player (x, y)");
    for args in [vec!["standings"], vec!["player", "list"], vec!["player", "add", "Quinn Quill"]] {
        let msg = ev.refuses(&args);
        assert!(msg.contains("not as mmjudge made them") && msg.contains("restore a backup"), "{args:?}: {msg}");
    }
}

#[test]
fn no_folder_output_takes_the_name_of_an_sqlite_companion_file() {
    // A folder named `event.db-wal` stops SQLite from opening the event at all.
    let ev = Event::playing();
    for args in [
        vec!["site", "event.db-wal"],
        vec!["library", "sheets", "event.db-shm"],
        vec!["demo", "--db", "demo.db", "--players", "4", "--rounds", "1", "--out", "event.db-wal"],
    ] {
        ev.sql("PRAGMA journal_mode = DELETE"); // folds in and removes the -wal and -shm
        let event_bytes = bytes(&ev.db());
        let run = ev.run(&args);
        let msg = run.refused();
        assert!(msg.contains("SQLite") && msg.contains("event.db"), "{args:?}: {msg}");
        for name in ["event.db-wal", "event.db-shm", "demo.db"] {
            assert!(!ev.path(name).exists(), "{args:?}: {name} was made");
        }
        assert_eq!(bytes(&ev.db()), event_bytes, "{args:?}");
    }
    ev.run(&["standings"]).ok();
    let msg = ev.run(&["demo", "--db", "demo.db", "--out", "event.db"]).refused().to_string();
    assert!(msg.contains("event.db") && msg.contains("not a folder"), "{msg}");
    assert!(!ev.path("demo.db").exists());
}

#[test]
fn an_event_file_named_like_sqlites_in_memory_database_is_that_file() {
    // SQLite reads the name `:memory:` as a database in memory: the event must still be the file of that name.
    let ev = Event::empty();
    ev.run(&["--db", ":memory:", "event", "new", "Memory Open"]).ok();
    assert!(ev.path(":memory:").is_file());
    let shown = ev.run(&["--db", ":memory:", "event", "show"]).ok().to_string();
    assert!(shown.contains("Memory Open"), "{shown}");
    ev.run(&["--db", ":memory:", "player", "add", "Ana Alves"]).ok();
    let players = ev.run(&["--db", ":memory:", "player", "list"]).ok().to_string();
    assert!(players.contains("Ana Alves"), "{players}");
}

#[test]
fn a_dangling_link_as_the_event_file_is_said_plainly() {
    let ev = Event::empty();
    #[cfg(unix)]
    std::os::unix::fs::symlink("gone/spring.db", ev.path("spring.db")).expect("link");
    for args in [vec!["--db", "spring.db", "event", "new", "Spring"], vec!["--db", "spring.db", "standings"]] {
        let msg = ev.run(&args).refused().to_string();
        assert!(msg.contains("symbolic link") && msg.contains("gone/spring.db"), "{args:?}: {msg}");
    }
}

#[test]
fn a_folder_where_the_site_writes_a_page_names_a_fix_that_works() {
    let ev = Event::playing();
    std::fs::create_dir_all(ev.path("out/index.html")).expect("dir");
    let msg = ev.refuses(&["site", "out", "--force"]);
    assert!(msg.contains("out/index.html") && msg.contains("move or rename"), "{msg}");
    assert!(!msg.contains("page.html"), "{msg}");
}

#[test]
fn an_event_with_players_but_an_emptied_log_is_not_taken_for_an_unfinished_one() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana Alves", "Bo Berg"]).ok();
    ev.sql("DELETE FROM audit");
    let msg = ev.refuses(&["event", "new", "Other"]);
    assert!(msg.contains("--force"), "{msg}");
    let doc = ev.run(&["--json", "event", "new", "Other", "--force"]).json();
    let kept = doc["kept"].as_str().expect("the old event is kept").to_string();
    let players = ev.run(&["--db", &kept, "--json", "player", "list"]).json();
    assert_eq!(players["players"].as_array().map(Vec::len), Some(2), "{players}");
}

#[test]
fn an_output_name_near_the_length_limit_is_written() {
    // 62 four-byte characters: a legal name (253 bytes) whose temporary name must stay legal too.
    let ev = Event::playing();
    let name = format!("{}.html", "😀".repeat(62));
    ev.run(&["pairings", "--html", &name]).ok();
    assert!(ev.path(&name).is_file());
}

#[cfg(target_os = "linux")]
#[test]
fn the_next_site_sweeps_what_a_killed_run_left() {
    let ev = Event::playing();
    ev.run(&["site", "out"]).ok();
    // What a run killed while writing leaves: hidden temporary files of a process that is gone.
    let leftover = ev.path("out/.mmjudge-4194305-7-index.html.tmp");
    std::fs::write(&leftover, "<html>half a page").expect("write");
    ev.run(&["site", "out"]).ok();
    assert!(!leftover.exists(), "the leftover went");
    assert!(std::fs::read_to_string(ev.path("out/index.html")).expect("read").contains("content=\"mmjudge site\""));
}
