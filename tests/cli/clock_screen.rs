//! The live clock screen, used as a person would: the real binary in a tmux pane, keys sent, the pane read,
//! and the decisions it saved read back. Skipped (with a note) when tmux is not installed.

use crate::harness::Event;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

static SESSIONS: AtomicUsize = AtomicUsize::new(0);

/// A tmux server of our own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn available() -> bool {
        Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success())
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("run tmux")
    }

    /// Opens `mmjudge ARGS` on the event in a 100x30 pane; its stderr goes to `screen-err.txt`.
    fn open(ev: &Event, args: &str) -> Tmux {
        let n = SESSIONS.fetch_add(1, Ordering::SeqCst);
        let t = Tmux { socket: format!("mmjudge-test-{}-{n}", std::process::id()) };
        let quote = |p: &std::path::Path| format!("'{}'", p.display());
        let line = format!(
            "env MMJUDGE_DB={} MMJUDGE_JUDGE='Test Judge' NO_COLOR=1 {} {args} 2>{}",
            quote(&ev.db()),
            quote(std::path::Path::new(env!("CARGO_BIN_EXE_mmjudge"))),
            quote(&ev.path("screen-err.txt"))
        );
        let out = t.tmux(&["new-session", "-d", "-s", "t", "-x", "100", "-y", "30", &line]);
        assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));
        t
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    fn pane(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }

    /// Waits (up to 10 s) until the pane shows `text`, and returns the pane.
    #[track_caller]
    fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let pane = self.pane();
            if pane.contains(text) {
                return pane;
            }
            assert!(Instant::now() < deadline, "the pane never showed {text:?}:\n{pane}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits (up to 10 s) until the program has left (the session closes with it).
    #[track_caller]
    fn wait_exit(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.tmux(&["has-session", "-t", "t"]).status.success() {
            assert!(Instant::now() < deadline, "the clock screen did not quit:\n{}", self.pane());
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

fn started_a_minute_ago() -> Event {
    let ev = Event::new();
    ev.seat_round_for_clock(1, &[(1, "Ana", "Bo")]);
    let start = chrono::Utc::now() - chrono::Duration::seconds(61);
    ev.run(&["round", "start", "--at", &start.to_rfc3339()]).ok();
    ev
}

fn decisions(ev: &Event) -> serde_json::Value {
    ev.run(&["--json", "decisions"]).json()
}

#[test]
fn live_screen_times_saves_and_survives_a_crash() {
    if !Tmux::available() {
        eprintln!("note: tmux is not on PATH; skipping the live clock screen test");
        return;
    }
    let ev = started_a_minute_ago();
    let t = Tmux::open(&ev, "clock 1");
    let pane = t.wait_for("Ana  (to act)");
    for want in ["Table 1", "Round time left  48:", "Bo", "Decision limit now: 45 s", "No decision running"] {
        assert!(pane.contains(want), "missing {want:?} in\n{pane}");
    }
    // Ana decides for about 1.5 s.
    t.keys(&["Space"]);
    let began = Instant::now();
    t.wait_for("Ana deciding:");
    std::thread::sleep(Duration::from_millis(1500));
    t.keys(&["Space"]);
    let took = began.elapsed();
    t.wait_for("Saved Ana:");
    // Saved at once, while the screen is still open.
    let doc = decisions(&ev);
    assert_eq!(doc["total"]["count"], 1, "{doc}");
    let ms = doc["players"][0]["longest_ms"].as_i64().unwrap_or(0);
    // The screen reads each key when the terminal hands it over: on a busy machine (the other tests run
    // beside this one) start and stop can each come a few hundred milliseconds late.
    assert!((ms - took.as_millis() as i64).abs() < 700, "saved {ms} ms for a decision of {took:?}");
    // Tab passes to Bo; s logs a stall on him; a decision of his is saved when q quits.
    t.keys(&["Tab"]);
    t.wait_for("> Bo  (to act)");
    t.keys(&["s"]);
    t.wait_for("Stall logged for Bo.");
    t.keys(&["Space"]);
    t.wait_for("Bo deciding:");
    t.keys(&["q"]);
    t.wait_exit();
    let doc = decisions(&ev);
    assert_eq!(doc["total"]["count"], 2, "{doc}");
    let bo = doc["players"].as_array().into_iter().flatten().find(|p| p["player"] == "Bo").cloned();
    assert_eq!(bo.as_ref().map(|p| (p["count"].clone(), p["stalls"].clone())), Some((1.into(), 1.into())), "{doc}");
    let err = std::fs::read_to_string(ev.path("screen-err.txt")).unwrap_or_default();
    assert!(err.trim().is_empty(), "stderr: {err}");

    // A crash (the terminal goes away) keeps the saved decisions; the one in progress stays running in the
    // event, where the screen opened again picks it up (or `clock 1 --stop` / `--cancel` ends it).
    let t = Tmux::open(&ev, "clock 1");
    t.wait_for("Ana  (to act)");
    t.keys(&["Space"]);
    t.wait_for("Ana deciding:");
    drop(t);
    let doc = decisions(&ev);
    assert_eq!((doc["total"]["count"].as_u64(), doc["running"].as_u64()), (Some(2), Some(1)), "{doc}");
    let t = Tmux::open(&ev, "clock 1");
    t.wait_for("Ana deciding:");
    t.keys(&["q"]);
    t.wait_exit();
    let doc = decisions(&ev);
    assert_eq!((doc["total"]["count"].as_u64(), doc["running"].as_u64()), (Some(3), Some(0)), "{doc}");
    let log = ev.run(&["log"]).ok().to_string();
    assert!(log.contains("Ana decided in") && log.contains("stall logged for Bo"), "{log}");
}

#[test]
fn live_screen_follows_decisions_started_and_stopped_at_another_terminal() {
    if !Tmux::available() {
        eprintln!("note: tmux is not on PATH; skipping the live clock screen test");
        return;
    }
    let ev = started_a_minute_ago();
    let t = Tmux::open(&ev, "clock 1");
    t.wait_for("Ana  (to act)");
    // Another terminal starts Bo's decision: the screen shows it within a second.
    ev.run(&["clock", "1", "--start", "bo"]).ok();
    let shown = Instant::now();
    t.wait_for("Bo deciding:");
    assert!(shown.elapsed() < Duration::from_millis(2500), "took {:?}", shown.elapsed());
    t.wait_for("started at another terminal");
    // ... and stops it: the screen drops it within a second.
    ev.run(&["clock", "1", "--stop"]).ok();
    let dropped = Instant::now();
    t.wait_for("stopped or cancelled at another terminal");
    assert!(dropped.elapsed() < Duration::from_millis(2500), "took {:?}", dropped.elapsed());
    // The screen's own decision is in the event at once: a second terminal cannot time the table meanwhile.
    t.keys(&["Space"]);
    t.wait_for("Bo deciding:");
    let msg = ev.refuses(&["clock", "1", "--start", "ana"]);
    assert!(msg.contains("Bo is already deciding at table 1"), "{msg}");
    t.keys(&["Space"]);
    t.wait_for("Saved Bo:");
    t.keys(&["q"]);
    t.wait_exit();
    let doc = decisions(&ev);
    assert_eq!((doc["total"]["count"].as_u64(), doc["running"].as_u64()), (Some(2), Some(0)), "{doc}");
}
