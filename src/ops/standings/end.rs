//! The end of the event, derived and never stored: the event is over once its last planned round is paired,
//! every match of the event has a result, and that round is not being played (it was ended, or its clock never
//! ran). Raising the `rounds` setting opens it again, as lowering it back closes it.

use super::{Line, Results};
use crate::error::Result;
use crate::store::{event, round};
use rusqlite::Connection;
use serde::Serialize;

/// How many of the final standings the projector and the pages show as the top.
pub const TOP: usize = 8;

/// The event is over: its winner and the top of its final standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventEnd {
    /// The rounds planned (all played).
    pub rounds: u32,
    /// The players ranked first, best first by the standings' order (more than one when rank 1 is shared).
    pub winners: Vec<String>,
    /// The first lines of the final standings (up to [`TOP`]), as (rank, name, points, record).
    pub top: Vec<TopLine>,
}

/// One line of the top of the final standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopLine {
    /// Rank (shared ranks repeat).
    pub rank: u32,
    /// The player.
    pub name: String,
    /// Match points.
    pub points: u32,
    /// Wins-losses-draws.
    pub record: String,
}

impl EventEnd {
    /// The end of the event from its final standings' lines.
    pub fn of(rounds: u32, lines: &[Line]) -> EventEnd {
        EventEnd {
            rounds,
            winners: winners(lines),
            top: lines
                .iter()
                .take(TOP)
                .map(|l| TopLine { rank: l.rank, name: l.name.clone(), points: l.points, record: l.record() })
                .collect(),
        }
    }

    /// "Ana wins the event", "Ana and Bo share first".
    pub fn winner_words(&self) -> String {
        winner_words(&self.winners)
    }
}

/// The names ranked first.
pub fn winners(lines: &[Line]) -> Vec<String> {
    lines.iter().filter(|l| l.rank == 1).map(|l| l.name.clone()).collect()
}

/// "Ana wins the event", "Ana and Bo share first", "Ana, Bo and Cy share first" (empty: nobody ranked).
pub fn winner_words(names: &[String]) -> String {
    match names {
        [] => "nobody is ranked".to_string(),
        [one] => format!("{one} wins the event"),
        [first @ .., last] => format!("{} and {last} share first", first.join(", ")),
    }
}

/// Whether the event is over (see the module): `results` loaded from `conn`.
pub fn is_over(conn: &Connection, results: &Results) -> Result<bool> {
    let planned = u32::try_from(event::values(conn)?.number("rounds")).unwrap_or(0);
    if results.paired == 0 || results.paired < planned || results.played < results.paired {
        return Ok(false);
    }
    if results.matches.iter().any(|m| !m.is_bye() && m.outcome.is_none()) {
        return Ok(false);
    }
    let last = round::get(conn, results.paired)?;
    Ok(last.is_some_and(|r| r.ended_at.is_some() || r.started_at.is_none()))
}

/// The end of the event when it is over, else None.
pub fn event_end(conn: &Connection) -> Result<Option<EventEnd>> {
    let results = Results::load_for_standings(conn)?;
    if !is_over(conn, &results)? {
        return Ok(None);
    }
    let lines = results.standings_of_round(results.paired).lines;
    Ok(Some(EventEnd::of(results.paired, &lines)))
}

/// The end of the event, read only when the cheap signs say it may be over (the last planned round paired and
/// not being played, every table of it with a result): the home view asks at every page.
pub fn event_end_if_likely(conn: &Connection, rounds: i64, number: u32, running: bool) -> Result<Option<EventEnd>> {
    if number == 0 || i64::from(number) < rounds || running {
        return Ok(None);
    }
    let (tables, finished) = crate::store::matches::counts_of_round(conn, number)?;
    if finished < tables {
        return Ok(None);
    }
    event_end(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_first_is_said_as_shared() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(winner_words(&names(&["Ana"])), "Ana wins the event");
        assert_eq!(winner_words(&names(&["Ana", "Bo"])), "Ana and Bo share first");
        assert_eq!(winner_words(&names(&["Ana", "Bo", "Cy"])), "Ana, Bo and Cy share first");
    }
}
