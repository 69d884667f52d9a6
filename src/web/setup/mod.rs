//! The event started from nothing (`serve --new`): the set-up page (`GET /setup`) and `POST /api/setup`, which
//! create the event and its head judge from the one-time link the server printed; and the judges a head
//! judge adds, gives new PINs and removes from the web ([`judges`]); the imports ([`imports`]), the pool's
//! curation and the libraries ([`curation`]) before round 1.

pub mod curation;
pub mod imports;
pub mod judges;
pub mod steps;
pub mod words;

use crate::ops::event::{NewSetup, set_up, set_up_words};
use crate::web::kit::auth;
use crate::web::kit::jobs::Refused;
use crate::web::kit::request::Who;
use crate::web::kit::request::{ApiError, bad_json, blocking};
use crate::web::kit::state::Shared;
use askama::Template;
use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use std::net::SocketAddr;

#[derive(Template, serde::Serialize)]
#[template(path = "web/setup.html")]
struct SetupPage;

/// `GET /setup`: the form that creates the event (the token comes from the address's `#token=`, which never
/// reaches the server); once the event is set up, the judges' dashboard (`/judge`).
pub async fn page(State(app): State<Shared>, deadline: crate::web::kit::drawn::Deadline) -> Response {
    if !app.setup.pending() {
        // A set-up link used already (the event exists): the login page says so.
        return Redirect::to("/login?setup=done").into_response();
    }
    crate::web::kit::page::page(deadline, StatusCode::OK, SetupPage).await
}

/// `POST /api/setup` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupBody {
    /// The set-up link's token.
    pub token: String,
    /// The event's name.
    pub event: String,
    /// Rounds planned.
    pub rounds: u32,
    /// The head judge's name.
    pub head_judge: String,
}

/// `POST /api/setup` `{"token","event","rounds","head_judge"}`: creates the event and its head judge, sets the
/// head judge's session cookie, and answers `{"ok","summary","judge","pin","csrf"}` (the PIN this once). The token
/// works once; a wrong one is counted as a wrong PIN is.
pub async fn create(
    State(app): State<Shared>,
    who: Who,
    route: crate::web::kit::request::Route,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<SetupBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(b) = body.map_err(|e| bad_json(&e))?;
    let token = match app.setup.take(addr.ip(), b.token.trim()) {
        Ok(t) => t,
        Err(Refused::Done) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "this event is set up already: its head judge logs in on the Judges page",
            ));
        }
        Err(Refused::Wrong) => {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "this is not the set-up link of the running mmjudge: open the set-up link its window shows on the \
                 organiser's computer (a new link is made at each start; it works once)",
            ));
        }
        Err(Refused::Wait(secs)) => return Err(ApiError::too_many("set-up links", secs)),
    };
    let actor = auth::actor(b.head_judge.trim(), route.name, addr)?;
    let path = app.db.clone();
    let done = blocking(move || {
        let input = NewSetup { path: &path, event: &b.event, rounds: b.rounds, head_judge: &b.head_judge };
        set_up(&actor, input)
    })
    .await;
    let s = match done {
        Ok(s) => s,
        Err(e) => {
            app.setup.give_back(token);
            return Err(e);
        }
    };
    app.setup.spent();
    who.is(s.judge.name.clone());
    let summary = set_up_words(&s);
    let login = login_link(&app.site, &s.judge.name, &s.judge.pin);
    println!("set-up done: {summary}; the set-up link no longer works");
    let doc = serde_json::json!({
        "ok": true,
        "summary": summary,
        "judge": { "name": s.judge.name, "role": s.judge.role },
        "pin": s.judge.pin,
        "csrf": s.login.csrf,
        "login": login,
        "qr": crate::render::qr::svg(&login),
        "next": "/judge/setup",
    });
    let mut res = Json(doc).into_response();
    let cookie = HeaderValue::from_str(&auth::session_cookie(&s.login.token))
        .map_err(|_| ApiError::internal("the session cookie"))?;
    res.headers_mut().insert(header::SET_COOKIE, cookie);
    Ok(res)
}

/// A judge's login link with the PIN in its fragment (never sent to the server): the page's QR code.
pub fn login_link(site: &str, name: &str, pin: &str) -> String {
    format!("{}/login?name={}#pin={pin}", site.trim_end_matches('/'), crate::domain::text::url_query(name))
}
