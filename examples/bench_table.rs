//! Times the at-the-table commands as whole processes on a big event: 512 players after 9 rounds (rounds 1-8
//! finished, round 9 playing), with template notes, challenges, penalties, rulings and timed decisions.
//!
//!     cargo build --release && cargo run --release --example bench_table -- target/release/mmjudge [RUNS]
//!
//! The event is built directly with SQL for speed (after `event new` made the file); every timed command is
//! the real binary. Prints the median and the slowest run of each command in milliseconds.

use rusqlite::{Connection, params};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PLAYERS: usize = 512;
const ROUNDS: u32 = 9;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let bin = PathBuf::from(args.next().ok_or("usage: bench_table PATH/TO/mmjudge [RUNS]")?);
    let runs: usize = args.next().map(|r| r.parse()).transpose()?.unwrap_or(15);
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("bench.db");
    let bench = Bench { bin, db };
    bench.run(&["event", "new", "Bench Open", "--seed", "7"])?;
    let started = Instant::now();
    let seating = build(&bench.db)?;
    println!(
        "event: {PLAYERS} players, {ROUNDS} rounds ({} matches a round), built in {:.1} s; {runs} runs per command",
        seating.len(),
        started.elapsed().as_secs_f64()
    );
    if let Ok(keep) = std::env::var("BENCH_KEEP") {
        std::fs::copy(&bench.db, &keep)?;
    }
    report(&bench, &seating, runs)
}

/// Runs the real binary on the bench event.
struct Bench {
    bin: PathBuf,
    db: PathBuf,
}

impl Bench {
    fn run(&self, args: &[&str]) -> Result<Duration, Box<dyn std::error::Error>> {
        let start = Instant::now();
        let out = Command::new(&self.bin)
            .args(args)
            .env("MMJUDGE_DB", &self.db)
            .env("MMJUDGE_JUDGE", "Bench")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()?;
        let took = start.elapsed();
        if !out.status.success() {
            return Err(format!("{args:?} failed: {}", String::from_utf8_lossy(&out.stderr)).into());
        }
        Ok(took)
    }

    /// Times `runs` runs of the commands `make(i)` gives; returns (median, slowest) in ms.
    fn time(&self, runs: usize, make: impl Fn(usize) -> Vec<String>) -> Result<(f64, f64), Box<dyn std::error::Error>> {
        let mut ms = Vec::with_capacity(runs);
        for i in 0..runs {
            let args = make(i);
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            ms.push(self.run(&refs)?.as_secs_f64() * 1000.0);
        }
        ms.sort_by(f64::total_cmp);
        Ok((ms[ms.len() / 2], ms[ms.len() - 1]))
    }
}

fn name(i: usize) -> String {
    format!("Player {:04}", i + 1)
}

/// A small deterministic generator (xorshift), so the bench needs no extra crates.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A round's seating: (table, seat A player index, seat B player index).
type Seating = Vec<(u32, usize, usize)>;

/// Fills the event; returns the seating of round 9.
fn build(db: &Path) -> Result<Seating, Box<dyn std::error::Error>> {
    let mut conn = Connection::open(db)?;
    let tx = conn.transaction()?;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..PLAYERS {
        let n = name(i);
        tx.execute("INSERT INTO player (id, name, name_key) VALUES (?1, ?2, lower(?2))", params![i as i64 + 1, n])?;
    }
    let mut order: Vec<usize> = (0..PLAYERS).collect();
    let mut seating = Vec::new();
    let mut note_id = 0i64;
    for round in 1..=ROUNDS {
        let day = format!("2026-05-01T{:02}", 8 + round);
        tx.execute(
            "INSERT INTO round (number, movement, paired_at) VALUES (?1, 'swiss', ?2)",
            params![round, format!("{day}:00:00.000Z")],
        )?;
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for (t, pair) in order.chunks(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            let table = t as u32 + 1;
            let finished = round < ROUNDS;
            let (result, reason) = if finished { (Some(["A", "B"][rng.below(2)]), Some("life")) } else { (None, None) };
            tx.execute(
                "INSERT INTO match (round, table_no, a_player, b_player, result, reason, result_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    round,
                    table,
                    a as i64 + 1,
                    b as i64 + 1,
                    result,
                    reason,
                    finished.then(|| format!("{day}:45:00.000Z"))
                ],
            )?;
            let m = tx.last_insert_rowid();
            if round == ROUNDS {
                seating.push((table, a, b));
            }
            fill_match(&tx, &mut rng, m, [a as i64 + 1, b as i64 + 1], &day, &mut note_id)?;
            if finished {
                tx.execute(
                    "INSERT INTO audit (at, judge, command_line, summary) VALUES (?1, 'Bench', 'mmjudge result', 'result')",
                    params![format!("{day}:45:00.000Z")],
                )?;
                let audit_id = tx.last_insert_rowid();
                tx.execute(
                    "INSERT INTO audit_player VALUES (?1, ?2), (?1, ?3)",
                    params![audit_id, a as i64 + 1, b as i64 + 1],
                )?;
            }
        }
    }
    tx.commit()?;
    Ok(seating)
}

/// Notes, decisions, and now and then a challenge, a ruling or a penalty, at one match.
fn fill_match(
    tx: &Connection,
    rng: &mut Rng,
    m: i64,
    players: [i64; 2],
    day: &str,
    note_id: &mut i64,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut notes = tx.prepare_cached(
        "INSERT INTO template_note (id, match_id, player_id, cost, card_name, at) VALUES (?1, ?2, ?3, 'B1', ?4, ?5)",
    )?;
    for k in 0..16 {
        *note_id += 1;
        notes.execute(params![
            *note_id,
            m,
            players[k % 2],
            format!("Card {note_id}"),
            format!("{day}:{:02}:00.000Z", 5 + k)
        ])?;
    }
    let mut decisions = tx.prepare_cached(
        "INSERT INTO decision (match_id, player_id, started_at, ended_at, duration_ms, limit_ms, overrun_ms)
         VALUES (?1, ?2, ?3, ?3, ?4, 45000, ?5)",
    )?;
    for k in 0..40 {
        let took = 5000 + rng.below(45_000) as i64;
        let at = format!("{day}:{:02}:{:02}.000Z", 5 + k, rng.below(60));
        decisions.execute(params![m, players[k % 2], at, took, (took - 45_000).max(0)])?;
    }
    if rng.below(3) == 0 {
        let by = players[rng.below(2)];
        let denied = rng.below(2) == 0;
        let loser = if denied {
            by
        } else if by == players[0] {
            players[1]
        } else {
            players[0]
        };
        tx.execute(
            "INSERT INTO challenge (match_id, by_player, about, ruling, loser, judge, at)
             VALUES (?1, ?2, 'what the card does', ?3, ?4, 'Bench', ?5)",
            params![m, by, if denied { "denied" } else { "upheld" }, loser, format!("{day}:20:00.000Z")],
        )?;
    }
    if rng.below(8) == 0 {
        tx.execute(
            "INSERT INTO ruling (match_id, text, judge, at) VALUES (?1, 'the trigger resolves first', 'Bench', ?2)",
            params![m, format!("{day}:25:00.000Z")],
        )?;
    }
    if rng.below(6) == 0 {
        tx.execute(
            "INSERT INTO penalty (player_id, match_id, infraction, penalty, judge, at)
             VALUES (?1, ?2, 'game-rule-violation', 'warning', 'Bench', ?3)",
            params![players[rng.below(2)], m, format!("{day}:30:00.000Z")],
        )?;
    }
    Ok(())
}

fn report(bench: &Bench, seating: &[(u32, usize, usize)], runs: usize) -> Result<(), Box<dyn std::error::Error>> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let seat = |i: usize| seating[i % seating.len()];
    type Make<'a> = Box<dyn Fn(usize) -> Vec<String> + 'a>;
    let cases: Vec<(&str, Make)> = vec![
        (
            "result T WINNER --by life",
            Box::new(|i| {
                let (t, a, _) = seat(i);
                s(&["result", &t.to_string(), &name(a), "--by", "life", "--life", "7", "0"])
            }),
        ),
        (
            "result fix T ... --round 8 --force",
            Box::new(|i| {
                s(&[
                    "result",
                    "fix",
                    &(i + 1).to_string(),
                    "draw",
                    "--by",
                    "intentional-draw",
                    "--round",
                    "8",
                    "--force",
                ])
            }),
        ),
        (
            "challenge T --by P ... --ruling denied",
            Box::new(|i| {
                let (t, _, b) = seat(runs + i);
                s(&["challenge", &t.to_string(), "--by", &name(b), "--about", "Shock was used", "--ruling", "denied"])
            }),
        ),
        (
            "penalty P slow-play",
            Box::new(|i| {
                let (_, _, b) = seat(2 * runs + i);
                s(&["penalty", &name(b), "slow-play"])
            }),
        ),
        (
            "ruling T TEXT",
            Box::new(|i| {
                let (t, _, _) = seat(3 * runs + i);
                s(&["ruling", &t.to_string(), "the attack stands"])
            }),
        ),
        ("player history P", Box::new(|i| s(&["player", "history", &name(i * 31 % PLAYERS)]))),
        ("player history P --json", Box::new(|i| s(&["--json", "player", "history", &name(i * 17 % PLAYERS)]))),
        ("results (round 9)", Box::new(|_| s(&["results"]))),
        ("results --round 3 --json", Box::new(|_| s(&["--json", "results", "--round", "3"]))),
        ("challenges", Box::new(|_| s(&["challenges"]))),
        ("challenges --json", Box::new(|_| s(&["--json", "challenges"]))),
        ("challenges --csv", Box::new(|_| s(&["--csv", "challenges"]))),
        ("challenges --table T", Box::new(|i| s(&["challenges", "--table", &seat(i).0.to_string()]))),
        ("challenges --watch", Box::new(|_| s(&["challenges", "--watch"]))),
        ("penalties", Box::new(|_| s(&["penalties"]))),
        ("--version (process floor)", Box::new(|_| s(&["--version"]))),
    ];
    println!("{:<42} {:>10} {:>10}", "command", "median ms", "max ms");
    for (label, make) in cases {
        let (median, max) = bench.time(runs, make)?;
        println!("{label:<42} {median:>10.1} {max:>10.1}");
    }
    Ok(())
}
