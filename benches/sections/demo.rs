//! Issue 8: `demo` at its default size under 10 s; `demo --players 1024 --rounds 10` under 60 s.
//!
//! Measured with the release binary on a loaded 2-core machine (load 10), 5 runs each, min / median: the demo
//! parsing and dispatching its command lines (one event opening each) took 3.7 / 3.9-4.4 s at its default size
//! and 46 / 57 s at 1,024 players and 10 rounds; taking its actions through `ops` on one connection, 1.2 / 1.4 s
//! and 19 / 23 s.

use crate::{Expect, Figure, time_runs};
use std::path::Path;
use std::time::Duration;

/// Each run makes a new event and folder.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let demo = |size: &'static [&'static str], runs: usize| {
        let here = dir.join(format!("demo-{}", size.len()));
        std::fs::create_dir_all(&here).expect("demo folder");
        time_runs(&here.join("unused.db"), runs, Expect::Ok, |i| {
            let db = here.join(format!("demo-{i}.db")).to_string_lossy().into_owned();
            let site = here.join(format!("site-{i}")).to_string_lossy().into_owned();
            let mut args = vec!["demo".to_string(), "--db".into(), db, "--out".into(), site];
            args.extend(size.iter().map(|s| s.to_string()));
            args
        })
    };
    out.push(Figure::time("demo (16 players, 5 rounds)", demo(&[], 3), Duration::from_secs(10)));
    let big = demo(&["--players", "1024", "--rounds", "10"], 1);
    out.push(Figure::time("demo --players 1024 --rounds 10", big, Duration::from_secs(60)));
}
