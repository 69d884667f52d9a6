//! The long attack loops: what CI runs a few times, run here as many times as before a release. Each loop is the
//! command-line tests' own (scripts/standby-*.sh run an ignored test of tests/cli with `RUNS`), and the attacks
//! that CI runs at a smaller scale run here at full scale (`MMJUDGE_ATTACKS=full`): 5,000 right sign-ins from 500
//! addresses on a `--standby-required` primary with its standby (`serve_trust`).
//!
//! Figures: each loop's runs that kept their promise (all of them, or the loop failed and says where in its
//! output, printed above the table). `MMJUDGE_BENCH_RUNS` sets the runs of each loop (20 by default).

use crate::Figure;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The loops: the script or test, and what a passing run proves.
const LOOPS: [(&str, &str); 3] = [
    ("scripts/standby-kill.sh", "primary killed (kill -9) mid-write: no applied write lost"),
    ("scripts/standby-freeze.sh", "primary frozen while its standby is promoted: no ok write lost"),
    ("scripts/standby-jobs.sh", "standby frozen: no job done, no write ok, a failover keeps all"),
];

/// The attacks run at full scale (a test of tests/cli, `cargo test` filter).
const FULL_SCALE: [(&str, &str); 1] = [(
    "serve_trust::right_sign_ins_from_new_cookies",
    "5,000 right sign-ins from 500 addresses: file under 1 MB more, judges answered",
)];

fn passed(cmd: &mut Command) -> bool {
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).status().is_ok_and(|s| s.success())
}

/// Runs every loop and full-scale attack; a figure for each.
pub fn run(_dir: &Path, out: &mut Vec<Figure>) {
    let runs: u64 = std::env::var("MMJUDGE_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(20);
    for (script, what) in LOOPS {
        let t = Instant::now();
        let ok = passed(Command::new(script).env("RUNS", runs.to_string()));
        eprintln!(
            "bench: {script} ({runs} runs) {} in {:.0} s",
            if ok { "passed" } else { "FAILED" },
            t.elapsed().as_secs_f64()
        );
        out.push(Figure::count(format!("{what} ({runs} runs)"), if ok { runs } else { 0 }, runs));
    }
    for (test, what) in FULL_SCALE {
        let t = Instant::now();
        let ok = passed(Command::new("cargo").args(["test", "--test", "cli", test]).env("MMJUDGE_ATTACKS", "full"));
        eprintln!(
            "bench: {test} at full scale {} in {:.0} s",
            if ok { "passed" } else { "FAILED" },
            t.elapsed().as_secs_f64()
        );
        out.push(Figure::count(what, u64::from(ok), 1));
    }
}
