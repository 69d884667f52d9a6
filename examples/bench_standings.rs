//! Bench: `standings`, the duplicate reports and `site` as whole commands on 4,096 players after 12 rounds.
//!
//! ```sh
//! cargo build --release && cargo run --release --example bench_standings -- target/release/mmjudge
//! ```
//! The players are imported with the real binary; the 12 Swiss-like rounds (24,576 matches with fixed
//! libraries, results, a few drops and disqualifications) are inserted with rusqlite, since going
//! through 24,576 commands would only time the setup. Prints the median of several runs of each command.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const PLAYERS: usize = 4096;
const ROUNDS: u32 = 12;

fn main() {
    let bin = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "target/release/mmjudge".into()));
    assert!(bin.exists(), "no binary at {}: cargo build --release first", bin.display());
    // BENCH_DIR keeps the event and its site (to look at or profile); by default a temp folder.
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = std::env::var_os("BENCH_DIR").map_or_else(|| temp.path().to_path_buf(), PathBuf::from);
    std::fs::create_dir_all(&dir).expect("bench folder");
    let db = dir.join("bench.db");
    let start = Instant::now();
    build_event(&bin, &db, &dir);
    eprintln!("event built in {:.1} s", start.elapsed().as_secs_f64());
    let site = dir.join("site");
    let site_arg = site.to_string_lossy().to_string();
    let figures = [
        ("standings", vec!["standings"], 9, 200),
        ("standings --json", vec!["--json", "standings"], 9, 200),
        ("standings --round 6", vec!["standings", "--round", "6"], 9, 200),
        ("report libraries", vec!["report", "libraries"], 5, 0),
        ("report players", vec!["report", "players"], 5, 0),
        ("site DIR (12 rounds, every page)", vec!["site", site_arg.as_str()], 3, 3000),
    ];
    println!("{PLAYERS} players, {ROUNDS} rounds, {} matches", PLAYERS / 2 * ROUNDS as usize);
    println!("{:<36} {:>10} {:>10}", "command", "median", "target");
    for (what, args, runs, target) in figures {
        let median = time(&bin, &db, &args, runs);
        let target = if target == 0 { "-".to_string() } else { format!("{target} ms") };
        println!("{what:<36} {:>7.1} ms {target:>10}", median.as_secs_f64() * 1000.0);
    }
    let bytes: u64 =
        std::fs::read_dir(&site).map(|d| d.filter_map(|e| e.ok()?.metadata().ok()).map(|m| m.len()).sum()).unwrap_or(0);
    println!("site: {:.1} MB", bytes as f64 / 1e6);
}

fn mmjudge(bin: &Path, db: &Path) -> Command {
    let mut cmd = Command::new(bin);
    cmd.env("MMJUDGE_DB", db).env("MMJUDGE_JUDGE", "bench").env_remove("MMJUDGE_NOW");
    cmd
}

fn must(bin: &Path, db: &Path, args: &[&str]) {
    let out = mmjudge(bin, db).args(args).output().expect("run mmjudge");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Median wall time of `runs` runs (output captured, as through a pipe).
fn time(bin: &Path, db: &Path, args: &[&str], runs: usize) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            must(bin, db, args);
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// Tiny deterministic generator (no rand needed for a bench).
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

fn build_event(bin: &Path, db: &Path, dir: &Path) {
    must(bin, db, &["event", "new", "Bench Open", "--rounds", "12", "--seed", "1", "--force"]);
    let csv = dir.join("players.csv");
    let names: String = (0..PLAYERS).map(|i| format!("Player {i:04}\n")).collect();
    std::fs::write(&csv, format!("name\n{names}")).expect("players.csv");
    must(bin, db, &["player", "import", &csv.to_string_lossy()]);
    let mut conn = rusqlite::Connection::open(db).expect("open");
    let tx = conn.transaction().expect("tx");
    let ids: Vec<i64> = {
        let mut stmt = tx.prepare("SELECT id FROM player ORDER BY id").expect("players");
        stmt.query_map([], |r| r.get(0)).expect("query").map(|r| r.expect("id")).collect()
    };
    let tables = PLAYERS / 2;
    let mut library = Vec::with_capacity(tables);
    for t in 1..=tables as i64 {
        let seat = |s: &str| {
            tx.execute("INSERT INTO library (table_no, seat) VALUES (?1, ?2)", rusqlite::params![t, s])
                .expect("library");
            tx.last_insert_rowid()
        };
        library.push((seat("A"), seat("B")));
    }
    let mut seed = 42u64;
    let mut points = vec![0u32; PLAYERS];
    for round in 1..=ROUNDS {
        tx.execute(
            "INSERT INTO round (number, movement, paired_at, started_at, ended_at) VALUES (?1, 'swiss', '2026-05-01T09:00:00Z', '2026-05-01T09:05:00Z', '2026-05-01T09:55:00Z')",
            [round],
        )
        .expect("round");
        let shuffle: Vec<u64> = (0..PLAYERS).map(|_| next(&mut seed)).collect();
        let mut order: Vec<usize> = (0..PLAYERS).collect();
        order.sort_by_key(|&p| (std::cmp::Reverse(points[p]), shuffle[p]));
        let mut stmt = tx
            .prepare_cached(
                "INSERT INTO match (round, table_no, a_player, b_player, a_library, b_library, result, reason, life_a, life_b) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'life', ?8, ?9)",
            )
            .expect("insert match");
        for (t, pair) in order.chunks(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            let result = match next(&mut seed) % 10 {
                0 => "draw",
                1..=4 => "B",
                _ => "A",
            };
            match result {
                "A" => points[a] += 3,
                "B" => points[b] += 3,
                _ => {
                    points[a] += 1;
                    points[b] += 1;
                }
            }
            let (la, lb) = library[t];
            let life = (next(&mut seed) % 20) as i64;
            stmt.execute(rusqlite::params![round, t as i64 + 1, ids[a], ids[b], la, lb, result, life, 0])
                .expect("match");
        }
    }
    tx.execute("UPDATE player SET dropped_after = 6 WHERE id % 97 = 0", []).expect("drops");
    tx.execute("UPDATE player SET disqualified = 1 WHERE id % 1001 = 0", []).expect("disqualifications");
    tx.commit().expect("commit");
}
