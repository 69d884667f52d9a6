//! Issue 27, within `cargo bench -- serve`: a hostile phone must not lock anyone out. Two loads on loopback,
//! other addresses (127.0.0.x) standing for other phones (Linux; elsewhere the section says it is skipped):
//!
//! - a login storm: 200 wrong logins at once from 40 addresses; figures: the server's peak memory (VmHWM, under
//!   150 MB), logins not answered 401, 429 or 503, and the judge's own login right after from their phone, which
//!   logged in before the storm (its device cookie; the storm spends the PIN's budget over every address, so a
//!   new phone would wait; it must be 200);
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

/// One login from `from` (with a device cookie when given): the status (0: no answer) and the device cookie
/// the answer set, if any.
async fn login_as(
    from: IpAddr,
    addr: String,
    name: String,
    pin: String,
    device: Option<String>,
) -> (u16, Option<String>) {
    let go = async {
        let s = connect(from, &addr).await?;
        let body = serde_json::json!({ "name": name, "pin": pin }).to_string();
        let cookie = device.map(|c| format!("Cookie: {c}\r\n")).unwrap_or_default();
        let req = format!(
            "POST /api/login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n{cookie}Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        live::write_all(&s, req.as_bytes()).await.ok()?;
        let mut head = Vec::new();
        let mut buf = [0u8; 1024];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16_384 {
            let n = live::read(&s, &mut buf).await.ok()?;
            if n == 0 {
                break;
            }
            head.extend_from_slice(&buf[..n]);
        }
        let head = String::from_utf8_lossy(&head).into_owned();
        let status = head.split_whitespace().nth(1)?.parse().ok()?;
        let device = head.lines().find_map(|l| {
            let (name, value) = l.split_once(':')?;
            let value = value.trim();
            (name.eq_ignore_ascii_case("set-cookie") && value.starts_with("mmjudge_device="))
                .then(|| value.split(';').next().unwrap_or(value).to_string())
        });
        Some((status, device))
    };
    tokio::time::timeout(Duration::from_secs(30), go).await.ok().flatten().unwrap_or((0, None))
}

/// One wrong login from `from`: the status (0: no answer).
async fn login(from: IpAddr, addr: String, name: String, pin: String) -> u16 {
    login_as(from, addr, name, pin, None).await.0
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
    // The judge's own phone logged in before the storm (as on event day): the server knows it by its device
    // cookie, and a storm that spends the PIN's budget of wrong tries over every address never holds it back.
    let (first, device) = rt.block_on(login_as(ip(200), server.addr.clone(), judge.clone(), pin.clone(), None));
    if first != 200 || device.is_none() {
        eprintln!("bench: serve: the judge's first login answered {first} (device cookie: {})", device.is_some());
    }
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
    let own = rt.block_on(login_as(ip(200), server.addr.clone(), judge.clone(), pin.clone(), device)).0;
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
    out.push(count(
        "serve: login storm: the judge's own phone (logged in before) refused right after",
        usize::from(own != 200),
        0,
    ));

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
