//! A table's history as a judge reads it before ruling: the match's penalties (with what they became), rulings
//! and challenges, voided ones marked; each player's earlier penalties in the event; and the penalty the guide
//! gives a player now for an infraction (the penalty form's preview).

use super::challenge::challenges;
use super::penalty::{PenaltyRow, penalties};
use super::ruling::rulings;
use crate::domain::penalty::{Infraction, PenaltyKind, effective_penalty, ordinal};
use crate::error::{Error, Result};
use crate::ops::player_names;
use crate::ops::table::{RecordFilter, Seated, hhmm};
use rusqlite::Connection;

/// One record of the table's history, in words.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HistoryLine {
    /// The record's id.
    pub id: i64,
    /// When (`HH:MM`).
    pub time: String,
    /// What it was, in words.
    pub words: String,
    /// Whether it was voided.
    pub voided: bool,
}

/// A player's earlier penalty in the event.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EarlierPenalty {
    /// The infraction's name.
    pub infraction: String,
    /// The penalty issued's name.
    pub penalty: String,
    /// The round it was given in (None: away from a match).
    pub round: Option<u32>,
    /// Whether it was voided.
    pub voided: bool,
}

/// A player's earlier penalties.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlayerPenalties {
    /// The player.
    pub player: String,
    /// Their penalties given away from this match, oldest first.
    pub penalties: Vec<EarlierPenalty>,
}

/// A table's history.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TableHistory {
    /// The match's penalties.
    pub penalties: Vec<HistoryLine>,
    /// The match's rulings.
    pub rulings: Vec<HistoryLine>,
    /// The match's challenges.
    pub challenges: Vec<HistoryLine>,
    /// Each player's earlier penalties in the event.
    pub earlier: Vec<PlayerPenalties>,
}

fn infraction_name(slug: &str) -> String {
    Infraction::ALL.iter().find(|i| i.slug() == slug).map_or_else(|| slug.to_string(), |i| i.name().to_string())
}

fn penalty_name(slug: &str) -> String {
    PenaltyKind::ALL.iter().find(|k| k.slug() == slug).map_or_else(|| slug.to_string(), |k| k.name().to_string())
}

fn penalty_words(p: &PenaltyRow) -> String {
    let mut words = format!("{} for {} to {}", penalty_name(&p.penalty), infraction_name(&p.infraction), p.player);
    if let Some(u) = &p.upgraded {
        words.push_str(&format!(" ({u})"));
    }
    if let Some(n) = &p.note {
        words.push_str(&format!(": {n}"));
    }
    words
}

/// The history of table `table` in the current round (see the module's text).
pub fn at_table(conn: &Connection, table: u32) -> Result<TableHistory> {
    let seated = Seated::at(conn, table, None)?;
    let all = penalties(conn, None)?.penalties;
    let here = |p: &&PenaltyRow| p.match_id == Some(seated.m.id);
    let penalties = all
        .iter()
        .filter(here)
        .map(|p| HistoryLine { id: p.id, time: hhmm(&p.at), words: penalty_words(p), voided: p.voided.is_some() })
        .collect();
    let filter = RecordFilter { table: Some(table), round: None, player: None };
    let rulings = rulings(conn, &filter)?
        .rulings
        .into_iter()
        .map(|r| HistoryLine { id: r.id, time: hhmm(&r.at), words: r.text, voided: r.voided.is_some() })
        .collect();
    let challenges = challenges(conn, &filter)?
        .challenges
        .into_iter()
        .map(|c| HistoryLine {
            id: c.id,
            time: hhmm(&c.at),
            words: format!("{} challenged \u{201c}{}\u{201d}: {}", c.by, c.about, c.ruling),
            voided: c.voided.is_some(),
        })
        .collect();
    let earlier = [&seated.a.name, &seated.b.name]
        .into_iter()
        .map(|name| PlayerPenalties {
            player: name.clone(),
            penalties: all
                .iter()
                .filter(|p| &p.player == name && p.match_id != Some(seated.m.id))
                .map(|p| EarlierPenalty {
                    infraction: infraction_name(&p.infraction),
                    penalty: penalty_name(&p.penalty),
                    round: p.round,
                    voided: p.voided.is_some(),
                })
                .collect(),
        })
        .collect();
    Ok(TableHistory { penalties, rulings, challenges, earlier })
}

/// The penalty the guide gives a player now for an infraction, before it is given.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PenaltyPreview {
    /// The player.
    pub player: String,
    /// The infraction's slug.
    pub infraction: String,
    /// How many times the player would then have committed it in this event (this one included).
    pub nth: u32,
    /// The penalty the guide gives (its slug).
    pub penalty: String,
    /// Why it differs from the infraction's usual penalty (an upgrade), if it does.
    pub upgraded: Option<String>,
    /// In words: "2nd Slow Play in this event: Game Loss".
    pub words: String,
}

/// `GET /api/penalty/preview`: what [`super::penalty::record_penalty`] would issue `player` for `infraction`
/// now, without a head judge's choice (nothing is written).
pub fn preview(conn: &Connection, player: &str, infraction: &str) -> Result<PenaltyPreview> {
    let infraction = Infraction::parse(infraction).map_err(|e| Error::bad_input(e.to_string()))?;
    let p = player_names::find(conn, player)?;
    let before: Vec<PenaltyRow> = penalties(conn, Some(&p.name))?
        .penalties
        .into_iter()
        .filter(|r| r.voided.is_none() && r.infraction == infraction.slug())
        .collect();
    let prior_warnings = before.iter().filter(|r| r.penalty == PenaltyKind::Warning.slug()).count();
    let (kind, upgraded) = effective_penalty(infraction, u32::try_from(prior_warnings).unwrap_or(u32::MAX), None);
    let nth = u32::try_from(before.len()).unwrap_or(u32::MAX).saturating_add(1);
    let words = format!("{} {} in this event: {}", ordinal(nth), infraction.name(), kind.name());
    Ok(PenaltyPreview {
        player: p.name,
        infraction: infraction.slug().to_string(),
        nth,
        penalty: kind.slug().to_string(),
        upgraded,
        words,
    })
}
