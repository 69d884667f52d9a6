//! Exchanging two players' seats in the current round, re-validated.

use crate::domain::movement::Guarantee;
use crate::domain::movement::follow::violations_of_next;
use crate::domain::topic::Topic;
use crate::error::{Error, Held as Undo, Record, Refusal, Result, WayOut};
use crate::ops::played::{Played, Setup, describe};
use crate::ops::player_names::find;
use crate::store::matches::{self, Match};
use crate::store::player::Player;
use crate::store::{Actor, Change, PlayerId, Store, Touched, library, round};
use rusqlite::Connection;

/// `round swap FIRST SECOND`: the two players as typed (resolved inside the write).
#[derive(Debug, Clone)]
pub struct SwapInput {
    /// The first player's name as typed.
    pub first: String,
    /// The second player's name as typed.
    pub second: String,
}

/// Where a swapped player sits now.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Moved {
    /// The player.
    pub player: PlayerId,
    /// The player's name.
    pub name: String,
    /// The table.
    pub table: u32,
    /// 'A' or 'B'.
    pub seat: char,
}

/// A swap: the round, both players' new seats, and the rematches or library reuses it created (in words).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Swapped {
    /// The round.
    pub round: u32,
    /// The two players where they now sit.
    pub moved: [Moved; 2],
    /// Rematches and library reuses the swap created.
    pub warnings: Vec<String>,
}

/// "swapped Ana (now table 2, seat B) and Bo (now table 1, seat A) in round 3".
pub fn swapped_words(s: &Swapped) -> String {
    let [p, q] = &s.moved;
    format!(
        "swapped {} (now table {}, seat {}) and {} (now table {}, seat {}) in round {}",
        p.name, p.table, p.seat, q.name, q.table, q.seat, s.round
    )
}

/// Exchanges the seats of two players of the current round (libraries stay at the tables; sealed
/// libraries follow their players), then reports any rematch or library reuse it creates. Refuses a bye, a
/// player not in the round, a table with a result or with play under way, and the same player twice.
pub fn swap_seats(store: &mut Store, actor: &Actor, input: SwapInput) -> Result<Swapped> {
    let (first, second) = (input.first.as_str(), input.second.as_str());
    store.write(actor, |tx| {
        let current = round::current(tx)?;
        if current == 0 {
            return Err(Refusal::refused("no round has been paired yet").way_out(WayOut::PairOne).into());
        }
        let (p, q) = (find(tx, first)?, find(tx, second)?);
        if p.id == q.id {
            return Err(Error::bad_input(format!(
                "\"{first}\" and \"{second}\" are both {}: name two different players",
                p.name
            )));
        }
        let all = matches::of_round(tx, current)?;
        let (mp, mq) = (seat_of(tx, &all, &p, current)?, seat_of(tx, &all, &q, current)?);
        let held: Vec<Held> = [Some(mp), (mq.id != mp.id).then_some(mq)]
            .into_iter()
            .flatten()
            .map(|m| held(tx, m))
            .collect::<Result<_>>()?;
        refuse_under_way(current, &held)?;
        let before = warnings(tx, current)?;
        let moved = exchange(tx, (&p, mp), (&q, mq))?;
        let mut warnings: Vec<String> = warnings(tx, current)?.into_iter().filter(|w| !before.contains(w)).collect();
        for (who, now) in [(&p, &moved[0]), (&q, &moved[1])] {
            if let Some(stays) = who.stays_at.filter(|&t| t != now.table) {
                warnings.push(format!(
                    "{} stays at table {stays} (a player who cannot move) but sits at table {} this round",
                    who.name, now.table
                ));
            }
        }
        let swapped = Swapped { round: current, moved, warnings };
        let summary = swapped_words(&swapped);
        let seats = Touched::round(Topic::Round, current);
        Ok((swapped, Change::about(summary, [p.id, q.id]).touching_all([seats.player(p.id), seats.player(q.id)])))
    })
}

/// The match where `p` sits in the round, refusing a bye, an absent player and a decided match.
fn seat_of<'a>(conn: &Connection, all: &'a [Match], p: &Player, round: u32) -> Result<&'a Match> {
    let Some(m) = all.iter().find(|m| m.has(p.id)) else {
        return Err(Error::refused(format!(
            "{} is not paired in round {round} (dropped, or joined later): only seated players can swap",
            p.name
        )));
    };
    if m.is_bye() {
        let played = all.iter().any(|m| !m.is_bye() && m.outcome.is_some())
            || !matches::tables_with_records(conn, round)?.is_empty();
        let what = format!("{} has the bye in round {round}, which has no seat to swap", p.name);
        if played {
            let way = "the round already holds play, so its byes stand: swap two players seated at tables";
            return Err(Error::refused(format!("{what}; {way}")));
        }
        let out = WayOut::Unpair(crate::error::Unpair::Byes);
        return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
    }
    if m.outcome.is_some() {
        let t = m.table.unwrap_or(0);
        let what = format!("table {t} in round {round} already has a result");
        return Err(Refusal::refused(what).way_out(WayOut::ClearToSwap { table: t }).into());
    }
    Ok(m)
}

/// What a match holds that puts its game under way: records that name or bind the players seated there
/// (template notes, challenges, penalties, rulings, extensions, stalls, timed decisions, players' result reports,
/// an open judge call). Voided records count for nothing and do not hold a swap back.
struct Held {
    table: u32,
    /// (count, what, how such a record is taken back, if it can be), for the kinds present.
    kinds: Vec<(i64, &'static str, Option<Undo>)>,
}

fn held(conn: &Connection, m: &Match) -> Result<Held> {
    let held = matches::game_records(conn, m.id)?;
    let t = m.table.unwrap_or(0);
    let void = |record| Some(Undo::Record { record });
    let kinds: [(i64, &'static str, Option<Undo>); 10] = [
        (held.notes, "template note", Some(Undo::Notes { table: t })),
        (held.challenges, "challenge", void(Record::Challenge)),
        (held.penalties, "penalty", void(Record::Penalty)),
        (held.rulings, "ruling", void(Record::Ruling)),
        (held.extensions, "extension", void(Record::Extension)),
        (held.stalls, "stall", void(Record::Stall)),
        (held.running, "running decision", Some(Undo::Running { table: t })),
        (held.calls, "open judge call", Some(Undo::Call { table: t })),
        (held.decisions, "timed decision", None),
        (held.reports, "player's result report", None),
    ];
    Ok(Held { table: t, kinds: kinds.into_iter().filter(|(n, _, _)| *n > 0).collect() })
}

/// Refuses a swap when either table's game is under way, naming every such table in the one line.
fn refuse_under_way(round: u32, tables: &[Held]) -> Result<()> {
    let busy: Vec<&Held> = tables.iter().filter(|h| !h.kinds.is_empty()).collect();
    if busy.is_empty() {
        return Ok(());
    }
    let present: Vec<&(i64, &str, Option<Undo>)> = busy.iter().flat_map(|h| &h.kinds).collect();
    let what = |h: &Held| h.kinds.iter().map(|(n, w, _)| crate::domain::words::count(*n, w)).collect::<Vec<_>>();
    fn once<T: PartialEq>(all: impl Iterator<Item = T>) -> Vec<T> {
        all.fold(Vec::new(), |mut v, x| {
            if !v.contains(&x) {
                v.push(x);
            }
            v
        })
    }
    let kept = once(present.iter().filter(|(_, _, fix)| fix.is_none()).map(|(_, w, _)| *w));
    let several = present.iter().map(|(n, _, _)| n).sum::<i64>() != 1;
    let message = match busy.as_slice() {
        [h] => format!(
            "table {} in round {round} already holds play ({}): its game is under way with these players in these \
             seats",
            h.table,
            what(h).join(", ")
        ),
        _ => format!(
            "tables {} in round {round} already hold play ({}): their games are under way with these players in \
             these seats",
            busy.iter().map(|h| h.table.to_string()).collect::<Vec<_>>().join(" and "),
            busy.iter().map(|h| format!("table {}: {}", h.table, what(h).join(", "))).collect::<Vec<_>>().join("; ")
        ),
    };
    if kept.is_empty() {
        let held = once(present.iter().filter_map(|(_, _, fix)| *fix));
        let table = busy.first().map_or(0, |h| h.table);
        let out = WayOut::TakeBack { table, several, held };
        return Err(Refusal::refused(message).way_out_after(crate::error::Join::Semicolon, out).into());
    }
    let why = format!("a {} cannot be taken back, so they stay where they sit", kept.join(" or a "));
    Err(Error::refused(format!("{message}; {why}")))
}

/// Puts `q` where `p` sat and `p` where `q` sat; says who went where.
fn exchange(conn: &Connection, (p, mp): (&Player, &Match), (q, mq): (&Player, &Match)) -> Result<[Moved; 2]> {
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
            let lib = |x: Option<PlayerId>| -> Result<_> {
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
        let m = now.iter().find(|m| m.has(x.id));
        Moved {
            player: x.id,
            name: x.name.clone(),
            table: m.and_then(|m| m.table).unwrap_or(0),
            seat: if m.is_some_and(|m| m.a == x.id) { 'A' } else { 'B' },
        }
    };
    Ok([place(p), place(q)])
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
