//! Issue 17: the table's own device, on the serve bench's event (256 players, round 5 playing, the full
//! reference). Completion `GET /api/cards/cost?cost=..&table=N&q=..` (p50 and p99 of many costs and typed
//! beginnings, each on a fresh connection: < 30 ms), and a declaration (`POST /api/note` with a player's
//! code) reaching the opponent's device: from the tap until the opponent's `/events` stream says `note`,
//! and until the device has reloaded the sheet holding it (`GET /api/table/N/notes`): < 500 ms.

use super::field::{Game, name};
use super::live::{self, Server, Stream, quantile};
use crate::Figure;
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// Completions timed.
const COMPLETIONS: usize = 300;
/// Declarations timed.
const DECLARATIONS: usize = 40;

/// Builds the event, starts the server and times both.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let (db, fresh, games) = live::event(dir, "device");
    let codes = live::codes(&db);
    let server = Server::start(&db);
    let rt = live::runtime();
    let ms = Duration::from_millis;

    let mut times = rt.block_on(completions(&server.addr, &games, &fresh));
    times.sort();
    let what = format!("device: completion /api/cards/cost p50 ({} asked)", times.len());
    out.push(Figure::time(what, quantile(&times, 0.5), ms(30)));
    out.push(Figure::time("device: completion p99", quantile(&times, 0.99), ms(30)));

    let (mut event, mut sheet) = rt.block_on(declarations(&server.addr, &games, &fresh, &codes));
    event.sort();
    sheet.sort();
    let what = format!("device: declaration → opponent's /events, p50 ({})", event.len());
    out.push(Figure::time(what, quantile(&event, 0.5), ms(500)));
    out.push(Figure::time("device: declaration → opponent's /events, worst", quantile(&event, 1.0), ms(500)));
    out.push(Figure::time("device: declaration → opponent's sheet reloaded, p50", quantile(&sheet, 0.5), ms(500)));
    out.push(Figure::time("device: declaration → opponent's sheet reloaded, worst", quantile(&sheet, 1.0), ms(500)));
    drop(server);
}

/// Asks for completions of many printed costs (the fresh cards' own), typed beginnings (none, one letter,
/// three letters, a whole word) and tables; every answer must be 200 and hold names.
async fn completions(addr: &str, games: &[Game], fresh: &[(String, String)]) -> Vec<Duration> {
    let mut times = Vec::new();
    for i in 0..COMPLETIONS {
        let (card, cost) = &fresh[(i * 13) % fresh.len()];
        let word = card.split(' ').next().unwrap_or_default();
        let typed: String = match i % 4 {
            0 => String::new(),
            1 => word.chars().take(1).collect(),
            2 => word.chars().take(3).collect(),
            _ => word.to_string(),
        };
        let table = games[i % games.len()].table;
        let path = format!("/api/cards/cost?cost={}&table={table}&q={}", escape(cost), escape(&typed));
        let started = Instant::now();
        let answer = live::request(addr, "GET", &path, &[], "").await;
        times.push(started.elapsed());
        let answer = answer.unwrap_or_else(|| panic!("{path}: no answer"));
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
    }
    times
}

/// Declarations by seat A's player with their code, each at another table, while the opponent's device
/// listens on `/events`: (until the event, until the sheet holding the card was read).
async fn declarations(
    addr: &str,
    games: &[Game],
    fresh: &[(String, String)],
    codes: &[String],
) -> (Vec<Duration>, Vec<Duration>) {
    let (tx, mut events) = mpsc::unbounded_channel();
    let listener = tokio::spawn(listen(addr.to_string(), tx));
    // The opponent's device is on the stream before the first tap.
    while let Some((_, name, _)) = events.recv().await {
        if name == "hello" {
            break;
        }
    }
    let (mut to_event, mut to_sheet) = (Vec::new(), Vec::new());
    let mut last = 0;
    for i in 0..DECLARATIONS {
        let g = &games[(i * 5) % games.len()];
        // Cards from the end of the fresh ones: the serve bench's judges declare from the start.
        let (card, cost) = &fresh[fresh.len() - 1 - i];
        let body = serde_json::json!({
            "table": g.table, "code": codes[g.a], "cost": cost, "card": card, "client_id": format!("bench-{i}"),
        });
        let sent = Instant::now();
        let answer = live::post(addr, "/api/note", None, &body).await.expect("POST /api/note answered");
        assert_eq!(answer.status, 200, "declaration {body}: {}", answer.body);
        let seen = loop {
            let Some((at, name, id)) = events.recv().await else { panic!("the opponent's stream closed") };
            if name == "note" && id > last {
                last = id;
                break at;
            }
        };
        to_event.push(seen.saturating_duration_since(sent));
        let sheet = live::request(addr, "GET", &format!("/api/table/{}/notes", g.table), &[], "").await;
        let sheet = sheet.expect("the sheet answered");
        assert!(sheet.status == 200 && sheet.body.contains(card.as_str()), "{} has {card}", name(g.b.unwrap_or(0)));
        to_sheet.push(sent.elapsed());
    }
    listener.abort();
    (to_event, to_sheet)
}

/// Reads `/events` and passes on each event as it arrives: (when, name, id).
async fn listen(addr: String, tx: mpsc::UnboundedSender<(Instant, String, i64)>) {
    let Ok(s) = TcpStream::connect(&addr).await else { return };
    let req = format!("GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    if live::write_all(&s, req.as_bytes()).await.is_err() {
        return;
    }
    let mut stream = Stream::default();
    let mut buf = vec![0u8; 4096];
    while let Ok(n @ 1..) = live::read(&s, &mut buf).await {
        let at = Instant::now();
        for (name, data) in stream.feed(&buf[..n]) {
            if tx.send((at, name, live::event_id(&data))).is_err() {
                return;
            }
        }
    }
}

/// A query value with what a URL cannot hold as is escaped.
fn escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
