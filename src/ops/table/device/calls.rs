//! Players' calls for a judge: a player, known by their code, calls a judge to their own table in the current
//! round (`POST /api/call` of `mmjudge serve`); a judge closes the call (`POST /api/call/close`,
//! `mmjudge call close TABLE`); `mmjudge call list` and the judges' dashboard show the calls waiting.

use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::table::device::Holder;
use crate::ops::table::{Pairing, Seated, hhmm};
use crate::store::self_reports::{self, Call};
use crate::store::{Actor, Change, Store, matches, round};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// The words that mark a call found open inside the write (a second call that raced the first).
const OPEN: &str = "a judge call is already open at this table";

/// A call for a judge.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CallView {
    /// The call's id.
    pub id: i64,
    /// The round, table, match and players.
    #[serde(flatten)]
    pub pairing: Pairing,
    /// The player who called.
    pub caller: String,
    /// Since when (RFC 3339).
    pub since: String,
}

/// A call made (or found open: a second call from the table while one is open is the same call).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Called {
    /// The call.
    #[serde(flatten)]
    pub call: CallView,
    /// Whether the call was already open (nothing was written).
    pub repeat: bool,
    /// The audit log's line (or, for a repeat, the call's state).
    #[serde(skip)]
    pub summary: String,
}

/// A call closed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CallClosed {
    /// The call.
    #[serde(flatten)]
    pub call: CallView,
    /// When it was closed (RFC 3339).
    pub closed_at: String,
    /// The judge who closed it.
    pub closed_by: String,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// The calls open in a round, each with how long it has waited.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OpenCalls {
    /// The round (0 before round 1 is paired).
    pub round: u32,
    /// The open calls, by table.
    pub calls: Vec<WaitingCall>,
}

/// An open call and its age.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WaitingCall {
    /// The call.
    #[serde(flatten)]
    pub call: CallView,
    /// Seconds since the call (at the moment of the listing).
    pub waiting_seconds: i64,
    /// The table's result is recorded: the call stays listed (the players may still need the judge).
    pub finished: bool,
}

fn view_at(seated: &Seated, c: &Call) -> CallView {
    let caller = if seated.a.id == c.player { &seated.a.name } else { &seated.b.name };
    CallView { id: c.id, pairing: seated.pairing(), caller: caller.clone(), since: c.at.clone() }
}

fn repeat(seated: &Seated, c: &Call) -> Called {
    let call = view_at(seated, c);
    let summary = format!(
        "a judge was already called to table {} by {} at {}: the call is still open",
        call.pairing.table,
        call.caller,
        hhmm(&call.since)
    );
    Called { call, repeat: true, summary }
}

/// A player calls a judge to their own table (the code's table in the current round). A call already open
/// there is answered as it stands, without writing.
pub fn call_judge(store: &mut Store, actor: &Actor, holder: &Holder) -> Result<Called> {
    let found = store.read(|conn| {
        let (seated, _) = holder.seated(conn)?;
        Ok(self_reports::open_call(conn, seated.m.id)?.map(|c| repeat(&seated, &c)))
    })?;
    if let Some(open) = found {
        return Ok(open);
    }
    let at = crate::time::stamp(actor.at);
    let written = store.write(actor, |tx| {
        let (seated, seat) = holder.seated(tx)?;
        if self_reports::open_call(tx, seated.m.id)?.is_some() {
            return Err(Error::refused(OPEN));
        }
        let me = seated.player(seat);
        let id = self_reports::open(tx, seated.m.id, me.id, &at)?;
        let call = Call { id, match_id: seated.m.id, player: me.id, at: at.clone() };
        let summary = format!("{} called a judge to table {}, round {}", me.name, seated.table(), seated.m.round);
        let out = Called { call: view_at(&seated, &call), repeat: false, summary: summary.clone() };
        let touched = seated.touched(Topic::Call).player(me.id);
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching(touched)))
    });
    match written {
        Err(e) if e.to_string() == OPEN => store.read(|conn| {
            let (seated, _) = holder.seated(conn)?;
            let open = self_reports::open_call(conn, seated.m.id)?;
            open.map(|c| repeat(&seated, &c))
                .ok_or_else(|| Error::refused("the call was sent twice at once: send it again"))
        }),
        other => other,
    }
}

/// `call close TABLE`: a judge closes the open call at a table of the current round.
pub fn close_call(store: &mut Store, actor: &Actor, table: u32) -> Result<CallClosed> {
    let at = crate::time::stamp(actor.at);
    store.write(actor, |tx| {
        let seated = Seated::at(tx, table, None)?;
        let Some(c) = self_reports::open_call(tx, seated.m.id)? else {
            let what = format!("no judge call is open at {}", seated.label());
            return Err(Refusal::refused(what).way_out(WayOut::ListCalls).into());
        };
        self_reports::close(tx, c.id, &at, &actor.judge)?;
        let call = view_at(&seated, &c);
        let summary = format!(
            "closed the judge call at table {}, round {} ({} called at {})",
            call.pairing.table,
            call.pairing.round,
            call.caller,
            hhmm(&call.since)
        );
        let out = CallClosed { call, closed_at: at.clone(), closed_by: actor.judge.clone(), summary: summary.clone() };
        let touched = seated.touched(Topic::Call).player(c.player);
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching(touched)))
    })
}

/// `call list`: the calls open in the current round (none before round 1 is paired), by table, with their age
/// at `now`.
pub fn open_calls(conn: &Connection, now: DateTime<Utc>) -> Result<OpenCalls> {
    let n = round::current(conn)?;
    let mut calls = Vec::new();
    for c in self_reports::open_calls(conn, n)? {
        let seated = Seated::load(conn, matches::get(conn, c.match_id)?)?;
        let finished = seated.m.outcome.is_some();
        let call = view_at(&seated, &c);
        let since = crate::time::unstamp(&call.since)?;
        calls.push(WaitingCall { call, waiting_seconds: (now - since).num_seconds().max(0), finished });
    }
    Ok(OpenCalls { round: n, calls })
}

/// The open call at a table of the current round, if any.
pub fn open_at(conn: &Connection, seated: &Seated) -> Result<Option<CallView>> {
    Ok(self_reports::open_call(conn, seated.m.id)?.map(|c| view_at(seated, &c)))
}

/// The open call at table `table` of the current round, if any (the table's device shows it while it is open).
pub fn open_at_table(conn: &Connection, table: u32) -> Result<Option<CallView>> {
    open_at(conn, &Seated::at(conn, table, None)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;
    use crate::store::player_codes;

    #[test]
    fn a_call_is_open_once_until_a_judge_closes_it() -> Result<()> {
        let (mut store, _, [ana, bo]) = crate::store::memory_with_one_match()?;
        let actor = crate::store::test_actor("2025-05-01T09:30:00.000Z")?;
        let holder = |p| {
            let code = player_codes::of(store.conn(), p)?.unwrap_or_default();
            crate::ops::table::device::holder(store.conn(), 1, &code)
        };
        let (ana_holds, bo_holds) = (holder(ana)?, holder(bo)?);
        let first = call_judge(&mut store, &actor, &ana_holds)?;
        assert_eq!((first.repeat, first.call.caller.as_str()), (false, "Ana"));
        let again = call_judge(&mut store, &actor, &bo_holds)?;
        assert_eq!((again.repeat, again.call.id), (true, first.call.id));
        let later = crate::store::test_actor("2025-05-01T09:32:05.000Z")?;
        let open = open_calls(store.conn(), later.at)?;
        assert_eq!(open.calls.iter().map(|c| c.waiting_seconds).collect::<Vec<_>>(), [125]);
        let closed = close_call(&mut store, &later, 1)?;
        assert_eq!((closed.closed_by.as_str(), closed.call.id), ("Kim", first.call.id));
        assert!(open_calls(store.conn(), later.at)?.calls.is_empty());
        assert_eq!(close_call(&mut store, &later, 1).err().map(|e| e.kind()), Some(Kind::Refused));
        assert_eq!(close_call(&mut store, &later, 4).err().map(|e| e.kind()), Some(Kind::NotFound));
        Ok(())
    }
}
