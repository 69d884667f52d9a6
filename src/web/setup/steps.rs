//! `GET /judge/setup` (head judges): the steps before round 1 in order (cards, pool, players, libraries for as
//! many tables as the players need, judges (optional: a head judge may judge alone), pairing round 1), each saying
//! what it holds and which comes next (pairing names the steps it waits for), with its form: files upload with a
//! progress bar (the upload, then the job's progress from `GET /api/job/ID`), refusals beside the form.

use crate::ops::setup_steps::{Steps, steps};
use crate::web::kit::auth::Judge;
use crate::web::kit::page;
use crate::web::kit::request::ApiError;
use askama::Template;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

/// One step as the page shows it.
#[derive(serde::Serialize)]
pub struct Step {
    /// Its anchor and form's name: cards, pool, libraries, players, judges, pair.
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// What it holds now, in words.
    pub state: String,
    /// done, next, later or optional (the judges: a head judge may judge alone).
    pub class: &'static str,
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/setup_steps.html")]
struct StepsPage {
    home: crate::web::kit::page::Head,
    judge: crate::ops::judges::SessionJudge,
    steps: Vec<Step>,
    /// The tables round 1 needs (players / 2, rounded up; none before the players are entered).
    tables: Option<u32>,
    sealed: bool,
    paired: bool,
    /// The check-in setting as its switch (in the players' step).
    check_in: Option<crate::render::settings::SettingControl>,
}

fn step_list(s: &Steps) -> Vec<Step> {
    use crate::domain::words::count;
    let floor = s.judges.iter().filter(|(_, r)| r == "floor").count();
    let judges: Vec<String> = s.judges.iter().map(|(n, r)| format!("{n} ({r})")).collect();
    let paired = s.round > 0;
    // Judge-built libraries are done once they seat every player: two a table, a table for two players.
    let needed = tables_for(s.players);
    let built = (s.libraries / 2) as u32;
    let seated = s.sealed || s.players == 0 || built >= needed;
    let libraries = if s.sealed {
        format!("{} registered (players bring sealed libraries)", count(s.libraries, "library"))
    } else if s.libraries > 0 && !seated && !paired {
        format!(
            "{} built, for {}: the {} need {}: build them again for {needed}",
            count(s.libraries, "main library"),
            count(built, "table"),
            count(s.players, "player"),
            count(needed, "table")
        )
    } else {
        format!("{} built", count(s.libraries, "main library"))
    };
    let mut judges_state = format!("{}: {}", count(s.judges.len(), "judge"), judges.join(", "));
    if floor == 0 && !paired {
        judges_state.push_str("; add the judges who work with you, or judge alone");
    }
    let first = [
        ("the card reference", s.cards > 0),
        ("the pool", s.pool_copies > 0),
        ("the players", s.players > 0),
        ("the libraries", s.libraries > 0 && seated),
    ];
    let missing: Vec<&str> = first.iter().filter(|(_, done)| !done).map(|(what, _)| *what).collect();
    let pair = if paired {
        format!("round {} is paired", s.round)
    } else if missing.is_empty() {
        format!("not paired yet: {} at {}, ready", count(s.players, "player"), count(built, "table"))
    } else {
        format!("not paired yet: first {}", and_list(&missing))
    };
    // (id, title, done, optional, state)
    let list = vec![
        ("cards", "Card reference", s.cards > 0, false, format!("{} in the reference", count(s.cards, "card"))),
        ("pool", "Pool", s.pool_copies > 0, false, format!("{} in the pool", count(s.pool_copies, "copy"))),
        ("players", "Players", s.players > 0, false, format!("{} entered", count(s.players, "player"))),
        ("libraries", "Libraries", (s.libraries > 0 && seated) || paired, false, libraries),
        ("judges", "Judges", floor > 0 || paired, true, judges_state),
        ("pair", "Pair round 1", paired, false, pair),
    ];
    let mut next_found = false;
    list.into_iter()
        .map(|(id, title, done, optional, state)| {
            let class = if done {
                "done"
            } else if optional {
                "optional"
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

/// The tables round 1 needs: one for two players (0 without players).
fn tables_for(players: u32) -> u32 {
    players.div_ceil(2)
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `GET /judge/setup` (head judges).
pub async fn page_handler(judge: Result<Judge, ApiError>, headers: HeaderMap) -> Result<Response, ApiError> {
    let judge = match page::judge_or_login(judge, &headers) {
        Ok(j) => j,
        Err(to_login) => return Ok(*to_login),
    };
    let deadline = judge.deadline;
    judge.judge.require_head("setting up the event").map_err(ApiError::from)?;
    let home = page::home(&judge.db).await?;
    let (s, shown) = judge.db.run(|store| Ok((steps(store)?, store.read(crate::ops::event::show)?))).await?;
    let tables = Some(tables_for(s.players)).filter(|t| *t > 0);
    let check_in = crate::render::settings::controls_of(&shown).into_iter().find(|c| c.key == "check-in");
    let page_ = StepsPage {
        home,
        judge: judge.judge,
        steps: step_list(&s),
        tables,
        sealed: s.sealed,
        paired: s.round > 0,
        check_in,
    };
    Ok(page::page(deadline, StatusCode::OK, page_).await)
}
