//! The one table of routes: every address the server answers, what is true of it ([`Route`]: the name its writes
//! are audited under, whether a write of it may claim its moment, whether pages on the standby reach it, whether
//! its reads carry an ETag, whether it takes a file or more time...), and its handler. The router is built from
//! it; the layers and extractors read a request's [`Route`] (put on it by [`layers::facts`]), and pages are given
//! what they need of it (`data-takes-at`). No other module names a route (`tests/cli/layering.rs` checks).

use crate::ops::write_keys::Timed;
use crate::replica::wire;
use crate::web::kit::extract::{by_code, players_by_code};
use crate::web::kit::jobs;
use crate::web::kit::request::BODY_LIMIT;
use crate::web::kit::request::Route;
use crate::web::kit::state::Shared;
use crate::web::{
    assets, device, head, judges, me_decisions, player_writes, players, projector, setup, sse, standby, standings_chart,
};
use crate::web::{laptops as second_laptop, layers};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::routing::{MethodRouter, get, post};

/// Every route with its handler.
fn table() -> Vec<(Route, MethodRouter<Shared>)> {
    vec![
        (read("/"), get(players::home)),
        (read("/me"), get(players::me)),
        (read("/me/decisions"), get(me_decisions::page_handler)),
        (read("/pairings"), get(players::pairings)),
        (read("/clock"), get(players::clock)),
        (read("/projector"), get(projector::page_handler)),
        (read("/api/projector"), get(projector::api)),
        (read("/standings"), get(players::standings_page)),
        (read("/standings/rounds"), get(standings_chart::page_handler)),
        (read("/api/standings"), get(players::api_standings)),
        (read("/api/pairings"), get(players::api_pairings)),
        (read("/api/results"), get(players::api_results)),
        (write("/api/round/pair", "POST /api/round/pair"), post(head::pair)),
        (
            Route { checks_only: true, etag: true, ..session("/login", "POST /login") },
            get(judges::login_form).post(judges::login_submit),
        ),
        (session("/logout", "POST /logout"), post(judges::logout_submit)),
        (judges_read("/judge"), get(judges::dashboard)),
        (judges_read("/judge/players"), get(judges::roster::page_handler)),
        (judges_read("/judge/decisions"), get(judges::decisions::page_handler)),
        (judges_read("/judge/print"), get(judges::print::index)),
        (judges_read("/judge/setup"), get(setup::steps::page_handler)),
        (judges_read("/judge/print/codes"), get(judges::print::codes)),
        (judges_read("/judge/print/pairings"), get(judges::print::pairings)),
        (judges_read("/judge/print/pairings/wall"), get(judges::print::wall)),
        (judges_read("/judge/print/slips"), get(judges::print_site::slips)),
        (judges_read("/judge/print/standings"), get(judges::print_site::standings)),
        (judges_read("/judge/print/notes"), get(judges::print_site::notes)),
        (judges_read("/judge/print/decks"), get(judges::print_site::decks)),
        (judges_read("/judge/print/curation"), get(judges::print_site::curation)),
        (Route { unlimited: true, ..judges_read("/judge/print/site.zip") }, get(judges::print_site::site_zip)),
        (judges_read("/judge/print/style.css"), get(judges::print_site::style)),
        (judges_read("/judge/print/index.html"), get(judges::print_site::index_html)),
        (Route { before_setup: true, ..Route::new("/assets/{file}", "/assets/{file}") }, get(assets::file)),
        (Route { before_setup: true, ..read("/favicon.ico") }, get(assets::no_icon)),
        (Route { cors: true, ..read(wire::TIME) }, get(players::time)),
        (read("/api/tables"), get(players::tables)),
        (read("/api/me"), get(players::api_me)),
        (judges_read("/api/judge"), get(judges::dashboard_api)),
        (Route { checks_only: true, ..session("/api/login", "POST /api/login") }, post(judges::login)),
        (session("/api/logout", "POST /api/logout"), post(judges::logout)),
        (judges_read("/judge/table/{n}"), get(judges::table::page)),
        (write("/api/result", "POST /api/result"), post(judges::writes::result)),
        (write("/api/result/fix", "POST /api/result/fix"), post(head::fix_result)),
        (timed("/api/note", "POST /api/note", Timed::Declaration), by_code(device::note, judges::writes::note)),
        (cors_write("/api/note/undo", "POST /api/note/undo"), players_by_code(device::undo)),
        (Route { checks_only: true, ..write("/api/player/code", "POST /api/player/code") }, post(device::whose)),
        (read("/table/{n}"), get(device::page)),
        (read("/api/table/{n}/notes"), get(device::notes)),
        (read("/api/cards/cost"), get(device::complete)),
        (write("/api/challenge", "POST /api/challenge"), post(judges::writes::challenge)),
        (write("/api/challenge/evidence", "POST /api/challenge/evidence"), post(judges::writes::challenge_evidence)),
        (write("/api/penalty", "POST /api/penalty"), post(judges::writes::penalty)),
        (read("/api/penalty/preview"), get(judges::table::penalty_preview)),
        (write("/api/ruling", "POST /api/ruling"), post(judges::writes::ruling)),
        (write("/api/extend", "POST /api/extend"), post(judges::writes::extend)),
        (
            timed("/api/clock/start", "POST /api/clock/start", Timed::DecisionStart),
            by_code(device::clock_start, judges::writes::clock_start),
        ),
        (
            timed("/api/clock/stop", "POST /api/clock/stop", Timed::DecisionEnd),
            by_code(device::clock_stop, judges::writes::clock_stop),
        ),
        (timed("/api/clock/hand-over", "POST /api/clock/hand-over", Timed::DecisionEnd), post(device::clock_hand_over)),
        (timed("/api/clock/pass", "POST /api/clock/hand-over", Timed::DecisionEnd), post(device::clock_hand_over)),
        (write("/api/round/start", "POST /api/round/start"), post(head::round_start)),
        (write("/api/round/end", "POST /api/round/end"), post(head::round_end)),
        (write("/api/void", "POST /api/void"), post(head::void)),
        (write("/api/result/clear", "POST /api/result/clear"), post(head::clear_result)),
        (write("/api/event/set", "POST /api/event/set"), post(head::event_set)),
        (cors_write("/api/self-report", "POST /api/self-report"), players_by_code(player_writes::self_report)),
        (
            cors_write("/api/self-report/confirm", "POST /api/self-report/confirm"),
            players_by_code(player_writes::confirm_report),
        ),
        (
            cors_write("/api/self-report/dispute", "POST /api/self-report/dispute"),
            players_by_code(player_writes::dispute_report),
        ),
        (cors_write("/api/check-in", "POST /api/check-in"), post(player_writes::check_in)),
        (write("/api/player/check-in", "POST /api/player/check-in"), post(judges::check_in::check_in)),
        (write("/api/player/add", "POST /api/player/add"), post(judges::players::add)),
        (write("/api/player/drop", "POST /api/player/drop"), post(judges::players::drop)),
        (write("/api/player/undrop", "POST /api/player/undrop"), post(judges::players::undrop)),
        (write("/api/player/rename", "POST /api/player/rename"), post(judges::players::rename)),
        (write("/api/player/remove", "POST /api/player/remove"), post(judges::players::remove)),
        (write("/api/player/seat", "POST /api/player/seat"), post(judges::players::seat)),
        (write("/api/player/code/new", "POST /api/player/code/new"), post(judges::players::new_code)),
        (write("/api/round/swap", "POST /api/round/swap"), post(head::swap)),
        (write("/api/round/unpair", "POST /api/round/unpair"), post(head::unpair)),
        (write("/api/round/reopen", "POST /api/round/reopen"), post(head::reopen)),
        (write("/api/library/add-tables", "POST /api/library/add-tables"), post(head::add_tables)),
        (cors_write("/api/call", "POST /api/call"), players_by_code(player_writes::call)),
        (write("/api/call/close", "POST /api/call/close"), post(judges::writes::close_call)),
        (Route { before_setup: true, ..read("/setup") }, get(setup::page)),
        (Route { before_setup: true, ..write("/api/setup", "POST /api/setup") }, post(setup::create)),
        (Route { judges: true, ..write("/api/judge/add", "POST /api/judge/add") }, post(setup::judges::add)),
        (Route { judges: true, ..write("/api/judge/pin", "POST /api/judge/pin") }, post(setup::judges::pin)),
        (Route { judges: true, ..write("/api/judge/remove", "POST /api/judge/remove") }, post(setup::judges::remove)),
        (upload("/api/cards/import", "POST /api/cards/import"), post(setup::imports::cards)),
        (upload("/api/cards/import-rulings", "POST /api/cards/import-rulings"), post(setup::imports::rulings)),
        (upload("/api/pool/import", "POST /api/pool/import"), post(setup::imports::pool)),
        (upload("/api/player/import", "POST /api/player/import"), post(setup::imports::players)),
        (upload("/api/library/register", "POST /api/library/register"), post(setup::imports::register)),
        (read(jobs::PROGRESS), get(setup::curation::job)),
        (write("/api/pool/exclude", "POST /api/pool/exclude"), post(setup::curation::exclude)),
        (write("/api/pool/include", "POST /api/pool/include"), post(setup::curation::include)),
        (write("/api/pool/watch/add", "POST /api/pool/watch/add"), post(setup::curation::watch_add)),
        (write("/api/pool/watch/remove", "POST /api/pool/watch/remove"), post(setup::curation::watch_remove)),
        (write("/api/ban/add", "POST /api/ban/add"), post(setup::curation::ban_add)),
        (write("/api/ban/remove", "POST /api/ban/remove"), post(setup::curation::ban_remove)),
        (write("/api/library/build", "POST /api/library/build"), post(setup::curation::build)),
        (write("/api/library/swap", "POST /api/library/swap"), post(setup::curation::swap)),
        (endless("/events"), get(sse::live)),
        (endless(wire::LOG), get(standby::log)),
        (endless(wire::COPY), get(standby::copy)),
        (Route { chatter: true, ..laptops(wire::ACK) }, post(standby::ack)),
        (Route { chatter: true, cors: true, ..laptops(wire::WHOAMI) }, get(standby::whoami)),
        (laptops("/api/standby/status"), get(standby::status)),
        (Route { name: "POST /api/standby/detach", ..laptops("/api/standby/detach") }, post(standby::detach)),
    ]
}

/// Every route's row, without its handler.
pub fn routes() -> Vec<Route> {
    table().into_iter().map(|(r, _)| r).collect()
}

// The kinds of route, as the table below writes them.

/// A page or a read: an ETag.
const fn read(path: &'static str) -> Route {
    Route { etag: true, ..Route::new(path, path) }
}

/// A judge's page or read: an ETag, kept by no shared cache.
const fn judges_read(path: &'static str) -> Route {
    Route { judges: true, ..read(path) }
}

/// A write (`name`: `POST` and its path).
const fn write(path: &'static str, name: &'static str) -> Route {
    Route::new(path, name)
}

/// A write a page on the standby may replay there with a table code.
const fn cors_write(path: &'static str, name: &'static str) -> Route {
    Route { cors: true, ..write(path, name) }
}

/// A write that may claim its moment (and be replayed on the standby).
const fn timed(path: &'static str, name: &'static str, at: Timed) -> Route {
    Route { at: Some(at), ..cors_write(path, name) }
}

/// An import: a file as its body.
const fn upload(path: &'static str, name: &'static str) -> Route {
    Route { upload: true, ..write(path, name) }
}

/// A login or logout.
const fn session(path: &'static str, name: &'static str) -> Route {
    Route { session: true, ..write(path, name) }
}

/// The standby's routes: streamed, outside compression.
const fn laptops(path: &'static str) -> Route {
    Route { stream: true, ..Route::new(path, path) }
}

/// A stream that lasts as long as its reader (the live events, the standby's log) or a copy of the whole file:
/// outside the request limit. The standby's other routes are short and keep it (an acknowledgement's body that
/// trickles in is cut at the limit, as any other request's).
const fn endless(path: &'static str) -> Route {
    Route { unlimited: true, ..laptops(path) }
}

/// The whole server.
pub fn router(app: Shared) -> Router {
    Route::register(routes());
    let (streams, pages): (Vec<_>, Vec<_>) = table().into_iter().partition(|(r, _)| r.stream);
    let mut router = Router::new();
    for (route, handler) in pages {
        router = router.route(route.path, handler);
    }
    let mut router = router
        .fallback(players::not_found)
        .layer(middleware::from_fn_with_state(app.clone(), layers::error_pages))
        .layer(middleware::from_fn_with_state(app.clone(), layers::timeout))
        // On a standby every write is refused until promoted; with --standby-required a primary that has not heard
        // its standby asks where the event is first (the write's own runner waits for the standby after it).
        .layer(middleware::from_fn_with_state(app.clone(), second_laptop::gate))
        // A primary's answers let pages reach its standby (the Content-Security-Policy's connect-src).
        .layer(middleware::from_fn_with_state(app.clone(), layers::advertise))
        .layer(middleware::from_fn(layers::not_modified))
        .layer(layers::brotli())
        .layer(layers::gzip());
    // The live stream and the standby's routes pass no compression layer (events are not compressed, and each
    // layer's body holds an encoder's room for the stream's whole life: 12 KB a phone), nor the ETag's.
    // They keep the request limit, but the endless ones (see `endless`).
    for (route, handler) in streams {
        router = router.route(route.path, handler.layer(middleware::from_fn_with_state(app.clone(), layers::timeout)));
    }
    router
        // CORS on the few routes a page uses on the standby (its whoami among them).
        .layer(middleware::from_fn(layers::cors))
        // `serve --new`: every address but the set-up's says so until the event exists.
        .layer(middleware::from_fn_with_state(app.clone(), layers::setup_gate))
        .layer(middleware::from_fn(layers::headers))
        .layer(middleware::from_fn(layers::device))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // Before anything may answer 503 or 429: when a write that may carry a moment first arrived.
        .layer(middleware::from_fn_with_state(app.clone(), layers::first_arrival))
        .layer(middleware::from_fn(layers::requests))
        .layer(middleware::from_fn(layers::facts))
        .with_state(app)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    #[test]
    fn each_route_is_named_once_and_the_moments_list_is_the_tables() {
        let _ = router(std::sync::Arc::new(crate::web::kit::state::App::new("t.db".into(), String::new())));
        let paths: Vec<&str> = Route::all().iter().map(|r| r.path).collect();
        let mut unique = paths.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), paths.len(), "each address once");
        assert!(Route::all().iter().all(|r| Route::matched(r.path).is_some_and(|m| m.name == r.name)));
        assert_eq!(
            Route::takes_at_list(),
            "/api/note /api/clock/start /api/clock/stop /api/clock/hand-over /api/clock/pass"
        );
    }

    /// A request's row is the one of the route axum's router matched (the facts layer reads `MatchedPath`):
    /// a pattern's address, an alias named as the route it stands for, and no row for an address that is none.
    #[tokio::test]
    async fn a_requests_row_is_the_one_of_the_route_the_router_matched() {
        let _ = router(std::sync::Arc::new(crate::web::kit::state::App::new("t.db".into(), String::new())));
        let probe = |r: Route| async move { format!("{}|{}", r.path, r.name) };
        let app = axum::Router::new()
            .route("/judge/table/{n}", get(probe))
            .route("/api/clock/pass", post(probe))
            .route("/api/table/{n}/notes", get(probe))
            .fallback(probe)
            .layer(middleware::from_fn(layers::facts));
        for (method, address, row) in [
            ("GET", "/judge/table/3", "/judge/table/{n}|/judge/table/{n}"),
            ("POST", "/api/clock/pass", "/api/clock/pass|POST /api/clock/hand-over"),
            ("GET", "/api/table/3/notes", "/api/table/{n}/notes|/api/table/{n}/notes"),
            ("GET", "/judge/table/3/x", "|"),
            ("GET", "/nowhere", "|"),
        ] {
            let req = Request::builder().method(method).uri(address).body(Body::empty()).expect("a request");
            let res = app.clone().oneshot(req).await.expect("an answer");
            let body = axum::body::to_bytes(res.into_body(), 1024).await.expect("a body");
            assert_eq!(String::from_utf8_lossy(&body), row, "{method} {address}");
        }
    }
}
