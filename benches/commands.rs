//! `cargo bench`: times whole `mmjudge` commands on large events against the speed targets of the issues.
//!
//! Each figure is the median wall time of several runs of the real release binary (process start, opening
//! the event, the work, printing). Big events are built directly with SQL where going through thousands of
//! commands would only measure the setup. Uses ../shared/data/cards.csv (the full reference) when present,
//! else the bundled examples/cards.csv. Run one section with `cargo bench -- SECTION`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod setup;

/// A bench section: builds what it needs in the folder and appends its figures.
type Section = fn(&Path, &mut Vec<Figure>);

/// One measured figure.
struct Figure {
    what: String,
    median: Duration,
    target: Duration,
}

/// Times `args` on `db` `runs` times and returns the median.
fn time_command(db: &Path, args: &[&str], runs: usize) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let out = mmjudge(db).args(args).output().expect("run mmjudge");
            let took = start.elapsed();
            assert!(
                out.status.success() || args.contains(&"check") || args.contains(&"--allow-fail"),
                "{args:?} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            took
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// The release binary, pointed at an event file.
fn mmjudge(db: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mmjudge"));
    cmd.env("MMJUDGE_DB", db).env("MMJUDGE_JUDGE", "bench").env_remove("MMJUDGE_NOW");
    cmd
}

/// Runs a command once, panicking with its error if it fails.
fn must(db: &Path, args: &[&str]) -> String {
    let out = mmjudge(db).args(args).output().expect("run mmjudge");
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The full reference if CI's shared data is beside the checkout, else the bundled one.
fn reference() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data/cards.csv");
    if shared.exists() { shared } else { root.join("examples/cards.csv") }
}

fn cards_section(dir: &Path, out: &mut Vec<Figure>) {
    let db = dir.join("cards.db");
    must(&db, &["event", "new", "Bench"]);
    let reference = reference();
    let r = reference.to_string_lossy().to_string();
    let start = Instant::now();
    must(&db, &["cards", "import", &r]);
    out.push(Figure { what: format!("cards import {}", short(&reference)), median: start.elapsed(), target: ms(3000) });
    let ms30 = ms(30);
    for (what, args) in [
        ("cards check B1 \"Demonic Tutor\"", vec!["cards", "check", "B1", "Demonic Tutor"]),
        ("cards check (typo, suggestions)", vec!["cards", "check", "B1", "Demonic Tuttor"]),
        ("cards find \"nevinyrals disk\"", vec!["cards", "find", "nevinyrals disk"]),
        ("cards cost B1", vec!["cards", "cost", "B1"]),
    ] {
        out.push(Figure { what: what.into(), median: time_command(&db, &args, 15), target: ms30 });
    }
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn short(p: &Path) -> String {
    p.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default()
}

fn main() {
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let dir = tempfile::tempdir().expect("temp dir");
    let mut figures = Vec::new();
    let sections: Vec<(&str, Section)> = vec![("cards", cards_section)];
    let sections: Vec<(&str, Section)> = sections.into_iter().chain(setup::sections()).collect();
    for (name, run) in sections {
        if wanted(name) {
            eprintln!("bench: {name} ...");
            run(dir.path(), &mut figures);
        }
    }
    println!("{:<58} {:>10} {:>10}  ok", "command", "median", "target");
    let mut misses = 0;
    for f in &figures {
        let ok = f.median <= f.target;
        misses += usize::from(!ok);
        println!(
            "{:<58} {:>8.1}ms {:>8.0}ms  {}",
            f.what,
            f.median.as_secs_f64() * 1000.0,
            f.target.as_secs_f64() * 1000.0,
            if ok { "yes" } else { "NO" }
        );
    }
    println!("{} figures, {misses} over target", figures.len());
}
