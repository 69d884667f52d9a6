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
        let text = e.to_string();
        let message = text.lines().next().unwrap_or("error").to_string();
        ApiError { status, message }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
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
