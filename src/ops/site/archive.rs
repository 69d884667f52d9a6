//! The event's site as one zip archive (the judges' download on the server): the very files `site DIR` writes,
//! written by [`write`] into a new folder of the system's temporary folder, read back into the archive, and the
//! folder removed.

use super::{Audience, Draw, write};
use crate::error::{Error, Result};
use crate::output::zip::{Entry, dos_time, stored};
use crate::store::Store;
use rand::RngExt;
use std::path::PathBuf;

/// The folder every file of the archive sits in.
pub const FOLDER: &str = "site";

/// The site for `audience` as a zip archive, its files in the folder `site/`.
pub fn archive(store: &Store, audience: Audience, draw: &dyn Draw) -> Result<Vec<u8>> {
    let dir = Scratch(std::env::temp_dir().join(format!(
        "mmjudge-site-{}-{:016x}",
        std::process::id(),
        rand::rng().random::<u64>()
    )));
    let written = write(store, &dir.0, false, audience, draw)?;
    let mut entries = Vec::with_capacity(written.files.len());
    for file in &written.files {
        let path = dir.0.join(file);
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        entries.push(Entry { name: format!("{FOLDER}/{file}"), bytes });
    }
    let at = crate::time::now()?.with_timezone(&chrono::Local).naive_local();
    stored(&entries, dos_time(at)).map_err(|why| Error::refused(format!("cannot make the site's archive: {why}")))
}

/// A folder of our own in the temporary folder, removed with what is in it when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
