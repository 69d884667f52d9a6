//! Players as judges type them: the one resolver every command uses to find a player from a typed name,
//! and the checks that keep two players' names apart (`player add`, `player import`, `player rename`).
//!
//! A typed name is folded (domain::names::fold: accents, case and punctuation aside) and matched, in this
//! order, as a whole name, as a whole word of a name, then as the beginning of a name or of its words; the
//! first level with exactly one player decides. The candidates are narrowed inside SQLite on the stored
//! folded names, so a lookup never loads the whole field.

use crate::domain::names::{self, NameProblem, Resolved};
use crate::error::{Error, Refusal, Result, WayOut};
use crate::store::{PlayerId, matches, player};
use rusqlite::Connection;
use std::fmt;

/// How many close names a refusal suggests.
const SUGGESTIONS: u32 = 3;

/// Every player's name by id (load once to name many players).
pub fn names_by_id(conn: &Connection) -> Result<std::collections::HashMap<PlayerId, String>> {
    player::names(conn)
}

/// The one player a typed name means, or a refusal naming the players it could mean or the closest names.
pub fn find(conn: &Connection, query: &str) -> Result<player::Player> {
    match lookup(conn, query)? {
        Resolved::One(p) => Ok(p),
        Resolved::Ambiguous(found) => Err(Error::bad_input(format!(
            "\"{}\" matches several players ({}): type more of the name",
            shown(query),
            found.join(", ")
        ))),
        Resolved::Unknown(_) if player::count(conn)? == 0 => {
            Err(Refusal::not_found(format!("unknown player \"{}\": the event has no players yet", shown(query)))
                .way_out_after(crate::error::Join::Semicolon, WayOut::AddPlayers)
                .into())
        }
        Resolved::Unknown(close) => {
            Err(Refusal::not_found(format!("unknown player \"{}\": closest are {}", shown(query), close.join(", ")))
                .way_out_after(crate::error::Join::Semicolon, WayOut::CheckName)
                .into())
        }
    }
}

/// Resolves a typed name against the field (see the module's rules): the player, the players it matches
/// equally well (closest first), or the closest names when it matches none.
pub fn lookup(conn: &Connection, query: &str) -> Result<Resolved<player::Player>> {
    let q = names::fold(query);
    let Some(first) = q.split(' ').next().filter(|w| !w.is_empty()) else {
        return Ok(Resolved::Unknown(suggestions(conn, &q)?));
    };
    let items: Vec<(String, player::Player)> =
        player::named_like(conn, first)?.into_iter().map(|p| (p.name.clone(), p)).collect();
    Ok(match names::pick(query, &items) {
        Resolved::Unknown(_) => Resolved::Unknown(suggestions(conn, &q)?),
        found => found,
    })
}

/// The closest names to a folded query, best first: the reasonably close ones, or the best few when none is.
fn suggestions(conn: &Connection, q: &str) -> Result<Vec<String>> {
    let owned = q.to_string();
    let scored = player::best_scored(conn, move |name| names::closeness(&owned, name), SUGGESTIONS)?;
    let close: Vec<String> = scored.iter().filter(|(_, s)| *s >= 0.6).map(|(p, _)| p.name.clone()).collect();
    Ok(if close.is_empty() { scored.into_iter().map(|(p, _)| p.name).collect() } else { close })
}

/// The two players of a match at a table, as the table resolver needs them.
#[derive(Debug, Clone, Copy)]
pub struct AtTable<'a> {
    /// The round.
    pub round: u32,
    /// The table number.
    pub table: u32,
    /// The players at seats A and B.
    pub players: [&'a player::Player; 2],
}

/// Which of the two players at a table a typed name means (0 for seat A, 1 for seat B).
///
/// The typed name is matched against the two players first, by the same rules as [`find`]. When it only
/// begins a name here but is exactly the name or a whole word of a player who sits at another table of the
/// round, it is refused naming both ("bo" at a table with Bob, while Bo Nilsson plays at table 4: the judge
/// may have the wrong table). A name matching nobody here is refused, saying where that player plays.
pub fn find_at_table(conn: &Connection, at: AtTable<'_>, query: &str) -> Result<usize> {
    let here: Vec<(String, usize)> = at.players.iter().enumerate().map(|(i, p)| (p.name.clone(), i)).collect();
    let q = names::fold(query);
    let level_here = here.iter().filter_map(|(n, _)| names::name_match(&q, &names::fold(n))).max();
    match names::pick(query, &here) {
        Resolved::One(i) => {
            if level_here == Some(names::NameMatch::Prefix) {
                refuse_if_elsewhere(conn, at, query, &q)?;
            }
            Ok(i)
        }
        Resolved::Ambiguous(found) => Err(Error::refused(format!(
            "\"{}\" matches both players at table {} ({}): type more of the name",
            shown(query),
            at.table,
            found.join(" and ")
        ))),
        Resolved::Unknown(_) => {
            let p = find(conn, query)?;
            let where_ = match matches::of_player_in_round(conn, p.id, at.round)? {
                Some(m) => match m.table {
                    Some(t) => format!("; {} plays at table {t}", p.name),
                    None => format!("; {} has a bye in round {}", p.name, at.round),
                },
                None => String::new(),
            };
            Err(Error::refused(format!(
                "{} is not at table {} in round {} ({} vs {}){where_}",
                p.name, at.table, at.round, at.players[0].name, at.players[1].name
            )))
        }
    }
}

/// Refuses a typed name that only begins a name at this table when it is exactly the name, or a whole word
/// of the name, of a player seated at another table of the round.
fn refuse_if_elsewhere(conn: &Connection, at: AtTable<'_>, query: &str, q: &str) -> Result<()> {
    let Some(first) = q.split(' ').next() else { return Ok(()) };
    let mut elsewhere = Vec::new();
    for p in player::named_like(conn, first)? {
        if at.players.iter().any(|h| h.id == p.id) {
            continue;
        }
        if names::name_match(q, &names::fold(&p.name)) < Some(names::NameMatch::Word) {
            continue;
        }
        if let Some(t) = matches::of_player_in_round(conn, p.id, at.round)?.and_then(|m| m.table) {
            elsewhere.push(format!("{} at table {t}", p.name));
        }
    }
    if elsewhere.is_empty() {
        return Ok(());
    }
    Err(Error::refused(format!(
        "\"{}\" is {}; at table {} sit {} and {}: type more of the name or check the table",
        shown(query),
        elsewhere.join(" or "),
        at.table,
        at.players[0].name,
        at.players[1].name
    )))
}

/// Why a new name (or a new spelling of a player's name) cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub enum NameRefusal {
    /// Empty, without a letter, or holding control or bidi characters.
    Bad {
        /// The name as typed.
        typed: String,
        /// What is wrong.
        problem: NameProblem,
    },
    /// The same name as a player's (accents, case, invisible characters and compatibility forms aside).
    Same {
        /// The name as cleaned.
        name: String,
        /// The player who has it.
        existing: String,
    },
    /// A name that looks the same as a player's but is written with letters of another alphabet.
    LookAlike {
        /// The name as cleaned.
        name: String,
        /// The player whose name it looks like.
        existing: String,
    },
}

impl fmt::Display for NameRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameRefusal::Bad { typed, problem: NameProblem::Empty } if typed.trim().is_empty() => {
                write!(f, "empty name")
            }
            NameRefusal::Bad { typed, problem } => write!(f, "\"{}\" {problem}", shown(typed)),
            NameRefusal::Same { name, existing } => write!(f, "\"{name}\" is already a player (as \"{existing}\")"),
            NameRefusal::LookAlike { name, existing } => write!(
                f,
                "\"{name}\" looks the same as the player \"{existing}\" but is written with letters of another \
                 alphabet: type it in one alphabet, or tell the two apart"
            ),
        }
    }
}

/// Checks a typed name for a new player (or for `renaming` a player): its cleaned, stored form, or why it
/// is refused. Another name of the same batch is compared by [`same_person`].
pub fn check_name(
    conn: &Connection,
    typed: &str,
    renaming: Option<PlayerId>,
) -> Result<std::result::Result<String, NameRefusal>> {
    let name = match names::clean_name(typed) {
        Ok(n) => n,
        Err(problem) => return Ok(Err(NameRefusal::Bad { typed: typed.to_string(), problem })),
    };
    for p in player::same_or_alike(conn, &names::key(&name), &names::skeleton(&name))? {
        if Some(p.id) == renaming {
            continue;
        }
        if let Some(refusal) = same_person(&name, &p.name) {
            return Ok(Err(refusal));
        }
    }
    Ok(Ok(name))
}

/// Whether a cleaned new name is the same as, or looks the same as, `existing`.
pub fn same_person(name: &str, existing: &str) -> Option<NameRefusal> {
    let (name, existing) = (name.to_string(), existing.to_string());
    if names::key(&name) == names::key(&existing) || names::same_but_for_marks(&name, &existing) {
        Some(NameRefusal::Same { name, existing })
    } else if names::look_alike(&name, &existing) {
        Some(NameRefusal::LookAlike { name, existing })
    } else {
        None
    }
}

/// Typed text for a message on one line: trimmed, control and invisible characters escaped (`\u{200b}`).
fn shown(text: &str) -> String {
    let escape = |c: char| crate::domain::text::is_control(c) || names::is_invisible(c);
    text.trim().chars().map(|c| if escape(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(names_: &[&str]) -> Result<crate::store::Store> {
        let store = crate::store::memory()?;
        for name in names_ {
            let key = names::key(name);
            let np = player::NewPlayer { name, name_key: &key, ext_id: None, email: None, joined_round: 1 };
            player::insert(store.conn(), &np)?;
        }
        Ok(store)
    }

    #[test]
    fn only_the_candidates_leave_sqlite() -> Result<()> {
        let many: Vec<String> = (0..400).map(|i| format!("Player {i:03}")).collect();
        let mut all: Vec<&str> = many.iter().map(String::as_str).collect();
        all.extend(["Zoë Quist", "Bo Nilsson", "Bob Ekström"]);
        let store = field(&all)?;
        let conn = store.conn();
        let names_of = |ps: Vec<player::Player>| ps.into_iter().map(|p| p.name).collect::<Vec<_>>();
        assert_eq!(names_of(player::named_like(conn, "quist")?), ["Zoë Quist"]);
        assert_eq!(names_of(player::named_like(conn, "bo")?), ["Bo Nilsson", "Bob Ekström"]);
        assert_eq!(player::named_like(conn, "player")?.len(), 400);
        assert_eq!(find(conn, "zoe")?.name, "Zoë Quist");
        assert_eq!(find(conn, "player 007")?.name, "Player 007");
        assert!(find(conn, "player 00").is_err());
        Ok(())
    }

    #[test]
    fn suggestions_are_ranked_by_closeness() -> Result<()> {
        let store = field(&["Björn Andersson", "Bo Nilsson", "Ana Souza", "Anders Lind"])?;
        match lookup(store.conn(), "Bjarn")? {
            Resolved::Unknown(close) => assert_eq!(close.first().map(String::as_str), Some("Björn Andersson")),
            other => panic!("{other:?}"),
        }
        Ok(())
    }

    #[test]
    fn names_are_checked_against_the_field() -> Result<()> {
        let store = field(&["Renée Côté", "Ana"])?;
        let conn = store.conn();
        let same = check_name(conn, "renee cote", None)?;
        assert_eq!(same, Err(NameRefusal::Same { name: "renee cote".into(), existing: "Renée Côté".into() }));
        let alike = check_name(conn, "\u{410}na", None)?;
        assert!(matches!(alike, Err(NameRefusal::LookAlike { .. })), "{alike:?}");
        assert_eq!(check_name(conn, " Bo\u{fe0f} ", None)?, Ok("Bo".into()), "a variation selector alone goes");
        assert!(check_name(conn, " Bo\u{ad} ", None)?.is_err(), "a soft hyphen is refused, not removed");
        assert!(check_name(conn, " Bo\u{200b} ", None)?.is_err(), "a zero-width space is refused, not removed");
        let ana = player::by_key(conn, "ana")?.map(|p| p.id);
        assert_eq!(check_name(conn, "ANA", ana)?, Ok("ANA".into()));
        Ok(())
    }
}
