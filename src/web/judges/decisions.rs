//! `GET /judge/decisions[?player=NAME]`: the slow-play page (judges): the players ranked by overruns and median
//! decision length, each drawn with every decision against its own limit (the first 16, or the player asked
//! for); the dashboard's overrun list links here.

use crate::ops::judges::SessionJudge;
use crate::render::decisions::SlowPlayView;
use crate::web::kit::auth::Judge;
use crate::web::kit::extract::Query;
use crate::web::kit::page::{self, page};
use crate::web::kit::request::ApiError;
use askama::Template;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

#[derive(Template, serde::Serialize)]
#[template(path = "web/decisions.html")]
struct DecisionsPage {
    home: page::Head,
    judge: SessionJudge,
    sp: SlowPlayView,
    linked: bool,
}

/// `?player=` of `/judge/decisions`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct DecisionsQuery {
    /// The player whose decisions are drawn (any unambiguous beginning of the name).
    pub player: Option<String>,
}

/// `GET /judge/decisions[?player=NAME]` (judges; without a login, the login page).
pub async fn page_handler(
    judge: Result<Judge, ApiError>,
    Query(q): Query<DecisionsQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let judge = match page::judge_or_login(judge, &headers) {
        Ok(j) => j,
        Err(to_login) => return Ok(*to_login),
    };
    let deadline = judge.deadline;
    let (home, sp) = judge
        .db
        .run(move |store| {
            let now = crate::time::now()?;
            let sp = store.read(|conn| crate::ops::table::clocks::decisions::slow_play(conn, q.player.as_deref()))?;
            Ok((crate::ops::live::home(store, now)?, SlowPlayView::new(&sp)?))
        })
        .await?;
    Ok(page(
        deadline,
        StatusCode::OK,
        DecisionsPage { home: page::head(&judge.db, home), judge: judge.judge, sp, linked: true },
    )
    .await)
}
