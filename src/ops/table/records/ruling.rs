//! Rulings: what a judge ruled at a table, logged in words, and their listing.

use crate::domain::topic::Topic;
use crate::error::Result;
use crate::ops::player_names;
use crate::ops::table::{RecordFilter, Seated, filter_match, moment, text_field};
use crate::store::voids::{self, VoidKind, Voided};
use crate::store::{Actor, Change, MatchId, Store, ruling};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// A ruling as the judge logs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulingInput {
    /// The table.
    pub table: u32,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// The ruling in words.
    pub text: String,
    /// When, if not now.
    pub at: Option<DateTime<Utc>>,
}

/// A logged ruling.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RulingOutcome {
    /// Its id.
    pub ruling: i64,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// `ruling TABLE TEXT`: logs a ruling at a table.
pub fn record_ruling(store: &mut Store, actor: &Actor, input: RulingInput) -> Result<RulingOutcome> {
    let text = text_field("the ruling", &input.text)?;
    let at = moment(input.at, actor);
    store.write(actor, |tx| {
        let seated = Seated::at(tx, input.table, input.round)?;
        seated.not_before_start(tx, input.at)?;
        let id = ruling::insert(tx, seated.m.id, text, &actor.judge, &at)?;
        let summary = format!("ruling #{id} at {}: {text}", seated.label());
        let out = RulingOutcome { ruling: id, round: seated.m.round, table: seated.table(), summary: summary.clone() };
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching(seated.touched(Topic::Note))))
    })
}

/// One ruling in a listing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RulingRow {
    /// Its id.
    pub id: i64,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: Option<u32>,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The ruling in words.
    pub text: String,
    /// The judge.
    pub judge: String,
    /// When (RFC 3339).
    pub at: String,
    /// Its void, if voided.
    pub voided: Option<Voided>,
}

/// The rulings a filter names.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RulingList {
    /// The match's label when the filter named a table.
    #[serde(skip)]
    pub at: Option<String>,
    /// The rulings.
    pub rulings: Vec<RulingRow>,
}

/// `rulings [--table T] [--round N] [--player P]`.
pub fn rulings(conn: &Connection, filter: &RecordFilter) -> Result<RulingList> {
    let (seated, round) = filter_match(conn, filter)?;
    let who = filter.player.as_deref().map(|p| player_names::find(conn, p)).transpose()?;
    let mut rows = match &seated {
        Some(s) => ruling::of_match(conn, s.m.id)?,
        None => ruling::list(conn, who.as_ref().map(|p| p.id))?,
    };
    rows.retain(|r| round.is_none_or(|n| r.round == n));
    if let (Some(s), Some(p)) = (&seated, &who)
        && s.seat_of(p.id).is_none()
    {
        rows.clear();
    }
    let voided = voids::of_kind(conn, VoidKind::Ruling)?;
    let rulings = rows
        .into_iter()
        .map(|r| RulingRow {
            voided: voided.get(&r.id).cloned(),
            id: r.id,
            round: r.round,
            table: r.table,
            match_id: r.match_id,
            text: r.text,
            judge: r.judge,
            at: r.at,
        })
        .collect();
    Ok(RulingList { at: seated.map(|s| s.label()), rulings })
}
