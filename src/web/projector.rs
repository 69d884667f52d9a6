//! The live projector page (`GET /projector`) and its JSON (`GET /api/projector`): the round and its clock,
//! deck inspection, the decision limit in force, the tables with extensions and over time, and a QR code of
//! the players' site. The page re-reads itself on every live update; between updates its script counts down
//! against the absolute instants it holds and switches phase by itself.

use crate::ops::projector::{self, Projector};
use crate::ops::table::clocks::clock::clock_text;
use crate::render::deadline::draw;
use crate::time::unstamp;
use crate::web::kit::drawn::{self, Deadline};
use crate::web::kit::page::page;
use crate::web::kit::request::ApiError;
use crate::web::kit::state::Db;
use askama::Template;
use axum::http::StatusCode;
use axum::response::Response;
use chrono::{DateTime, Utc};

#[derive(Template, serde::Serialize)]
#[template(path = "web/projector.html")]
struct ProjectorPage {
    #[serde(serialize_with = "crate::web::kit::drawn::without_now")]
    view: Projector,
    /// The players' site address.
    site: String,
    /// Its QR code as inline SVG (drawn here from the address; nothing a user typed).
    qr: String,
    /// What the big clock counts ("Deck inspection — time left", "Round time left", "Time"...).
    label: String,
    /// The big clock at the server's now (the script keeps it running).
    left: String,
    /// The line under it: when the round's clock starts, when time is called.
    ends: String,
    /// The round's byes, by player.
    byes: Vec<String>,
    /// The standby its head names (the projector says no laptop's notice: it is read from afar).
    laptop: crate::web::kit::page::Laptop,
    /// The round's progress drawn, with its numbers, as the dashboard draws it (once its clock started).
    progress: Option<(String, Vec<(String, String)>)>,
}

/// The big clock's words at the view's instant (the page's script redraws them every second, local times).
fn headline(view: &Projector) -> (String, String, String) {
    let Some(r) = &view.round else { return Default::default() };
    if let Some(end) = &view.finished {
        return ("The event is over".into(), String::new(), format!("{}.", end.winner_words()));
    }
    let at = |s: Option<&String>| s.and_then(|s| unstamp(s).ok());
    let Some(now) = at(Some(&view.now)) else { return Default::default() };
    let hm = |t: DateTime<Utc>| t.format("%H:%M").to_string();
    let left = |t: DateTime<Utc>| clock_text(t - now);
    let (start, end, window) = (at(r.started_at.as_ref()), at(r.ends_at.as_ref()), at(r.final_window_at.as_ref()));
    let called = match (end, window) {
        (Some(e), Some(w)) => format!("Time is called at {}; final window from {}", hm(e), hm(w)),
        _ => String::new(),
    };
    match (r.phase, at(r.inspection_from.as_ref()), at(r.inspection_until.as_ref()), start, end) {
        ("paired", ..) => ("Paired".into(), String::new(), "The round's clock has not started.".into()),
        ("closed", ..) if r.finished < r.tables => (
            "Round over".into(),
            "TIME".into(),
            format!("Time is called at every table still playing; {} of {} tables finished.", r.finished, r.tables),
        ),
        ("closed", ..) => {
            ("Round over".into(), String::new(), format!("{} of {} tables finished.", r.finished, r.tables))
        }
        ("inspection", Some(from), Some(until), ..) if now < from => {
            ("Deck inspection starts in".into(), left(from), format!("The round's clock starts at {}", hm(until)))
        }
        ("inspection", _, Some(until), ..) => {
            ("Deck inspection — time left".into(), left(until), format!("The round's clock starts at {}", hm(until)))
        }
        (_, _, _, Some(s), _) if now < s => ("Round starts in".into(), left(s), called),
        (_, _, _, _, Some(e)) if now >= e => {
            ("Finish the turn, then the higher life total wins".into(), "TIME".into(), called)
        }
        (_, _, _, _, Some(e)) => ("Round time left".into(), left(e), called),
        _ => Default::default(),
    }
}

/// The QR code of `url` as an inline `<svg>` element (no XML declaration), or nothing when it cannot be drawn.
fn qr_svg(url: &str) -> String {
    let Some(svg) = crate::render::qr::svg(url) else { return String::new() };
    match svg.find("<svg") {
        Some(at) => svg[at..].to_string(),
        None => String::new(),
    }
}

/// `GET /projector`: the room's projector page (its QR code and chart drawn in the blocking pool with the read,
/// within the request's deadline).
pub async fn page_handler(db: Db, deadline: Deadline) -> Result<Response, ApiError> {
    let site = db.app().site.clone();
    let address = site.clone();
    let (view, byes, qr, progress) = db
        .run(move |store| {
            let byes: Vec<String> = crate::ops::live::round_byes(store, None)?.into_iter().map(|b| b.player).collect();
            let view = projector::projector(store, crate::time::now()?)?;
            Ok(drawn::drawn(deadline, move || {
                let progress = match view.round.as_ref().and_then(|r| r.progress.as_ref()) {
                    Some(p) if view.finished.is_none() => {
                        let chart = crate::render::progress::ProgressChart::new(p);
                        let html = draw(&chart).map_err(|_| ApiError::internal("the round's progress"))?;
                        Some((html, chart.numbers()))
                    }
                    _ => None,
                };
                Ok((view, byes, qr_svg(&address), progress))
            }))
        })
        .await??;
    let (label, left, ends) = headline(&view);
    let laptop = crate::web::kit::page::Laptop::of(db.app());
    Ok(page(deadline, StatusCode::OK, ProjectorPage { view, site, qr, label, left, ends, byes, laptop, progress })
        .await)
}

/// `GET /api/projector`: what the projector shows, with the players' site address.
pub async fn api(db: Db) -> Result<Response, ApiError> {
    let site = db.app().site.clone();
    let view = db.run(|store| projector::projector(store, crate::time::now()?)).await?;
    let mut doc = serde_json::to_value(&view).map_err(|_| ApiError::internal("the projector's view"))?;
    if let Some(map) = doc.as_object_mut() {
        map.insert("site".into(), serde_json::Value::String(site));
    }
    Ok(crate::web::kit::page::json(&doc))
}
