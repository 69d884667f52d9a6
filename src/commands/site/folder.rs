//! The site's folder: what may be written into, the marker that recognises an earlier site, the files.

use super::{Page, Written};
use crate::error::{Error, Result};
use std::fs;
use std::path::Path;

/// The marker file of a folder mmjudge wrote a site into; it lists the files written.
pub const MARKER: &str = ".mmjudge-site";

/// The one stylesheet every page links.
pub const STYLE: &str = include_str!("../../../templates/style.css");

const MARKER_HEAD: &str = "mmjudge site: files written by `mmjudge site` (remove this file to stop it replacing them)";

/// Checks that `dir` may receive a site and returns the files an earlier site there wrote.
pub fn check(dir: &Path, force: bool) -> Result<Vec<String>> {
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        return Err(Error::refused(format!(
            "{shown} is a file, not a folder: give a folder for the site, e.g. `mmjudge site site`"
        )));
    }
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let marker = dir.join(MARKER);
    if marker.is_file() {
        let text = fs::read_to_string(&marker).map_err(|e| Error::io(&marker, e))?;
        return Ok(text.lines().skip(1).filter(|f| is_plain_name(f)).map(String::from).collect());
    }
    let mut entries = fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    if entries.next().is_some() && !force {
        return Err(Error::refused(format!(
            "{shown} is not empty and holds no earlier mmjudge site: choose a new or empty folder, or add --force to write into it (files of the same names are replaced)"
        )));
    }
    Ok(Vec::new())
}

/// A file name without folders, as the site writes them.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\']) && name != MARKER
}

/// Writes the pages, the stylesheet and the marker; removes the earlier site's files that are gone.
pub fn write(dir: &Path, pages: &[Page], earlier: &[String]) -> Result<Written> {
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut files = Vec::with_capacity(pages.len() + 1);
    for page in pages {
        let path = dir.join(&page.file);
        fs::write(&path, &page.html).map_err(|e| Error::io(&path, e))?;
        files.push(page.file.clone());
    }
    let style = dir.join("style.css");
    fs::write(&style, STYLE).map_err(|e| Error::io(&style, e))?;
    files.push("style.css".into());
    let mut removed = Vec::new();
    for old in earlier.iter().filter(|f| !files.contains(f)) {
        let path = dir.join(old);
        if path.is_file() && fs::remove_file(&path).is_ok() {
            removed.push(old.clone());
        }
    }
    let marker = dir.join(MARKER);
    let listing = std::iter::once(MARKER_HEAD).chain(files.iter().map(String::as_str)).collect::<Vec<_>>().join("\n");
    fs::write(&marker, listing + "\n").map_err(|e| Error::io(&marker, e))?;
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
