//! Result slips per round: one per table, to print, fill in at the table and sign.

use super::pairings::result_text;
use super::{Frame, Page, Pages, Site};
use crate::error::Result;
use crate::store::PlayerId;
use askama::Template;

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

/// `round-N-slips.html` for every paired round.
pub fn pages(site: &Site, out: &mut Pages) -> Result<()> {
    let by_match = site.challenges_by_match()?;
    let none = Vec::new();
    let limit = site.settings.number("challenge-limit").clamp(1, 9) as usize;
    let event_day = format!("{} · {}", site.settings.name(), site.settings.date());
    for r in 1..=site.results.paired {
        {
            let turns = crate::store::matches::turns_of_round(site.conn, r)?;
            let mut slips = Vec::new();
            for m in site.round_matches(r) {
                let (Some(b), Some(table)) = (m.b, m.table) else { continue };
                let heard = by_match.get(&m.id).unwrap_or(&none);
                let side = |p: PlayerId, other: PlayerId, lib, life: Option<i64>| SlipSide {
                    name: site.name(p).to_string(),
                    library: site.library(lib),
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
                    result: result_text(site, m),
                    turn: turns.get(&m.id).map(|t| t.to_string()).unwrap_or_default(),
                });
            }
            let page = SlipsPage {
                frame: site.frame(format!("Round {r}: result slips")),
                round: r,
                event_day: event_day.clone(),
                slips,
            };
            out.put(Page::of_round(r, "slips", "result slips", &page)?)?;
        }
    }
    Ok(())
}
