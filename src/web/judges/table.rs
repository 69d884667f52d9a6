//! `GET /judge/table/N`: everything a floor judge does standing at a table of the current round (the sheet,
//! the challenges heard, the players' reports and calls, the forms of [`super::writes`]' routes; for head judges
//! the corrections).

use crate::domain::penalty::Infraction;
use crate::domain::result::Reason;
use crate::error::Error;
use crate::ops::judges::{Role, SessionJudge};
use crate::ops::live::{self, TableView};
use crate::ops::table;
use crate::web::kit::auth::Judge;
use crate::web::kit::extract::{Path, Query};
use crate::web::kit::page::{self, Inspection};
use crate::web::kit::request::ApiError;
use crate::web::kit::request::DoneQuery;
use askama::Template;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

/// One column of the note sheet: the player, then (id, "B1: Demonic Tutor", time, voided) per note.
type Column = (String, Vec<(i64, String, String, bool)>);

/// One line of the full sheet a judge reads during a challenge, in the order declared.
#[derive(serde::Serialize)]
struct SheetRow {
    id: i64,
    time: String,
    player: String,
    line: String,
    text: Option<String>,
    voided: bool,
}

/// A challenge heard at this table, with its evidence in words (`#12 B1: Demonic Tutor`).
#[derive(serde::Serialize)]
struct HeardRow {
    id: i64,
    by: String,
    about: String,
    ruling: String,
    time: String,
    evidence: Vec<String>,
    voided: bool,
}

#[derive(Template, serde::Serialize)]
#[template(path = "web/judge_table.html")]
struct TablePage {
    home: page::Head,
    judge: SessionJudge,
    t: TableView,
    columns: Vec<Column>,
    reasons: Vec<&'static str>,
    /// Time has been called at this table (the round's end, with the table's extensions, has passed): until
    /// then the page offers no result "at time" (the server would refuse it), and enables it at that instant.
    time_called: bool,
    back: String,
    /// The players' self-reports waiting at this table.
    reports: Option<table::device::self_report::WaitingReports>,
    /// The players' open call for a judge at this table.
    call: Option<table::device::calls::CallView>,
    rows: Vec<SheetRow>,
    heard: Vec<HeardRow>,
    /// Deck inspection while it runs (the table's clock shows from its end).
    inspection: Option<Inspection>,
    /// A head judge: the corrections section (fix/clear the result, void records) is shown.
    head: bool,
    /// The table's records a head judge may void.
    voidable: Vec<table::records::voidable::Voidable>,
    /// The table's penalties, rulings and challenges, and each player's earlier penalties.
    history: table::records::history::TableHistory,
    /// The infractions the guide knows: (slug, name).
    infractions: Vec<(&'static str, &'static str)>,
    /// The outcome of the judge's last action (`?done=ID`).
    done: Option<String>,
    /// The decisions whose claimed moments give another length than the server saw (both shown).
    claimed: Vec<table::clocks::claims::ClaimedDecision>,
    /// The match's decisions drawn, per player.
    drawn: Vec<crate::render::decisions::TableDecisions>,
}

/// `GET /judge/table/N`: everything a floor judge does standing at table N of the current round; `?done=ID`
/// shows the outcome of the judge's last action.
pub async fn page(
    judge: Result<Judge, ApiError>,
    Path(number): Path<String>,
    Query(q): Query<DoneQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let judge = match page::judge_or_login(judge, &headers) {
        Ok(j) => j,
        Err(to_login) => return Ok(*to_login),
    };
    let deadline = judge.deadline;
    let done = page::done(&judge.db, &q).await;
    let n: u32 = number.trim().parse().map_err(|_| {
        ApiError::from(Error::bad_input(format!("\"{number}\" is not a table number: give a number such as 3")))
    })?;
    let (home, t, sheet, heard) = judge
        .db
        .run(move |store| {
            let now = crate::time::now()?;
            let t = live::table(store, n, now)?;
            let sheet = store.read(|conn| table::records::sheet::note_sheet(conn, n, None))?;
            let waiting = store.read(|conn| {
                let seated = table::Seated::at(conn, n, None)?;
                Ok((
                    table::device::self_report::waiting_at(conn, &seated)?,
                    table::device::calls::open_at(conn, &seated)?,
                ))
            })?;
            let filter = table::RecordFilter { table: Some(n), round: None, player: None };
            let heard = store.read(|conn| table::records::challenge::challenges(conn, &filter))?;
            let voidable = store.read(|conn| table::records::voidable::at_table(conn, n))?;
            let history = store.read(|conn| table::records::history::at_table(conn, n))?;
            let claimed = store.read(|conn| table::clocks::claims::claimed_at_table(conn, n))?;
            let decisions = store.read(|conn| table::clocks::decisions::decision_stats(conn, Some(n), None, true))?;
            let players: Vec<String> = t.seats.iter().map(|s| s.player.clone()).collect();
            let drawn =
                crate::render::decisions::at_table(decisions.decisions.as_deref().unwrap_or_default(), &players)?;
            Ok((live::home(store, now)?, t, (sheet, waiting), (heard, voidable, history, claimed, drawn)))
        })
        .await?;
    let (sheet, (reports, call)) = sheet;
    let (heard, voidable, history, claimed, drawn) = heard;
    let rows: Vec<SheetRow> = sheet
        .sheet
        .iter()
        .zip(&sheet.notes)
        .map(|(n, e)| SheetRow {
            id: n.id,
            time: n.time.clone(),
            player: e.note.player.clone(),
            line: n.line(),
            text: n.text.clone(),
            voided: n.voided,
        })
        .collect();
    let line_of =
        |id: i64| rows.iter().find(|r| r.id == id).map_or_else(|| format!("#{id}"), |r| format!("#{id} {}", r.line));
    let heard = heard
        .challenges
        .into_iter()
        .map(|c| HeardRow {
            evidence: c.evidence.iter().map(|e| line_of(e.0)).collect(),
            id: c.id,
            by: c.by,
            about: c.about,
            ruling: c.ruling,
            time: table::hhmm(&c.at),
            voided: c.voided.is_some(),
        })
        .collect();
    let [a, b] = sheet.columns();
    let col = |name: &str, notes: Vec<&crate::domain::note_sheet::SheetNote>| -> Column {
        (name.to_string(), notes.iter().map(|n| (n.id, n.line(), n.time.clone(), n.voided)).collect())
    };
    let mut columns = vec![col(&sheet.pairing.a, a), col(&sheet.pairing.b, b)];
    for (name, notes) in sheet.apart() {
        columns.push(col(&format!("{name} (no longer at this table: voided before a seat swap)"), notes));
    }
    let reasons = Reason::ALL.iter().map(|r| r.slug()).collect();
    let back = format!("/judge/table/{n}");
    let inspection = page::inspection(&home, t.ends_at.as_deref());
    let head = judge.judge.role == Role::Head;
    let time_called = match (t.ends_at.as_deref(), crate::time::unstamp(&home.now)) {
        (Some(end), Ok(now)) => crate::time::unstamp(end).is_ok_and(|end| now >= end),
        _ => false,
    };
    let view = TablePage {
        home: page::head(&judge.db, home),
        judge: judge.judge,
        t,
        columns,
        reasons,
        time_called,
        back,
        reports,
        call,
        rows,
        heard,
        inspection,
        head,
        voidable,
        history,
        infractions: Infraction::ALL.iter().map(|i| (i.slug(), i.name())).collect(),
        done,
        claimed,
        drawn,
    };
    Ok(page::page(deadline, StatusCode::OK, view).await)
}

/// `player` and `infraction` of `/api/penalty/preview`.
#[derive(Debug, serde::Deserialize)]
pub struct PreviewQuery {
    /// The player.
    pub player: String,
    /// The infraction (its slug, or an unambiguous beginning).
    pub infraction: String,
}

/// `GET /api/penalty/preview?player=&infraction=` (judges): the penalty the guide gives this player now for
/// this infraction ("2nd Slow Play in this event: Game Loss"); nothing is written.
pub async fn penalty_preview(judge: Judge, Query(q): Query<PreviewQuery>) -> Result<Response, ApiError> {
    let p = judge
        .db
        .run(move |store| store.read(|conn| table::records::history::preview(conn, &q.player, &q.infraction)))
        .await?;
    Ok(page::json(&p))
}
