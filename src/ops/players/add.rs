//! Adding players: typed on the command line or read from a CSV file, all checked before any is added.

use crate::domain::names;
use crate::domain::topic::Topic;
use crate::error::{CardFile, Error, Refusal, Result, WayOut};
use crate::ops::player_names;
use crate::store::{Actor, Change, PlayerId, Store, Touched, player, round};
use rusqlite::Connection;
use std::collections::HashMap;
use std::path::Path;

/// A player to add, from the command line or a CSV line.
#[derive(Debug, Clone)]
pub struct NewRow {
    /// Name as typed.
    pub name: String,
    /// Organiser's id.
    pub ext_id: Option<String>,
    /// E-mail.
    pub email: Option<String>,
}

/// Players added.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Added {
    /// Their ids, in the order given.
    pub added: Vec<PlayerId>,
    /// Their names as stored (spaces cleaned).
    #[serde(skip)]
    pub names: Vec<String>,
    /// For players added after round 1 is paired: the round they join from and what the rounds missed
    /// count as ("joining from round 3; a match loss for each of rounds 1-2, or none with ...").
    #[serde(skip)]
    pub joining: Option<String>,
    /// [`Added::joining`] in the web's words (no command to type).
    #[serde(skip)]
    pub joining_web: Option<String>,
}

/// Players imported from a CSV file.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Imported {
    /// Their ids, in the file's order.
    pub added: Vec<PlayerId>,
    /// Control characters removed from the file's cells.
    pub control_characters_removed: usize,
}

/// `player add NAME...`: adds the players in one write, or none if any name is unusable, the same as or a
/// look-alike of a player's or of another given name. Players added after round 1 is paired join from the
/// next round.
pub fn add_players(store: &mut Store, actor: &Actor, rows: &[NewRow]) -> Result<Added> {
    let added = store.write(actor, |tx| insert_rows(tx, rows, |_| String::new()))?;
    let names = rows.iter().map(|r| names::clean_name(&r.name).unwrap_or_default()).collect();
    let (joining, joining_web) = joining_words(store.conn())?.unzip();
    Ok(Added { added, names, joining, joining_web })
}

/// "added 2 players: Ana, Bo" and, for a late entry, what joining now means (`web`: in the web's words).
pub fn added_words(added: &Added, web: bool) -> String {
    let n = added.added.len();
    let head = format!("added {}: {}", crate::domain::words::count(n, "player"), added.names.join(", "));
    match if web { &added.joining_web } else { &added.joining } {
        None => head,
        Some(j) => format!("{head} ({j})"),
    }
}

/// What joining now means, when round 1 is already paired (see [`Added::joining`]), for the command line and
/// for the web.
fn joining_words(conn: &Connection) -> Result<Option<(String, String)>> {
    let current = round::current(conn)?;
    if current == 0 {
        return Ok(None);
    }
    let missed = if current == 1 { "round 1".to_string() } else { format!("each of rounds 1-{current}") };
    let (what, web) = if crate::store::event::values(conn)?.text("late-entry") == "loss" {
        (
            format!("a match loss for {missed}, or none with `mmjudge event set late-entry none`"),
            format!(
                "a match loss for {missed} (the late-entry setting; a head judge can set it to none with Change the setting on the Judges page)"
            ),
        )
    } else {
        let none = format!("no result for {missed} (late-entry none)");
        (none.clone(), none)
    };
    let from = format!("joining from round {}", current + 1);
    Ok(Some((format!("{from}; {what}"), format!("{from}; {web}"))))
}

/// A player CSV file read and checked for form (see [`read_import`]), ready to import.
#[derive(Debug, Clone)]
pub struct ImportInput {
    /// The file as named to the judge.
    pub file: String,
    /// Its players.
    pub rows: Vec<NewRow>,
    /// Control characters removed from its cells.
    pub removed: usize,
}

/// Reads a player CSV file for [`import_players`].
pub fn read_import(path: &Path) -> Result<ImportInput> {
    let (rows, removed) = read_csv_counted(path)?;
    Ok(ImportInput { file: path.display().to_string(), rows, removed })
}

/// `player import FILE`: adds every player of a CSV file (header row; `name` required, `id` and `email`
/// optional) in one write, or none, naming every bad line.
pub fn import_players(store: &mut Store, actor: &Actor, input: &ImportInput) -> Result<Imported> {
    let shown = &input.file;
    let added = store.write(actor, |tx| {
        let (ids, mut change) =
            insert_rows(tx, &input.rows, |i| format!("line {}: ", i + 2)).map_err(|e| prefixed(e, shown))?;
        change.summary = format!("{} from {shown}", change.summary);
        Ok((ids, change))
    })?;
    Ok(Imported { added, control_characters_removed: input.removed })
}

/// The same error, its message starting with the file's name.
fn prefixed(e: Error, file: &str) -> Error {
    match e {
        Error::BadInput(m) => Error::BadInput(format!("{file}: {m}")),
        Error::NotFound(m) => Error::NotFound(format!("{file}: {m}")),
        Error::Forbidden(m) => Error::Forbidden(format!("{file}: {m}")),
        Error::Refused(m) => Error::Refused(format!("{file}: {m}")),
        // A failure of the store (SQLite, the disk) stays one: a 500 with its cause, never a refusal.
        other => other,
    }
}

/// Checks every row (a usable name, not the same as or a look-alike of a player's or of another row's) and
/// returns the cleaned names, or one problem per bad row, numbered by `line_of`.
fn check_rows(
    conn: &Connection,
    rows: &[NewRow],
    line_of: impl Fn(usize) -> String,
) -> Result<std::result::Result<Vec<String>, Vec<String>>> {
    let mut problems = Vec::new();
    let mut cleaned: Vec<String> = Vec::new();
    // Rows by key and by skeleton: only a row sharing one of them can be the same person (as in
    // `player::same_or_alike`), so each row is compared with those, not with every row before it.
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    let mut by_skeleton: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, row) in rows.iter().enumerate() {
        let at = line_of(i);
        match player_names::check_name(conn, &row.name, None)? {
            Err(refusal) => problems.push(format!("{at}{refusal}")),
            Ok(name) => {
                let (key, skeleton) = (names::key(&name), names::skeleton(&name));
                let mut earlier: Vec<usize> =
                    by_key.get(&key).into_iter().chain(by_skeleton.get(&skeleton)).flatten().copied().collect();
                earlier.sort_unstable();
                earlier.dedup();
                let twin = earlier.iter().find_map(|&c| player_names::same_person(&name, &cleaned[c]));
                match twin {
                    Some(player_names::NameRefusal::LookAlike { existing, .. }) => problems
                        .push(format!("{at}\"{name}\" looks the same as \"{existing}\" (letters of another alphabet)")),
                    Some(_) => problems.push(format!("{at}\"{name}\" appears twice")),
                    None => {}
                }
                by_key.entry(key).or_default().push(cleaned.len());
                by_skeleton.entry(skeleton).or_default().push(cleaned.len());
                cleaned.push(name);
            }
        }
    }
    Ok(if problems.is_empty() { Ok(cleaned) } else { Err(problems) })
}

/// Inserts checked rows inside a transaction.
fn insert_rows(
    conn: &Connection,
    rows: &[NewRow],
    line_of: impl Fn(usize) -> String,
) -> Result<(Vec<PlayerId>, Change)> {
    if rows.is_empty() {
        let out = crate::error::WayOut::Example(crate::error::Example::PlayerNames);
        return Err(crate::error::Refusal::bad_input("no players given").way_out(out).into());
    }
    crate::domain::bounds::players((player::count(conn)? as usize).saturating_add(rows.len()))
        .map_err(Error::Refused)?;
    let cleaned = match check_rows(conn, rows, line_of)? {
        Ok(cleaned) => cleaned,
        Err(problems) => {
            return Err(Error::refused(format!(
                "nothing added: {} bad name{}: {}",
                problems.len(),
                plural(problems.len()),
                problems.join("; ")
            )));
        }
    };
    let current = round::current(conn)?;
    let mut ids = Vec::with_capacity(rows.len());
    for (row, name) in rows.iter().zip(&cleaned) {
        let name = name.as_str();
        let key = names::key(name);
        ids.push(player::insert(
            conn,
            &player::NewPlayer {
                name,
                name_key: &key,
                ext_id: row.ext_id.as_deref().map(str::trim).filter(|s| !s.is_empty()),
                email: row.email.as_deref().map(str::trim).filter(|s| !s.is_empty()),
                joined_round: current + 1,
            },
        )?);
    }
    let late = if current > 0 { format!(" (joining from round {})", current + 1) } else { String::new() };
    let summary = if rows.len() == 1 {
        format!("added player \"{}\"{late}", cleaned[0])
    } else {
        format!("added {} players{late}", rows.len())
    };
    Ok((ids.clone(), Change::about(summary, ids).touching(Touched::event(Topic::Round))))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Reads a player CSV (header row; `name` required, `id` and `email` optional), reporting every bad line.
pub fn read_csv(path: &Path) -> Result<Vec<NewRow>> {
    read_csv_counted(path).map(|(rows, _)| rows)
}

/// Like [`read_csv`], also removing control characters from every cell: returns how many were removed.
pub fn read_csv_counted(path: &Path) -> Result<(Vec<NewRow>, usize)> {
    let file =
        std::fs::File::open(path).map_err(|e| Error::bad_input(format!("{}: cannot read: {e}", path.display())))?;
    read_csv_from(file, &path.display().to_string())
}

/// `player import` of a file received under the name `shown` (an upload from the head judge's page).
pub fn read_import_named(path: &Path, shown: &str) -> Result<ImportInput> {
    let file = std::fs::File::open(path).map_err(|e| Error::bad_input(format!("{shown}: cannot read: {e}")))?;
    let (rows, removed) = read_csv_from(file, shown)?;
    Ok(ImportInput { file: shown.to_string(), rows, removed })
}

/// [`read_csv_counted`] of what `input` reads, its messages naming it `shown`.
fn read_csv_from(input: impl std::io::Read, shown: &str) -> Result<(Vec<NewRow>, usize)> {
    use std::io::BufRead;
    let mut removed = 0usize;
    let mut clean = |cell: &str| {
        let (kept, n) = crate::domain::text::strip(cell, false);
        removed += n;
        kept.trim().to_string()
    };
    let mut input = std::io::BufReader::new(input);
    let start = input.fill_buf().map_err(|e| Error::bad_input(format!("{shown}: cannot read: {e}")))?;
    if let Some(what) = card_data(start) {
        return Err(not_players(shown, what, CardFile::Reference));
    }
    let mut reader = csv::ReaderBuilder::new().flexible(false).trim(csv::Trim::All).from_reader(input);
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| Error::bad_input(format!("{shown}: cannot read the header row: {e}")))?
        .iter()
        .map(|h| h.trim().trim_start_matches('\u{feff}').to_lowercase())
        .collect();
    if let Some(card) = headers.iter().find(|h| CARD_COLUMNS.contains(&h.as_str())) {
        let is = if headers.iter().any(|h| h == "count") { CardFile::Pool } else { CardFile::Reference };
        let what = match is {
            CardFile::Pool => format!("a card pool (it has a {card} column)"),
            CardFile::Reference => format!("a card reference (it has a {card} column)"),
        };
        return Err(not_players(shown, &what, is));
    }
    let col = |n: &str| headers.iter().position(|h| h == n);
    let Some(name_col) = col("name") else {
        return Err(Error::bad_input(format!(
            "{shown}: no \"name\" column (found: {}): the first line must be a header such as name,id,email",
            headers.join(", ")
        )));
    };
    let (id_col, email_col) = (col("id"), col("email"));
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        match rec {
            Ok(r) => rows.push(NewRow {
                name: clean(r.get(name_col).unwrap_or("")),
                ext_id: id_col.and_then(|c| r.get(c)).map(&mut clean),
                email: email_col.and_then(|c| r.get(c)).map(&mut clean),
            }),
            Err(e) => problems.push(format!("line {}: {}", i + 2, csv_problem(&e))),
        }
    }
    if !problems.is_empty() {
        return Err(Error::bad_input(format!("{shown}: nothing imported: {}", problems.join("; "))));
    }
    Ok((rows, removed))
}

/// Columns only a file of cards has (the pool's, the card reference's): a players file with one is refused, as
/// importing it would make a player of every card.
const CARD_COLUMNS: [&str; 12] = [
    "mana_cost",
    "type_line",
    "count",
    "type",
    "cost",
    "layout",
    "faces",
    "oracle_text",
    "power",
    "toughness",
    "cmc",
    "mana_value",
];

/// What the file's first bytes say it is, when they are card data rather than a CSV: JSON (MTGJSON's and
/// Scryfall's files open with `{` or `[`) or a gzip-compressed file.
fn card_data(start: &[u8]) -> Option<&'static str> {
    let text = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
    if text.starts_with(&[0x1f, 0x8b]) {
        return Some("compressed card data (as MTGJSON's .gz files are)");
    }
    match text.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{' | b'[') => Some("card data in JSON (as MTGJSON's and Scryfall's files are)"),
        _ => None,
    }
}

/// The refusal of a file of cards given as the players, nothing imported: `what` it looks like, and where it
/// is imported instead.
fn not_players(shown: &str, what: &str, is: CardFile) -> Error {
    Refusal::bad_input(format!("{shown}: nothing imported: this looks like {what}, not a list of players"))
        .way_out(WayOut::ImportAsCards { file: shown.to_string(), is })
        .into()
}

/// A CSV reading error in words for a judge (`3 fields where the header has 4`).
fn csv_problem(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields where the header has {expected_len}")
        }
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".into(),
        _ => e.to_string(),
    }
}
