//! Issue 3: importing the full reference under 3 s; `cards check`, `find`, `cost` under 30 ms.

use crate::{Expect, Figure, must, reference, short, time_command, time_runs};
use std::path::Path;
use std::time::{Duration, Instant};

/// Imports the reference once (timed), then times the look-ups on it.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let db = dir.join("cards.db");
    must(&db, &["event", "new", "Bench"]);
    let reference = reference();
    let r = reference.to_string_lossy().to_string();
    let start = Instant::now();
    must(&db, &["cards", "import", &r]);
    let cards = csv::Reader::from_path(&reference).map_or(0, |mut r| r.records().count());
    let what = format!("cards import {} ({cards} cards)", short(&reference));
    out.push(Figure::time(what, start.elapsed(), Duration::from_secs(3)));
    let ms30 = Duration::from_millis(30);
    for (what, args) in [
        ("cards check B1 \"Demonic Tutor\"", &["cards", "check", "B1", "Demonic Tutor"][..]),
        ("cards find \"nevinyrals disk\"", &["cards", "find", "nevinyrals disk"]),
        ("cards cost B1", &["cards", "cost", "B1"]),
    ] {
        out.push(Figure::time(what, time_command(&db, args, 15), ms30));
    }
    let typo =
        time_runs(&db, 15, Expect::Refused, |_| ["cards", "check", "B1", "Demonic Tuttor"].map(String::from).into());
    out.push(Figure::time("cards check (typo: refused, closest names)", typo, ms30));
}
