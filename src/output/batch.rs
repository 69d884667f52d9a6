//! Many outputs written together (the pages of `site`, the deck sheets of `library sheets`): each file goes to
//! its temporary file at once, and is flushed to disk by a few background threads while the next ones are
//! drawn; [`Batch::commit`] waits for every flush, then renames every file into place and flushes each folder
//! once. No output is ever half-written (a file is renamed only once its bytes are on disk), and nothing is
//! replaced unless every file could be written and flushed: on any failure, or when the batch is dropped
//! without a commit, the temporary files go and every destination is as it was.
//!
//! Flushing one file after another costs a full disk commit each (seconds for thousands of small files);
//! flushing several at once lets the file system commit them together, and flushing in the background
//! overlaps the disk's work with drawing the next page.

use super::{Kind, TempFile, holds_parts};
use crate::error::{Error, Result};
use std::collections::BTreeSet;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// Threads flushing files at the same time.
const FLUSHERS: usize = 8;
/// Written files waiting for a flusher (bounds the open files).
const WAITING: usize = 32;

/// The first flush that failed: the destination's path and what the system said.
type Failure = Option<(PathBuf, std::io::Error)>;

/// Outputs written to temporary files, renamed into place together by [`Batch::commit`]. Several threads may
/// add files at once ([`Batch::add_shared`]): each writes its own files, only the bookkeeping is shared.
#[derive(Default)]
pub struct Batch {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The temporary files, each with its destination, in the order added.
    ready: Vec<(PathBuf, TempFile)>,
    /// Where written files go to be flushed (None until the first file).
    queue: Option<SyncSender<(PathBuf, File)>>,
    flushers: Vec<JoinHandle<Failure>>,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Writes `contents` (stamped with the kind's mark) to a temporary file beside `path` and hands it to be
    /// flushed; nothing when `path` already holds exactly those bytes. Does no checking: call
    /// [`super::check`] first.
    pub fn add(&mut self, path: &Path, kind: Kind, contents: &[u8]) -> Result<()> {
        self.add_shared(path, kind, contents)
    }

    /// [`Batch::add`] from any of several threads adding files at once.
    pub fn add_shared(&self, path: &Path, kind: Kind, contents: &[u8]) -> Result<()> {
        let mark = kind.mark();
        let stamped = kind.stamped(contents, &mark);
        if holds_parts(path, &stamped) {
            return Ok(());
        }
        let mut temp = TempFile::beside(path)?;
        let mut file = temp.file.take().ok_or_else(|| Error::refused("internal: temporary file already closed"))?;
        self.state().ready.push((path.to_path_buf(), temp));
        for part in stamped {
            file.write_all(part).map_err(|e| Error::io(path, e))?;
        }
        self.flush_later(path, file)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn flush_later(&self, path: &Path, file: File) -> Result<()> {
        let queue = {
            let mut state = self.state();
            if state.queue.is_none() {
                let (send, receive) = sync_channel(WAITING);
                let receive = Arc::new(Mutex::new(receive));
                state.flushers = (0..FLUSHERS).map(|_| flusher(Arc::clone(&receive))).collect();
                state.queue = Some(send);
            }
            state.queue.clone()
        };
        // Sent outside the lock: a full queue holds up this thread only.
        match queue.map(|q| q.send((path.to_path_buf(), file))) {
            Some(Ok(())) => Ok(()),
            _ => self.state().wait().and(Err(Error::refused("internal: the disk flushes stopped"))),
        }
    }

    /// Waits until every file is on disk, renames each over its destination and flushes their folders.
    pub fn commit(self) -> Result<()> {
        let mut state = std::mem::take(&mut *self.state());
        state.wait()?;
        let mut folders = BTreeSet::new();
        for (path, temp) in std::mem::take(&mut state.ready) {
            temp.persist(&path)?;
            folders.insert(path.parent().map(Path::to_path_buf).unwrap_or_default());
        }
        // The renames themselves, on disk (where the system can flush a folder; nothing is lost where not).
        for folder in folders {
            let folder = if folder.as_os_str().is_empty() { PathBuf::from(".") } else { folder };
            let _ = File::open(&folder).and_then(|f| f.sync_all());
        }
        Ok(())
    }
}

impl State {
    /// Waits for every flush; the first failure, if any.
    fn wait(&mut self) -> Result<()> {
        self.queue = None;
        let mut first = Ok(());
        for f in std::mem::take(&mut self.flushers) {
            let failed = match f.join() {
                Ok(None) => Ok(()),
                Ok(Some((path, e))) => Err(Error::io(path, e)),
                Err(_) => Err(Error::refused("internal: a disk flush failed")),
            };
            first = first.and(failed);
        }
        first
    }
}

impl Drop for State {
    fn drop(&mut self) {
        let _ = self.wait();
        // The temporary files are removed as `ready` goes.
    }
}

/// A thread flushing the files it takes from `queue` until the queue closes; keeps the first failure and
/// takes (and closes) the rest without flushing them.
fn flusher(queue: Arc<Mutex<Receiver<(PathBuf, File)>>>) -> JoinHandle<Failure> {
    std::thread::spawn(move || {
        let mut failed: Failure = None;
        loop {
            let next = match queue.lock() {
                Ok(q) => q.recv(),
                Err(_) => break,
            };
            let Ok((path, file)) = next else { break };
            if failed.is_none()
                && let Err(e) = file.sync_data()
            {
                failed = Some((path, e));
            }
        }
        failed
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn names(dir: &Path) -> Vec<String> {
        let mut n: Vec<String> = fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned())).collect())
            .unwrap_or_default();
        n.sort();
        n
    }

    #[test]
    fn nothing_is_replaced_before_the_commit_and_nothing_left_when_dropped() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let p = |n: &str| dir.path().join(n);
        super::super::write(&p("1A.html"), Kind::DeckSheets, false, b"<head></head>old")?;
        let mut batch = Batch::new();
        for i in 0..100 {
            batch.add(&p(&format!("{i}A.html")), Kind::DeckSheets, format!("<head></head>new {i}").as_bytes())?;
        }
        assert!(fs::read_to_string(p("1A.html")).map_err(|e| Error::io("1A", e))?.trim_end().ends_with("old"));
        drop(batch);
        assert_eq!(names(dir.path()), vec!["1A.html".to_string()], "the temporary files went");
        let mut batch = Batch::new();
        for i in 0..100 {
            batch.add(&p(&format!("{i}A.html")), Kind::DeckSheets, format!("<head></head>new {i}").as_bytes())?;
        }
        batch.commit()?;
        assert_eq!(names(dir.path()).len(), 100, "every file and no temporary one");
        assert!(fs::read_to_string(p("1A.html")).map_err(|e| Error::io("1A", e))?.ends_with("new 1\n"));
        Ok(())
    }

    #[test]
    fn files_added_from_two_threads_all_go_when_dropped_and_all_arrive_on_commit() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let p = |n: String| dir.path().join(n);
        let fill = |batch: &Batch| -> Result<()> {
            std::thread::scope(|s| {
                let halves: Vec<_> = (0..2)
                    .map(|half| {
                        s.spawn(move || -> Result<()> {
                            for i in (half..60).step_by(2) {
                                let page = format!("<head></head>page {i} {}", "x".repeat(i * 1000));
                                batch.add_shared(&p(format!("{i}.html")), Kind::SitePage, page.as_bytes())?;
                            }
                            Ok(())
                        })
                    })
                    .collect();
                halves.into_iter().try_for_each(|h| h.join().map_err(|_| Error::refused("a thread failed"))?)
            })
        };
        let batch = Batch::new();
        fill(&batch)?;
        assert_eq!(names(dir.path()).len(), 60, "sixty temporary files, nothing in place");
        assert!(names(dir.path()).iter().all(|n| super::super::is_temp_name(n)));
        drop(batch);
        assert!(names(dir.path()).is_empty(), "the temporary files went");
        let batch = Batch::new();
        fill(&batch)?;
        batch.commit()?;
        assert_eq!(names(dir.path()).len(), 60);
        let page = fs::read_to_string(p("7.html".into())).map_err(|e| Error::io("7", e))?;
        let drawn = format!("<head></head>page 7 {}", "x".repeat(7000));
        assert_eq!(page.as_bytes(), Kind::SitePage.stamp(drawn.as_bytes()), "stamped, whole");
        assert!(page.starts_with("<head>\n<meta name=\"generator\" content=\"mmjudge site\">"), "{page}");
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn a_file_already_holding_the_same_bytes_is_left_as_it_is() -> Result<()> {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let sheet = dir.path().join("1A.html");
        let inode = |p: &Path| fs::metadata(p).map(|m| m.ino()).map_err(|e| Error::io(p, e));
        let mut batch = Batch::new();
        batch.add(&sheet, Kind::DeckSheets, b"<head></head>Shock")?;
        batch.commit()?;
        let first = inode(&sheet)?;
        let mut batch = Batch::new();
        batch.add(&sheet, Kind::DeckSheets, b"<head></head>Shock")?;
        batch.commit()?;
        assert_eq!(inode(&sheet)?, first);
        Ok(())
    }
}
