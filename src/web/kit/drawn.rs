//! A page drawn off the async threads within its request's deadline ([`Deadline`], [`drawing`]), tagged
//! ([`Tag`]) and kept once per tag with its compressed bytes ([`Drawn`]); a JSON read's and a print's answers
//! tagged by their bytes ([`json`], [`html`]).
//!
//! Off the async threads: every page and print the server draws is drawn in the blocking pool (a page's tag
//! hashed, its template drawn, a print's bar and style hashes added), and its bytes are compressed there the
//! first time a phone takes them so. The two async threads only wait for it, so a large page being drawn never
//! keeps them from answering other phones, and the time limit's layer can answer when the limit passes.
//!
//! Within the deadline: the time limit's layer (`web::layers::timeout`) puts the request's [`Deadline`] on it as
//! the request reaches it (the request's limit later: `App::request_limit`, 10 s); a handler takes it and draws
//! with it ([`drawing`], or [`drawn`] for work already in the blocking pool), the drawing thread checking it
//! every few KB (see [`crate::render::deadline`]), hashing and compression between their blocks. Past it the
//! drawing stops, and the answer is the time limit's own 503 ("the server took too long on this request: try
//! again"), with the stop said in the log. A route without a limit (the site's zip, an upload) has no deadline.
//!
//! The tags: a page's is the hash of the data its template draws (every field of the page's struct, the event's
//! header among them but not the server's now, which changes every moment and which a phone also takes from the
//! live stream's `hello`), with this server's start, since a new binary may draw the same data otherwise; a JSON
//! read's or a print's is the hash of the answer as its handler built it ([`json`], [`html`]). A page holds what
//! it draws, not the whole list it was cut from.
//!
//! A page is drawn once per tag: `super::page::page` keeps what it drew ([`Drawn`]: its bytes, brotli'd and
//! gzipped the first time a phone takes them) by its tag, and the same page asked again is not drawn or
//! compressed again (a thousand phones loading the same pairings); the layer `web::layers::not_modified` puts
//! the kept bytes the phone takes in place of the answer's body. A print is drawn for its request alone: its
//! bytes are compressed the same way but kept by no cache (the players' codes are secrets).

use super::request::{ApiError, blocking};
use crate::render::deadline;
use axum::body::Bytes;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use blake2::{Blake2s256, Digest};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// When a request's answer is due: the time limit's layer puts it on the request as the request reaches it; a
/// route without a limit (the site's zip, an upload) has none. A page's drawing checks it ([`drawing`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No deadline: the drawing is never stopped.
    pub const NONE: Deadline = Deadline(None);

    /// The deadline `limit` from now.
    pub fn after(limit: Duration) -> Deadline {
        Deadline(Instant::now().checked_add(limit))
    }

    /// Its instant (None: no deadline).
    pub fn at(self) -> Option<Instant> {
        self.0
    }

    /// The request's, as its extensions hold it ([`Deadline::NONE`] on a route without a limit).
    pub fn of(extensions: &Extensions) -> Deadline {
        extensions.get::<Deadline>().copied().unwrap_or_default()
    }
}

/// A handler's deadline, as the time limit's layer put it on the request.
impl<S: Send + Sync> FromRequestParts<S> for Deadline {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Deadline::of(&parts.extensions))
    }
}

/// A time limit in the log's words: `10 s`, or `250 ms` for a limit a test shortened.
pub fn limit_words(limit: Duration) -> String {
    if limit.subsec_millis() == 0 { format!("{} s", limit.as_secs()) } else { format!("{} ms", limit.as_millis()) }
}

/// Draws in the blocking pool within `deadline`: what `f` made, or 503 ([`ApiError::too_long`]) when its drawing
/// passed the deadline and stopped (see [`drawn`]).
pub async fn drawing<T: Send + 'static>(
    deadline: Deadline,
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    blocking(move || Ok(drawn(deadline, f))).await?
}

/// [`drawing`]'s work, for work already in the blocking pool (a call on the store that draws a print): `f` run
/// with the thread's drawing bounded by `deadline`. A stop is written to the log from the drawing's own thread,
/// so that it is said even when the time limit's layer answered first and nobody waits for the drawing any more
/// (at most one line a second, counting the others).
pub fn drawn<T>(deadline: Deadline, f: impl FnOnce() -> Result<T, ApiError>) -> Result<T, ApiError> {
    match deadline::within(deadline.at(), f) {
        Ok(done) => done,
        Err(late) => Err(stopped(late)),
    }
}

/// The answer for a drawing stopped past its deadline, its stop written to the log.
fn stopped(late: deadline::Late) -> ApiError {
    let (kb, ms) = (late.done / 1024, late.after.as_millis() as u64);
    static SAID: Mutex<Option<(Instant, u64)>> = Mutex::new(None);
    let mut said = SAID.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    match said.as_mut() {
        Some((at, more)) if at.elapsed() < Duration::from_secs(1) => *more += 1,
        _ => {
            let more = said.map_or(0, |(_, more)| more);
            *said = Some((Instant::now(), 0));
            tracing::warn!(drawn_kb = kb, after_ms = ms, more, "a drawing stopped at its request's deadline");
        }
    }
    ApiError::too_long(format!("the drawing passed the request's deadline and stopped ({kb} KB done, {ms} ms after)"))
}

/// Brotli's level: 4 compresses a page of pairings in milliseconds, within a few per cent of 11.
pub const BROTLI_LEVEL: i32 = 4;

/// Gzip's level (the usual 6), for phones that take no brotli.
pub const GZIP_LEVEL: i32 = 6;

/// An answer's ETag: weak (`W/"…"`), since the same answer is sent compressed or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag(String);

/// A hash written to as a `std::io::Write` (serde_json writes a page's data into it), with the bytes hashed so
/// far; a block written past the thread's deadline is refused (see [`crate::render::deadline::passed`]).
struct Hashing(Blake2s256, usize);

impl std::io::Write for Hashing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if deadline::passed(self.1) {
            return Err(past_the_deadline());
        }
        self.0.update(buf);
        self.1 += buf.len();
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

    /// The tag of a page drawn by template `name` from `data` (its struct: see `super::page::Head`'s
    /// serialised form, which leaves the server's now out); None past the thread's deadline.
    pub fn of_page(name: &str, data: &impl serde::Serialize) -> Option<Tag> {
        let mut hash = Blake2s256::new();
        hash.update(started());
        hash.update(name.as_bytes());
        hash.update([0]);
        // serde writes a few bytes at a time: hashed in blocks of 8 KB.
        let mut hashing = std::io::BufWriter::with_capacity(8 * 1024, Hashing(hash, 0));
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
        Err(e) => ApiError::internal_because("an answer could not be written", e.to_string()).into_response(),
    }
}

/// An HTML answer built whole by its handler (a print, in the blocking pool): tagged with its hash; its bytes
/// compressed as a page's are (see [`Drawn::compressed`]) within `deadline`, but kept by no cache.
pub fn html(body: String, deadline: Deadline) -> Response {
    let tag = Tag::of_bytes(body.as_bytes());
    let mut res = Arc::new(Drawn::of(body)).answer(&tag);
    res.extensions_mut().insert(deadline);
    res
}

/// The error of work stopped past its thread's deadline.
fn past_the_deadline() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::TimedOut, "past the request's deadline")
}

/// How many bytes a compressor is given between two looks at the clock.
const BLOCK: usize = 64 * 1024;

/// The largest page compressed where it is answered rather than in the blocking pool: brotli at level 4 takes a
/// few tenths of a millisecond on 32 KB (a page of a long list's 100 rows is under 30 KB), less than the trip to
/// the blocking pool and back on a busy machine.
pub const AT_ONCE: usize = 32 * 1024;

/// Gives `plain` to a compressor in blocks of [`BLOCK`], stopping past the thread's deadline.
fn fed(into: &mut impl Write, plain: &[u8]) -> std::io::Result<()> {
    for (i, block) in plain.chunks(BLOCK).enumerate() {
        if deadline::passed(i * BLOCK) {
            return Err(past_the_deadline());
        }
        into.write_all(block)?;
    }
    Ok(())
}

/// How a phone takes a page's bytes compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Brotli, at [`BROTLI_LEVEL`].
    Br,
    /// Gzip, at [`GZIP_LEVEL`].
    Gzip,
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
            fed(&mut br, plain)?;
            br.flush()?;
            Ok(br.into_inner())
        })
    }

    /// Its bytes gzipped at [`GZIP_LEVEL`].
    pub fn gzip(&self) -> std::io::Result<Bytes> {
        self.made(&self.gzip, |plain| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(GZIP_LEVEL as u32));
            fed(&mut gz, plain)?;
            gz.finish()
        })
    }

    /// Its bytes compressed as `encoding`: those made before; else, up to [`AT_ONCE`] bytes, made at once (less
    /// than a millisecond: less than the way to the blocking pool and back); else made in the blocking pool
    /// within `deadline` (503 past it: see [`drawing`]). `Ok(Err)` when the compressor failed (the page then goes
    /// plain).
    pub async fn compressed(
        self: Arc<Self>,
        encoding: Encoding,
        deadline: Deadline,
    ) -> Result<std::io::Result<Bytes>, ApiError> {
        let made = match encoding {
            Encoding::Br => self.br.get(),
            Encoding::Gzip => self.gzip.get(),
        };
        if let Some(bytes) = made {
            return Ok(Ok(bytes.clone()));
        }
        let small = self.plain.len() <= AT_ONCE;
        let compress = move || match encoding {
            Encoding::Br => self.br(),
            Encoding::Gzip => self.gzip(),
        };
        if small {
            return Ok(compress());
        }
        drawing(deadline, move || Ok(compress())).await
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
fn cache() -> &'static Mutex<Kept> {
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    KEPT.get_or_init(Mutex::default)
}

/// The page drawn with `tag`, if kept.
pub fn kept(tag: &Tag) -> Option<Arc<Drawn>> {
    cache().lock().ok()?.entries.get(&tag.0).cloned()
}

/// Keeps the page drawn as `body` by `tag`.
pub fn keep(tag: &Tag, body: String) -> Arc<Drawn> {
    let drawn = Arc::new(Drawn::of(body));
    if let Ok(mut k) = cache().lock() {
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
        let drawn = keep(&tag, "<p>".repeat(100));
        assert!(drawn.br.get().is_none() && drawn.gzip.get().is_none(), "compressed when a phone asks");
        assert!(drawn.br().unwrap().len() < drawn.plain.len() && drawn.gzip().unwrap().len() < drawn.plain.len());
        assert_eq!(drawn.br().unwrap(), drawn.br.get().cloned().unwrap(), "once");
        assert!(Arc::ptr_eq(&drawn, &kept(&tag).unwrap()));
        let mut k = Kept::default();
        for i in 0..Kept::ENTRIES + 3 {
            k.put(format!("t{i}"), drawn.clone());
        }
        assert!(!k.entries.contains_key("t0") && k.entries.contains_key("t3"));
        assert_eq!(k.entries.len(), Kept::ENTRIES);
    }

    #[tokio::test]
    async fn compression_past_the_deadline_is_answered_503_and_keeps_nothing_half_made() {
        let drawn = Arc::new(Drawn::of("<tr><td>a row</td></tr>\n".repeat(40_000)));
        let late = drawn.clone().compressed(Encoding::Br, Deadline::after(Duration::ZERO)).await.unwrap_err();
        assert_eq!((late.status.as_u16(), late.message.as_str()), (503, crate::web::kit::request::TOO_LONG));
        assert!(late.cause.as_deref().is_some_and(|c| c.contains("0 KB done")), "{late:?}");
        assert!(drawn.br.get().is_none(), "nothing half-compressed is kept");
        let in_time = Deadline::after(Duration::from_secs(60));
        let made = drawn.clone().compressed(Encoding::Gzip, in_time).await.unwrap().unwrap();
        assert_eq!(Some(&made), drawn.gzip.get(), "kept for the next phone");
        assert!(made.len() < drawn.plain.len() / 10);
        // A small page is compressed where it is answered, at once (its deadline is the drawing's).
        let small = Arc::new(Drawn::of("<p>a page</p>\n".repeat(100)));
        assert!(small.plain.len() <= AT_ONCE);
        assert!(small.clone().compressed(Encoding::Br, Deadline::after(Duration::ZERO)).await.is_ok_and(|b| b.is_ok()));
        // Work of a route without a limit is never stopped.
        assert!(drawing(Deadline::NONE, || Ok(deadline::passed(0))).await.is_ok_and(|passed| !passed));
    }

    #[test]
    fn a_page_is_tagged_by_its_template_and_its_data() {
        let a = Tag::of_page("web/home.html", &("Spring", 3));
        assert_eq!(a, Tag::of_page("web/home.html", &("Spring", 3)));
        assert_ne!(a, Tag::of_page("web/home.html", &("Spring", 4)), "other data");
        assert_ne!(a, Tag::of_page("web/me.html", &("Spring", 3)), "another template");
    }
}
