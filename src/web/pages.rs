//! The pages (askama templates in `templates/web/`), their styles and script, embedded in the binary.

use super::Shared;
use super::auth::{self, Judge};
use super::error::{ApiError, blocking};
use crate::error::Error;
use crate::ops::judges::{self, SessionJudge};
use crate::ops::live::{self, Home, PlayerSeat, TableView};
use askama::Template;
use axum::Form;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use std::net::SocketAddr;

/// A rendered page with its status.
pub fn page(status: StatusCode, t: &impl Template) -> Response {
    match t.render() {
        Ok(body) => (status, Html(body)).into_response(),
        Err(_) => ApiError::internal("a page could not be drawn").into_response(),
    }
}

fn now() -> crate::error::Result<chrono::DateTime<chrono::Utc>> {
    crate::time::now()
}

#[derive(Template)]
#[template(path = "web/home.html")]
struct HomePage {
    home: Home,
}

/// `GET /`: the event, the round and its clock.
pub async fn home(State(app): State<Shared>) -> Result<Response, ApiError> {
    let home = blocking(move || live::home(&app.open()?, now()?)).await?;
    Ok(page(StatusCode::OK, &HomePage { home }))
}

#[derive(Template)]
#[template(path = "web/me.html")]
struct MePage {
    home: Home,
    query: String,
    seat: Option<PlayerSeat>,
    error: Option<String>,
    /// This page again (where the players' forms come back to).
    back: String,
    /// The reasons a player may report.
    reasons: Vec<&'static str>,
    /// Deck inspection while it runs (the time left shows from its end).
    inspection: Option<Inspection>,
}

/// `GET /me?name=NAME`: a player finds their table, seat, library and opponent.
pub async fn me(State(app): State<Shared>, Query(q): Query<super::routes::NameQuery>) -> Result<Response, ApiError> {
    let query = q.name.unwrap_or_default().trim().to_string();
    let asked = query.clone();
    let (home, seat) = blocking(move || {
        let store = app.open()?;
        let now = now()?;
        let seat = if asked.is_empty() { None } else { Some(live::find_player(&store, &asked, now)) };
        Ok((live::home(&store, now)?, seat))
    })
    .await?;
    let (status, seat, error) = match seat {
        None => (StatusCode::OK, None, None),
        Some(Ok(s)) => (StatusCode::OK, Some(s), None),
        Some(Err(e)) => {
            let e = ApiError::from(e);
            (e.status, None, Some(e.message))
        }
    };
    let back = match &seat {
        Some(s) => format!("/me?{}", serde_urlencoded::to_string([("name", &s.name)]).unwrap_or_default()),
        None => "/me".into(),
    };
    let reasons = crate::ops::table::self_report::PLAYER_REASONS.iter().map(|r| r.slug()).collect();
    let inspection = inspection(&home, seat.as_ref().and_then(|s| s.ends_at.as_deref()));
    Ok(page(status, &MePage { home, query, seat, error, back, reasons, inspection }))
}

#[derive(Template)]
#[template(path = "web/pairings.html")]
struct PairingsPage {
    home: Home,
    tables: Vec<TableView>,
    /// (player, table, seat, opponent), by name.
    by_name: Vec<(String, u32, &'static str, String)>,
}

/// `GET /pairings[?round=N]`: the current round (or round N) by table and by name.
pub async fn pairings(
    State(app): State<Shared>,
    Query(q): Query<super::views::RoundQuery>,
) -> Result<Response, ApiError> {
    let (home, tables) = blocking(move || {
        let store = app.open()?;
        let now = now()?;
        Ok((live::home(&store, now)?, live::round_tables(&store, q.round, now)?))
    })
    .await?;
    let mut by_name = Vec::new();
    for t in &tables {
        for (i, s) in t.seats.iter().enumerate() {
            let other = t.seats.get(1 - i.min(1)).map(|o| o.player.clone()).unwrap_or_default();
            by_name.push((s.player.clone(), t.table, s.seat, other));
        }
    }
    by_name.sort_by_key(|p| crate::domain::names::fold(&p.0));
    Ok(page(StatusCode::OK, &PairingsPage { home, tables, by_name }))
}

#[derive(Template)]
#[template(path = "web/clock.html")]
struct ClockPage {
    home: Home,
    table: Option<TableView>,
}

/// `table` of `/clock?table=N`.
#[derive(Debug, serde::Deserialize)]
pub struct TableQuery {
    /// The table number, as typed.
    pub table: Option<String>,
}

/// `GET /clock[?table=N]`: the round clock, or one table's clock with its extensions and running decision.
pub async fn clock(State(app): State<Shared>, Query(q): Query<TableQuery>) -> Result<Response, ApiError> {
    let number = match q.table.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(t.parse::<u32>().map_err(|_| {
            ApiError::from(Error::bad_input(format!("\"{t}\" is not a table number: give a number such as 3")))
        })?),
    };
    let (home, table) = blocking(move || {
        let store = app.open()?;
        let now = now()?;
        let table = match number {
            Some(n) => Some(live::table(&store, n, now)?),
            None => None,
        };
        Ok((live::home(&store, now)?, table))
    })
    .await?;
    Ok(page(StatusCode::OK, &ClockPage { home, table }))
}

#[derive(Template)]
#[template(path = "web/login.html")]
struct LoginPage {
    home: Home,
    name: String,
    error: Option<String>,
    /// The pre-session token the form repeats.
    csrf: String,
}

/// `name` of `/login?name=...` (the login QR code fills it).
#[derive(Debug, serde::Deserialize)]
pub struct LoginQuery {
    /// The judge's name.
    pub name: Option<String>,
}

async fn home_of(app: &Shared) -> Result<Home, ApiError> {
    let app = app.clone();
    blocking(move || live::home(&app.open()?, now()?)).await
}

/// `GET /login`: the judges' login form, with its pre-session token (kept from an earlier visit, else new).
pub async fn login_form(
    State(app): State<Shared>,
    Query(q): Query<LoginQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let home = home_of(&app).await?;
    let csrf = auth::login_token(&headers).unwrap_or_else(auth::new_login_token);
    login_page(StatusCode::OK, LoginPage { home, name: q.name.unwrap_or_default(), error: None, csrf })
}

/// The login page with its pre-session cookie.
fn login_page(status: StatusCode, p: LoginPage) -> Result<Response, ApiError> {
    let mut res = page(status, &p);
    let cookie =
        HeaderValue::from_str(&auth::login_cookie(&p.csrf)).map_err(|_| ApiError::internal("the login cookie"))?;
    res.headers_mut().append(header::SET_COOKIE, cookie);
    Ok(res)
}

/// The login form's fields.
#[derive(Debug, serde::Deserialize)]
pub struct LoginFields {
    /// The judge's name.
    pub name: String,
    /// The PIN.
    pub pin: String,
    /// The form's pre-session token (its cookie repeated).
    pub csrf: Option<String>,
}

/// `POST /login`: sets the session cookie and goes to the dashboard, or shows the form again with the error.
/// A form without its pre-session token (posted from elsewhere, or too old) is refused 403 before any PIN is
/// checked or counted.
pub async fn login_submit(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(f): Form<LoginFields>,
) -> Result<Response, ApiError> {
    let name = f.name.clone();
    if !auth::login_csrf_ok(&headers, f.csrf.as_deref()) {
        let home = home_of(&app).await?;
        let error =
            "this login form is out of date or came from elsewhere (missing or wrong CSRF token): log in again here";
        let p = LoginPage { home, name, error: Some(error.into()), csrf: auth::new_login_token() };
        return login_page(StatusCode::FORBIDDEN, p);
    }
    match auth::login_via(&app, addr, "POST /login", f.name, f.pin).await {
        Ok(l) => {
            let mut res = Redirect::to("/judge").into_response();
            let cookie = HeaderValue::from_str(&auth::session_cookie(&l.token))
                .map_err(|_| ApiError::internal("the session cookie"))?;
            res.headers_mut().insert(header::SET_COOKIE, cookie);
            Ok(res)
        }
        Err(e) => {
            let home = home_of(&app).await?;
            let csrf = auth::login_token(&headers).unwrap_or_else(auth::new_login_token);
            login_page(e.status, LoginPage { home, name, error: Some(e.message), csrf })
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
pub async fn logout(State(app): State<Shared>, judge: Judge, Form(f): Form<CsrfField>) -> Result<Response, ApiError> {
    judge.check_csrf(f.csrf.as_deref())?;
    let actor = judge.actor("POST /logout")?;
    blocking(move || judges::logout(&mut app.open()?, &actor, &judge.token)).await?;
    let mut res = Redirect::to("/").into_response();
    let cookie = HeaderValue::from_str(&auth::cleared_cookie()).map_err(|_| ApiError::internal("the cookie"))?;
    res.headers_mut().insert(header::SET_COOKIE, cookie);
    Ok(res)
}

#[derive(Template)]
#[template(path = "web/dashboard.html")]
struct DashboardPage {
    home: Home,
    judge: SessionJudge,
    tables: Vec<TableView>,
    playing: usize,
    finished: usize,
    over_time: usize,
    /// Decision overruns in the current round (the table's device and `mmjudge clock` record them).
    overruns: Vec<crate::ops::table::decisions::Overrun>,
    /// Players' calls for a judge still open.
    calls: Vec<crate::ops::table::calls::WaitingCall>,
    /// Players' self-reported results waiting or in conflict.
    self_reports: Vec<crate::ops::table::self_report::WaitingReports>,
    /// A head judge: the round's actions and the settings form are shown.
    head: bool,
}

/// The judge of a page, or the answer that sends the phone to the login page (a stale cookie cleared) or
/// shows what failed.
pub fn judge_or_login(judge: Result<Judge, ApiError>, headers: &HeaderMap) -> Result<Judge, Box<Response>> {
    match judge {
        Ok(j) => Ok(j),
        Err(e) if e.status == StatusCode::UNAUTHORIZED => {
            let mut res = Redirect::to("/login").into_response();
            if auth::cookie(headers, auth::COOKIE).is_some()
                && let Ok(v) = HeaderValue::from_str(&auth::cleared_cookie())
            {
                res.headers_mut().insert(header::SET_COOKIE, v);
            }
            Err(Box::new(res))
        }
        Err(e) => Err(Box::new(e.into_response())),
    }
}

/// `GET /judge`: the judges' dashboard; without a login, the login page.
pub async fn dashboard(
    State(app): State<Shared>,
    judge: Result<Judge, ApiError>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let judge = match judge_or_login(judge, &headers) {
        Ok(j) => j,
        Err(to_login) => return Ok(*to_login),
    };
    let (d, overruns) = blocking(move || {
        let store = app.open()?;
        let d = live::dashboard(&store, now()?)?;
        let overruns = match d.home.round.as_ref() {
            Some(r) => live::round_overruns(&store, r.number)?,
            None => Vec::new(),
        };
        Ok((d, overruns))
    })
    .await?;
    let count = |s: &str| d.tables.iter().filter(|t| t.state == s).count();
    let (playing, finished, over_time) = (count("playing"), count("finished"), count("over-time"));
    Ok(page(
        StatusCode::OK,
        &DashboardPage {
            home: d.home,
            head: judge.judge.role == crate::ops::judges::Role::Head,
            judge: judge.judge,
            tables: d.tables,
            playing,
            finished,
            over_time,
            overruns,
            calls: d.calls,
            self_reports: d.self_reports,
        },
    ))
}

#[derive(Template)]
#[template(path = "web/refused.html")]
struct RefusedPage<'a> {
    message: &'a str,
    back: &'a str,
}

/// A form's refused write: the one-line error with its status, and a link back to the page.
pub fn refused(e: ApiError, back: &str) -> Response {
    page(e.status, &RefusedPage { message: &e.message, back })
}

#[derive(Template)]
#[template(path = "web/not_found.html")]
struct NotFoundPage {
    home: Home,
    path: String,
}

/// A mistyped page address: 404 with the "page not found" page and the site's navigation.
pub async fn not_found(app: &Shared, path: &str) -> Result<Response, ApiError> {
    let home = home_of(app).await?;
    Ok(page(StatusCode::NOT_FOUND, &NotFoundPage { home, path: path.to_string() }))
}

#[derive(Template)]
#[template(path = "web/error.html")]
struct ErrorPage {
    home: Home,
    title: &'static str,
    message: String,
}

/// A refused page request (a table that is not there, a query that is not a number): the one line in a page with
/// the site's navigation, with the same status the API gives.
pub async fn error_page(app: &Shared, e: &ApiError) -> Result<Response, ApiError> {
    let home = home_of(app).await?;
    let title = if e.status == StatusCode::NOT_FOUND { "Not found" } else { "Not done" };
    Ok(page(e.status, &ErrorPage { home, title, message: e.message.clone() }))
}

/// Deck inspection while it runs: when it ends (the round's clock starts) and the round's time that follows,
/// `M:SS` ("Deck inspection — 2:00 left, then 50:00").
pub struct Inspection {
    /// When inspection ends (RFC 3339).
    pub until: String,
    /// The table's round time after it (its extensions included).
    pub then: String,
}

/// The inspection running before a table's round clock ending at `ends_at`, if any.
pub fn inspection(home: &Home, ends_at: Option<&str>) -> Option<Inspection> {
    let until = home.round.as_ref()?.inspection_until.clone()?;
    let (from, end) = (crate::time::unstamp(&until).ok()?, crate::time::unstamp(ends_at?).ok()?);
    Some(Inspection { then: crate::ops::table::clock::clock_text(end - from), until })
}
