//! The site's folder: what may be written into, the marker that recognises an earlier site, the files.

use super::{Page, Written};
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

/// Checks that `dir` may receive these pages and returns the files an earlier site there wrote. A folder is
/// an earlier site when it holds the marker, or only files a site writes (its pages, its stylesheet, the
/// temporary files of an interrupted run): an interrupted first `site` never blocks the next one. Every
/// destination is checked as [`output::check`] does (no SQLite file, no link followed, nothing foreign
/// replaced without `force`) before anything is written.
pub fn check(dir: &Path, pages: &[Page], force: bool) -> Result<Vec<String>> {
    let shown = dir.display();
    output::check_folder(dir)?;
    if dir.exists() && !dir.is_dir() {
        return Err(Error::refused(format!(
            "{shown} is a file, not a folder: give a folder for the site, e.g. `mmjudge site site`"
        )));
    }
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let earlier = earlier_files(dir)?;
    if earlier.is_none() && !force && !only_site_files(dir)? {
        return Err(Error::refused(format!(
            "{shown} is not empty and holds no earlier mmjudge site: choose a new or empty folder, or add --force to write into it (files of the same names are replaced)"
        )));
    }
    let listed = earlier.clone().unwrap_or_default();
    for page in pages {
        output::check(&dir.join(&page.file), Kind::SitePage, force || is_listed(dir, &listed, &page.file))?;
    }
    output::check(&dir.join("style.css"), Kind::SiteStyle, force || is_listed(dir, &listed, "style.css"))?;
    let marker = dir.join(MARKER);
    if earlier.is_none() && fs::symlink_metadata(&marker).is_ok() && !force {
        return Err(Error::refused(format!(
            "{} already exists and was not written by `mmjudge site`: remove it, or add --force to replace it",
            marker.display()
        )));
    }
    Ok(earlier.unwrap_or_default())
}

/// Whether `name` is listed by the folder's marker and is a regular file: a page an earlier site wrote, perhaps
/// before pages carried their mark. (An SQLite file is refused all the same.)
fn is_listed(dir: &Path, listed: &[String], name: &str) -> bool {
    listed.iter().any(|f| f == name) && fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.is_file())
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

/// Writes the pages, the stylesheet and the marker, each through a temporary file; removes the earlier
/// site's files that are gone (only regular files inside `dir` that a site wrote, never through a link).
pub fn write(dir: &Path, pages: &[Page], earlier: &[String], force: bool) -> Result<Written> {
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut files = Vec::with_capacity(pages.len() + 1);
    for page in pages {
        let replace = force || is_listed(dir, earlier, &page.file);
        output::write(&dir.join(&page.file), Kind::SitePage, replace, page.html.as_bytes())?;
        files.push(page.file.clone());
    }
    let replace = force || is_listed(dir, earlier, "style.css");
    output::write(&dir.join("style.css"), Kind::SiteStyle, replace, STYLE.as_bytes())?;
    files.push("style.css".into());
    let mut removed = Vec::new();
    for old in earlier.iter().filter(|f| !files.contains(f)) {
        let path = dir.join(old);
        if is_plain_name(old) && is_site_file(&path)? && fs::remove_file(&path).is_ok() {
            removed.push(old.clone());
        }
    }
    let listing = std::iter::once(MARKER_HEAD).chain(files.iter().map(String::as_str)).collect::<Vec<_>>().join("\n");
    output::replace_with(&dir.join(MARKER), |f| f.write_all((listing + "\n").as_bytes()))?;
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
