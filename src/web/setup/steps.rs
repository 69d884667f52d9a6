//! `GET /judge/setup` (head judges): the steps before round 1 in order (cards, pool, libraries, players,
//! judges, pairing round 1), each saying what it holds and which comes next, with its form: files upload with a
//! progress bar (the upload, then the job's progress from `GET /api/job/ID`), refusals beside the form.

use crate::ops::setup_steps::{Steps, steps};
use crate::web::kit::auth::Judge;
use crate::web::kit::error::ApiError;
use crate::web::kit::page;
use askama::Template;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

/// One step as the page shows it.
pub struct Step {
    /// Its anchor and form's name: cards, pool, libraries, players, judges, pair.
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// What it holds now, in words.
    pub state: String,
    /// done, next or later.
    pub class: &'static str,
}

#[derive(Template)]
#[template(path = "web/setup_steps.html")]
struct StepsPage {
    home: crate::web::kit::page::Head,
    judge: crate::ops::judges::SessionJudge,
    steps: Vec<Step>,
    /// The tables round 1 needs (players / 2, rounded up; 1 at least).
    tables: u32,
    sealed: bool,
    paired: bool,
}

fn step_list(s: &Steps) -> Vec<Step> {
    use crate::domain::words::count;
    let floor = s.judges.iter().filter(|(_, r)| r == "floor").count();
    let judges: Vec<String> = s.judges.iter().map(|(n, r)| format!("{n} ({r})")).collect();
    let list = vec![
        ("cards", "Card reference", s.cards > 0, format!("{} in the reference", count(s.cards, "card"))),
        ("pool", "Pool", s.pool_copies > 0, format!("{} in the pool", count(s.pool_copies, "copy"))),
        (
            "libraries",
            "Libraries",
            s.libraries > 0,
            if s.sealed {
                format!("{} registered (players bring sealed libraries)", count(s.libraries, "library"))
            } else {
                format!("{} built", count(s.libraries, "main library"))
            },
        ),
        ("players", "Players", s.players > 0, format!("{} entered", count(s.players, "player"))),
        (
            "judges",
            "Judges",
            floor > 0 || s.round > 0,
            format!("{}: {}", count(s.judges.len(), "judge"), judges.join(", ")),
        ),
        (
            "pair",
            "Pair round 1",
            s.round > 0,
            if s.round > 0 { format!("round {} is paired", s.round) } else { "not paired yet".into() },
        ),
    ];
    let mut next_found = false;
    list.into_iter()
        .map(|(id, title, done, state)| {
            let class = if done {
                "done"
            } else if next_found {
                "later"
            } else {
                next_found = true;
                "next"
            };
            Step { id, title, state, class }
        })
        .collect()
}

/// `GET /judge/setup` (head judges).
pub async fn page_handler(judge: Result<Judge, ApiError>, headers: HeaderMap) -> Result<Response, ApiError> {
    let judge = match page::judge_or_login(judge, &headers) {
        Ok(j) => j,
        Err(to_login) => return Ok(*to_login),
    };
    judge.judge.require_head("setting up the event").map_err(ApiError::from)?;
    let home = page::home(&judge.db).await?;
    let s = judge.db.run(|store| steps(store)).await?;
    let tables = s.players.div_ceil(2).max(1);
    let page_ =
        StepsPage { home, judge: judge.judge, steps: step_list(&s), tables, sealed: s.sealed, paired: s.round > 0 };
    Ok(page::page(StatusCode::OK, &page_))
}
