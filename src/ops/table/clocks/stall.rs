//! Stalls the live clock logged (a decision over its limit, for a judge to review): their listing.

use crate::error::Result;
use crate::ops::player_names;
use crate::ops::table::{RecordFilter, filter_match};
use crate::store::voids::{self, VoidKind, Voided};
use crate::store::{MatchId, PlayerId, clock};
use rusqlite::Connection;

/// One stall in a listing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StallRow {
    /// Its id.
    pub id: i64,
    /// The round.
    pub round: u32,
    /// The table.
    pub table: Option<u32>,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The player.
    pub player: String,
    /// When (RFC 3339).
    pub at: String,
    /// Its void, if voided.
    pub voided: Option<Voided>,
}

/// The stalls a filter names.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StallList {
    /// The match's label when the filter named a table.
    #[serde(skip)]
    pub at: Option<String>,
    /// The stalls.
    pub stalls: Vec<StallRow>,
}

/// `stalls [--table T] [--round N] [--player P]`.
pub fn stalls(conn: &Connection, filter: &RecordFilter) -> Result<StallList> {
    let (seated, round) = filter_match(conn, filter)?;
    let who = filter.player.as_deref().map(|p| player_names::find(conn, p)).transpose()?;
    let mut rows = clock::stalls(conn, seated.as_ref().map(|s| s.m.id), who.as_ref().map(|p| p.id))?;
    rows.retain(|s| round.is_none_or(|n| s.round == n));
    let names = player_names::names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let voided = voids::of_kind(conn, VoidKind::Stall)?;
    let stalls = rows
        .into_iter()
        .map(|s| StallRow {
            voided: voided.get(&s.id).cloned(),
            id: s.id,
            round: s.round,
            table: s.table,
            match_id: s.match_id,
            player: name(s.player_id),
            at: s.at,
        })
        .collect();
    Ok(StallList { at: seated.map(|s| s.label()), stalls })
}
