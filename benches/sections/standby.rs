//! Issue 29: a second laptop following the event. The 256-player live event of `serve` (round 5 playing); a
//! standby key made on it; the release binary serves it as the primary and a second one follows it on its own
//! file (`serve --standby-of URL --key KEY`, a new file: it takes a full copy first). For
//! MMJUDGE_BENCH_SECONDS (60 by default) a judge adds notes (a fresh card each, at the playing tables in turn) at 5
//! a second, one at a time, first with the primary following asynchronously, then again with the primary
//! restarted with `--standby-required` (the standby reconnects and goes on from where it was).
//!
//! Figures: the standby's lag (from the primary's answer to the standby's file holding the change: the bench
//! reads the standby's `replication.seq` every millisecond), p50 and p99; the write's time without and with
//! `--standby-required` and what the flag adds; writes answered `"standby": "applied"`; how long a fresh
//! standby took to copy the event and catch up.

use super::field::{Game, name};
use super::live::{self, Server, count, quantile};
use crate::{Figure, must};
use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::time::{Duration, Instant};

/// Writes a second.
const WRITES_PER_SECOND: u64 = 5;
/// A standby must hold each change within this of the primary's answer.
const LAG_LIMIT: Duration = Duration::from_millis(500);
/// The longest the bench waits for the standby to hold one change.
const GIVE_UP: Duration = Duration::from_secs(5);

/// One write as the bench made it.
struct Write {
    took: Duration,
    status: u16,
    /// What the answer said of the standby (`applied`, `behind`, or empty).
    standby: String,
    /// From the answer to the standby's file holding the change (None: not within [`GIVE_UP`]).
    lag: Option<Duration>,
}

/// Builds the event, runs both phases, reports the figures.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let (db, fresh, games) = live::event(dir, "standby");
    let (judge, pin) = live::judge(&db);
    let key = must(&db, &["--json", "standby", "key"]);
    let key: serde_json::Value = serde_json::from_str(key.trim()).expect("standby key --json");
    let key = key["key"].as_str().expect("a key").to_string();
    let copy = dir.join("standby-copy.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("standby-copy.db{suffix}")));
    }
    let seconds: u64 = std::env::var("MMJUDGE_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let rt = live::runtime();
    let mut cards = fresh.iter().cycle();
    let mut figures = Vec::new();
    for required in [false, true] {
        let primary = Server::start_args(&db, if required { &["--standby-required"] } else { &[] });
        let url = format!("http://{}", primary.addr);
        let started = Instant::now();
        let standby = Server::start_args(&copy, &["--standby-of", &url, "--key", &key]);
        caught_up(&db, &copy);
        if !required {
            let took = started.elapsed();
            out.push(Figure::time("standby: a new standby copies the event and catches up", took, secs(30)));
            eprintln!("bench: standby: caught up {:.2} s after it started", took.as_secs_f64());
        }
        // The copy is already whole in the second phase: the primary has heard the restarted standby only once its
        // new address is in the primary's file (before, `--standby-required` refuses a write, rightly).
        heard(&db, &standby.addr);
        let token = rt.block_on(live::login(&primary.addr, &judge, &pin));
        eprintln!(
            "bench: standby: {} s of writes, {}; load average {}",
            seconds,
            if required { "--standby-required" } else { "following asynchronously" },
            crate::load()
        );
        let writes = writes(&rt, &primary.addr, &token, &games, &mut cards, &db, &copy, Duration::from_secs(seconds));
        figures.push(WriteFigures { required, writes }.figures());
        drop(standby);
        drop(primary);
    }
    out.extend(added(&figures));
    for f in figures {
        out.extend(f);
    }
}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

/// The last change a file wrote (primary) or applied (standby).
fn seq(conn: &Connection) -> i64 {
    conn.query_row("SELECT seq FROM replication", [], |r| r.get(0)).unwrap_or(-1)
}

fn read_only(path: &Path) -> Option<Connection> {
    Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).ok()
}

/// Waits until the standby's file holds every change of the primary's.
fn caught_up(primary: &Path, standby: &Path) {
    let start = Instant::now();
    let p = read_only(primary).expect("the primary's file");
    while start.elapsed() < secs(120) {
        if let Some(s) = standby.exists().then(|| read_only(standby)).flatten()
            && seq(&s) >= 0
            && seq(&s) == seq(&p)
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the standby did not catch up within 120 s");
}

/// Waits until the primary's file names the standby at `addr` (it connected and said where it is).
fn heard(primary: &Path, addr: &str) {
    let start = Instant::now();
    let port = addr.rsplit(':').next().unwrap_or(addr).to_string();
    let p = read_only(primary).expect("the primary's file");
    while start.elapsed() < secs(30) {
        let url: Option<String> = p.query_row("SELECT standby_url FROM replication", [], |r| r.get(0)).ok().flatten();
        if url.is_some_and(|u| u.ends_with(&format!(":{port}"))) {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the primary did not hear its standby at {addr} within 30 s");
}

/// Notes at [`WRITES_PER_SECOND`], one at a time, each followed by the wait for the standby to hold it.
#[allow(clippy::too_many_arguments)]
fn writes<'a>(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    token: &str,
    games: &[Game],
    cards: &mut impl Iterator<Item = &'a (String, String)>,
    primary: &Path,
    standby: &Path,
    length: Duration,
) -> Vec<Write> {
    let p = read_only(primary).expect("the primary's file");
    let s = read_only(standby).expect("the standby's file");
    let every = Duration::from_millis(1000 / WRITES_PER_SECOND);
    let start = Instant::now();
    let mut done = Vec::new();
    let mut i = 0usize;
    while start.elapsed() < length {
        let next = start + every * i as u32;
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let g = &games[i % games.len()];
        let (card, cost) = cards.next().expect("fresh cards");
        let body = serde_json::json!({"table": g.table, "player": name(g.a), "cost": cost, "card": card});
        let sent = Instant::now();
        let answer = rt.block_on(live::post(addr, "/api/note", Some(token), &body));
        let answered = Instant::now();
        let status = answer.as_ref().map_or(0, |a| a.status);
        if status != 200 {
            eprintln!(
                "bench: standby: /api/note {body} → {status} {}",
                answer.as_ref().map(|a| a.body.as_str()).unwrap_or("")
            );
        }
        let standby_said = answer.map(|a| a.json()["standby"].as_str().unwrap_or("").to_string()).unwrap_or_default();
        let target = seq(&p);
        let mut lag = None;
        while answered.elapsed() < GIVE_UP {
            if seq(&s) >= target {
                lag = Some(answered.elapsed());
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        done.push(Write { took: answered - sent, status, standby: standby_said, lag });
        i += 1;
    }
    done
}

/// One phase's writes and the figures they give.
struct WriteFigures {
    required: bool,
    writes: Vec<Write>,
}

/// The figures of one phase, with its write times kept for [`added`].
struct Phase {
    figures: Vec<Figure>,
    p50: Duration,
    p99: Duration,
}

impl IntoIterator for Phase {
    type Item = Figure;
    type IntoIter = std::vec::IntoIter<Figure>;
    fn into_iter(self) -> Self::IntoIter {
        self.figures.into_iter()
    }
}

impl WriteFigures {
    fn figures(self) -> Phase {
        let mode = if self.required { "--standby-required" } else { "asynchronous" };
        let n = self.writes.len();
        let mut took: Vec<Duration> = self.writes.iter().map(|w| w.took).collect();
        took.sort();
        let mut lags: Vec<Duration> = self.writes.iter().filter_map(|w| w.lag).collect();
        lags.sort();
        let failed = self.writes.iter().filter(|w| w.status != 200).count();
        let missing = self.writes.iter().filter(|w| w.lag.is_none()).count();
        let (p50, p99) = (quantile(&took, 0.5), quantile(&took, 0.99));
        let mut figures = vec![
            Figure::time(format!("standby ({mode}): note write p50 ({n} writes, 5/s)"), p50, Duration::from_millis(50)),
            Figure::time(format!("standby ({mode}): note write p99"), p99, Duration::from_millis(100)),
            count(format!("standby ({mode}): writes failed or not 200"), failed, 0),
            Figure::time(format!("standby ({mode}): lag after the answer, p50"), quantile(&lags, 0.5), LAG_LIMIT),
            Figure::time(format!("standby ({mode}): lag after the answer, p99"), quantile(&lags, 0.99), LAG_LIMIT),
            count(format!("standby ({mode}): changes not on the standby within 5 s"), missing, 0),
        ];
        if self.required {
            let applied = self.writes.iter().filter(|w| w.standby == "applied").count();
            figures.push(count("standby (--standby-required): writes not answered \"applied\"", n - applied, 0));
        }
        Phase { figures, p50, p99 }
    }
}

/// What `--standby-required` adds to a write: the second phase's p50 and p99 less the first's.
fn added(phases: &[Phase]) -> Vec<Figure> {
    let [without, with] = phases else { return Vec::new() };
    let more = |a: Duration, b: Duration| a.saturating_sub(b);
    vec![
        Figure::time("standby: --standby-required adds to a write, p50", more(with.p50, without.p50), secs(1) / 20),
        Figure::time("standby: --standby-required adds to a write, p99", more(with.p99, without.p99), secs(1) / 10),
    ]
}
