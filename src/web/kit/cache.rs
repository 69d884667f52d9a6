//! What a phone need not be sent again: every read carries an ETag (a hash of its body) and answers 304 to an
//! `If-None-Match` naming it; pages and reads are compressed (tower-http's layer: brotli at level 4, gzip at level
//! 6, set here, because brotli's default 11 takes seconds per page on two cores), and the compressed bytes of a
//! page are kept by (path, query, ETag, encoding), so that a thousand phones loading the same pairings compress them
//! once.
//!
//! The layers, innermost first: [`etag`] (hashes, answers 304), [`compression`] (brotli, then gzip for phones that
//! take no brotli), [`keep`] (serves and keeps compressed bytes).

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use blake2::{Blake2s256, Digest};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tower_http::compression::{CompressionLayer, CompressionLevel};

/// The largest body hashed for an ETag (and kept compressed); larger answers are sent as they are.
const LARGEST: usize = 8 * 1024 * 1024;

/// Brotli's level: 4 compresses a page of pairings in milliseconds, within a few per cent of 11.
pub const BROTLI_LEVEL: i32 = 4;
/// Gzip's level (the usual 6), for phones that take no brotli.
pub const GZIP_LEVEL: i32 = 6;

/// The attribute a page carries the server's now in (`data-now="…"`).
const NOW: &[u8] = b"data-now=\"";

/// The ETag of a body: weak (`W/"…"`), since the same body is sent compressed or not. A page's server's now
/// (its `data-now` attributes) is left out: a page that differs only in it is the same page (a phone takes the
/// server's now from the live stream's `hello` too). A JSON read that carries the server's now is new each time.
pub fn tag_of(body: &[u8]) -> String {
    let mut hash = Blake2s256::new();
    let mut rest = body;
    while let Some(at) = rest.windows(NOW.len()).position(|w| w == NOW) {
        let from = at + NOW.len();
        hash.update(&rest[..from]);
        let Some(close) = rest[from..].iter().position(|&b| b == b'"') else {
            rest = &rest[from..];
            break;
        };
        rest = &rest[from + close..];
    }
    hash.update(rest);
    let hash = hash.finalize();
    let hex: String = hash.iter().take(10).map(|b| format!("{b:02x}")).collect();
    format!("W/\"{hex}\"")
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

/// Tags a read's answer with the hash of its body, and answers 304 (no body) when the phone has it already.
pub async fn etag(req: Request, next: Next) -> Response {
    // Reads (GET and HEAD) of the routes that take one: not the live stream, the assets (their names carry their
    // content's hash already) or the standby's streams.
    let go = matches!(*req.method(), Method::GET | Method::HEAD) && super::route::of(&req).etag;
    let asked = req.headers().clone();
    let res = next.run(req).await;
    if !go || res.status() != StatusCode::OK || res.headers().contains_key(header::ETAG) {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, LARGEST).await else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "the answer could not be read").into_response();
    };
    let tag = tag_of(&bytes);
    if let Ok(v) = HeaderValue::from_str(&tag) {
        parts.headers.insert(header::ETAG, v);
    }
    if matches(&asked, &tag) {
        parts.status = StatusCode::NOT_MODIFIED;
        parts.headers.remove(header::CONTENT_TYPE);
        parts.headers.remove(header::CONTENT_LENGTH);
        return Response::from_parts(parts, Body::empty());
    }
    Response::from_parts(parts, Body::from(bytes))
}

/// Brotli at [`BROTLI_LEVEL`] (the inner layer); an answer it compressed passes the gzip layer as it is.
pub fn brotli() -> CompressionLayer {
    CompressionLayer::new().no_gzip().no_deflate().no_zstd().quality(CompressionLevel::Precise(BROTLI_LEVEL))
}

/// Gzip at [`GZIP_LEVEL`], for phones that take no brotli.
pub fn gzip() -> CompressionLayer {
    CompressionLayer::new().no_br().no_deflate().no_zstd().quality(CompressionLevel::Precise(GZIP_LEVEL))
}

/// The kept compressed answers, shared by every request.
pub type Shared = Arc<Mutex<Kept>>;

/// A kept compressed answer's key: path, query, ETag, encoding.
type Key = (String, String, String, String);

/// The compressed bytes of the latest answers, by [`Key`]; the oldest go first past [`Kept::ENTRIES`] entries or
/// [`Kept::BYTES`] bytes.
#[derive(Default)]
pub struct Kept {
    entries: HashMap<Key, Bytes>,
    order: VecDeque<Key>,
    bytes: usize,
}

impl Kept {
    /// The most answers kept.
    pub const ENTRIES: usize = 64;
    /// The most bytes kept.
    pub const BYTES: usize = 8 * 1024 * 1024;

    fn get(&self, key: &Key) -> Option<Bytes> {
        self.entries.get(key).cloned()
    }

    fn put(&mut self, key: Key, bytes: Bytes) {
        if bytes.len() > Self::BYTES / 4 || self.entries.contains_key(&key) {
            return;
        }
        self.bytes += bytes.len();
        self.entries.insert(key.clone(), bytes);
        self.order.push_back(key);
        while self.entries.len() > Self::ENTRIES || self.bytes > Self::BYTES {
            let Some(old) = self.order.pop_front() else { break };
            if let Some(b) = self.entries.remove(&old) {
                self.bytes -= b.len();
            }
        }
    }
}

/// Serves a compressed answer from the kept bytes when the same page with the same ETag was compressed the same
/// way before (the compressing body is dropped unread: nothing is compressed again), and keeps what it compresses.
pub async fn keep(State(store): State<Shared>, req: Request, next: Next) -> Response {
    let (path, query) = (req.uri().path().to_string(), req.uri().query().unwrap_or("").to_string());
    let res = next.run(req).await;
    let (Some(tag), Some(encoding)) = (
        res.headers().get(header::ETAG).and_then(|v| v.to_str().ok()),
        res.headers().get(header::CONTENT_ENCODING).and_then(|v| v.to_str().ok()),
    ) else {
        return res;
    };
    if res.status() != StatusCode::OK {
        return res;
    }
    let key: Key = (path, query, tag.to_string(), encoding.to_string());
    let (mut parts, body) = res.into_parts();
    let kept = store.lock().ok().and_then(|k| k.get(&key));
    let bytes = match kept {
        Some(bytes) => bytes,
        None => {
            let Ok(bytes) = axum::body::to_bytes(body, LARGEST).await else {
                return (StatusCode::INTERNAL_SERVER_ERROR, "the answer could not be compressed").into_response();
            };
            if let Ok(mut k) = store.lock() {
                k.put(key, bytes.clone());
            }
            bytes
        }
    };
    parts.headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_compares_weakly_and_takes_lists_and_star() {
        let tag = tag_of(b"pairings");
        let mut h = HeaderMap::new();
        assert!(!matches(&h, &tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(&format!("\"x\", {tag}")).unwrap());
        assert!(matches(&h, &tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(tag.trim_start_matches("W/")).unwrap());
        assert!(matches(&h, &tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("*"));
        assert!(matches(&h, &tag));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("W/\"other\""));
        assert!(!matches(&h, &tag));
        assert_ne!(tag_of(b"a"), tag_of(b"b"));
        let page = |now: &str, body: &str| format!("<span data-now=\"{now}\"></span><main>{body}</main>");
        let a = tag_of(page("2026-01-01T10:00:00.000Z", "x").as_bytes());
        assert_eq!(a, tag_of(page("2026-01-01T10:00:09.123Z", "x").as_bytes()), "the server's now aside");
        assert_ne!(a, tag_of(page("2026-01-01T10:00:00.000Z", "y").as_bytes()));
        assert_ne!(tag_of(b"data-now=\"1"), tag_of(b"data-now=\"2"), "an attribute left open is hashed");
    }

    #[test]
    fn the_oldest_kept_answers_go_first() {
        let mut k = Kept::default();
        let key = |i: usize| (format!("/p{i}"), String::new(), "t".to_string(), "br".to_string());
        for i in 0..Kept::ENTRIES + 3 {
            k.put(key(i), Bytes::from_static(b"x"));
        }
        assert!(k.get(&key(0)).is_none() && k.get(&key(2)).is_none());
        assert!(k.get(&key(3)).is_some() && k.get(&key(Kept::ENTRIES + 2)).is_some());
        assert_eq!(k.entries.len(), Kept::ENTRIES);
    }
}
