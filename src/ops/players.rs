//! Players: the list, adding and importing them, dropping and reinstating, renaming, removing a player
//! entered by mistake, and a player's history.

mod add;
pub mod check_in;
pub mod codes;
mod history;
mod seat;

pub use add::{
    Added, ImportInput, Imported, NewRow, add_players, added_words, import_players, read_csv, read_csv_counted,
    read_import, read_import_named,
};
pub use history::{Entry, History, HistoryPlayer, Record, history};
pub use seat::{SeatInput, Seated, seat_player, seated_words};

use crate::domain::topic::Topic;
use crate::domain::{names, words};
use crate::error::{Error, Result};
use crate::ops::player_names;
use crate::store::{Actor, Change, PlayerId, Store, Touched, library, matches, player, round};
use rusqlite::Connection;

/// One player as `player list` shows them.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PlayerView {
    /// The player's id.
    pub id: PlayerId,
    /// The name.
    pub name: String,
    /// The organiser's id.
    pub ext_id: Option<String>,
    /// E-mail.
    pub email: Option<String>,
    /// The first round the player can be paired in.
    pub joined_round: u32,
    /// Dropped after this round (0: before round 1).
    pub dropped_after: Option<u32>,
    /// Disqualified.
    pub disqualified: bool,
    /// The status in words ("active", "dropped after round 2").
    pub status: String,
    /// Whether the player has checked in (event setting `check-in`; players added once round 1 is paired count as
    /// checked in).
    pub checked_in: bool,
    /// Why the player dropped, while dropped: `judge` (`player drop`), `no-show` (a no-show result) or `not-arrived`
    /// (not checked in when round 1 was paired with `round pair --drop-absent`); null when not dropped.
    pub drop_reason: Option<String>,
    /// The table the player stays at every round (`player seat`), or null.
    pub stays_at: Option<u32>,
}

/// `player list`: every player, in the order they were added.
pub fn list(conn: &Connection) -> Result<Vec<PlayerView>> {
    let arrivals = player::arrivals(conn)?;
    Ok(player::all(conn)?
        .into_iter()
        .map(|p| {
            let arrival = arrivals.get(&p.id).cloned().unwrap_or_default();
            let drop_reason = p.dropped_after.map(|_| arrival.drop_reason.clone().unwrap_or_else(|| "judge".into()));
            let status = match drop_reason.as_deref() {
                Some("not-arrived") if !p.disqualified => "dropped before round 1 (not arrived)".to_string(),
                _ => status(&p),
            };
            (p, arrival, drop_reason, status)
        })
        .map(|(p, arrival, drop_reason, status)| PlayerView {
            status,
            checked_in: arrival.checked_in_at.is_some(),
            drop_reason,
            id: p.id,
            name: p.name,
            ext_id: p.ext_id,
            email: p.email,
            joined_round: p.joined_round,
            dropped_after: p.dropped_after,
            disqualified: p.disqualified,
            stays_at: p.stays_at,
        })
        .collect())
}

/// A player's status in words.
pub fn status(p: &player::Player) -> String {
    if p.disqualified {
        "disqualified".into()
    } else if let Some(after) = p.dropped_after {
        if after == 0 { "dropped before round 1".into() } else { format!("dropped after round {after}") }
    } else if p.joined_round > 1 {
        format!("active (joined round {})", p.joined_round)
    } else {
        "active".into()
    }
}

/// A player dropped or back in the event.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Dropped {
    /// The player.
    pub player: PlayerId,
    /// The player's name.
    pub name: String,
    /// Dropped after this round (0: before round 1); None: back in the event from the next round.
    pub after: Option<u32>,
    /// A drop: the table the player stays at, which waits for their return; back in: the table they stayed at,
    /// which another player took meanwhile, so they move with the others (absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stay: Option<u32>,
}

/// What a drop or undrop did, in words (the audit line and the command's answer).
pub fn dropped_words(d: &Dropped) -> String {
    let words = match d.after {
        Some(0) => format!("dropped {} before round 1", d.name),
        Some(r) => format!("dropped {} after round {r} (not paired from round {})", d.name, r + 1),
        None => format!("{} is back in the event (paired from the next round)", d.name),
    };
    match (d.stay, d.after) {
        (Some(t), Some(_)) => format!("{words}; their stay at table {t} waits for their return"),
        (Some(t), None) => {
            format!("{words}; another player stays at table {t} now, so they move with the others")
        }
        (None, _) => words,
    }
}

/// `player drop NAME`: the player (as typed) is not paired from the next round; still listed and counted for
/// their opponents.
pub fn drop_player(store: &mut Store, actor: &Actor, player: &str) -> Result<Dropped> {
    set_dropped(store, actor, player, true)
}

/// `player undrop NAME`: takes a drop back; the player is paired again from the next round.
pub fn undrop_player(store: &mut Store, actor: &Actor, player: &str) -> Result<Dropped> {
    set_dropped(store, actor, player, false)
}

fn set_dropped(store: &mut Store, actor: &Actor, query: &str, drop: bool) -> Result<Dropped> {
    store.write(actor, |tx| {
        let p = player_names::find(tx, query)?;
        if p.disqualified {
            return Err(Error::refused(format!("{} is disqualified and cannot be dropped or reinstated", p.name)));
        }
        let after = match (drop, p.dropped_after) {
            (true, Some(_)) => {
                let what = format!("{} has already {}", p.name, status(&p));
                let out = crate::error::WayOut::TakeDropBack { name: p.name.clone() };
                return Err(crate::error::Refusal::refused(what)
                    .way_out_after(crate::error::Join::Semicolon, out)
                    .into());
            }
            (false, None) => return Err(Error::refused(format!("{} has not dropped", p.name))),
            (true, None) => {
                let current = round::current(tx)?;
                player::set_dropped(tx, p.id, Some(current))?;
                player::set_dropped_at(tx, p.id, &crate::time::stamp(actor.at))?;
                Some(current)
            }
            (false, Some(_)) => {
                let not_arrived = player::drop_reason(tx, p.id)?.as_deref() == Some("not-arrived");
                player::set_dropped(tx, p.id, None)?;
                // A player dropped as not arrived who comes once round 1 is paired has arrived: checked in.
                if not_arrived && round::current(tx)? > 0 {
                    player::set_checked_in(tx, p.id, &crate::time::stamp(actor.at))?;
                }
                None
            }
        };
        let stay = match after {
            Some(_) => p.stays_at,
            // Back in: said only when their table was taken meanwhile (their stay ended).
            None if player::get(tx, p.id)?.stays_at.is_none() => p.stays_at,
            None => None,
        };
        let dropped = Dropped { player: p.id, name: p.name, after, stay };
        let summary = dropped_words(&dropped);
        Ok((dropped, Change::about(summary, [p.id]).touching(Touched::event(Topic::Round).player(p.id))))
    })
}

/// `player rename OLD NEW`.
#[derive(Debug, Clone)]
pub struct RenameInput {
    /// The player as typed.
    pub player: String,
    /// The new name.
    pub new: String,
}

/// A renamed player.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Renamed {
    /// The player.
    pub player: PlayerId,
    /// The name before.
    pub old: String,
    /// The name now.
    pub new: String,
}

/// Renames a player, refusing a name that is unusable or the same as or a look-alike of another player's.
pub fn rename_player(store: &mut Store, actor: &Actor, input: RenameInput) -> Result<Renamed> {
    store.write(actor, |tx| {
        let p = player_names::find(tx, &input.player)?;
        let name = match player_names::check_name(tx, &input.new, Some(p.id))? {
            Ok(name) => name,
            Err(refusal) => {
                let msg = format!("cannot rename {}: {refusal}", p.name);
                return Err(match refusal {
                    player_names::NameRefusal::Bad { .. } => Error::bad_input(msg),
                    _ => Error::refused(msg),
                });
            }
        };
        let key = names::key(&name);
        player::rename(tx, p.id, &name, &key)?;
        let summary = format!("renamed \"{}\" to \"{name}\"", p.name);
        let change = Change::about(summary, [p.id]).touching(Touched::event(Topic::Round).player(p.id));
        Ok((Renamed { player: p.id, old: p.name, new: name }, change))
    })
}

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
            if !decided && let Some(why) = removal_after_unpair_fails(tx, p.id, current)? {
                let what =
                    format!("{} is seated in round {current} ({seat}) and {why}, so they cannot be removed", p.name);
                return Err(crate::error::Refusal::refused(what)
                    .way_out(crate::error::WayOut::DropPlayer { name: p.name.clone(), no_show: m.table })
                    .into());
            }
            let refusal = if decided {
                let what =
                    format!("{} is seated in round {current} ({seat}), and that round already has results", p.name);
                let out = crate::error::WayOut::DropSeated { name: p.name.clone(), table: m.table, round: current };
                crate::error::Refusal::refused(what).way_out(out)
            } else {
                let what = format!("{} is seated in round {current} ({seat}), which has no result yet", p.name);
                let out = crate::error::WayOut::Unpair(crate::error::Unpair::RemovePlayer);
                crate::error::Refusal::refused(what).way_out(out)
            };
            return Err(refusal.into());
        }
        let records = player::records(tx, p.id)?;
        if !records.is_empty() {
            let list: Vec<String> = records.iter().map(|(kind, n)| words::count(*n, kind)).collect();
            let what = format!(
                "{} has a history in this event ({}): a player who has played is dropped, not removed",
                p.name,
                list.join(", ")
            );
            return Err(crate::error::Refusal::refused(what)
                .way_out(crate::error::WayOut::DropNotRemove { name: p.name.clone() })
                .into());
        }
        let sealed = library::of_player(tx, p.id)?;
        if let Some(l) = &sealed {
            library::delete(tx, l.id)?;
        }
        player::delete(tx, p.id)?;
        let with = if sealed.is_some() { " and the sealed library registered for them" } else { "" };
        let summary = format!("removed {} (entered by mistake, never played){with}", p.name);
        let removed = Removed { id: p.id, name: p.name, library_removed: sealed.is_some() };
        // The player is gone: the change names no player.
        Ok((removed, Change::new(summary).touching(Touched::event(Topic::Round))))
    })
}

/// Why taking the current round back (the way out a seated player is otherwise given) would not let the
/// player be removed: their rounds before it, their other records, or records that keep the round from being
/// taken back. None when it would.
fn removal_after_unpair_fails(conn: &Connection, p: PlayerId, current: u32) -> Result<Option<String>> {
    let mut earlier: Vec<u32> =
        matches::of_player(conn, p)?.iter().filter(|m| m.round != current).map(|m| m.round).collect();
    earlier.dedup();
    if let Some(&last) = earlier.last() {
        let rounds = match earlier.as_slice() {
            [one] => format!("round {one}"),
            [first, ..] if earlier.len() as u32 == last - first + 1 => format!("rounds {first} to {last}"),
            _ => format!("{} rounds before it", earlier.len()),
        };
        return Ok(Some(format!("has played {rounds}")));
    }
    let others: Vec<String> = player::records(conn, p)?
        .into_iter()
        .filter(|(kind, _)| *kind != "match")
        .map(|(kind, n)| words::count(n, kind))
        .collect();
    if !others.is_empty() {
        return Ok(Some(format!("has a history in this event ({})", others.join(", "))));
    }
    let recorded = matches::tables_with_records(conn, current)?;
    if !recorded.is_empty() {
        let tables: Vec<String> = recorded.iter().map(u32::to_string).collect();
        return Ok(Some(format!(
            "round {current} cannot be taken back (it has notes, rulings or clock records at {} {})",
            words::noun_for(recorded.len(), "table"),
            tables.join(", ")
        )));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;

    fn actor() -> Actor {
        Actor {
            judge: "Kim".into(),
            command_line: "test".into(),
            at: chrono::Utc::now(),
            via: "cli".into(),
            claim: None,
        }
    }

    #[test]
    fn players_are_added_dropped_renamed_and_listed() -> Result<()> {
        let mut store = crate::store::memory()?;
        let rows = |names: &[&str]| -> Vec<NewRow> {
            names.iter().map(|n| NewRow { name: n.to_string(), ext_id: None, email: None }).collect()
        };
        let added = add_players(&mut store, &actor(), &rows(&["Ana  Souza", "Bo"]))?;
        assert_eq!(added.names, ["Ana Souza", "Bo"]);
        let twice = add_players(&mut store, &actor(), &rows(&["Cy", "cy"])).map_err(|e| e.kind()).err();
        assert_eq!(twice, Some(Kind::Refused));
        let dropped = drop_player(&mut store, &actor(), "Bo")?;
        assert_eq!((dropped.name.as_str(), dropped.after), ("Bo", Some(0)));
        assert_eq!(drop_player(&mut store, &actor(), "Bo").map_err(|e| e.kind()).err(), Some(Kind::Refused));
        let input = RenameInput { player: "Ana".into(), new: "Ana Lima".into() };
        assert_eq!(rename_player(&mut store, &actor(), input)?.old, "Ana Souza");
        let listed: Vec<(String, String)> = list(store.conn())?.into_iter().map(|p| (p.name, p.status)).collect();
        assert_eq!(
            listed,
            [("Ana Lima".to_string(), "active".to_string()), ("Bo".into(), "dropped before round 1".into())]
        );
        let h = history(store.conn(), "Bo")?;
        assert_eq!((h.player.status.as_str(), h.entries.len()), ("dropped before round 1", 0));
        Ok(())
    }
}
