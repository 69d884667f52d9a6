//! Plain output files (web pages, deck sheets, CSV, backups): the one place that writes them.
//!
//! Every output is written to a temporary file in the destination's folder and renamed into place, so an
//! interrupted or failed run leaves the old file (or nothing) and never a half one. Before that, [`check`]
//! decides whether the destination may be replaced: never an SQLite file (an event, a backup, another
//! program's database, or their `-wal`/`-shm`/`-journal` companions); freely a file mmjudge wrote earlier as
//! the same kind of output (recognised by its mark, [`Kind::mark`]) or an empty file; anything else only with
//! `--force`. A symbolic link is never written through: with `--force` the link itself is replaced.

mod batch;
pub mod zip;

pub use batch::Batch;

use crate::error::{Error, Result};
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// The kinds of file mmjudge writes; a file is replaced freely only by an output of its own kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `pairings --html FILE`.
    Pairings,
    /// `pool check --html FILE`.
    PoolCheck,
    /// `notes TABLE --html FILE`.
    NoteSheet,
    /// `clock --html FILE`.
    Projector,
    /// The pages of `library sheets DIR`.
    DeckSheets,
    /// `libraries.csv` of `library sheets DIR` (recognised by its header row).
    DeckSheetsCsv,
    /// The pages of `site DIR`.
    SitePage,
    /// The stylesheet of `site DIR`.
    SiteStyle,
    /// The files the demo imports, recognised by their header row (the bundled examples' first line).
    DemoData(&'static str),
    /// `player codes --html FILE`.
    PlayerSlips,
    /// `backup FILE`: an SQLite file, so never written over (a backup cannot be told from a live event).
    Backup,
    /// `report libraries --html FILE`.
    LibraryReport,
    /// `decisions --html FILE`.
    SlowPlay,
}

impl Kind {
    /// The command that writes this kind, for messages.
    pub fn command(self) -> &'static str {
        match self {
            Kind::Pairings => "mmjudge pairings --html",
            Kind::PoolCheck => "mmjudge pool check --html",
            Kind::NoteSheet => "mmjudge notes TABLE --html",
            Kind::Projector => "mmjudge clock --html",
            Kind::DeckSheets | Kind::DeckSheetsCsv => "mmjudge library sheets",
            Kind::SitePage | Kind::SiteStyle => "mmjudge site",
            Kind::DemoData(_) => "mmjudge demo",
            Kind::Backup => "mmjudge backup",
            Kind::PlayerSlips => "mmjudge player codes --html",
            Kind::LibraryReport => "mmjudge report libraries --html",
            Kind::SlowPlay => "mmjudge decisions --html",
        }
    }

    /// Whether this kind is one of several files written into a folder under names the user does not choose.
    pub fn in_a_folder(self) -> bool {
        matches!(self, Kind::DeckSheets | Kind::DeckSheetsCsv | Kind::SitePage | Kind::SiteStyle | Kind::DemoData(_))
    }

    /// The bytes that mark a file of this kind, found near its start (None: no file is of this kind).
    pub fn mark(self) -> Option<String> {
        let html = |what: &str| Some(format!("<meta name=\"generator\" content=\"mmjudge {what}\">"));
        match self {
            Kind::Pairings => html("pairings"),
            Kind::PoolCheck => html("pool check"),
            Kind::NoteSheet => html("note sheet"),
            Kind::Projector => html("projector clock"),
            Kind::DeckSheets => html("library sheets"),
            Kind::SitePage => html("site"),
            Kind::SiteStyle => Some("/* generator: mmjudge site */".into()),
            Kind::DeckSheetsCsv => Some(DECK_SHEETS_CSV_HEADER.into()),
            Kind::DemoData(header) => Some(header.into()),
            Kind::Backup => None,
            Kind::PlayerSlips => html("player slips"),
            Kind::LibraryReport => html("library report"),
            Kind::SlowPlay => html("slow play"),
        }
    }

    /// The contents with this kind's mark added where needed (after `<head>` in a page, on top of the
    /// stylesheet; a CSV carries its header already).
    pub fn stamp(self, contents: &[u8]) -> Vec<u8> {
        let mark = self.mark();
        self.stamped(contents, &mark).concat()
    }

    /// [`Kind::stamp`] without copying: the stamped bytes as the pieces they are made of, in order (`mark` is
    /// this kind's [`Kind::mark`]). A page ends with a newline, as a text file does.
    pub fn stamped<'a>(self, contents: &'a [u8], mark: &'a Option<String>) -> [&'a [u8]; 5] {
        let page = mark.as_deref().is_some_and(|m| m.starts_with('<'));
        let end: &[u8] = if page && !contents.ends_with(b"\n") { b"\n" } else { &[] };
        let whole = [contents, &[][..], &[], &[], end];
        let Some(mark) = mark else { return whole };
        if contents.windows(mark.len()).take(HEAD_BYTES).any(|w| w == mark.as_bytes()) {
            return whole;
        }
        if self == Kind::SiteStyle {
            return [mark.as_bytes(), b"\n", contents, &[], end];
        }
        if !page {
            return whole;
        }
        match find(contents, b"<head>") {
            Some(at) => {
                let (head, rest) = contents.split_at(at + b"<head>".len());
                [head, b"\n", mark.as_bytes(), rest, end]
            }
            None => [mark.as_bytes(), b"\n", contents, &[], end],
        }
    }

    /// Whether `head` (the first bytes of a file) carries this kind's mark.
    pub fn marks(self, head: &[u8]) -> bool {
        match self.mark() {
            Some(mark) if mark.starts_with('<') || mark.starts_with("/*") => find(head, mark.as_bytes()).is_some(),
            Some(header) => {
                head.strip_prefix(b"\xef\xbb\xbf".as_slice()).unwrap_or(head).starts_with(header.as_bytes())
            }
            None => false,
        }
    }
}

/// The header row of `libraries.csv`.
pub const DECK_SHEETS_CSV_HEADER: &str =
    "library,table,seat,player,position,name,mana_cost,mana_value,type_line,sideboard,utopia";

/// How far into a file its mark is looked for.
const HEAD_BYTES: usize = 4096;

/// Prefix and suffix of the temporary files written beside an output.
pub const TEMP_PREFIX: &str = ".mmjudge-";
/// See [`TEMP_PREFIX`].
pub const TEMP_SUFFIX: &str = ".tmp";

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// What is at a destination now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Existing {
    /// Nothing: a new file.
    Nothing,
    /// An empty regular file (nothing to lose).
    Empty,
    /// A regular file mmjudge wrote as this kind of output.
    Same,
    /// Something else: a folder, a link, another kind of file, a foreign file (the words say which).
    Other(String),
    /// An SQLite database or one of its companion files: never replaced.
    Sqlite(String),
}

/// Looks at what is at `path` now, without following a symbolic link.
pub fn existing(path: &Path, kind: Kind) -> Result<Existing> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // SQLite takes a file of that name as part of its database (and deletes it on the next close).
            return Ok(companion_of(path)
                .map_or(Existing::Nothing, |what| Existing::Sqlite(format!("is the name of a file that {what}"))));
        }
        Err(e) => return Err(Error::io(path, e)),
    };
    if meta.file_type().is_symlink() {
        return Ok(Existing::Other("is a symbolic link".into()));
    }
    if meta.is_dir() {
        return Ok(Existing::Other("is a folder".into()));
    }
    if !meta.is_file() {
        return Ok(Existing::Other("is not a regular file".into()));
    }
    let head = head_of(path)?;
    if let Some(what) = sqlite_kind(path, &head) {
        return Ok(Existing::Sqlite(format!("already exists and {what}")));
    }
    if head.is_empty() {
        return Ok(Existing::Empty);
    }
    if kind.marks(&head) {
        return Ok(Existing::Same);
    }
    Ok(Existing::Other(format!("was not written by `{}`", kind.command())))
}

/// The first bytes of a regular file.
fn head_of(path: &Path) -> Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD_BYTES);
    File::open(path).and_then(|f| f.take(HEAD_BYTES as u64).read_to_end(&mut head)).map_err(|e| Error::io(path, e))?;
    Ok(head)
}

/// Says what SQLite file `path` is, if it is one (a database, or the log, index or journal beside one).
fn sqlite_kind(path: &Path, head: &[u8]) -> Option<String> {
    if head.starts_with(b"SQLite format 3\0") {
        return Some("is an SQLite database (an mmjudge event, a backup or another program's data)".into());
    }
    if head.len() >= 4 && (head[..4] == [0x37, 0x7f, 0x06, 0x82] || head[..4] == [0x37, 0x7f, 0x06, 0x83]) {
        return Some("is an SQLite write-ahead log (part of an event)".into());
    }
    companion_of(path)
}

/// Says which SQLite database `path` belongs to, when its name is that database's name followed by
/// `-wal`, `-shm` or `-journal` (whether the companion exists or not).
fn companion_of(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    for suffix in ["-wal", "-shm", "-journal"] {
        if let Some(stem) = name.strip_suffix(suffix) {
            let db = path.with_file_name(stem);
            if db.is_file() && head_of(&db).is_ok_and(|h| h.starts_with(b"SQLite format 3\0")) {
                return Some(format!("belongs to the SQLite database {} (part of an event)", db.display()));
            }
        }
    }
    None
}

/// Refuses a folder for an output of several files (`site`, `library sheets`, the demo's folder) whose name
/// SQLite would take as part of a database: a folder named `spring.db-wal` stops the event from opening.
pub fn check_folder(dir: &Path) -> Result<()> {
    if let Some(what) = companion_of(dir) {
        return Err(Error::refused(format!(
            "{} is the name of a file that {what}: a folder there would stop the event from opening; choose another folder",
            dir.display()
        )));
    }
    Ok(())
}

/// Refuses a destination that must not be replaced: an SQLite file always; anything but nothing, an empty
/// file or an earlier output of the same kind unless `force`.
pub fn check(path: &Path, kind: Kind, force: bool) -> Result<()> {
    match existing(path, kind)? {
        Existing::Nothing | Existing::Empty | Existing::Same => Ok(()),
        Existing::Sqlite(what) => Err(Error::refused(format!(
            "{} {what}: mmjudge never writes over one, even with --force; choose another file name",
            path.display()
        ))),
        Existing::Other(what) if what == "is a folder" && kind.in_a_folder() => Err(Error::refused(format!(
            "{} is a folder where `{}` writes a file of that name: move or rename that folder, or choose another folder",
            path.display(),
            kind.command()
        ))),
        Existing::Other(what) if what == "is a folder" => Err(Error::bad_input(format!(
            "{} is a folder: give a file name, e.g. {}",
            path.display(),
            path.join(if kind == Kind::Backup { "backup.db" } else { "page.html" }).display()
        ))),
        // A device, a pipe or a socket (`/dev/null`): replacing it would take it away from everything else
        // that uses it.
        Existing::Other(what) if what == "is not a regular file" => Err(Error::refused(format!(
            "{} is a device, pipe or socket, not a file: mmjudge never writes over one, even with --force; choose a file name",
            path.display()
        ))),
        Existing::Other(_) if force => Ok(()),
        Existing::Other(what) => Err(Error::refused(format!(
            "{} already exists and {what}: choose another file name, or add --force to replace it",
            path.display()
        ))),
    }
}

/// Checks the destination, then writes `contents` (stamped with the kind's mark) through a temporary file;
/// a destination that already holds exactly those bytes is left as it is.
pub fn write(path: &Path, kind: Kind, force: bool, contents: &[u8]) -> Result<()> {
    check(path, kind, force)?;
    let stamped = kind.stamp(contents);
    if holds(path, &stamped) {
        return Ok(());
    }
    replace_with(path, |f| f.write_all(&stamped))
}

/// Whether `path` is a regular file (not a link) holding exactly `bytes`: then writing them is not needed.
fn holds(path: &Path, bytes: &[u8]) -> bool {
    holds_parts(path, &[bytes])
}

/// Whether `path` is a regular file (not a link) holding exactly `parts`, one after another. Reads the file
/// a piece at a time (a page of several megabytes is not read into memory whole) and stops at the first
/// difference; a file of another size is not read at all.
fn holds_parts(path: &Path, parts: &[&[u8]]) -> bool {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    if !fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() == len as u64) {
        return false;
    }
    let Ok(mut file) = File::open(path) else { return false };
    let mut buf = vec![0u8; 64 * 1024];
    for part in parts {
        let mut part: &[u8] = part;
        while !part.is_empty() {
            let n = buf.len().min(part.len());
            if file.read_exact(&mut buf[..n]).is_err() || buf[..n] != part[..n] {
                return false;
            }
            part = &part[n..];
        }
    }
    // Nothing after (the file did not grow since it was measured).
    matches!(file.read(&mut buf[..1]), Ok(0))
}

/// Writes `path` through a temporary file in its folder: `fill` writes the contents, then the file is
/// flushed to disk and renamed over `path`. If `fill` or anything after it fails, the temporary file is
/// removed and `path` is as it was. Does no checking: call [`check`] first.
pub fn replace_with(path: &Path, fill: impl FnOnce(&mut File) -> std::io::Result<()>) -> Result<()> {
    let mut temp = TempFile::beside(path)?;
    let file = temp.file.as_mut().ok_or_else(|| Error::refused("internal: temporary file already closed"))?;
    fill(file).and_then(|()| file.sync_data()).map_err(|e| Error::io(path, e))?;
    temp.persist(path)
}

/// A temporary file beside a destination, removed when dropped unless persisted.
#[derive(Debug)]
pub struct TempFile {
    path: PathBuf,
    file: Option<File>,
    keep: bool,
}

impl TempFile {
    /// Creates a new, empty temporary file in the folder of `dest` (named after it, hidden, ending `.tmp`).
    pub fn beside(dest: &Path) -> Result<TempFile> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let folder = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !folder.is_dir() {
            return Err(Error::bad_input(format!(
                "{}: the folder {} does not exist: create it first or choose another place",
                dest.display(),
                folder.display()
            )));
        }
        let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // At most 60 bytes of the name: with the prefix and suffix, well within the 255 bytes a name may have.
        let mut short = String::new();
        for c in name.chars().filter(|c| !c.is_control()) {
            if short.len() + c.len_utf8() > 60 {
                break;
            }
            short.push(c);
        }
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let temp = folder.join(format!("{TEMP_PREFIX}{}-{n}-{short}{TEMP_SUFFIX}", std::process::id()));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => return Ok(TempFile { path: temp, file: Some(file), keep: false }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io(dest, e)),
            }
        }
    }

    /// The open file, to write into.
    pub fn file_mut(&mut self) -> Option<&mut File> {
        self.file.as_mut()
    }

    /// Closes this handle on the file (before another library, such as SQLite, writes it by its path).
    pub fn release(&mut self) {
        self.file = None;
    }

    /// The temporary file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Closes the temporary file and renames it over `dest`.
    pub fn persist(mut self, dest: &Path) -> Result<()> {
        self.file = None;
        fs::rename(&self.path, dest).map_err(|e| Error::io(dest, e))?;
        self.keep = true;
        Ok(())
    }

    /// Leaves the temporary file where it is (as a killed process would), for tests.
    #[cfg(test)]
    pub fn abandon(mut self) -> PathBuf {
        self.keep = true;
        self.path.clone()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        self.file = None;
        if !self.keep {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Whether a file name is one of the temporary files [`TempFile`] writes.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)
}

/// Removes from `dir` the temporary files left by mmjudge runs that were killed while writing (their process
/// is gone), so that a folder of pages does not fill with hidden leftovers; returns how many went. Only
/// regular files named as [`TempFile::beside`] names them, and only where the system tells which processes
/// run (/proc): elsewhere nothing is removed. A run still writing keeps its files.
pub fn sweep_leftovers(dir: &Path) -> usize {
    let proc = Path::new("/proc");
    if !proc.join("self").is_dir() {
        return 0;
    }
    let Ok(entries) = fs::read_dir(dir) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid =
            name.strip_prefix(TEMP_PREFIX).and_then(|rest| rest.split('-').next()).and_then(|p| p.parse::<u32>().ok());
        let (Some(pid), true) = (pid, is_temp_name(&name)) else { continue };
        let gone = pid != std::process::id() && !proc.join(pid.to_string()).exists();
        if gone && entry.file_type().is_ok_and(|t| t.is_file()) && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn leftovers_of_runs_that_are_gone_are_swept_and_others_kept() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let p = |n: &str| dir.path().join(n);
        // No process has id 4,194,305 (above Linux's largest); process 1 always runs.
        for name in [".mmjudge-4194305-3-index.html.tmp", ".mmjudge-1-0-index.html.tmp", "notes.txt"] {
            fs::write(p(name), "x").map_err(|e| Error::io(name, e))?;
        }
        fs::create_dir(p(".mmjudge-4194305-4-folder.tmp")).map_err(|e| Error::io("dir", e))?;
        assert_eq!(sweep_leftovers(dir.path()), 1);
        assert_eq!(
            files_in(dir.path()),
            vec![".mmjudge-1-0-index.html.tmp", ".mmjudge-4194305-4-folder.tmp", "notes.txt"]
        );
        Ok(())
    }

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned())).collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    #[test]
    fn a_writer_failing_part_way_leaves_the_old_file_and_no_temporary_file() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let page = dir.path().join("round1.html");
        write(&page, Kind::Pairings, false, b"<html><head></head>first</html>")?;
        let before = fs::read(&page).map_err(|e| Error::io(&page, e))?;
        let failed = replace_with(&page, |f| {
            f.write_all(b"<html><head></head>half a pa")?;
            Err(std::io::Error::other("the disk went away"))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read(&page).map_err(|e| Error::io(&page, e))?, before);
        assert_eq!(files_in(dir.path()), vec!["round1.html".to_string()]);
        // A new destination that fails leaves nothing at all.
        let fresh = dir.path().join("new.html");
        assert!(replace_with(&fresh, |_| Err(std::io::Error::other("boom"))).is_err());
        assert!(!fresh.exists());
        assert_eq!(files_in(dir.path()), vec!["round1.html".to_string()]);
        Ok(())
    }

    #[test]
    fn a_killed_writer_leaves_the_old_file_and_its_leftover_blocks_nothing() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let page = dir.path().join("clock.html");
        write(&page, Kind::Projector, false, b"<head></head>old")?;
        let mut temp = TempFile::beside(&page)?;
        if let Some(f) = temp.file.as_mut() {
            f.write_all(b"<head></head>ne").map_err(|e| Error::io(&page, e))?;
        }
        let leftover = temp.abandon(); // the process dies here
        assert!(fs::read_to_string(&page).map_err(|e| Error::io(&page, e))?.trim_end().ends_with("old"));
        assert!(is_temp_name(&leftover.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()));
        write(&page, Kind::Projector, false, b"<head></head>new")?;
        assert!(fs::read_to_string(&page).map_err(|e| Error::io(&page, e))?.trim_end().ends_with("new"));
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn a_file_already_holding_the_same_bytes_is_not_rewritten() -> Result<()> {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let sheet = dir.path().join("1A.html");
        let inode = |p: &Path| fs::metadata(p).map(|m| m.ino()).map_err(|e| Error::io(p, e));
        write(&sheet, Kind::DeckSheets, false, b"<head></head>Shock")?;
        let first = inode(&sheet)?;
        write(&sheet, Kind::DeckSheets, false, b"<head></head>Shock")?;
        assert_eq!(inode(&sheet)?, first, "the same bytes: the file is left as it is");
        write(&sheet, Kind::DeckSheets, false, b"<head></head>Bolt!")?;
        assert_ne!(inode(&sheet)?, first, "other bytes of the same length: replaced");
        assert!(fs::read_to_string(&sheet).map_err(|e| Error::io("sheet", e))?.trim_end().ends_with("Bolt!"));
        assert_eq!(files_in(dir.path()), vec!["1A.html".to_string()]);
        Ok(())
    }

    #[test]
    fn replaces_only_nothing_empty_files_and_its_own_kind() -> Result<()> {
        let dir = tempfile::tempdir().map_err(|e| Error::io("tmp", e))?;
        let p = |n: &str| dir.path().join(n);
        write(&p("a.html"), Kind::Pairings, false, b"<head></head>x")?;
        write(&p("a.html"), Kind::Pairings, false, b"<head></head>y")?; // its own kind: fine
        assert!(write(&p("a.html"), Kind::NoteSheet, false, b"<head></head>z").is_err()); // another kind
        write(&p("a.html"), Kind::NoteSheet, true, b"<head></head>z")?; // with --force
        fs::write(p("mine.html"), "my own page").map_err(|e| Error::io("mine", e))?;
        let msg = write(&p("mine.html"), Kind::Pairings, false, b"x").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("--force") && msg.contains("was not written by"), "{msg}");
        fs::write(p("empty.html"), "").map_err(|e| Error::io("empty", e))?;
        write(&p("empty.html"), Kind::Pairings, false, b"<head></head>x")?;
        fs::write(p("ev.db"), b"SQLite format 3\0rest").map_err(|e| Error::io("ev", e))?;
        fs::write(p("ev.db-shm"), b"\0\0\0").map_err(|e| Error::io("shm", e))?;
        for db in ["ev.db", "ev.db-shm"] {
            let msg = write(&p(db), Kind::Pairings, true, b"x").err().map(|e| e.to_string()).unwrap_or_default();
            assert!(msg.contains("never writes over"), "{msg}");
        }
        assert!(fs::read(p("ev.db")).map_err(|e| Error::io("ev", e))?.starts_with(b"SQLite"));
        Ok(())
    }

    #[test]
    fn marks_pages_the_stylesheet_and_csv() {
        let page = Kind::SitePage.stamp(b"<!doctype html>\n<html><head>\n<title>t</title>");
        assert!(Kind::SitePage.marks(&page));
        assert!(!Kind::Pairings.marks(&page));
        assert_eq!(Kind::SitePage.stamp(&page), page, "stamped once");
        assert!(page.ends_with(b"</title>\n"), "a page ends with a newline");
        assert!(Kind::Projector.stamp(b"<html><head></head></html>\n").ends_with(b"</html>\n"), "one newline");
        let css = Kind::SiteStyle.stamp(b"body{}");
        assert!(Kind::SiteStyle.marks(&css) && css.ends_with(b"body{}"));
        let csv = format!("{DECK_SHEETS_CSV_HEADER}\n1A,1,A,,1,Shock");
        assert!(Kind::DeckSheetsCsv.marks(csv.as_bytes()));
        assert!(!Kind::DeckSheetsCsv.marks(b"name,count\nShock,4"));
        assert!(!Kind::Backup.marks(b"SQLite format 3\0"));
    }
}
