//! Issue 7: a saved decision within 50 ms of the wall clock; the live screen at least 10 frames a second and
//! under 2% of one core while waiting (when tmux, and for frames strace, are installed); `time` fast.

use super::field::{self, Plan, name};
use crate::{Figure, mmjudge, must, time_command};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// 64 players at 32 tables in round 1, started two minutes ago.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let plan = Plan { name: "clock", players: 64, rounds: 1, playing: 1, libraries: false, settings: &[] };
    let (db, games) = field::build(dir, &plan, |_, _, _| {});
    let start = chrono::Utc::now() - chrono::Duration::seconds(120);
    must(&db, &["round", "start", "--at", &start.to_rfc3339()]);
    let first = &games[0];
    accuracy(&db, &first.table.to_string(), &name(first.a), out);
    screen(&db, &games[1].table.to_string(), out);
    field::decisions(&db, 640, games.len() as i64, 64);
    let html = dir.join("clock.html").to_string_lossy().into_owned();
    let fast = Duration::from_millis(30);
    for (what, args) in [
        ("time", &["time"][..]),
        ("time --json", &["--json", "time"]),
        ("decisions (640 decisions)", &["decisions"]),
        ("clock --html FILE", &["clock", "--html", &html]),
    ] {
        out.push(Figure::time(what, time_command(&db, args, 9), fast));
    }
}

/// 10 decisions timed with `clock T --start` / `--stop`: each command's instant lies between its launch and its
/// exit, so the saved duration is compared with the time between the midpoints; the largest error counts.
fn accuracy(db: &Path, table: &str, player: &str, out: &mut Vec<Figure>) {
    let mut worst = Duration::ZERO;
    for i in 0..10u64 {
        let a = Instant::now();
        must(db, &["clock", table, "--start", player]);
        let b = Instant::now();
        std::thread::sleep(Duration::from_millis(100 + 60 * i));
        let c = Instant::now();
        let said = must(db, &["--json", "clock", table, "--stop"]);
        let d = Instant::now();
        let doc: serde_json::Value = serde_json::from_str(&said).expect("clock --stop --json");
        let saved = Duration::from_millis(doc["duration_ms"].as_u64().expect("duration_ms"));
        let wall = (c + (d - c) / 2) - (a + (b - a) / 2);
        worst = worst.max(saved.abs_diff(wall));
    }
    out.push(Figure::time("clock --start/--stop: largest |saved - wall| of 10", worst, Duration::from_millis(50)));
}

/// The live screen in a detached tmux pane: its CPU share waiting, and its frames a second (strace counts the
/// terminal-size queries, one a frame).
fn screen(db: &Path, table: &str, out: &mut Vec<Figure>) {
    if !Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success()) {
        eprintln!("bench: tmux not installed, the live screen is not measured");
        return;
    }
    let sock = format!("bench-clock-{}", std::process::id());
    let tmux = |args: &[&str]| Command::new("tmux").arg("-L").arg(&sock).args(args).output().expect("tmux");
    let program = mmjudge(db).get_program().to_string_lossy().into_owned();
    let line = format!("env MMJUDGE_DB='{}' MMJUDGE_JUDGE=bench '{program}' clock {table}", db.display());
    tmux(&["new-session", "-d", "-s", "b", "-x", "100", "-y", "30", &line]);
    std::thread::sleep(Duration::from_secs(1));
    let pid = String::from_utf8_lossy(&tmux(&["list-panes", "-t", "b", "-F", "#{pane_pid}"]).stdout).trim().to_string();
    let idle = cpu_percent(&pid, 5);
    out.push(Figure {
        what: "clock T (live screen): CPU waiting".into(),
        value: idle,
        target: 2.0,
        unit: "%",
        at_least: false,
    });
    if let Some(fps) = frames_per_sec(&pid) {
        out.push(Figure {
            what: "clock T (live screen): frames a second".into(),
            value: fps,
            target: 10.0,
            unit: "/s",
            at_least: true,
        });
    }
    tmux(&["send-keys", "-t", "b", "q"]);
    std::thread::sleep(Duration::from_millis(300));
    tmux(&["kill-server"]);
}

/// User plus system CPU ticks of a process, from /proc/PID/stat.
fn cpu_ticks(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    [11, 12].iter().filter_map(|&i| f.get(i)?.parse::<f64>().ok()).sum()
}

/// The share of one core a process used over `secs` seconds (CLK_TCK is 100 on Linux).
fn cpu_percent(pid: &str, secs: u64) -> f64 {
    let (t0, c0) = (Instant::now(), cpu_ticks(pid));
    std::thread::sleep(Duration::from_secs(secs));
    100.0 * (cpu_ticks(pid) - c0) / 100.0 / t0.elapsed().as_secs_f64()
}

/// Frames a second over 3 s under strace, if strace is installed and allowed to attach.
fn frames_per_sec(pid: &str) -> Option<f64> {
    let log = std::env::temp_dir().join(format!("bench-clock-strace-{pid}.txt"));
    let status =
        Command::new("timeout").args(["3", "strace", "-p", pid, "-e", "trace=ioctl", "-o"]).arg(&log).output().ok()?;
    let _ = status;
    let text = std::fs::read_to_string(&log).ok()?;
    let _ = std::fs::remove_file(&log);
    let frames = text.lines().filter(|l| l.contains("TIOCGWINSZ")).count();
    (frames > 0).then(|| frames as f64 / 3.0)
}
