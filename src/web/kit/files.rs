//! Open files: every phone on the live stream holds one of the process's file descriptors for as long as it
//! listens. At start the server raises its soft limit of open files to the hard limit ([`raise_limit`]; a
//! laptop's usual soft 1,024 under a hard 4,096 or more then holds 1,500 phones), keeps [`RESERVE`] descriptors
//! for pages, writes and the event file, and answers a phone beyond what is left a quick 503 (its page's
//! EventSource tries again later) rather than running out of descriptors for everyone ([`Streams`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Descriptors kept for what is not a live stream: the event file's connections (one per store thread, each with
/// its write-ahead log and shared memory), the watcher, the listener, the runtime, and the pages and writes of
/// the moment.
pub const RESERVE: usize = 128;

/// The soft limit of open files after raising it to the hard limit where the system allows (None where it
/// cannot be read: not a Unix system).
pub fn raise_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: getrlimit and setrlimit only read and write the struct given.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
                return None;
            }
            if lim.rlim_cur < lim.rlim_max {
                let raised = libc::rlimit { rlim_cur: lim.rlim_max, rlim_max: lim.rlim_max };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    lim.rlim_cur = lim.rlim_max;
                }
            }
        }
        // rlim_t is u64 on Linux, but not on every Unix.
        #[allow(clippy::useless_conversion)]
        Some(u64::try_from(lim.rlim_cur).unwrap_or(u64::MAX))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// How many live streams a soft limit of `files` open files can hold: all but the [`RESERVE`].
pub fn capacity(files: u64) -> usize {
    usize::try_from(files).unwrap_or(usize::MAX).saturating_sub(RESERVE).max(1)
}

/// The live streams open and how many may be.
#[derive(Debug)]
pub struct Streams {
    open: Arc<AtomicUsize>,
    most: AtomicUsize,
}

impl Default for Streams {
    fn default() -> Self {
        Streams { open: Arc::new(AtomicUsize::new(0)), most: AtomicUsize::new(usize::MAX) }
    }
}

/// One live stream's place, given back when the stream ends.
#[derive(Debug)]
pub struct Place(Arc<AtomicUsize>);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Streams {
    /// Sets how many streams may be open at once.
    pub fn set_most(&self, most: usize) {
        self.most.store(most, Ordering::SeqCst);
    }

    /// How many streams may be open at once.
    pub fn most(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }

    /// How many are open.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }

    /// A place for one more stream, or None when all are taken.
    pub fn take(&self) -> Option<Place> {
        let most = self.most();
        self.open.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < most).then_some(n + 1)).ok()?;
        Some(Place(self.open.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_beyond_the_limit_wait_and_places_come_back() {
        let s = Streams::default();
        s.set_most(2);
        let a = s.take().expect("first");
        let _b = s.take().expect("second");
        assert!(s.take().is_none());
        drop(a);
        assert!(s.take().is_some());
        assert_eq!(capacity(1024), 896);
        assert_eq!(capacity(4096), 3968);
    }
}
