//! `GET /standings/rounds[?player=NAME]` (anyone): the standings over rounds drawn, the match points of the top
//! 16 and of a player found by name after each round, with the numbers behind a disclosure. `/standings` links
//! here, so a phone that opens no chart loads none.

use crate::ops::live;
use crate::ops::standings::by_round::{self, PointsByRound};
use crate::render::deadline::draw;
use crate::render::points::PointsChart;
use crate::web::kit::drawn::{Deadline, drawn};
use crate::web::kit::extract::Query;
use crate::web::kit::page::{self, page};
use crate::web::kit::request::ApiError;
use crate::web::kit::state::Db;
use askama::Template;
use axum::http::StatusCode;
use axum::response::Response;

#[derive(Template, serde::Serialize)]
#[template(path = "web/standings_rounds.html")]
struct RoundsPage {
    home: page::Head,
    p: PointsByRound,
    chart: String,
    /// The player found is not ranked (not drawn).
    unranked: bool,
}

/// `?player=` of `/standings/rounds`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct RoundsQuery {
    /// The player drawn besides the top 16 (any unambiguous beginning of the name).
    pub player: Option<String>,
}

/// `GET /standings/rounds[?player=NAME]`.
pub async fn page_handler(db: Db, deadline: Deadline, Query(q): Query<RoundsQuery>) -> Result<Response, ApiError> {
    let (home, p, chart) = db
        .run(move |store| {
            let home = live::home(store, crate::time::now()?)?;
            let p = store.read(|conn| by_round::points_by_round(conn, q.player.as_deref()))?;
            // Drawn here, within the request's deadline.
            let chart = drawn(deadline, || match p.round {
                0 => Ok(String::new()),
                _ => draw(&PointsChart::new(&p)).map_err(|_| ApiError::internal("the points chart")),
            });
            Ok((home, p, chart))
        })
        .await?;
    let chart = chart?;
    let unranked = p.found.as_ref().is_some_and(|f| !p.lines.iter().any(|l| &l.name == f));
    Ok(page(deadline, StatusCode::OK, RoundsPage { home: page::head(&db, home), p, chart, unranked }).await)
}
