//! The judges' pages and API: logging in and out (the page form and `POST /api/login`), the dashboard
//! (`GET /judge`, `GET /api/judge`), the page of a table ([`table`]) and the writes a judge makes standing at a
//! table ([`writes`]).

pub mod check_in;
pub mod decisions;
pub mod players;
pub mod print;
pub mod print_site;
pub mod roster;
pub mod table;
pub mod writes;

use crate::ops::judges::{self, Role, SessionJudge};
use crate::ops::live::{self, TableView};
use crate::render::deadline::draw;
use crate::web::kit::auth::Device;
use crate::web::kit::auth::{self, Judge};
use crate::web::kit::drawn::{Deadline, drawn};
use crate::web::kit::extract::{Form, Query};
use crate::web::kit::page::{self, page};
use crate::web::kit::request::DoneQuery;
use crate::web::kit::request::Route;
use crate::web::kit::request::Who;
use crate::web::kit::request::{ApiError, bad_json};
use crate::web::kit::state::Db;
use askama::Template;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Json};
use std::net::SocketAddr;

#[derive(Template, serde::Serialize)]
#[template(path = "web/login.html")]
struct LoginPage {
    home: page::Head,
    name: String,
    error: Option<String>,
    /// The pre-session token the form repeats.
    csrf: String,
    /// Come from a set-up link used already: the page says the event is set up.
    set_up: bool,
}

/// `name` of `/login?name=...` (the login QR code fills it).
#[derive(Debug, serde::Deserialize)]
pub struct LoginQuery {
    /// The judge's name.
    pub name: Option<String>,
    /// `done`: sent here by a set-up link used already.
    pub setup: Option<String>,
}

/// `GET /login`: the judges' login form, with its pre-session token (kept from an earlier visit, else new).
pub async fn login_form(
    db: Db,
    deadline: Deadline,
    Query(q): Query<LoginQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let home = page::home(&db).await?;
    let csrf = auth::login_token(&headers).unwrap_or_else(auth::new_login_token);
    let set_up = q.setup.as_deref() == Some("done");
    let p = LoginPage { home, name: q.name.unwrap_or_default(), error: None, csrf, set_up };
    login_page(deadline, StatusCode::OK, p).await
}

/// The login page with its pre-session cookie.
async fn login_page(deadline: Deadline, status: StatusCode, p: LoginPage) -> Result<Response, ApiError> {
    let cookie =
        HeaderValue::from_str(&auth::login_cookie(&p.csrf)).map_err(|_| ApiError::internal("the login cookie"))?;
    let mut res = page(deadline, status, p).await;
    res.headers_mut().append(header::SET_COOKIE, cookie);
    Ok(res)
}

/// The login form's fields.
#[derive(Debug, serde::Deserialize)]
pub struct LoginFields {
    /// The judge's name.
    pub name: String,
    /// The PIN.
    #[serde(default)]
    pub pin: String,
    /// A one-time login link's token, in place of the PIN (the page fills it from the link's `#link=`).
    #[serde(default)]
    pub link: String,
    /// The form's pre-session token (its cookie repeated).
    pub csrf: Option<String>,
}

/// `POST /login`: sets the session cookie and goes to the dashboard, or shows the form again with the error.
/// A form without its pre-session token (posted from elsewhere, or too old) is refused 403 before any PIN is
/// checked or counted.
// One argument for each thing the handler reads of the request, as axum takes them.
#[allow(clippy::too_many_arguments)]
pub async fn login_submit(
    db: Db,
    deadline: Deadline,
    who: Who,
    route: Route,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    device: Option<Extension<Device>>,
    headers: HeaderMap,
    Form(f): Form<LoginFields>,
) -> Result<Response, ApiError> {
    let name = f.name.clone();
    if !auth::login_csrf_ok(&headers, f.csrf.as_deref()) {
        let home = page::home(&db).await?;
        let error =
            "this login form is out of date or came from elsewhere (missing or wrong CSRF token): log in again here";
        let p = LoginPage { home, name, error: Some(error.into()), csrf: auth::new_login_token(), set_up: false };
        return login_page(deadline, StatusCode::FORBIDDEN, p).await;
    }
    if f.pin.is_empty() && f.link.is_empty() {
        let home = page::home(&db).await?;
        let csrf = auth::login_token(&headers).unwrap_or_else(auth::new_login_token);
        let error = "no PIN was typed: type your PIN (the six digits), or open your one-time login link again";
        let p = LoginPage { home, name, error: Some(error.into()), csrf, set_up: false };
        return login_page(deadline, StatusCode::BAD_REQUEST, p).await;
    }
    let tried = match f.link.is_empty() {
        true => auth::login(&db, addr, device.as_deref(), route.name, f.name, f.pin).await,
        false => auth::login_link(&db, addr, device.as_deref(), route.name, f.name, f.link).await,
    };
    match tried {
        Ok(l) => {
            who.is(l.name.clone());
            let mut res = Redirect::to("/judge").into_response();
            let cookie = HeaderValue::from_str(&auth::session_cookie(&l.token))
                .map_err(|_| ApiError::internal("the session cookie"))?;
            res.headers_mut().insert(header::SET_COOKIE, cookie);
            Ok(res)
        }
        Err(e) => {
            let home = page::home(&db).await?;
            let csrf = auth::login_token(&headers).unwrap_or_else(auth::new_login_token);
            login_page(deadline, e.status, LoginPage { home, name, error: Some(e.message), csrf, set_up: false }).await
        }
    }
}

/// The logout form's field.
#[derive(Debug, serde::Deserialize)]
pub struct CsrfField {
    /// The session's form token.
    pub csrf: Option<String>,
}

/// `POST /logout`: ends the session and clears the cookie.
pub async fn logout_submit(judge: Judge, Form(f): Form<CsrfField>) -> Result<Response, ApiError> {
    judge.check_csrf(f.csrf.as_deref())?;
    let actor = judge.actor(judge.route.name)?;
    let token = judge.token.clone();
    judge.db.run_session(move |store| judges::logout(store, &actor, &token)).await?;
    let mut res = Redirect::to("/").into_response();
    let cookie = HeaderValue::from_str(&auth::cleared_cookie()).map_err(|_| ApiError::internal("the cookie"))?;
    res.headers_mut().insert(header::SET_COOKIE, cookie);
    Ok(res)
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/dashboard.html")]
struct DashboardPage {
    home: page::Head,
    judge: SessionJudge,
    tables: Vec<TableView>,
    playing: usize,
    finished: usize,
    over_time: usize,
    /// Decision overruns in the current round (the table's device and `mmjudge clock` record them).
    overruns: Vec<crate::ops::table::clocks::decisions::Overrun>,
    /// What waits for a judge, shown first: the open calls and the results in conflict.
    wanted: crate::render::wanted::WaitingForJudge,
    /// Players' self-reported results waiting for the opponent's word (those in conflict are in `wanted`).
    self_reports: Vec<crate::ops::table::device::self_report::WaitingReports>,
    /// Results confirmed on a shared device or from the reporter's address.
    flagged: Vec<crate::ops::table::device::witness::FlagView>,
    /// A head judge: the round's actions and the settings form are shown.
    head: bool,
    /// The round's steps a head judge may take now.
    steps: crate::ops::round::steps::RoundSteps,
    /// The outcome of the judge's last action (`?done=ID`).
    done: Option<String>,
    /// The current round's byes.
    byes: Vec<live::ByeView>,
    /// The players round 1 waits for while check-in is on.
    not_checked_in: Vec<String>,
    /// The second laptop: whether it is an alarm, and its line (none without one).
    second_laptop: Option<(bool, String)>,
    /// A head judge on the primary of a second laptop may say it is gone for good.
    detachable: bool,
    /// The libraries carried this round for players who stay at one table, in words (empty when none).
    carry: String,
    /// A head judge's settings section: every setting as its control.
    settings: Vec<crate::render::settings::SettingControl>,
    /// The round's progress drawn, with its numbers (once its clock started).
    progress: Option<(String, Vec<(String, String)>)>,
}

/// `GET /judge`: the judges' dashboard; without a login, the login page. `?done=ID` shows the outcome of the
/// judge's last action.
pub async fn dashboard(
    judge: Result<Judge, ApiError>,
    Query(q): Query<DoneQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let judge = match page::judge_or_login(judge, &headers) {
        Ok(j) => j,
        Err(to_login) => return Ok(*to_login),
    };
    let done = page::done(&judge.db, &q).await;
    let deadline = judge.deadline;
    let (d, overruns, standby, shown) = judge
        .db
        .run(move |store| {
            let now = crate::time::now()?;
            let d = live::dashboard(store, now)?;
            let overruns = match d.home.round.as_ref() {
                Some(r) => live::round_overruns(store, r.number)?,
                None => Vec::new(),
            };
            let shown = store.read(crate::ops::event::show)?;
            let progress = match d.home.round.as_ref() {
                Some(r) => crate::ops::round::progress::progress(store, r, &d.tables, now)?,
                None => None,
            };
            // The chart drawn here, within the request's deadline.
            let drawn = drawn(deadline, || match progress {
                Some(p) => {
                    let chart = crate::render::progress::ProgressChart::new(&p);
                    let html = draw(&chart).map_err(|_| ApiError::internal("the round's progress"))?;
                    Ok(Some((html, chart.numbers())))
                }
                None => Ok(None),
            });
            Ok((d, overruns, crate::ops::standby::status(store, now).ok(), (shown, drawn)))
        })
        .await?;
    let (shown, progress) = shown;
    let progress = progress?;
    let replica = &judge.db.app().replica;
    let head = judge.judge.role == Role::Head;
    let settings = if head { crate::render::settings::controls_of(&shown) } else { Vec::new() };
    let detachable = head
        && replica.following().is_none()
        && standby.as_ref().is_some_and(|s| s.standby_key && s.detached_at.is_none() && s.moved_to.is_none());
    let second_laptop = standby.and_then(|s| {
        let behind = replica.behind.load(std::sync::atomic::Ordering::Relaxed);
        crate::render::standby::dashboard_line(&s, replica.following().as_deref(), replica.required, behind)
    });
    let count = |s: &str| d.tables.iter().filter(|t| t.state == s).count();
    let (playing, finished, over_time) = (count("playing"), count("finished"), count("over-time"));
    let steps = crate::ops::round::steps::steps(&d.home, &d.tables);
    let wanted = crate::render::wanted::WaitingForJudge::of(&d.calls, &d.self_reports, &d.flagged);
    let self_reports = d.self_reports.into_iter().filter(|r| r.state != "conflict").collect();
    Ok(page(
        deadline,
        StatusCode::OK,
        DashboardPage {
            home: page::head(&judge.db, d.home),
            head,
            detachable,
            judge: judge.judge,
            tables: d.tables,
            playing,
            finished,
            over_time,
            overruns,
            wanted,
            self_reports,
            flagged: d.flagged,
            steps,
            done,
            byes: d.byes,
            not_checked_in: d.not_checked_in,
            second_laptop,
            carry: crate::ops::pairings::carry_words(&d.carry),
            settings,
            progress,
        },
    )
    .await)
}

/// `GET /api/judge`: the judges' dashboard (a login needed).
pub async fn dashboard_api(judge: Judge) -> Result<Response, ApiError> {
    let d = judge.db.run(|store| live::dashboard(store, crate::time::now()?)).await?;
    Ok(page::json(&serde_json::json!({
        "judge": judge.judge.name, "role": judge.judge.role, "dashboard": d
    })))
}

/// `POST /api/login` body.
#[derive(Debug, serde::Deserialize)]
pub struct LoginBody {
    /// The judge's name.
    pub name: String,
    /// The PIN.
    pub pin: Option<String>,
    /// A one-time login link's token (`judge link NAME`), in place of the PIN.
    pub link: Option<String>,
}

/// `POST /api/login`: `{"name","pin"}` or `{"name","link"}` → `{"token","name","role","expires"}`.
pub async fn login(
    db: Db,
    who: Who,
    route: Route,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    device: Option<Extension<Device>>,
    body: Result<Json<LoginBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Json(body) = body.map_err(|e| bad_json(&e))?;
    let l = match (body.pin, body.link) {
        (Some(pin), None) => auth::login(&db, addr, device.as_deref(), route.name, body.name, pin).await?,
        (None, Some(link)) => auth::login_link(&db, addr, device.as_deref(), route.name, body.name, link).await?,
        _ => {
            let why = "not the JSON expected: send the judge's \"name\" with the \"pin\", or with a one-time login \"link\" (one of the two)";
            return Err(ApiError::new(axum::http::StatusCode::BAD_REQUEST, why));
        }
    };
    who.is(l.name.clone());
    Ok(Json(serde_json::json!({ "token": l.token, "name": l.name, "role": l.role, "expires": l.expires })))
}

/// `POST /api/logout`: ends the session the request carries.
pub async fn logout(judge: Judge) -> Result<Json<serde_json::Value>, ApiError> {
    let actor = judge.actor(judge.route.name)?;
    let token = judge.token.clone();
    judge.db.run_session(move |store| judges::logout(store, &actor, &token)).await?;
    Ok(Json(serde_json::json!({ "ok": true })))
}
