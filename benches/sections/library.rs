//! Issue 4: `library build --tables 128` from a 12,000-copy pool under 1 s; `pool check` on a 2,000-card pool
//! against the full reference under 1 s.

use crate::{Figure, must, reference, time_command};
use std::path::Path;
use std::time::Duration;

/// Imports the reference once, copies the event for the second pool, and times both targets.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let big = dir.join("library.db");
    must(&big, &["event", "new", "Bench Open", "--seed", "1"]);
    let reference = reference();
    must(&big, &["cards", "import", &reference.to_string_lossy()]);
    let check = dir.join("pool-check.db");
    std::fs::copy(&big, &check).expect("copy the event");
    let names = spell_names(&reference);
    let second = Duration::from_secs(1);

    let (pool, copies) = write_pool(dir, "pool-12000.csv", &names, 12_000, 3);
    must(&big, &["pool", "import", &pool]);
    let build = time_command(&big, &["library", "build", "--tables", "128"], 3);
    out.push(Figure::time(format!("library build --tables 128 ({copies}-copy pool)"), build, second));

    let (pool, cards) = write_pool(dir, "pool-2000.csv", &names, 2_000, 1);
    must(&check, &["pool", "import", &pool]);
    let text = time_command(&check, &["pool", "check"], 5);
    out.push(Figure::time(format!("pool check ({cards} cards)"), text, second));
    let json = time_command(&check, &["--json", "pool", "check"], 5);
    out.push(Figure::time(format!("pool check --json ({cards} cards)"), json, second));
}

/// Names of ordinary spells with a printed cost and no excluded kind, in reference order.
fn spell_names(reference: &Path) -> Vec<String> {
    let mut reader = csv::Reader::from_path(reference).expect("read the reference");
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

/// A pool CSV of `copies` copies (fewer if the reference is small), `per_name` of each name, names spread evenly
/// over the reference; returns its path and the copies written.
fn write_pool(dir: &Path, file: &str, names: &[String], copies: usize, per_name: usize) -> (String, usize) {
    let distinct = copies.div_ceil(per_name).min(names.len());
    let step = (names.len() / distinct.max(1)).max(1);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["name", "count"]).expect("csv");
    for n in names.iter().step_by(step).take(distinct) {
        w.write_record([n.as_str(), &per_name.to_string()]).expect("csv");
    }
    let path = dir.join(file);
    std::fs::write(&path, w.into_inner().expect("csv")).expect("write the pool");
    (path.to_string_lossy().into_owned(), distinct * per_name)
}
