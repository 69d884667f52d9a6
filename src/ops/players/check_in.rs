//! Check-in (event setting `check-in`): before round 1 is paired, each player checks in, by themselves with
//! their code (`POST /api/check-in` of `mmjudge serve`) or by a judge (`player check-in NAME`). Round 1 is not
//! paired while someone has not (`round pair --drop-absent` drops them as not arrived). Once round 1 is paired
//! check-in is over: players added later count as checked in.

use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::player_names;
use crate::store::player::{self, Player};
use crate::store::{Actor, Change, PlayerId, Store, Touched, event, player_codes, round};
use rusqlite::Connection;

/// A player checked in.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CheckedIn {
    /// The player.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// When they were checked in (RFC 3339).
    pub at: String,
    /// Whether they had already checked in (nothing was written; a player's repeated tap).
    pub already: bool,
    /// Whether the player checked in themselves (with their code), not a judge.
    pub by_self: bool,
    /// The audit log's line (or, when `already`, what was found).
    #[serde(skip)]
    pub summary: String,
}

/// A player's own check-in: the name as they type it and their code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfCheckInInput {
    /// The player's name (or any unambiguous beginning of it).
    pub name: String,
    /// Their code (six digits, on their slip). Codes differ between the two players of a table, not in the whole
    /// event, so the name says whose code it is.
    pub code: String,
}

/// Whether check-in is on for the event.
pub fn is_on(conn: &Connection) -> Result<bool> {
    Ok(event::values(conn)?.switch("check-in"))
}

/// The players round 1 waits for: check-in is on, round 1 is not paired, and they are in the event (not dropped,
/// not disqualified) without having checked in. Empty otherwise.
pub fn absent(conn: &Connection) -> Result<Vec<Player>> {
    if !is_on(conn)? || round::current(conn)? > 0 {
        return Ok(Vec::new());
    }
    let arrivals = player::arrivals(conn)?;
    Ok(player::all(conn)?
        .into_iter()
        .filter(|p| p.active_in(1))
        .filter(|p| arrivals.get(&p.id).is_none_or(|a| a.checked_in_at.is_none()))
        .collect())
}

/// Refuses a check-in while check-in is off or over (`for_judge`: the words for the command line).
fn check_in_open(conn: &Connection, for_judge: bool) -> Result<()> {
    if !is_on(conn)? {
        return Err(if for_judge {
            Refusal::refused("check-in is off for this event").way_out(WayOut::TurnOn { key: "check-in".into() }).into()
        } else {
            Error::refused("check-in is off for this event: there is nothing to check in to; see a judge")
        });
    }
    if round::current(conn)? > 0 {
        return Err(Error::refused(
            "check-in is over: round 1 is paired (players added since count as checked in); see a judge",
        ));
    }
    Ok(())
}

/// Refuses checking in a player who has dropped or is disqualified.
fn in_event(p: &Player, for_judge: bool) -> Result<()> {
    if p.disqualified || p.dropped_after.is_some() {
        let what = crate::ops::players::status(p);
        if for_judge {
            let out = WayOut::UndropPlayer { name: p.name.clone() };
            return Err(Refusal::refused(format!("{} has {what}", p.name)).way_out(out).into());
        }
        return Err(Error::refused(format!("{} is not in the event ({what}): see a judge", p.name)));
    }
    Ok(())
}

/// `player check-in NAME`: a judge checks a player in (refused while check-in is off or over, and when the player
/// already checked in).
pub fn check_in(store: &mut Store, actor: &Actor, query: &str) -> Result<CheckedIn> {
    let at = crate::time::stamp(actor.at);
    store.write(actor, |tx| {
        check_in_open(tx, true)?;
        let p = player_names::find(tx, query)?;
        in_event(&p, true)?;
        if let Some(when) = player::arrival(tx, p.id)?.checked_in_at {
            return Err(Error::refused(format!("{} already checked in at {}", p.name, hhmm(&when))));
        }
        player::set_checked_in(tx, p.id, &at)?;
        let summary = format!("checked {} in{}", p.name, still_absent(tx)?);
        let out = CheckedIn { player: p.id, name: p.name, at, already: false, by_self: false, summary };
        // The dashboard lists who has not checked in, the player's page whether they have.
        Ok((out.clone(), Change::about(out.summary, [p.id]).touching(Touched::event(Topic::Round).player(p.id))))
    })
}

/// A player checks in with their name and code (`POST /api/check-in`): refused while check-in is off or over;
/// a wrong code is forbidden (403) without saying whose name it is not. Checking in twice answers `already`.
pub fn self_check_in(store: &mut Store, actor: &Actor, input: &SelfCheckInInput) -> Result<CheckedIn> {
    let code = input.code.trim();
    if code.is_empty() {
        return Err(Error::bad_input("give your player code (six digits, on your slip)"));
    }
    let found = store.read(|conn| {
        check_in_open(conn, false)?;
        // A name that finds nobody, or several players, is answered as a wrong code: names cannot be probed.
        let wrong = || Error::forbidden("that name and code do not go together: type your own name and code");
        let p = player_names::find(conn, &input.name).map_err(|_| wrong())?;
        if player_codes::of(conn, p.id)?.as_deref() != Some(code) {
            return Err(wrong());
        }
        in_event(&p, false)?;
        Ok((p.clone(), player::arrival(conn, p.id)?.checked_in_at))
    })?;
    if let (p, Some(when)) = found {
        let summary = format!("{} already checked in at {}", p.name, hhmm(&when));
        return Ok(CheckedIn { player: p.id, name: p.name, at: when, already: true, by_self: true, summary });
    }
    let at = crate::time::stamp(actor.at);
    let id = found.0.id;
    store.write(actor, |tx| {
        check_in_open(tx, false)?;
        let p = player::get(tx, id)?;
        player::set_checked_in(tx, p.id, &at)?;
        let summary = format!("{} checked in with their code{}", p.name, still_absent(tx)?);
        let out = CheckedIn { player: p.id, name: p.name, at, already: false, by_self: true, summary };
        // The dashboard lists who has not checked in, the player's page whether they have.
        Ok((out.clone(), Change::about(out.summary, [p.id]).touching(Touched::event(Topic::Round).player(p.id))))
    })
}

/// "; 3 players still to check in" (empty when none).
fn still_absent(conn: &Connection) -> Result<String> {
    Ok(match absent(conn)?.len() {
        0 => "; everyone has checked in".into(),
        n => format!("; {} still to check in", crate::domain::words::count(n as i64, "player")),
    })
}

fn hhmm(stamp: &str) -> String {
    crate::time::unstamp(stamp).map(crate::time::confirm_time).unwrap_or_else(|_| stamp.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;
    use crate::ops::players::{NewRow, add_players};

    fn actor() -> Result<Actor> {
        crate::store::test_actor("2025-05-01T09:30:00.000Z")
    }

    fn event_with(names: &[&str]) -> Result<Store> {
        let mut store = crate::store::memory()?;
        let rows: Vec<NewRow> =
            names.iter().map(|n| NewRow { name: n.to_string(), ext_id: None, email: None }).collect();
        add_players(&mut store, &actor()?, &rows)?;
        Ok(store)
    }

    fn code(store: &Store, name: &str) -> Result<String> {
        let p = player_names::find(store.conn(), name)?;
        Ok(player_codes::of(store.conn(), p.id)?.unwrap_or_default())
    }

    #[test]
    fn a_player_checks_in_with_their_code_only_while_check_in_is_on() -> Result<()> {
        let mut store = event_with(&["Ana", "Bo"])?;
        let ana = SelfCheckInInput { name: "ana".into(), code: code(&store, "Ana")? };
        let off = self_check_in(&mut store, &actor()?, &ana).err().map(|e| e.kind());
        assert_eq!(off, Some(Kind::Refused), "refused while check-in is off");
        event::set(store.conn(), "check-in", "on")?;
        assert_eq!(absent(store.conn())?.len(), 2);
        let wrong = SelfCheckInInput { name: "ana".into(), code: "x".into() };
        assert_eq!(self_check_in(&mut store, &actor()?, &wrong).err().map(|e| e.kind()), Some(Kind::Forbidden));
        let done = self_check_in(&mut store, &actor()?, &ana)?;
        assert_eq!((done.name.as_str(), done.already, done.by_self), ("Ana", false, true));
        assert!(done.summary.ends_with("; 1 player still to check in"), "{}", done.summary);
        let again = self_check_in(&mut store, &actor()?, &ana)?;
        assert!(again.already, "a repeated tap writes nothing");
        let names: Vec<String> = absent(store.conn())?.into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["Bo"]);
        let judge = check_in(&mut store, &actor()?, "b")?;
        assert!(judge.summary.ends_with("everyone has checked in"), "{}", judge.summary);
        assert_eq!(check_in(&mut store, &actor()?, "bo").err().map(|e| e.kind()), Some(Kind::Refused));
        Ok(())
    }

    #[test]
    fn a_dropped_player_is_not_checked_in() -> Result<()> {
        let mut store = event_with(&["Ana", "Bo"])?;
        event::set(store.conn(), "check-in", "on")?;
        crate::ops::players::drop_player(&mut store, &actor()?, "bo")?;
        assert_eq!(check_in(&mut store, &actor()?, "bo").err().map(|e| e.kind()), Some(Kind::Refused));
        let names: Vec<String> = absent(store.conn())?.into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["Ana"], "a dropped player is not waited for");
        Ok(())
    }
}
