//! Head judges' corrections and the round's course: fixing or clearing a result, voiding a record entered by
//! mistake, changing a setting, pairing, starting and ending the round. Each calls one `ops` function through the
//! kit's write runner ([`crate::web::kit::write::judge`]), which refuses floor judges.

use crate::error::Error;
use crate::ops::corrections::{self, ClearInput, VoidInput};
use crate::ops::{round, table};
use crate::store::voids::VoidKind;
use crate::web::kit::auth::Judge;
use crate::web::kit::body::{NoFields, ResultBody, result_input, text_field};
use crate::web::kit::extract::Payload;
use crate::web::kit::request::Answer;
use crate::web::kit::write;
use axum::response::Response;

/// `POST /api/result/fix` (head judges): corrects a recorded result, as `mmjudge result fix`.
pub async fn fix_result(judge: Judge, p: Payload<ResultBody>) -> Response {
    write::judge(judge, Some("fixing a result"), p, |store, actor, b| {
        let force = b.force;
        let out = table::records::result::fix_result(store, actor, result_input(b)?, force)?;
        Answer::of(&out.web_summary, &out)
    })
    .await
}

/// `POST /api/round/start` and `/api/round/end` body.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundBody {
    /// (`end`) close the round though tables have no result.
    #[serde(default)]
    pub force: bool,
    /// (`start`) end deck inspection: the round's clock starts now, as `round start --now`.
    #[serde(default)]
    pub now: bool,
}

/// `POST /api/round/start` (head judges): starts the round's clock, as `mmjudge round start` (`"now": true`:
/// ends deck inspection early, as `--now`).
pub async fn round_start(judge: Judge, p: Payload<RoundBody>) -> Response {
    write::judge(judge, Some("starting the round"), p, |store, actor, b| {
        let out = if b.now {
            crate::ops::round::clock::start_round_now(store, actor)?
        } else {
            crate::ops::round::clock::start_round(store, actor, None)?
        };
        Answer::of(&out.web_summary, &out)
    })
    .await
}

/// `POST /api/round/end` (head judges): closes the round's clock, as `mmjudge round end`.
pub async fn round_end(judge: Judge, p: Payload<RoundBody>) -> Response {
    write::judge(judge, Some("ending the round"), p, |store, actor, b| {
        let out = crate::ops::round::clock::end_round(store, actor, None, b.force)?;
        Answer::of(&out.web_summary, &out)
    })
    .await
}

/// `POST /api/void` body: `{"kind","id","reason","force"}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoidBody {
    /// penalty, challenge, ruling, note, extension or stall.
    pub kind: String,
    /// The record's id.
    pub id: i64,
    /// Why.
    pub reason: Option<String>,
    /// Take a result back even though later rounds are paired.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/void` (head judges): voids a record entered by mistake, as `mmjudge KIND void ID`.
pub async fn void(judge: Judge, payload: Payload<VoidBody>) -> Response {
    write::judge(judge, Some("voiding a record"), payload, |store, actor, b| {
        let kind = match b.kind.as_str() {
            "penalty" => VoidKind::Penalty,
            "challenge" => VoidKind::Challenge,
            "ruling" => VoidKind::Ruling,
            "note" => VoidKind::Note,
            "extension" => VoidKind::Extension,
            "stall" => VoidKind::Stall,
            other => {
                return Err(Error::bad_input(format!(
                    "\"{other}\" is not a kind of record to void: give penalty, challenge, ruling, note, extension or stall"
                )));
            }
        };
        let input = VoidInput { id: b.id, reason: text_field("reason", b.reason)?, force: b.force };
        let out = corrections::void(store, actor, kind, input)?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// `POST /api/result/clear` body: `{"table","round","force"}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClearBody {
    /// The table.
    pub table: u32,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// Even though later rounds are paired on it.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/result/clear` (head judges): takes a table's result back, as `mmjudge result clear`.
pub async fn clear_result(judge: Judge, payload: Payload<ClearBody>) -> Response {
    write::judge(judge, Some("clearing a result"), payload, |store, actor, b| {
        let out =
            corrections::clear_result(store, actor, ClearInput { table: b.table, round: b.round, force: b.force })?;
        let r = &out.reopened;
        let doc = serde_json::json!({
            "round": r.round, "table": r.table, "match": r.match_id, "was": r.was, "later_rounds": out.later_rounds,
            "standings_moved": out.standings_moved,
        });
        Answer::ok(&out.summary).with(&doc)
    })
    .await
}

/// A setting's value as sent: text, or a JSON number or true/false (taken as the CLI would read them).
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum SettingValue {
    /// As typed.
    Text(String),
    /// A JSON number.
    Number(serde_json::Number),
    /// A JSON true or false.
    Flag(bool),
}

/// `POST /api/event/set` body: `{"key","value","force"}`, as `mmjudge event set KEY VALUE [--force]`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetBody {
    /// The setting, e.g. round-minutes.
    pub key: String,
    /// The new value.
    pub value: SettingValue,
    /// Change a rule of play while a round is being played.
    #[serde(default)]
    pub force: bool,
}

/// `POST /api/event/set` (head judges): changes a setting, as `mmjudge event set`.
pub async fn event_set(judge: Judge, payload: Payload<SetBody>) -> Response {
    write::judge(judge, Some("changing a setting"), payload, |store, actor, b| {
        let value = match b.value {
            SettingValue::Text(t) => t,
            SettingValue::Number(n) => n.to_string(),
            SettingValue::Flag(f) => f.to_string(),
        };
        let input = crate::ops::event::SetInput::new(&b.key, &value, b.force)?;
        let changed = crate::ops::event::set(store, actor, input)?;
        let summary = crate::render::settings::changed_words(&changed);
        Answer::ok(&summary).with(&serde_json::json!({ "key": changed.key, "value": changed.value }))
    })
    .await
}

/// `POST /api/round/pair` body: `{"allow": false, "drop_absent": false}`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairBody {
    /// As the command line's `--allow`.
    #[serde(default)]
    pub allow: bool,
    /// As `--drop-absent`: round 1 with those present (the players not checked in are dropped as not arrived).
    #[serde(default)]
    pub drop_absent: bool,
}

/// Before round 1: the first step of the set-up page still to do (the card reference, the pool, the players, the
/// libraries), refused in its words while no library is built; a step done but short (libraries for too few
/// tables) is the pairing's own refusal to give.
fn first_step_missing(store: &crate::store::Store) -> crate::error::Result<()> {
    let s = crate::ops::setup_steps::steps(store)?;
    if s.round > 0 || s.libraries > 0 {
        return Ok(());
    }
    let missing = if s.cards == 0 {
        Some(("the card reference is not loaded", "Card reference"))
    } else if s.pool_copies == 0 && !s.sealed {
        Some(("the pool is empty", "Pool"))
    } else if s.players == 0 {
        Some(("no player is entered", "Players"))
    } else if s.libraries == 0 {
        Some(("no library is built", "Libraries"))
    } else {
        None
    };
    match missing {
        Some((what, step)) => Err(crate::error::Error::refused(format!(
            "round 1 cannot be paired yet: {what}; a head judge does the {step} step first, on the set-up page \
             (Judges, then Set up the event)"
        ))),
        None => Ok(()),
    }
}

/// `POST /api/round/pair` (head judges): pairs the next round, as `mmjudge round pair [--allow] [--drop-absent]`.
pub async fn pair(judge: Judge, p: Payload<PairBody>) -> Response {
    write::judge(judge, Some("pairing a round"), p, |store, actor, b| {
        first_step_missing(store)?;
        let paired = round::pair_round_with(store, actor, round::PairInput { allow: b.allow }, b.drop_absent)?;
        let byes = if paired.byes.is_empty() { String::new() } else { format!("; bye: {}", paired.byes.join(", ")) };
        let summary = format!(
            "paired round {} by the {} movement: {}{byes}{}{}{}{}",
            paired.round,
            paired.movement,
            round::tables_word(paired.tables),
            paired.carry_words(),
            paired.moves_words(),
            paired.closed_calls_words(),
            paired.dropped_absent_web_words()
        );
        let summary = if paired.why.is_empty() { summary } else { format!("{summary}. Why: {}", paired.why) };
        Answer::of(&summary, &paired)
    })
    .await
}

/// `POST /api/round/unpair` (head judges): takes the current round's pairings back, as `mmjudge round unpair`.
pub async fn unpair(judge: Judge, p: Payload<NoFields>) -> Response {
    write::judge(judge, Some("taking a round back"), p, |store, actor, _| {
        let out = round::unpair_round(store, actor)?;
        Answer::of(&round::unpaired_words(&out), &out)
    })
    .await
}

/// `POST /api/round/reopen` (head judges): undoes ending the round, as `mmjudge round reopen`.
pub async fn reopen(judge: Judge, p: Payload<NoFields>) -> Response {
    write::judge(judge, Some("reopening a round"), p, |store, actor, _| {
        let out = round::reopen_round(store, actor)?;
        Answer::of(&round::reopened_words(&out), &out)
    })
    .await
}

/// `POST /api/round/swap` body: `{"first","second"}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwapBody {
    /// One player (any unambiguous part of the name).
    pub first: String,
    /// The other.
    pub second: String,
}

/// `POST /api/round/swap` (head judges): exchanges two players' seats in the current round, as `mmjudge round
/// swap`; the answer's `warnings` name any rematch or library reuse it makes.
pub async fn swap(judge: Judge, p: Payload<SwapBody>) -> Response {
    write::judge(judge, Some("swapping seats"), p, |store, actor, b| {
        let out = round::swap_seats(store, actor, round::SwapInput { first: b.first, second: b.second })?;
        let warnings = out.warnings.iter().map(|w| format!("; {w}")).collect::<String>();
        let summary = format!("{}{warnings}", round::swapped_words(&out));
        Answer::ok(&summary).with(&serde_json::json!({ "round": out.round, "warnings": out.warnings }))
    })
    .await
}

/// `POST /api/library/add-tables` body: `{"tables","seed"}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddTablesBody {
    /// Tables to add.
    pub tables: u32,
    /// The shuffle's seed (the event's when none).
    pub seed: Option<u64>,
}

/// `POST /api/library/add-tables` (head judges): builds more tables' libraries from what is left in the pool,
/// as `mmjudge library add-tables`.
pub async fn add_tables(judge: Judge, p: Payload<AddTablesBody>) -> Response {
    write::judge(judge, Some("adding tables"), p, |store, actor, b| {
        let input = crate::ops::library::AddTablesInput { tables: b.tables, seed: b.seed, keep_unusable: false };
        input.check()?;
        let out = crate::ops::library::add_tables(store, actor, input)?;
        let summary = crate::ops::library::tables::added_tables_words(&out);
        Answer::of(&summary, &out)
    })
    .await
}
