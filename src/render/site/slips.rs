//! Result slips per round: one per table, to print, fill in at the table and sign.

use super::pairings::result_text;
use super::{Event, Frame, Page, SlipShared};
use crate::error::Result;
use crate::ops::pairings::Carry;
use crate::store::MatchId;
use crate::store::PlayerId;
use askama::Template;
use std::collections::BTreeMap;

/// One player on a slip.
struct SlipSide {
    name: String,
    library: String,
    life: String,
    challenges_won: usize,
    /// One box per lost challenge that loses the match (the challenge limit): ticked for each recorded.
    lost_boxes: Vec<bool>,
}

/// One table's slip.
struct Slip {
    table: u32,
    a: SlipSide,
    b: SlipSide,
    result: String,
    /// The turn at time, when recorded; empty for a box to fill in.
    turn: String,
    /// The libraries carried to this table for the round (for a player who stays at one table), in words; empty
    /// when its libraries are its own.
    carried: String,
}

impl Slip {
    /// Seat A's line, then seat B's.
    fn sides(&self) -> [(&'static str, &SlipSide); 2] {
        [("A", &self.a), ("B", &self.b)]
    }
}

#[derive(Template)]
#[template(path = "site/slips.html")]
struct SlipsPage {
    frame: Frame,
    round: u32,
    /// "Spring Open · 2026-05-01": on every slip, as slips are cut apart.
    event_day: String,
    slips: Vec<Slip>,
}

/// `round-N-slips.html`: the slips of paired round `r`, with its `turns` at time.
pub fn page(ev: &Event, r: u32, turns: &BTreeMap<MatchId, u32>, shared: &SlipShared) -> Result<Page> {
    let none = Vec::new();
    let limit = shared.limit;
    let carry = ev.carried(r);
    let mut slips = Vec::new();
    for m in ev.round_matches(r) {
        let (Some(b), Some(table)) = (m.b, m.table) else { continue };
        let heard = shared.by_match.get(&m.id).unwrap_or(&none);
        let side = |p: PlayerId, other: PlayerId, lib, life: Option<i64>| SlipSide {
            name: ev.name(p).to_string(),
            library: ev.library(lib),
            life: life.map(|l| l.to_string()).unwrap_or_default(),
            challenges_won: heard.iter().filter(|c| c.loser == other).count(),
            lost_boxes: {
                let lost = heard.iter().filter(|c| c.loser == p).count();
                (0..limit.max(lost)).map(|i| i < lost).collect()
            },
        };
        slips.push(Slip {
            table,
            a: side(m.a, b, m.a_library, m.life.map(|l| l.0)),
            b: side(b, m.a, m.b_library, m.life.map(|l| l.1)),
            result: result_text(ev, m),
            turn: turns.get(&m.id).map(|t| t.to_string()).unwrap_or_default(),
            carried: carried_words(&carry, table),
        });
    }
    let page = SlipsPage {
        frame: ev.frame(format!("Round {r}: result slips")),
        round: r,
        event_day: shared.event_day.clone(),
        slips,
    };
    super::of_round(r, "slips", "result slips", &page)
}

/// "Libraries 5A and 5B are carried here from table 5 this round: back to table 5 after the round." for the slip
/// of `table` (empty when nothing is carried to it: a player who stays at one table has libraries carried to
/// them, and those of their table to the table the other game left).
fn carried_words(carry: &[Carry], table: u32) -> String {
    let mut from: Vec<(u32, Vec<&str>)> = Vec::new();
    for c in carry.iter().filter(|c| c.to == table) {
        match from.iter_mut().find(|(t, _)| *t == c.from) {
            Some((_, libs)) => libs.push(&c.library),
            None => from.push((c.from, vec![c.library.as_str()])),
        }
    }
    from.iter()
        .map(|(t, libs)| {
            let (all, are) = match libs.as_slice() {
                [one] => (format!("Library {one}"), "is"),
                [rest @ .., last] => (format!("Libraries {} and {last}", rest.join(", ")), "are"),
                [] => (String::new(), ""),
            };
            format!("{all} {are} carried here from table {t} this round: back to table {t} after the round.")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slip_says_which_libraries_came_to_its_table_and_where_they_go_back() {
        let c = |library: &str, from, to| Carry { library: library.into(), from, to };
        let carry = [c("5A", 5, 3), c("5B", 5, 3), c("3A", 3, 5), c("3B", 3, 5)];
        assert_eq!(
            carried_words(&carry, 3),
            "Libraries 5A and 5B are carried here from table 5 this round: back to table 5 after the round."
        );
        assert_eq!(carried_words(&carry[2..], 5).matches("3A and 3B").count(), 1);
        assert_eq!(carried_words(&carry, 4), "");
        assert!(carried_words(&[c("7A", 7, 2)], 2).starts_with("Library 7A is carried here from table 7"));
    }
}
