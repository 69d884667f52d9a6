//! The site's folder: what may be written into, the marker that recognises an earlier site, the files.

use super::Written;
use crate::error::{Error, Result};
use crate::output::{self, Existing, Kind};
use std::fs;
use std::io::Write;
use std::path::Path;

/// The marker file of a folder mmjudge wrote a site into; it lists the files written.
pub const MARKER: &str = ".mmjudge-site";

/// The one stylesheet every page links.
pub const STYLE: &str = include_str!("../../../templates/style.css");

const MARKER_HEAD: &str = "mmjudge site: files written by `mmjudge site` (remove this file to stop it replacing them)";

/// What an earlier site left in the folder being written.
#[derive(Debug, Clone, Default)]
pub struct Earlier {
    /// The files its marker lists.
    pub files: Vec<String>,
    /// Whether the folder holds mmjudge's marker.
    pub marked: bool,
}

/// Checks that `dir` may receive a site and returns what an earlier site there wrote. A folder is an earlier
/// site when it holds the marker, or only files a site writes (its pages, its stylesheet, the temporary files
/// of an interrupted run): an interrupted first `site` never blocks the next one. Each destination is then
/// checked as [`output::check`] does (no SQLite file, no link followed, nothing foreign replaced without
/// `force`) by [`check_file`] and [`check_marker`], all before anything is replaced.
pub fn check(dir: &Path, force: bool) -> Result<Earlier> {
    let shown = dir.display();
    output::check_folder(dir)?;
    if dir.exists() && !dir.is_dir() {
        let refusal = crate::error::Refusal::refused(format!("{shown} is a file, not a folder"));
        return Err(refusal.way_out(crate::error::WayOut::SiteFolder).into());
    }
    if !dir.exists() {
        return Ok(Earlier::default());
    }
    let earlier = earlier_files(dir)?;
    if earlier.is_none() && !force && !only_site_files(dir)? {
        return Err(Error::refused(format!(
            "{shown} is not empty and holds no earlier mmjudge site: choose a new or empty folder, or add --force to write into it (files of the same names are replaced)"
        )));
    }
    Ok(Earlier { marked: earlier.is_some(), files: earlier.unwrap_or_default() })
}

/// Checks the destination of one file of the site (a page or the stylesheet).
pub fn check_file(dir: &Path, earlier: &Earlier, file: &str, kind: Kind, force: bool) -> Result<()> {
    output::check(&dir.join(file), kind, force || is_listed(dir, &earlier.files, file))
}

/// Checks the marker's destination: a marker that is not mmjudge's is replaced only with `force`.
pub fn check_marker(dir: &Path, earlier: &Earlier, force: bool) -> Result<()> {
    let marker = dir.join(MARKER);
    if !earlier.marked && fs::symlink_metadata(&marker).is_ok() && !force {
        return Err(Error::refused(format!(
            "{} already exists and was not written by `mmjudge site`: remove it, or add --force to replace it",
            marker.display()
        )));
    }
    Ok(())
}

/// Whether `name` is listed by the folder's marker and is a regular file not changed since the marker was
/// written: a page an earlier site wrote, perhaps before pages carried their mark. A file written over a page
/// after that site (someone's own file under a page's name) is not the site's any more. (An SQLite file is
/// refused all the same.)
fn is_listed(dir: &Path, listed: &[String], name: &str) -> bool {
    let modified = |p: &Path| fs::symlink_metadata(p).ok().filter(|m| m.is_file()).and_then(|m| m.modified().ok());
    let (page, marker) = (modified(&dir.join(name)), modified(&dir.join(MARKER)));
    listed.iter().any(|f| f == name) && page.zip(marker).is_some_and(|(page, marker)| page <= marker)
}

/// The files listed by the folder's marker, if it holds mmjudge's marker (a regular file, not a link).
fn earlier_files(dir: &Path) -> Result<Option<Vec<String>>> {
    let marker = dir.join(MARKER);
    match fs::symlink_metadata(&marker) {
        Ok(m) if m.is_file() => {}
        _ => return Ok(None),
    }
    let text = fs::read_to_string(&marker).unwrap_or_default();
    let mut lines = text.lines();
    if lines.next() != Some(MARKER_HEAD) {
        return Ok(None);
    }
    Ok(Some(lines.filter(|f| is_plain_name(f)).map(String::from).collect()))
}

/// Whether every entry of `dir` is a regular file a site writes (a page, the stylesheet, a temporary file).
fn only_site_files(dir: &Path) -> Result<bool> {
    for entry in fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if !(regular && (output::is_temp_name(&name) || is_site_file(&entry.path())?)) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `path` is a regular file (not a link) that `mmjudge site` wrote.
fn is_site_file(path: &Path) -> Result<bool> {
    Ok(output::existing(path, Kind::SitePage)? == Existing::Same
        || output::existing(path, Kind::SiteStyle)? == Existing::Same)
}

/// A file name without folders, as the site writes them.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\']) && name != MARKER
}

/// Removes the earlier site's files that are gone (only regular files inside `dir` that a site wrote, never
/// through a link) and writes the marker listing `files` (pages and stylesheet, already in place).
pub fn finish(dir: &Path, files: Vec<String>, earlier: &Earlier) -> Result<Written> {
    let mut removed = Vec::new();
    let kept: std::collections::HashSet<&str> = files.iter().map(String::as_str).collect();
    for old in earlier.files.iter().filter(|f| !kept.contains(f.as_str())) {
        let path = dir.join(old);
        if is_plain_name(old) && is_site_file(&path)? && fs::remove_file(&path).is_ok() {
            removed.push(old.clone());
        }
    }
    let listing = std::iter::once(MARKER_HEAD).chain(files.iter().map(String::as_str)).collect::<Vec<_>>().join("\n");
    output::replace_with(&dir.join(MARKER), |f| f.write_all((listing + "\n").as_bytes()))?;
    // What an interrupted run left (hidden temporary files of a process that is gone).
    output::sweep_leftovers(dir);
    Ok(Written { dir: dir.display().to_string(), index: dir.join("index.html").display().to_string(), files, removed })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_from_a_marker_are_removed() {
        for ok in ["index.html", "round-3-slips.html", "style.css"] {
            assert!(is_plain_name(ok), "{ok}");
        }
        for bad in ["", ".", "..", "../x.html", "a/b.html", "a\\b.html", MARKER] {
            assert!(!is_plain_name(bad), "{bad}");
        }
    }
}
