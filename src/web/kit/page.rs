//! Drawing a page once per tag ([`page`], [`Head`], [`Tag`]), the pages every room answers with (refused, error,
//! not found), and a long list's window.
//!
//! The tags: a page's is the hash of the data its template draws (every field of the page's struct, the event's
//! header among them but not the server's now, which changes every moment and which a phone also takes from the
//! live stream's `hello`), with this server's start, since a new binary may draw the same data otherwise; a JSON
//! read's or a print's is the hash of the answer as its handler built it ([`json`], [`html`]). A page holds what
//! it draws, not the whole list it was cut from.
//!
//! A page is drawn once per tag: [`page`] keeps what it drew ([`Drawn`]: its bytes, brotli'd and gzipped the
//! first time a phone takes them) by its tag, and the same page asked again is not drawn or compressed again (a
//! thousand phones loading the same pairings); the layer `web::layers::not_modified` puts the kept bytes the phone
//! takes in place of the answer's body.
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
use super::request::ApiError;
use super::state::Db;
use crate::domain::names::fold;
use crate::ops::live;
use crate::ops::live::Home;
use askama::Template;
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use blake2::{Blake2s256, Digest};
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

/// A rendered page with its status; a page drawn (200) is tagged from what it was drawn from (see
/// [`Tag::of_page`]).
pub fn page<T: Template + serde::Serialize>(status: StatusCode, t: &T) -> Response {
    let drawing = |e: &dyn std::fmt::Display| ApiError::internal_because("a page could not be drawn", e.to_string());
    if status == StatusCode::OK
        && let Some(tag) = Tag::of_page(std::any::type_name::<T>(), t)
    {
        // The same page drawn before (the same data): not drawn or compressed again.
        if let Some(drawn) = drawn(&tag) {
            return drawn.answer(&tag);
        }
        return match t.render() {
            Ok(body) => draw(&tag, body).answer(&tag),
            Err(e) => drawing(&e).into_response(),
        };
    }
    match t.render() {
        Ok(body) => (status, Html(body)).into_response(),
        Err(e) => drawing(&e).into_response(),
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
struct RefusedPage<'a> {
    message: &'a str,
    back: &'a str,
}

/// A form's refused write: the one-line error with its status, and a link back to the page.
pub fn refused(e: ApiError, back: &str) -> Response {
    let mut res = page(e.status, &RefusedPage { message: &e.message, back });
    if let Some(secs) = e.retry_after {
        res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
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
pub async fn not_found(db: &Db, path: &str) -> Result<Response, ApiError> {
    let home = home(db).await?;
    Ok(page(StatusCode::NOT_FOUND, &NotFoundPage { home, path: path.to_string() }))
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
pub async fn error_page(db: &Db, status: StatusCode, message: &str) -> Result<Response, ApiError> {
    let home = home(db).await?;
    let title = if status == StatusCode::NOT_FOUND { "Not found" } else { "Not done" };
    Ok(page(status, &ErrorPage { home, title, message: message.to_string() }))
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

/// Brotli's level: 4 compresses a page of pairings in milliseconds, within a few per cent of 11.
pub const BROTLI_LEVEL: i32 = 4;

/// Gzip's level (the usual 6), for phones that take no brotli.
pub const GZIP_LEVEL: i32 = 6;

/// An answer's ETag: weak (`W/"…"`), since the same answer is sent compressed or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag(String);

/// A hash written to as a `std::io::Write` (serde_json writes a page's data into it).
struct Hashing(Blake2s256);

impl std::io::Write for Hashing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// This server's start, in the tags of pages: the same data drawn by another binary is another page.
fn started() -> &'static [u8] {
    static STARTED: OnceLock<Vec<u8>> = OnceLock::new();
    STARTED.get_or_init(|| {
        let at = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        at.as_nanos().to_le_bytes().to_vec()
    })
}

impl Tag {
    fn of_hash(hash: Blake2s256) -> Tag {
        let hex: String = hash.finalize().iter().take(10).map(|b| format!("{b:02x}")).collect();
        Tag(format!("W/\"{hex}\""))
    }

    /// The tag of an answer as its handler built it (a JSON read's bytes, a print).
    pub fn of_bytes(bytes: &[u8]) -> Tag {
        let mut hash = Blake2s256::new();
        hash.update(bytes);
        Tag::of_hash(hash)
    }

    /// The tag of a page drawn by template `name` from `data` (its struct: see [`Head`]'s serialised
    /// form, which leaves the server's now out).
    pub fn of_page(name: &str, data: &impl serde::Serialize) -> Option<Tag> {
        let mut hash = Blake2s256::new();
        hash.update(started());
        hash.update(name.as_bytes());
        hash.update([0]);
        // serde writes a few bytes at a time: hashed in blocks of 8 KB.
        let mut hashing = std::io::BufWriter::with_capacity(8 * 1024, Hashing(hash));
        serde_json::to_writer(&mut hashing, data).ok()?;
        Some(Tag::of_hash(hashing.into_inner().ok()?.0))
    }

    /// The tag's text (`W/"…"`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Puts the tag on an answer.
    pub fn on(&self, res: &mut Response) {
        if let Ok(v) = HeaderValue::from_str(&self.0) {
            res.headers_mut().insert(header::ETAG, v);
        }
    }
}

/// Serialises a view for a page's tag without its `now` (the server's now, drawn as `data-now`): for a page
/// struct's field, `#[serde(serialize_with = "without_now")]`.
pub fn without_now<S: serde::Serializer, T: serde::Serialize>(view: &T, s: S) -> Result<S::Ok, S::Error> {
    let mut value = serde_json::to_value(view).map_err(serde::ser::Error::custom)?;
    if let Some(map) = value.as_object_mut() {
        map.remove("now");
    }
    serde::Serialize::serialize(&value, s)
}

/// A JSON read: its bytes, tagged with their hash.
pub fn json(data: &impl serde::Serialize) -> Response {
    match serde_json::to_vec(data) {
        Ok(bytes) => {
            let tag = Tag::of_bytes(&bytes);
            let mut res = ([(header::CONTENT_TYPE, "application/json")], bytes).into_response();
            tag.on(&mut res);
            res
        }
        Err(e) => {
            super::request::ApiError::internal_because("an answer could not be written", e.to_string()).into_response()
        }
    }
}

/// An HTML answer built whole by its handler (a print): tagged with its hash.
pub fn html(body: String) -> Response {
    let tag = Tag::of_bytes(body.as_bytes());
    let mut res = axum::response::Html(body).into_response();
    tag.on(&mut res);
    res
}

/// A page as drawn: its bytes plain, and compressed with brotli or with gzip once a phone asks for it so.
#[derive(Debug)]
pub struct Drawn {
    pub plain: Bytes,
    br: OnceLock<Bytes>,
    gzip: OnceLock<Bytes>,
}

/// Brotli's window for a kept page: 1 MB (a page is far smaller; the default 4 MB window takes memory for nothing).
const BROTLI_WINDOW: u32 = 20;

impl Drawn {
    /// A page drawn: its plain bytes.
    fn of(body: String) -> Drawn {
        Drawn { plain: Bytes::from(body), br: OnceLock::new(), gzip: OnceLock::new() }
    }

    /// Its bytes in `cell`, made by `make` the first time a phone takes them.
    fn made(
        &self,
        cell: &OnceLock<Bytes>,
        make: impl FnOnce(&[u8]) -> std::io::Result<Vec<u8>>,
    ) -> std::io::Result<Bytes> {
        if let Some(b) = cell.get() {
            return Ok(b.clone());
        }
        let bytes = Bytes::from(make(&self.plain)?);
        Ok(cell.get_or_init(|| bytes).clone())
    }

    /// Its bytes brotli'd at [`BROTLI_LEVEL`].
    pub fn br(&self) -> std::io::Result<Bytes> {
        self.made(&self.br, |plain| {
            let mut br = brotli::CompressorWriter::new(Vec::new(), 4096, BROTLI_LEVEL as u32, BROTLI_WINDOW);
            br.write_all(plain)?;
            br.flush()?;
            Ok(br.into_inner())
        })
    }

    /// Its bytes gzipped at [`GZIP_LEVEL`].
    pub fn gzip(&self) -> std::io::Result<Bytes> {
        self.made(&self.gzip, |plain| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(GZIP_LEVEL as u32));
            gz.write_all(plain)?;
            gz.finish()
        })
    }

    /// What it may hold: its plain bytes and, compressed, at most as much again.
    fn len(&self) -> usize {
        self.plain.len() * 2
    }

    /// The page's answer (200, HTML, its tag), its plain bytes as the body, what was drawn on it for
    /// the layer `web::layers::not_modified` to choose from.
    pub fn answer(self: Arc<Self>, tag: &Tag) -> Response {
        let mut res = axum::response::Html(self.plain.clone()).into_response();
        tag.on(&mut res);
        res.extensions_mut().insert(self);
        res
    }
}

/// The pages drawn last, by tag; the oldest go first past [`Kept::ENTRIES`] entries or [`Kept::BYTES`] bytes.
#[derive(Default)]
struct Kept {
    entries: HashMap<String, Arc<Drawn>>,
    order: VecDeque<String>,
    bytes: usize,
}

impl Kept {
    /// The most pages kept.
    const ENTRIES: usize = 64;
    /// The most bytes kept.
    const BYTES: usize = 8 * 1024 * 1024;

    fn put(&mut self, tag: String, drawn: Arc<Drawn>) {
        if drawn.len() > Self::BYTES / 4 || self.entries.contains_key(&tag) {
            return;
        }
        self.bytes += drawn.len();
        self.entries.insert(tag.clone(), drawn);
        self.order.push_back(tag);
        while self.entries.len() > Self::ENTRIES || self.bytes > Self::BYTES {
            let Some(old) = self.order.pop_front() else { break };
            if let Some(d) = self.entries.remove(&old) {
                self.bytes -= d.len();
            }
        }
    }
}

/// The pages this server drew, by tag (a tag holds the server's start: no other server's page is among them).
fn kept() -> &'static Mutex<Kept> {
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    KEPT.get_or_init(Mutex::default)
}

/// The page drawn with `tag`, if kept.
pub fn drawn(tag: &Tag) -> Option<Arc<Drawn>> {
    kept().lock().ok()?.entries.get(&tag.0).cloned()
}

/// Keeps the page drawn as `body` by `tag`.
pub fn draw(tag: &Tag, body: String) -> Arc<Drawn> {
    let drawn = Arc::new(Drawn::of(body));
    if let Ok(mut k) = kept().lock() {
        k.put(tag.0.clone(), drawn.clone());
    }
    drawn
}

#[cfg(test)]
mod drawn_tests {
    use super::*;
    #[test]
    fn a_page_drawn_is_kept_by_its_tag_and_the_oldest_go_first() {
        let tag = Tag::of_page("test", &"kept page").unwrap();
        let drawn = draw(&tag, "<p>".repeat(100));
        assert!(drawn.br.get().is_none() && drawn.gzip.get().is_none(), "compressed when a phone asks");
        assert!(drawn.br().unwrap().len() < drawn.plain.len() && drawn.gzip().unwrap().len() < drawn.plain.len());
        assert_eq!(drawn.br().unwrap(), drawn.br.get().cloned().unwrap(), "once");
        assert!(Arc::ptr_eq(&drawn, &super::drawn(&tag).unwrap()));
        let mut k = Kept::default();
        for i in 0..Kept::ENTRIES + 3 {
            k.put(format!("t{i}"), drawn.clone());
        }
        assert!(!k.entries.contains_key("t0") && k.entries.contains_key("t3"));
        assert_eq!(k.entries.len(), Kept::ENTRIES);
    }

    #[test]
    fn a_page_is_tagged_by_its_template_and_its_data() {
        let a = Tag::of_page("web/home.html", &("Spring", 3));
        assert_eq!(a, Tag::of_page("web/home.html", &("Spring", 3)));
        assert_ne!(a, Tag::of_page("web/home.html", &("Spring", 4)), "other data");
        assert_ne!(a, Tag::of_page("web/me.html", &("Spring", 3)), "another template");
    }
}
