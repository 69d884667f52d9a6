//! `GET /judge/players`: every player for the judges, searchable, with each one's state (playing at a table,
//! a bye, dropped, checked in or not, a late entry, staying at one table); head judges get each player's buttons
//! (drop or undrop, rename, remove, a new code, the table they stay at) and the late-entry form, each posting its route in [`super::players`].

use crate::ops::judges::Role;
use crate::web::kit::auth::Judge;
use crate::web::kit::extract::Query;
use crate::web::kit::page::{self, page};
use crate::web::kit::request::ApiError;
use crate::web::kit::request::DoneQuery;
use askama::Template;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

/// One player's row.
#[derive(serde::Serialize)]
pub struct Row {
    /// The name.
    pub name: String,
    /// Their state in words ("playing at table 3", "dropped after round 2", ...).
    pub state: String,
    /// Dropped (Undrop is offered, not Drop).
    pub dropped: bool,
    /// Check-in is on, round 1 not paired, and they have not checked in.
    pub to_check_in: bool,
    /// Check-in is on: whether they have checked in.
    pub checked_in: Option<bool>,
    /// A late entry: the round they joined from.
    pub late: Option<u32>,
    /// The table the player stays at every round (a player who cannot move).
    pub stays_at: Option<u32>,
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/players.html")]
struct PlayersPage {
    home: crate::web::kit::page::Head,
    judge: crate::ops::judges::SessionJudge,
    head: bool,
    done: Option<String>,
    q: String,
    rows: Vec<Row>,
    total: usize,
}

/// `?q=` of `/judge/players`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct PlayersQuery {
    /// Part of a name.
    pub q: Option<String>,
    /// The audit id of the write the page answers.
    pub done: Option<String>,
}

/// `GET /judge/players` (judges; without a login, the login page).
pub async fn page_handler(
    judge: Result<Judge, ApiError>,
    Query(query): Query<PlayersQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let judge = match page::judge_or_login(judge, &headers) {
        Ok(j) => j,
        Err(to_login) => return Ok(*to_login),
    };
    let deadline = judge.deadline;
    let done = page::done(&judge.db, &DoneQuery { done: query.done.clone() }).await;
    let (home, all, check_in, absent, seats) = judge
        .db
        .run(|store| {
            let d = crate::ops::live::dashboard(store, crate::time::now()?)?;
            let (all, check_in, absent) = crate::ops::views::players_at_check_in(store)?;
            let mut seats: Vec<(String, String)> = Vec::new();
            for t in &d.tables {
                let word = if t.result.is_some() { "played at" } else { "playing at" };
                seats.extend(t.seats.iter().map(|s| (s.player.clone(), format!("{word} table {}", t.table))));
            }
            seats.extend(d.byes.iter().map(|b| (b.player.clone(), "a bye this round".to_string())));
            Ok((d.home, all, check_in, absent, seats))
        })
        .await?;
    let q = query.q.unwrap_or_default().trim().to_string();
    let folded = crate::domain::names::fold(&q);
    let total = all.len();
    let rows = all
        .into_iter()
        .filter(|p| folded.is_empty() || crate::domain::names::fold(&p.name).contains(&folded))
        .map(|p| {
            let dropped = p.dropped_after.is_some();
            let state = match seats.iter().find(|(n, _)| *n == p.name) {
                Some((_, at)) if !dropped => at.clone(),
                _ => p.status.clone(),
            };
            Row {
                to_check_in: absent.iter().any(|a| a.id == p.id),
                checked_in: check_in.then_some(p.checked_in),
                late: (p.joined_round > 1).then_some(p.joined_round),
                stays_at: p.stays_at,
                name: p.name,
                state,
                dropped,
            }
        })
        .collect();
    let head = judge.judge.role == Role::Head;
    Ok(page(
        deadline,
        StatusCode::OK,
        PlayersPage { home: page::head(&judge.db, home), judge: judge.judge, head, done, q, rows, total },
    )
    .await)
}
