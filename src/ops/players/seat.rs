//! A player who stays at one table (`player seat NAME --table N`): a player who cannot move keeps their table
//! every round, and the libraries of their game are carried to it (the pairing says which).

use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::ops::player_names;
use crate::store::{Actor, Change, PlayerId, Store, Touched, event, library, player};

/// `player seat NAME --table N` (or `--clear`: `table` None).
#[derive(Debug, Clone)]
pub struct SeatInput {
    /// The player as typed.
    pub player: String,
    /// The table to stay at; None ends the stay.
    pub table: Option<u32>,
}

/// A player's stay set or ended.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Seated {
    /// The player.
    pub player: PlayerId,
    /// The player's name.
    pub name: String,
    /// The table they now stay at (null: they move with the others again).
    pub stays_at: Option<u32>,
    /// The table they stayed at before (null: none).
    pub before: Option<u32>,
}

/// "Ana stays at table 3 from the next pairing: the libraries of her games are carried there" and the other
/// answers (the audit line and the command's answer).
pub fn seated_words(s: &Seated) -> String {
    let was = match s.before {
        Some(b) if Some(b) != s.stays_at => format!(" (instead of table {b})"),
        _ => String::new(),
    };
    match (s.stays_at, s.before) {
        (Some(t), _) => format!(
            "{} stays at table {t}{was} from the next pairing: the libraries of each of their games are carried there",
            s.name
        ),
        (None, Some(b)) => {
            format!("{} no longer stays at table {b}: they move with the others from the next pairing", s.name)
        }
        (None, None) => format!("{} does not stay at a table", s.name),
    }
}

/// Sets or ends the table a player stays at. Refuses a player who dropped or was disqualified, a table with no
/// libraries (fixed libraries: both of its libraries must be built; sealed: a table the field uses), and a
/// table where another player stays already. The round already paired is not changed: the stay counts from the
/// next pairing.
pub fn seat_player(store: &mut Store, actor: &Actor, input: SeatInput) -> Result<Seated> {
    if input.table == Some(0) {
        return Err(Error::bad_input("table 0 is no table: tables are numbered from 1"));
    }
    store.write(actor, |tx| {
        let p = player_names::find(tx, &input.player)?;
        if let Some(table) = input.table {
            if p.disqualified || p.dropped_after.is_some() {
                return Err(Error::refused(format!(
                    "{} is no longer in the event ({}): only a player still paired can stay at a table",
                    p.name,
                    super::status(&p)
                )));
            }
            check_table(tx, table)?;
            if let Some((_, other, _)) = player::stays(tx)?.into_iter().find(|(id, _, t)| *t == table && *id != p.id) {
                return Err(Error::refused(format!(
                    "{other} already stays at table {table}, and one table keeps one player: choose another table \
                     for {}, or end {other}'s stay first",
                    p.name
                )));
            }
        }
        match (p.stays_at, input.table) {
            (Some(b), Some(t)) if b == t => {
                return Err(Error::refused(format!("{} already stays at table {t}: nothing to change", p.name)));
            }
            (None, None) => {
                return Err(Error::refused(format!("{} does not stay at a table: nothing to end", p.name)));
            }
            _ => {}
        }
        let seated = Seated { player: p.id, name: p.name.clone(), stays_at: input.table, before: p.stays_at };
        player::set_stays_at(tx, p.id, input.table)?;
        let summary = seated_words(&seated);
        Ok((seated, Change::about(summary, [p.id]).touching(Touched::event(Topic::Round).player(p.id))))
    })
}

/// A table a player may stay at: with fixed libraries, one whose two libraries are built; with sealed libraries
/// (they travel with their players), one of the tables the field needs.
fn check_table(conn: &rusqlite::Connection, table: u32) -> Result<()> {
    let sealed = event::values(conn)?.text("libraries") == "sealed";
    if sealed {
        let players = player::all(conn)?.iter().filter(|p| p.dropped_after.is_none() && !p.disqualified).count();
        let tables = u32::try_from(players.div_ceil(2)).unwrap_or(u32::MAX).max(1);
        if table > tables {
            return Err(Error::refused(format!(
                "table {table} is not used: {players} players play at tables 1 to {tables}; choose one of those"
            )));
        }
        return Ok(());
    }
    let seats = library::fixed_seats(conn)?;
    let built = |seat: &str| seats.iter().any(|(t, s, _)| *t == table && s == seat);
    if !(built("A") && built("B")) {
        let last = seats.iter().map(|(t, _, _)| *t).max().unwrap_or(0);
        let what = if last == 0 {
            "no libraries are built yet: build them first, then choose the table".to_string()
        } else {
            format!("table {table} has no libraries (tables 1 to {last} have): choose one of those")
        };
        return Err(Error::refused(what));
    }
    Ok(())
}
