//! `cargo bench`: times whole `mmjudge` commands on large events against the speed targets of the issues.
//!
//! Each figure is the median wall time of several runs of the real release binary (process start, opening
//! the event, the work, printing), unless its line says otherwise (the clock's accuracy is a largest error).
//! Big events are built directly with SQL (`sections/field.rs`) where going through thousands of commands
//! would only measure the setup. Uses ../shared/data/cards.csv (the full reference) when present, else the
//! bundled examples/cards.csv. Run some sections only with `cargo bench -- SECTION...`;
//! `MMJUDGE_BENCH_BIN=path/to/mmjudge` times another build on the same files (before and after a change).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod sections;
mod setup;

/// A bench section: builds what it needs in the folder and appends its figures.
type Section = fn(&Path, &mut Vec<Figure>);

/// One measured figure against its target.
struct Figure {
    what: String,
    value: f64,
    target: f64,
    unit: &'static str,
    /// The target is a floor (frames a second), not a ceiling.
    at_least: bool,
}

impl Figure {
    /// A time (a median, or a largest error) against a ceiling.
    fn time(what: impl Into<String>, took: Duration, target: Duration) -> Self {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        Figure { what: what.into(), value: ms(took), target: ms(target), unit: "ms", at_least: false }
    }

    /// `took` as a ratio to `show` (a trivial `event show` on the same file, timed just before), against
    /// `target` over the trivial command's time when the issue was written (`trivial`): the figure that
    /// holds on a loaded machine.
    fn ratio(took: Duration, show: Duration, target: Duration, trivial: Duration) -> Self {
        Figure {
            what: "  as a ratio to event show".into(),
            value: took.as_secs_f64() / show.as_secs_f64().max(1e-6),
            target: target.as_secs_f64() / trivial.as_secs_f64(),
            unit: "x",
            at_least: false,
        }
    }

    /// How many of `of` runs kept their promise (all of them is the target).
    fn count(what: impl Into<String>, kept: u64, of: u64) -> Self {
        Figure { what: what.into(), value: kept as f64, target: of as f64, unit: "runs", at_least: true }
    }

    /// Whether the figure meets its target.
    fn ok(&self) -> bool {
        if self.at_least { self.value >= self.target } else { self.value <= self.target }
    }
}

/// What a timed command must do.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    /// Succeed (exit 0).
    Ok,
    /// Be refused (exit 1): the refusal is what is timed.
    Refused,
}

/// Times `args` on `db` `runs` times and returns the median; the command must succeed.
fn time_command(db: &Path, args: &[&str], runs: usize) -> Duration {
    time_runs(db, runs, Expect::Ok, |_| args.iter().map(|a| a.to_string()).collect())
}

/// Times `runs` runs of the commands `make(i)` gives (a fresh table or player each run when needed), each
/// ending as `expect` says; returns the median.
fn time_runs(db: &Path, runs: usize, expect: Expect, mut make: impl FnMut(usize) -> Vec<String>) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|i| {
            let args = make(i);
            let start = Instant::now();
            let out = mmjudge(db).args(&args).output().expect("run mmjudge");
            let took = start.elapsed();
            assert!(
                out.status.success() == (expect == Expect::Ok),
                "{args:?} exited {:?}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            );
            took
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// The binary timed: the release build, or the one `MMJUDGE_BENCH_BIN` names (an earlier build, to compare
/// before and after on the same machine and the same files).
fn program() -> PathBuf {
    std::env::var_os("MMJUDGE_BENCH_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_mmjudge")), PathBuf::from)
}

/// The release binary, pointed at an event file, run in the event's folder.
fn mmjudge(db: &Path) -> Command {
    let mut cmd = Command::new(program());
    cmd.env("MMJUDGE_DB", db).env("MMJUDGE_JUDGE", "bench").env_remove("MMJUDGE_NOW");
    if let Some(dir) = db.parent() {
        cmd.current_dir(dir);
    }
    cmd
}

/// Runs `args` on `db` once and returns its wall time and its peak resident memory in MiB (the high-water
/// mark read from /proc every 2 ms while it runs: the last few ms may be missed; 0 where /proc is missing).
fn time_and_peak(db: &Path, args: &[&str]) -> (Duration, f64) {
    let start = Instant::now();
    let mut child = mmjudge(db)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run mmjudge");
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let code = loop {
        if let Some(code) = child.try_wait().expect("wait for mmjudge") {
            break code;
        }
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let hwm = text.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next());
        peak_kib = peak_kib.max(hwm.and_then(|v| v.parse().ok()).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(2));
    };
    let took = start.elapsed();
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut err);
    }
    assert!(code.success(), "{args:?} failed: {err}");
    (took, peak_kib as f64 / 1024.0)
}

/// Runs a command once, panicking with its error if it fails; returns its output.
fn must(db: &Path, args: &[&str]) -> String {
    let out = mmjudge(db).args(args).output().expect("run mmjudge");
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The full reference if the shared data is beside the checkout (or beside the worktrees), else the bundled one.
fn reference() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let full = ["../shared/data/cards.csv", "../../shared/data/cards.csv"].map(|p| root.join(p));
    full.into_iter().find(|p| p.exists()).unwrap_or_else(|| root.join("examples/cards.csv"))
}

/// A path's file name, for labels.
fn short(p: &Path) -> String {
    p.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default()
}

/// The load averages over 1, 5 and 15 minutes, as /proc/loadavg says.
fn load() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn print_table(figures: &[Figure]) {
    println!("{:<62} {:>11} {:>12}  ok", "command", "median", "target");
    for f in figures {
        let bound = if f.at_least { ">=" } else { "<" };
        println!(
            "{:<62} {:>8.1} {:<2} {bound:>2}{:>7.0} {:<2}  {}",
            f.what,
            f.value,
            f.unit,
            f.target,
            f.unit,
            if f.ok() { "yes" } else { "NO" }
        );
    }
    let misses = figures.iter().filter(|f| !f.ok()).count();
    println!("{} figures, {misses} over target; load average {}", figures.len(), load());
}

fn main() {
    // `cargo bench` passes `--bench`; every other word chooses sections by name.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    // A word naming a section exactly chooses that one only (`demo`, not `demo4096`); else every section
    // whose name contains it.
    let names: Vec<&str> = setup::sections().iter().map(|(n, _)| *n).collect();
    // The long attack loops (a quarter of an hour and more) run only when named: `cargo bench -- attacks`.
    let wanted = |name: &str| {
        (filter.is_empty() && name != "attacks")
            || filter.iter().any(|f| f == name || (!names.contains(&f.as_str()) && name.contains(f.as_str())))
    };
    let dir = tempfile::tempdir().expect("temp dir");
    // MMJUDGE_BENCH_DIR keeps the bench's event files there (to profile a command by hand afterwards).
    let kept = std::env::var_os("MMJUDGE_BENCH_DIR").map(PathBuf::from);
    let dir = kept.as_deref().unwrap_or(dir.path());
    let mut figures = Vec::new();
    let started = Instant::now();
    eprintln!("bench: load average {} at the start", load());
    for (name, run) in setup::sections() {
        if wanted(name) {
            let section = Instant::now();
            eprintln!("bench: {name} ...");
            run(dir, &mut figures);
            eprintln!("bench: {name} took {:.0} s", section.elapsed().as_secs_f64());
        }
    }
    print_table(&figures);
    eprintln!("bench: {:.0} s in all", started.elapsed().as_secs_f64());
}
