//! Players' self-reported results (`POST /api/self-report` of `mmjudge serve`): a player, known by their code,
//! reports the result at their own table in the current round. It counts nowhere until the opponent reports the
//! same (then it is recorded exactly as `mmjudge result` records it) or a judge records the result (which
//! settles the waiting reports). Different reports from the two players are in conflict: a judge decides.

use super::witness;
use crate::domain::result::Reason;
use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::ops::table::device::Holder;
use crate::ops::table::records::result::{ResultInput, ResultOutcome, record_result_in, verdict};
use crate::ops::table::{Pairing, Seated, outcome_of, round_or_current};
use crate::store::matches::Outcome;
use crate::store::self_reports::{self, Origin, Report};
use crate::store::{Actor, Change, MatchId, Store, matches, round};
use rusqlite::Connection;

/// The reasons a player may report; the others (lock, challenges, no-show, penalty) are a judge's to record.
pub const PLAYER_REASONS: [Reason; 6] =
    [Reason::Life, Reason::Decking, Reason::Poison, Reason::Concession, Reason::Time, Reason::IntentionalDraw];

/// A result as a player reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfReportInput {
    /// The reporting player at their table.
    pub holder: Holder,
    /// The winner (a name or its beginning) or `draw`; `None` with `time` and life totals.
    pub winner: Option<String>,
    /// Why the game ended.
    pub reason: Reason,
    /// Life totals (seat A, seat B).
    pub life: Option<(i64, i64)>,
    /// Where it was sent from (a matching report from the opponent's own device confirms nothing: see
    /// [`super::witness`]).
    pub origin: Origin,
}

/// One player's report.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReportView {
    /// Its number: what the opponent's confirmation names (a report replaced by its player gets a new one).
    pub id: i64,
    /// Who reported it.
    pub player: String,
    /// `a`, `b` or `draw`.
    pub outcome: Outcome,
    /// The winner's name (None for a draw).
    pub winner: Option<String>,
    /// Why the game ended.
    pub reason: String,
    /// Life totals (A, B), when given.
    pub life: Option<[i64; 2]>,
    /// When (RFC 3339).
    pub at: String,
    /// The result in words: "Ana beat Bo by life (12 to 0 life)".
    pub words: String,
}

/// What a self-report did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SelfReported {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The player who reported.
    pub player: String,
    /// The opponent.
    pub opponent: String,
    /// `waiting` (for the opponent), `confirmed` (the result is recorded) or `conflict` (a judge decides).
    pub state: &'static str,
    /// Whether it replaced the player's own earlier report.
    pub replaced: bool,
    /// How a confirmation was flagged: `table-device` (confirmed on the table's device), `same-address` (from the
    /// reporter's network address); None otherwise. The other player's word stays open until the next round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmed: Option<&'static str>,
    /// The report.
    pub report: ReportView,
    /// The result recorded, once confirmed (as `mmjudge --json result` gives it).
    pub result: Option<ResultOutcome>,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// The reports waiting at one table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WaitingReports {
    /// The round, table, match and players.
    #[serde(flatten)]
    pub pairing: Pairing,
    /// `waiting` (one report, or two that agree) or `conflict`.
    pub state: &'static str,
    /// Whose word is awaited (while waiting).
    pub waiting_for: Option<String>,
    /// The state in words: "reported by Ana, waiting for Bo" or "in conflict: ...".
    pub words: String,
    /// The reports, oldest first.
    pub reports: Vec<ReportView>,
}

/// The self-reports waiting in a round.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoundReports {
    /// The round.
    pub round: u32,
    /// The tables with reports, in order.
    pub tables: Vec<WaitingReports>,
}

/// Whether two reports say the same: who won and why, and the life totals where both give them.
fn agree(a: &Report, b: &Report) -> bool {
    a.outcome == b.outcome && a.reason == b.reason && (a.life.is_none() || b.life.is_none() || a.life == b.life)
}

fn view(seated: &Seated, r: &Report) -> ReportView {
    let name = |id| if seated.a.id == id { seated.a.name.clone() } else { seated.b.name.clone() };
    let winner = match r.outcome {
        Outcome::A => Some(seated.a.name.clone()),
        Outcome::B => Some(seated.b.name.clone()),
        Outcome::Draw => None,
    };
    ReportView {
        id: r.id,
        player: name(r.player),
        outcome: r.outcome,
        winner,
        reason: r.reason.clone(),
        life: r.life.map(|(a, b)| [a, b]),
        at: r.at.clone(),
        words: seated.describe(r.outcome, &r.reason, r.life),
    }
}

/// A player reports the result at their own table: kept waiting for the opponent, recorded when it matches
/// the opponent's waiting report, or put to the judges when it differs. Refused when the match has a result.
pub fn self_report(store: &mut Store, actor: &Actor, input: SelfReportInput) -> Result<SelfReported> {
    if !PLAYER_REASONS.contains(&input.reason) {
        return Err(Error::refused(format!(
            "a result by {} is a judge's to record: call a judge to your table",
            input.reason.slug()
        )));
    }
    if let Some(same) = store.read(|conn| already_waiting(conn, &input))? {
        return Ok(same);
    }
    let at = crate::time::stamp(actor.at);
    store.write(actor, |tx| {
        let (seated, seat) = still_playing(tx, &input.holder)?;
        let me = seated.player(seat).clone();
        let other = seated.player(seat.other()).clone();
        let claim = claim_of(&input);
        let v = verdict(tx, &seated, &claim)?;
        seated.played_by(tx, input.reason, actor.at)?;
        crate::ops::table::records::result::time_called(tx, &seated, &input.reason, actor.at)?;
        let mine = Report {
            match_id: seated.m.id,
            player: me.id,
            outcome: outcome_of(v),
            reason: input.reason.slug().to_string(),
            life: input.life,
            at: at.clone(),
            id: 0,
            origin: input.origin.clone(),
        };
        let waiting = self_reports::of_match(tx, seated.m.id)?;
        let replaced = waiting.iter().any(|r| r.player == me.id);
        let theirs = waiting.iter().find(|r| r.player == other.id);
        let label = format!("table {}, round {}", seated.table(), seated.m.round);
        let report = view(&seated, &mine);
        let mut topics = vec![seated.touched(Topic::SelfReport).player(me.id)];
        let mut out = SelfReported {
            round: seated.m.round,
            table: seated.table(),
            match_id: seated.m.id,
            player: me.name.clone(),
            opponent: other.name.clone(),
            state: "waiting",
            replaced,
            confirmed: None,
            report: report.clone(),
            result: None,
            summary: String::new(),
        };
        // The player's own different report waits beside the opponent's: a report matching the opponent's sent by a
        // sign-in kept elsewhere (the table's device, where it stays) is not theirs to settle the dispute with: a
        // judge decides, as for a confirmation (see `confirm_report`).
        let own = waiting.iter().find(|r| r.player == me.id);
        if let (Some(own), Some(t)) = (own, theirs)
            && !agree(own, t)
            && agree(&mine, t)
            && by_sign_in_elsewhere(own, &input.origin)
        {
            return Err(differ_elsewhere(&seated, &me.name, own));
        }
        match theirs {
            Some(t) if agree(&mine, t) => {
                let w = witness::witness_of(tx, t, me.id, &input.origin)?;
                let winner = match mine.outcome {
                    Outcome::A => seated.a.name.clone(),
                    Outcome::B => seated.b.name.clone(),
                    Outcome::Draw => "draw".into(),
                };
                let input = ResultInput { winner: Some(winner), life: mine.life.or(t.life), ..claim };
                let (recorded, change) = record_result_in(tx, actor, &input)?;
                witness::keep(tx, w, t, me.id, &at)?;
                out.state = "confirmed";
                out.confirmed = w.flag();
                out.summary = format!("{}; reported by {}, {}", change.summary, other.name, w.confirmed_by(&me.name));
                topics.extend(change.topics);
                out.result = Some(recorded);
            }
            Some(t) => {
                self_reports::put(tx, &mine)?;
                out.report.id = kept_id(tx, &mine)?;
                out.state = "conflict";
                out.summary = format!(
                    "{label}: {} reports {}, {} reported {}: in conflict, a judge decides",
                    me.name,
                    report.words,
                    other.name,
                    seated.describe(t.outcome, &t.reason, t.life)
                );
            }
            None => {
                self_reports::put(tx, &mine)?;
                out.report.id = kept_id(tx, &mine)?;
                let again = if replaced { " (replacing their earlier report)" } else { "" };
                out.summary = format!(
                    "{label}: {} reports {}{again}; waiting for {} to confirm",
                    me.name, report.words, other.name
                );
            }
        }
        Ok((out.clone(), Change::about(out.summary, [seated.a.id, seated.b.id]).touching_all(topics)))
    })
}

/// What a player's report claims, as the result a judge would record.
fn claim_of(input: &SelfReportInput) -> ResultInput {
    ResultInput {
        table: input.holder.table,
        round: None,
        winner: input.winner.clone(),
        reason: input.reason,
        life: input.life,
        note: None,
        at: None,
        turn: None,
    }
}

/// The player's own report, identical to this one, already waits for the opponent (none from them yet): it is
/// answered again, and nothing is written (a phone that sends the same report over and over grows nothing).
fn already_waiting(conn: &Connection, input: &SelfReportInput) -> Result<Option<SelfReported>> {
    let (seated, seat) = still_playing(conn, &input.holder)?;
    let (me, other) = (seated.player(seat).clone(), seated.player(seat.other()).clone());
    let waiting = self_reports::of_match(conn, seated.m.id)?;
    if waiting.iter().any(|r| r.player == other.id) {
        return Ok(None);
    }
    let Some(mine) = waiting.iter().find(|r| r.player == me.id) else { return Ok(None) };
    let claim = claim_of(input);
    let Ok(v) = verdict(conn, &seated, &claim) else { return Ok(None) };
    if mine.outcome != outcome_of(v) || mine.reason != input.reason.slug() || mine.life != input.life {
        return Ok(None);
    }
    let report = view(&seated, mine);
    let label = format!("table {}, round {}", seated.table(), seated.m.round);
    let summary = format!(
        "{label}: {} reports {} (already waiting); waiting for {} to confirm",
        me.name, report.words, other.name
    );
    Ok(Some(SelfReported {
        round: seated.m.round,
        table: seated.table(),
        match_id: seated.m.id,
        player: me.name,
        opponent: other.name,
        state: "waiting",
        replaced: false,
        confirmed: None,
        report,
        result: None,
        summary,
    }))
}

/// A player confirms the opponent's waiting report by its number (`POST /api/self-report/confirm`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmInput {
    /// The confirming player at their table.
    pub holder: Holder,
    /// The report's number ([`ReportView::id`]).
    pub report: i64,
    /// Where the confirmation was sent from (see [`super::witness`]).
    pub origin: Origin,
}

/// The code's player confirms the opponent's report waiting at their table: exactly that report is recorded, as
/// `mmjudge result` records it (state `confirmed`). Refused when the number is not a report waiting at that table
/// (replaced, settled, or another table's), when it is the player's own report, and when the match has a result.
pub fn confirm_report(store: &mut Store, actor: &Actor, input: &ConfirmInput) -> Result<SelfReported> {
    store.write(actor, |tx| {
        let (seated, seat) = still_playing(tx, &input.holder)?;
        let me = seated.player(seat).clone();
        let waiting = self_reports::of_match(tx, seated.m.id)?;
        let Some(theirs) = waiting.iter().find(|r| r.id == input.report) else {
            return Err(Error::refused(format!(
                "report {} is not the report waiting at table {}: it was replaced or settled; see the report \
                 waiting now",
                input.report,
                seated.table()
            )));
        };
        if theirs.player == me.id {
            return Err(Error::refused(format!(
                "report {} is your own: your opponent confirms it (or reports what happened)",
                input.report
            )));
        }
        let w = witness::witness_of(tx, theirs, me.id, &input.origin)?;
        // The confirming player's own different report, and this confirmation by a sign-in kept on another device
        // (the table's, still offering the other's report): the reports differ and a judge decides.
        if let Some(own) = waiting.iter().find(|r| r.player == me.id)
            && !agree(own, theirs)
            && by_sign_in_elsewhere(own, &input.origin)
        {
            return Err(differ_elsewhere(&seated, &me.name, own));
        }
        let reason = Reason::parse(&theirs.reason).map_err(Error::refused)?;
        let winner = match theirs.outcome {
            Outcome::A => seated.a.name.clone(),
            Outcome::B => seated.b.name.clone(),
            Outcome::Draw => "draw".into(),
        };
        let other = seated.player(seat.other()).clone();
        let claim = ResultInput {
            table: input.holder.table,
            round: None,
            winner: Some(winner),
            reason,
            life: theirs.life,
            note: None,
            at: None,
            turn: None,
        };
        let report = view(&seated, theirs);
        let (recorded, change) = record_result_in(tx, actor, &claim)?;
        witness::keep(tx, w, theirs, me.id, &crate::time::stamp(actor.at))?;
        let summary = format!("{}; reported by {}, {}", change.summary, other.name, w.confirmed_by(&me.name));
        let out = SelfReported {
            round: seated.m.round,
            table: seated.table(),
            match_id: seated.m.id,
            player: me.name.clone(),
            opponent: other.name.clone(),
            state: "confirmed",
            replaced: false,
            confirmed: w.flag(),
            report,
            result: Some(recorded),
            summary: summary.clone(),
        };
        // The result's topics too: pages following results (the dashboard, /pairings) hear of it.
        let mut topics = vec![seated.touched(Topic::SelfReport).player(me.id)];
        topics.extend(change.topics);
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching_all(topics)))
    })
}

/// Whether a player's word comes by a sign-in kept on a device (the table's, where it stays for the match and
/// anyone may tap) other than the one their own report came from: not their word against that report. A word
/// sent with the code typed is theirs wherever it is typed.
fn by_sign_in_elsewhere(own: &Report, word: &Origin) -> bool {
    word.signed_in && own.origin.device != word.device
}

/// The refusal of a word sent by a sign-in elsewhere than the player's own different report: the reports differ
/// and a judge decides.
fn differ_elsewhere(seated: &Seated, name: &str, own: &Report) -> Error {
    Error::refused(format!(
        "{name} reported a different result from another device ({}): the two reports differ, so a judge decides; \
         call a judge to table {}",
        view(seated, own).words,
        seated.table()
    ))
}

/// The number a report was kept with.
fn kept_id(tx: &Connection, mine: &Report) -> Result<i64> {
    let kept = self_reports::of_match(tx, mine.match_id)?;
    Ok(kept.iter().find(|r| r.player == mine.player).map_or(0, |r| r.id))
}

/// The reports waiting at a match, with their state; None when there are none.
pub fn waiting_at(conn: &Connection, seated: &Seated) -> Result<Option<WaitingReports>> {
    let reports = self_reports::of_match(conn, seated.m.id)?;
    if reports.is_empty() || seated.m.outcome.is_some() {
        return Ok(None);
    }
    let views: Vec<ReportView> = reports.iter().map(|r| view(seated, r)).collect();
    let conflict = reports.len() > 1 && !agree(&reports[0], &reports[1]);
    let waiting_for = if reports.len() == 1 {
        let who = if reports[0].player == seated.a.id { &seated.b.name } else { &seated.a.name };
        Some(who.clone())
    } else {
        None
    };
    let words = match (&waiting_for, conflict) {
        (Some(w), _) => format!("reported by {}, waiting for {w}", views[0].player),
        (None, true) => format!(
            "in conflict: {} says {}, {} says {}",
            views[0].player, views[0].words, views[1].player, views[1].words
        ),
        (None, false) => format!("reported by {} and {}: a judge records it", views[0].player, views[1].player),
    };
    Ok(Some(WaitingReports {
        pairing: seated.pairing(),
        state: if conflict { "conflict" } else { "waiting" },
        waiting_for,
        words,
        reports: views,
    }))
}

/// The self-reports waiting in a round (default: the current one), by table.
pub fn round_reports(conn: &Connection, round: Option<u32>) -> Result<RoundReports> {
    let n = round_or_current(conn, round)?;
    Ok(RoundReports { round: n, tables: waiting_in(conn, n)? })
}

/// The tables of round `n` with waiting reports (none before round 1 is paired).
pub fn waiting_in(conn: &Connection, n: u32) -> Result<Vec<WaitingReports>> {
    let mut out = Vec::new();
    let mut seen: Vec<MatchId> = Vec::new();
    for r in self_reports::of_round(conn, n)? {
        if seen.contains(&r.match_id) {
            continue;
        }
        seen.push(r.match_id);
        let seated = Seated::load(conn, matches::get(conn, r.match_id)?)?;
        out.extend(waiting_at(conn, &seated)?);
    }
    Ok(out)
}

/// The reports waiting in the current round (none before round 1 is paired), for the live pages.
pub fn waiting_now(conn: &Connection) -> Result<Vec<WaitingReports>> {
    waiting_in(conn, round::current(conn)?)
}

/// The code's player and their seat at `table`, refused once the match has a result (a judge corrects that).
fn still_playing(tx: &Connection, holder: &Holder) -> Result<(Seated, crate::domain::result::Seat)> {
    let (seated, seat) = holder.seated(tx)?;
    if seated.m.outcome.is_some() {
        return Err(Error::refused(format!(
            "{} already has a result: {}; a judge corrects it if it is wrong",
            seated.label(),
            seated.describe_recorded()
        )));
    }
    Ok((seated, seat))
}

#[cfg(test)]
mod tests;
