//! Issue 27, within `cargo bench -- serve`: a hostile phone must not lock anyone out. Two loads on loopback,
//! other addresses (127.0.0.x) standing for other phones (Linux; elsewhere the section says it is skipped):
//!
//! - a login storm: 200 wrong logins at once from 40 addresses; figures: the server's peak memory (VmHWM, under
//!   150 MB), logins not answered 401, 429 or 503, and the judge's own login right after (from an address that
//!   sent no wrong PIN; it must be 200);
//! - 1,500 phones on `/events` against a server started under `prlimit --nofile=1024:4096` (a laptop's usual soft
//!   limit under a higher hard one): phones not connected (0), and a page load's time while they listen.

use super::field::{self, Plan};
use super::live::{self, Server, count};
use crate::Figure;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;

/// Logins in the storm.
const STORM: usize = 200;
/// Phones on the live stream under the soft limit of 1,024 open files.
const PHONES: usize = 1500;

fn ip(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

/// A connection from `from` to the server.
async fn connect(from: IpAddr, addr: &str) -> Option<tokio::net::TcpStream> {
    let to: SocketAddr = addr.parse().ok()?;
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::new(from, 0)).ok()?;
    socket.connect(to).await.ok()
}

/// One login from `from`: the status (0: no answer).
async fn login(from: IpAddr, addr: String, name: String, pin: String) -> u16 {
    let go = async {
        let s = connect(from, &addr).await?;
        let body = serde_json::json!({ "name": name, "pin": pin }).to_string();
        let req = format!(
            "POST /api/login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        live::write_all(&s, req.as_bytes()).await.ok()?;
        let mut buf = [0u8; 64];
        let n = live::read(&s, &mut buf).await.ok()?;
        String::from_utf8_lossy(&buf[..n]).split_whitespace().nth(1)?.parse().ok()
    };
    tokio::time::timeout(Duration::from_secs(30), go).await.ok().flatten().unwrap_or(0)
}

/// Runs both loads and reports their figures.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    if !cfg!(target_os = "linux") || std::process::Command::new("prlimit").arg("--version").output().is_err() {
        eprintln!("bench: serve: the login storm and 1,500 phones are skipped (they need Linux and prlimit)");
        return;
    }
    raise_own_limit();
    let plan = Plan { name: "hostile", players: 64, rounds: 3, playing: 1, libraries: false, settings: &[] };
    let db = field::new_event(dir, &plan);
    let (judge, pin) = live::judge(&db);
    let rt = live::runtime();

    let server = Server::start(&db);
    let started = Instant::now();
    let statuses = rt.block_on(async {
        let tasks: Vec<_> = (0..STORM)
            .map(|i| {
                let from = ip(10 + (i % 40) as u8);
                tokio::spawn(login(from, server.addr.clone(), judge.clone(), format!("{:06}", 100_000 + i)))
            })
            .collect();
        let mut all = Vec::new();
        for t in tasks {
            all.push(t.await.unwrap_or(0));
        }
        all
    });
    let took = started.elapsed();
    let peak = server.peak_mb();
    let of = |s: u16| statuses.iter().filter(|x| **x == s).count();
    eprintln!(
        "bench: serve: login storm of {STORM}: {} wrong, {} held back, {} busy in {:.1} s; peak {peak:.0} MB",
        of(401),
        of(429),
        of(503),
        took.as_secs_f64()
    );
    let own = rt.block_on(login(ip(200), server.addr.clone(), judge.clone(), pin.clone()));
    drop(server);
    out.push(Figure {
        what: format!("serve: login storm ({STORM} at once): server peak memory (VmHWM)"),
        value: peak,
        target: 150.0,
        unit: "MB",
        at_least: false,
    });
    let odd = statuses.iter().filter(|s| ![401, 429, 503].contains(*s)).count();
    out.push(count("serve: login storm: logins not answered 401, 429 or 503", odd, 0));
    out.push(count("serve: login storm: the judge's own login right after refused", usize::from(own != 200), 0));

    let server = Server::start_under(&db, &["prlimit", "--nofile=1024:4096"]);
    let (connected, page) = rt.block_on(phones(&server.addr));
    drop(server);
    eprintln!("bench: serve: {connected} of {PHONES} phones on /events under a soft limit of 1,024 open files");
    out.push(count(format!("serve: of {PHONES} phones at 1,024 files, not on /events"), PHONES - connected, 0));
    out.push(Figure::time(
        format!("serve: a page load with {PHONES} phones listening"),
        page,
        Duration::from_millis(50),
    ));
}

/// Opens [`PHONES`] live streams from 50 addresses, then loads a page; how many streams opened (200 and their
/// `hello`) and how long the page took.
async fn phones(addr: &str) -> (usize, Duration) {
    let mut open = Vec::new();
    for i in 0..PHONES {
        let Some(s) = connect(ip(10 + (i % 50) as u8), addr).await else { continue };
        let req = format!("GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
        if live::write_all(&s, req.as_bytes()).await.is_err() {
            continue;
        }
        let mut buf = [0u8; 256];
        let read = tokio::time::timeout(Duration::from_secs(10), live::read(&s, &mut buf)).await;
        if let Ok(Ok(n)) = read
            && buf[..n].starts_with(b"HTTP/1.1 200")
        {
            open.push(s);
        }
    }
    let started = Instant::now();
    let answer = live::request(addr, "GET", "/pairings", &[], "").await;
    let took = if answer.is_some_and(|a| a.status == 200) { started.elapsed() } else { live::REQUEST_LIMIT };
    (open.len(), took)
}

/// Lets the bench open as many sockets as its hard limit allows.
fn raise_own_limit() {
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 && lim.rlim_cur < lim.rlim_max {
            lim.rlim_cur = lim.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
    }
}
