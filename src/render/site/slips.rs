//! Result slips per round: one per table, to print, fill in at the table and sign.

use super::pairings::result_text;
use super::{Event, Frame, Page, SlipShared};
use crate::error::Result;
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
