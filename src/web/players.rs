//! What players (and anyone) read and do: the site's pages (`/`, `/me`, `/pairings`, `/clock`, `/standings`,
//! and the "page not found" page), the event's JSON reads (`/api/time`, `/api/tables`, `/api/me`, and
//! `/api/standings`, `/api/pairings`, `/api/results` as the command line's `--json`). A player's own acts with
//! their code are in `player_writes`.

use crate::error::Error;
use crate::ops::live::{self, ByeView, PlayerSeat, TableView};
use crate::ops::standings::{Line, Standings};
use crate::ops::{pairings, standings, table};
use crate::render::me as me_words;
use crate::web::kit::drawn::Deadline;
use crate::web::kit::extract::Query;
use crate::web::kit::page::{self, Inspection, page};
use crate::web::kit::page::{FOUND, ListQuery, Window, matches};
use crate::web::kit::request::ApiError;
use crate::web::kit::state::Db;
use askama::Template;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};

#[derive(Template, serde::Serialize)]
#[template(path = "web/home.html")]
struct HomePage {
    home: page::Head,
}

/// `GET /`: the event, the round and its clock.
pub async fn home(db: Db, deadline: Deadline) -> Result<Response, ApiError> {
    let home = page::home(&db).await?;
    Ok(page(deadline, StatusCode::OK, HomePage { home }).await)
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/me.html")]
struct MePage {
    home: page::Head,
    query: String,
    seat: Option<PlayerSeat>,
    error: Option<String>,
    /// This page again (where the players' forms come back to).
    back: String,
    /// The reasons a player may report.
    reasons: Vec<&'static str>,
    /// Deck inspection while it runs (the time left shows from its end).
    inspection: Option<Inspection>,
    /// The page's own words for the seat (the bye, the state, the waiting report, time called).
    words: MeWords,
}

/// `/me`'s sentences (see [`crate::render::me`]).
#[derive(Default, serde::Serialize)]
struct MeWords {
    /// "Round 3: you have the bye: a win, 3 points".
    bye: Option<String>,
    /// The player's own state when not seated ("You dropped after round 2").
    state: Option<me_words::Line>,
    /// The report waiting at the table, in full, with its number.
    waiting: Option<(me_words::Line, i64)>,
    /// Whether the waiting report is the player's own (the opponent confirms it).
    own_report: bool,
    /// Time is called at the table (its end passed, no result yet) at the page's instant.
    time_called: bool,
    /// What happens once time is called.
    time_rules: &'static str,
    /// Once the event is over: the player's place in the final standings ("You finished 3rd of 18, with 7
    /// points (2-1-1).").
    final_place: Option<String>,
}

fn me_words(seat: Option<&PlayerSeat>, now: &str) -> MeWords {
    let Some(s) = seat else { return MeWords::default() };
    let passed = |end: &String| {
        let at = |t: &str| crate::time::unstamp(t).ok();
        matches!((at(end), at(now)), (Some(e), Some(n)) if n >= e)
    };
    MeWords {
        bye: s.bye_result.as_ref().map(me_words::bye),
        state: s.state.as_ref().and_then(|st| me_words::state(st, s.round)),
        waiting: s.waiting_report.as_ref().map(|w| (me_words::waiting(w, s), w.id)),
        own_report: s.waiting_report.as_ref().is_some_and(|w| w.by == s.name),
        time_called: s.result.is_none() && s.ends_at.as_ref().is_some_and(passed),
        time_rules: me_words::TIME_CALLED,
        final_place: None,
    }
}

/// `GET /me?name=NAME`: a player finds their table, seat, library and opponent.
pub async fn me(db: Db, deadline: Deadline, Query(q): Query<NameQuery>) -> Result<Response, ApiError> {
    let query = q.name.unwrap_or_default().trim().to_string();
    let asked = query.clone();
    let (home, seat, place) = db
        .run(move |store| {
            let now = crate::time::now()?;
            let seat = if asked.is_empty() { None } else { Some(live::find_player(store, &asked, now)) };
            let home = live::home(store, now)?;
            // The player's line of the final standings, once the event is over.
            let place = match (&home.finished, &seat) {
                (Some(_), Some(Ok(s))) => {
                    let all = store.read(|conn| standings::standings(conn, None))?;
                    let of = all.standings.len();
                    let mine = all.standings.iter().find(|l| l.name == s.name).cloned();
                    mine.map(|l| {
                        let shared = all.standings.iter().filter(|o| o.rank == l.rank).count() > 1;
                        (l, of, shared)
                    })
                }
                _ => None,
            };
            Ok((home, seat, place))
        })
        .await?;
    let (status, seat, error) = match seat {
        None => (StatusCode::OK, None, None),
        Some(Ok(s)) => (StatusCode::OK, Some(s), None),
        Some(Err(e)) => {
            let e = ApiError::from(e);
            (e.status, None, Some(e.message))
        }
    };
    let back = match &seat {
        Some(s) => format!("/me?{}", serde_urlencoded::to_string([("name", &s.name)]).unwrap_or_default()),
        None => "/me".into(),
    };
    let reasons = crate::ops::table::device::self_report::PLAYER_REASONS.iter().map(|r| r.slug()).collect();
    let inspection = page::inspection(&home, seat.as_ref().and_then(|s| s.ends_at.as_deref()));
    let mut words = me_words(seat.as_ref(), &home.now);
    words.final_place = place.map(|(l, of, shared)| me_words::final_place(&l, of, shared));
    Ok(page(
        deadline,
        status,
        MePage { home: page::head(&db, home), query, seat, error, back, reasons, inspection, words },
    )
    .await)
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/pairings.html")]
struct PairingsPage {
    home: page::Head,
    /// The round shown (None: none paired).
    round: Option<u32>,
    /// The round asked for, kept by the search form.
    asked: Option<u32>,
    /// The tables of the rows shown.
    tables: Vec<TableView>,
    /// The tables of the name searched, shown first.
    found: Vec<TableView>,
    /// The round's byes (the tables leave them out), shown after the last table.
    byes: Vec<ByeView>,
    /// (player, table, seat, opponent), by name: the rows shown, or the name searched's; a bye's table is "bye".
    by_name: Vec<(String, String, &'static str, String)>,
    window: Window,
    /// The round's tables with a result, of all its tables (the header's count; a live result carries both).
    finished: usize,
    all: usize,
    /// The tables with libraries and no game this round, in words (shown with the last rows; empty when none).
    idle: String,
    /// The libraries carried for players who stay at one table, in words (empty when none).
    carry: String,
}

/// `GET /pairings[?round=N][&name=...][&from=N]`: the current round (or round N) by table and by name, a hundred
/// rows from `from` (see [`crate::web::kit::page`]); with a name, its tables and rows first; the byes last.
pub async fn pairings(db: Db, deadline: Deadline, Query(q): Query<ListQuery>) -> Result<Response, ApiError> {
    let asked = q.round;
    let (home, tables, byes, (idle, carry)) = db
        .run(move |store| {
            let now = crate::time::now()?;
            let tables = live::round_tables(store, asked, now)?;
            let floor = match tables.first().map(|t| t.round) {
                Some(r) => store.read(|conn| Ok((pairings::idle_tables(conn, r)?, pairings::carried(conn, r)?)))?,
                None => Default::default(),
            };
            Ok((live::home(store, now)?, tables, live::round_byes(store, asked)?, floor))
        })
        .await?;
    let mut by_name = Vec::new();
    for t in &tables {
        for (i, s) in t.seats.iter().enumerate() {
            let other = t.seats.get(1 - i.min(1)).map(|o| o.player.clone()).unwrap_or_default();
            by_name.push((s.player.clone(), t.table.to_string(), s.seat, other));
        }
    }
    for b in &byes {
        by_name.push((b.player.clone(), "bye".into(), "", format!("a {}, {} points", b.counts_as, b.points)));
    }
    by_name.sort_by_cached_key(|p| crate::domain::names::fold(&p.0));
    let window = q.window("/pairings", by_name.len().max(tables.len()));
    let name = window.name.clone();
    let found: Vec<TableView> =
        tables.iter().filter(|t| t.seats.iter().any(|s| matches(&s.player, &name))).take(FOUND).cloned().collect();
    let by_name: Vec<_> = if name.is_empty() {
        by_name.into_iter().skip(window.from).take(window.to - window.from).collect()
    } else {
        by_name.into_iter().filter(|p| matches(&p.0, &name)).take(FOUND).collect()
    };
    let round = tables.first().map(|t| t.round).or(byes.first().map(|b| b.round));
    let n = tables.len();
    let finished = tables.iter().filter(|t| t.result.is_some()).count();
    // The byes close the list by table: shown with its last rows.
    let byes = if window.to >= n { byes } else { Vec::new() };
    let idle = if window.to >= n { crate::ops::pairings::idle_words(&idle) } else { String::new() };
    let tables = tables[window.from.min(n)..window.to.min(n)].to_vec();
    Ok(page(
        deadline,
        StatusCode::OK,
        PairingsPage {
            home: page::head(&db, home),
            round,
            asked,
            tables,
            found,
            byes,
            by_name,
            window,
            finished,
            all: n,
            idle,
            carry: pairings::carry_words(&carry),
        },
    )
    .await)
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/clock.html")]
struct ClockPage {
    home: page::Head,
    table: Option<TableView>,
    /// Time is called at the table (its end passed, no result yet) at the page's instant.
    time_called: bool,
    /// What happens once time is called.
    time_rules: &'static str,
}

/// `table` of `/clock?table=N`.
#[derive(Debug, serde::Deserialize)]
pub struct TableQuery {
    /// The table number, as typed.
    pub table: Option<String>,
}

/// `GET /clock[?table=N]`: the round clock, or one table's clock with its extensions and running decision.
pub async fn clock(db: Db, deadline: Deadline, Query(q): Query<TableQuery>) -> Result<Response, ApiError> {
    let number = match q.table.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(t.parse::<u32>().map_err(|_| {
            ApiError::from(Error::bad_input(format!("\"{t}\" is not a table number: give a number such as 3")))
        })?),
    };
    let (home, table) = db
        .run(move |store| {
            let now = crate::time::now()?;
            let table = match number {
                Some(n) => Some(live::table(store, n, now)?),
                None => None,
            };
            Ok((live::home(store, now)?, table))
        })
        .await?;
    let at = |t: &str| crate::time::unstamp(t).ok();
    let time_called = table.as_ref().is_some_and(|t| {
        let end = t.ends_at.as_deref().and_then(at);
        t.result.is_none() && matches!((end, at(&home.now)), (Some(e), Some(n)) if n >= e)
    });
    Ok(page(
        deadline,
        StatusCode::OK,
        ClockPage { home: page::head(&db, home), table, time_called, time_rules: me_words::TIME_CALLED },
    )
    .await)
}

/// `round` of `/standings?round=N`, `/api/pairings?round=N`, ...
#[derive(Debug, serde::Deserialize)]
pub struct RoundQuery {
    /// The round (default: as the command line chooses).
    pub round: Option<u32>,
}

/// A view as the command line's `--json` prints it (its keys in order, as a JSON document's are).
fn to_json<T: serde::Serialize>(value: &T) -> Result<Response, ApiError> {
    let doc = serde_json::to_value(value).map_err(|_| ApiError::internal("a JSON document"))?;
    Ok(page::json(&doc))
}

/// `GET /api/standings[?round=N]`: as `mmjudge --json standings`.
pub async fn api_standings(db: Db, Query(q): Query<RoundQuery>) -> Result<Response, ApiError> {
    let view = db.run(move |store| store.read(|conn| standings::standings(conn, q.round))).await?;
    to_json(&view)
}

/// `GET /api/pairings[?round=N]`: as `mmjudge --json pairings`.
pub async fn api_pairings(db: Db, Query(q): Query<RoundQuery>) -> Result<Response, ApiError> {
    let doc = db.run(move |store| store.read(|conn| Ok(pairings::pairings(conn, q.round)?.json()))).await?;
    Ok(page::json(&doc))
}

/// `GET /api/results[?round=N]`: as `mmjudge --json results`.
pub async fn api_results(db: Db, Query(q): Query<RoundQuery>) -> Result<Response, ApiError> {
    let view = db.run(move |store| store.read(|conn| table::records::result::round_results(conn, q.round))).await?;
    to_json(&view)
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/standings.html")]
struct StandingsPage {
    home: page::Head,
    standings: Option<Standings>,
    /// The round asked for, kept by the search form.
    asked: Option<u32>,
    /// The lines shown: a hundred from `from`.
    lines: Vec<Line>,
    /// The lines of the name searched, shown first.
    found: Vec<Line>,
    message: Option<String>,
    window: Window,
}

/// `GET /standings[?round=N][&name=...][&from=N]`: the standings after the last round played to the end, a
/// hundred lines from `from` (see [`crate::web::kit::page`]); with a name, its lines first.
pub async fn standings_page(db: Db, deadline: Deadline, Query(q): Query<ListQuery>) -> Result<Response, ApiError> {
    let asked = q.round;
    let (home, found) = db
        .run(move |store| {
            let home = live::home(store, crate::time::now()?)?;
            Ok((home, store.read(|conn| standings::standings(conn, asked))))
        })
        .await?;
    let (status, mut standings, message) = match found {
        Ok(s) if s.round == 0 => (StatusCode::OK, None, Some("No round has been played to the end yet.".to_string())),
        Ok(s) => (StatusCode::OK, Some(s), None),
        Err(e) => {
            let e = ApiError::from(e);
            (e.status, None, Some(e.message))
        }
    };
    // The page holds the lines it draws, not every line (its tag is the hash of what it holds).
    let all = standings.as_mut().map(|s| std::mem::take(&mut s.standings)).unwrap_or_default();
    let window = q.window("/standings", all.len());
    let found = all.iter().filter(|l| matches(&l.name, &window.name)).take(FOUND).cloned().collect();
    let lines = all[window.from..window.to].to_vec();
    Ok(page(
        deadline,
        status,
        StandingsPage { home: page::head(&db, home), standings, asked, lines, found, message, window },
    )
    .await)
}

/// `GET /api/time`: the server's now and the current round's clock.
pub async fn time(db: Db) -> Result<Response, ApiError> {
    Ok(page::json(&page::home(&db).await?.home))
}

/// `GET /api/tables`: the current round's tables (players, libraries, result, clock).
pub async fn tables(db: Db) -> Result<Response, ApiError> {
    let (home, tables) = db
        .run(|store| {
            let now = crate::time::now()?;
            Ok((live::home(store, now)?, live::tables(store, now)?))
        })
        .await?;
    Ok(page::json(&serde_json::json!({ "now": home.now, "round": home.round, "tables": tables })))
}

/// The `name` of `/me?name=...`.
#[derive(Debug, serde::Deserialize)]
pub struct NameQuery {
    /// A player's name, or any unambiguous part of it.
    pub name: Option<String>,
}

/// `GET /api/me?name=NAME`: where that player sits.
pub async fn api_me(db: Db, Query(q): Query<NameQuery>) -> Result<Response, ApiError> {
    let Some(name) = q.name.filter(|n| !n.trim().is_empty()) else {
        return Err(Error::bad_input("give your name: /api/me?name=Ana").into());
    };
    Ok(page::json(&db.run(move |store| live::find_player(store, &name, crate::time::now()?)).await?))
}

/// An address that names nothing: under `/api/` the JSON `{"error"}`, elsewhere the "page not found" page.
pub async fn not_found(db: Db, deadline: Deadline, uri: Uri) -> Response {
    let path = uri.path();
    let json = ApiError::new(StatusCode::NOT_FOUND, format!("no page {path}: see / for the event's pages"));
    if path == "/api" || path.starts_with("/api/") {
        return json.into_response();
    }
    page::not_found(&db, deadline, path).await.unwrap_or_else(|_| json.into_response())
}
