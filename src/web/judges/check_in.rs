//! A judge checks a player in from the dashboard (`POST /api/player/check-in`), as `mmjudge player check-in NAME`.

use crate::ops::players::check_in;
use crate::web::kit::auth::Judge;
use crate::web::kit::extract::Payload;
use crate::web::kit::request::Answer;
use crate::web::kit::write;
use axum::response::Response;

/// `POST /api/player/check-in` body: `{"name"}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckInBody {
    /// The player's name (or an unambiguous part of it).
    pub name: String,
}

/// `POST /api/player/check-in` (judges): checks a player in while check-in is on and round 1 is not paired.
pub async fn check_in(judge: Judge, p: Payload<CheckInBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let out = check_in::check_in(store, actor, &b.name)?;
        Answer::of(&out.summary, &out)
    })
    .await
}
