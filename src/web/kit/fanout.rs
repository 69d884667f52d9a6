//! The live updates' way to thousands of phones: one broadcast channel would wake every phone's stream at once
//! when the watcher sends (2,500 tasks queued ahead of any page whose answer comes back from its store thread
//! meanwhile: at 4,096 players and 10 results a second pages waited 150 ms and more behind them). The streams
//! are spread over [`SHARDS`] channels, and the watcher sends to one after the other, waiting after a crowded one
//! until the runtime has taken up the streams it woke (a task spawned behind them has run), so that a page waits
//! behind a few hundred streams at most.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::broadcast;

/// How many channels the streams are spread over.
pub const SHARDS: usize = 16;

/// The pause after a crowded shard where the watcher has no runtime to wait on.
pub const PAUSE: Duration = Duration::from_millis(3);

/// Streams on one shard beyond which the watcher waits after it (a few phones need no wait).
const CROWD: usize = 64;

/// The shards, each a broadcast channel holding `capacity` updates (`T`: [`super::state::Update`]) for a slow
/// listener.
pub struct Updates<T> {
    shards: Vec<broadcast::Sender<T>>,
    next: AtomicUsize,
}

impl<T: Clone> Updates<T> {
    /// Channels that each keep `capacity` updates for a listener that fell behind.
    pub fn new(capacity: usize) -> Updates<T> {
        Updates { shards: (0..SHARDS).map(|_| broadcast::channel(capacity).0).collect(), next: AtomicUsize::new(0) }
    }

    /// A new listener, on the next shard in turn.
    pub fn subscribe(&self) -> broadcast::Receiver<T> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.shards.len();
        self.shards[i].subscribe()
    }

    /// Sends `updates`, in order, to every listener: shard after shard, after a crowded one waiting until the
    /// runtime `after` names has started the streams it woke (or [`PAUSE`] without one). The caller is the
    /// watcher's own thread, never one of the runtime's.
    pub fn send_all(&self, updates: &[T], after: Option<&tokio::runtime::Handle>) {
        if updates.is_empty() {
            return;
        }
        for shard in &self.shards {
            for u in updates {
                // No phone listening is not an error.
                let _ = shard.send(u.clone());
            }
            if shard.receiver_count() > CROWD {
                match after {
                    // Woken from outside the runtime, the streams wait in its shared queue in turn: a task
                    // queued behind them runs once they have all been started.
                    Some(runtime) => {
                        let _ = runtime.block_on(runtime.spawn(async {}));
                    }
                    None => std::thread::sleep(PAUSE),
                }
            }
        }
    }

    /// Listeners on every shard.
    pub fn receivers(&self) -> usize {
        self.shards.iter().map(|s| s.receiver_count()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listener_gets_every_update_in_order_whatever_its_shard() {
        let updates = Updates::new(16);
        let mut listeners: Vec<_> = (0..SHARDS * 2 + 1).map(|_| updates.subscribe()).collect();
        assert_eq!(updates.receivers(), SHARDS * 2 + 1);
        let sent: Vec<i64> = vec![1, 2, 3];
        updates.send_all(&sent, None);
        for l in &mut listeners {
            let got: Vec<i64> = (0..3).filter_map(|_| l.try_recv().ok()).collect();
            assert_eq!(got, vec![1, 2, 3]);
            assert!(l.try_recv().is_err(), "nothing more");
        }
    }
}
