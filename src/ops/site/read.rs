//! What the site's pages read from the event file beyond the [`Event`] every page shares: the judges'
//! records, the cards declared, the challenges on the slips, the projector clock.

use super::Site;
use crate::error::Result;
use crate::ops::card_reference as reference;
use crate::ops::table::clocks::clock::{ProjectorFigures, projector_figures};
use crate::ops::table::records::note as notes;
use crate::store::challenge::Challenge;
use crate::store::{MatchId, PlayerId, round};
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// A card declared at a table.
pub struct Declared {
    /// Round.
    pub round: u32,
    /// Table.
    pub table: u32,
    /// The card's name.
    pub card: String,
    /// Who declared it first there, and when.
    pub by: String,
    /// When (`HH:MM`).
    pub at: String,
    /// Its page, when the reference holds the card.
    pub page: Option<String>,
}

/// `card-demonic-tutor.html`: the card's page file (letters and digits kept, the rest dashes).
pub fn card_file(name: &str) -> String {
    let folded = crate::domain::names::fold(name);
    let slug: Vec<&str> = folded.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    format!("card-{}.html", slug.join("-"))
}

/// What every round's slips share: the challenges heard, by match; the challenge limit; the event and day.
pub struct SlipShared {
    /// The challenges heard, by match.
    pub by_match: HashMap<MatchId, Vec<Challenge>>,
    /// The challenge limit (lost challenges that lose the match), 1 to 9.
    pub limit: usize,
    /// "Spring Open · 2026-05-01": on every slip, as slips are cut apart.
    pub event_day: String,
}

/// The projector clock of the latest round: when its clock started and its figures, or `None` before.
pub type Clock = Option<(DateTime<Utc>, ProjectorFigures)>;

impl Site<'_> {
    /// What every round's slips share (reads the challenges heard in the event).
    pub fn slip_shared(&self) -> Result<SlipShared> {
        Ok(SlipShared {
            by_match: self.challenges_by_match()?,
            limit: self.settings.number("challenge-limit").clamp(1, 9) as usize,
            event_day: format!("{} · {}", self.settings.name(), self.settings.date()),
        })
    }

    /// Every card declared in the event, round by round and table by table (voided notes left out).
    pub fn declared(&self) -> Result<Vec<Declared>> {
        let with_reference = reference::require(self.conn).is_ok();
        let mut out = Vec::new();
        // A player's name as the event holds it (the site's players hold every one; a lookup is a safeguard).
        let name = |p: PlayerId| match self.results.index_of(p).and_then(|i| self.results.players.get(i)) {
            Some(player) => Ok(player.name.clone()),
            None => Ok(crate::store::player::get(self.conn, p)?.name),
        };
        for r in 1..=self.results.paired {
            let mut by_match = notes::declared_in_round(self.conn, r, name)?;
            for m in self.round_matches(r).filter(|m| m.b.is_some() && m.table.is_some()) {
                for (card, prior) in by_match.remove(&m.id).unwrap_or_default() {
                    let page = match with_reference {
                        true => reference::lookup(self.conn, &card)?.map(|c| card_file(&c.name)),
                        false => None,
                    };
                    let table = m.table.unwrap_or(0);
                    out.push(Declared { round: r, table, card, by: prior.by, at: prior.at, page });
                }
            }
        }
        Ok(out)
    }

    /// The latest round's projector clock, once its clock has started.
    pub fn clock(&self) -> Result<Clock> {
        let current = self.results.paired;
        let started = round::get(self.conn, current)?.and_then(|r| r.started_at);
        match started.and_then(|s| crate::time::unstamp(&s).ok()) {
            Some(start) => Ok(Some((start, projector_figures(self.conn, current)?))),
            None => Ok(None),
        }
    }
}
