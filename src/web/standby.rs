//! The primary's routes for its standby (see docs/http.md, "The standby's routes"): the log of changes after a
//! seq as a stream of JSON lines, a full copy of the event, the standby's acknowledgements, and who this
//! server is (an old primary asks the promoted standby).

use crate::error::Error;
use crate::ops::standby::{self as ops_standby, follow};
use crate::store::{Store, replication};
use crate::web::kit::error::{ApiError, blocking};
use crate::web::kit::state::Shared;
use crate::web::kit::store::Db;
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::time::{Duration, Instant};

/// How often the log stream looks for new changes at least (a write of this server wakes it at once).
const POLL: Duration = Duration::from_millis(5);
/// How often it says it is alive while nothing changes.
const HEARTBEAT: Duration = Duration::from_secs(1);
/// The most changes one look sends.
const BATCH: i64 = 256;

/// The key (or a stream's token) a request carries as `Authorization: Bearer KEY`.
fn bearer(headers: &HeaderMap) -> Result<String, ApiError> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty())
        .ok_or_else(|| Error::unauthorized("no standby key: send it as Authorization: Bearer KEY").into())
}

/// `?after=SEQ&advertise=URL` of the log stream.
#[derive(Debug, serde::Deserialize)]
pub struct After {
    after: i64,
    advertise: Option<String>,
}

/// `GET /api/standby/log?after=SEQ`: the head line, then every change after SEQ as it is written (one JSON line
/// each), and a heartbeat line a second while nothing changes. The key is checked once, here.
pub async fn log(db: Db, headers: HeaderMap, Query(q): Query<After>) -> Response {
    match open_log(db, &headers, q).await {
        Ok(res) => res,
        Err(e) => e.into_response(),
    }
}

async fn open_log(db: Db, headers: &HeaderMap, q: After) -> Result<Response, ApiError> {
    let key = bearer(headers)?;
    let after = q.after;
    let advertise = q.advertise.filter(|a| a.starts_with("http://") && a.len() < 200);
    let state = db
        .run(move |store| {
            ops_standby::check_key(store, &key)?;
            if let Some(url) = &advertise {
                store.bookkeep(|tx| replication::standby_at(tx, url))?;
            }
            let reaches = store.read(|c| replication::reaches(c, after))?;
            Ok((store.read(replication::state)?, reaches))
        })
        .await?;
    let (s, reaches) = state;
    let from = if reaches { format!("from change {after}") } else { "a full copy first".to_string() };
    eprintln!("standby: connected ({from}; this laptop is at change {})", s.seq);
    let app = db.app().clone();
    let token = crate::ops::judges::random_hex(16);
    if let Ok(mut streams) = app.replica.streams.lock() {
        streams.insert(token.clone());
    }
    let head = follow::Head {
        event: s.event_id.clone(),
        schema: crate::store::schema_version(),
        generation: s.generation,
        seq: s.seq,
        reaches,
        stream: token.clone(),
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    let first = line(&head);
    let path = app.db.clone();
    std::thread::Builder::new()
        .name("standby-log".into())
        .spawn(move || {
            if tx.blocking_send(Ok(first)).is_ok() && reaches {
                let _ = feed(&path, after, s.generation, &tx, &app.replica);
            }
            if let Ok(mut streams) = app.replica.streams.lock() {
                streams.remove(&token);
            }
            if reaches {
                eprintln!("standby: its stream ended (it reconnects by itself while it runs)");
            }
        })
        .map_err(|e| ApiError::internal_because("the standby's stream could not start", e.to_string()))?;
    let body = Body::from_stream(tokio_stream::wrappers::ReceiverStream::new(rx));
    let mut res = Response::new(body);
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}

fn line<T: serde::Serialize>(value: &T) -> Bytes {
    let mut text = serde_json::to_string(value).unwrap_or_default();
    text.push('\n');
    Bytes::from(text)
}

/// Sends every change after `sent` as it is written, until the standby goes (or the primary's generation
/// moves on: a promoted file no longer feeds anyone).
fn feed(
    path: &std::path::Path,
    mut sent: i64,
    generation: i64,
    tx: &tokio::sync::mpsc::Sender<Result<Bytes, std::io::Error>>,
    replica: &crate::web::kit::replica::Replica,
) -> crate::error::Result<()> {
    let store = Store::open(path)?;
    let mut version = -1;
    let mut spoke = Instant::now();
    loop {
        let now_version = store.data_version()?;
        if now_version != version {
            version = now_version;
            loop {
                let entries = store.read(|c| replication::after(c, sent, BATCH))?;
                if entries.is_empty() {
                    break;
                }
                for e in entries {
                    if e.seq != sent + 1 || e.generation != generation {
                        return Ok(()); // a gap (pruned) or a new generation: the standby asks again
                    }
                    let l = follow::Line {
                        seq: e.seq,
                        generation: Some(e.generation),
                        at: Some(e.at),
                        changeset: Some(follow::hex(&e.changeset)),
                    };
                    if tx.blocking_send(Ok(line(&l))).is_err() {
                        return Ok(());
                    }
                    sent = e.seq;
                    spoke = Instant::now();
                }
            }
        }
        if spoke.elapsed() >= HEARTBEAT {
            let s = store.read(replication::state)?;
            if s.key_hash.is_none() || s.generation != generation {
                return Ok(()); // the key was revoked, or this file promoted since
            }
            let beat = follow::Line { seq: s.seq, generation: None, at: None, changeset: None };
            if tx.blocking_send(Ok(line(&beat))).is_err() {
                return Ok(());
            }
            spoke = Instant::now();
        }
        replica.wait_for_write(POLL);
    }
}

/// `GET /api/standby/copy`: a consistent copy of the whole event file (SQLite's backup into a temporary file,
/// then sent).
pub async fn copy(db: Db, headers: HeaderMap) -> Result<Response, ApiError> {
    let key = bearer(&headers)?;
    let bytes = db
        .run(move |store| {
            ops_standby::check_key(store, &key)?;
            let dir = tempfile_dir(store.path());
            let temp = dir.join(format!(".mmjudge-standby-copy-{}.db", crate::ops::judges::random_hex(8)));
            store.snapshot_to(&temp)?;
            let bytes = std::fs::read(&temp).map_err(|e| Error::io(&temp, e));
            let _ = std::fs::remove_file(&temp);
            bytes
        })
        .await?;
    let mut res = Response::new(Body::from(bytes));
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/vnd.sqlite3"));
    Ok(res)
}

fn tempfile_dir(db: &std::path::Path) -> std::path::PathBuf {
    match db.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    }
}

/// `POST /api/standby/ack` `{"seq"}` with the stream's token: the standby applied every change up to seq.
#[derive(Debug, serde::Deserialize)]
pub struct Ack {
    seq: i64,
}

/// `POST /api/standby/ack`.
pub async fn ack(State(app): State<Shared>, headers: HeaderMap, Json(a): Json<Ack>) -> Result<Response, ApiError> {
    let token = bearer(&headers)?;
    let known = app.replica.streams.lock().map(|s| s.contains(&token)).unwrap_or(false);
    if !known {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, "no such standby stream: open the log again"));
    }
    let path = app.db.clone();
    let seq = a.seq;
    blocking(move || {
        let mut store = Store::open(&path)?;
        let at = ops_standby::stamp_now();
        store.bookkeep(|tx| replication::ack(tx, seq, &at))
    })
    .await?;
    app.replica.acknowledged(seq);
    Ok(Json(serde_json::json!({ "ok": true, "seq": seq })).into_response())
}

/// `GET /api/standby/whoami`: this server's event, generation and role (and, on a standby, its primary).
pub async fn whoami(db: Db) -> Result<Json<serde_json::Value>, ApiError> {
    let following = db.app().replica.following();
    let s = db.run(|store| store.read(replication::state)).await?;
    let role = if following.is_some() { "standby" } else { s.role.as_str() };
    Ok(Json(serde_json::json!({
        "event": s.event_id,
        "generation": s.generation,
        "role": role,
        "standby_of": following,
    })))
}

/// `GET /api/standby/status`: how far behind the standby is, as `mmjudge standby status --json` says it, with what
/// this server knows beyond its file: whom it follows (a standby), whether writes wait for the standby and whether
/// it is marked behind (a primary). No key needed: pages and dashboards read it.
pub async fn status(db: Db) -> Result<Json<serde_json::Value>, ApiError> {
    let app = db.app().clone();
    let status = db.run(|store| ops_standby::status(store, crate::time::now()?)).await?;
    let mut doc = serde_json::to_value(&status).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    if let Some(obj) = doc.as_object_mut() {
        let following = app.replica.following();
        obj.insert("following".into(), json_of(following));
        obj.insert("standby_required".into(), serde_json::Value::Bool(app.replica.required));
        let behind = app.replica.behind.load(std::sync::atomic::Ordering::Relaxed);
        obj.insert("marked_behind".into(), serde_json::Value::Bool(behind));
    }
    Ok(Json(doc))
}

fn json_of(text: Option<String>) -> serde_json::Value {
    text.map_or(serde_json::Value::Null, serde_json::Value::String)
}
