//! Issue 28: `mmjudge serve` at 4,096 players over the venue's Wi-Fi, on loopback (a part of the `serve`
//! section). The release binary serves a 4,096-player event (round 4 playing, 2,048 tables); 2,000 phones hold
//! `GET /events` as the page `/pairings` does and 500 as `/me?name=...` does (each a player of a different table),
//! and each does what its page's script does with an event (`templates/web/app.js`): a phone on `/pairings` puts
//! a result's row in place (nothing fetched), a phone on `/me` fetches its page again (with the ETag it holds) for
//! a result at its own table and for a change without a table, and ignores the rest. Meanwhile pages load at 50 a
//! second on fresh connections (as a phone opening them: `Accept-Encoding: gzip, deflate, br`) and a judge records
//! 10 results a second (each sent on time, whatever the earlier ones take), for MMJUDGE_BENCH_SECONDS (60 by
//! default).
//!
//! Figures: the bytes the server sends per result, counted on the phones' sockets (the live streams' bytes after
//! `hello`, chunked and SSE framing included, keep-alives too, and the pages the results made phones fetch, headers
//! included, after compression), against 4 MB; every phone updated (the event in hand, or the page fetched) within
//! 1 s of the result's answer: the worst and the p99 over (result, phone) pairs, and the misses; page p99 against
//! 50 ms; the server's peak memory (VmHWM) against 200 MB, with its memory before the phones came and with them
//! connected (what each idle stream costs). The bench raises its own open-file limit (soft to hard); the server
//! raises its own (`web::kit::state`), and the part checks it holds the 2,500 streams.
//!
//! Run it alone: `MMJUDGE_BENCH_SERVE=4096 MMJUDGE_BENCH_SECONDS=60 cargo bench -- serve`.

use super::field::{self, Game, Plan, name};
use super::live::{self, Server, count, quantile};
use crate::Figure;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

/// Phones holding the live stream as `/pairings` does.
const ON_PAIRINGS: usize = 2_000;
/// Phones holding it as `/me` does.
const ON_ME: usize = 500;
/// Page loads a second.
const PAGES_PER_SECOND: u64 = 50;
/// Results a second.
const RESULTS_PER_SECOND: u64 = 10;
/// Every phone must be updated within this of the result's answer.
const UPDATE_LIMIT: Duration = Duration::from_secs(1);
/// What a phone's browser says it takes.
const ENCODINGS: &str = "gzip, deflate, br";

/// Builds the event, runs the load, reports the figures.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let files = raise_open_files();
    let plan = Plan { name: "venue4096", players: 4096, rounds: 4, playing: 1, libraries: true, settings: &[] };
    let db = field::new_event(dir, &plan);
    let games: Vec<Game> = field::fill(&db, &plan, |_, _, _| {}).into_iter().filter(|g| g.b.is_some()).collect();
    field::start_round(&db, plan.rounds, chrono::Utc::now() - chrono::Duration::minutes(10));
    let (judge, pin) = live::judge(&db);
    let seconds: u64 = std::env::var("MMJUDGE_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let server = Server::start(&db);
    let server_files = open_files(server.pid());
    eprintln!(
        "bench: serve4096: open files: the bench {files}, the server {server_files} (soft limits; {} streams)",
        ON_PAIRINGS + ON_ME
    );
    assert!(server_files > (ON_PAIRINGS + ON_ME + 200) as u64, "the server's open-file limit holds the streams");
    let addr = server.addr.clone();
    let rt = live::runtime();
    let token = rt.block_on(live::login(&addr, &judge, &pin));
    // The phones on /me: a player of every other table (so that some results are at a phone's own table).
    let mine: Vec<(u32, String)> = (0..ON_ME).map(|i| games[(i * 2) % games.len()].clone_seat()).collect();
    let pages = rt.block_on(Pages::load(&addr, &mine));
    let idle = memory_mb(server.pid(), "VmRSS");
    eprintln!("bench: serve4096: {ON_PAIRINGS} + {ON_ME} phones, {seconds} s; load average {}", crate::load());
    let cpu_before = server.cpu();
    let own_before = own_cpu();
    let run = rt.block_on(load(&addr, &token, &games, pages, server.pid(), Duration::from_secs(seconds)));
    let peak = server.peak_mb();
    let cpu = server.cpu().saturating_sub(cpu_before).as_secs_f64();
    drop(server);
    let own = own_cpu().saturating_sub(own_before).as_secs_f64();
    eprintln!(
        "bench: serve4096: the server used {cpu:.1} s of CPU, the bench's phones and pages {own:.1} s; load average {}",
        crate::load()
    );
    report(out, &run, idle, peak);
}

/// The soft limit of open files after raising it to the hard one (the bench holds 2,500 streams and the pages).
fn raise_open_files() -> u64 {
    let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return 0;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit { rlim_cur: lim.rlim_max, rlim_max: lim.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                lim.rlim_cur = lim.rlim_max;
            }
        }
    }
    lim.rlim_cur
}

impl Game {
    /// (table, seat A's name).
    fn clone_seat(&self) -> (u32, String) {
        (self.table, name(self.a))
    }
}

/// What the phones' pages are, as loaded once before the clock: the topics each listens to (its `data-watch`),
/// whether it shows the round's table rows (`table[data-round]`), and each `/me`'s ETag.
struct Pages {
    pairings_watch: Vec<String>,
    pairings_rows: bool,
    me_watch: Vec<String>,
    /// Per `/me` phone: (its table, its path, its ETag).
    me: Vec<(u32, String, String)>,
}

impl Pages {
    async fn load(addr: &str, mine: &[(u32, String)]) -> Pages {
        let pairings = fetch(addr, "/pairings", "", false).await;
        assert_eq!(pairings.status, 200, "/pairings");
        let mut me = Vec::new();
        let mut me_watch = Vec::new();
        for (table, who) in mine {
            let path = format!("/me?name={}", who.replace(' ', "%20"));
            let page = fetch(addr, &path, "", false).await;
            assert_eq!(page.status, 200, "{path}");
            assert!(page.text.contains(&format!("data-my-table=\"{table}\"")), "{path} shows table {table}");
            me_watch = watch(&page.text);
            me.push((*table, path, page.etag));
        }
        Pages {
            pairings_watch: watch(&pairings.text),
            pairings_rows: pairings.text.contains("<table data-round=\""),
            me_watch,
            me,
        }
    }
}

/// The topics a page's `data-watch` names.
fn watch(html: &str) -> Vec<String> {
    let at = html.find("data-watch=\"").map(|i| i + "data-watch=\"".len()).unwrap_or(html.len());
    let rest = &html[at..];
    rest[..rest.find('"').unwrap_or(0)].split_whitespace().map(String::from).collect()
}

/// An answer as a phone's socket got it: status, every byte read (head included), the body (decoded only when
/// sent uncompressed: the setup asks without Accept-Encoding), its ETag.
struct Got {
    status: u16,
    bytes: u64,
    text: String,
    etag: String,
}

/// One GET on a fresh connection, as a phone's browser sends it (`If-None-Match` when `etag` is not empty;
/// `Accept-Encoding` when `compressed`: the setup reads its pages plain).
async fn fetch(addr: &str, path: &str, etag: &str, compressed: bool) -> Got {
    let failed = Got { status: 0, bytes: 0, text: String::new(), etag: String::new() };
    let go = async {
        let s = TcpStream::connect(addr).await.ok()?;
        let mut req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
        if !etag.is_empty() {
            req.push_str(&format!("If-None-Match: {etag}\r\n"));
        }
        if compressed {
            req.push_str(&format!("Accept-Encoding: {ENCODINGS}\r\n"));
        }
        req.push_str("\r\n");
        live::write_all(&s, req.as_bytes()).await.ok()?;
        let mut raw = Vec::new();
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match live::read(&s, &mut buf).await.ok()? {
                0 => break,
                n => raw.extend_from_slice(&buf[..n]),
            }
        }
        let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(raw.len());
        let head = String::from_utf8_lossy(&raw[..end]).to_string();
        let status = head.split_whitespace().nth(1)?.parse().ok()?;
        let etag = head
            .lines()
            .find_map(|l| l.strip_prefix("etag:").or_else(|| l.strip_prefix("ETag:")))
            .map(|v| v.trim().to_string())
            .unwrap_or_default();
        let text = String::from_utf8_lossy(raw.get(end + 4..).unwrap_or_default()).into_owned();
        Some(Got { status, bytes: raw.len() as u64, text, etag })
    };
    tokio::time::timeout(live::REQUEST_LIMIT, go).await.ok().flatten().unwrap_or(failed)
}

/// What one phone saw: when it was updated for each result table (the event in hand, or its page fetched), and
/// its bytes after `hello` (the stream's and the pages it fetched).
#[derive(Default)]
struct Phone {
    connected: bool,
    /// (table, updated at) for each `result` event; (0, at) for a change that made it read everything again.
    updated: Vec<(u32, Instant)>,
    stream_bytes: u64,
    fetched_bytes: u64,
    fetches: usize,
}

/// How a phone's page takes an event (see `templates/web/app.js`).
#[derive(Clone)]
struct Role {
    watch: Arc<Vec<String>>,
    /// The page shows the round's table rows (a result's row is put in place).
    rows: bool,
    /// `/me`: its table, its path and ETag (fetched again as the page does).
    me: Option<(u32, String, String)>,
}

async fn phone(
    n: usize,
    addr: String,
    role: Role,
    mut stop: tokio::sync::watch::Receiver<bool>,
    ready: tokio::sync::mpsc::Sender<()>,
) -> Phone {
    let mut out = Phone::default();
    let mut me = role.me.clone();
    let mut told = false;
    if let Some(s) = live::connect_as(n, &addr).await {
        let req = format!(
            "GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\nAccept-Encoding: {ENCODINGS}\r\n\r\n"
        );
        if live::write_all(&s, req.as_bytes()).await.is_ok() {
            let mut stream = live::Stream::default();
            let mut buf = vec![0u8; 4096];
            loop {
                let n = tokio::select! {
                    n = live::read(&s, &mut buf) => match n { Ok(0) | Err(_) => break, Ok(n) => n },
                    _ = stop.changed() => break,
                };
                if told {
                    out.stream_bytes += n as u64;
                }
                let at = Instant::now();
                for (topic, data) in stream.feed(&buf[..n]) {
                    if topic == "hello" {
                        if !told {
                            told = true;
                            out.connected = true;
                            let _ = ready.send(()).await;
                        }
                        continue;
                    }
                    if !role.watch.contains(&topic) {
                        continue;
                    }
                    let data: serde_json::Value = serde_json::from_str(&data).unwrap_or_default();
                    let table = data["table"].as_u64().map(|t| t as u32);
                    let row = data["row"].is_string();
                    // As app.js's `changed`: a row put in place; another table than a player's own, nothing;
                    // else the page fetched again.
                    let fetch_page = match (topic != "round", table) {
                        (true, Some(_)) if row && role.rows => false,
                        (true, Some(t)) => me.as_ref().is_none_or(|(mine, _, _)| *mine == t),
                        _ => true,
                    };
                    let mut done = at;
                    if fetch_page {
                        let (path, etag) = match &me {
                            Some((_, path, etag)) => (path.clone(), etag.clone()),
                            None => ("/pairings".to_string(), String::new()),
                        };
                        let got = fetch(&addr, &path, &etag, true).await;
                        done = Instant::now();
                        out.fetched_bytes += got.bytes;
                        out.fetches += 1;
                        if let Some((_, _, kept)) = me.as_mut().filter(|_| got.status == 200) {
                            *kept = got.etag;
                        }
                    }
                    if topic == "result" {
                        out.updated.push((table.unwrap_or(0), done));
                    } else if table.is_none() {
                        out.updated.push((0, done));
                    }
                }
            }
        }
    }
    if !told {
        let _ = ready.send(()).await;
    }
    out
}

/// One result as the judge's phone sent it.
struct Sent {
    table: u32,
    answered: Instant,
    status: u16,
}

/// One page load: its path's kind, how long it took, its status (0: no answer), its bytes.
struct Load {
    kind: usize,
    took: Duration,
    status: u16,
    bytes: u64,
}

/// What the load saw.
struct Run {
    phones: Vec<Phone>,
    results: Vec<Sent>,
    loads: Vec<Load>,
    /// The server's memory with every phone connected, before the clock (MB).
    connected_mb: f64,
    seconds: f64,
}

/// The pages loaded at [`PAGES_PER_SECOND`], in turn.
const PAGES: [&str; 6] = ["/", "/pairings", "/standings", "/me?name=", "/pairings?name=", "/standings?name="];

/// The load: phones first (all connected before the clock starts), then pages and results for `length`;
/// `server` is the server's process id (its memory is read with the phones connected).
async fn load(addr: &str, token: &str, games: &[Game], pages: Pages, server: u32, length: Duration) -> Run {
    let phones_n = ON_PAIRINGS + ON_ME;
    let (ready_tx, mut ready) = tokio::sync::mpsc::channel(phones_n);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let pairings = Role { watch: Arc::new(pages.pairings_watch), rows: pages.pairings_rows, me: None };
    let me_watch = Arc::new(pages.me_watch);
    let mut phones = Vec::new();
    for i in 0..phones_n {
        let role = match pages.me.get(i.wrapping_sub(ON_PAIRINGS)).filter(|_| i >= ON_PAIRINGS) {
            Some(m) => Role { watch: me_watch.clone(), rows: false, me: Some(m.clone()) },
            None => pairings.clone(),
        };
        phones.push(tokio::spawn(phone(i, addr.to_string(), role, stopped.clone(), ready_tx.clone())));
        // Not all at once: a venue's phones come in over minutes, not one millisecond.
        if i % 100 == 99 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    drop(ready_tx);
    for _ in 0..phones_n {
        if tokio::time::timeout(Duration::from_secs(60), ready.recv()).await.ok().flatten().is_none() {
            break;
        }
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let connected_mb = memory_mb(server, "VmRSS");
    let begun = Instant::now();
    let end = tokio::time::Instant::now() + length;
    let loads = tokio::spawn(page_loads(addr.to_string(), games.iter().map(|g| name(g.a)).collect(), end));
    let results = tokio::spawn(results(
        addr.to_string(),
        token.to_string(),
        games.iter().map(|g| (g.table, name(g.a))).collect(),
        end,
    ));
    let loads = loads.await.expect("the page loads");
    let results = results.await.expect("the results");
    let seconds = begun.elapsed().as_secs_f64();
    tokio::time::sleep(UPDATE_LIMIT * 3).await;
    let _ = stop.send(true);
    let mut seen = Vec::new();
    for p in phones {
        seen.push(p.await.unwrap_or_default());
    }
    Run { phones: seen, results, loads, connected_mb, seconds: seconds + 3.0 }
}

/// Page loads until `end`, each on a fresh connection, each on time whatever the others take.
async fn page_loads(addr: String, names: Vec<String>, end: tokio::time::Instant) -> Vec<Load> {
    let mut tick = tokio::time::interval(Duration::from_micros(1_000_000 / PAGES_PER_SECOND));
    let mut loads = Vec::new();
    let mut i = 0usize;
    while tick.tick().await < end {
        let kind = i % PAGES.len();
        let who = names[(i * 7) % names.len()].replace(' ', "%20");
        let path = if PAGES[kind].ends_with('=') { format!("{}{who}", PAGES[kind]) } else { PAGES[kind].to_string() };
        let addr = addr.clone();
        loads.push(tokio::spawn(async move {
            let started = Instant::now();
            let got = fetch(&addr, &path, "", true).await;
            Load { kind, took: started.elapsed(), status: got.status, bytes: got.bytes }
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

/// Results at the tables in turn until `end`, each sent on time whatever the others take.
async fn results(addr: String, token: String, tables: Vec<(u32, String)>, end: tokio::time::Instant) -> Vec<Sent> {
    let mut tick = tokio::time::interval(Duration::from_micros(1_000_000 / RESULTS_PER_SECOND));
    let mut sent = Vec::new();
    let mut i = 0usize;
    while tick.tick().await < end && i < tables.len() {
        let (table, winner) = tables[i].clone();
        let (addr, token) = (addr.clone(), token.clone());
        sent.push(tokio::spawn(async move {
            let body = serde_json::json!({"table": table, "winner": winner, "by": "life", "life": [7, 0]});
            let answer = live::post(&addr, "/api/result", Some(&token), &body).await;
            let status = answer.as_ref().map_or(0, |a| a.status);
            if status != 200 {
                eprintln!(
                    "bench: serve4096: result at table {table} → {status} {}",
                    answer.map(|a| a.body).unwrap_or_default()
                );
            }
            Sent { table, answered: Instant::now(), status }
        }));
        i += 1;
    }
    let mut done = Vec::new();
    for s in sent {
        if let Ok(s) = s.await {
            done.push(s);
        }
    }
    done
}

/// A memory figure of process `pid` (`VmRSS`, `VmHWM`) in MB, from /proc (0 where it cannot be read).
fn memory_mb(pid: u32, field: &str) -> f64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = text.lines().find_map(|l| l.strip_prefix(field)).unwrap_or_default();
    let kb: u64 = line.trim_start_matches(':').split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
    kb as f64 / 1024.0
}

/// The CPU time the bench itself has used so far (user and system), from /proc/self/stat.
fn own_cpu() -> Duration {
    let text = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = text.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after.split_whitespace().skip(11).take(2).filter_map(|t| t.parse::<u64>().ok()).sum();
    Duration::from_millis(ticks * 10)
}

/// The soft limit of open files of process `pid`, from /proc (0 where it cannot be read).
fn open_files(pid: u32) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap_or_default();
    let line = text.lines().find_map(|l| l.strip_prefix("Max open files")).unwrap_or_default();
    line.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0)
}

fn report(out: &mut Vec<Figure>, run: &Run, idle: f64, peak: f64) {
    let streams = ON_PAIRINGS + ON_ME;
    let connected = run.phones.iter().filter(|p| p.connected).count();
    out.push(count(format!("serve4096: phones on /events (of {streams}) not connected"), streams - connected, 0));
    let ok: Vec<&Sent> = run.results.iter().filter(|s| s.status == 200).collect();
    out.push(count(
        format!("serve4096: results failed (of {}, 10/s)", run.results.len()),
        run.results.len() - ok.len(),
        0,
    ));
    // Bytes per result: every byte the streams carried after hello, and every page the events made phones fetch.
    let stream: u64 = run.phones.iter().map(|p| p.stream_bytes).sum();
    let fetched: u64 = run.phones.iter().map(|p| p.fetched_bytes).sum();
    let fetches: usize = run.phones.iter().map(|p| p.fetches).sum();
    let per = |b: u64| b as f64 / ok.len().max(1) as f64;
    eprintln!(
        "bench: serve4096: per result: {:.0} B on the streams ({:.0} B a phone), {:.0} B of pages fetched ({:.2} fetches)",
        per(stream),
        per(stream) / connected.max(1) as f64,
        per(fetched),
        fetches as f64 / ok.len().max(1) as f64
    );
    out.push(Figure {
        what: format!("serve4096: bytes sent per result ({connected} phones)"),
        value: per(stream + fetched) / 1e6,
        target: 4.0,
        unit: "MB",
        at_least: false,
    });
    // Each result against each phone: updated within the limit of the answer.
    let mut late = Vec::new();
    let mut misses = 0usize;
    for s in &ok {
        for p in run.phones.iter().filter(|p| p.connected) {
            let first = p.updated.iter().find(|(t, at)| *t == s.table || (*t == 0 && *at > s.answered));
            match first {
                Some((_, at)) => {
                    let took = at.saturating_duration_since(s.answered);
                    if took > UPDATE_LIMIT {
                        misses += 1;
                    }
                    late.push(took);
                }
                None => misses += 1,
            }
        }
    }
    late.sort();
    let pairs = ok.len() * connected;
    out.push(Figure::time(
        "serve4096: phone updated after a result's answer, p99",
        quantile(&late, 0.99),
        UPDATE_LIMIT,
    ));
    out.push(Figure::time(
        "serve4096: phone updated after a result's answer, worst",
        late.last().copied().unwrap_or_default(),
        UPDATE_LIMIT,
    ));
    out.push(count(format!("serve4096: updates later than 1 s or missing (of {pairs})"), misses, 0));
    for (kind, page) in PAGES.iter().enumerate() {
        let mut times: Vec<Duration> = run.loads.iter().filter(|l| l.kind == kind).map(|l| l.took).collect();
        times.sort();
        let bytes: Vec<u64> = run.loads.iter().filter(|l| l.kind == kind).map(|l| l.bytes).collect();
        let mean = bytes.iter().sum::<u64>() / bytes.len().max(1) as u64;
        eprintln!(
            "bench: serve4096: {page:<18} p50 {:>6.1} ms  p99 {:>6.1} ms  {mean} B",
            quantile(&times, 0.5).as_secs_f64() * 1e3,
            quantile(&times, 0.99).as_secs_f64() * 1e3
        );
    }
    let mut times: Vec<Duration> = run.loads.iter().map(|l| l.took).collect();
    times.sort();
    let n = times.len();
    out.push(Figure::time(
        format!("serve4096: page load p50 ({n} loads, 50/s)"),
        quantile(&times, 0.5),
        Duration::from_millis(50),
    ));
    out.push(Figure::time("serve4096: page load p99", quantile(&times, 0.99), Duration::from_millis(50)));
    out.push(count("serve4096: page loads failed or not 200", run.loads.iter().filter(|l| l.status != 200).count(), 0));
    let pages: u64 = run.loads.iter().map(|l| l.bytes).sum();
    eprintln!("bench: serve4096: page loads: {:.0} KB a second on the wire", pages as f64 / run.seconds / 1e3);
    eprintln!(
        "bench: serve4096: server memory: {idle:.1} MB before the phones, {:.1} MB with {connected} connected, peak {peak:.1} MB: \
         {:.1} KB a stream connected, {:.1} KB a stream at the peak",
        run.connected_mb,
        (run.connected_mb - idle) * 1024.0 / connected.max(1) as f64,
        (peak - idle) * 1024.0 / connected.max(1) as f64
    );
    out.push(Figure {
        what: "serve4096: server peak memory (VmHWM)".into(),
        value: peak,
        target: 200.0,
        unit: "MB",
        at_least: false,
    });
}
