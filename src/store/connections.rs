//! A few open connections to the event file, kept for the next request: a request takes one (or opens the file
//! when none is kept) and gives it back when it ends, so that a server does not open, check and configure the
//! file for every page. A connection is kept only between requests with nothing of its own pending (no
//! transaction, no keyed write), at most the number given to [`Connections::new`], and only while the file at the path is
//! still the one it opened (an event made again in its place is opened anew).

use super::Store;
use crate::error::Result;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Which file a path names: its device and inode (None: no file there).
type File = Option<(u64, u64)>;

/// Which file a path names now.
fn identity(path: &Path) -> File {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        // Windows does not let a file that is open be replaced: the path names the file a connection opened.
        let _ = path;
        Some((0, 0))
    }
}

/// The connections kept, each with the file it opened.
pub struct Connections {
    path: PathBuf,
    most: usize,
    idle: Mutex<Vec<(Store, File)>>,
}

impl Connections {
    /// Keeps at most `most` connections to the event file at `path`; opens none yet.
    pub fn new(path: PathBuf, most: usize) -> Connections {
        Connections { path, most, idle: Mutex::new(Vec::new()) }
    }

    /// A connection, and whether it was kept (else the file was opened and checked anew): a kept one while the
    /// path still names its file. On a blocking thread only.
    pub fn take(&self) -> Result<(Store, bool)> {
        let now = identity(&self.path);
        loop {
            let kept = self.idle.lock().ok().and_then(|mut idle| idle.pop());
            match kept {
                Some((store, file)) if file.is_some() && file == now => return Ok((store, true)),
                // Another file at the path: every one kept opened the old one.
                Some(_) => {
                    if let Ok(mut idle) = self.idle.lock() {
                        idle.clear();
                    }
                }
                None => break,
            }
        }
        Ok((Store::open(&self.path)?, false))
    }

    /// Gives a connection back: kept when it has nothing pending and there is room, else closed.
    pub fn give(&self, mut store: Store) {
        if !store.between_requests() {
            return;
        }
        let file = identity(&self.path);
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < self.most
        {
            idle.push((store, file));
        }
    }

    /// How many are kept now.
    pub fn kept(&self) -> usize {
        self.idle.lock().map(|idle| idle.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::file::Replace;

    fn event(dir: &Path) -> PathBuf {
        let path = dir.join("e.db");
        let actor = crate::store::Actor {
            judge: "Kim".into(),
            command_line: "mmjudge event new".into(),
            at: chrono::Utc::now(),
            via: "cli".into(),
            claim: None,
        };
        let made = Store::create(&path, &actor, &Replace::Discard, |tx| {
            crate::store::event::set(tx, "name", "Spring")?;
            Ok(crate::store::Change::new("created"))
        });
        drop(made.expect("an event"));
        path
    }

    #[test]
    fn a_connection_given_back_is_taken_again_while_the_file_is_the_same() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = event(dir.path());
        let kept = Connections::new(path.clone(), 2);
        let take = || kept.take().map(|(s, _)| s).unwrap();
        let (a, b, c) = (take(), take(), take());
        kept.give(a);
        kept.give(b);
        kept.give(c);
        assert_eq!(kept.kept(), 2, "at most two kept");
        let (_one, reused) = kept.take().unwrap();
        assert!(reused);
        assert_eq!(kept.kept(), 1);
        // The event made again in its place: what was kept opened the old file.
        event(dir.path());
        let (fresh, reused) = kept.take().unwrap();
        assert!(!reused, "opened anew");
        assert_eq!(kept.kept(), 0, "the old file's connections are closed");
        kept.give(fresh);
        assert_eq!(kept.kept(), 1);
    }
}
