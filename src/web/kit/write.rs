//! The one write runner: a judge's write (the CSRF check for cookie sessions, the role check, the judge as the
//! actor) or a player's (the code's holder as the actor, under the wrong-code limit) runs its `ops` call through
//! the request's door (`super::door`), as one transaction with its audit row and, for a keyed
//! write, its key and the answer kept for a repeat (`Store::write_keyed`: one changeset); the door waits for the
//! standby where it must, and the write ends the same way: the JSON [`Answer`] (with `"standby"` when there is
//! a word for it), or for a page's form back to that page (a refusal as the refused page with a link back).

use super::auth::Judge;
use super::extract::Keyed;
use super::extract::Sent;
use super::extract::{Payload, Player};
use super::page;
use super::request::Answer;
use super::request::ApiError;
use crate::error::Result;
use crate::ops::table::device::Holder;
use crate::ops::write_keys;
use crate::store::keys::WriteKey;
use crate::store::{Actor, Store};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};

/// Runs one write for a logged-in judge (the audit's command line is the request's route and the fields sent);
/// `head_only` names the action when only head judges may do it.
pub async fn judge<T: Send + 'static>(
    judge: Judge,
    head_only: Option<&'static str>,
    payload: Payload<T>,
    f: impl FnOnce(&mut Store, &Actor, T) -> Result<Answer> + Send + 'static,
) -> Response {
    let back = payload.back.clone();
    let app = judge.db.app().clone();
    let deadline = judge.deadline;
    let done = async {
        judge.check_csrf(payload.csrf.as_deref())?;
        if let Some(what) = head_only {
            judge.judge.require_head(what).map_err(ApiError::from)?;
        }
        let pacer = super::limit::Pacer::Judge(judge.judge.name.clone());
        super::extract::pace(&app, &pacer, judge.route)?;
        let actor = judge.actor(&judge.command(&payload.shown))?;
        let input = payload.input;
        let key = payload.sent.map(|sent| sent.scoped(&judge.judge.name, judge.route.name));
        let (done, settled) =
            judge.db.run_settled(move |store| run(store, &actor, key, |store, actor| f(store, actor, input))).await?;
        Ok((done.answer()?, settled))
    }
    .await;
    match done {
        Ok((answer, settled)) => {
            // The entry this write made, named by the page it goes back to (`?done=ID`).
            let id = settled.audit_id;
            if let (Some(id), Ok(mut kept)) = (id, app.done.lock()) {
                kept.keep(id, answer.summary().to_string());
            }
            finish(deadline, worded(answer, settled), back.map(|b| super::request::back_to(&b, id))).await
        }
        Err(e) => finish(deadline, Err(e), back).await,
    }
}

/// A write's answer once the door settled it (see [`super::door`]): with `"standby"` when
/// there is a word for it.
fn worded(answer: Answer, settled: super::door::Settled) -> std::result::Result<Answer, ApiError> {
    match settled.word {
        Some(word) => Ok(answer.with(&serde_json::json!({ "standby": word }))?),
        None => Ok(answer),
    }
}

/// A player's write as sent: the table and the code that act there, the fields for the audit, the page to go
/// back to (a form's) and the write's key (scoped by the code's holder and the request's route).
pub struct PlayerWrite {
    /// The table.
    pub table: u32,
    /// The code that acts.
    pub code: String,
    /// The fields, for the audit.
    pub shown: String,
    /// Where a form goes back to.
    pub back: Option<String>,
    /// The write's key, if sent.
    pub key: Option<Sent>,
}

/// Runs one write for the holder of `sent.code` at `sent.table`.
pub async fn player(
    player: &Player,
    sent: PlayerWrite,
    f: impl FnOnce(&mut Store, &Actor, Holder) -> Result<Answer> + Send + 'static,
) -> Response {
    let PlayerWrite { table, code, shown, back, key } = sent;
    let route = player.route.name;
    let done = player
        .act((table, code), player.command(&shown), move |store, actor, holder| {
            let key = key.map(|sent| sent.scoped(&actor.judge, route));
            run(store, actor, key, |store, actor| f(store, actor, holder))
        })
        .await;
    let answer = done.and_then(|(done, settled)| worded(done.answer()?, settled));
    finish(player.deadline, answer, back).await
}

/// How every write ends: its answer, or back to the form's page; a refusal as JSON, or as the refused page
/// (drawn within the request's `deadline`).
pub async fn finish(
    deadline: super::drawn::Deadline,
    done: std::result::Result<Answer, ApiError>,
    back: Option<String>,
) -> Response {
    match (done, back) {
        (Ok(_), Some(back)) => Redirect::to(&back).into_response(),
        (Ok(answer), None) => answer.into_response(),
        (Err(e), Some(back)) => page::refused(deadline, e, &back).await,
        (Err(e), None) => e.into_response(),
    }
}

/// How a write with a key ended.
#[derive(Debug)]
pub enum Done {
    /// Done now: its answer (kept with the key).
    Now(Answer),
    /// Done before under this key: the first answer, again, with `"repeat": true`.
    Before(Answer),
    /// The key was used with other fields: 422.
    OtherBody(String),
}

impl Done {
    /// The answer, or the refusal of a key used with other fields.
    pub fn answer(self) -> std::result::Result<Answer, ApiError> {
        match self {
            Done::Now(a) | Done::Before(a) => Ok(a),
            Done::OtherBody(key) => Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "the key \"{key}\" was used for another write with other fields: send a new Idempotency-Key for a new write"
                ),
            )),
        }
    }
}

/// Runs `f` (a write on `store` by `actor`) once for `key`: a key used already answers its first answer again,
/// else `f` runs (at the moment taken, see [`write_keys::moment`]) in one transaction with its key and the answer
/// kept for a repeat (one change for the standby). Without a key, `f` runs.
pub fn run(
    store: &mut Store,
    actor: &Actor,
    keyed: Option<Keyed>,
    f: impl FnOnce(&mut Store, &Actor) -> Result<Answer>,
) -> Result<Done> {
    let Some(Keyed { key, made, queued, first }) = keyed else {
        return Ok(Done::Now(f(store, actor)?));
    };
    if let Some(done) = before(store, &key)? {
        return Ok(done);
    }
    let (actor, moment) = match made {
        Some((at, table, timed)) => {
            let replayed = write_keys::Replayed { made: at, table, first, queued, timed };
            let m = write_keys::moment(store, actor, replayed)?;
            let answer = serde_json::json!({ "at": crate::time::stamp(m.at), "at_adjusted": m.adjusted });
            (m.actor, Some(answer))
        }
        None => (actor.clone(), None),
    };
    let out = write_keys::run_keyed(
        store,
        &key,
        |store| {
            f(store, &actor).and_then(|answer| match &moment {
                Some(m) => answer.with(m),
                None => Ok(answer),
            })
        },
        |answer| answer.kept().to_string(),
    );
    match out {
        Ok((answer, _)) => Ok(Done::Now(answer)),
        // Another request with the same key may have committed first: answer as it did.
        Err(e) => match before(store, &key)? {
            Some(done) => Ok(done),
            None => Err(e),
        },
    }
}

/// A key used before: its first answer again (settled by the door as everything written so far, which holds
/// the first try's change: a repeat is answered ok only once the standby holds it), or the refusal of a key
/// used with other fields.
fn before(store: &mut Store, key: &WriteKey) -> Result<Option<Done>> {
    let Some(kept) = write_keys::first(store, key)? else {
        return Ok(None);
    };
    if kept.body != key.body {
        return Ok(Some(Done::OtherBody(key.key.clone())));
    }
    store.settle_all(kept.audit_id)?;
    let first = kept
        .answer
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .filter(serde_json::Value::is_object);
    let answer = match first {
        Some(doc) => Answer::ok(&kept.summary).with(&doc)?,
        None => Answer::ok(&kept.summary),
    };
    Ok(Some(Done::Before(answer.with(&serde_json::json!({ "repeat": true }))?)))
}
