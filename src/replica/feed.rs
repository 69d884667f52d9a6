//! The primary's side of the log stream: every change after the one a standby asked for, as it is written, and
//! a heartbeat each second while nothing changes (the lines are [`super::wire`]'s). The route that opens it is
//! `GET /api/standby/log` (`web/standby.rs`).

use super::wire;
use crate::store::{Store, replication};
use axum::body::Bytes;
use std::time::{Duration, Instant};

/// How often the feed looks for new changes at least (a write of this server wakes it at once).
const POLL: Duration = Duration::from_millis(5);
/// How often it says it is alive while nothing changes.
const HEARTBEAT: Duration = Duration::from_secs(1);
/// The most changes one look sends.
const BATCH: i64 = 256;

/// Sends every change after `sent` as it is written, until the standby goes (or the primary's generation
/// moves on: a promoted file no longer feeds anyone; or the key the stream was opened with ends; or the stream
/// was ended, another standby holding it).
pub fn feed(
    path: &std::path::Path,
    mut sent: i64,
    (generation, key_hash, token): (i64, &str, &str),
    tx: &tokio::sync::mpsc::Sender<Result<Bytes, std::io::Error>>,
    replica: &super::state::Replica,
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
                    let l = wire::change_line(e.seq, e.generation, &e.at, &e.changeset);
                    if tx.blocking_send(Ok(Bytes::from(l))).is_err() {
                        return Ok(());
                    }
                    sent = e.seq;
                    spoke = Instant::now();
                }
            }
        }
        if spoke.elapsed() >= HEARTBEAT {
            let s = store.read(replication::state)?;
            if s.key_hash.as_deref() != Some(key_hash) || s.generation != generation || !replica.stream_open(token) {
                return Ok(()); // the key was revoked or replaced, this file promoted since, or the stream ended
            }
            if tx.blocking_send(Ok(Bytes::from(wire::beat_line(s.seq)))).is_err() {
                return Ok(());
            }
            spoke = Instant::now();
        }
        replica.wait_for_write(POLL);
    }
}
