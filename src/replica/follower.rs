//! The standby following its primary: a full copy first (and again when the primary's log no longer reaches
//! back to this file's last change), then every change of the log in order, one transaction each,
//! acknowledged as it goes; until this file is promoted.
//!
//! The log's lines are [`super::wire`]'s; `GET /api/standby/copy` answers the whole event file;
//! `POST /api/standby/ack` `{"seq"}` with the stream's token acknowledges (each change applied, and each heartbeat
//! with the last change applied here, so that the primary hears its standby every second even when nothing
//! changes). The acknowledgements go by one task on one kept connection ([`Acks`]): the changes applied while one
//! is on its way are acknowledged together by the next, and applying never waits for the primary's answer.

use super::client::{self, Url};
use super::wire::{Head, Line, Lines};
use crate::error::{Error, Result};
use crate::store::Store;
use crate::store::replication::{self, Role};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// What the standby follows, and with which key.
#[derive(Debug, Clone)]
pub struct Follow {
    /// The standby's own event file.
    pub db: PathBuf,
    /// The primary.
    pub primary: Url,
    /// The standby key.
    pub key: String,
    /// The address the standby advertises to the primary (for phones, and for an old primary to find the event).
    pub advertise: Option<String>,
    /// The id this standby names itself by (its file's: see [`follower_id`]); the primary takes one standby per
    /// key, and a reconnect of the same one.
    pub id: String,
}

/// The id the standby on `db` names itself by: the one its file keeps, else a new one (kept in the file once it
/// follows: its first copy, or the first stream it accepts; a file it refuses is left as it was).
pub fn follower_id(db: &Path) -> Result<String> {
    if db.exists()
        && let Some(id) = Store::open(db)?.read(replication::state)?.follower_id
    {
        return Ok(id);
    }
    use rand::RngExt;
    let mut rng = rand::rng();
    Ok((0..8).map(|_| format!("{:02x}", rng.random::<u8>())).collect())
}

/// Where the following stands, for the server (its writes, its terminal, its pages).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Progress {
    /// The last change applied here.
    pub applied: i64,
    /// The last change the primary announced.
    pub primary_seq: i64,
    /// When the primary was last heard (None: not yet).
    pub heard: Option<Instant>,
    /// This file was promoted: it follows no more and takes writes.
    pub promoted: bool,
    /// What went wrong last (empty: nothing).
    pub trouble: String,
}

/// How often, at most, the standby's file notes that its primary was heard while changes flow.
const NOTE_HEARD: Duration = Duration::from_secs(1);

/// How long the primary may stay silent on a stream before the standby reconnects (it speaks every second).
const SILENCE: Duration = Duration::from_secs(3);

/// Follows until this file is promoted (Ok) or the primary is refused for good (a different event, schema or a
/// stale generation: Err). Reconnects after every other failure, saying what went wrong in `progress`.
pub async fn run(follow: Follow, progress: watch::Sender<Progress>) -> Result<()> {
    // A change that does not apply (this copy differs from the primary's): the next round takes a full copy.
    let mut differs = false;
    loop {
        // A promotion is seen at once, even while a frozen primary holds a request open.
        let ended = tokio::select! {
            r = round(&follow, &progress, &mut differs) => r,
            p = until_promoted(&follow.db) => p.map(Some),
        };
        match ended {
            Ok(Some(())) => {
                progress.send_modify(|p| p.promoted = true);
                return Ok(());
            }
            Ok(None) => {}
            Err(e) if fatal(&e) => {
                progress.send_modify(|p| p.trouble = e.to_string());
                return Err(e);
            }
            Err(e) => progress.send_modify(|p| p.trouble = e.to_string()),
        }
        if promoted(&follow.db).await? {
            progress.send_modify(|p| p.promoted = true);
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

fn fatal(e: &Error) -> bool {
    matches!(e, Error::BadInput(_) | Error::Forbidden(_) | Error::Unauthorized(_) | Error::NotAnEvent { .. })
}

/// Whether the standby's file was promoted (a missing file was not, nor an earlier copy of the primary's).
async fn promoted(db: &Path) -> Result<bool> {
    if !db.exists() {
        return Ok(false);
    }
    let db = db.to_path_buf();
    // A primary's file that was a standby before (an earlier copy of a primary is not yet marked one).
    blocking(move || {
        let s = Store::open(&db)?.read(replication::state)?;
        Ok(s.role == Role::Primary && s.primary_url.is_some())
    })
    .await
}

/// Returns once the standby's file was promoted (looks every 200 ms).
async fn until_promoted(db: &Path) -> Result<()> {
    loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        if promoted(db).await? {
            return Ok(());
        }
    }
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| Error::refused(format!("the standby's worker stopped: {e}")))?
}

/// One stream: returns Some(()) once promoted, None when the stream ended (reconnect).
async fn round(follow: &Follow, progress: &watch::Sender<Progress>, differs: &mut bool) -> Result<Option<()>> {
    let mine = if follow.db.exists() { Some(local(&follow.db).await?) } else { None };
    if let Some(s) = &mine
        && s.role == Role::Primary
        && s.primary_url.is_some()
    {
        return Ok(Some(())); // promoted: it was a standby before
    }
    let after = mine.as_ref().map_or(0, |s| s.seq);
    let mut path =
        format!("{}?after={after}&follower={}", super::wire::LOG, crate::domain::text::url_query(&follow.id));
    if let Some(url) = &follow.advertise {
        path.push_str("&advertise=");
        path.push_str(&crate::domain::text::url_query(url));
    }
    // A primary that takes the connection but never answers (a frozen laptop) is asked again.
    let asked = tokio::time::timeout(SILENCE, client::send(&follow.primary, "GET", &path, Some(&follow.key), None));
    let res = asked.await.map_err(|_| Error::refused(format!("{} fell silent", follow.primary.text)))??;
    if !res.status().is_success() {
        return Err(refusal(res).await);
    }
    let mut body = axum::body::Body::new(res.into_body()).into_data_stream();
    let mut lines = Lines::default();
    let mut head: Option<Head> = None;
    let mut store: Option<Store> = None;
    let mut noted = Instant::now();
    let mut acks: Option<Acks> = None;
    loop {
        while let Some(text) = lines.next_line() {
            let Some(h) = &head else {
                let h = Head::read(&text)?;
                check_head(&h, mine.as_ref())?;
                if mine.is_none() || !h.reaches || *differs {
                    copy(follow, &h).await?;
                    *differs = false;
                    return Ok(None); // copied afresh: ask again from the copy's last change
                }
                store = Some(open_standby(&follow.db, &follow.primary.text, &follow.id).await?);
                let applied = local(&follow.db).await?.seq;
                progress.send_modify(|p| {
                    p.applied = applied;
                    p.primary_seq = h.seq;
                    p.heard = Some(Instant::now());
                    p.trouble.clear();
                });
                acks = Some(Acks::start(follow, &h.stream));
                if applied > h.seq {
                    let refusal = crate::error::Refusal::refused("this file holds changes its primary never made");
                    return Err(refusal.way_out(crate::error::WayOut::NewStandbyFile).into());
                }
                head = Some(h);
                continue;
            };
            match Line::read(&text)? {
                Line::Change { seq, generation, changeset: bytes, .. } => {
                    if generation != h.generation {
                        return Err(Error::forbidden(format!(
                            "the primary's change {seq} is of generation {generation}, its stream of {}: start the standby again",
                            h.generation
                        )));
                    }
                    let mut s = store.take().ok_or_else(|| Error::refused("the standby's file is not open"))?;
                    let (s, done) = blocking(move || {
                        let done = s.apply_change(seq, &bytes);
                        Ok((s, done))
                    })
                    .await?;
                    store = Some(s);
                    if let Err(e) = done {
                        if promoted(&follow.db).await? {
                            return Ok(Some(()));
                        }
                        *differs = true;
                        return Err(e);
                    }
                    progress.send_modify(|p| {
                        p.applied = seq;
                        p.primary_seq = p.primary_seq.max(seq);
                        p.heard = Some(Instant::now());
                    });
                    if noted.elapsed() >= NOTE_HEARD {
                        // While changes flow the primary sends no heartbeat: its changes say it is heard.
                        let at = stamp_now();
                        let mut s = store.take().ok_or_else(|| Error::refused("the standby's file is not open"))?;
                        let s = blocking(move || {
                            s.bookkeep(|tx| match replication::state(tx)?.role {
                                Role::Standby => replication::heard(tx, seq, &at),
                                Role::Primary => Ok(()),
                            })?;
                            Ok(s)
                        })
                        .await?;
                        store = Some(s);
                        noted = Instant::now();
                    }
                    if let Some(acks) = &acks {
                        acks.send(seq);
                    }
                }
                Line::Beat { seq } => {
                    progress.send_modify(|p| {
                        p.primary_seq = p.primary_seq.max(seq);
                        p.heard = Some(Instant::now());
                    });
                    let at = stamp_now();
                    let mut s = store.take().ok_or_else(|| Error::refused("the standby's file is not open"))?;
                    let (s, state) = blocking(move || {
                        let state = s.read(replication::state)?;
                        if state.role == Role::Standby {
                            s.bookkeep(|tx| replication::heard(tx, seq, &at))?;
                        }
                        Ok((s, state))
                    })
                    .await?;
                    store = Some(s);
                    if state.role == Role::Primary {
                        return Ok(Some(()));
                    }
                    noted = Instant::now();
                    // Answered on every heartbeat, so the primary hears a healthy standby on a quiet event too (what
                    // it acknowledges is what it applied, not the primary's change of the heartbeat).
                    if let Some(acks) = &acks {
                        acks.send(state.seq);
                    }
                }
            }
        }
        let next = tokio::time::timeout(SILENCE, tokio_stream::StreamExt::next(&mut body)).await;
        match next {
            Err(_) => return Err(Error::refused(format!("{} fell silent", follow.primary.text))),
            Ok(None) => return Ok(None),
            Ok(Some(Err(e))) => {
                return Err(Error::refused(format!("the stream from {} broke: {e}", follow.primary.text)));
            }
            Ok(Some(Ok(bytes))) => lines.push(&bytes),
        }
    }
}

/// Refuses a primary of another event, another schema, or an older generation than this file's.
fn check_head(h: &Head, mine: Option<&replication::State>) -> Result<()> {
    let schema = crate::store::schema_version();
    if h.schema != schema {
        return Err(Error::bad_input(format!(
            "the primary's event file is of schema {} and this mmjudge's of {schema}: run the same mmjudge on both laptops",
            h.schema
        )));
    }
    if let Some(s) = mine {
        if s.event_id != h.event {
            return Err(Error::bad_input(
                "the --db file holds another event than the primary's: give a new file (or an earlier copy of this event)",
            ));
        }
        if s.generation > h.generation {
            return Err(Error::forbidden(format!(
                "the primary is of generation {} and this file of {}: it is an old primary; the event went on elsewhere",
                h.generation, s.generation
            )));
        }
    }
    Ok(())
}

/// This file's replication state.
async fn local(db: &Path) -> Result<replication::State> {
    let db = db.to_path_buf();
    blocking(move || Store::open(&db)?.read(replication::state)).await
}

/// Opens the standby's file, marking it a standby of `url` if it is not yet one (an earlier copy).
async fn open_standby(db: &Path, url: &str, id: &str) -> Result<Store> {
    let (db, url, id) = (db.to_path_buf(), url.to_string(), id.to_string());
    blocking(move || {
        let mut store = Store::open(&db)?;
        let s = store.read(replication::state)?;
        if s.role != Role::Standby || s.primary_url.as_deref() != Some(url.as_str()) {
            store.bookkeep(|tx| replication::become_standby(tx, &url, &id))?;
        } else if s.follower_id.is_none() {
            store.bookkeep(|tx| replication::name_follower(tx, &id))?;
        }
        Ok(store)
    })
    .await
}

/// Takes a full copy of the primary's event into the standby's file.
async fn copy(follow: &Follow, head: &Head) -> Result<()> {
    let res = client::send(&follow.primary, "GET", super::wire::COPY, Some(&follow.key), None).await?;
    if !res.status().is_success() {
        return Err(refusal(res).await);
    }
    let body = axum::body::Body::new(res.into_body());
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .map_err(|e| Error::refused(format!("the copy from {} broke off: {e}", follow.primary.text)))?;
    let (db, url, event) = (follow.db.clone(), follow.primary.text.clone(), head.event.clone());
    let id = follow.id.clone();
    blocking(move || {
        let mut temp = crate::output::TempFile::beside(&db)?;
        temp.release();
        std::fs::write(temp.path(), &bytes).map_err(|e| Error::io(temp.path(), e))?;
        {
            let mut copy = Store::open(temp.path())?;
            let s = copy.read(replication::state)?;
            if s.event_id != event {
                return Err(Error::refused("the primary's copy is of another event than its stream: try again"));
            }
            copy.bookkeep(|tx| replication::become_standby(tx, &url, &id))?;
        }
        if db.exists() {
            Store::open(&db)?.replace_with(temp.path())?;
            drop(temp);
        } else {
            temp.persist(&db)?;
        }
        Ok(())
    })
    .await
}

/// The standby's acknowledgements on one stream, sent by one task on one kept connection: each says "every
/// change up to seq", so the changes applied while one is on its way are acknowledged together by the next (a lost
/// one is repeated by the next too). Each is given up after [`ACK_WITHIN`] and its connection closed, so that a
/// primary gone silent (a pulled cable) is noticed by the stream's silence. The task ends with the stream.
struct Acks {
    asked: watch::Sender<(i64, u64)>,
}

impl Acks {
    fn start(follow: &Follow, stream: &str) -> Acks {
        let (asked, mut wanted) = watch::channel((0, 0));
        let (mut primary, stream) = (client::Kept::new(follow.primary.clone()), stream.to_string());
        tokio::spawn(async move {
            while wanted.changed().await.is_ok() {
                let (seq, _) = *wanted.borrow_and_update();
                let body = serde_json::json!({ "seq": seq }).to_string();
                let send = async {
                    let res = primary.send("POST", super::wire::ACK, Some(&stream), Some(body)).await?;
                    client::text(res).await
                };
                if !matches!(tokio::time::timeout(ACK_WITHIN, send).await, Ok(Ok(_))) {
                    primary.forget();
                }
            }
        });
        Acks { asked }
    }

    /// Acknowledges every change up to `seq`, even when it is the one acknowledged last (a heartbeat's answer).
    fn send(&self, seq: i64) {
        self.asked.send_modify(|(last, asks)| {
            *last = seq;
            *asks += 1;
        });
    }
}

/// How long an acknowledgement may take.
const ACK_WITHIN: Duration = Duration::from_secs(2);

/// The primary's refusal as an error of the same kind.
async fn refusal(res: hyper::Response<hyper::body::Incoming>) -> Error {
    let status = res.status().as_u16();
    let text = client::text(res).await.unwrap_or_default();
    let why = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_string))
        .unwrap_or(text);
    let msg = format!("the primary refused: {why}");
    match status {
        401 => Error::unauthorized(msg),
        // Forbidden, or another standby follows with this key: for good.
        403 | 409 => Error::forbidden(msg),
        400 => Error::bad_input(msg),
        _ => Error::refused(msg),
    }
}

/// Now, as the replication's bookkeeping stamps it.
fn stamp_now() -> String {
    crate::time::stamp(chrono::Utc::now())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(event: &str, generation: i64) -> replication::State {
        replication::State {
            event_id: event.into(),
            generation,
            role: Role::Standby,
            primary_url: None,
            seq: 3,
            key_hash: None,
            acked_seq: 0,
            heard_at: None,
            primary_seq: 3,
            moved_to: None,
            standby_url: None,
            required: false,
            detached_at: None,
            follower_id: None,
        }
    }

    /// The acknowledgements of 60 changes applied one after another, to a primary that takes 20 ms to answer each:
    /// all on one connection, the ones made while another was on its way sent together, the last change among
    /// them, and in order.
    #[test]
    fn acknowledgements_go_on_one_kept_connection_and_those_made_meanwhile_go_together() -> Result<()> {
        use axum::extract::ConnectInfo;
        use std::net::SocketAddr;
        use std::sync::{Arc, Mutex};
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::refused(e.to_string()))?;
        runtime.block_on(async {
            let seen: Arc<Mutex<Vec<(u16, i64)>>> = Arc::default();
            let kept = seen.clone();
            let primary = axum::Router::new().route(
                super::super::wire::ACK,
                axum::routing::post(move |ConnectInfo(from): ConnectInfo<SocketAddr>, body: String| {
                    let kept = kept.clone();
                    async move {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        let seq = serde_json::from_str::<serde_json::Value>(&body).ok().and_then(|v| v["seq"].as_i64());
                        if let (Ok(mut seen), Some(seq)) = (kept.lock(), seq) {
                            seen.push((from.port(), seq));
                        }
                        "{\"ok\": true}"
                    }
                }),
            );
            let listener =
                tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| Error::refused(e.to_string()))?;
            let address = listener.local_addr().map_err(|e| Error::refused(e.to_string()))?;
            tokio::spawn(async move {
                let _ = axum::serve(listener, primary.into_make_service_with_connect_info::<SocketAddr>()).await;
            });
            let follow = Follow {
                db: PathBuf::from("unused.db"),
                primary: Url::parse(&format!("http://{address}"))?,
                key: "key".into(),
                advertise: None,
                id: "f".into(),
            };
            let acks = Acks::start(&follow, "token");
            for seq in 1..=60 {
                acks.send(seq);
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            let last = |seen: &Arc<Mutex<Vec<(u16, i64)>>>| seen.lock().ok().and_then(|s| s.last().map(|l| l.1));
            let start = Instant::now();
            while last(&seen) != Some(60) && start.elapsed() < Duration::from_secs(10) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            let seen = seen.lock().map(|s| s.clone()).unwrap_or_default();
            assert_eq!(seen.last().map(|l| l.1), Some(60), "the last change is acknowledged: {seen:?}");
            assert!(seen.iter().all(|(port, _)| *port == seen[0].0), "one connection: {seen:?}");
            assert!(seen.len() < 30, "acknowledgements made meanwhile go together: {} for 60 changes", seen.len());
            assert!(seen.windows(2).all(|w| w[0].1 < w[1].1), "in order: {seen:?}");
            Ok(())
        })
    }

    #[test]
    fn a_primary_of_another_event_schema_or_an_older_generation_is_refused() {
        let head = |event: &str, schema: i64, generation: i64| Head {
            event: event.into(),
            schema,
            generation,
            seq: 5,
            reaches: true,
            stream: "t".into(),
        };
        let schema = crate::store::schema_version();
        assert!(check_head(&head("e1", schema, 1), Some(&state("e1", 1))).is_ok());
        assert!(check_head(&head("e1", schema, 2), Some(&state("e1", 1))).is_ok(), "a later generation is followed");
        assert!(check_head(&head("e1", schema, 1), None).is_ok(), "a new file copies any event");
        let refused = |h: Head, s: replication::State| check_head(&h, Some(&s)).err().map(|e| e.to_string());
        assert!(refused(head("e2", schema, 1), state("e1", 1)).is_some_and(|e| e.contains("another event")));
        assert!(refused(head("e1", schema + 1, 1), state("e1", 1)).is_some_and(|e| e.contains("schema")));
        assert!(refused(head("e1", schema, 1), state("e1", 2)).is_some_and(|e| e.contains("old primary")));
    }
}
