//! The one mapping from mmjudge's errors to HTTP: `Error::kind().http_status()` and `{"error": "one line"}`,
//! plus 429 for too many wrong PINs.

use crate::error::Error;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// An error answer: its status and its one-line message.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// One line, as the command line would print it (without `error: `).
    pub message: String,
}

impl ApiError {
    /// 429: too many tries; wait `secs` seconds.
    pub fn too_many(what: &str, secs: u64) -> Self {
        ApiError {
            status: StatusCode::TOO_MANY_REQUESTS,
            message: format!("too many wrong {what}: wait {secs} s and try again"),
        }
    }

    /// 500 for a failure of the server itself.
    pub fn internal(what: &str) -> Self {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("the server failed ({what}): try again"),
        }
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        let status = StatusCode::from_u16(e.kind().http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let text = e.web_message();
        let message = text.lines().next().unwrap_or("error").to_string();
        ApiError { status, message }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}

/// The one line for a body that is not the JSON expected, with what was wrong (serde's words, its backquoted
/// field names in double quotes: a phone never shows a backquote).
pub fn not_the_json(why: &str) -> String {
    format!("the request's body is not the JSON expected ({}): see docs/http.md", why.replace('`', "\""))
}

/// Runs blocking store work off the async threads; a panic or a cancelled task becomes a 500.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> crate::error::Result<T> + Send + 'static,
) -> Result<T, ApiError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(done) => done.map_err(ApiError::from),
        Err(_) => Err(ApiError::internal("a request's work stopped")),
    }
}

/// Every refused request in the site's own form, whatever answered it (a handler, or axum refusing a query
/// string, a path or a body before any handler ran): under `/api/` the JSON `{"error": "one line"}`, elsewhere
/// the HTML page with the site's navigation, each with the same status and the same one line.
pub async fn error_pages(
    axum::extract::State(app): axum::extract::State<super::Shared>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let path = req.uri().path().to_string();
    let res = next.run(req).await;
    if !res.status().is_client_error() || path.starts_with("/assets/") {
        return res;
    }
    let content_type =
        res.headers().get(axum::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let api = path == "/api" || path.starts_with("/api/");
    let is_json = content_type.starts_with("application/json");
    if content_type.starts_with("text/html") || (api && is_json) {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let bytes = axum::body::to_bytes(body, 64 * 1024).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let message = if is_json {
        serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(String::from))
            .unwrap_or_else(|| "the request was refused".into())
    } else {
        rejection_message(&text)
    };
    let status = parts.status;
    parts.headers.remove(axum::http::header::CONTENT_TYPE);
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    let answer = ApiError { status, message };
    let fresh = if api {
        answer.into_response()
    } else {
        match super::pages::error_page(&app, &answer).await {
            Ok(page) => page,
            Err(_) => answer.into_response(),
        }
    };
    let (fresh_parts, body) = fresh.into_parts();
    parts.headers.extend(fresh_parts.headers);
    Response::from_parts(parts, body)
}

/// The one line for a request axum refused before any handler ran (its own text names the field but not the
/// fix): a query string's field, a body sent without its content type, a path that is not a number.
pub fn rejection_message(text: &str) -> String {
    let first = text.lines().next().unwrap_or("").trim();
    if let Some(rest) = first.strip_prefix("Failed to deserialize query string: ") {
        let (field, why) = rest.split_once(": ").unwrap_or(("", rest));
        return match field {
            "round" => "round: give a round number such as 3".into(),
            "table" => "table: give a table number such as 3".into(),
            "" => format!("the address's query string is not the one expected ({why}): see docs/http.md"),
            _ => format!("{field}: {why} (see docs/http.md)"),
        };
    }
    if first.contains("Content-Type") {
        return "send the body as JSON with the header Content-Type: application/json".into();
    }
    if first.starts_with("Invalid URL") || first.starts_with("Wrong number of path arguments") {
        return "the address is not one of this site's: check it, or start from /".into();
    }
    if first.is_empty() { "the request was refused: see docs/http.md".into() } else { first.to_string() }
}
