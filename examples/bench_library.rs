//! Speed of the pool and library commands, timed as whole commands of the release binary.
//!
//! ```sh
//! cargo build --release && cargo run --release --example bench_library -- target/release/mmjudge [REFERENCE.csv]
//! ```
//!
//! REFERENCE.csv defaults to ../shared/data/cards.csv (the full reference), else examples/cards.csv.
//! Targets (issue 4): `library build` for 128 tables from a 12,000-copy pool under 1 s; `pool check` on a
//! 2,000-card pool against the full reference under 1 s.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bin = PathBuf::from(args.get(1).map(String::as_str).unwrap_or("target/release/mmjudge"));
    let reference = args.get(2).map(PathBuf::from).unwrap_or_else(default_reference);
    if !bin.exists() {
        eprintln!("no binary at {}: run `cargo build --release` first", bin.display());
        std::process::exit(2);
    }
    let dir = tempfile::tempdir().unwrap_or_else(|e| fail(&format!("temp dir: {e}")));
    let names = spell_names(&reference);
    println!("reference {} ({} usable spell names)", reference.display(), names.len());

    let big = dir.path().join("big.db");
    setup(&bin, &big, &reference);
    let pool = write_pool(dir.path(), "pool-12000.csv", &names, 12_000, 3);
    time(&bin, &big, &["pool", "import", &pool], "pool import, 12,000 copies");
    let build =
        time(&bin, &big, &["library", "build", "--tables", "128"], "library build --tables 128 (256 libraries)");
    time(&bin, &big, &["library", "list"], "library list, 256 libraries");
    let sheets = dir.path().join("sheets").to_string_lossy().into_owned();
    time(&bin, &big, &["library", "sheets", &sheets], "library sheets, 256 pages + CSV");

    let check_db = dir.path().join("check.db");
    setup(&bin, &check_db, &reference);
    let pool = write_pool(dir.path(), "pool-2000.csv", &names, 2_000, 1);
    time(&bin, &check_db, &["pool", "import", &pool], "pool import, 2,000 cards");
    let check = time(&bin, &check_db, &["pool", "check"], "pool check, 2,000 cards");
    time(&bin, &check_db, &["--json", "pool", "check"], "pool check --json, 2,000 cards");
    let html = dir.path().join("check.html").to_string_lossy().into_owned();
    time(&bin, &check_db, &["pool", "check", "--html", &html], "pool check --html, 2,000 cards");

    let target = Duration::from_secs(1);
    println!(
        "targets: library build {} 1 s, pool check {} 1 s",
        if build < target { "under" } else { "OVER" },
        if check < target { "under" } else { "OVER" }
    );
}

fn default_reference() -> PathBuf {
    let full = Path::new("../shared/data/cards.csv");
    if full.exists() { full.into() } else { Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cards.csv") }
}

fn fail(msg: &str) -> ! {
    eprintln!("bench: {msg}");
    std::process::exit(1)
}

/// Names of ordinary spells with a printed cost and no excluded kind, in reference order.
fn spell_names(reference: &Path) -> Vec<String> {
    let mut reader = csv::Reader::from_path(reference).unwrap_or_else(|e| fail(&format!("{e}")));
    let headers = reader.headers().cloned().unwrap_or_default();
    let col = |n: &str| headers.iter().position(|h| h == n);
    let (name, cost, ty, layout, flags) =
        (col("name"), col("mana_cost"), col("type_line"), col("layout"), col("flags"));
    let get = |r: &csv::StringRecord, c: Option<usize>| c.and_then(|c| r.get(c)).unwrap_or("").to_string();
    reader
        .records()
        .filter_map(Result::ok)
        .filter(|r| {
            !get(r, cost).is_empty()
                && !get(r, ty).contains("Land")
                && get(r, layout) == "normal"
                && get(r, flags).is_empty()
        })
        .map(|r| get(&r, name))
        .collect()
}

/// A pool CSV of `copies` copies, `per_name` of each name, names spread evenly over the reference.
fn write_pool(dir: &Path, file: &str, names: &[String], copies: usize, per_name: usize) -> String {
    let distinct = copies.div_ceil(per_name).min(names.len());
    let step = (names.len() / distinct.max(1)).max(1);
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(["name", "count"]);
    for n in names.iter().step_by(step).take(distinct) {
        let _ = w.write_record([n.as_str(), &per_name.to_string()]);
    }
    let path = dir.join(file);
    std::fs::write(&path, w.into_inner().unwrap_or_default()).unwrap_or_else(|e| fail(&format!("{e}")));
    path.to_string_lossy().into_owned()
}

fn setup(bin: &Path, db: &Path, reference: &Path) {
    run(bin, db, &["event", "new", "Bench Open", "--seed", "1"]);
    let r = reference.to_string_lossy().into_owned();
    time(bin, db, &["cards", "import", &r], "cards import (setup)");
}

fn run(bin: &Path, db: &Path, args: &[&str]) -> std::process::Output {
    let out = Command::new(bin)
        .args(args)
        .env("MMJUDGE_DB", db)
        .env("MMJUDGE_JUDGE", "bench")
        .output()
        .unwrap_or_else(|e| fail(&format!("{}: {e}", bin.display())));
    if !out.status.success() {
        fail(&format!("{args:?} failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    out
}

fn time(bin: &Path, db: &Path, args: &[&str], what: &str) -> Duration {
    let start = Instant::now();
    run(bin, db, args);
    let took = start.elapsed();
    println!("{:>9.3} s  {what}", took.as_secs_f64());
    took
}
