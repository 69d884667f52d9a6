//! A file sent as a request's whole body (the imports of the head judge's set-up page): up to [`UPLOAD_LIMIT`],
//! outside the [`super::error::BODY_LIMIT`] and the time limit of every other route, streamed to a file of its
//! own in the system's temporary folder (removed once its job ended) rather than held in memory.

use super::error::ApiError;
use super::jobs::Upload;
use axum::body::Body;
use axum::http::{HeaderMap, StatusCode, header};
use std::io::Write;
use tokio_stream::StreamExt;

/// The largest file accepted: MTGJSON's AtomicCards (about 100 MB) with room to spare.
pub const UPLOAD_LIMIT: u64 = 200 * 1024 * 1024;

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the file is too large (at most {} MB): choose the right file", UPLOAD_LIMIT / (1024 * 1024)),
    )
}

/// The file's name as shown in messages: the one given (its last part, without folders), else `the file`.
fn shown(name: Option<&str>) -> String {
    let name = name.map(|n| n.rsplit(['/', '\\']).next().unwrap_or(n).trim()).unwrap_or_default();
    let clean: String = name.chars().filter(|c| !c.is_control()).take(120).collect();
    if clean.is_empty() { "the file".into() } else { clean }
}

/// Receives the body into a new temporary file; refuses an empty body (400) or one over [`UPLOAD_LIMIT`]
/// (413, as soon as its length says so), leaving no file behind.
pub async fn receive(headers: &HeaderMap, body: Body, name: Option<&str>) -> Result<Upload, ApiError> {
    let said = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if said.is_some_and(|n| n > UPLOAD_LIMIT) {
        return Err(too_large());
    }
    let path = std::env::temp_dir().join(format!("mmjudge-upload-{}", super::auth::new_login_token()));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| ApiError::internal_because("receiving the file", format!("{}: {e}", path.display())))?;
    // From here on the file is removed when the upload is dropped (a refusal, a broken connection).
    let mut upload = Upload { path, shown: shown(name), bytes: 0 };
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, file);
    let mut stream = body.into_data_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "the file did not arrive whole (the connection broke): send it again",
            )
        })?;
        upload.bytes += chunk.len() as u64;
        if upload.bytes > UPLOAD_LIMIT {
            return Err(too_large());
        }
        out.write_all(&chunk).map_err(|e| ApiError::internal_because("receiving the file", e.to_string()))?;
    }
    out.flush().map_err(|e| ApiError::internal_because("receiving the file", e.to_string()))?;
    if upload.bytes == 0 {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "no file was sent: choose the file, then send it"));
    }
    Ok(upload)
}
