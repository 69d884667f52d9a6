//! What the deck sheets show (`library sheets`, the site's deck pages): every library with its heading, its
//! file name and its cards sorted by cost.

use super::label;
use super::show::{ShownCard, pool_types, shown_from};
use crate::error::Result;
use crate::ops::player_names::names_by_id;
use crate::store::library::{self as store_library, Library, LibraryCard};
use crate::store::{LibraryId, PlayerId};
use rusqlite::Connection;
use std::collections::HashMap;

/// One library's deck sheet: where it plays, its page's file name and its cards sorted by cost.
#[derive(Debug, Clone)]
pub struct LibrarySheet {
    /// The library.
    pub library: Library,
    /// Its label (`3A`, or the player's name when sealed).
    pub label: String,
    /// Heading (`Table 3 · Seat A`, `Sealed · Ana`).
    pub title: String,
    /// A line under the heading.
    pub note: String,
    /// The file name of its sheet.
    pub file: String,
    /// Its cards, main library first, each part sorted by cost.
    pub cards: Vec<ShownCard>,
}

/// Every library's sheet: fixed ones by table and seat, then sealed ones by player name.
pub fn library_sheets(conn: &Connection) -> Result<Vec<LibrarySheet>> {
    let players = names_by_id(conn)?;
    let types = pool_types(conn)?;
    // Every library's cards in one read (by library, in position order), each printed cost read once.
    let mut by_lib: HashMap<LibraryId, Vec<LibraryCard>> = HashMap::new();
    for c in store_library::all_cards(conn)? {
        by_lib.entry(c.library).or_default().push(c);
    }
    let mut values = HashMap::new();
    let mut out = Vec::new();
    for lib in store_library::all(conn)? {
        let label = label(&lib, &players);
        let (title, note, file) = describe(&lib, &label, &players);
        let cards = shown_from(conn, by_lib.remove(&lib.id).unwrap_or_default(), &types, &mut values)?;
        out.push(LibrarySheet { library: lib, label, title, note, file, cards });
    }
    let sealed_key = |s: &LibrarySheet| {
        (
            s.library.table.is_none(),
            if s.library.table.is_none() { crate::domain::names::fold(&s.label) } else { String::new() },
        )
    };
    out.sort_by_cached_key(sealed_key);
    Ok(out)
}

/// Heading, note and file name of a library's sheet.
fn describe(lib: &Library, name: &str, players: &HashMap<PlayerId, String>) -> (String, String, String) {
    match (lib.table, &lib.seat) {
        (Some(t), Some(s)) => (
            format!("Table {t} · Seat {s}"),
            format!("This library stays at table {t}, seat {s}, for the whole event. Tick each card as it goes in."),
            format!("library-{t}{s}.html"),
        ),
        _ => {
            let owner = lib.player.and_then(|p| players.get(&p)).map_or(name, String::as_str);
            (
                format!("Sealed · {owner}"),
                "Sealed library: it travels with its player. The sideboard is listed below the main library.".into(),
                format!("library-sealed-{}.html", slug(owner, lib.id.0)),
            )
        }
    }
}

/// A file-name-safe form of a player's name, with the library id to keep names apart.
fn slug(name: &str, id: i64) -> String {
    let s: String =
        crate::domain::names::fold(name).chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    format!("{}-{id}", s.trim_matches('-'))
}
