//! The primary's routes for its standby (see docs/http.md, "The standby's routes"): the log of changes after a
//! seq as a stream of JSON lines, a full copy of the event, the standby's acknowledgements, and who this
//! server is (an old primary asks the promoted standby).

use crate::error::Error;
use crate::ops::standby as ops_standby;
use crate::replica::wire;
use crate::store::replication;
use crate::web::kit::body::NoFields;
use crate::web::kit::extract::Payload;
use crate::web::kit::request::Answer;
use crate::web::kit::request::ApiError;
use crate::web::kit::state::Db;
use crate::web::kit::state::Shared;
use crate::web::kit::write;
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

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

/// `?after=SEQ&follower=ID&advertise=URL` of the log stream.
#[derive(Debug, serde::Deserialize)]
pub struct After {
    after: i64,
    follower: Option<String>,
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
    // Kept with the stream, and advertised only once this standby acknowledges (a standby that refuses the
    // primary, another event's, never does).
    let advertise = q.advertise.filter(|a| a.starts_with("http://") && a.len() < 200);
    let follower = q
        .follower
        .filter(|f| !f.is_empty() && f.len() <= 64 && f.chars().all(|c| c.is_ascii_alphanumeric()))
        .unwrap_or_else(|| crate::ops::judges::random_hex(8));
    key_checked(&db, &key).await?;
    let state = db
        .run(move |store| {
            let reaches = store.read(|c| replication::reaches(c, after))?;
            Ok((store.read(replication::state)?, reaches))
        })
        .await?;
    let (s, reaches) = state;
    let app = db.app().clone();
    let key_hash = s.key_hash.clone().unwrap_or_default();
    if let Some(first) = app.replica.other_holder(&follower, &key_hash) {
        let at = first.stream.advertise.as_deref().map_or(String::new(), |a| format!(" at {a}"));
        tracing::warn!(target: crate::replica::LOG, "standby: REFUSED a second standby ({follower}): {} follows with this key", first.stream.follower);
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "another standby follows this event with this key: the one that names itself {}{at}, heard {} ms ago; \
                 one standby per key: stop this one, or to move the second laptop here the primary's head judge ends \
                 the key (standby key --revoke) and makes a new one (standby key)",
                first.stream.follower,
                first.heard.elapsed().as_millis()
            ),
        ));
    }
    let from = if reaches { format!("from change {after}") } else { "a full copy first".to_string() };
    tracing::info!(target: crate::replica::LOG, "standby: connected ({follower}, {from}; this laptop is at change {})", s.seq);
    let token = crate::ops::judges::random_hex(16);
    if let Ok(mut streams) = app.replica.streams.lock() {
        let stream = crate::replica::state::Stream { follower, advertise, key_hash: key_hash.clone() };
        streams.insert(token.clone(), stream);
    }
    let head = wire::Head {
        event: s.event_id.clone(),
        schema: crate::store::schema_version(),
        generation: s.generation,
        seq: s.seq,
        reaches,
        stream: token.clone(),
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    let first = Bytes::from(wire::head_line(&head));
    let path = app.db.clone();
    std::thread::Builder::new()
        .name("standby-log".into())
        .spawn(move || {
            if tx.blocking_send(Ok(first)).is_ok() && reaches {
                let fed = crate::replica::feed::feed(&path, after, (s.generation, &key_hash, &token), &tx, &app.replica);
                if let Err(e) = fed {
                    app.replica.failed();
                    tracing::error!(target: crate::replica::LOG, cause = %e, "standby: its stream stopped on a failure here (it reconnects by itself)");
                }
            }
            app.replica.end_stream(&token);
            if reaches {
                tracing::info!(target: crate::replica::LOG, "standby: its stream ended (it reconnects by itself while it runs)");
            }
        })
        .map_err(|e| ApiError::internal_because("the standby's stream could not start", e.to_string()))?;
    let body = Body::from_stream(tokio_stream::wrappers::ReceiverStream::new(rx));
    let mut res = Response::new(body);
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}

/// Checks a standby's key (see [`ops_standby::check_key_quickly`]): at most [`crate::web::kit::state::KEY_CHECKS`]
/// at once, the others waiting their turn (a storm of wrong keys from many addresses takes no more of the store's
/// threads than that, so every other page and write is answered meanwhile); a key in the fast form is read and
/// compared in one trip to the store, one kept in the old, slow form then takes a turn at hashing as a PIN does.
/// A try that waited its turn too long is answered 503.
async fn key_checked(db: &Db, key: &str) -> Result<(), ApiError> {
    let app = db.app().clone();
    let _turn = turn(&app.key_checks).await?;
    let quick = key.to_string();
    if db.run(move |store| ops_standby::check_key_quickly(store, &quick)).await? == ops_standby::KeyCheck::Right {
        return Ok(());
    }
    // The old form waits for a turn at hashing: its connection goes back to the kept ones meanwhile.
    db.give_back();
    let _hashing = turn(&app.hashing).await?;
    let key = key.to_string();
    db.run(move |store| ops_standby::check_key(store, &key)).await
}

/// A turn of `queue` (the key checks', or the PIN hashes' shared with the logins), or 503 once it waited
/// [`crate::web::kit::auth::HASH_WAIT`].
async fn turn(queue: &tokio::sync::Semaphore) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
    match tokio::time::timeout(crate::web::kit::auth::HASH_WAIT, queue.acquire()).await {
        Ok(Ok(turn)) => Ok(turn),
        _ => Err(ApiError::busy("too many standby keys checked at once", 2)),
    }
}

/// `GET /api/standby/copy`: a consistent copy of the whole event file (SQLite's backup into a temporary file,
/// then sent).
pub async fn copy(db: Db, headers: HeaderMap) -> Result<Response, ApiError> {
    let key = bearer(&headers)?;
    key_checked(&db, &key).await?;
    let bytes = db
        .run(move |store| {
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
pub async fn ack(
    State(app): State<Shared>,
    db: Db,
    headers: HeaderMap,
    Json(a): Json<Ack>,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?;
    let stream = app.replica.streams.lock().ok().and_then(|s| s.get(&token).cloned());
    let Some(stream) = stream else {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, "no such standby stream: open the log again"));
    };
    if app.replica.other_holder(&stream.follower, &stream.key_hash).is_some() {
        app.replica.end_stream(&token);
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "another standby holds this event's stream: open the log again",
        ));
    }
    let seq = a.seq;
    // The key is checked on every acknowledgement (a new key ends the streams of the old one); the file notes one
    // at most once a second (`Replica::note_due`), or at once when the standby's address changed.
    let note = app.replica.note_due();
    let latest = db
        .run(move |store| {
            let s = store.read(replication::state)?;
            if s.key_hash.as_deref() != Some(stream.key_hash.as_str()) {
                return Err(Error::unauthorized("the standby key this stream was opened with ended"));
            }
            let moved = s.standby_url != stream.advertise;
            if note || moved {
                let at = ops_standby::stamp_now();
                store.bookkeep(|tx| {
                    replication::ack(tx, seq, &at)?;
                    // The standby that holds the stream and acknowledged is the one phones and an old primary are
                    // told.
                    if moved {
                        replication::standby_at(tx, stream.advertise.as_deref())?;
                    }
                    Ok(())
                })?;
            }
            Ok(s.seq)
        })
        .await;
    let latest = match latest {
        Ok(latest) => latest,
        Err(e) => {
            app.replica.end_stream(&token);
            return Err(e);
        }
    };
    if app.replica.hold(&token).is_none() {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, "no such standby stream: open the log again"));
    }
    app.replica.acknowledged(seq, latest);
    Ok(Json(serde_json::json!({ "ok": true, "seq": seq })).into_response())
}

/// `GET /api/standby/whoami`: this server's event, generation and role (and, on a standby, its primary).
pub async fn whoami(db: Db) -> Result<Json<wire::Whoami>, ApiError> {
    let following = db.app().replica.following();
    let s = db.run(|store| store.read(replication::state)).await?;
    // An earlier copy not yet marked a standby of the primary it follows is one all the same.
    let unmarked = following.is_some() && s.primary_url.is_none();
    let role = if unmarked { replication::Role::Standby } else { s.role };
    Ok(Json(wire::Whoami { event: s.event_id, generation: s.generation, role, standby_of: following }))
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
        let failures = app.replica.failures.load(std::sync::atomic::Ordering::Relaxed);
        obj.insert("background_failures".into(), serde_json::Value::from(failures));
    }
    Ok(Json(doc))
}

fn json_of(text: Option<String>) -> serde_json::Value {
    text.map_or(serde_json::Value::Null, serde_json::Value::String)
}

/// `POST /api/standby/detach` (head judges; a floor judge 403), JSON or the dashboard's form: the second laptop
/// is gone for good, as `mmjudge standby detach`: its key ends and writes go on alone, answered `"standby": "none"`.
pub async fn detach(judge: crate::web::kit::auth::Judge, p: Payload<NoFields>) -> Response {
    let by = judge.judge.name.clone();
    write::judge(judge, Some("detaching the second laptop"), p, move |store, actor, _| {
        let out = ops_standby::sync::detach(store, actor)?;
        let alone = "every write is recorded on this laptop alone from now on";
        tracing::warn!(target: crate::replica::LOG, "THE SECOND LAPTOP IS DETACHED (by {by}): {alone}");
        Answer::ok(&format!("the second laptop is detached: {alone}"))
            .with(&serde_json::json!({ "detached_at": out.detached_at, "standby": "none" }))
    })
    .await
}
