//! What a phone need not be sent again: every read carries an ETag, made by its handler from what the answer was
//! built from, and answers 304 to an `If-None-Match` naming it; pages and reads are compressed (tower-http's layer:
//! brotli at level 4, gzip at level 6, set here, because brotli's default 11 takes seconds per page on two cores).
//!
//! The tags: a page's is the hash of the data its template draws (every field of the page's struct, the event's
//! header among them but not the server's now, which changes every moment and which a phone also takes from the
//! live stream's `hello`), with this server's start, since a new binary may draw the same data otherwise; a JSON
//! read's or a print's is the hash of the answer as its handler built it. The layer [`not_modified`] only compares
//! the tag its handler set with the phone's: it reads no body.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use blake2::{Blake2s256, Digest};
use std::sync::OnceLock;
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
        let mut hashing = Hashing(Blake2s256::new());
        hashing.0.update(started());
        hashing.0.update(name.as_bytes());
        hashing.0.update([0]);
        serde_json::to_writer(&mut hashing, data).ok()?;
        Some(Tag::of_hash(hashing.0))
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

/// Whether `If-None-Match` names `tag` (or is `*`); weak comparison, as a GET's is.
fn matches(headers: &HeaderMap, tag: &str) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim() == "*" || bare(t) == bare(tag)))
}

/// Answers 304 (its body dropped unread) when a read's answer carries the tag the phone names in `If-None-Match`.
pub async fn not_modified(req: Request, next: Next) -> Response {
    let go = matches!(*req.method(), Method::GET | Method::HEAD) && super::route::of(&req).etag;
    let asked = if go { req.headers().get_all(header::IF_NONE_MATCH).iter().cloned().collect() } else { Vec::new() };
    let res = next.run(req).await;
    if asked.is_empty() || res.status() != StatusCode::OK {
        return res;
    }
    let mut names = HeaderMap::new();
    for v in asked {
        names.append(header::IF_NONE_MATCH, v);
    }
    let Some(tag) = res.headers().get(header::ETAG).and_then(|v| v.to_str().ok()) else { return res };
    if !matches(&names, tag) {
        return res;
    }
    let (mut parts, _unread) = res.into_parts();
    parts.status = StatusCode::NOT_MODIFIED;
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::empty())
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
    fn a_page_is_tagged_by_its_template_and_its_data() {
        let a = Tag::of_page("web/home.html", &("Spring", 3));
        assert_eq!(a, Tag::of_page("web/home.html", &("Spring", 3)));
        assert_ne!(a, Tag::of_page("web/home.html", &("Spring", 4)), "other data");
        assert_ne!(a, Tag::of_page("web/me.html", &("Spring", 3)), "another template");
    }
}
