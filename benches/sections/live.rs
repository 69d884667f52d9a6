//! What the `serve` and `device` sections share: a realistic live event, the release binary serving it on
//! 127.0.0.1 (a free port), a small HTTP/1.1 client over tokio's TcpStream (raw requests: the bench needs
//! only GET and POST with a few headers, and the phones' `/events` streams read as they arrive; no client
//! crate, and tokio's readiness calls rather than its `io-util` feature, so nothing new is compiled), and
//! figures from lists of times.

use super::field::{self, Game, Plan};
use crate::{Figure, must, reference};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

/// The longest any single request may take before it counts as failed.
pub const REQUEST_LIMIT: Duration = Duration::from_secs(10);

/// The live event: 256 players, rounds 1-4 finished, round 5 playing (started ten minutes ago), fixed
/// libraries, the full reference, 12 template notes of real cards a game. Returns the file and the cards
/// kept out of the prefilled notes (name, printed cost) for the timed declarations, and the games playing.
pub fn event(dir: &Path, name: &'static str) -> (PathBuf, Vec<(String, String)>, Vec<Game>) {
    let plan = Plan { name, players: 256, rounds: 5, playing: 1, libraries: true, settings: &[] };
    let db = field::new_event(dir, &plan);
    must(&db, &["cards", "import", &reference().to_string_lossy()]);
    let cards = field::declarable(&db, 4000);
    let (prefill, fresh) = cards.split_at(cards.len() / 2);
    let games = field::fill(&db, &plan, |tx, rng, game| field::judged(tx, rng, game, prefill, 12));
    field::start_round(&db, plan.rounds, chrono::Utc::now() - chrono::Duration::minutes(10));
    (db, fresh.to_vec(), games.into_iter().filter(|g| g.b.is_some()).collect())
}

/// A head judge for the bench: (name, PIN).
pub fn judge(db: &Path) -> (String, String) {
    let out = must(db, &["--json", "judge", "add", "Bench Head", "--role", "head"]);
    let doc: serde_json::Value = serde_json::from_str(out.trim()).expect("judge add --json");
    ("Bench Head".into(), doc["pin"].as_str().expect("a PIN").to_string())
}

/// Every player's code, by player index from 0.
pub fn codes(db: &Path) -> Vec<String> {
    let out = must(db, &["--json", "player", "codes"]);
    let doc: serde_json::Value = serde_json::from_str(out.trim()).expect("player codes --json");
    let players = doc["players"].as_array().expect("players");
    players.iter().map(|p| p["code"].as_str().expect("a code").to_string()).collect()
}

/// `mmjudge serve --bind 127.0.0.1:0` on the event, stopped (killed) when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Starts the release binary (or `MMJUDGE_BENCH_BIN`) and waits for the address it prints.
    pub fn start(db: &Path) -> Server {
        Server::start_under(db, &[])
    }

    /// [`Server::start`] with more options after `serve --bind 127.0.0.1:0` (`--standby-of URL`, ...).
    pub fn start_args(db: &Path, args: &[&str]) -> Server {
        Server::spawn(db, &[], args)
    }

    /// [`Server::start`] through a wrapper command (`prlimit --nofile=1024:1024`), when `wrapper` names one.
    pub fn start_under(db: &Path, wrapper: &[&str]) -> Server {
        Server::spawn(db, wrapper, &[])
    }

    fn spawn(db: &Path, wrapper: &[&str], args: &[&str]) -> Server {
        // The build timed (MMJUDGE_BENCH_BIN names an earlier one, for a before and after on the same files).
        let program = crate::program();
        let bin = program.as_os_str();
        let mut command = match wrapper.split_first() {
            Some((first, rest)) => {
                let mut c = Command::new(first);
                c.args(rest).arg(bin);
                c
            }
            None => Command::new(bin),
        };
        let mut child = command
            .env("MMJUDGE_DB", db)
            .env("MMJUDGE_JUDGE", "bench")
            .env("NO_COLOR", "1")
            .env_remove("MMJUDGE_NOW")
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start mmjudge serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let addr = lines
            .by_ref()
            .take(10)
            .map_while(|l| l.ok())
            .find_map(|l| l.trim().strip_prefix("http://").map(|a| a.trim_end_matches('/').to_string()))
            .expect("the server printed its address");
        // Keep reading what the server prints so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Server { child, addr }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's peak resident memory so far (VmHWM), in MB.
    pub fn peak_mb(&self) -> f64 {
        let text = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let hwm = text.lines().find(|l| l.starts_with("VmHWM:"));
        let kb: u64 = hwm.and_then(|l| l.split_whitespace().nth(1)).and_then(|n| n.parse().ok()).unwrap_or(0);
        kb as f64 / 1024.0
    }
}

impl Server {
    /// The CPU time the server has used so far (user and system), from /proc/PID/stat.
    pub fn cpu(&self) -> Duration {
        let text = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // The fields after the command name (in parentheses): utime and stime are the 12th and 13th.
        let after = text.rsplit_once(')').map_or("", |(_, rest)| rest);
        let ticks: u64 = after.split_whitespace().skip(11).take(2).filter_map(|t| t.parse::<u64>().ok()).sum();
        Duration::from_millis(ticks * 10)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An answer: status and body (de-chunked).
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Answer {
    /// The body as JSON (Null when it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// One request on a fresh connection (`Connection: close`, as a phone loading a page); `headers` as
/// `("Name", "value")`. Fails after [`REQUEST_LIMIT`].
pub async fn request(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Option<Answer> {
    let go = async {
        let s = TcpStream::connect(addr).await.ok()?;
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        write_all(&s, req.as_bytes()).await.ok()?;
        let mut raw = Vec::new();
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match read(&s, &mut buf).await.ok()? {
                0 => break,
                n => raw.extend_from_slice(&buf[..n]),
            }
        }
        parse(&raw)
    };
    tokio::time::timeout(REQUEST_LIMIT, go).await.ok().flatten()
}

/// A POST of JSON, with a bearer token when given.
pub async fn post(addr: &str, path: &str, token: Option<&str>, body: &serde_json::Value) -> Option<Answer> {
    let bearer = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(b) = &bearer {
        headers.push(("Authorization", b.as_str()));
    }
    request(addr, "POST", path, &headers, &body.to_string()).await
}

/// A judge's bearer token (`POST /api/login`).
pub async fn login(addr: &str, name: &str, pin: &str) -> String {
    let answer = post(addr, "/api/login", None, &serde_json::json!({ "name": name, "pin": pin })).await;
    let answer = answer.expect("POST /api/login answered");
    assert_eq!(answer.status, 200, "login: {}", answer.body);
    answer.json()["token"].as_str().expect("a token").to_string()
}

/// Writes all of `bytes` as the socket takes them.
pub async fn write_all(s: &TcpStream, bytes: &[u8]) -> std::io::Result<()> {
    let mut done = 0;
    while done < bytes.len() {
        s.writable().await?;
        match s.try_write(&bytes[done..]) {
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Reads what has arrived (0 at the end of the stream), waiting until something has.
pub async fn read(s: &TcpStream, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        s.readable().await?;
        match s.try_read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
}

fn parse(raw: &[u8]) -> Option<Answer> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&raw[..end]).to_string();
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    let mut rest = &raw[end + 4..];
    let body = if chunked {
        let mut out = Vec::new();
        while let Some((size, after)) = chunk(rest) {
            if size == 0 || after.len() < size {
                break;
            }
            out.extend_from_slice(&after[..size]);
            rest = after.get(size + 2..).unwrap_or_default();
        }
        out
    } else {
        rest.to_vec()
    };
    Some(Answer { status, body: String::from_utf8_lossy(&body).into_owned() })
}

/// A chunk's size line: (size, what follows the line), once the whole line is there.
fn chunk(bytes: &[u8]) -> Option<(usize, &[u8])> {
    let line = bytes.windows(2).position(|w| w == b"\r\n")?;
    let text = std::str::from_utf8(&bytes[..line]).ok()?;
    let size = usize::from_str_radix(text.split(';').next()?.trim(), 16).ok()?;
    Some((size, &bytes[line + 2..]))
}

/// One server-sent event as a phone saw it: when, its name, its data (the audit id).
pub struct Seen {
    pub at: Instant,
    pub name: String,
    pub id: i64,
}

/// A connection to the server from phone `n`'s own address: each phone of a venue has one (127.1.x.y on
/// Linux, where the whole of 127/8 is the loopback), as the server bounds the live streams of one address
/// (`--streams-per-address`). Elsewhere every phone comes from 127.0.0.1.
pub async fn connect_as(n: usize, addr: &str) -> Option<TcpStream> {
    if cfg!(target_os = "linux") {
        let to: std::net::SocketAddr = addr.parse().ok()?;
        let from = std::net::Ipv4Addr::new(127, 1, (n / 250 % 250) as u8, (n % 250 + 1) as u8);
        let socket = tokio::net::TcpSocket::new_v4().ok()?;
        socket.bind(std::net::SocketAddr::new(from.into(), 0)).ok()?;
        socket.connect(to).await.ok()
    } else {
        TcpStream::connect(addr).await.ok()
    }
}

/// Phone `n` on `GET /events` (from its own address, [`connect_as`]): `ready` is told once `hello` arrives (or
/// the stream failed); reads until `stop` turns true, then returns what it saw (None when the stream never
/// opened).
pub async fn phone(
    n: usize,
    addr: String,
    mut stop: tokio::sync::watch::Receiver<bool>,
    ready: tokio::sync::mpsc::Sender<()>,
) -> Option<Vec<Seen>> {
    let mut seen = Vec::new();
    let mut told = false;
    if let Some(s) = connect_as(n, &addr).await {
        let req = format!("GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
        if write_all(&s, req.as_bytes()).await.is_ok() {
            let mut stream = Stream::default();
            let mut buf = vec![0u8; 4096];
            loop {
                let n = tokio::select! {
                    n = read(&s, &mut buf) => match n { Ok(0) | Err(_) => break, Ok(n) => n },
                    _ = stop.changed() => break,
                };
                let at = Instant::now();
                for (name, data) in stream.feed(&buf[..n]) {
                    if name == "hello" {
                        if !told {
                            told = true;
                            let _ = ready.send(()).await;
                        }
                        continue;
                    }
                    seen.push(Seen { at, name, id: event_id(&data) });
                }
            }
        }
    }
    if !told {
        let _ = ready.send(()).await;
        return None;
    }
    Some(seen)
}

/// The parser of a `/events` answer fed as bytes arrive: head, chunks, then `event:`/`data:` blocks.
#[derive(Default)]
pub struct Stream {
    raw: Vec<u8>,
    head_done: bool,
    text: String,
}

impl Stream {
    /// Takes more bytes; returns the complete events (name, data) they finish.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<(String, String)> {
        self.raw.extend_from_slice(bytes);
        if !self.head_done {
            let Some(end) = self.raw.windows(4).position(|w| w == b"\r\n\r\n") else { return Vec::new() };
            self.raw.drain(..end + 4);
            self.head_done = true;
        }
        while let Some((size, after)) = chunk(&self.raw) {
            if after.len() < size + 2 {
                break;
            }
            self.text.push_str(&String::from_utf8_lossy(&after[..size]));
            let used = self.raw.len() - after.len() + size + 2;
            self.raw.drain(..used);
        }
        let mut out = Vec::new();
        while let Some(end) = self.text.find("\n\n") {
            let block: String = self.text.drain(..end + 2).collect();
            let (mut name, mut data) = (String::new(), String::new());
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event:") {
                    name = v.trim().to_string();
                } else if let Some(v) = line.strip_prefix("data:") {
                    data = v.trim().to_string();
                }
            }
            if !name.is_empty() {
                out.push((name, data));
            }
        }
        out
    }
}

/// The audit id an event's data names: JSON `{"id", "topic", ...}` (or a bare id, as older servers sent).
pub fn event_id(data: &str) -> i64 {
    let data = data.trim();
    serde_json::from_str::<serde_json::Value>(data)
        .ok()
        .and_then(|v| v.get("id").and_then(serde_json::Value::as_i64).or_else(|| v.as_i64()))
        .unwrap_or_else(|| data.parse().unwrap_or(0))
}

/// The value at quantile `q` (0.5, 0.99) of sorted times; zero when there are none.
pub fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

/// A count against a ceiling (misses, failures).
pub fn count(what: impl Into<String>, value: usize, target: usize) -> Figure {
    Figure { what: what.into(), value: value as f64, target: target as f64, unit: "", at_least: false }
}

/// A tokio runtime for the bench's own side (the phones and the clients).
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime")
}
