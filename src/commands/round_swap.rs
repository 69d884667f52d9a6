//! `round swap`: exchange two players' seats in the current round, re-validated.

use super::Ctx;
use super::played::{Played, Setup, describe};
use crate::commands::player::resolve;
use crate::domain::movement::Guarantee;
use crate::domain::movement::follow::violations_of_next;
use crate::error::{Error, Result};
use crate::render::{Format, done};
use crate::store::matches::{self, Match};
use crate::store::player::Player;
use crate::store::{Change, library, round};
use rusqlite::Connection;

/// What a swap did.
#[derive(Debug, serde::Serialize)]
struct Swapped {
    summary: String,
    warnings: Vec<String>,
}

/// Exchanges the seats of two players of the current round (libraries stay at the tables; sealed
/// libraries follow their players), then warns of any rematch or library reuse it creates.
pub fn swap(ctx: &Ctx, first: &str, second: &str) -> Result<()> {
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let swapped = store.write(&actor, |tx| {
        let current = round::current(tx)?;
        if current == 0 {
            return Err(Error::refused("no round has been paired yet: pair one with `mmjudge round pair`"));
        }
        let (p, q) = (resolve(tx, first)?, resolve(tx, second)?);
        if p.id == q.id {
            return Err(Error::refused(format!(
                "\"{first}\" and \"{second}\" are both {}: name two different players",
                p.name
            )));
        }
        let all = matches::of_round(tx, current)?;
        let (mp, mq) = (seat_of(&all, &p, current)?, seat_of(&all, &q, current)?);
        let before = warnings(tx, current)?;
        let summary = exchange(tx, current, (&p, mp), (&q, mq))?;
        let warnings: Vec<String> = warnings(tx, current)?.into_iter().filter(|w| !before.contains(w)).collect();
        Ok((Swapped { summary: summary.clone(), warnings }, Change::about(summary, [p.id, q.id])))
    })?;
    let extra = serde_json::json!({ "warnings": swapped.warnings });
    done(ctx.format, &swapped.summary, extra)?;
    if ctx.format == Format::Human {
        for w in &swapped.warnings {
            println!("  warning: {w}");
        }
    }
    Ok(())
}

/// The match where `p` sits in the round, refusing a bye, an absent player and a decided match.
fn seat_of<'a>(all: &'a [Match], p: &Player, round: u32) -> Result<&'a Match> {
    let Some(m) = all.iter().find(|m| m.has(p.id)) else {
        return Err(Error::refused(format!(
            "{} is not paired in round {round} (dropped, or joined later): only seated players can swap",
            p.name
        )));
    };
    if m.is_bye() {
        return Err(Error::refused(format!(
            "{} sits out round {round} (bye): only players at tables can swap seats",
            p.name
        )));
    }
    if m.outcome.is_some() {
        return Err(Error::refused(format!(
            "table {} already has a result: swap seats before results are recorded",
            m.table.unwrap_or(0)
        )));
    }
    Ok(m)
}

/// Puts `q` where `p` sat and `p` where `q` sat; says who went where.
fn exchange(conn: &Connection, round: u32, (p, mp): (&Player, &Match), (q, mq): (&Player, &Match)) -> Result<String> {
    let sub = |m: &Match, from: &Player, to: &Player| {
        let put = |x| if x == from.id { to.id } else { x };
        (put(m.a), m.b.map(put))
    };
    if mp.id == mq.id {
        let (a, b) = (mp.b.unwrap_or(mp.a), Some(mp.a));
        matches::set_players(conn, mp.id, a, b)?;
    } else {
        let (a, b) = sub(mp, p, q);
        matches::set_players(conn, mp.id, a, b)?;
        let (a, b) = sub(mq, q, p);
        matches::set_players(conn, mq.id, a, b)?;
    }
    if Setup::load(conn)?.fixed {
        // Fixed libraries stay at their seats.
    } else {
        for m in [mp, mq] {
            let m = matches::get(conn, m.id)?;
            let lib = |x: Option<crate::store::PlayerId>| -> Result<_> {
                Ok(match x {
                    Some(x) => library::of_player(conn, x)?.map(|l| l.id),
                    None => None,
                })
            };
            matches::set_libraries(conn, m.id, lib(Some(m.a))?, lib(m.b)?)?;
        }
    }
    let now = [matches::get(conn, mp.id)?, matches::get(conn, mq.id)?];
    let place = |x: &Player| {
        now.iter()
            .find(|m| m.has(x.id))
            .map(|m| format!("table {}, seat {}", m.table.unwrap_or(0), if m.a == x.id { "A" } else { "B" }))
            .unwrap_or_default()
    };
    Ok(format!("swapped {} (now {}) and {} (now {}) in round {round}", p.name, place(p), q.name, place(q)))
}

/// The rematches and library reuses of round `number` given the rounds before it, in words.
fn warnings(conn: &Connection, number: u32) -> Result<Vec<String>> {
    let played = Played::load(conn, number)?;
    let Some((last, before)) = played.rounds.split_last() else { return Ok(Vec::new()) };
    let mut check = vec![Guarantee::NoRematch];
    if Setup::load(conn)?.fixed {
        check.push(Guarantee::NoLibraryReuse);
    }
    let names = played.names();
    Ok(violations_of_next(played.players.len(), before, last, &check).iter().map(|v| describe(v, &names)).collect())
}
