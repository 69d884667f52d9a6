//! The live projector page (`mmjudge serve`, `GET /projector`): the round and its clock, deck inspection, the
//! decision limit in force, the tables with extensions and the tables over time. Every instant is absolute
//! (RFC 3339) so the page switches phase by itself (inspection, round, final window, time) between updates.

use crate::domain::clock::ClockSettings;
use crate::error::Result;
use crate::ops::round::time::{self, TableTime};
use crate::store::{Store, event, round};
use crate::time::{stamp, unstamp};
use chrono::{DateTime, Duration, Utc};
use rusqlite::Connection;

/// What the projector shows at an instant.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Projector {
    /// The event's name.
    pub event: String,
    /// Rounds planned.
    pub rounds: i64,
    /// The server's now (RFC 3339).
    pub now: String,
    /// The current round (None before round 1 is paired).
    pub round: Option<ProjectorRound>,
    /// The event is over: its winner and the top of its final standings (see
    /// [`crate::ops::standings::is_over`]).
    pub finished: Option<crate::ops::standings::EventEnd>,
}

/// The current round on the projector.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ProjectorRound {
    /// Round number.
    pub number: u32,
    /// At the view's instant: `paired` (clock not started), `inspection` (deck inspection), `waiting` (a start
    /// given for later), `round` (the round's clock runs) or `closed`.
    pub phase: &'static str,
    /// When deck inspection started (RFC 3339), while it runs or is still to come.
    pub inspection_from: Option<String>,
    /// When deck inspection ends and the round's clock starts (RFC 3339), while it runs or is still to come.
    pub inspection_until: Option<String>,
    /// When the round's clock started (RFC 3339).
    pub started_at: Option<String>,
    /// When time is called, without extensions.
    pub ends_at: Option<String>,
    /// When the final window opens, without extensions.
    pub final_window_at: Option<String>,
    /// When the round was closed.
    pub ended_at: Option<String>,
    /// The final window is open (the shorter decision limit is in force) at the view's instant.
    pub final_window: bool,
    /// The decision limit in force at the view's instant (seconds), once the round's clock runs.
    pub limit_secs: Option<u32>,
    /// The event's time settings (round length, decision limits, final window).
    pub settings: ClockSettings,
    /// Tables of the round (byes left out).
    pub tables: usize,
    /// Tables with a result.
    pub finished: usize,
    /// Tables with extensions and no result yet, each with its own end.
    pub extended: Vec<ProjectorTable>,
    /// Tables over time and still without a result (time called at their end, or at the round's close when it
    /// was ended anyway).
    pub over_time: Vec<ProjectorTable>,
    /// Every table still without a result (the page moves a table to "over time" by itself at its end).
    pub playing: Vec<ProjectorTable>,
    /// The round's progress as the dashboard draws it, once its clock started (the page's chart; not in the
    /// projector's JSON).
    #[serde(skip)]
    pub progress: Option<crate::ops::round::progress::RoundProgress>,
}

/// One table on the projector.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ProjectorTable {
    /// The table.
    pub table: u32,
    /// Its players, seat A first.
    pub players: Vec<String>,
    /// Its extensions in all, in seconds.
    pub extension_secs: i64,
    /// When its time is called (RFC 3339).
    pub ends_at: String,
    /// When its final window opens (RFC 3339).
    pub final_window_at: String,
    /// Its final window is open at the view's instant.
    pub final_window: bool,
    /// The decision limit in force there (seconds).
    pub limit_secs: u32,
    /// Its time is over.
    pub over: bool,
    /// Time was called at the round's close, before the table's own end ("End the round anyway").
    pub called_at_close: bool,
}

/// The projector's view at `now`.
pub fn projector(store: &Store, now: DateTime<Utc>) -> Result<Projector> {
    store.read(|conn| projector_in(conn, now))
}

fn projector_in(conn: &Connection, now: DateTime<Utc>) -> Result<Projector> {
    let values = event::values(conn)?;
    let number = round::current(conn)?;
    let round = match round::get(conn, number)? {
        Some(r) if number > 0 => Some(match r.started_at {
            Some(_) => started_round(conn, now, values.number("inspection-minutes"))?,
            None => {
                let ms = crate::store::matches::of_round(conn, number)?;
                let tables = ms.iter().filter(|m| !m.is_bye()).count();
                ProjectorRound {
                    number,
                    phase: if r.ended_at.is_some() { "closed" } else { "paired" },
                    inspection_from: None,
                    inspection_until: None,
                    started_at: None,
                    ends_at: None,
                    final_window_at: None,
                    ended_at: r.ended_at.clone(),
                    final_window: false,
                    limit_secs: None,
                    settings: crate::ops::table::clocks::clock::clock_settings(&values),
                    tables,
                    finished: ms.iter().filter(|m| !m.is_bye() && m.outcome.is_some()).count(),
                    extended: Vec::new(),
                    over_time: Vec::new(),
                    playing: Vec::new(),
                    progress: None,
                }
            }
        }),
        _ => None,
    };
    let rounds = values.number("rounds");
    let running = round::get(conn, number)?.is_some_and(|r| r.started_at.is_some() && r.ended_at.is_none());
    let finished = crate::ops::standings::event_end_if_likely(conn, rounds, number, running)?;
    Ok(Projector { event: values.name().to_string(), rounds, now: stamp(now), round, finished })
}

fn started_round(conn: &Connection, now: DateTime<Utc>, inspection_minutes: i64) -> Result<ProjectorRound> {
    let view = time::round_times(conn, now)?;
    let started = unstamp(view.started_at.as_deref().unwrap_or_default())?;
    let at = unstamp(&view.at)?;
    let settings = view.settings;
    let round_end = started + settings.round_length();
    let window_at = round_end - settings.final_window();
    let inspecting = matches!(view.phase, "inspection");
    let table = |t: &TableTime| -> Result<ProjectorTable> {
        // The table's own end (its window is counted back from it, even when time was called at the close).
        let ends = round_end + Duration::seconds(t.extension_secs);
        Ok(ProjectorTable {
            table: t.table,
            players: t.players.clone(),
            extension_secs: t.extension_secs,
            ends_at: t.ends_at.clone(),
            final_window_at: stamp(ends - settings.final_window()),
            final_window: t.final_window,
            limit_secs: t.limit_secs,
            over: t.over,
            called_at_close: t.called_at_close,
        })
    };
    let mut playing = Vec::new();
    for t in view.tables.iter().filter(|t| t.result.is_none() && t.players.len() == 2) {
        playing.push(table(t)?);
    }
    let extended = playing.iter().filter(|t| t.extension_secs != 0).cloned().collect();
    let over_time = playing.iter().filter(|t| t.over).cloned().collect();
    let tables = view.tables.iter().filter(|t| t.players.len() == 2).count();
    let finished = view.tables.iter().filter(|t| t.players.len() == 2 && t.result.is_some()).count();
    let progress = (at >= started).then(|| progress_of(conn, &view, round_end, now)).transpose()?;
    Ok(ProjectorRound {
        number: view.round,
        phase: view.phase,
        inspection_from: inspecting.then(|| stamp(started - Duration::minutes(inspection_minutes))),
        inspection_until: inspecting.then(|| stamp(started)),
        started_at: Some(stamp(started)),
        ends_at: Some(stamp(round_end)),
        final_window_at: Some(stamp(window_at)),
        ended_at: view.ended_at.clone(),
        final_window: !inspecting && at >= window_at && at >= started,
        limit_secs: (at >= started)
            .then(|| if at >= window_at { settings.final_decision_secs } else { settings.decision_secs }),
        settings,
        tables,
        finished,
        extended,
        over_time,
        playing,
        progress,
    })
}

/// The round's progress from its tables' times and the moments of their results.
fn progress_of(
    conn: &Connection,
    view: &time::RoundTimes,
    round_end: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<crate::ops::round::progress::RoundProgress> {
    use crate::ops::round::progress::{RoundProgress, TableProgress};
    let result_at: std::collections::HashMap<u32, Option<String>> = crate::store::matches::of_round(conn, view.round)?
        .into_iter()
        .filter_map(|m| m.table.map(|t| (t, m.result_at)))
        .collect();
    let tables = view
        .tables
        .iter()
        .filter(|t| t.players.len() == 2)
        .map(|t| TableProgress {
            table: t.table,
            players: [t.players[0].clone(), t.players[1].clone()],
            result_at: result_at.get(&t.table).cloned().flatten(),
            ends_at: Some(t.ends_at.clone()),
            extension_seconds: t.extension_secs,
        })
        .collect();
    Ok(RoundProgress {
        round: view.round,
        started_at: view.started_at.clone().unwrap_or_default(),
        ends_at: stamp(round_end),
        ended_at: view.ended_at.clone(),
        now: stamp(now),
        tables,
    })
}
