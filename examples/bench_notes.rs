//! Times the template-note commands as whole processes on a big event: 512 players after 9 rounds (round 9
//! playing), 16 notes a game with real cards, and the full card reference when it is there.
//!
//!     cargo build --release && cargo run --release --example bench_notes -- target/release/mmjudge [RUNS] [CARDS.csv]
//!
//! The reference is imported with the real binary (default ../shared/data/cards.csv, else examples/cards.csv);
//! players, rounds and notes are written directly with SQL for speed. Every timed command is the real binary.
//! Prints the median and the slowest run of each command in milliseconds.

use rusqlite::{Connection, params};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const PLAYERS: usize = 512;
const ROUNDS: u32 = 9;
const NOTES_A_GAME: usize = 16;
/// Declarations the timed `note` runs make (kept out of the prefilled notes): (cost, card).
const FRESH: [(&str, &str); 4] =
    [("B1", "Demonic Tutor"), ("R", "Shock"), ("UU", "Counterspell"), ("W", "Swords to Plowshares")];

type Failure = Box<dyn std::error::Error>;

fn main() -> Result<(), Failure> {
    let mut args = std::env::args().skip(1);
    let bin = PathBuf::from(args.next().ok_or("usage: bench_notes PATH/TO/mmjudge [RUNS] [CARDS.csv]")?);
    let bin = bin.canonicalize().map_err(|e| format!("{}: {e}", bin.display()))?;
    let runs: usize = args.next().map(|r| r.parse()).transpose()?.unwrap_or(15);
    let cards = args.next().map(PathBuf::from).unwrap_or_else(default_reference).canonicalize()?;
    let dir = tempfile::tempdir()?;
    let bench = Bench { bin, db: dir.path().join("bench.db"), dir: dir.path().to_path_buf() };
    bench.run(&["event", "new", "Bench Open", "--seed", "7"], true)?;
    let started = Instant::now();
    bench.run(&["cards", "import", &cards.to_string_lossy()], true)?;
    let tables = build(&bench.db)?;
    println!(
        "event: {PLAYERS} players, {ROUNDS} rounds, {NOTES_A_GAME} notes a game, reference {} ({} cards); built in \
         {:.1} s; {runs} runs per command",
        cards.display(),
        count_cards(&bench.db)?,
        started.elapsed().as_secs_f64()
    );
    report(&bench, tables, runs)
}

/// The full reference in ../shared (from the main checkout or a worktree beside it), else the bundled one.
fn default_reference() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let full = ["../shared/data/cards.csv", "../../shared/data/cards.csv"].map(|p| root.join(p));
    full.into_iter().find(|p| p.exists()).unwrap_or_else(|| root.join("examples/cards.csv"))
}

/// Runs the real binary on the bench event.
struct Bench {
    bin: PathBuf,
    db: PathBuf,
    dir: PathBuf,
}

impl Bench {
    /// Runs once; returns the time in ms. `must_succeed`: a refusal is an error (else it is what is timed).
    fn run(&self, args: &[&str], must_succeed: bool) -> Result<f64, Failure> {
        let start = Instant::now();
        let out = Command::new(&self.bin)
            .args(args)
            .current_dir(&self.dir)
            .env("MMJUDGE_DB", &self.db)
            .env("MMJUDGE_JUDGE", "Bench")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()?;
        let took = start.elapsed().as_secs_f64() * 1000.0;
        if out.status.success() != must_succeed {
            return Err(
                format!("{args:?}: exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr)).into()
            );
        }
        Ok(took)
    }

    /// Times `runs` runs of the commands `make(i)` gives; returns (median, slowest) in ms.
    fn time(&self, runs: usize, ok: bool, make: &dyn Fn(usize) -> Vec<String>) -> Result<(f64, f64), Failure> {
        let mut ms = Vec::with_capacity(runs);
        for i in 0..runs {
            let args = make(i);
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            ms.push(self.run(&refs, ok)?);
        }
        ms.sort_by(f64::total_cmp);
        Ok((ms[ms.len() / 2], ms[ms.len() - 1]))
    }
}

fn count_cards(db: &Path) -> Result<i64, Failure> {
    Ok(Connection::open(db)?.query_row("SELECT count(*) FROM card", [], |r| r.get(0))?)
}

fn name(i: usize) -> String {
    format!("Player {:04}", i + 1)
}

/// A small deterministic generator (xorshift), so the bench needs no extra crates.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Fills players, rounds and notes; returns round 9's tables as (table, seat A name, seat B name).
fn build(db: &Path) -> Result<Vec<(u32, String, String)>, Failure> {
    let mut conn = Connection::open(db)?;
    let tx = conn.transaction()?;
    let fresh: Vec<&str> = FRESH.iter().map(|f| f.1).collect();
    let cards: Vec<(String, String)> = {
        let mut stmt = tx.prepare(
            "SELECT name, mana_cost FROM card WHERE mana_cost LIKE '{%' AND layout = 'normal' ORDER BY id LIMIT 4000",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<rusqlite::Result<Vec<(String, String)>>>()?
            .into_iter()
            .filter(|(n, _)| !fresh.contains(&n.as_str()))
            .collect()
    };
    for i in 0..PLAYERS {
        tx.execute(
            "INSERT INTO player (id, name, name_key) VALUES (?1, ?2, lower(?2))",
            params![i as i64 + 1, name(i)],
        )?;
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut order: Vec<usize> = (0..PLAYERS).collect();
    let mut tables = Vec::new();
    for round in 1..=ROUNDS {
        let hour = format!("2026-05-01T{:02}", 8 + round);
        tx.execute(
            "INSERT INTO round (number, movement, paired_at) VALUES (?1, 'swiss', ?2)",
            params![round, format!("{hour}:00:00.000Z")],
        )?;
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for (t, pair) in order.chunks(2).enumerate() {
            let (a, b, table) = (pair[0] as i64 + 1, pair[1] as i64 + 1, t as u32 + 1);
            let result = (round < ROUNDS).then_some("A");
            tx.execute(
                "INSERT INTO match (round, table_no, a_player, b_player, result, reason) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![round, table, a, b, result, result.map(|_| "life")],
            )?;
            let m = tx.last_insert_rowid();
            let mut note = tx.prepare_cached(
                "INSERT INTO template_note (match_id, player_id, cost, card_name, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for k in 0..NOTES_A_GAME {
                let (card, cost) = &cards[rng.below(cards.len())];
                let who = if k % 2 == 0 { a } else { b };
                note.execute(params![m, who, cost, card, format!("{hour}:{:02}:00.000Z", 5 + 2 * k)])?;
            }
            if round == ROUNDS {
                tables.push((table, name(pair[0]), name(pair[1])));
            }
        }
    }
    tx.commit()?;
    Ok(tables)
}

fn report(bench: &Bench, tables: Vec<(u32, String, String)>, runs: usize) -> Result<(), Failure> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let at = |i: usize| &tables[i % tables.len()];
    let html = bench.dir.join("sheet.html").to_string_lossy().into_owned();
    type Make<'a> = Box<dyn Fn(usize) -> Vec<String> + 'a>;
    let mut cases: Vec<(String, bool, Make)> = Vec::new();
    for (k, (cost, card)) in FRESH.iter().enumerate().take(2) {
        cases.push((
            format!("note T P {cost} \"{card}\""),
            true,
            Box::new(move |i| {
                let (t, a, _) = at(k * runs + i);
                s(&["note", &t.to_string(), a, cost, card])
            }),
        ));
    }
    cases.extend::<Vec<(String, bool, Make)>>(vec![
        (
            "note T P U1 --unnamed".into(),
            true,
            Box::new(|i| s(&["note", &at(i).0.to_string(), &at(i).2, "U1", "--unnamed"])),
        ),
        (
            "note (duplicate, refused)".into(),
            false,
            Box::new(|i| s(&["note", &at(i).0.to_string(), &at(i).2, "B1", "Demonic Tutor"])),
        ),
        (
            "note (cost mismatch, refused)".into(),
            false,
            Box::new(|i| s(&["note", &at(i).0.to_string(), &at(i).1, "B2", "Demonic Tutor"])),
        ),
        (
            "note (unknown card, closest names)".into(),
            false,
            Box::new(|i| s(&["note", &at(i).0.to_string(), &at(i).1, "B1", "Demonic Tuttor"])),
        ),
        ("notes T".into(), true, Box::new(|i| s(&["notes", &at(i).0.to_string()]))),
        ("notes T --json".into(), true, Box::new(|i| s(&["--json", "notes", &at(i).0.to_string()]))),
        ("notes T --round 3".into(), true, Box::new(|i| s(&["notes", &at(i).0.to_string(), "--round", "3"]))),
        ("notes T --html FILE".into(), true, Box::new(|i| s(&["notes", &at(i).0.to_string(), "--html", &html]))),
        ("note undo T".into(), true, Box::new(|i| s(&["note", "undo", &at(i).0.to_string()]))),
        (
            "cards check UU Counterspell --table T".into(),
            true,
            Box::new(|i| s(&["cards", "check", "UU", "Counterspell", "--table", &at(i).0.to_string()])),
        ),
        (
            "cards cost R --table T".into(),
            true,
            Box::new(|i| s(&["cards", "cost", "R", "--table", &at(i).0.to_string()])),
        ),
        ("--version (process floor)".into(), true, Box::new(|_| s(&["--version"]))),
    ]);
    println!("{:<42} {:>10} {:>10}", "command", "median ms", "max ms");
    for (label, ok, make) in cases {
        let (median, max) = bench.time(runs, ok, &*make)?;
        println!("{label:<42} {median:>10.1} {max:>10.1}");
    }
    Ok(())
}
