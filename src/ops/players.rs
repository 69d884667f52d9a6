//! Player actions: removing a player entered by mistake.

use crate::domain::words;
use crate::error::{Error, Result};
use crate::store::{Actor, Change, PlayerId, Store, library, matches, player, round};

/// `player remove`: the player to remove (already resolved from the typed name).
#[derive(Debug, Clone, Copy)]
pub struct RemoveInput {
    /// The player.
    pub player: PlayerId,
}

/// A removed player.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Removed {
    /// The id the player had.
    pub id: PlayerId,
    /// The name the player had.
    pub name: String,
    /// Whether a registered sealed library (never played) went with the player.
    pub library_removed: bool,
}

/// Deletes a player entered by mistake who has played nothing: no match (not even a bye), note, decision,
/// stall, penalty or challenge. A player seated in the current round is refused with the way out (`round
/// unpair` while the round has no result, else `player drop`); a player with any history is refused with
/// `player drop`. A sealed library registered for the player, never played, goes too.
pub fn remove_player(store: &mut Store, actor: &Actor, input: RemoveInput) -> Result<Removed> {
    store.write(actor, |tx| {
        let p = player::get(tx, input.player)?;
        let current = round::current(tx)?;
        if current > 0
            && let Some(m) = matches::of_player_in_round(tx, p.id, current)?
        {
            let seat = match m.table {
                Some(t) => format!("table {t}"),
                None => "a bye".to_string(),
            };
            let decided = matches::of_round(tx, current)?.iter().any(|m| !m.is_bye() && m.outcome.is_some());
            return Err(Error::refused(if decided {
                format!(
                    "{} is seated in round {current} ({seat}), which already has results: drop the player with \
                     `mmjudge player drop {}` instead (record the table as a no-show win for the opponent)",
                    p.name,
                    quoted(&p.name)
                )
            } else {
                format!(
                    "{} is seated in round {current} ({seat}), which has no result yet: take the round back with \
                     `mmjudge round unpair`, remove the player, then pair it again",
                    p.name
                )
            }));
        }
        let records = player::records(tx, p.id)?;
        if !records.is_empty() {
            let list: Vec<String> = records.iter().map(|(kind, n)| words::count(*n, kind)).collect();
            return Err(Error::refused(format!(
                "{} has a history in this event ({}): a player who has played is dropped, not removed: \
                 `mmjudge player drop {}`",
                p.name,
                list.join(", "),
                quoted(&p.name)
            )));
        }
        let sealed = library::of_player(tx, p.id)?;
        if let Some(l) = &sealed {
            library::delete(tx, l.id)?;
        }
        player::delete(tx, p.id)?;
        let with = if sealed.is_some() { " and the sealed library registered for them" } else { "" };
        let summary = format!("removed {} (entered by mistake, never played){with}", p.name);
        let removed = Removed { id: p.id, name: p.name, library_removed: sealed.is_some() };
        Ok((removed, Change::new(summary)))
    })
}

/// A name as the judge would type it on a command line.
fn quoted(name: &str) -> String {
    if name.contains(' ') { format!("\"{name}\"") } else { name.to_string() }
}
