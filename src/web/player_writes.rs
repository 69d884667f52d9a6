//! A player's own acts with their code (from `/me`, the table's device or JSON): reporting their result
//! (`POST /api/self-report`), confirming or disputing the opponent's report, calling a judge (`POST /api/call`)
//! and checking in (`POST /api/check-in`). Wrong codes count against the player the try aims at (see
//! `kit::player`), as at the table's device.

use crate::domain::result::Reason;
use crate::error::Error;
use crate::ops::players::check_in;
use crate::ops::table::device::calls;
use crate::ops::table::device::self_report;
use crate::store::self_reports;
use crate::web::kit::body::{Life, life_given};
use crate::web::kit::extract::Payload;
use crate::web::kit::extract::Player;
use crate::web::kit::request::Answer;
use crate::web::kit::request::ApiError;
use crate::web::kit::write::{self, PlayerWrite};
use axum::response::Response;

/// `POST /api/self-report` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfReportBody {
    /// The table.
    pub table: u32,
    /// The reporting player's code (or `signin`).
    pub code: Option<String>,
    /// The reporting player's sign-in on the table's device.
    pub signin: Option<String>,
    /// The winner (a name or its beginning) or `draw`.
    pub winner: Option<String>,
    /// Why the game ended, as `mmjudge result --by` takes it.
    pub by: String,
    /// Life totals, seat A's then seat B's (`[12, 0]`, or a form's `12,0`).
    pub life: Option<Life>,
    /// Seat A's life total alone (the forms ask each player's by name); with `life_b`, in place of `life`.
    #[serde(default, deserialize_with = "crate::web::kit::body::optional_number")]
    pub life_a: Option<i64>,
    /// Seat B's life total alone.
    #[serde(default, deserialize_with = "crate::web::kit::body::optional_number")]
    pub life_b: Option<i64>,
    /// The player whose page (`/me`) the form is on: only their code acts there.
    pub me: Option<String>,
}

/// `POST /api/self-report`: a player reports the result at their own table (see `ops::table::device::self_report`).
pub async fn self_report(player: Player, p: Payload<SelfReportBody>) -> Response {
    let b = p.input;
    let parsed =
        Reason::parse(&b.by).map_err(Error::bad_input).and_then(|r| Ok((r, life_given(b.life, b.life_a, b.life_b)?)));
    let (reason, life) = match parsed {
        Ok(x) => x,
        Err(e) => return write::finish(player.deadline, Err(e.into()), p.back).await,
    };
    let winner = b.winner.map(|w| w.trim().to_string()).filter(|w| !w.is_empty());
    let origin = origin(&player, b.signin.is_some());
    let acting = Acting { table: b.table, code: b.code, signin: b.signin, me: b.me };
    result_write(player, acting, (p.shown, p.back, p.sent), move |store, actor, holder| {
        let input = self_report::SelfReportInput { holder, winner, reason, life, origin };
        let out = self_report::self_report(store, actor, input)?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// Who acts in a player's result write (a report, a confirmation, a dispute): their `code` (the form of `/me`) or
/// their table sign-in (`signin`), at `table`, on the page of `me`.
struct Acting {
    table: u32,
    code: Option<String>,
    signin: Option<String>,
    me: Option<String>,
}

/// Runs a player's result write `f` for whoever `acting` names; the payload's audit fields, way back and key as
/// `sent`.
async fn result_write(
    player: Player,
    acting: Acting,
    (shown, back, key): (String, Option<String>, Option<crate::web::kit::extract::Sent>),
    f: impl FnOnce(
        &mut crate::store::Store,
        &crate::store::Actor,
        crate::ops::table::device::Holder,
    ) -> crate::error::Result<Answer>
    + Send
    + 'static,
) -> Response {
    let code = match code_of(&player, acting.table, acting.code, acting.signin).await {
        Ok(code) => code,
        Err(e) => return write::finish(player.deadline, Err(e), back).await,
    };
    let player = player.on_page_of(acting.me);
    write::player(&player, PlayerWrite { table: acting.table, code, shown, back, key }, f).await
}

/// The code a player's result write acts with: `code` (the form of `/me`), or a table's sign-in (`signin`).
async fn code_of(
    player: &Player,
    table: u32,
    code: Option<String>,
    signin: Option<String>,
) -> std::result::Result<String, ApiError> {
    if code.is_none() && signin.is_none() {
        return Err(Error::bad_input("code: type your code (six digits, on your slip)").into());
    }
    player.code_of(table, code, signin).await
}

/// Where a player's report or confirmation came from: its device (the cookie it sent, or the one its answer
/// gives it), whether it sent none, its address, and whether it acted with a table's sign-in.
fn origin(player: &Player, signed_in: bool) -> self_reports::Origin {
    let device = player.device.as_ref().map(|d| d.0.clone());
    let address = Some(player.addr.ip().to_string());
    self_reports::Origin { device, address, signed_in, fresh: player.new_device }
}

/// `POST /api/call` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallBody {
    /// The table.
    pub table: u32,
    /// The calling player's code (or `signin`).
    pub code: Option<String>,
    /// The calling player's sign-in on the table's device (its "Call a judge" button).
    pub signin: Option<String>,
    /// The player whose page (`/me`) the form is on: only their code acts there.
    pub me: Option<String>,
}

/// `POST /api/call`: a player calls a judge to their own table, with their code (`/me`) or their sign-in on the
/// table's device; a call already open there is answered as it stands (`"repeat": true`).
pub async fn call(player: Player, p: Payload<CallBody>) -> Response {
    let b = p.input;
    let code = b.code.filter(|c| !c.trim().is_empty());
    let signin = b.signin.filter(|s| !s.trim().is_empty());
    if code.is_none() && signin.is_none() {
        let e = Error::bad_input("give your player code (six digits, on your slip) to call a judge");
        return write::finish(player.deadline, Err(e.into()), p.back).await;
    }
    let table = b.table;
    let code = match player.code_of(table, code, signin).await {
        Ok(code) => code,
        Err(e) => return write::finish(player.deadline, Err(e), p.back).await,
    };
    let player = player.on_page_of(b.me);
    write::player(
        &player,
        PlayerWrite { table, code: code.clone(), shown: p.shown, back: p.back, key: p.sent },
        move |store, actor, holder| {
            let out = calls::call_judge(store, actor, &holder)?;
            Answer::of(&out.summary, &out)
        },
    )
    .await
}

/// `POST /api/self-report/confirm` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfirmBody {
    /// The table.
    pub table: u32,
    /// The confirming player's code (or `signin`).
    pub code: Option<String>,
    /// The confirming player's sign-in on the table's device.
    pub signin: Option<String>,
    /// The number of the report waiting at the table (`waiting_report.id` of `/api/me`).
    pub report: i64,
    /// The player whose page (`/me`) the form is on: only their code acts there.
    pub me: Option<String>,
}

/// `POST /api/self-report/confirm`: a player confirms, in one tap, exactly the report their opponent made
/// (answered as `/api/self-report`, with state `confirmed`); 409 when that report is not the one waiting at the
/// table, or is the player's own, and when it comes from the report's own device (but on the table's device, both
/// with sign-ins) or without a device cookie (see `ops::table::device::witness`).
pub async fn confirm_report(player: Player, p: Payload<ConfirmBody>) -> Response {
    let b = p.input;
    let report = b.report;
    let origin = origin(&player, b.signin.is_some());
    let acting = Acting { table: b.table, code: b.code, signin: b.signin, me: b.me };
    result_write(player, acting, (p.shown, p.back, p.sent), move |store, actor, holder| {
        let input = self_report::ConfirmInput { holder, report, origin };
        let out = self_report::confirm_report(store, actor, &input)?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// `POST /api/self-report/dispute` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisputeBody {
    /// The table.
    pub table: u32,
    /// The disputing player's code (or `signin`).
    pub code: Option<String>,
    /// The disputing player's sign-in on the table's device.
    pub signin: Option<String>,
    /// The player whose page (`/me`) the form is on: only their code acts there.
    pub me: Option<String>,
}

/// `POST /api/self-report/dispute`: the player in whose name a flagged result was confirmed (on one device, or
/// from the reporter's address) says that is not what happened, until the next round is paired: the result is in
/// conflict for a judge (see `ops::table::device::witness`).
pub async fn dispute_report(player: Player, p: Payload<DisputeBody>) -> Response {
    let b = p.input;
    let acting = Acting { table: b.table, code: b.code, signin: b.signin, me: b.me };
    result_write(player, acting, (p.shown, p.back, p.sent), move |store, actor, holder| {
        let out = crate::ops::table::device::witness::dispute(store, actor, &holder)?;
        Answer::of(&out.summary, &out)
    })
    .await
}

/// `POST /api/check-in` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckInBody {
    /// The player's name (or an unambiguous part of it).
    pub name: String,
    /// Their code (six digits, on their slip).
    pub code: String,
}

/// `POST /api/check-in`: a player checks in with their name and code while check-in is on (409 while it is off
/// or over); wrong codes count against the address and the name, as wrong codes at a table do.
pub async fn check_in(player: Player, p: Payload<CheckInBody>) -> Response {
    let b = p.input;
    if let Err(e) = player.paced_sign_in(&b.code) {
        return write::finish(player.deadline, Err(e), p.back).await;
    }
    let command = player.command(&p.shown);
    let (addr, me) = (player.addr, player.clone());
    let name = b.name.clone();
    let run = player.db.run(move |store| {
        // A name that finds no one player is refused by the check-in itself, as a wrong code.
        let found = store.read(|conn| Ok(crate::ops::player_names::find(conn, &b.name).ok()));
        let name = found?.map_or_else(|| b.name.trim().to_string(), |p| p.name);
        let actor = crate::web::kit::request::web_actor(&format!("{name} (player)"), &command, addr)?;
        me.is(&name);
        let input = check_in::SelfCheckInInput { name: b.name, code: b.code };
        let out = check_in::self_check_in(store, &actor, &input)?;
        Answer::of(&out.summary, &out)
    });
    let deadline = player.deadline;
    write::finish(deadline, player.guarded_name(name, run).await, p.back).await
}
