//! Challenges, rulings and penalties: what the judges decided, by round and table.

use super::{Frame, Page, Site, render};
use crate::error::Result;
use crate::store::MatchId;
use crate::store::judging;
use askama::Template;
use std::collections::HashMap;

/// One challenge as shown.
struct ChallengeRow {
    at: String,
    round: String,
    table: String,
    by: String,
    about: String,
    by_says: String,
    other_says: String,
    ruling: String,
    lost_by: String,
    judge: String,
}

/// One ruling as shown.
struct RulingRow {
    at: String,
    round: String,
    table: String,
    text: String,
    judge: String,
}

/// One penalty as shown.
struct PenaltyRow {
    at: String,
    round: String,
    table: String,
    player: String,
    infraction: String,
    penalty: String,
    upgraded: String,
    note: String,
    judge: String,
}

#[derive(Template)]
#[template(path = "site/judging.html")]
struct JudgingPage {
    frame: Frame,
    challenges: Vec<ChallengeRow>,
    rulings: Vec<RulingRow>,
    penalties: Vec<PenaltyRow>,
}

/// Local `HH:MM` of a stored instant (the text itself if unreadable).
fn when(at: &str) -> String {
    crate::time::unstamp(at).map(crate::time::clock_time).unwrap_or_else(|_| at.to_string())
}

/// `judging.html`: every challenge, ruling and penalty.
pub fn page(site: &Site) -> Result<Vec<Page>> {
    let place: HashMap<MatchId, (String, String)> = site
        .results
        .matches
        .iter()
        .map(|m| (m.id, (m.round.to_string(), m.table.map(|t| t.to_string()).unwrap_or_else(|| "bye".into()))))
        .collect();
    let at = |id: Option<MatchId>| id.and_then(|id| place.get(&id).cloned()).unwrap_or_default();
    let challenges = judging::challenges(site.conn)?
        .into_iter()
        .map(|c| {
            let (round, table) = at(Some(c.match_id));
            ChallengeRow {
                at: when(&c.at),
                round,
                table,
                by: site.name(c.by).to_string(),
                about: c.about,
                by_says: c.by_says.unwrap_or_default(),
                other_says: c.other_says.unwrap_or_default(),
                ruling: c.ruling,
                lost_by: site.name(c.loser).to_string(),
                judge: c.judge,
            }
        })
        .collect();
    let rulings = judging::rulings(site.conn)?
        .into_iter()
        .map(|r| {
            let (round, table) = at(Some(r.match_id));
            RulingRow { at: when(&r.at), round, table, text: r.text, judge: r.judge }
        })
        .collect();
    let penalties = judging::penalties(site.conn)?
        .into_iter()
        .map(|p| {
            let (round, table) = at(p.match_id);
            PenaltyRow {
                at: when(&p.at),
                round,
                table,
                player: site.name(p.player).to_string(),
                infraction: p.infraction,
                penalty: p.penalty,
                upgraded: p.upgraded.unwrap_or_default(),
                note: p.note.unwrap_or_default(),
                judge: p.judge,
            }
        })
        .collect();
    let page = JudgingPage { frame: site.frame("Challenges, rulings and penalties"), challenges, rulings, penalties };
    Ok(vec![Page {
        file: "judging.html".into(),
        round: None,
        link: "Challenges, rulings and penalties".into(),
        html: render(&page)?,
    }])
}
