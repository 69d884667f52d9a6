//! The writes a judge makes standing at a table: result, note, challenge with its ruling (and evidence cited
//! later), penalty, ruling, extension, the decision clock, and closing a player's call. Each calls one `ops`
//! function through the kit's write runner ([`crate::web::kit::write::judge`]).

use crate::domain::challenge::Ruling;
use crate::domain::penalty::{Infraction, PenaltyKind};
use crate::error::{Error, Result};
use crate::ops::table;
use crate::ops::table::device::calls;
use crate::web::kit::auth::Judge;
use crate::web::kit::body::{ResultBody, blank, result_input, text_field};
use crate::web::kit::extract::Payload;
use crate::web::kit::request::Answer;
use crate::web::kit::write;
use axum::response::Response;

/// `POST /api/result`: records a table's result, as `mmjudge result`.
pub async fn result(judge: Judge, p: Payload<ResultBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let out = table::records::result::record_result(store, actor, result_input(b)?)?;
        Answer::of(&out.web_summary, &out)
    })
    .await
}

/// `POST /api/note` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// When it was declared, if not now (as the command line's `--at`: `14:05`, or RFC 3339).
    pub at: Option<String>,
}

/// `POST /api/note`: a template note, as `mmjudge note` (`at`: a note copied in late, as `--at`).
pub async fn note(judge: Judge, p: Payload<NoteBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let card = match (b.unnamed, blank(b.card)) {
            (true, _) => None,
            (false, Some(c)) => Some(c),
            (false, None) => {
                return Err(Error::bad_input(
                    "which card? give the card declared, or mark it unnamed (a discarded card left unnamed)",
                ));
            }
        };
        let input = table::records::note::NoteInput {
            table: b.table,
            round: b.round,
            player: b.player,
            printed: crate::ops::card_reference::Printed::parse(&b.cost)?,
            card,
            letter: None,
            at: blank(b.at).map(|t| crate::time::parse_at(&t, actor.at)).transpose()?,
        };
        let out = table::records::note::add_note(store, actor, input)?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// `POST /api/challenge` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
pub struct EvidenceBody {
    /// The challenge's id.
    pub challenge: i64,
    /// The notes to cite.
    #[serde(default)]
    pub evidence: Evidence,
    /// The new challenge's fields, sent along by the table page's one form (its button for a challenge already
    /// recorded) and ignored; bodies are strict, so they are named here.
    #[serde(default, rename = "table")]
    pub _table: Option<serde::de::IgnoredAny>,
    /// (ignored, see `_table`)
    #[serde(default, rename = "by")]
    pub _by: Option<serde::de::IgnoredAny>,
    /// (ignored, see `_table`)
    #[serde(default, rename = "about")]
    pub _about: Option<serde::de::IgnoredAny>,
    /// (ignored, see `_table`)
    #[serde(default, rename = "ruling")]
    pub _ruling: Option<serde::de::IgnoredAny>,
    /// (ignored, see `_table`: the box that records a challenge on a finished match anyway)
    #[serde(default, rename = "force")]
    pub _force: Option<serde::de::IgnoredAny>,
}

/// `POST /api/challenge/evidence`: cites notes in a challenge already recorded, as `mmjudge challenge evidence`.
pub async fn challenge_evidence(judge: Judge, p: Payload<EvidenceBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let input =
            crate::ops::table::records::evidence::EvidenceInput { challenge: b.challenge, notes: b.evidence.ids()? };
        let out = crate::ops::table::records::evidence::attach_evidence(store, actor, input)?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// `POST /api/challenge`: a challenge and its ruling, as `mmjudge challenge`.
pub async fn challenge(judge: Judge, p: Payload<ChallengeBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let ruling = Ruling::parse(&b.ruling).ok_or_else(|| Error::bad_input("ruling is upheld or denied"))?;
        let input = table::records::challenge::ChallengeInput {
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
        let out = table::records::challenge::record_challenge(store, actor, input)?;
        Answer::of(&out.web_summary, &out)
    })
    .await
}

/// `POST /api/penalty` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PenaltyBody {
    /// The player (refused when missing or blank: a form starts with nobody chosen).
    #[serde(default)]
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
pub async fn penalty(judge: Judge, p: Payload<PenaltyBody>) -> Response {
    let deviation = p.input.penalty.as_deref().is_some_and(|s| !s.trim().is_empty());
    let head_only = deviation.then_some("choosing a penalty other than the guide's");
    write::judge(judge, head_only, p, |store, actor, b| {
        if b.player.trim().is_empty() {
            return Err(Error::bad_input("choose the player who is penalised"));
        }
        let infraction = Infraction::parse(&b.infraction).map_err(|e| Error::bad_input(e.to_string()))?;
        let penalty: Option<PenaltyKind> =
            blank(b.penalty).as_deref().map(str::parse).transpose().map_err(|e| Error::bad_input(format!("{e}")))?;
        let input = table::records::penalty::PenaltyInput {
            player: b.player,
            infraction,
            penalty,
            note: text_field("note", b.note)?,
            table: b.table,
            round: b.round,
            at: None,
        };
        let out = table::records::penalty::record_penalty(store, actor, input)?;
        Answer::of(&out.web_summary, &out)
    })
    .await
}

/// `POST /api/ruling` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulingBody {
    /// The table.
    pub table: u32,
    /// The ruling, in words.
    pub text: String,
    /// The round.
    pub round: Option<u32>,
}

/// `POST /api/ruling`: a judge's ruling that is not a penalty, as `mmjudge ruling`.
pub async fn ruling(judge: Judge, p: Payload<RulingBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let input = table::records::ruling::RulingInput { table: b.table, round: b.round, text: b.text, at: None };
        let out = table::records::ruling::record_ruling(store, actor, input)?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// `POST /api/extend` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtendBody {
    /// The table.
    pub table: u32,
    /// Extra minutes (decimals allowed), as text or a number.
    pub minutes: serde_json::Value,
    /// Why.
    pub reason: String,
}

/// `POST /api/extend`: extra round time for a table, as `mmjudge round extend`.
pub async fn extend(judge: Judge, p: Payload<ExtendBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let minutes = match &b.minutes {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let seconds = crate::ops::round::clock::extension_seconds(&minutes)?;
        let input = crate::ops::round::clock::ExtendInput { table: b.table, seconds, reason: b.reason };
        let out = crate::ops::round::clock::extend_table(store, actor, input)?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// `POST /api/clock/start` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartBody {
    /// The table.
    pub table: u32,
    /// The deciding player.
    pub player: String,
}

/// `POST /api/clock/start`: starts the decision clock, as `mmjudge clock TABLE --start PLAYER`.
pub async fn clock_start(judge: Judge, p: Payload<StartBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let input = table::clocks::clock::StartInput { table: b.table, player: b.player, at: None };
        let out = table::clocks::clock::start_decision(store, actor, input)?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// `POST /api/clock/stop` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopBody {
    /// The table.
    pub table: u32,
}

/// `POST /api/clock/stop`: stops the decision clock, as `mmjudge clock TABLE --stop`.
pub async fn clock_stop(judge: Judge, p: Payload<StopBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let out = table::clocks::clock::stop_decision(
            store,
            actor,
            table::clocks::clock::StopInput { table: b.table, at: None },
        )?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// `POST /api/call/close` body: `{"table"}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallBody {
    /// The table.
    pub table: u32,
}

/// `POST /api/call/close` (judges): closes the open call at a table, as `mmjudge call close TABLE`.
pub async fn close_call(judge: Judge, p: Payload<CallBody>) -> Response {
    write::judge(judge, None, p, |store, actor, b| {
        let out = calls::close_call(store, actor, b.table)?;
        Answer::of(&out.summary, &out)
    })
    .await
}
