//! Challenges, rulings and penalties: what the judges decided, by round and table.

use super::{Event, Frame, Judging, Page, render, table_text};
use crate::error::Result;
use crate::ops::site::Declared;
use crate::store::voids::Voided;
use askama::Template;

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
    void: String,
}

/// One ruling as shown.
struct RulingRow {
    at: String,
    round: String,
    table: String,
    text: String,
    judge: String,
    void: String,
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
    void: String,
}

#[derive(Template)]
#[template(path = "site/judging.html")]
struct JudgingPage {
    frame: Frame,
    challenges: Vec<ChallengeRow>,
    rulings: Vec<RulingRow>,
    penalties: Vec<PenaltyRow>,
    declared: Vec<Declared>,
}

/// Local `HH:MM` of a stored instant (the text itself if unreadable).
fn when(at: &str) -> String {
    crate::time::unstamp(at).map(crate::time::clock_time).unwrap_or_else(|_| at.to_string())
}

/// "void (Kim 14:05: wrong table)" for a voided record, empty for one that counts.
fn void_text(v: Option<&Voided>) -> String {
    match v {
        Some(v) => {
            let why = v.reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
            format!("void ({} {}{why})", v.judge, when(&v.at))
        }
        None => String::new(),
    }
}

/// `judging.html`: every challenge, ruling and penalty; voided ones struck through.
pub fn page(site: &Event, judging: Judging, declared: Vec<Declared>) -> Result<Page> {
    let challenges = judging
        .challenges
        .into_iter()
        .map(|(c, v)| ChallengeRow {
            at: when(&c.at),
            round: c.round.to_string(),
            table: table_text(c.table),
            by: site.name(c.by).to_string(),
            about: c.about,
            by_says: c.by_says.unwrap_or_default(),
            other_says: c.other_says.unwrap_or_default(),
            ruling: c.ruling,
            lost_by: site.name(c.loser).to_string(),
            judge: c.judge,
            void: void_text(v.as_ref()),
        })
        .collect();
    let rulings = judging
        .rulings
        .into_iter()
        .map(|(r, v)| RulingRow {
            at: when(&r.at),
            round: r.round.to_string(),
            table: table_text(r.table),
            text: r.text,
            judge: r.judge,
            void: void_text(v.as_ref()),
        })
        .collect();
    let penalties = judging
        .penalties
        .into_iter()
        .map(|(p, v)| PenaltyRow {
            at: when(&p.at),
            round: p.round.map(|r| r.to_string()).unwrap_or_default(),
            table: if p.match_id.is_some() { table_text(p.table) } else { String::new() },
            player: site.name(p.player).to_string(),
            infraction: p.infraction,
            penalty: p.penalty,
            upgraded: p.upgraded.unwrap_or_default(),
            note: p.note.unwrap_or_default(),
            judge: p.judge,
            void: void_text(v.as_ref()),
        })
        .collect();
    let frame = site.frame("Challenges, rulings and penalties");
    let page = JudgingPage { frame, challenges, rulings, penalties, declared };
    Ok(Page::of_event("judging.html", "Challenges, rulings and penalties", render(&page)?))
}
