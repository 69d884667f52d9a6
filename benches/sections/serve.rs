//! Issue 16: `mmjudge serve` under a venue's load, on loopback. The release binary serves a 256-player event
//! (round 5 playing, libraries, notes, the full reference); for MMJUDGE_BENCH_SECONDS (60 by default) 500
//! phones stay on `GET /events` (each from its own loopback address, as each phone of a venue has one), pages load at 50 a second on fresh connections (`/`, `/pairings`,
//! `/standings`, `/me?name=...`, and with a judge's session cookie `/judge/table/N` and `/judge`), and a judge writes twice a
//! second with a bearer token (`POST /api/result` and `POST /api/note` in turn, one at a time).
//!
//! Figures: p50/p99 page time and p99 write time (send to last byte), the latest any phone received each
//! write's update (from when the write was sent; every phone must have it within 1 s: misses counted), and
//! the server's peak memory (VmHWM). The bench's own client shares the machine with the server.
//!
//! The section goes on with `serve_hostile` (phones that must not lock anyone out) and `serve_venue` (4,096
//! players, 2,500 phones on live streams: `MMJUDGE_BENCH_SERVE=4096 cargo bench -- serve` runs that part alone;
//! `MMJUDGE_BENCH_SERVE=256` runs the 256 players' part alone, for a before and after of the page loads).

use super::field::{self, Game, name};
use super::live::{self, Seen, Server, count, quantile};
use crate::Figure;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Phones on `/events`.
const PHONES: usize = 500;
/// Page loads a second.
const PAGES_PER_SECOND: u64 = 50;
/// Judge writes a second.
const WRITES_PER_SECOND: u64 = 2;
/// Every phone must have each update within this.
const UPDATE_LIMIT: Duration = Duration::from_secs(1);

/// One judge write as the bench made it.
struct Write {
    /// `result` or `note` (the live-update event it must cause).
    kind: &'static str,
    sent: Instant,
    took: Duration,
    /// The HTTP status (0: no answer).
    status: u16,
}

/// Builds the event, runs the load, reports the figures; then the hostile phones (`serve_hostile`) and the venue
/// at 4,096 players (`serve_venue`). `MMJUDGE_BENCH_SERVE=4096` runs the venue's part only.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let only = std::env::var("MMJUDGE_BENCH_SERVE").unwrap_or_default();
    if only == "4096" {
        super::serve_venue::run(dir, out);
        return;
    }
    let (db, fresh, games) = live::event(dir, "serve");
    let (judge, pin) = live::judge(&db);
    let seconds: u64 = std::env::var("MMJUDGE_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let server = Server::start(&db);
    let addr = server.addr.clone();
    let rt = live::runtime();
    let token = rt.block_on(live::login(&addr, &judge, &pin));
    let base = field::last_audit(&db);
    let cpu_before = server.cpu();
    eprintln!("bench: serve: {PHONES} phones, {seconds} s; load average {}", crate::load());
    let (loads, writes, phones) =
        rt.block_on(load(addr, token, Arc::new(games), Arc::new(fresh), Duration::from_secs(seconds)));
    let peak = server.peak_mb();
    let cpu = server.cpu().saturating_sub(cpu_before).as_secs_f64();
    eprintln!(
        "bench: serve: the server used {cpu:.1} s of CPU in the {seconds} s (+3 s) of load: {:.0}% of one core",
        100.0 * cpu / (seconds as f64 + 3.0)
    );
    let audit = field::audit_after(&db, base);
    drop(server);

    let limit = Duration::from_millis;
    explain(&loads);
    let failed_pages = loads.iter().filter(|l| l.status != 200).count();
    let mut page_times: Vec<Duration> = loads.iter().map(|l| l.took).collect();
    page_times.sort();
    let n = page_times.len();
    out.push(Figure::time(format!("serve: page load p50 ({n} loads, 50/s)"), quantile(&page_times, 0.5), limit(50)));
    out.push(Figure::time("serve: page load p99", quantile(&page_times, 0.99), limit(50)));
    out.push(count("serve: page loads failed or not 200", failed_pages, 0));
    let mut write_times: Vec<Duration> = writes.iter().map(|w| w.took).collect();
    write_times.sort();
    let failed_writes = writes.iter().filter(|w| w.status != 200).count();
    if let Some(first) = writes.first() {
        let mut slow: Vec<&Write> = writes.iter().collect();
        slow.sort_by_key(|w| std::cmp::Reverse(w.took));
        for w in slow.iter().take(5) {
            let at = w.sent.duration_since(first.sent).as_secs_f64();
            eprintln!("bench: serve: slow write: {} at {at:.2} s took {:.1} ms", w.kind, self::ms(w.took));
        }
    }
    out.push(Figure::time(
        format!("serve: judge write p99 ({} writes, 2/s)", writes.len()),
        quantile(&write_times, 0.99),
        limit(100),
    ));
    out.push(count("serve: judge writes failed or not 200", failed_writes, 0));
    let (worst, median_worst, misses, pairs) = deliveries(&writes, &audit, &phones);
    let connected = phones.iter().filter(|p| p.is_some()).count();
    out.push(count(format!("serve: phones on /events (of {PHONES}) not connected"), PHONES - connected, 0));
    out.push(Figure::time(format!("serve: update to all {PHONES} phones, median write"), median_worst, UPDATE_LIMIT));
    out.push(Figure::time(format!("serve: update to all {PHONES} phones, worst write"), worst, UPDATE_LIMIT));
    out.push(count(format!("serve: updates later than 1 s or missing (of {pairs})"), misses, 0));
    out.push(Figure {
        what: "serve: server peak memory (VmHWM)".into(),
        value: peak,
        target: 150.0,
        unit: "MB",
        at_least: false,
    });
    if only == "256" {
        return;
    }
    super::serve_hostile::run(dir, out);
    super::serve_venue::run(dir, out);
}

/// The load: phones first (all connected before the clock starts), then pages and writes for `length`.
/// Returns the page loads, the writes, and what each phone saw (None: never connected).
async fn load(
    addr: String,
    token: String,
    games: Arc<Vec<Game>>,
    fresh: Arc<Vec<(String, String)>>,
    length: Duration,
) -> (Vec<Load>, Vec<Write>, Vec<Option<Vec<Seen>>>) {
    let (ready_tx, mut ready) = tokio::sync::mpsc::channel(PHONES);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut phones = Vec::new();
    for n in 0..PHONES {
        phones.push(tokio::spawn(live::phone(n, addr.clone(), stopped.clone(), ready_tx.clone())));
    }
    drop(ready_tx);
    // Every phone has its `hello` (or failed) before the clock starts.
    for _ in 0..PHONES {
        if tokio::time::timeout(Duration::from_secs(60), ready.recv()).await.ok().flatten().is_none() {
            break;
        }
    }
    let start = tokio::time::Instant::now();
    let end = start + length;
    let pages = tokio::spawn(pages(addr.clone(), token.clone(), games.clone(), end));
    let writes = tokio::spawn(writes(addr.clone(), token, games, fresh, end));
    let loads = pages.await.expect("the page loads");
    let writes = writes.await.expect("the writes");
    // Give the last update its second (and some), then stop the phones.
    tokio::time::sleep(UPDATE_LIMIT * 3).await;
    let _ = stop.send(true);
    let mut seen = Vec::new();
    for p in phones {
        seen.push(p.await.ok().flatten());
    }
    (loads, writes, seen)
}

/// The pages loaded, in turn.
const PAGES: [&str; 6] = ["/", "/pairings", "/standings", "/me?name=", "/judge/table/N", "/judge"];

/// One page load: which of [`PAGES`], when it started (since the load began), how long it took, its status
/// (0: no answer).
pub struct Load {
    kind: usize,
    at: Duration,
    took: Duration,
    status: u16,
}

/// Page loads at [`PAGES_PER_SECOND`] until `end`, each on a fresh connection, whatever the answers take.
async fn pages(addr: String, token: String, games: Arc<Vec<Game>>, end: tokio::time::Instant) -> Vec<Load> {
    let cookie = format!("mmjudge_session={token}");
    let mut tick = tokio::time::interval(Duration::from_micros(1_000_000 / PAGES_PER_SECOND));
    let begun = Instant::now();
    let mut loads = Vec::new();
    let mut i = 0usize;
    while tick.tick().await < end {
        let game = &games[(i * 7) % games.len()];
        let kind = i % PAGES.len();
        let path = match kind {
            3 => format!("/me?name={}", name(game.a).replace(' ', "%20")),
            4 => format!("/judge/table/{}", game.table),
            _ => PAGES[kind].to_string(),
        };
        let (addr, cookie) = (addr.clone(), cookie.clone());
        loads.push(tokio::spawn(async move {
            let started = Instant::now();
            let answer = live::request(&addr, "GET", &path, &[("Cookie", &cookie)], "").await;
            let took = started.elapsed();
            Load { kind, at: started - begun, took, status: answer.map_or(0, |a| a.status) }
        }));
        i += 1;
    }
    let mut done = Vec::new();
    for l in loads {
        if let Ok(load) = l.await {
            done.push(load);
        }
    }
    done
}

/// Per page: p50 and p99; then the slowest loads and when they started (a stall of the whole machine shows
/// as many pages slow at once).
fn explain(loads: &[Load]) {
    for (kind, page) in PAGES.iter().enumerate() {
        let mut times: Vec<Duration> = loads.iter().filter(|l| l.kind == kind).map(|l| l.took).collect();
        times.sort();
        let (p50, p99) = (quantile(&times, 0.5), quantile(&times, 0.99));
        eprintln!("bench: serve: {page:<16} p50 {:>6.1} ms  p99 {:>6.1} ms", ms(p50), ms(p99));
    }
    let mut slow: Vec<&Load> = loads.iter().collect();
    slow.sort_by_key(|l| std::cmp::Reverse(l.took));
    for l in slow.iter().take(8) {
        eprintln!("bench: serve: slow: {} at {:.2} s took {:.1} ms", PAGES[l.kind], l.at.as_secs_f64(), ms(l.took));
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Judge writes at [`WRITES_PER_SECOND`] until `end`, one at a time (so their audit entries come in the
/// order sent): results at the first half of the tables, declarations of fresh cards at the second half.
async fn writes(
    addr: String,
    token: String,
    games: Arc<Vec<Game>>,
    fresh: Arc<Vec<(String, String)>>,
    end: tokio::time::Instant,
) -> Vec<Write> {
    let mut tick = tokio::time::interval(Duration::from_millis(1000 / WRITES_PER_SECOND));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let half = games.len() / 2;
    let (mut results, mut notes) = (0usize, 0usize);
    let mut done = Vec::new();
    let mut i = 0usize;
    while tick.tick().await < end {
        // Each write at another point of the server's 250 ms look at the file (97 ms apart modulo 250): at a
        // steady 2 a second every write of a run would meet the same point, and the run's median update time
        // would be that one point's (runs of the same tree differed by 100 ms).
        tokio::time::sleep(Duration::from_millis((i as u64 * 97) % 250)).await;
        let (kind, path, body) = if i.is_multiple_of(2) && results < half {
            let g = &games[results];
            results += 1;
            let body = serde_json::json!({"table": g.table, "winner": name(g.a), "by": "life", "life": [7, 0]});
            ("result", "/api/result", body)
        } else {
            let g = &games[half + notes % (games.len() - half)];
            let (card, cost) = &fresh[notes % fresh.len()];
            notes += 1;
            let body = serde_json::json!({"table": g.table, "player": name(g.a), "cost": cost, "card": card});
            ("note", "/api/note", body)
        };
        let sent = Instant::now();
        let answer = live::post(&addr, path, Some(&token), &body).await;
        let status = answer.as_ref().map_or(0, |a| a.status);
        if status != 200 {
            eprintln!("bench: serve: {path} {body} → {status} {}", answer.map(|a| a.body).unwrap_or_default());
        }
        done.push(Write { kind, sent, took: sent.elapsed(), status });
        i += 1;
    }
    done
}

/// Matches each write that succeeded with its audit entry (in order), then finds when each phone first saw
/// an event of its kind carrying that entry's id or a later one (a `round` event with id 0 tells a phone
/// that fell behind to reload everything: it counts for what was sent before it). Returns the worst and the
/// median (over writes) of the latest phone, the (write, phone) pairs over [`UPDATE_LIMIT`] or never seen,
/// and the number of pairs.
fn deliveries(
    writes: &[Write],
    audit: &[(i64, String)],
    phones: &[Option<Vec<Seen>>],
) -> (Duration, Duration, usize, usize) {
    let mut ids = audit.iter().filter(|(_, c)| c.starts_with("POST /api/result") || c.starts_with("POST /api/note"));
    let phones: Vec<&Vec<Seen>> = phones.iter().flatten().collect();
    let mut latest = Vec::new();
    let (mut misses, mut pairs) = (0, 0);
    for w in writes.iter().filter(|w| w.status == 200) {
        let Some((id, _)) = ids.next() else { break };
        let mut worst = Duration::ZERO;
        for seen in &phones {
            pairs += 1;
            let first = seen
                .iter()
                .find(|s| (s.name == w.kind && s.id >= *id) || (s.name == "round" && s.id == 0 && s.at > w.sent));
            match first {
                Some(s) => {
                    let took = s.at.saturating_duration_since(w.sent);
                    worst = worst.max(took);
                    if took > UPDATE_LIMIT {
                        misses += 1;
                    }
                }
                None => {
                    misses += 1;
                    worst = Duration::MAX;
                }
            }
        }
        latest.push(worst);
    }
    latest.sort();
    let cap = |d: Duration| d.min(Duration::from_secs(3600));
    (cap(latest.last().copied().unwrap_or_default()), cap(quantile(&latest, 0.5)), misses, pairs)
}
