//! The judges' table page and the writes a judge makes standing at a table: result, note, challenge with its
//! ruling, penalty, ruling, extension, the decision clock; head judges also fix results and run the round.
//! Each write calls one `ops::table` function (see [`super::writes::write`]).

use super::Shared;
use super::auth::Judge;
use super::error::{ApiError, blocking};
use super::writes::{Payload, text_field, write};
use crate::domain::challenge::Ruling;
use crate::domain::penalty::{Infraction, PenaltyKind};
use crate::domain::result::Reason;
use crate::error::{Error, Result};
use crate::ops::judges::SessionJudge;
use crate::ops::live::{self, Home, TableView};
use crate::ops::table;
use askama::Template;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

/// The outcome as the command line's `--json` prints it: `{"ok": true, "summary", ...fields}`.
fn doc<T: serde::Serialize>(summary: &str, out: &T) -> Result<(String, serde_json::Value)> {
    let value = serde_json::to_value(out).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    Ok((summary.to_string(), value))
}

/// Life totals as JSON `[12, 0]` or a form's `7 0` / `7,0`.
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum Life {
    /// `[A, B]`.
    Pair([i64; 2]),
    /// `"A,B"` (a form field).
    Text(String),
}

pub(super) fn life_of(life: Option<Life>) -> Result<Option<(i64, i64)>> {
    let bad = || Error::bad_input("life: two totals, seat A's then seat B's, e.g. 7 0");
    match life {
        None => Ok(None),
        Some(Life::Pair([a, b])) => Ok(Some((a, b))),
        Some(Life::Text(t)) if t.trim().is_empty() => Ok(None),
        Some(Life::Text(t)) => {
            // "7 0", "7,0" and "7, 0" alike.
            let totals: Vec<&str> = t.split([',', ' ']).filter(|w| !w.is_empty()).collect();
            let [a, b] = totals.as_slice() else { return Err(bad()) };
            Ok(Some((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?)))
        }
    }
}

fn blank(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty())
}

/// `POST /api/result` and `/api/result/fix` body.
#[derive(Debug, serde::Deserialize)]
pub struct ResultBody {
    /// The table.
    pub table: u32,
    /// The winner (a name or its beginning) or `draw`.
    pub winner: Option<String>,
    /// Why the game ended (life, decking, ...).
    pub by: String,
    /// Life totals, seat A's then seat B's.
    pub life: Option<Life>,
    /// A judge's remark.
    pub note: Option<String>,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// (`/api/result/fix`) even though later rounds are paired.
    #[serde(default)]
    pub force: bool,
    /// The turn the game was on when time was called (with `by: "time"`); a form's empty field is none.
    #[serde(default, deserialize_with = "optional_turn")]
    pub turn: Option<u32>,
}

/// A turn as a JSON number or a form's text (an empty field is none).
fn optional_turn<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<u32>, D::Error> {
    use serde::Deserialize;
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Turn {
        Number(u32),
        Text(String),
    }
    match Option::<Turn>::deserialize(d)? {
        None => Ok(None),
        Some(Turn::Number(n)) => Ok(Some(n)),
        Some(Turn::Text(t)) if t.trim().is_empty() => Ok(None),
        Some(Turn::Text(t)) => t.trim().parse().map(Some).map_err(|_| {
            serde::de::Error::custom(format!("turn takes the turn the game was on when time was called, not \"{t}\""))
        }),
    }
}

fn result_input(b: ResultBody) -> Result<table::result::ResultInput> {
    Ok(table::result::ResultInput {
        table: b.table,
        round: b.round,
        winner: blank(b.winner),
        reason: Reason::parse(&b.by).map_err(Error::bad_input)?,
        life: life_of(b.life)?,
        note: text_field("note", b.note)?,
        at: None,
        turn: b.turn,
    })
}

/// `POST /api/result`: records a table's result, as `mmjudge result`.
pub async fn result(State(app): State<Shared>, judge: Judge, p: Payload<ResultBody>) -> Response {
    write(app, judge, "POST /api/result", None, p, |store, actor, b| {
        let out = table::result::record_result(store, actor, result_input(b)?)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/result/fix` (head judges): corrects a recorded result, as `mmjudge result fix`.
pub async fn fix_result(State(app): State<Shared>, judge: Judge, p: Payload<ResultBody>) -> Response {
    write(app, judge, "POST /api/result/fix", Some("fixing a result"), p, |store, actor, b| {
        let force = b.force;
        let out = table::result::fix_result(store, actor, result_input(b)?, force)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/note` body.
#[derive(Debug, serde::Deserialize)]
pub struct NoteBody {
    /// The table.
    pub table: u32,
    /// The player who declared.
    pub player: String,
    /// The printed cost (`B1`, `{2}{U}`, `land`).
    pub cost: String,
    /// The card declared.
    pub card: Option<String>,
    /// A discarded card left unnamed.
    #[serde(default)]
    pub unnamed: bool,
    /// The round (default: the current one).
    pub round: Option<u32>,
}

/// `POST /api/note`: a template note, as `mmjudge note`.
pub async fn note(State(app): State<Shared>, judge: Judge, p: Payload<NoteBody>) -> Response {
    write(app, judge, "POST /api/note", None, p, |store, actor, b| {
        let card = match (b.unnamed, blank(b.card)) {
            (true, _) => None,
            (false, Some(c)) => Some(c),
            (false, None) => {
                return Err(Error::bad_input(
                    "which card? give the card declared, or mark it unnamed (a discarded card left unnamed)",
                ));
            }
        };
        let input = table::note::NoteInput {
            table: b.table,
            round: b.round,
            player: b.player,
            printed: crate::ops::card_reference::Printed::parse(&b.cost)?,
            card,
            letter: None,
            at: None,
        };
        let out = table::note::add_note(store, actor, input)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/challenge` body.
#[derive(Debug, serde::Deserialize)]
pub struct ChallengeBody {
    /// The table.
    pub table: u32,
    /// The challenger.
    pub by: String,
    /// What was challenged (a declaration, a play).
    pub about: String,
    /// What the challenger said.
    pub by_says: Option<String>,
    /// What the other player said.
    pub other_says: Option<String>,
    /// `upheld` (the challenger was right) or `denied`.
    pub ruling: String,
    /// Note ids the judge looked at.
    #[serde(default)]
    pub evidence: Evidence,
    /// Past the warnings the command line's --force passes.
    #[serde(default)]
    pub force: bool,
    /// The round (default: the current one).
    pub round: Option<u32>,
}

/// Note ids as JSON `[4, 7]` or a form's checked boxes (`4,7`).
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum Evidence {
    /// `[4, 7]`.
    Ids(Vec<i64>),
    /// `"4,7"` (a form's boxes).
    Text(String),
}

impl Default for Evidence {
    fn default() -> Self {
        Evidence::Ids(Vec::new())
    }
}

impl Evidence {
    /// The note ids, or 400 naming the one that is not a number.
    pub fn ids(self) -> Result<Vec<i64>> {
        match self {
            Evidence::Ids(ids) => Ok(ids),
            Evidence::Text(text) => text
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(|t| {
                    t.trim_start_matches('#')
                        .parse()
                        .map_err(|_| Error::bad_input(format!("evidence takes note ids such as 12, not \"{t}\"")))
                })
                .collect(),
        }
    }
}

/// `POST /api/challenge/evidence` body: `{"challenge", "evidence": [note ids]}`.
#[derive(Debug, serde::Deserialize)]
pub struct EvidenceBody {
    /// The challenge's id.
    pub challenge: i64,
    /// The notes to cite.
    #[serde(default)]
    pub evidence: Evidence,
}

/// `POST /api/challenge/evidence`: cites notes in a challenge already recorded, as `mmjudge challenge evidence`.
pub async fn challenge_evidence(State(app): State<Shared>, judge: Judge, p: Payload<EvidenceBody>) -> Response {
    write(app, judge, "POST /api/challenge/evidence", None, p, |store, actor, b| {
        let input = crate::ops::table::evidence::EvidenceInput { challenge: b.challenge, notes: b.evidence.ids()? };
        let out = crate::ops::table::evidence::attach_evidence(store, actor, input)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/challenge`: a challenge and its ruling, as `mmjudge challenge`.
pub async fn challenge(State(app): State<Shared>, judge: Judge, p: Payload<ChallengeBody>) -> Response {
    write(app, judge, "POST /api/challenge", None, p, |store, actor, b| {
        let ruling = Ruling::parse(&b.ruling).ok_or_else(|| Error::bad_input("ruling is upheld or denied"))?;
        let input = table::challenge::ChallengeInput {
            table: b.table,
            round: b.round,
            by: b.by,
            about: b.about,
            by_says: text_field("by_says", b.by_says)?,
            other_says: text_field("other_says", b.other_says)?,
            ruling,
            evidence: b.evidence.ids()?,
            force: b.force,
            at: None,
        };
        let out = table::challenge::record_challenge(store, actor, input)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/penalty` body.
#[derive(Debug, serde::Deserialize)]
pub struct PenaltyBody {
    /// The player.
    pub player: String,
    /// The infraction (the guide's name or an unambiguous beginning).
    pub infraction: String,
    /// A penalty other than the guide's (a deviation).
    pub penalty: Option<String>,
    /// A remark.
    pub note: Option<String>,
    /// The table (default: the player's in the current round).
    pub table: Option<u32>,
    /// The round.
    pub round: Option<u32>,
}

/// `POST /api/penalty`: a penalty, upgraded per the guide, as `mmjudge penalty`.
/// A penalty other than the guide's (a deviation, up or down) is the head judge's to give.
pub async fn penalty(State(app): State<Shared>, judge: Judge, p: Payload<PenaltyBody>) -> Response {
    let deviation = p.input.penalty.as_deref().is_some_and(|s| !s.trim().is_empty());
    let head_only = deviation.then_some("choosing a penalty other than the guide's");
    write(app, judge, "POST /api/penalty", head_only, p, |store, actor, b| {
        let infraction = Infraction::parse(&b.infraction).map_err(|e| Error::bad_input(e.to_string()))?;
        let penalty: Option<PenaltyKind> =
            blank(b.penalty).as_deref().map(str::parse).transpose().map_err(|e| Error::bad_input(format!("{e}")))?;
        let input = table::penalty::PenaltyInput {
            player: b.player,
            infraction,
            penalty,
            note: text_field("note", b.note)?,
            table: b.table,
            round: b.round,
            at: None,
        };
        let out = table::penalty::record_penalty(store, actor, input)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/ruling` body.
#[derive(Debug, serde::Deserialize)]
pub struct RulingBody {
    /// The table.
    pub table: u32,
    /// The ruling, in words.
    pub text: String,
    /// The round.
    pub round: Option<u32>,
}

/// `POST /api/ruling`: a judge's ruling that is not a penalty, as `mmjudge ruling`.
pub async fn ruling(State(app): State<Shared>, judge: Judge, p: Payload<RulingBody>) -> Response {
    write(app, judge, "POST /api/ruling", None, p, |store, actor, b| {
        let input = table::ruling::RulingInput { table: b.table, round: b.round, text: b.text, at: None };
        let out = table::ruling::record_ruling(store, actor, input)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/extend` body.
#[derive(Debug, serde::Deserialize)]
pub struct ExtendBody {
    /// The table.
    pub table: u32,
    /// Extra minutes (decimals allowed), as text or a number.
    pub minutes: serde_json::Value,
    /// Why.
    pub reason: String,
}

/// `POST /api/extend`: extra round time for a table, as `mmjudge round extend`.
pub async fn extend(State(app): State<Shared>, judge: Judge, p: Payload<ExtendBody>) -> Response {
    write(app, judge, "POST /api/extend", None, p, |store, actor, b| {
        let minutes = match &b.minutes {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let seconds = table::round_clock::extension_seconds(&minutes)?;
        let input = table::round_clock::ExtendInput { table: b.table, seconds, reason: b.reason };
        let out = table::round_clock::extend_table(store, actor, input)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/clock/start` body.
#[derive(Debug, serde::Deserialize)]
pub struct StartBody {
    /// The table.
    pub table: u32,
    /// The deciding player.
    pub player: String,
}

/// `POST /api/clock/start`: starts the decision clock, as `mmjudge clock TABLE --start PLAYER`.
pub async fn clock_start(State(app): State<Shared>, judge: Judge, p: Payload<StartBody>) -> Response {
    write(app, judge, "POST /api/clock/start", None, p, |store, actor, b| {
        let input = table::clock::StartInput { table: b.table, player: b.player, at: None };
        let out = table::clock::start_decision(store, actor, input)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/clock/stop` body.
#[derive(Debug, serde::Deserialize)]
pub struct StopBody {
    /// The table.
    pub table: u32,
}

/// `POST /api/clock/stop`: stops the decision clock, as `mmjudge clock TABLE --stop`.
pub async fn clock_stop(State(app): State<Shared>, judge: Judge, p: Payload<StopBody>) -> Response {
    write(app, judge, "POST /api/clock/stop", None, p, |store, actor, b| {
        let out = table::clock::stop_decision(store, actor, table::clock::StopInput { table: b.table, at: None })?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/round/start` and `/api/round/end` body.
#[derive(Debug, Default, serde::Deserialize)]
pub struct RoundBody {
    /// (`end`) close the round though tables have no result.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/round/start` (head judges): starts the round's clock, as `mmjudge round start`.
pub async fn round_start(State(app): State<Shared>, judge: Judge, p: Payload<RoundBody>) -> Response {
    write(app, judge, "POST /api/round/start", Some("starting the round"), p, |store, actor, _| {
        let out = table::round_clock::start_round(store, actor, None)?;
        doc(&out.summary, &out)
    })
    .await
}

/// `POST /api/round/end` (head judges): closes the round's clock, as `mmjudge round end`.
pub async fn round_end(State(app): State<Shared>, judge: Judge, p: Payload<RoundBody>) -> Response {
    write(app, judge, "POST /api/round/end", Some("ending the round"), p, |store, actor, b| {
        let out = table::round_clock::end_round(store, actor, None, b.force)?;
        doc(&out.summary, &out)
    })
    .await
}

/// One column of the note sheet: the player, then (id, "B1: Demonic Tutor", time, voided) per note.
type Column = (String, Vec<(i64, String, String, bool)>);

/// One line of the full sheet a judge reads during a challenge, in the order declared.
struct SheetRow {
    id: i64,
    time: String,
    player: String,
    line: String,
    text: Option<String>,
    voided: bool,
}

/// A challenge heard at this table, with its evidence in words (`#12 B1: Demonic Tutor`).
struct HeardRow {
    id: i64,
    by: String,
    about: String,
    ruling: String,
    time: String,
    evidence: Vec<String>,
    voided: bool,
}

#[derive(Template)]
#[template(path = "web/judge_table.html")]
struct TablePage {
    home: Home,
    judge: SessionJudge,
    t: TableView,
    columns: Vec<Column>,
    reasons: Vec<&'static str>,
    back: String,
    /// The players' self-reports waiting at this table.
    reports: Option<table::self_report::WaitingReports>,
    /// The players' open call for a judge at this table.
    call: Option<table::calls::CallView>,
    rows: Vec<SheetRow>,
    heard: Vec<HeardRow>,
    /// Deck inspection while it runs (the table's clock shows from its end).
    inspection: Option<super::pages::Inspection>,
    /// A head judge: the corrections section (fix/clear the result, void records) is shown.
    head: bool,
    /// The table's records a head judge may void.
    voidable: Vec<table::voidable::Voidable>,
}

/// `GET /judge/table/N`: everything a floor judge does standing at table N of the current round.
pub async fn page(
    State(app): State<Shared>,
    judge: std::result::Result<Judge, ApiError>,
    Path(number): Path<String>,
    headers: HeaderMap,
) -> std::result::Result<Response, ApiError> {
    let judge = match super::pages::judge_or_login(judge, &headers) {
        Ok(j) => j,
        Err(to_login) => return Ok(*to_login),
    };
    let n: u32 = number.trim().parse().map_err(|_| {
        ApiError::from(Error::bad_input(format!("\"{number}\" is not a table number: give a number such as 3")))
    })?;
    let (home, t, sheet, heard) = blocking(move || {
        let store = app.open()?;
        let now = crate::time::now()?;
        let t = live::table(&store, n, now)?;
        let sheet = store.read(|conn| table::sheet::note_sheet(conn, n, None))?;
        let waiting = store.read(|conn| {
            let seated = table::Seated::at(conn, n, None)?;
            Ok((table::self_report::waiting_at(conn, &seated)?, table::calls::open_at(conn, &seated)?))
        })?;
        let filter = table::RecordFilter { table: Some(n), round: None, player: None };
        let heard = store.read(|conn| table::challenge::challenges(conn, &filter))?;
        let voidable = store.read(|conn| table::voidable::at_table(conn, n))?;
        Ok((live::home(&store, now)?, t, (sheet, waiting), (heard, voidable)))
    })
    .await?;
    let (sheet, (reports, call)) = sheet;
    let (heard, voidable) = heard;
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
    let mut columns = vec![col(&sheet.a, a), col(&sheet.b, b)];
    for (name, notes) in sheet.apart() {
        columns.push(col(&format!("{name} (no longer at this table: voided before a seat swap)"), notes));
    }
    let reasons = Reason::ALL.iter().map(|r| r.slug()).collect();
    let back = format!("/judge/table/{n}");
    let inspection = super::pages::inspection(&home, t.ends_at.as_deref());
    let head = judge.judge.role == crate::ops::judges::Role::Head;
    let page = TablePage {
        home,
        judge: judge.judge,
        t,
        columns,
        reasons,
        back,
        reports,
        call,
        rows,
        heard,
        inspection,
        head,
        voidable,
    };
    Ok(super::pages::page(StatusCode::OK, &page))
}
