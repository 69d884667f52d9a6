//! Measures the decision clock with the real binary (run after `cargo build --release`):
//!
//! ```sh
//! cargo run --release --example bench_clock -- target/release/mmjudge
//! ```
//!
//! 1. Accuracy: 20 decisions timed with `clock 1 --start` / `--stop` against the wall clock. Each command's instant
//!    lies between the moment it was launched and the moment it exited; the saved duration is compared with the
//!    difference of those midpoints, and the window's half-width is the uncertainty.
//! 2. Cost of the live screen (`clock 1` in a tmux pane, if tmux is installed): CPU time from /proc/PID/stat over
//!    10 s waiting with no decision, then 10 s with a decision running; frames per second if strace is installed.
//! 3. Speed of `time`, `decisions` and `clock --html` on a 64-player event (32 tables, 640 decisions).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> Res<()> {
    let bin = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "target/release/mmjudge".into()));
    let bin = std::fs::canonicalize(&bin)
        .map_err(|e| format!("{}: {e} (build with cargo build --release)", bin.display()))?;
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("bench.db");
    let run = |args: &[&str]| -> Res<String> {
        let out = Command::new(&bin).env("MMJUDGE_DB", &db).env("MMJUDGE_JUDGE", "bench").args(args).output()?;
        if !out.status.success() {
            return Err(format!("mmjudge {args:?}: {}", String::from_utf8_lossy(&out.stderr)).into());
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    run(&["event", "new", "Bench Open", "--seed", "1"])?;
    let players: Vec<String> = (1..=64).map(|i| format!("Player {i:02}")).collect();
    let mut args = vec!["player", "add"];
    args.extend(players.iter().map(String::as_str));
    run(&args)?;
    seat(&db)?;
    let start = chrono::Utc::now() - chrono::Duration::seconds(120);
    run(&["round", "start", "--at", &start.to_rfc3339()])?;
    accuracy(&run)?;
    screen(&bin, &db)?;
    speed(&run, &db)?;
    Ok(())
}

/// Round 1: 32 tables, player 2t-1 against player 2t.
fn seat(db: &Path) -> Res<()> {
    let conn = rusqlite::Connection::open(db)?;
    conn.execute("INSERT INTO round (number, movement, paired_at) VALUES (1, 'mitchell', '2026-01-01T00:00:00Z')", [])?;
    for t in 1..=32i64 {
        conn.execute(
            "INSERT INTO match (round, table_no, a_player, b_player) VALUES (1, ?1, ?2, ?3)",
            [t, 2 * t - 1, 2 * t],
        )?;
    }
    Ok(())
}

fn accuracy(run: &dyn Fn(&[&str]) -> Res<String>) -> Res<()> {
    let (mut worst, mut worst_window, mut worst_launch, mut sum_launch) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for i in 0..20u64 {
        let a = Instant::now();
        run(&["clock", "1", "--start", "Player 01"])?;
        let b = Instant::now();
        std::thread::sleep(Duration::from_millis(150 + 70 * i));
        let c = Instant::now();
        let out = run(&["--json", "clock", "1", "--stop"])?;
        let d = Instant::now();
        let saved = serde_json::from_str::<serde_json::Value>(&out)?["duration_ms"].as_f64().unwrap_or(f64::NAN);
        let mid = |x: Instant, y: Instant| x + (y - x) / 2;
        let wall = (mid(c, d) - mid(a, b)).as_secs_f64() * 1000.0;
        let window = ((b - a) + (d - c)).as_secs_f64() * 1000.0 / 2.0;
        worst = worst.max((saved - wall).abs());
        let launch = (c - a).as_secs_f64() * 1000.0;
        worst_launch = worst_launch.max((saved - launch).abs());
        sum_launch += saved - launch;
        worst_window = worst_window.max(window);
    }
    println!(
        "accuracy: 20 decisions; saved vs launch-to-launch wall clock: largest |difference| {worst_launch:.1} ms, mean {:.1} ms",
        sum_launch / 20.0
    );
    println!(
        "accuracy: saved vs midpoints of each command's run: largest |difference| {worst:.1} ms (runs up to ±{worst_window:.1} ms)"
    );
    Ok(())
}

fn cpu_ticks(pid: &str) -> Res<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    Ok(f.get(11).and_then(|u| u.parse::<f64>().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0))
}

fn cpu_percent(pid: &str, secs: u64) -> Res<f64> {
    let ticks_per_sec = 100.0; // CLK_TCK on Linux
    let (t0, c0) = (Instant::now(), cpu_ticks(pid)?);
    std::thread::sleep(Duration::from_secs(secs));
    let (t1, c1) = (Instant::now(), cpu_ticks(pid)?);
    Ok(100.0 * (c1 - c0) / ticks_per_sec / (t1 - t0).as_secs_f64())
}

fn frames_per_sec(pid: &str) -> Option<f64> {
    let log = std::env::temp_dir().join(format!("bench-clock-strace-{pid}.txt"));
    let out = Command::new("timeout")
        .args(["5", "strace", "-p", pid, "-e", "trace=ioctl,write", "-o"])
        .arg(&log)
        .output()
        .ok()?;
    let _ = out;
    let text = std::fs::read_to_string(&log).ok()?;
    let _ = std::fs::remove_file(&log);
    let frames = text.lines().filter(|l| l.contains("TIOCGWINSZ")).count();
    let paints = text.lines().filter(|l| l.starts_with("write(1")).count();
    println!("live screen: {frames} frames computed and {paints} painted in 5 s (strace attached)");
    (frames > 0).then(|| frames as f64 / 5.0)
}

fn screen(bin: &Path, db: &Path) -> Res<()> {
    if !Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success()) {
        println!("live screen: tmux not installed, not measured");
        return Ok(());
    }
    let sock = format!("bench-clock-{}", std::process::id());
    let tmux = |args: &[&str]| Command::new("tmux").arg("-L").arg(&sock).args(args).output();
    let line = format!("env MMJUDGE_DB='{}' MMJUDGE_JUDGE=bench '{}' clock 2", db.display(), bin.display());
    tmux(&["new-session", "-d", "-s", "b", "-x", "100", "-y", "30", &line])?;
    std::thread::sleep(Duration::from_secs(1));
    let pid = String::from_utf8(tmux(&["list-panes", "-t", "b", "-F", "#{pane_pid}"])?.stdout)?.trim().to_string();
    let idle = cpu_percent(&pid, 10)?;
    tmux(&["send-keys", "-t", "b", "Space"])?;
    let deciding = cpu_percent(&pid, 10)?;
    println!("live screen: {idle:.2}% of one core waiting, {deciding:.2}% with a decision running");
    if let Some(fps) = frames_per_sec(&pid) {
        println!("live screen: {fps:.1} frames a second");
    }
    tmux(&["send-keys", "-t", "b", "q"])?;
    std::thread::sleep(Duration::from_millis(300));
    tmux(&["kill-server"])?;
    Ok(())
}

fn speed(run: &dyn Fn(&[&str]) -> Res<String>, db: &Path) -> Res<()> {
    let conn = rusqlite::Connection::open(db)?;
    conn.execute_batch(
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 639)
         INSERT INTO decision (match_id, player_id, started_at, ended_at, duration_ms, limit_ms, overrun_ms)
         SELECT 1 + i % 32, 1 + i % 64, '2026-01-01T10:00:00.000Z', '2026-01-01T10:00:30.000Z', 20000 + i * 37 % 40000, 45000,
                max(0, 20000 + i * 37 % 40000 - 45000) FROM n;",
    )?;
    let html = std::env::temp_dir().join(format!("bench-clock-{}.html", std::process::id()));
    let html_text = html.display().to_string();
    for args in [&["time"][..], &["--json", "time"], &["decisions"], &["clock", "--html", &html_text]] {
        let t = Instant::now();
        for _ in 0..5 {
            run(args)?;
        }
        println!("{:<24} {:>6.1} ms (mean of 5)", args.join(" "), t.elapsed().as_secs_f64() * 1000.0 / 5.0);
    }
    let _ = std::fs::remove_file(html);
    Ok(())
}
