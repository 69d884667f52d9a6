//! `GET /assets/NAME.HASH.EXT`: the pages' embedded styles and scripts (see [`crate::render::assets`]), kept by
//! phones for good since a changed file gets a new name.

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// How long a phone may keep an asset: a year, never asking again (its name changes with its content).
pub const FOREVER: &str = "public, max-age=31536000, immutable";

/// The embedded file at this address, or 404.
pub async fn file(Path(file): Path<String>) -> Response {
    match crate::render::assets::at(&format!("/assets/{file}")) {
        Some(a) => {
            let mut res = ([(header::CONTENT_TYPE, a.content_type)], a.body).into_response();
            res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(FOREVER));
            res
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// `GET /favicon.ico`: no icon, said without an error (browsers ask on every page; a 404 shows as an error).
pub async fn no_icon() -> StatusCode {
    StatusCode::NO_CONTENT
}
