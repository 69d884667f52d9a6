//! Where `open` keeps events unless told a file: the `mmjudge` folder in the user's documents folder, and the
//! choice, typed in the window, among the events there or a new one.
//!
//! The documents folder is the platform's own, as the `dirs` crate finds it: on Windows the Documents known
//! folder, on macOS `~/Documents`, on Linux `XDG_DOCUMENTS_DIR` from `~/.config/user-dirs.dirs`; when the
//! platform names none (a Linux without user directories), `Documents` in the home folder (`$HOME`).

use crate::error::{Error, Result};
use crate::store::Store;
use chrono::NaiveDate;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// The folder for events: `Documents/mmjudge`, made when missing.
pub fn events_folder() -> Result<PathBuf> {
    let documents = dirs::document_dir().or_else(|| dirs::home_dir().map(|home| home.join("Documents")));
    let Some(documents) = documents else {
        return Err(Error::refused(
            "cannot find your documents folder (no home folder is set): name the event file, as in `mmjudge open FILE`",
        ));
    };
    let folder = documents.join("mmjudge");
    std::fs::create_dir_all(&folder).map_err(|e| Error::io(&folder, e))?;
    Ok(folder)
}

/// An event file found in the folder.
#[derive(Debug, Clone)]
pub struct Found {
    /// The file.
    pub file: PathBuf,
    /// What it holds, in a few words ("Club Night: round 2 of 5, 16 players"), or why it cannot be opened.
    pub about: String,
}

/// The `.db` files of `folder`, the most recently changed first (then by name).
pub fn events_in(folder: &Path) -> Result<Vec<Found>> {
    let entries = std::fs::read_dir(folder).map_err(|e| Error::io(folder, e))?;
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x.eq_ignore_ascii_case("db")))
        .map(|p| (std::fs::metadata(&p).and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH), p))
        .collect();
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    Ok(files.into_iter().map(|(_, file)| Found { about: about(&file), file }).collect())
}

/// An event file in a few words.
fn about(file: &Path) -> String {
    let view = Store::open(file).and_then(|store| {
        let snapshot = store.snapshot()?;
        crate::ops::event::show(&snapshot)
    });
    match view {
        Ok(v) if v.current_round == 0 => format!("{}: not paired yet, {} players", v.name, v.players),
        Ok(v) => format!("{}: round {} of {}, {} players", v.name, v.current_round, v.rounds, v.players),
        Err(_) => "not an event this mmjudge can open".into(),
    }
}

/// What the judge chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// The event at this place in the list.
    Event(usize),
    /// A new event.
    New,
}

/// Lists `found` (numbered from 1, then "a new event") on `out` and reads the judge's number from `input`:
/// Enter alone, or the end of the input (nobody typing), takes the first; anything else is asked again. `echo`:
/// show what was read (the input is no terminal, which would have shown it).
pub fn choose(
    folder: &Path,
    found: &[Found],
    input: &mut impl BufRead,
    out: &mut impl Write,
    echo: bool,
) -> Result<Choice> {
    let io = |e| Error::io("the window", e);
    writeln!(out, "Your events in {}:", folder.display()).map_err(io)?;
    for (i, f) in found.iter().enumerate() {
        let name = f.file.file_name().unwrap_or_default().to_string_lossy();
        writeln!(out, "  {}. {name} ({})", i + 1, crate::domain::text::escape(&f.about, false)).map_err(io)?;
    }
    let new = found.len() + 1;
    writeln!(out, "  {new}. a new event").map_err(io)?;
    loop {
        write!(out, "Which one? Type its number and press Enter (Enter alone: 1): ").map_err(io)?;
        out.flush().map_err(io)?;
        let mut line = String::new();
        if input.read_line(&mut line).map_err(io)? == 0 {
            writeln!(out).map_err(io)?;
            return Ok(if found.is_empty() { Choice::New } else { Choice::Event(0) });
        }
        if echo {
            writeln!(out, "{}", crate::domain::text::escape(line.trim_end(), false)).map_err(io)?;
        }
        match line.trim() {
            "" if found.is_empty() => return Ok(Choice::New),
            "" => return Ok(Choice::Event(0)),
            typed => match typed.parse::<usize>() {
                Ok(n) if n == new => return Ok(Choice::New),
                Ok(n) if (1..new).contains(&n) => return Ok(Choice::Event(n - 1)),
                _ => writeln!(out, "Type a number from 1 to {new}.").map_err(io)?,
            },
        }
    }
}

/// A free name for a new event made on `day`: `event-2026-11-28.db`, else `event-2026-11-28-2.db`, ...
pub fn new_file(folder: &Path, day: NaiveDate) -> PathBuf {
    let stem = format!("event-{}", day.format("%Y-%m-%d"));
    let mut file = folder.join(format!("{stem}.db"));
    let mut n = 2;
    while file.exists() {
        file = folder.join(format!("{stem}-{n}.db"));
        n += 1;
    }
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(n: usize) -> Vec<Found> {
        (1..=n).map(|i| Found { file: PathBuf::from(format!("e{i}.db")), about: format!("Event {i}") }).collect()
    }

    fn pick(n: usize, typed: &str) -> (Choice, String) {
        let mut out = Vec::new();
        let choice = choose(Path::new("/docs/mmjudge"), &found(n), &mut typed.as_bytes(), &mut out, true);
        let choice = choice.expect("a choice");
        (choice, String::from_utf8(out).expect("text"))
    }

    #[test]
    fn the_list_is_numbered_with_a_new_event_last_and_a_number_picks() {
        let (choice, shown) = pick(2, "2\n");
        assert_eq!(choice, Choice::Event(1));
        assert!(shown.contains("  1. e1.db (Event 1)\n  2. e2.db (Event 2)\n  3. a new event\n"), "{shown}");
        assert_eq!(pick(2, "3\n").0, Choice::New);
    }

    #[test]
    fn enter_alone_or_nobody_typing_takes_the_first_and_a_wrong_number_is_asked_again() {
        assert_eq!(pick(2, "\n").0, Choice::Event(0));
        assert_eq!(pick(2, "").0, Choice::Event(0));
        assert_eq!(pick(0, "").0, Choice::New);
        let (choice, shown) = pick(2, "7\nthe second\n2\n");
        assert_eq!(choice, Choice::Event(1));
        assert_eq!(shown.matches("Type a number from 1 to 3.").count(), 2, "{shown}");
        assert!(shown.contains("(Enter alone: 1): 7\nType a number"), "what was typed is shown: {shown}");
    }

    #[test]
    fn a_new_event_gets_a_free_dated_name() {
        let dir = tempfile::tempdir().expect("a folder");
        let day = NaiveDate::from_ymd_opt(2026, 11, 28).expect("a day");
        assert_eq!(new_file(dir.path(), day), dir.path().join("event-2026-11-28.db"));
        std::fs::write(dir.path().join("event-2026-11-28.db"), "").expect("write");
        assert_eq!(new_file(dir.path(), day), dir.path().join("event-2026-11-28-2.db"));
    }
}
