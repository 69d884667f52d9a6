//! Output snapshots: every output format of every command on one fixed event, so that a change of any byte a
//! user sees shows up as a reviewable diff.
//!
//! The event (`Snapshot Open`, 3 rounds, seed 7, the bundled `examples/` files) is built once per test binary
//! through the real binary by the steps of [`SCENARIO`], each at a fixed `MMJUDGE_NOW`, with `TZ=UTC`; every
//! test then works on its own copy of that event file, in a temporary folder, with relative paths (so no
//! temporary path appears in an output; [`redact`] replaces any that would).
//!
//! One snapshot per command output, named after the command line (`pairings_--json.snap`); its header says
//! the exact command and the moment it ran at. The `.snap` files are in `tests/cli/snapshots/snapshots/`.
//!
//! Updating them after an intended change of output:
//!
//! ```sh
//! INSTA_UPDATE=always cargo test --test cli snapshots   # rewrites the .snap files in place
//! git diff tests/cli/snapshots/                         # review every changed byte, then commit with the reason
//! ```
//!
//! or, with `cargo-insta` installed (`cargo install cargo-insta`; it is not on the build machine today),
//! `cargo insta test --review` (or `--accept`). A plain `cargo test` fails on any difference and, outside CI,
//! writes the new output beside the old one as `.snap.new` (ignored by git);
//! `INSTA_FORCE_PASS=1 cargo test --test cli snapshots` collects all of them in one run instead of stopping at
//! each test's first. A snapshot whose command line was removed or renamed stays behind: delete its `.snap`
//! file (or `cargo insta test --unreferenced=delete`). Each snapshot name may be used once ([`check`] says).
//!
//! Modules: `writes` (the replies of every write, and a small sealed event of its own), `views` (each listing
//! as a table, `--json` and `--csv`, and an empty event's), `pages` (every HTML output and written file, the
//! demo's report), `refusals` (a representative one-line error per command group).

mod pages;
mod refusals;
mod views;
mod writes;

use crate::harness::{Event, Run, dump};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// The moment every read of the finished event runs at: round 3 is being played (one result in, a decision
/// running at table 2 since 11:12).
pub const NOW: &str = "2026-05-01T11:20:00Z";

/// The example files copied next to the event (read by the scenario with relative paths).
const EXAMPLES: [&str; 3] = ["cards.csv", "pool.csv", "players.csv"];

/// The fixed event's history: `(MMJUDGE_NOW, arguments)`, in order. Every step must succeed; its reply is
/// snapshotted by `writes::scenario_replies`.
pub const SCENARIO: &[(&str, &[&str])] = &[
    ("08:00:00", &["event", "new", "Snapshot Open", "--rounds", "3", "--seed", "7"]),
    ("08:01:00", &["event", "set", "round-minutes", "40"]),
    ("08:02:00", &["cards", "import", "cards.csv"]),
    ("08:03:00", &["ban", "add", "Black Lotus", "--group", "too-powerful"]),
    ("08:03:30", &["ban", "add", "Ancestral Recall", "--group", "too-powerful"]),
    ("08:03:40", &["ban", "remove", "Ancestral Recall"]),
    ("08:04:00", &["pool", "import", "pool.csv"]),
    ("08:05:00", &["pool", "add", "Lightning Bolt", "--count", "2"]),
    ("08:05:30", &["pool", "remove", "Abrade", "--count", "1"]),
    ("08:06:00", &["pool", "exclude", "Absorb"]),
    ("08:06:10", &["pool", "exclude", "Acidic Slime"]),
    ("08:06:20", &["pool", "include", "Acidic Slime"]),
    ("08:06:30", &["pool", "watch", "add", "Timetwister"]),
    ("08:06:40", &["pool", "watch", "add", "Ancestral Recall"]),
    ("08:06:50", &["pool", "watch", "remove", "Ancestral Recall"]),
    ("08:07:00", &["player", "import", "players.csv"]),
    ("08:07:30", &["player", "add", "Late Larry"]),
    ("08:08:00", &["player", "rename", "larry", "Larry Late"]),
    ("08:08:30", &["player", "drop", "larry"]),
    // --keep-unusable: the libraries every later step plays on stay as they were built before unusable costs
    // were left out by default (Flame Wave is in one; the reply says so).
    ("08:09:00", &["library", "build", "--tables", "8", "--keep-unusable"]),
    ("08:10:00", &["library", "swap", "1A", "Aether Spellbomb", "Lightning Bolt"]),
    // Round 1: the square movement; notes, decisions, a challenge, penalties, a ruling, an extension.
    ("08:30:00", &["round", "pair"]),
    ("08:31:00", &["round", "swap", "chloe", "dmitri"]),
    ("09:00:00", &["round", "start"]),
    ("09:05:00", &["note", "1", "dmitri", "B1", "Demonic Tutor"]),
    ("09:06:00", &["note", "1", "lucja", "U1", "--unnamed"]),
    ("09:07:00", &["note", "1", "dmitri", "R", "Lightning Bolt"]),
    ("09:08:00", &["note", "1", "lucja", "G", "Llanowar Elves"]),
    ("09:08:30", &["note", "undo", "1"]),
    ("09:09:00", &["clock", "1", "--start", "dmitri", "--at", "2026-05-01T09:09:00Z"]),
    ("09:09:50", &["clock", "1", "--stop", "--at", "2026-05-01T09:09:50Z"]),
    ("09:10:00", &["clock", "1", "--start", "lucja", "--at", "2026-05-01T09:10:00Z"]),
    ("09:10:20", &["clock", "1", "--stop", "--at", "2026-05-01T09:10:20Z"]),
    (
        "09:12:00",
        &[
            "challenge",
            "1",
            "--by",
            "lucja",
            "--about",
            "whether Demonic Tutor was declared",
            "--ruling",
            "denied",
            "--evidence",
            "1",
            "--by-says",
            "never declared",
            "--other-says",
            "declared at 09:05",
        ],
    ),
    ("09:13:00", &["penalty", "lucja", "slow-play", "--note", "long think"]),
    ("09:14:00", &["ruling", "1", "Lucja may not take back the attack"]),
    ("09:15:00", &["round", "extend", "1", "3", "--reason", "deck check"]),
    ("09:30:00", &["result", "1", "dmitri", "--by", "life", "--life", "7", "0"]),
    ("09:32:00", &["result", "3", "draw", "--by", "intentional-draw"]),
    ("09:33:00", &["result", "fix", "3", "seán", "--by", "concession"]),
    // The round is closed early: time is called at every table still playing (a result by time waits for it).
    ("09:40:00", &["round", "end", "--force"]),
    ("09:40:30", &["result", "2", "--by", "time", "--life", "12", "9"]),
    ("09:41:00", &["result", "4", "--by", "time", "--life", "5", "5"]),
    ("09:42:00", &["result", "5", "ingrid", "--by", "decking"]),
    ("09:43:00", &["result", "6", "tomás", "--by", "poison"]),
    ("09:44:00", &["penalty", "zoë", "tardiness", "--table", "7", "--at", "2026-05-01T09:44:00Z"]),
    ("09:45:00", &["result", "8", "fatima", "--by", "challenges"]),
    // Round 2: a drop changes the field, so Swiss with a bye.
    ("09:50:00", &["player", "drop", "emeka"]),
    ("10:00:00", &["round", "pair"]),
    ("10:05:00", &["round", "start"]),
    ("10:20:00", &["note", "3", "aiko", "W", "Swords to Plowshares"]),
    ("10:21:00", &["note", "3", "björn", "UU", "Counterspell"]),
    ("10:25:00", &["result", "1", "fatima", "--by", "life"]),
    ("10:26:00", &["result", "2", "ingrid", "--by", "concession"]),
    ("10:27:00", &["result", "3", "björn", "--by", "life"]),
    ("10:28:00", &["result", "4", "dmitri", "--by", "decking"]),
    ("10:29:00", &["result", "5", "kwame", "--by", "life"]),
    ("10:30:00", &["challenge", "6", "--by", "zoë", "--about", "Mateus named a card twice", "--ruling", "upheld"]),
    ("10:31:00", &["result", "6", "zoë", "--by", "life"]),
    ("10:32:00", &["penalty", "priya", "outside-assistance"]),
    ("10:45:00", &["round", "end"]),
    // Round 3: paired, taken back and paired again; being played at NOW.
    ("10:50:00", &["player", "drop", "kwame"]),
    ("10:51:00", &["player", "undrop", "kwame"]),
    ("10:59:00", &["round", "pair"]),
    ("10:59:30", &["round", "unpair"]),
    ("11:00:00", &["round", "pair"]),
    ("11:05:00", &["round", "start", "--at", "2026-05-01T11:05:00Z"]),
    ("11:10:00", &["note", "2", "björn", "G", "Llanowar Elves"]),
    ("11:11:00", &["clock", "2", "--start", "björn", "--at", "2026-05-01T11:11:00Z"]),
    ("11:11:30", &["clock", "2", "--stop", "--at", "2026-05-01T11:11:30Z"]),
    ("11:12:00", &["clock", "2", "--start", "fatima", "--at", "2026-05-01T11:12:00Z"]),
    ("11:13:00", &["round", "extend", "2", "5", "--reason", "judge call"]),
    ("11:14:00", &["ruling", "2", "Fatima keeps the card on top"]),
    ("11:15:00", &["result", "1", "tomás", "--by", "concession", "--life", "3", "8"]),
];

/// The built event: its files, and the reply of every scenario step.
pub struct Template {
    files: Vec<(String, Vec<u8>)>,
    /// What each scenario step printed (as [`shown_run`] shows it).
    pub replies: Vec<String>,
}

static TEMPLATE: OnceLock<Template> = OnceLock::new();

/// The fixed event, built on first use.
pub fn template() -> &'static Template {
    TEMPLATE.get_or_init(|| {
        let ev = Event::empty();
        for name in EXAMPLES {
            std::fs::copy(crate::harness::example(name), ev.path(name)).expect("copy example");
        }
        let mut replies = Vec::new();
        for (time, args) in SCENARIO {
            let run = run_at(&ev, &format!("2026-05-01T{time}Z"), args);
            assert_eq!(run.code, 0, "scenario step {args:?} failed:\n{}{}", run.stdout, run.stderr);
            replies.push(shown_run(&ev, &run));
        }
        let mut files = Vec::new();
        for entry in std::fs::read_dir(ev.dir.path()).expect("read dir").flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            files.push((name, std::fs::read(entry.path()).expect("read event file")));
        }
        Template { files, replies }
    })
}

/// A fresh copy of the fixed event in its own temporary folder.
pub fn event() -> Event {
    let ev = Event::empty();
    for (name, bytes) in &template().files {
        std::fs::write(ev.path(name), bytes).expect("write copy");
    }
    ev
}

/// Runs mmjudge in the event's folder at `now` (RFC 3339), with the event file named relatively.
pub fn run_at(ev: &Event, now: &str, args: &[&str]) -> Run {
    ev.run_with(args, &[("MMJUDGE_DB", "event.db"), ("MMJUDGE_NOW", now), ("TZ", "UTC")])
}

/// Runs mmjudge at [`NOW`].
pub fn run(ev: &Event, args: &[&str]) -> Run {
    run_at(ev, NOW, args)
}

/// The command line as typed (arguments with spaces quoted).
pub fn shown(args: &[&str]) -> String {
    let quoted = args.iter().map(|a| if a.contains(' ') || a.is_empty() { format!("\"{a}\"") } else { a.to_string() });
    std::iter::once("mmjudge".to_string()).chain(quoted).collect::<Vec<_>>().join(" ")
}

/// A snapshot name from a command line: ASCII letters, digits, `-`, `.`; `_` for anything else.
pub fn name_of(args: &[&str]) -> String {
    let joined = args.join(" ");
    let name: String =
        joined.chars().map(|c| if c.is_ascii_alphanumeric() || "-.".contains(c) { c } else { '_' }).collect();
    name.trim_matches('_').to_string()
}

/// Replaces the temporary folder's path, wherever it appears, by `[DIR]`.
pub fn redact(ev: &Event, text: &str) -> String {
    let dir = ev.dir.path().to_string_lossy().into_owned();
    let canonical = ev.dir.path().canonicalize().map(|p| p.to_string_lossy().into_owned()).unwrap_or(dir.clone());
    text.replace(&canonical, "[DIR]").replace(&dir, "[DIR]")
}

/// Asserts that a text a command printed ends its last line (insta's comparison ignores a missing final line
/// feed, so this is what catches it): a shell prompt after it starts on a line of its own, and `>>` appends
/// whole lines.
#[track_caller]
pub fn ends_its_last_line(what: &str, text: &str) {
    let tail: String = text.chars().rev().take(80).collect::<Vec<_>>().into_iter().rev().collect();
    assert!(text.is_empty() || text.ends_with('\n'), "{what} does not end with a line feed: ...{tail:?}");
}

/// What a user sees of a run: stdout, then stderr and the exit status when there are any. Each must end its
/// last line ([`ends_its_last_line`]).
#[track_caller]
pub fn shown_run(ev: &Event, run: &Run) -> String {
    ends_its_last_line("standard output", &run.stdout);
    ends_its_last_line("standard error", &run.stderr);
    let mut out = run.stdout.clone();
    if !run.stderr.is_empty() {
        out.push_str("\n[stderr]\n");
        out.push_str(&run.stderr);
    }
    if run.code != 0 {
        out.push_str(&format!("\n[exit {}]\n", run.code));
    }
    redact(ev, &out)
}

/// The snapshot names asserted so far in this test binary (each must be used once).
static NAMES: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Asserts one snapshot, named `name`, described by the command that made it.
pub fn check(name: &str, description: &str, contents: &str) {
    let fresh = NAMES.lock().map(|mut names| names.insert(name.to_string())).unwrap_or(true);
    assert!(fresh, "the snapshot name {name} is used twice: give one of them a distinct name");
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(description);
    settings.bind(|| insta::assert_snapshot!(name, contents));
}

/// Runs a command at [`NOW`] on `ev` and snapshots what it printed.
pub fn snap(ev: &Event, args: &[&str]) {
    let run = run(ev, args);
    check(&name_of(args), &format!("{} (at {NOW})", shown(args)), &shown_run(ev, &run));
}

/// Runs a command that must be refused: exit 1, one line, the event file unchanged; snapshots the line.
pub fn refused(ev: &Event, args: &[&str]) {
    let before = dump(&ev.db());
    let run = run(ev, args);
    let line = redact(ev, run.refused());
    ends_its_last_line(&shown(args), &run.stderr);
    assert_eq!(before, dump(&ev.db()), "a refused command changed the event file: {args:?}");
    check(&format!("refused__{}", name_of(args)), &format!("{} (at {NOW})", shown(args)), &line);
}

/// A file written by a command, relative to the event's folder.
pub fn file(ev: &Event, path: &str) -> String {
    let full = ev.path(path);
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
    redact(ev, &text)
}

/// Every file under `dir` (relative to the event's folder), sorted, as paths relative to `dir`.
pub fn files_under(ev: &Event, dir: &str) -> Vec<String> {
    fn walk(root: &Path, here: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(here).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if let Ok(rel) = path.strip_prefix(root) {
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    let root = ev.path(dir);
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out.sort();
    out
}
