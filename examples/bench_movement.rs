//! Speed of `round pair` as a whole command on big events (the targets of the movement issue).
//!
//! ```text
//! cargo build --release && cargo run --release --example bench_movement -- target/release/mmjudge
//! ```
//! Big fields are inserted with SQL (players, libraries, results); every pairing is the real binary.
//! Each figure is the median of several runs of the command (process start, opening the event,
//! pairing, writing the round), taking the round back with `round unpair` between runs, with the
//! command's CPU time (bash `time`) beside it: on a machine shared with other work the wall time
//! waits for the CPU, the CPU time does not.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const RUNS: usize = 7;

fn mmjudge(bin: &Path, db: &Path, args: &[&str]) -> Duration {
    timed(bin, db, args).0
}

/// Runs one command under bash's `time`: (wall, user + system CPU) of the command alone. The CPU
/// figure shows the command's own cost when other work shares the machine.
fn timed(bin: &Path, db: &Path, args: &[&str]) -> (Duration, Duration) {
    let out = Command::new("bash")
        .arg("-c")
        .arg("TIMEFORMAT='%3R %3U %3S'; time \"$0\" \"$@\" >/dev/null 2>/tmp/bench_movement.err")
        .arg(bin)
        .args(args)
        .env("MMJUDGE_DB", db)
        .env("MMJUDGE_JUDGE", "bench")
        .env_remove("MMJUDGE_NOW")
        .output()
        .expect("run bash");
    let err = std::fs::read_to_string("/tmp/bench_movement.err").unwrap_or_default();
    assert!(out.status.success(), "{args:?}: {err}");
    let text = String::from_utf8_lossy(&out.stderr);
    let secs: Vec<f64> = text.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    assert_eq!(secs.len(), 3, "bash time said: {text}");
    (Duration::from_secs_f64(secs[0]), Duration::from_secs_f64(secs[1] + secs[2]))
}

/// A new event with `players` players and `tables` fixed library tables, inserted with SQL.
fn event(bin: &Path, dir: &Path, name: &str, players: usize, tables: u32, settings: &[(&str, &str)]) -> PathBuf {
    let db = dir.join(format!("{name}.db"));
    mmjudge(bin, &db, &["event", "new", name, "--seed", "7"]);
    for (k, v) in settings {
        mmjudge(bin, &db, &["event", "set", k, v]);
    }
    let mut conn = rusqlite::Connection::open(&db).expect("open");
    let tx = conn.transaction().expect("tx");
    {
        let mut add = tx.prepare("INSERT INTO player (name, name_key) VALUES (?1, ?2)").expect("sql");
        for i in 1..=players {
            let name = format!("Player {i:05}");
            add.execute([&name, &name.to_lowercase()]).expect("player");
        }
        let mut lib = tx.prepare("INSERT INTO library (table_no, seat) VALUES (?1, ?2)").expect("sql");
        for t in 1..=tables {
            lib.execute(rusqlite::params![t, "A"]).expect("library");
            lib.execute(rusqlite::params![t, "B"]).expect("library");
        }
    }
    tx.commit().expect("commit");
    db
}

/// Seat A wins at tables whose number, mixed with the round, is odd: varied scores.
fn finish(db: &Path, round: u32) {
    let conn = rusqlite::Connection::open(db).expect("open");
    conn.execute(
        "UPDATE match SET result = CASE ((table_no * 7 + ?1 * 3) / 2) % 2 WHEN 0 THEN 'A' ELSE 'B' END, \
         reason = 'life', result_at = '2026-05-01T12:00:00Z' WHERE round = ?1 AND result IS NULL",
        [round],
    )
    .expect("results");
}

/// One figure: median and fastest wall time, and the median CPU time of the command.
struct Figure {
    median: Duration,
    fastest: Duration,
    cpu: Duration,
}

/// Times `round pair` for the next round, taking it back between runs (the last run stays).
fn time_pair(bin: &Path, db: &Path, args: &[&str]) -> Figure {
    let mut runs: Vec<(Duration, Duration)> = (0..RUNS)
        .map(|i| {
            let t = timed(bin, db, args);
            if i + 1 < RUNS {
                mmjudge(bin, db, &["round", "unpair"]);
            }
            t
        })
        .collect();
    runs.sort();
    let mut cpu: Vec<Duration> = runs.iter().map(|r| r.1).collect();
    cpu.sort();
    Figure { median: runs[RUNS / 2].0, fastest: runs[0].0, cpu: cpu[RUNS / 2] }
}

fn report(what: &str, f: Figure, target_ms: u64) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let ok = if ms(f.median) <= target_ms as f64 { "yes" } else { "NO" };
    println!(
        "{what:<58} median {:>7.1} ms, fastest {:>7.1} ms, cpu {:>7.1} ms (target {target_ms} ms) {ok}",
        ms(f.median),
        ms(f.fastest),
        ms(f.cpu)
    );
}

fn fixed(bin: &Path, dir: &Path) {
    let db = event(bin, dir, "fixed4096", 4096, 2048, &[("rounds", "10")]);
    report("fixed: round 1 of 4,096 players (square, 2,048 tables)", time_pair(bin, &db, &["round", "pair"]), 50);
    for round in 1..=4 {
        finish(&db, round);
        mmjudge(bin, &db, &["round", "pair"]);
    }
    finish(&db, 5);
    report("fixed: round 6 of 4,096 players (plan + history check)", time_pair(bin, &db, &["round", "pair"]), 50);
    let db = event(bin, dir, "howell4095", 4095, 2047, &[("rounds", "10")]);
    report("fixed: round 1 of 4,095 players (howell)", time_pair(bin, &db, &["round", "pair"]), 50);
}

fn swiss(bin: &Path, dir: &Path, players: usize, target_ms: u64) {
    let tables = (players / 2) as u32;
    let db = event(bin, dir, &format!("swiss{players}"), players, tables, &[("rounds", "9"), ("movement", "swiss")]);
    let mut worst = (Duration::ZERO, Duration::ZERO);
    for round in 1..=8 {
        worst = worst.max(timed(bin, &db, &["round", "pair"]));
        finish(&db, round);
    }
    let what = format!("swiss: round 9 of {players} players, {tables} tables (8 rounds before)");
    report(&what, time_pair(bin, &db, &["round", "pair"]), target_ms);
    let slowest = Figure { median: worst.0, fastest: worst.0, cpu: worst.1 };
    report(&format!("swiss: slowest of rounds 1-8 of {players} (one run each)"), slowest, target_ms);
}

fn main() {
    let bin = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "target/release/mmjudge".into()));
    assert!(bin.exists(), "{} not found: cargo build --release first, or pass the binary's path", bin.display());
    let dir = tempfile::tempdir().expect("temp dir");
    let only = std::env::args().nth(2).unwrap_or_default();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average before: {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    if only.is_empty() || only == "fixed" {
        fixed(&bin, dir.path());
    }
    if only.is_empty() || only == "swiss" {
        swiss(&bin, dir.path(), 1024, 500);
        swiss(&bin, dir.path(), 4096, 5000);
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average after: {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
}
