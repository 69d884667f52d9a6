//! Issue 44, `cargo bench -- serve-bounds` (and with the `serve` section's name): the long attack loops of the bounds no phone can break, on loopback
//! with other addresses (127.0.x.y) standing for other phones (Linux; elsewhere the section says it is skipped):
//!
//! - 256 wrong standby keys at once on a primary with a standby key, `/api/time` sampled every 50 ms meanwhile:
//!   its p99 (under 100 ms: the key is a fast keyed hash, no PIN queue);
//! - a storm of 2,000 logins for names that are no judge's from 500 addresses, and meanwhile 10 logins with a
//!   judge's right PIN from the phone that logged in before: the slowest of the 10 (under 2 s, all in);
//! - the players' codes print at 100,000 players, every part of 500 fetched in turn: the slowest part (under the
//!   10 s limit) and the server's memory growth (`VmHWM` over its size before, under 100 MB); then two parts at
//!   once with a judge's write meanwhile (answered, under 2 s).

use super::field::{self, Plan};
use super::live::{self, Server, count, quantile};
use crate::{Figure, must};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;

/// The `n`th phone's address (127.0.5.1, ...).
fn phone(n: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 5 + (n / 250) as u8, 1 + (n % 250) as u8))
}

/// One request from `from`, `Connection: close`: the status (0: no answer within 30 s) and the head.
async fn send_from(from: IpAddr, addr: &str, head: &str, body: &str) -> (u16, String) {
    let go = async {
        let to: SocketAddr = addr.parse().ok()?;
        let socket = TcpSocket::new_v4().ok()?;
        socket.bind(SocketAddr::new(from, 0)).ok()?;
        let s = socket.connect(to).await.ok()?;
        let req = format!("{head}Host: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}", body.len());
        live::write_all(&s, req.as_bytes()).await.ok()?;
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        while !got.windows(4).any(|w| w == b"\r\n\r\n") && got.len() < 16_384 {
            let n = live::read(&s, &mut buf).await.ok()?;
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        let text = String::from_utf8_lossy(&got).into_owned();
        Some((text.split_whitespace().nth(1)?.parse().ok()?, text))
    };
    tokio::time::timeout(Duration::from_secs(30), go).await.ok().flatten().unwrap_or((0, String::new()))
}

/// A login from `from`, with a device cookie when given: the status and the device cookie the answer set.
async fn login(from: IpAddr, addr: String, name: String, pin: String, device: Option<String>) -> (u16, Option<String>) {
    let body = serde_json::json!({ "name": name, "pin": pin }).to_string();
    let cookie = device.map(|c| format!("Cookie: {c}\r\n")).unwrap_or_default();
    let head = format!("POST /api/login HTTP/1.1\r\nContent-Type: application/json\r\n{cookie}");
    let (status, text) = send_from(from, &addr, &head, &body).await;
    let set = text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        let v = v.trim();
        (k.eq_ignore_ascii_case("set-cookie") && v.starts_with("mmjudge_device="))
            .then(|| v.split(';').next().unwrap_or(v).to_string())
    });
    (status, set)
}

/// Samples `GET /api/time` every 50 ms until `until`: each answer's time (10 s for none).
async fn sample_time(addr: String, until: Instant) -> Vec<Duration> {
    let start = Instant::now();
    let mut took = Vec::new();
    while Instant::now() < until {
        let t = Instant::now();
        let ok = live::request(&addr, "GET", "/api/time", &[], "").await.is_some_and(|a| a.status == 200);
        took.push((t - start, if ok { t.elapsed() } else { live::REQUEST_LIMIT }));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    took.sort_by_key(|(_, d)| std::cmp::Reverse(*d));
    for (at, d) in took.iter().take(3) {
        eprintln!("bench: serve: slow /api/time: at {:.2} s took {:.1} ms", at.as_secs_f64(), d.as_secs_f64() * 1000.0);
    }
    let mut took: Vec<Duration> = took.into_iter().map(|(_, d)| d).collect();
    took.sort();
    took
}

/// Runs the three loads and reports their figures.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    if !cfg!(target_os = "linux") {
        eprintln!("bench: serve: the bounds of issue 44 are skipped (they need Linux's loopback addresses)");
        return;
    }
    let rt = live::runtime();
    let plan = Plan { name: "bounds", players: 64, rounds: 2, playing: 1, libraries: false, settings: &[] };
    let db = field::new_event(dir, &plan);
    let (judge, pin) = live::judge(&db);
    must(&db, &["standby", "key"]);
    let server = Server::start(&db);
    let addr = server.addr.clone();

    // 256 wrong standby keys at once, /api/time sampled meanwhile.
    let times = rt.block_on(async {
        let until = Instant::now() + Duration::from_secs(3);
        let sampler = tokio::spawn(sample_time(addr.clone(), until));
        let keys: Vec<_> = (0..256)
            .map(|i| {
                let addr = addr.clone();
                tokio::spawn(async move {
                    let head = format!(
                        "GET /api/standby/log?after=0&follower=bench{i} HTTP/1.1\r\nAuthorization: Bearer {:048x}\r\n",
                        i + 1
                    );
                    send_from(phone(i), &addr, &head, "").await.0
                })
            })
            .collect();
        let mut refused = 0;
        for k in keys {
            if k.await.unwrap_or(0) == 401 {
                refused += 1;
            }
        }
        (sampler.await.unwrap_or_default(), refused)
    });
    let (samples, refused) = times;
    let p99 = if samples.is_empty() { live::REQUEST_LIMIT } else { quantile(&samples, 0.99) };
    eprintln!(
        "bench: serve: 256 wrong standby keys ({refused} answered 401): /api/time p99 {p99:?} over {}",
        samples.len()
    );
    out.push(Figure::time("serve: 256 wrong standby keys at once: /api/time p99", p99, Duration::from_millis(100)));
    out.push(count("serve: 256 wrong standby keys at once: not answered 401", 256 - refused, 0));

    // The judge's phone logs in before; then a storm of logins for names that are no judge's.
    let (first, device) = rt.block_on(login(phone(900), addr.clone(), judge.clone(), pin.clone(), None));
    if first != 200 {
        eprintln!("bench: serve: the judge's first login answered {first}");
    }
    let (slowest, refused) = rt.block_on(async {
        let storm: Vec<_> = (0..2000)
            .map(|i| {
                let addr = addr.clone();
                tokio::spawn(login(phone(i % 500), addr, format!("Nobody {i}"), format!("{:06}", i), None))
            })
            .collect();
        let mut slowest = Duration::ZERO;
        let mut refused = 0;
        for _ in 0..10 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let t = Instant::now();
            let (status, _) = login(phone(901), addr.clone(), judge.clone(), pin.clone(), device.clone()).await;
            slowest = slowest.max(t.elapsed());
            refused += usize::from(status != 200);
        }
        for s in storm {
            let _ = s.await;
        }
        (slowest, refused)
    });
    eprintln!("bench: serve: 10 logins of a judge during 2,000 unknown names: slowest {slowest:?}, {refused} refused");
    out.push(Figure::time(
        "serve: a judge's login during 2,000 unknown names (slowest of 10)",
        slowest,
        Duration::from_secs(2),
    ));
    out.push(count("serve: a judge's logins during 2,000 unknown names: not in", refused, 0));
    drop(server);

    codes_print(dir, &rt, out);
}

/// The players' codes print at 100,000 players, part by part, then two parts at once with a write.
fn codes_print(dir: &Path, rt: &tokio::runtime::Runtime, out: &mut Vec<Figure>) {
    let plan = Plan { name: "codes", players: 100_000, rounds: 1, playing: 1, libraries: false, settings: &[] };
    let (db, _) = field::build(dir, &plan, |_, _, _| {});
    let (judge, pin) = live::judge(&db);
    // A code for every player, as adding them gives one (the big event's rows are written directly).
    let conn = rusqlite::Connection::open(&db).expect("the event");
    conn.execute(
        "INSERT OR IGNORE INTO player_code (player_id, code) SELECT id, printf('%06d', id * 7919 % 1000000) FROM player",
        [],
    )
    .expect("the codes");
    drop(conn);
    let server = Server::start(&db);
    let addr = server.addr.clone();
    let token = rt.block_on(live::login(&addr, &judge, &pin));
    let auth = format!("Bearer {token}");
    let before = server.peak_mb();
    let parts = 100_000usize.div_ceil(500);
    let mut slowest = Duration::ZERO;
    let mut failed = 0;
    for part in 1..=parts {
        let t = Instant::now();
        let got = rt.block_on(live::request(
            &addr,
            "GET",
            &format!("/judge/print/codes?part={part}"),
            &[("Authorization", &auth)],
            "",
        ));
        slowest = slowest.max(t.elapsed());
        match got {
            Some(a) if a.status == 200 => {}
            other => {
                if failed == 0 {
                    let said = other.map(|a| format!("{} {}", a.status, a.body.chars().take(200).collect::<String>()));
                    eprintln!("bench: serve: codes part {part}: {said:?}");
                }
                failed += 1;
            }
        }
    }
    let grew = server.peak_mb() - before;
    eprintln!(
        "bench: serve: the codes print at 100,000 players: {parts} parts, slowest {slowest:?}, {failed} failed, memory +{grew:.0} MB"
    );
    out.push(Figure::time("serve: codes print at 100,000 players: slowest part of 500", slowest, live::REQUEST_LIMIT));
    out.push(count("serve: codes print at 100,000 players: parts not answered", failed, 0));
    out.push(Figure {
        what: "serve: codes print at 100,000 players: memory growth (VmHWM)".into(),
        value: grew,
        target: 100.0,
        unit: "MB",
        at_least: false,
    });
    // Two parts at once, a judge's write meanwhile.
    let took =
        rt.block_on(async {
            let a = tokio::spawn({
                let (addr, auth) = (addr.clone(), auth.clone());
                async move {
                    live::request(&addr, "GET", "/judge/print/codes?part=7", &[("Authorization", &auth)], "").await
                }
            });
            let b = tokio::spawn({
                let (addr, auth) = (addr.clone(), auth.clone());
                async move {
                    live::request(&addr, "GET", "/judge/print/codes?part=8", &[("Authorization", &auth)], "").await
                }
            });
            tokio::time::sleep(Duration::from_millis(20)).await;
            let t = Instant::now();
            let body = serde_json::json!({ "table": 1, "text": "Ruling while two prints are drawn" });
            let ok = live::post(&addr, "/api/ruling", Some(&token), &body).await.is_some_and(|a| a.status == 200);
            let took = if ok { t.elapsed() } else { live::REQUEST_LIMIT };
            let _ = (a.await, b.await);
            took
        });
    drop(server);
    out.push(Figure::time("serve: a judge's write while two codes parts are drawn", took, Duration::from_secs(2)));
}
