//! The pages' styles and scripts, embedded in the binary (nothing is loaded from the internet: the venue may
//! have none), and the browsers' question for an icon.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

const APP_CSS: &str = include_str!("../../templates/web/app.css");
const APP_JS: &str = include_str!("../../templates/web/app.js");
const TABLE_CSS: &str = include_str!("../../templates/web/table.css");
const TABLE_JS: &str = include_str!("../../templates/web/table.js");
const PROJECTOR_CSS: &str = include_str!("../../templates/web/projector.css");
const PROJECTOR_JS: &str = include_str!("../../templates/web/projector.js");

fn css(text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], text).into_response()
}

fn script(text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], text).into_response()
}

/// `GET /assets/app.css`.
pub async fn app_css() -> Response {
    css(APP_CSS)
}

/// `GET /assets/app.js`.
pub async fn app_js() -> Response {
    script(APP_JS)
}

/// `GET /assets/table.css`.
pub async fn table_css() -> Response {
    css(TABLE_CSS)
}

/// `GET /assets/table.js`.
pub async fn table_js() -> Response {
    script(TABLE_JS)
}

/// `GET /assets/projector.css`.
pub async fn projector_css() -> Response {
    css(PROJECTOR_CSS)
}

/// `GET /assets/projector.js`.
pub async fn projector_js() -> Response {
    script(PROJECTOR_JS)
}

/// `GET /favicon.ico`: no icon, said without an error (browsers ask on every page; a 404 shows as an error).
pub async fn no_icon() -> StatusCode {
    StatusCode::NO_CONTENT
}
