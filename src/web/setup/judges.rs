//! Judges added, given a new PIN and removed from the head judge's set-up page, as `mmjudge judge add|pin|remove`:
//! the PIN, its login link and QR code shown once (never kept with the write's key).

use crate::error::Error;
use crate::ops::judges::{self, JudgePin, Role};
use crate::web::kit::auth::Judge;
use crate::web::kit::extract::Payload;
use crate::web::kit::request::Answer;
use crate::web::kit::write;
use axum::response::Response;

/// `POST /api/judge/add` body, as `judge add NAME --role floor|head`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddBody {
    /// The judge's name.
    pub name: String,
    /// floor (the default) or head.
    #[serde(default)]
    pub role: Option<String>,
}

/// `POST /api/judge/pin` and `/api/judge/remove` body, as `judge pin NAME` / `judge remove NAME`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameBody {
    /// The judge's name.
    pub name: String,
}

fn role_of(word: Option<&str>) -> crate::error::Result<Role> {
    match word.map(str::trim) {
        None | Some("") | Some("floor") => Ok(Role::Floor),
        Some("head") => Ok(Role::Head),
        Some(other) => Err(Error::bad_input(format!("role \"{other}\": choose floor or head"))),
    }
}

/// The answer of a new PIN: the judge, and (shown once) the PIN, the login link and its QR code.
fn pin_answer(site: &str, out: &JudgePin, summary: &str) -> crate::error::Result<Answer> {
    let login = super::login_link(site, &out.name, &out.pin);
    Answer::ok(summary)
        .with(&serde_json::json!({ "name": out.name, "role": out.role }))?
        .with_secret(&serde_json::json!({ "pin": out.pin, "login": login, "qr": crate::render::qr::svg(&login) }))
}

/// `POST /api/judge/add {"name","role"}` (head judges): adds a judge with a new PIN, shown once.
pub async fn add(judge: Judge, p: Payload<AddBody>) -> Response {
    let site = judge.db.app().site.clone();
    write::judge(judge, Some("adding a judge"), p, move |store, actor, b| {
        let role = role_of(b.role.as_deref())?;
        let out = judges::add_judge(store, actor, &b.name, role)?;
        pin_answer(
            &site,
            &out,
            &format!("judge {} added ({} judge): the PIN is shown this once", out.name, out.role.word()),
        )
    })
    .await
}

/// `POST /api/judge/pin {"name"}` (head judges): a new PIN, shown once; the old one stops working.
pub async fn pin(judge: Judge, p: Payload<NameBody>) -> Response {
    let site = judge.db.app().site.clone();
    write::judge(judge, Some("giving a judge a new PIN"), p, move |store, actor, b| {
        let out = judges::renew_pin(store, actor, &b.name)?;
        pin_answer(
            &site,
            &out,
            &format!("judge {} has a new PIN (the old one no longer works; open logins ended)", out.name),
        )
    })
    .await
}

/// `POST /api/judge/remove {"name"}` (head judges): removes a judge (never the last head judge).
pub async fn remove(judge: Judge, p: Payload<NameBody>) -> Response {
    write::judge(judge, Some("removing a judge"), p, |store, actor, b| {
        let out = judges::remove_judge(store, actor, &b.name)?;
        let ended = crate::domain::words::count(out.sessions_ended, "open login");
        Answer::of(&format!("judge {} removed ({ended} ended)", out.name), &out)
    })
    .await
}
