//! `mmjudge open`: an event served and shown in the browser. The event named, or chosen among those of the
//! documents folder (HOME pointed at a temporary folder); `$BROWSER` called with the judges' address; the
//! window's words (how to stop, the address for phones); `--no-browser`.

use crate::harness::Event;
use crate::serve::{Server, page_text};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `mmjudge open ARGS --bind 127.0.0.1:0` in `dir` with `env` (MMJUDGE_DB unset: `open` finds its event itself),
/// `typed` on its standard input; the server and what it printed up to its last line of words.
fn open(dir: &Path, args: &[&str], env: &[(&str, &str)], typed: &str) -> (Server, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("mmjudge"))
        .current_dir(dir)
        .env_remove("MMJUDGE_DB")
        .env_remove("MMJUDGE_NOW")
        .env_remove("BROWSER")
        .env("MMJUDGE_JUDGE", "Test Judge")
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .arg("open")
        .args(args)
        .args(["--bind", "127.0.0.1:0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mmjudge open");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(typed.as_bytes()).expect("type");
    drop(stdin);
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let (mut printed, mut addr) = (String::new(), None);
    for line in lines.by_ref().take(60) {
        let line = line.expect("read the window");
        printed.push_str(&line);
        printed.push('\n');
        if let Some(rest) = line.strip_prefix("On this computer: http://") {
            addr = rest.split('/').next().map(str::to_string);
        }
        if line.starts_with("To stop mmjudge") {
            break;
        }
    }
    std::thread::spawn(move || for _ in lines {});
    let addr = addr.unwrap_or_else(|| panic!("no address in the window: {printed}"));
    (Server::attach(child, addr), printed)
}

/// A fake browser: a script writing its argument into `opened` (whole: written beside it, then renamed, so a test
/// that sees the file never reads it half written).
fn fake_browser(ev: &Event, opened: &Path) -> String {
    let o = opened.display();
    let script = ev.file("browser.sh", &format!("#!/bin/sh\nprintf '%s' \"$1\" > '{o}.part' && mv '{o}.part' '{o}'\n"));
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
    script.display().to_string()
}

#[test]
fn open_no_browser_serves_the_event_named_and_says_how_to_stop_and_where_phones_go() {
    let ev = Event::new();
    let opened = ev.path("opened.txt");
    let browser = fake_browser(&ev, &opened);
    let file = ev.db().display().to_string();
    let (server, printed) = open(ev.dir.path(), &[&file, "--no-browser"], &[("BROWSER", &browser)], "");
    let addr = &server.addr;
    assert!(addr.starts_with("127.0.0.1:") && !addr.ends_with(":0"), "{addr}");
    assert!(printed.starts_with(&format!("mmjudge is running the event Test Open ({file}).\n")), "{printed}");
    assert!(printed.contains(&format!("On this computer: http://{addr}/judge\n")), "{printed}");
    assert!(printed.contains(&format!("Phones on the same Wi-Fi: http://{addr} (or scan this code)")), "{printed}");
    assert!(printed.contains("To stop mmjudge, close this window (or press Ctrl-C in it)."), "{printed}");
    let home = server.get("/");
    assert_eq!(home.status, 200, "{}", home.body);
    assert!(page_text(&home.body).contains("Test Open"), "{}", home.body);
    assert_eq!(server.get("/login").status, 200);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!opened.exists(), "--no-browser opened a browser");
}

#[test]
fn open_calls_the_browser_named_in_browser_with_the_judges_address() {
    let ev = Event::new();
    let opened = ev.path("opened.txt");
    let browser = fake_browser(&ev, &opened);
    let file = ev.db().display().to_string();
    let (server, printed) =
        open(ev.dir.path(), &[&file], &[("BROWSER", &format!("no-such-browser-here:{browser}"))], "");
    let here = format!("http://{}/judge", server.addr);
    assert!(printed.contains(&format!("On this computer: {here} (opened in your browser)\n")), "{printed}");
    let end = Instant::now() + Duration::from_secs(10);
    while !opened.exists() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(std::fs::read_to_string(&opened).expect("the browser was called"), here);
    assert_eq!(server.get("/judge").status / 100, 3, "the judges' page asks for a login first");
}

#[test]
fn a_missing_event_file_is_refused_before_anything_listens() {
    let ev = Event::empty();
    let run = ev.run(&["open", "nothing.db", "--no-browser", "--bind", "127.0.0.1:0"]);
    assert!(run.refused().contains("no event here yet"), "{}", run.stderr);
    assert!(!ev.path("nothing.db").exists());
}

/// HOME (and nothing else) set to a temporary folder, as a judge's account: the documents folder is its
/// `Documents` (no XDG user directories configured).
fn home_env(home: &Path) -> Vec<(&'static str, String)> {
    let config = home.join(".config").display().to_string();
    vec![("HOME", home.display().to_string()), ("XDG_CONFIG_HOME", config)]
}

#[test]
fn by_default_open_offers_the_events_of_the_documents_folder_most_recent_first_and_serves_the_one_typed() {
    let ev = Event::empty();
    let home = ev.path("home");
    let folder = home.join("Documents").join("mmjudge");
    std::fs::create_dir_all(&folder).expect("the folder");
    for (file, name) in [("friday.db", "Friday Open"), ("club.db", "Club Night")] {
        ev.run(&["--db", &folder.join(file).display().to_string(), "event", "new", name]).ok();
    }
    // Club Night was changed last: it comes first.
    let long_ago = std::time::SystemTime::now() - Duration::from_secs(86_400);
    std::fs::File::options()
        .write(true)
        .open(folder.join("friday.db"))
        .expect("open")
        .set_modified(long_ago)
        .expect("age");
    let env = home_env(&home);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (server, printed) = open(ev.dir.path(), &["--no-browser"], &env, "4\n2\n");
    let listed = format!(
        "Your events in {}:\n  1. club.db (Club Night: not paired yet, 0 players)\n  2. friday.db (Friday Open: not paired yet, \
         0 players)\n  3. a new event\n",
        folder.display()
    );
    assert!(printed.starts_with(&listed), "{printed}");
    assert!(printed.contains("Type a number from 1 to 3."), "{printed}");
    assert!(printed.contains(&format!("the event Friday Open ({})", folder.join("friday.db").display())), "{printed}");
    assert!(page_text(&server.get("/").body).contains("Friday Open"));
    drop(server);
    // Nobody typing (the end of the input): the first, the most recent.
    let (server, printed) = open(ev.dir.path(), &["--no-browser"], &env, "");
    assert!(printed.contains("the event Club Night"), "{printed}");
    assert!(page_text(&server.get("/").body).contains("Club Night"));
}

#[test]
fn the_documents_folder_is_the_one_the_xdg_user_directories_name() {
    let ev = Event::empty();
    let home = ev.path("home");
    std::fs::create_dir_all(home.join(".config")).expect("config");
    std::fs::write(home.join(".config/user-dirs.dirs"), "XDG_DOCUMENTS_DIR=\"$HOME/Papers\"\n").expect("user dirs");
    let folder = home.join("Papers").join("mmjudge");
    std::fs::create_dir_all(&folder).expect("the folder");
    ev.run(&["--db", &folder.join("club.db").display().to_string(), "event", "new", "Club Night"]).ok();
    let env = home_env(&home);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (server, printed) = open(ev.dir.path(), &["--no-browser"], &env, "\n");
    assert!(printed.starts_with(&format!("Your events in {}:\n", folder.display())), "{printed}");
    assert!(page_text(&server.get("/").body).contains("Club Night"));
}

/// The first run makes `Documents/mmjudge` and goes to the new event's one place (`commands/open.rs`,
/// `new_event`): served as `serve --new` is, the window shows the one-time set-up link, whose page answers, and
/// nothing is written until the set-up creates the event.
#[test]
fn the_first_run_makes_the_documents_folder_and_offers_the_set_up_link() {
    let ev = Event::empty();
    let home = ev.path("home");
    std::fs::create_dir_all(&home).expect("home");
    let env: Vec<(&str, String)> = home_env(&home);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (server, printed) = open(ev.dir.path(), &["--no-browser"], &env, "");
    assert!(printed.contains("set up: open this link once"), "{printed}");
    assert!(printed.contains("/setup#token="), "{printed}");
    assert!(printed.contains("set up (scan with the head judge's phone"), "the set-up link's own QR code: {printed}");
    assert!(printed.contains("On this computer: http://"), "{printed}");
    assert!(printed.contains("mmjudge is running a new event ("), "{printed}");
    let folder = home.join("Documents").join("mmjudge");
    assert!(folder.is_dir(), "the folder is made");
    assert_eq!(server.get("/setup").status, 200);
    assert_eq!(server.get("/").status, 503, "nothing but the set-up before the event exists");
}
