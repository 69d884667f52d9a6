//! The router: every route to its handler module, and the layers every answer passes (see
//! [`crate::web::kit::layers`] and [`crate::web::kit::log`]).

use crate::web::kit::error::BODY_LIMIT;
use crate::web::kit::log;
use crate::web::kit::player::by_code;
use crate::web::kit::state::Shared;
use crate::web::kit::{advertise, cache, layers};
use crate::web::{assets, device, head, judges, players, projector, setup, sse, standby};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::routing::{get, post};

/// The whole server.
pub fn router(app: Shared) -> Router {
    Router::new()
        .route("/", get(players::home))
        .route("/me", get(players::me))
        .route("/pairings", get(players::pairings))
        .route("/clock", get(players::clock))
        .route("/projector", get(projector::page_handler))
        .route("/api/projector", get(projector::api))
        .route("/standings", get(players::standings_page))
        .route("/api/standings", get(players::api_standings))
        .route("/api/pairings", get(players::api_pairings))
        .route("/api/results", get(players::api_results))
        .route("/api/round/pair", post(head::pair))
        .route("/login", get(judges::login_form).post(judges::login_submit))
        .route("/logout", post(judges::logout_submit))
        .route("/judge", get(judges::dashboard))
        .route("/judge/players", get(judges::roster::page_handler))
        .route("/judge/print", get(judges::print::index))
        .route("/judge/print/codes", get(judges::print::codes))
        .route("/judge/print/pairings", get(judges::print::pairings))
        .route("/judge/print/pairings/wall", get(judges::print::wall))
        .route("/judge/print/slips", get(judges::print_site::slips))
        .route("/judge/print/standings", get(judges::print_site::standings))
        .route("/judge/print/notes", get(judges::print_site::notes))
        .route("/judge/print/decks", get(judges::print_site::decks))
        .route("/judge/print/curation", get(judges::print_site::curation))
        .route("/judge/print/site.zip", get(judges::print_site::site_zip))
        .route("/judge/print/style.css", get(judges::print_site::style))
        .route("/judge/print/index.html", get(judges::print_site::index_html))
        .route("/assets/{file}", get(assets::file))
        .route("/favicon.ico", get(assets::no_icon))
        .route("/api/time", get(players::time))
        .route("/api/tables", get(players::tables))
        .route("/api/me", get(players::api_me))
        .route("/api/judge", get(judges::dashboard_api))
        .route("/api/login", post(judges::login))
        .route("/api/logout", post(judges::logout))
        .route("/judge/table/{n}", get(judges::table::page))
        .route("/api/result", post(judges::writes::result))
        .route("/api/result/fix", post(head::fix_result))
        .route("/api/note", by_code(device::note, judges::writes::note))
        .route("/api/note/undo", post(device::undo))
        .route("/api/player/code", post(device::whose))
        .route("/table/{n}", get(device::page))
        .route("/api/table/{n}/notes", get(device::notes))
        .route("/api/cards/cost", get(device::complete))
        .route("/api/challenge", post(judges::writes::challenge))
        .route("/api/challenge/evidence", post(judges::writes::challenge_evidence))
        .route("/api/penalty", post(judges::writes::penalty))
        .route("/api/penalty/preview", get(judges::table::penalty_preview))
        .route("/api/ruling", post(judges::writes::ruling))
        .route("/api/extend", post(judges::writes::extend))
        .route("/api/clock/start", by_code(device::clock_start, judges::writes::clock_start))
        .route("/api/clock/stop", by_code(device::clock_stop, judges::writes::clock_stop))
        .route("/api/clock/hand-over", post(device::clock_hand_over))
        .route("/api/clock/pass", post(device::clock_hand_over))
        .route("/api/round/start", post(head::round_start))
        .route("/api/round/end", post(head::round_end))
        .route("/api/void", post(head::void))
        .route("/api/result/clear", post(head::clear_result))
        .route("/api/event/set", post(head::event_set))
        .route("/api/self-report", post(players::self_report))
        .route("/api/self-report/confirm", post(players::confirm_report))
        .route("/api/check-in", post(players::check_in))
        .route("/api/player/check-in", post(judges::check_in::check_in))
        .route("/api/player/add", post(judges::players::add))
        .route("/api/player/drop", post(judges::players::drop))
        .route("/api/player/undrop", post(judges::players::undrop))
        .route("/api/player/rename", post(judges::players::rename))
        .route("/api/player/remove", post(judges::players::remove))
        .route("/api/player/code/new", post(judges::players::new_code))
        .route("/api/round/swap", post(head::swap))
        .route("/api/round/unpair", post(head::unpair))
        .route("/api/round/reopen", post(head::reopen))
        .route("/api/library/add-tables", post(head::add_tables))
        .route("/api/call", post(players::call))
        .route("/api/call/close", post(judges::writes::close_call))
        .route("/setup", get(setup::page))
        .route("/api/setup", post(setup::create))
        .route("/api/judge/add", post(setup::judges::add))
        .route("/api/judge/pin", post(setup::judges::pin))
        .route("/api/judge/remove", post(setup::judges::remove))
        .fallback(players::not_found)
        .layer(middleware::from_fn_with_state(app.clone(), layers::error_pages))
        .layer(middleware::from_fn(layers::timeout))
        // On a standby every write is refused until promoted; with --standby-required a write's answer waits for
        // the standby (inside the compression layers: it adds to the JSON answer).
        .layer(middleware::from_fn_with_state(app.clone(), crate::web::kit::following::gate))
        // A standby's pages, and an old primary's, say so first (inside the ETag's layer: the tag covers it).
        .layer(middleware::from_fn_with_state(app.clone(), crate::web::kit::following::notice))
        // A primary's pages name its standby (inside the ETag's layer: the tag covers it).
        .layer(middleware::from_fn_with_state(app.clone(), advertise::advertise))
        .layer(middleware::from_fn(cache::etag))
        .layer(cache::brotli())
        .layer(cache::gzip())
        .layer(middleware::from_fn_with_state(cache::Shared::default(), cache::keep))
        // The live stream and the standby's routes pass no compression layer (events are not compressed, and each
        // layer's body holds an encoder's room for the stream's whole life: 12 KB a phone), nor the ETag's.
        .route("/events", get(sse::live))
        .route("/api/standby/log", get(standby::log))
        .route("/api/standby/copy", get(standby::copy))
        .route("/api/standby/ack", post(standby::ack))
        .route("/api/standby/whoami", get(standby::whoami))
        .route("/api/standby/status", get(standby::status))
        .route("/api/standby/detach", post(standby::detach))
        // CORS on the few routes a page uses on the standby (its whoami among them).
        .layer(middleware::from_fn(advertise::cors))
        // `serve --new`: every address but the set-up's says so until the event exists.
        .layer(middleware::from_fn_with_state(app.clone(), crate::web::kit::layers::setup_gate))
        .layer(middleware::from_fn(layers::headers))
        .layer(middleware::from_fn(layers::device))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // Before anything may answer 503 or 429: when a write that may carry a moment first arrived.
        .layer(middleware::from_fn_with_state(app.clone(), layers::first_arrival))
        .layer(middleware::from_fn(log::requests))
        .with_state(app)
}
