//! What a player's own page needs besides the seat: the bye as data, the report waiting for their word, and
//! their own state (dropped, disqualified, a late entry) as data the page words; and the byes of a round for
//! the live pairings.

use crate::error::Result;
use crate::ops::table::Seated;
use crate::ops::table::device::self_report::WaitingReports;
use crate::store::player::Player;
use crate::store::{Store, matches, penalty, player, round};
use rusqlite::Connection;

/// Match points a bye counts for (a win).
pub const BYE_POINTS: u32 = 3;

/// A bye in a round.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ByeView {
    /// The round.
    pub round: u32,
    /// The player with the bye.
    pub player: String,
    /// What it counts as: always `win`.
    pub counts_as: &'static str,
    /// The match points it gives.
    pub points: u32,
}

/// The one report waiting at a table for the other player's word (not in conflict).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WaitingReport {
    /// Its number: what a confirmation names (`POST /api/self-report/confirm`).
    pub id: i64,
    /// Who reported it.
    pub by: String,
    /// The winner as reported (None for a draw).
    pub winner: Option<String>,
    /// Why the game ended (a reason's slug).
    pub reason: String,
    /// Life totals (seat A, seat B), when given.
    pub life: Option<[i64; 2]>,
    /// When it was reported (RFC 3339).
    pub at: String,
}

/// A player who is not simply playing: dropped, disqualified, or entered late.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlayerState {
    /// `dropped`, `disqualified` or `late`.
    pub kind: &'static str,
    /// Dropped: the last round played (0: before round 1). Disqualified: the round of the disqualification, when
    /// given at a table.
    pub after_round: Option<u32>,
    /// When the drop or the disqualification was made (RFC 3339), when known.
    pub at: Option<String>,
    /// A drop's reason: `judge`, `no-show` or `not-arrived`.
    pub reason: Option<String>,
    /// A late entry: the first round the player is paired in.
    pub joined_round: Option<u32>,
}

/// The bye of the player in round `number`, as data.
pub fn bye(number: u32, name: &str) -> ByeView {
    ByeView { round: number, player: name.to_string(), counts_as: "win", points: BYE_POINTS }
}

/// The byes of round `round` (None: the current one), in the order they were given; none before round 1.
pub fn round_byes(store: &Store, round_no: Option<u32>) -> Result<Vec<ByeView>> {
    store.read(|conn| byes_in(conn, round_no))
}

/// [`round_byes`] in a read already under way.
pub fn byes_in(conn: &Connection, round_no: Option<u32>) -> Result<Vec<ByeView>> {
    let number = match round_no {
        Some(n) => n,
        None => round::current(conn)?,
    };
    if number == 0 {
        return Ok(Vec::new());
    }
    let byes = matches::byes_of_round(conn, number)?;
    if byes.is_empty() {
        return Ok(Vec::new());
    }
    let names = crate::ops::player_names::names_by_id(conn)?;
    Ok(byes.into_iter().map(|m| bye(number, names.get(&m.a).map_or("", String::as_str))).collect())
}

/// The single report waiting at a table for the other player's word; None when none waits or two are in
/// conflict (the judges decide).
pub fn waiting_report(conn: &Connection, seated: &Seated) -> Result<Option<WaitingReport>> {
    let Some(w) = crate::ops::table::device::self_report::waiting_at(conn, seated)? else { return Ok(None) };
    Ok(single(&w))
}

/// The single report waiting at table `table` of the current round, with the names of seat A's and seat B's
/// players (for the table's device); None when none waits, two wait for a judge, or no match is played there.
pub fn waiting_at_table(conn: &Connection, table: u32) -> Result<Option<(WaitingReport, String, String)>> {
    let seated = match crate::ops::table::Seated::at(conn, table, None) {
        Ok(s) => s,
        Err(e) if e.kind() == crate::error::Kind::Failed => return Err(e),
        Err(_) => return Ok(None),
    };
    Ok(waiting_report(conn, &seated)?.map(|w| (w, seated.a.name, seated.b.name)))
}

/// The two reports at table `table` of the current round when they differ, in words for the table's device ("Ana
/// says Ana beat Bo by concession; Bo says Bo beat Ana by life (0 to 5 life)"); None otherwise.
pub fn reports_differ_at_table(conn: &Connection, table: u32) -> Result<Option<String>> {
    let seated = match crate::ops::table::Seated::at(conn, table, None) {
        Ok(s) => s,
        Err(e) if e.kind() == crate::error::Kind::Failed => return Err(e),
        Err(_) => return Ok(None),
    };
    let Some(w) = crate::ops::table::device::self_report::waiting_at(conn, &seated)? else { return Ok(None) };
    Ok(differ(&w))
}

/// Two reports that differ, in words: "Ana says ...; Bo says ...".
pub fn differ(w: &WaitingReports) -> Option<String> {
    if w.state != "conflict" {
        return None;
    }
    let says: Vec<String> = w.reports.iter().map(|r| format!("{} says {}", r.player, r.words)).collect();
    Some(says.join("; "))
}

fn single(w: &WaitingReports) -> Option<WaitingReport> {
    // Two reports (agreeing or in conflict) wait for a judge, not for a player's word.
    w.waiting_for.as_ref()?;
    let r = w.reports.first()?;
    Some(WaitingReport {
        id: r.id,
        by: r.player.clone(),
        winner: r.winner.clone(),
        reason: r.reason.clone(),
        life: r.life,
        at: r.at.clone(),
    })
}

/// While players check in (check-in on, round 1 not paired): whether `p` has; None when check-in is not running.
pub fn checked_in(conn: &Connection, p: &Player) -> Result<Option<bool>> {
    if !crate::ops::players::check_in::is_on(conn)? || round::current(conn)? > 0 {
        return Ok(None);
    }
    Ok(Some(player::arrival(conn, p.id)?.checked_in_at.is_some()))
}

/// The names of the players round 1 waits for (check-in on, not checked in), by name; empty otherwise.
pub fn not_checked_in(conn: &Connection) -> Result<Vec<String>> {
    let mut names: Vec<String> = crate::ops::players::check_in::absent(conn)?.into_iter().map(|p| p.name).collect();
    names.sort_by_cached_key(|n| crate::domain::names::fold(n));
    Ok(names)
}

/// The player's state when they are not simply playing: disqualified, dropped (after which round, when, why), or
/// a late entry (from which round); None otherwise.
pub fn state_of(conn: &Connection, p: &Player) -> Result<Option<PlayerState>> {
    if p.disqualified {
        let dq = match penalty::disqualification(conn, p.id)? {
            Some((id, at)) => Some((penalty::get(conn, id)?.and_then(|x| x.round), at)),
            None => None,
        };
        let (after_round, at) = dq.map_or((None, None), |(r, at)| (r, Some(at)));
        return Ok(Some(PlayerState { kind: "disqualified", after_round, at, reason: None, joined_round: None }));
    }
    if let Some(after) = p.dropped_after {
        let reason = player::drop_reason(conn, p.id)?.unwrap_or_else(|| "judge".into());
        return Ok(Some(PlayerState {
            kind: "dropped",
            after_round: Some(after),
            at: player::dropped_at(conn, p.id)?,
            reason: Some(reason),
            joined_round: None,
        }));
    }
    if p.joined_round > 1 {
        return Ok(Some(PlayerState {
            kind: "late",
            after_round: None,
            at: None,
            reason: None,
            joined_round: Some(p.joined_round),
        }));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::result::Reason;
    use crate::ops::table::device::self_report::{SelfReportInput, self_report};
    use crate::store::player_codes;

    fn actor() -> Result<crate::store::Actor> {
        crate::store::test_actor("2025-05-01T09:30:00.000Z")
    }

    #[test]
    fn a_round_ended_before_its_clock_ran_is_ended_in_the_home_view() -> Result<()> {
        let (mut store, _, _) = crate::store::memory_with_one_match()?;
        let input = crate::ops::table::records::result::ResultInput {
            table: 1,
            round: None,
            winner: Some("bo".into()),
            reason: Reason::NoShow,
            life: None,
            note: None,
            at: None,
            turn: None,
        };
        crate::ops::table::records::result::record_result(&mut store, &actor()?, input)?;
        crate::ops::round::clock::end_round(&mut store, &actor()?, None, false)?;
        let home = crate::ops::live::home(&store, chrono::Utc::now())?;
        let round = home.round.map(|r| (r.state, r.started_at, r.ended_at));
        assert_eq!(round, Some(("ended", None, Some("2025-05-01T09:30:00.000Z".to_string()))));
        let dropped = crate::ops::live::find_player(&store, "ana", chrono::Utc::now())?.state;
        assert_eq!(dropped.and_then(|s| s.reason), Some("no-show".to_string()));
        Ok(())
    }

    #[test]
    fn a_players_page_gets_the_waiting_report_the_bye_and_their_state_as_data() -> Result<()> {
        let (mut store, _, [ana, bo]) = crate::store::memory_with_one_match()?;
        let now = chrono::Utc::now();
        let seat = crate::ops::live::find_player(&store, "bo", now)?;
        assert_eq!((seat.waiting_report.clone(), seat.state.clone(), seat.next.is_none()), (None, None, true));
        let code = player_codes::of(store.conn(), ana)?.unwrap_or_default();
        let holder = crate::ops::table::device::holder(store.conn(), 1, &code)?;
        let origin = crate::store::self_reports::Origin::default();
        let input =
            SelfReportInput { holder, winner: Some("ana".into()), reason: Reason::Concession, life: None, origin };
        let sent = self_report(&mut store, &actor()?, input)?;
        let seat = crate::ops::live::find_player(&store, "bo", now)?;
        let w = seat.waiting_report.clone();
        assert_eq!(
            w.map(|w| (w.id, w.by, w.winner, w.reason)),
            Some((sent.report.id, "Ana".to_string(), Some("Ana".to_string()), "concession".to_string()))
        );
        // A player added now and given a bye, then dropped.
        let conn = store.conn();
        let np = player::NewPlayer { name: "Cy", name_key: "cy", ext_id: None, email: None, joined_round: 1 };
        let cy = player::insert(conn, &np)?;
        let nm = matches::NewMatch { round: 1, table: None, a: cy, b: None, a_library: None, b_library: None };
        matches::insert(conn, &nm)?;
        assert_eq!(byes_in(conn, None)?, vec![bye(1, "Cy")]);
        let seat = crate::ops::live::find_player(&store, "cy", now)?;
        assert_eq!(seat.bye_result, Some(bye(1, "Cy")));
        crate::ops::players::drop_player(&mut store, &actor()?, "bo")?;
        let seat = crate::ops::live::find_player(&store, "bo", now)?;
        let state = seat.state.map(|s| (s.kind, s.after_round, s.at, s.reason));
        assert_eq!(
            state,
            Some(("dropped", Some(1), Some("2025-05-01T09:30:00.000Z".to_string()), Some("judge".to_string())))
        );
        assert!(player::get(store.conn(), bo)?.dropped_after.is_some());
        Ok(())
    }
}
