//! A page drawn ([`page`], with its [`Head`]), the pages every room answers with (refused, error, not found), and
//! a long list's window.
//!
//! A page is drawn in the blocking pool within its request's deadline, once per tag (see [`super::drawn`]):
//! [`page`] takes the page's struct, hashes it for its tag there and, unless the page drawn with that tag is
//! kept, draws its template and keeps what it drew; past the deadline the drawing stops and the answer is the
//! time limit's 503. The async threads only wait for it.
//!
//! The pages any room may answer with: a form's refused write (with a link back), a refused page request, a
//! mistyped address, the login page for a judge's page without a login; what a judge's form did (`?done=ID`,
//! [`done`]); and deck inspection's words, which the players' and the judges' pages both show.
//!
//! Big lists that open at what the phone's owner needs: a page of a long list (the pairings, the standings at
//! thousands of players) shows [`ROWS`] rows from `from`, or the rows of the name searched, with a link to the
//! next rows (a page script loads them as the phone scrolls); the rest is never sent unasked.

use super::auth;
use super::auth::Judge;
use super::drawn::{self, Deadline, Tag};
use super::request::ApiError;
use super::state::Db;
use crate::domain::names::fold;
use crate::ops::live;
use crate::ops::live::Home;
use crate::render::deadline::draw;
use askama::Template;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};

pub use super::drawn::json;

/// A page with its status, drawn in the blocking pool within `deadline` (503 past it); a page drawn (200) is
/// tagged from what it was drawn from (see [`Tag::of_page`]) and drawn once per tag.
pub async fn page<T: Template + serde::Serialize + Send + 'static>(
    deadline: Deadline,
    status: StatusCode,
    t: T,
) -> Response {
    let mut res = match drawn::drawing(deadline, move || Ok(drawn_page(status, &t))).await {
        Ok(res) => res,
        Err(e) => e.into_response(),
    };
    // Its bytes are compressed within the same deadline (`web::layers::not_modified`).
    res.extensions_mut().insert(deadline);
    res
}

/// [`page`]'s work in the blocking pool.
fn drawn_page<T: Template + serde::Serialize>(status: StatusCode, t: &T) -> Response {
    let failed = |e: askama::Error| ApiError::internal_because("a page could not be drawn", e.to_string());
    if status == StatusCode::OK
        && let Some(tag) = Tag::of_page(std::any::type_name::<T>(), t)
    {
        // The same page drawn before (the same data): not drawn or compressed again.
        if let Some(kept) = drawn::kept(&tag) {
            return kept.answer(&tag);
        }
        return match draw(t) {
            Ok(body) => drawn::keep(&tag, body).answer(&tag),
            Err(e) => failed(e).into_response(),
        };
    }
    match draw(t) {
        Ok(body) => (status, Html(body)).into_response(),
        Err(e) => failed(e).into_response(),
    }
}

/// What every page of the site is drawn with (`base.html`): the event, the round and its clock as its header
/// shows them (the [`Home`] it derefs to), and what the second laptop adds ([`Laptop`]).
pub struct Head {
    /// The event, the round and its clock.
    pub home: Home,
    /// The second laptop's meta and notice.
    pub laptop: Laptop,
}

/// What a page's tag takes of its head: all but the server's now (see [`Tag::of_page`]).
impl serde::Serialize for Head {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut head = s.serialize_struct("Head", 5)?;
        head.serialize_field("event", &self.home.event)?;
        head.serialize_field("rounds", &self.home.rounds)?;
        head.serialize_field("round", &self.home.round)?;
        head.serialize_field("finished", &self.home.finished)?;
        head.serialize_field("laptop", &self.laptop)?;
        head.end()
    }
}

impl std::ops::Deref for Head {
    type Target = Home;
    fn deref(&self) -> &Home {
        &self.home
    }
}

/// What the second laptop adds to a page: on a primary with a standby, the standby its pages may turn to (the
/// `mmjudge-standby` meta and `failover.js` first in the head); on a standby, or an old primary whose event
/// moved, the notice first in the body.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Laptop {
    /// The standby a primary's pages are told about (see [`crate::replica::failover`]).
    pub standby: Option<Advert>,
    /// On a standby: the primary it follows.
    pub second_of: Option<String>,
    /// On an old primary: where the event moved.
    pub moved_to: Option<String>,
}

/// The standby a page is told about.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Advert {
    /// Its origin (`http://HOST:PORT`).
    pub origin: String,
    /// The event's id.
    pub event: String,
    /// How long the page waits for the primary before it asks the standby.
    pub timeout_ms: u128,
}

impl Laptop {
    /// What this server's pages say of the second laptop now. A page served over HTTPS cannot reach a plain-HTTP
    /// standby (the browser blocks it): no standby is told of then.
    pub fn of(app: &super::state::App) -> Laptop {
        let secure = app.site.starts_with("https://");
        let standby = app.failover.standby().filter(|s| !secure || s.origin.starts_with("https://")).map(|s| Advert {
            origin: s.origin,
            event: s.event,
            timeout_ms: app.failover.timeout.as_millis(),
        });
        let second_of = app.replica.following();
        let moved_to = if second_of.is_none() { app.replica.moved() } else { None };
        Laptop { standby, second_of, moved_to }
    }
}

/// The event, the round and its clock, as every page's header shows them, with what the second laptop adds.
pub async fn home(db: &Db) -> Result<Head, ApiError> {
    let home = db.run(|store| live::home(store, crate::time::now()?)).await?;
    Ok(head(db, home))
}

/// A page's [`Head`] from the [`Home`] it read.
pub fn head(db: &Db, home: Home) -> Head {
    Head { home, laptop: Laptop::of(db.app()) }
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/refused.html")]
struct RefusedPage {
    message: String,
    back: String,
}

/// A form's refused write: the one-line error with its status, and a link back to the page.
pub async fn refused(deadline: Deadline, e: ApiError, back: &str) -> Response {
    let mut res = page(deadline, e.status, RefusedPage { message: e.message.clone(), back: back.to_string() }).await;
    if res.status() != e.status {
        // Not drawn in time: the time limit's answer.
        return res;
    }
    if let Some(secs) = e.retry_after {
        res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    if e.wrong_tries {
        res.headers_mut().insert(super::request::WRONG_TRIES, HeaderValue::from_static("1"));
    }
    res.extensions_mut().insert(super::request::Said { message: e.message, cause: e.cause });
    res
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/not_found.html")]
struct NotFoundPage {
    home: Head,
    path: String,
}

/// A mistyped page address: 404 with the "page not found" page and the site's navigation.
pub async fn not_found(db: &Db, deadline: Deadline, path: &str) -> Result<Response, ApiError> {
    let home = home(db).await?;
    Ok(page(deadline, StatusCode::NOT_FOUND, NotFoundPage { home, path: path.to_string() }).await)
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/error.html")]
struct ErrorPage {
    home: Head,
    title: &'static str,
    message: String,
}

/// A refused page request (a table that is not there, a query that is not a number): the one line in a page with
/// the site's navigation, with the same status the API gives.
pub async fn error_page(db: &Db, deadline: Deadline, status: StatusCode, message: &str) -> Result<Response, ApiError> {
    let home = home(db).await?;
    let title = if status == StatusCode::NOT_FOUND { "Not found" } else { "Not done" };
    Ok(page(deadline, status, ErrorPage { home, title, message: message.to_string() }).await)
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

/// Deck inspection while it runs: when it ends (the round's clock starts) and the round's time that follows,
/// `M:SS` ("Deck inspection — 2:00 left, then 50:00").
#[derive(serde::Serialize)]
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
    Some(Inspection { then: crate::ops::table::clocks::clock::clock_text(end - from), until })
}

/// The outcome a page shows for `?done=ID`: the words kept by the write runner, else the audit entry's own
/// summary cut before any command to type; None for no id, or an id that is no entry.
pub async fn done(db: &Db, q: &super::request::DoneQuery) -> Option<String> {
    let id: i64 = q.done.as_deref()?.trim().parse().ok()?;
    let kept = db.app().done.lock().ok().and_then(|d| d.of(id));
    if kept.is_some() {
        return kept;
    }
    let found = db.run(move |store| crate::ops::log::entry(store.conn(), id)).await.ok()??;
    Some(super::request::web_words(&found.summary))
}

/// Rows a page of a long list shows.
pub const ROWS: usize = 100;

/// The most rows a name search shows.
pub const FOUND: usize = 20;

/// `?round=N&name=...&from=N` of a long list's page.
#[derive(Debug, Default, serde::Deserialize)]
pub struct ListQuery {
    /// The round (default: as the command line chooses).
    pub round: Option<u32>,
    /// A name searched (any part of it, case and accents aside).
    pub name: Option<String>,
    /// The first row shown (0 first).
    pub from: Option<usize>,
}

/// What a page of a long list shows.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Window {
    /// The name searched ("" for none).
    pub name: String,
    /// The first row shown and the row after the last.
    pub from: usize,
    /// The row after the last shown.
    pub to: usize,
    /// Rows in the whole list.
    pub total: usize,
    /// The address of the next rows, when there are more.
    pub more: Option<String>,
}

impl ListQuery {
    /// The name searched, trimmed ("" for none).
    pub fn name(&self) -> String {
        self.name.as_deref().map(str::trim).unwrap_or("").to_string()
    }

    /// The window over a list of `total` rows, served at `path` (for the next rows' address).
    pub fn window(&self, path: &str, total: usize) -> Window {
        let from = self.from.unwrap_or(0).min(total);
        let to = (from + ROWS).min(total);
        let more = (to < total).then(|| {
            let mut pairs: Vec<(&str, String)> = Vec::new();
            if let Some(r) = self.round {
                pairs.push(("round", r.to_string()));
            }
            pairs.push(("from", to.to_string()));
            format!("{path}?{}", serde_urlencoded::to_string(pairs).unwrap_or_default())
        });
        Window { name: self.name(), from, to, total, more }
    }
}

/// Whether `name` matches the search `asked` (any part of it, case and accents aside); nothing matches "".
pub fn matches(name: &str, asked: &str) -> bool {
    let asked = fold(asked);
    !asked.is_empty() && fold(name).contains(&asked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_page_past_its_deadline_is_answered_503_and_one_in_time_is_askamas_page_tagged() {
        let refused = || RefusedPage { message: "the table has no result yet".into(), back: "/judge".into() };
        let late = page(Deadline::after(Duration::ZERO), StatusCode::OK, refused()).await;
        let body = axum::body::to_bytes(late.into_body(), usize::MAX).await.unwrap();
        assert_eq!(body, serde_json::json!({ "error": crate::web::kit::request::TOO_LONG }).to_string());
        let res = page(Deadline::after(Duration::from_secs(60)), StatusCode::OK, refused()).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers().contains_key(header::ETAG) && res.extensions().get::<Deadline>().is_some());
        let body = axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap();
        assert_eq!(body, refused().render().unwrap(), "the same bytes as askama draws them");
    }

    #[test]
    fn a_window_shows_a_hundred_rows_and_links_the_next() {
        let q = ListQuery { round: Some(3), ..ListQuery::default() };
        let w = q.window("/pairings", 250);
        assert_eq!((w.from, w.to, w.more.as_deref()), (0, 100, Some("/pairings?round=3&from=100")));
        let q = ListQuery { from: Some(200), ..ListQuery::default() };
        let w = q.window("/standings", 250);
        assert_eq!((w.from, w.to, w.more), (200, 250, None));
        let q = ListQuery { from: Some(900), ..ListQuery::default() };
        assert_eq!(q.window("/standings", 10).from, 10);
        assert!(matches("Björn Lindqvist", "bjorn") && matches("Ana Souza", " SOU".trim()) && !matches("Ana", ""));
    }
}
