//! A player's own page in words (`/me` of `mmjudge serve`): their bye, the report waiting for their word, their
//! own state (dropped, disqualified, a late entry), and what happens once time is called. The data comes from
//! `ops::live`; here it becomes sentences, each with the instant it names (pages show it as the phone's clock).

use crate::ops::live::{ByeView, PlayerSeat, PlayerState, WaitingReport};

/// What the tournament rules say happens at the end of time, in the site's words.
pub const TIME_CALLED: &str = "Time is called. The player whose turn it is finishes that turn; then the player \
                               with the higher life total wins, unless a player shows a complete lock (the judges \
                               decide what counts as one).";

/// A sentence and the instant it ends on, when it names one ("You dropped after round 2" and 14:02).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Line {
    /// The words, without the instant.
    pub text: String,
    /// The instant (RFC 3339), shown after the words as a time of day.
    pub at: Option<String>,
    /// The instant as the server's clock shows it (HH:MM), before the phone's script shows its own.
    pub hhmm: String,
}

impl Line {
    fn new(text: String, at: Option<String>) -> Line {
        let hhmm = at.as_deref().map(hhmm).unwrap_or_default();
        Line { text, at, hhmm }
    }
}

/// An instant as a time of day (the date too when not today), or the instant as given.
pub fn hhmm(at: &str) -> String {
    crate::time::unstamp(at).map(crate::time::confirm_time).unwrap_or_else(|_| at.to_string())
}

/// "Round 3: you have the bye: a win, 3 points".
pub fn bye(b: &ByeView) -> String {
    format!("Round {}: you have the bye: a {}, {} points", b.round, b.counts_as, b.points)
}

/// The player's own state in a sentence, for a page that would otherwise say only "you are not seated":
/// a drop (after which round, why, when), a disqualification, or a late entry not yet paired. None when the
/// state explains nothing about round `round`.
pub fn state(s: &PlayerState, round: u32) -> Option<Line> {
    let text = match s.kind {
        "dropped" => {
            let after = s.after_round.unwrap_or(0);
            let when = if after == 0 { "before round 1".to_string() } else { format!("after round {after}") };
            match s.reason.as_deref() {
                Some("no-show") => format!("You were dropped {when}: you did not come to your table in time"),
                Some("not-arrived") => format!("You were dropped {when}: you had not checked in when it was paired"),
                _ => format!("You dropped {when}"),
            }
        }
        "disqualified" => match s.after_round {
            Some(r) => format!("You were disqualified in round {r}"),
            None => "You were disqualified".to_string(),
        },
        "late" => match s.joined_round {
            Some(j) if j > round => format!("You entered late: you play from round {j}, not in round {round}"),
            _ => return None,
        },
        _ => return None,
    };
    Some(Line::new(text, s.at.clone()))
}

/// The report waiting at the player's table, in full: who reported, who won and how, the life totals by name,
/// and when. `seat` is the page's player's seat.
pub fn waiting(w: &WaitingReport, seat: &PlayerSeat) -> Line {
    let opponent = seat.opponent.clone().unwrap_or_default();
    let (a, b) = if seat.seat == Some("B") { (opponent, seat.name.clone()) } else { (seat.name.clone(), opponent) };
    Line::new(waiting_words(w, &a, &b), Some(w.at.clone()))
}

/// "Ana reported: Ana won by concession; life: Ana 7, Bo 0", seat A's player being `a` and seat B's `b`.
pub fn waiting_words(w: &WaitingReport, a: &str, b: &str) -> String {
    let outcome = match &w.winner {
        Some(winner) => format!("{winner} won by {}", reason_words(&w.reason)),
        None => format!("a draw ({})", reason_words(&w.reason)),
    };
    let life = match w.life {
        Some([la, lb]) => format!("; life: {a} {la}, {b} {lb}"),
        None => String::new(),
    };
    format!("{} reported: {outcome}{life}", w.by)
}

/// A reason's slug as words ("intentional-draw" as "intentional draw").
fn reason_words(slug: &str) -> String {
    slug.replace('-', " ")
}

/// "You finished 3rd of 18, with 7 points (2-1-1).", "You share 3rd of 18, ...", "You won the event, ...",
/// "You share first, ...": `shared` when another player has the same rank.
pub fn final_place(line: &crate::ops::standings::Line, of: usize, shared: bool) -> String {
    let points = crate::domain::words::count(line.points, "point");
    let place = match (line.rank, shared) {
        (1, false) => "You won the event".to_string(),
        (1, true) => "You share first place".to_string(),
        (r, false) => format!("You finished {} of {of}", crate::domain::penalty::ordinal(r)),
        (r, true) => format!("You share {} place of {of}", crate::domain::penalty::ordinal(r)),
    };
    format!("{place}, with {points} ({}).", line.record())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dropped(after: u32, reason: &str) -> PlayerState {
        PlayerState {
            kind: "dropped",
            after_round: Some(after),
            at: Some("2025-05-01T14:02:00.000Z".into()),
            reason: Some(reason.into()),
            joined_round: None,
        }
    }

    #[test]
    fn a_players_state_reads_as_a_sentence() {
        let text = |s: &PlayerState, r| state(s, r).map(|l| l.text);
        assert_eq!(text(&dropped(2, "judge"), 4).as_deref(), Some("You dropped after round 2"));
        assert_eq!(
            text(&dropped(0, "not-arrived"), 1).as_deref(),
            Some("You were dropped before round 1: you had not checked in when it was paired")
        );
        let dq = PlayerState { kind: "disqualified", after_round: Some(3), at: None, reason: None, joined_round: None };
        assert_eq!(text(&dq, 4).as_deref(), Some("You were disqualified in round 3"));
        let late = PlayerState { kind: "late", after_round: None, at: None, reason: None, joined_round: Some(3) };
        assert_eq!(text(&late, 2).as_deref(), Some("You entered late: you play from round 3, not in round 2"));
        assert_eq!(text(&late, 3), None);
        assert_eq!(
            bye(&ByeView { round: 3, player: "Ana".into(), counts_as: "win", points: 3 }),
            "Round 3: you have the bye: a win, 3 points"
        );
    }
}
