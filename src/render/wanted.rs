//! What waits for a judge, as the judges' dashboard shows it first: the players' open calls and the results in
//! conflict (two different self-reports, or a result a player says is not what happened), each with its table,
//! its players and what is wanted; and the words each table's row of the dashboard's list is flagged with.

use crate::ops::table::device::calls::WaitingCall;
use crate::ops::table::device::self_report::WaitingReports;
use crate::ops::table::device::witness::FlagView;

/// One thing a judge is wanted for at a table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Wanted {
    /// The table.
    pub table: u32,
    /// The players, "Ana – Bo" (empty when only their names in `words` are known).
    pub players: String,
    /// What is wanted, in a judge's words: "Judge called", "Results in conflict".
    pub what: &'static str,
    /// The rest: "by Bo", "Ana says Ana won by concession; Bo says Bo won by life".
    pub words: String,
    /// For a call, when it was made (RFC 3339).
    pub since: Option<String>,
    /// For a call, how long it has waited, in seconds (the page counts on from `since`).
    pub waiting_seconds: i64,
}

/// What the dashboard shows first: the open calls, oldest first, and the results in conflict, by table.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct WaitingForJudge {
    /// The players' calls for a judge still open.
    pub calls: Vec<Wanted>,
    /// The results in conflict: the self-reports that differ, then the confirmed results disputed.
    pub conflicts: Vec<Wanted>,
}

/// A table's row flagged "judge called".
pub const CALLED: &str = "judge called";
/// A table's row flagged "results in conflict".
pub const CONFLICT: &str = "results in conflict";

impl WaitingForJudge {
    /// Gathers the open calls, the waiting self-reports in conflict and the disputed results of the round.
    pub fn of(calls: &[WaitingCall], reports: &[WaitingReports], flagged: &[FlagView]) -> WaitingForJudge {
        let mut out = WaitingForJudge::default();
        for c in calls {
            let p = &c.call.pairing;
            let finished = if c.finished { " (the table has its result)" } else { "" };
            out.calls.push(Wanted {
                table: p.table,
                players: format!("{} – {}", p.a, p.b),
                what: "Judge called",
                words: format!("by {}{finished}", c.call.caller),
                since: Some(c.call.since.clone()),
                waiting_seconds: c.waiting_seconds,
            });
        }
        for (r, words) in reports.iter().filter_map(|r| crate::ops::live::differ(r).map(|w| (r, w))) {
            out.conflicts.push(Wanted {
                table: r.pairing.table,
                players: format!("{} – {}", r.pairing.a, r.pairing.b),
                what: "Results in conflict",
                words,
                since: None,
                waiting_seconds: 0,
            });
        }
        for f in flagged.iter().filter(|f| f.disputed) {
            let prefix = format!("table {}: ", f.table);
            out.conflicts.push(Wanted {
                table: f.table,
                players: String::new(),
                what: "Results in conflict",
                words: f.words.strip_prefix(&prefix).unwrap_or(&f.words).to_string(),
                since: None,
                waiting_seconds: 0,
            });
        }
        out.conflicts.sort_by_key(|w| w.table);
        out
    }

    /// Whether nothing waits for a judge.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.conflicts.is_empty()
    }

    /// The words table `table`'s row is flagged with ("judge called", "results in conflict"), in that order.
    pub fn flags(&self, table: u32) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.calls.iter().any(|w| w.table == table) {
            out.push(CALLED);
        }
        if self.conflicts.iter().any(|w| w.table == table) {
            out.push(CONFLICT);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::table::Pairing;
    use crate::ops::table::device::calls::CallView;
    use crate::ops::table::device::self_report::ReportView;
    use crate::store::MatchId;
    use crate::store::matches::Outcome;

    fn pairing(table: u32, a: &str, b: &str) -> Pairing {
        Pairing { round: 2, table, match_id: MatchId(i64::from(table)), a: a.into(), b: b.into() }
    }

    fn report(player: &str, outcome: Outcome, winner: &str, words: &str) -> ReportView {
        ReportView {
            id: 1,
            player: player.into(),
            outcome,
            winner: Some(winner.into()),
            reason: "concession".into(),
            life: None,
            at: "2026-05-01T10:00:00.000Z".into(),
            words: words.into(),
        }
    }

    #[test]
    fn calls_and_conflicts_name_the_table_the_players_and_what_is_wanted() {
        let call = WaitingCall {
            call: CallView {
                id: 7,
                pairing: pairing(3, "Björn Lindqvist", "Priya Raghunathan"),
                caller: "Priya Raghunathan".into(),
                since: "2026-05-01T10:02:00.000Z".into(),
            },
            waiting_seconds: 95,
            finished: false,
        };
        let conflict = WaitingReports {
            pairing: pairing(5, "Ana", "Bo"),
            state: "conflict",
            waiting_for: None,
            words: "in conflict: Ana says Ana won by concession, Bo says Bo won by concession".into(),
            reports: vec![
                report("Ana", Outcome::A, "Ana", "Ana won by concession"),
                report("Bo", Outcome::B, "Bo", "Bo won by concession"),
            ],
        };
        let waiting = WaitingReports { state: "waiting", pairing: pairing(6, "Cy", "Di"), ..conflict.clone() };
        let disputed = FlagView {
            match_id: MatchId(1),
            table: 1,
            kind: "same-address".into(),
            reporter: "Ed".into(),
            confirmer: "Fa".into(),
            disputed: true,
            words: "table 1: Ed's report, confirmed by Fa from the reporter's network address; Fa says that's not \
                    what happened: in conflict, a judge decides"
                .into(),
        };
        let quiet = FlagView { disputed: false, table: 2, ..disputed.clone() };
        let w = WaitingForJudge::of(&[call], &[conflict, waiting], &[disputed, quiet]);
        assert_eq!(w.calls.len(), 1);
        assert_eq!(w.calls[0].table, 3);
        assert_eq!(w.calls[0].players, "Björn Lindqvist – Priya Raghunathan");
        assert_eq!((w.calls[0].what, w.calls[0].words.as_str()), ("Judge called", "by Priya Raghunathan"));
        assert_eq!(w.calls[0].since.as_deref(), Some("2026-05-01T10:02:00.000Z"));
        assert_eq!(w.calls[0].waiting_seconds, 95);
        let tables: Vec<u32> = w.conflicts.iter().map(|c| c.table).collect();
        assert_eq!(tables, [1, 5], "a waiting report is no conflict; a quiet flag neither");
        assert_eq!(w.conflicts[1].words, "Ana says Ana won by concession; Bo says Bo won by concession");
        assert!(w.conflicts[0].words.starts_with("Ed's report, confirmed by Fa"), "{}", w.conflicts[0].words);
        assert_eq!(w.flags(3), [CALLED]);
        assert_eq!(w.flags(5), [CONFLICT]);
        assert!(w.flags(6).is_empty() && w.flags(2).is_empty());
        assert!(!w.is_empty() && WaitingForJudge::of(&[], &[], &[]).is_empty());
    }
}
