//! The one write runner: a judge's write (the CSRF check for cookie sessions, the role check, the judge as the
//! actor) or a player's (the code's holder as the actor, under the wrong-code limit) runs its `ops` call on the
//! request's store and ends the same way: the JSON [`Answer`], or for a page's form back to that page (a refusal
//! as the refused page with a link back).

use super::auth::Judge;
use super::error::ApiError;
use super::extract::{Payload, Player};
use super::once::{Answer, Sent};
use super::{once, page};
use crate::error::Result;
use crate::ops::table::device::Holder;
use crate::store::{Actor, Store};
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
        let actor = judge.actor(&judge.command(&payload.shown))?;
        let input = payload.input;
        let key = payload.sent.map(|sent| sent.scoped(&judge.judge.name, judge.route.name));
        judge
            .db
            .run(move |store| {
                // The entry this write makes, named by the page it goes back to (`?done=ID`); none for a repeat.
                let mut made = None;
                let done = once::run(store, &actor, key, |store, actor| {
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
            finish(answer, back.map(|b| super::state::back_to(&b, id)))
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

/// A write's answer once the standby settled it (see [`super::http::settle`]): with `"standby"` when there
/// is a word for it, or the 503 that says the standby has not applied it.
async fn settled(
    db: &super::state::Db,
    answer: Answer,
    (seq, state): Written,
) -> std::result::Result<Answer, ApiError> {
    match super::http::settle(db, seq, state).await? {
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
            Ok((once::run(store, actor, key, |store, actor| f(store, actor, holder))?, written(store, required)?))
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
