//! The prints that are the site's pages (result slips, standings, note sheets, deck sheets: each drawn alone by
//! `ops::site::one_page`, as `site DIR` draws it), one table's note sheet and the curation report (as `notes
//! TABLE --html` and `pool check --html` write them), the site's stylesheet they link, and the whole site as a
//! zip download (`ops::site::archive`, the files `site DIR --judges` writes). Every judge may read them.

use super::print::{draw_print, drawn_print};
use crate::ops::site::{self, Audience, One};
use crate::render::note_sheet::NoteSheetPage;
use crate::render::pages::CurationPage;
use crate::web::kit::auth::Judge;
use crate::web::kit::extract::Query;
use crate::web::kit::request::ApiError;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};

/// `?round=N` of a print of the site (default: the round paired last, or for standings the last round played).
#[derive(Debug, Default, serde::Deserialize)]
pub struct RoundQuery {
    /// The round.
    pub round: Option<u32>,
}

/// `?table=N&round=N` of the note sheets: one table's sheet, or every table's of the round without `table`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct NotesQuery {
    /// The table (one sheet).
    pub table: Option<u32>,
    /// The round (default: the round paired last).
    pub round: Option<u32>,
}

/// One page of the site, as a print (it links the site's stylesheet, `/judge/print/style.css`), drawn within the
/// request's deadline as every print is.
async fn site_page(judge: Judge, one: One) -> Result<Response, ApiError> {
    drawn_print(&judge, false, move |store| Ok(Ok(site::one_page(store, one, &crate::render::site::Html)?.html))).await
}

/// `GET /judge/print/slips[?round=N]` (judges): the round's result slips, one a table, as the site's
/// `round-N-slips.html` (`mmjudge site DIR`).
pub async fn slips(judge: Judge, Query(q): Query<RoundQuery>) -> Result<Response, ApiError> {
    site_page(judge, One::Slips(q.round)).await
}

/// `GET /judge/print/standings[?round=N]` (judges): the standings after the last round played (or round N), as
/// the site's `round-N-standings.html`.
pub async fn standings(judge: Judge, Query(q): Query<RoundQuery>) -> Result<Response, ApiError> {
    site_page(judge, One::Standings(q.round)).await
}

/// `GET /judge/print/notes[?round=N]` (judges): every table's note sheet of the round, as the judges' site's
/// `round-N-notes.html`; with `table=N`, that table's sheet alone, as `mmjudge notes N --html FILE`.
pub async fn notes(judge: Judge, Query(q): Query<NotesQuery>) -> Result<Response, ApiError> {
    let Some(table) = q.table else {
        return site_page(judge, One::Notes(q.round)).await;
    };
    drawn_print(&judge, false, move |store| {
        let snapshot = store.snapshot()?;
        let sheet = crate::ops::table::records::sheet::note_sheet(&snapshot, table, q.round)?;
        let head = crate::ops::event::print_head(&snapshot)?;
        Ok(draw_print(&NoteSheetPage::of(&sheet, &head)))
    })
    .await
}

/// `GET /judge/print/decks` (judges): every library's deck sheet, as the judges' site's `decks.html`.
pub async fn decks(judge: Judge) -> Result<Response, ApiError> {
    site_page(judge, One::Decks).await
}

/// `GET /judge/print/curation` (judges): the pool's curation report, as `mmjudge pool check --html FILE`.
pub async fn curation(judge: Judge) -> Result<Response, ApiError> {
    drawn_print(&judge, false, |store| {
        let snapshot = store.snapshot()?;
        let (head, report) = (crate::ops::event::print_head(&snapshot)?, crate::ops::curation::pool_check(&snapshot)?);
        let page = CurationPage::new(&head, &report).with_curves(&crate::ops::library::curve::curves(&snapshot)?)?;
        Ok(draw_print(&page))
    })
    .await
}

/// `GET /judge/print/site.zip` (judges): the judges' site as one zip archive of stored files in a folder `site/`
/// (the files `mmjudge site DIR --judges` writes). Not held to the 10 s limit of other requests.
pub async fn site_zip(judge: Judge) -> Result<Response, ApiError> {
    let zip = judge.db.run(|store| site::archive(store, Audience::Judges, &crate::render::site::Html)).await?;
    let tag = crate::web::kit::drawn::Tag::of_bytes(&zip);
    let mut res = zip.into_response();
    tag.on(&mut res);
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/zip"));
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("attachment; filename=\"site.zip\""));
    Ok(res)
}

/// `GET /judge/print/style.css` (judges): the site's stylesheet, which its pages link.
pub async fn style(_judge: Judge) -> Response {
    let mut res = site::STYLE.into_response();
    crate::web::kit::drawn::Tag::of_bytes(site::STYLE.as_bytes()).on(&mut res);
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/css; charset=utf-8"));
    res
}

/// `GET /judge/print/index.html`: where the site's pages link their index: the prints.
pub async fn index_html() -> Redirect {
    Redirect::to("/judge/print")
}
