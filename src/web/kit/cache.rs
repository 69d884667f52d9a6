//! What a phone need not be sent again: every read carries an ETag, made by its handler from what the answer was
//! built from, and answers 304 to an `If-None-Match` naming it; pages and reads are compressed (tower-http's layer:
//! brotli at level 4, gzip at level 6, set here, because brotli's default 11 takes seconds per page on two cores).
//!
//! The tags: a page's is the hash of the data its template draws (every field of the page's struct, the event's
//! header among them but not the server's now, which changes every moment and which a phone also takes from the
//! live stream's `hello`), with this server's start, since a new binary may draw the same data otherwise; a JSON
//! read's or a print's is the hash of the answer as its handler built it. The layer [`not_modified`] only compares
//! the tag its handler set with the phone's: it reads no body.
//!
//! A page is drawn once per tag: [`super::page::page`] keeps what it drew ([`Drawn`]: the bytes plain, brotli'd
//! and gzipped, made when it is drawn) by its tag, and the same page asked again is not drawn or compressed again
//! (a thousand phones loading the same pairings). [`not_modified`] then puts the kept bytes the phone takes on the
//! answer in place of its body (unread), and the compression layers leave an answer already encoded as it is.

use axum::body::Body;
use axum::body::Bytes;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use blake2::{Blake2s256, Digest};
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use tower_http::compression::{CompressionLayer, CompressionLevel};

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

    /// The tag of a page drawn by template `name` from `data` (its struct: see [`super::page::Head`]'s serialised
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
            super::error::ApiError::internal_because("an answer could not be written", e.to_string()).into_response()
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
    plain: Bytes,
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
    fn br(&self) -> std::io::Result<Bytes> {
        self.made(&self.br, |plain| {
            let mut br = brotli::CompressorWriter::new(Vec::new(), 4096, BROTLI_LEVEL as u32, BROTLI_WINDOW);
            br.write_all(plain)?;
            br.flush()?;
            Ok(br.into_inner())
        })
    }

    /// Its bytes gzipped at [`GZIP_LEVEL`].
    fn gzip(&self) -> std::io::Result<Bytes> {
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
    /// [`not_modified`] to choose from.
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

/// Which of a page's kept bytes the phone takes (`Accept-Encoding`): brotli, else gzip, else plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Takes {
    Br,
    Gzip,
    Plain,
}

fn takes(headers: &HeaderMap) -> Takes {
    let mut out = Takes::Plain;
    for v in headers.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()) {
        for token in v.split(',') {
            let mut parts = token.split(';');
            let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let refused =
                parts.any(|p| p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()) == Some(0.0));
            match (name.as_str(), refused) {
                ("br", false) => return Takes::Br,
                ("gzip", false) => out = Takes::Gzip,
                _ => {}
            }
        }
    }
    out
}

/// Whether `If-None-Match` names `tag` (or is `*`); weak comparison, as a GET's is.
fn matches(headers: &HeaderMap, tag: &str) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim() == "*" || bare(t) == bare(tag)))
}

/// Answers 304 (its body dropped unread) when a read's answer carries the tag the phone names in `If-None-Match`;
/// else puts a drawn page's kept bytes in the encoding the phone takes in place of its body (unread).
pub async fn not_modified(req: Request, next: Next) -> Response {
    let go = matches!(*req.method(), Method::GET | Method::HEAD) && super::route::of(&req).etag;
    let mut asked = HeaderMap::new();
    if go {
        for v in req.headers().get_all(header::IF_NONE_MATCH) {
            asked.append(header::IF_NONE_MATCH, v.clone());
        }
    }
    let encoding = takes(req.headers());
    let res = next.run(req).await;
    let tag = res.headers().get(header::ETAG).and_then(|v| v.to_str().ok());
    if res.status() != StatusCode::OK || !tag.is_some_and(|tag| matches(&asked, tag)) {
        return encoded(res, encoding);
    }
    let (mut parts, _unread) = res.into_parts();
    parts.status = StatusCode::NOT_MODIFIED;
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::empty())
}

/// A drawn page's answer with the kept bytes the phone takes as its body; any other answer as it is.
fn encoded(mut res: Response, takes: Takes) -> Response {
    let Some(drawn) = res.extensions_mut().remove::<Arc<Drawn>>() else { return res };
    let (bytes, name) = match takes {
        Takes::Br => (drawn.br(), Some("br")),
        Takes::Gzip => (drawn.gzip(), Some("gzip")),
        Takes::Plain => (Ok(drawn.plain.clone()), None),
    };
    // A page that could not be compressed goes plain.
    let (bytes, name) = match bytes {
        Ok(bytes) => (bytes, name),
        Err(_) => (drawn.plain.clone(), None),
    };
    let headers = res.headers_mut();
    if let Some(name) = name {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(name));
    }
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
    headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    *res.body_mut() = Body::from(bytes);
    res
}

/// Brotli at [`BROTLI_LEVEL`] (the inner layer); an answer it compressed passes the gzip layer as it is.
pub fn brotli() -> CompressionLayer {
    CompressionLayer::new().no_gzip().no_deflate().no_zstd().quality(CompressionLevel::Precise(BROTLI_LEVEL))
}

/// Gzip at [`GZIP_LEVEL`], for phones that take no brotli.
pub fn gzip() -> CompressionLayer {
    CompressionLayer::new().no_br().no_deflate().no_zstd().quality(CompressionLevel::Precise(GZIP_LEVEL))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_compares_weakly_and_takes_lists_and_star() {
        let tag = Tag::of_bytes(b"pairings");
        let tag = tag.as_str();
        let mut h = HeaderMap::new();
        assert!(!matches(&h, tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(&format!("\"x\", {tag}")).unwrap());
        assert!(matches(&h, tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(tag.trim_start_matches("W/")).unwrap());
        assert!(matches(&h, tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("*"));
        assert!(matches(&h, tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("W/\"other\""));
        assert!(!matches(&h, tag));
        assert_ne!(Tag::of_bytes(b"a"), Tag::of_bytes(b"b"));
    }

    #[test]
    fn the_encoding_a_phone_takes_is_read_from_accept_encoding() {
        let of = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(v).unwrap());
            takes(&h)
        };
        assert_eq!(of("gzip, deflate, br"), Takes::Br);
        assert_eq!(of("gzip"), Takes::Gzip);
        assert_eq!(of("br;q=0, gzip;q=0.5"), Takes::Gzip);
        assert_eq!(of("identity"), Takes::Plain);
        assert_eq!(takes(&HeaderMap::new()), Takes::Plain);
    }

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
