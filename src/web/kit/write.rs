//! The one write runner: a judge's write (the CSRF check for cookie sessions, the role check, the judge as the
//! actor) or a player's (the code's holder as the actor, under the wrong-code limit) runs its `ops` call on the
//! request's store, as one transaction with its audit row and, for a keyed write, its key and the answer kept for
//! a repeat (`Store::write_keyed`: one changeset); then waits for the standby where it must ([`settle`]), and ends
//! the same way: the JSON [`Answer`], or for a page's form back to that page (a refusal as the refused page with a
//! link back).

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
    let required = app.replica.required;
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
        judge
            .db
            .run(move |store| {
                // The entry this write makes, named by the page it goes back to (`?done=ID`); none for a repeat.
                let mut made = None;
                let done = run(store, &actor, key, |store, actor| {
                    let answer = f(store, actor, input)?;
                    made = crate::ops::log::last_of(store.conn(), actor)?;
                    Ok(answer)
                })?;
                Ok((done, made, written(store, required)?))
            })
            .await
            .and_then(|(done, made, written)| Ok((done.answer()?, made, written)))
    }
    .await;
    match done {
        Ok((answer, id, written)) => {
            if let (Some(id), Ok(mut kept)) = (id, app.done.lock()) {
                kept.keep(id, answer.summary().to_string());
            }
            let answer = settled(&judge.db, answer, written).await;
            finish(answer, back.map(|b| super::request::back_to(&b, id)))
        }
        Err(e) => finish(Err(e), back),
    }
}

/// What a write left for the standby to settle: the replication seq its transaction got (None: it changed
/// nothing), and with `--standby-required` the file's replication state right after it (read in the write's own
/// blocking call, not in another).
type Written = (Option<i64>, Option<crate::store::replication::State>);

fn written(store: &Store, required: bool) -> Result<Written> {
    let state = match required {
        true => Some(store.read(crate::store::replication::state)?),
        false => None,
    };
    Ok((store.last_seq(), state))
}

/// A write's answer once the standby settled it (see [`settle`]): with `"standby"` when there
/// is a word for it, or the 503 that says the standby has not applied it.
async fn settled(
    db: &super::state::Db,
    answer: Answer,
    (seq, state): Written,
) -> std::result::Result<Answer, ApiError> {
    match settle(db, seq, state).await? {
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
    let required = player.db.app().replica.required;
    let done = player
        .act((table, code), player.command(&shown), move |store, actor, holder| {
            let key = key.map(|sent| sent.scoped(&actor.judge, route));
            Ok((run(store, actor, key, |store, actor| f(store, actor, holder))?, written(store, required)?))
        })
        .await;
    let answer = match done.and_then(|(done, written)| Ok((done.answer()?, written))) {
        Ok((answer, written)) => settled(&player.db, answer, written).await,
        Err(e) => Err(e),
    };
    finish(answer, back)
}

/// How every write ends: its answer, or back to the form's page; a refusal as JSON, or as the refused page.
pub fn finish(done: std::result::Result<Answer, ApiError>, back: Option<String>) -> Response {
    match (done, back) {
        (Ok(_), Some(back)) => Redirect::to(&back).into_response(),
        (Ok(answer), None) => answer.into_response(),
        (Err(e), Some(back)) => page::refused(e, &back),
        (Err(e), None) => e.into_response(),
    }
}

/// After a write of this server through the write runner: wakes the standby's stream and, with
/// `--standby-required`, waits for the standby to apply the write's change `seq` (None: the write changed nothing,
/// as a repeat of a key: all written so far). Answers the word for the write's answer (`"applied"`; `"none"` once
/// a head judge detached the second laptop; nothing without `--standby-required`), or 503 with `Retry-After` when
/// the standby did not apply it in time (the write may be recorded here: a page sends it again with its key, and a
/// repeat is answered the same way until the standby holds it).
/// `state`: the event file's replication state as the write's own blocking call read it right after the write
/// (None: read here).
pub async fn settle(
    db: &super::state::Db,
    seq: Option<i64>,
    state: Option<crate::store::replication::State>,
) -> Result<Option<&'static str>, super::request::ApiError> {
    use crate::store::replication::{self, Role};
    let app = db.app().clone();
    app.replica.wake();
    if !app.replica.required {
        return Ok(None);
    }
    let s = match state {
        Some(s) => s,
        None => match db.run(|store| store.read(replication::state)).await {
            Ok(s) => s,
            Err(_) => return Ok(None),
        },
    };
    if s.role != Role::Primary || s.key_hash.is_none() {
        let alone = s.detached_at.is_some() && s.key_hash.is_none() && s.moved_to.is_none();
        return Ok(alone.then_some("none"));
    }
    if app.replica.applied(seq.unwrap_or(s.seq)).await {
        return Ok(Some("applied"));
    }
    Err(super::request::ApiError::new(StatusCode::SERVICE_UNAVAILABLE, NOT_CONFIRMED)
        .retry_after(2)
        .fact("standby", "not applied"))
}

/// A write the standby has not applied in time.
const NOT_CONFIRMED: &str = "Not confirmed yet: the event's second laptop has not saved this. Your page keeps it and \
                             sends it again by itself; it will not be recorded twice.";

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

fn before(store: &Store, key: &WriteKey) -> Result<Option<Done>> {
    let Some(kept) = write_keys::first(store, key)? else {
        return Ok(None);
    };
    if kept.body != key.body {
        return Ok(Some(Done::OtherBody(key.key.clone())));
    }
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
