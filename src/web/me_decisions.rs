//! `GET /me/decisions?name=NAME` (anyone, as `/me`): a player's own decisions drawn, every decision they took on
//! the decision clock against its own limit, with the numbers behind a disclosure. `/me` holds a disclosure that
//! loads this page's chart only when it is opened, so a phone that opens no chart loads none.

use crate::ops::live;
use crate::render::decisions::{TableDecisions, own};
use crate::web::kit::drawn::Deadline;
use crate::web::kit::extract::Query;
use crate::web::kit::page::{self, page};
use crate::web::kit::request::ApiError;
use crate::web::kit::state::Db;
use askama::Template;
use axum::http::StatusCode;
use axum::response::Response;

#[derive(Template, serde::Serialize)]
#[template(path = "web/me_decisions.html")]
struct MyDecisionsPage {
    home: page::Head,
    /// The player found.
    player: String,
    /// Their chart and numbers (None before they took a timed decision).
    mine: Option<TableDecisions>,
    /// Their decisions still running (not drawn).
    running: usize,
    /// `/me` for the player.
    back: String,
}

/// `?name=` of `/me/decisions`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct MineQuery {
    /// The player, by any unambiguous part of their name (as `/me`).
    pub name: Option<String>,
}

/// `GET /me/decisions?name=NAME`: 404 for no such player, 400 for a name that fits several or no name.
pub async fn page_handler(db: Db, deadline: Deadline, Query(q): Query<MineQuery>) -> Result<Response, ApiError> {
    let name = q.name.unwrap_or_default().trim().to_string();
    if name.is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "say whose decisions to draw: /me/decisions?name=YOUR NAME",
        ));
    }
    let (home, player, stats) = db
        .run(move |store| {
            let home = live::home(store, crate::time::now()?)?;
            let (player, stats) = store.read(|conn| {
                let player = crate::ops::player_names::find(conn, &name)?.name;
                let stats = crate::ops::table::clocks::decisions::decision_stats(conn, None, Some(&player), true)?;
                Ok((player, stats))
            })?;
            Ok((home, player, stats))
        })
        .await?;
    let mine = own(&stats, &player).map_err(|_| ApiError::internal("a player's decisions"))?;
    let back = format!("/me?{}", serde_urlencoded::to_string([("name", &player)]).unwrap_or_default());
    let running = stats.running;
    Ok(page(deadline, StatusCode::OK, MyDecisionsPage { home: page::head(&db, home), player, mine, running, back })
        .await)
}
