//! A match named by its table: finding it in the current round (or a given round), the two players seated
//! there, describing and recording its result; and, in three rooms, everything done at a table: [`records`]
//! (result, note, challenge, penalty, ruling, the note sheet, voids), [`clocks`] (the decision clock, its live
//! screen, decisions and stalls) and [`device`] (the players' own device: declarations and clock taps by code,
//! self-reports, judge calls). The round's own clock and `time` are beside [`crate::ops::round`].

pub mod clocks;
pub mod device;
pub mod records;

pub use records::view::{TableView, view};

use crate::domain::result::{Reason, Seat, Verdict};
use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::player_names;
use crate::ops::table::clocks::clock;
use crate::store::matches::{self, Match, Outcome, ResultRecord};
use crate::store::{MatchId, PlayerId, Touched, player, round};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// The round meant: `round` when given (it must be paired), else the current round (one must be paired).
pub fn round_or_current(conn: &Connection, round: Option<u32>) -> Result<u32> {
    let current = round::current(conn)?;
    match round {
        None if current == 0 => Err(Refusal::refused("no round is paired yet").way_out(WayOut::PairRoundOne).into()),
        None => Ok(current),
        Some(0) => Err(Error::bad_input("rounds are numbered from 1")),
        Some(n) if round::get(conn, n)?.is_none() => Err(Error::not_found(if current == 0 {
            format!("round {n} is not paired: no round is paired yet")
        } else {
            format!("round {n} is not paired: the rounds so far are 1-{current}")
        })),
        Some(n) => Ok(n),
    }
}

/// The match at `table` in `round` (default: the current round), or a refusal naming the tables there.
pub fn find_match(conn: &Connection, table: u32, round: Option<u32>) -> Result<Match> {
    let n = round_or_current(conn, round)?;
    if let Some(m) = matches::at_table(conn, n, table)? {
        return Ok(m);
    }
    Err(Error::not_found(match matches::table_span(conn, n)? {
        Some((lo, hi)) => format!("no match at table {table} in round {n} (tables are {lo}-{hi})"),
        None => format!("no match at table {table} in round {n}: that round has no tables"),
    }))
}

/// Which records a listing shows: those of the match at a table (in the current round unless `round`),
/// else those of a round (when given), and of a player (a name or its beginning).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordFilter {
    /// The table.
    pub table: Option<u32>,
    /// The round.
    pub round: Option<u32>,
    /// The player.
    pub player: Option<String>,
}

/// The match a filter names (with a table) and the round it names (without one).
pub fn filter_match(conn: &Connection, filter: &RecordFilter) -> Result<(Option<Seated>, Option<u32>)> {
    match filter.table {
        Some(t) => Ok((Some(Seated::at(conn, t, filter.round)?), None)),
        None => Ok((None, filter.round.map(|r| round_or_current(conn, Some(r))).transpose()?)),
    }
}

/// A match at a table with the two players seated there.
#[derive(Debug, Clone)]
pub struct Seated {
    /// The match.
    pub m: Match,
    /// The player at seat A.
    pub a: player::Player,
    /// The player at seat B.
    pub b: player::Player,
    /// The turn the game was on when time was called, when recorded.
    pub turn: Option<u32>,
}

/// A match as the round paired it: the round, the table, the match and the two players seated there. Every
/// outcome about one table's match (its result, its fix, its note sheet, the table at a glance, a judge call, the
/// self-reports waiting there) opens with it, flattened: `"round", "table", "match", "a", "b"`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Pairing {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The player at seat A.
    pub a: String,
    /// The player at seat B.
    pub b: String,
}

/// A match's recorded result as data (every field empty while the match is playing).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RecordedResult {
    /// Seat A won, seat B won, or a draw.
    pub outcome: Option<Outcome>,
    /// The winner's name.
    pub winner: Option<String>,
    /// Why the game ended (life, decking, time, penalty, ...).
    pub reason: Option<String>,
    /// Life totals (A, B).
    pub life: Option<[i64; 2]>,
    /// A judge's remark.
    pub note: Option<String>,
    /// When it was recorded (RFC 3339).
    pub at: Option<String>,
    /// The turn the game was on when time was called (only when recorded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
}

impl Seated {
    /// Loads the players of a match at a table (refuses a bye, which has no table).
    pub fn load(conn: &Connection, m: Match) -> Result<Seated> {
        let Some(b) = m.b else {
            return Err(Error::refused(format!("round {}: that is a bye, not a match at a table", m.round)));
        };
        let turn = matches::turn_of(conn, m.id)?;
        Ok(Seated { a: player::get(conn, m.a)?, b: player::get(conn, b)?, turn, m })
    }

    /// The match at `table` in `round` (default current) with its players.
    pub fn at(conn: &Connection, table: u32, round: Option<u32>) -> Result<Seated> {
        let m = find_match(conn, table, round)?;
        Seated::load(conn, m)
    }

    /// Refuses a moment given by the judge (`given`) more than 2 minutes ahead, before the event was
    /// created or before this match's round started; a moment not given (now) is not checked.
    pub fn not_before_start(&self, conn: &Connection, given: Option<DateTime<Utc>>) -> Result<()> {
        match given {
            None => Ok(()),
            Some(at) => clock::check_moment(conn, self.m.round, at),
        }
    }

    /// Refuses a result by a reason that says a game was played (see [`Reason::needs_play`]) at a moment before
    /// the round's clock started (not started at all, deck inspection, or a start set for later).
    pub fn played_by(&self, conn: &Connection, reason: Reason, at: DateTime<Utc>) -> Result<()> {
        // Time has its own, stricter rule: time must have been called at the table (result::time_called).
        if !reason.needs_play() || reason == Reason::Time {
            return Ok(());
        }
        let number = self.m.round;
        let started = round::get(conn, number)?.and_then(|r| r.started_at);
        let wait = match started.as_deref().map(crate::time::unstamp).transpose()? {
            None => format!("round {number}'s clock has not started"),
            Some(s) => match clock::before_round_clock(conn, number, at, s)? {
                Some(wait) => wait,
                None => return Ok(()),
            },
        };
        let why = format!(
            "table {}: a result by {} needs a game played, and {wait}; a concession, an intentional draw, a no-show \
             or a penalty may be recorded before",
            self.table(),
            reason.slug()
        );
        if started.is_none() {
            return Err(Refusal::refused(why)
                .way_out_after(crate::error::Join::Semicolon, WayOut::StartRound { named: true })
                .into());
        }
        Err(Error::refused(why))
    }

    /// The player at a seat.
    pub fn player(&self, seat: Seat) -> &player::Player {
        if seat == Seat::A { &self.a } else { &self.b }
    }

    /// The seat of a player, if seated here.
    pub fn seat_of(&self, id: PlayerId) -> Option<Seat> {
        if self.a.id == id {
            Some(Seat::A)
        } else if self.b.id == id {
            Some(Seat::B)
        } else {
            None
        }
    }

    /// "table 3 in round 2 (Ana vs Bo)".
    pub fn label(&self) -> String {
        format!("table {} in round {} ({} vs {})", self.table(), self.m.round, self.a.name, self.b.name)
    }

    /// `topic` at this table, for a write's change (see `store::Touched`).
    pub fn touched(&self, topic: Topic) -> Touched {
        Touched::of_match(topic, &self.m)
    }

    /// The match as paired: its round, table, id and players.
    pub fn pairing(&self) -> Pairing {
        Pairing {
            round: self.m.round,
            table: self.table(),
            match_id: self.m.id,
            a: self.a.name.clone(),
            b: self.b.name.clone(),
        }
    }

    /// The table number.
    pub fn table(&self) -> u32 {
        self.m.table.unwrap_or(0)
    }

    /// The player at this table a typed name means (`ops::player_names::find_at_table`): matched against
    /// the two players first; a name that only begins one of them but is exactly the name of a player at
    /// another table, a player elsewhere, or an unknown name is refused.
    pub fn resolve_player(&self, conn: &Connection, query: &str) -> Result<(Seat, &player::Player)> {
        let at = player_names::AtTable { round: self.m.round, table: self.table(), players: [&self.a, &self.b] };
        let seat = if player_names::find_at_table(conn, at, query)? == 0 { Seat::A } else { Seat::B };
        Ok((seat, self.player(seat)))
    }

    /// One line describing a recorded outcome: "Ana beat Bo by life (12 to 0 life)".
    pub fn describe(&self, outcome: Outcome, reason: &str, life: Option<(i64, i64)>) -> String {
        let (a, b) = (&self.a.name, &self.b.name);
        match outcome {
            Outcome::A => format!("{a} beat {b} by {reason}{}", life_words(life, false)),
            Outcome::B => format!("{b} beat {a} by {reason}{}", life_words(life, true)),
            Outcome::Draw => format!("{a} and {b} drew by {reason}{}", life_words(life, false)),
        }
    }

    /// The recorded result in words, or "still playing".
    pub fn describe_recorded(&self) -> String {
        let turn = self.turn.map(|t| format!(" on turn {t}")).unwrap_or_default();
        match (self.m.outcome, &self.m.reason) {
            (Some(o), Some(r)) => self.describe(o, r, self.m.life) + &turn,
            (Some(o), None) => self.describe(o, "?", self.m.life) + &turn,
            (None, _) => "still playing".into(),
        }
    }

    /// The recorded result as data.
    pub fn result(&self) -> RecordedResult {
        let winner = match self.m.outcome {
            Some(Outcome::A) => Some(self.a.name.clone()),
            Some(Outcome::B) => Some(self.b.name.clone()),
            _ => None,
        };
        RecordedResult {
            outcome: self.m.outcome,
            winner,
            reason: self.m.reason.clone(),
            life: self.m.life.map(|(a, b)| [a, b]),
            note: self.m.note.clone(),
            at: self.m.result_at.clone(),
            turn: self.turn,
        }
    }

    /// Records a result (overwriting any) and keeps `self.m` in step; a decision still running ends with it.
    pub fn record(&mut self, conn: &Connection, v: Verdict, reason: Reason, result: ResultText<'_>) -> Result<()> {
        let outcome = outcome_of(v);
        matches::set_result(
            conn,
            self.m.id,
            &ResultRecord { outcome, reason: reason.slug(), life: result.life, note: result.note, at: result.at },
        )?;
        self.m.outcome = Some(outcome);
        self.m.reason = Some(reason.slug().into());
        self.m.life = result.life;
        self.m.note = result.note.map(String::from);
        self.m.result_at = Some(result.at.into());
        if result.turn.is_some() || self.turn.is_some() {
            matches::set_turn(conn, self.m.id, result.turn)?;
            self.turn = result.turn;
        }
        // A recorded result settles the players' self-reports waiting at the match.
        crate::store::self_reports::settle(conn, self.m.id)?;
        // A finished game leaves no clock running: a decision in progress ends with the result.
        clock::stop_running_decision(conn, &self.m, crate::time::unstamp(result.at)?)?;
        Ok(())
    }

    /// Records that `loser` lost the match (to the other player) for `reason`.
    pub fn record_loss(&mut self, conn: &Connection, loser: Seat, reason: Reason, note: &str, at: &str) -> Result<()> {
        self.record(
            conn,
            Verdict::Won(loser.other()),
            reason,
            ResultText { life: None, note: Some(note), at, turn: None },
        )
    }
}

/// The parts of a result besides who won and why.
#[derive(Debug, Clone, Copy)]
pub struct ResultText<'a> {
    /// Life totals (A, B).
    pub life: Option<(i64, i64)>,
    /// A judge's remark.
    pub note: Option<&'a str>,
    /// When (RFC 3339).
    pub at: &'a str,
    /// The turn the game was on when time was called (`--by time --turn N`).
    pub turn: Option<u32>,
}

fn life_words(life: Option<(i64, i64)>, swap: bool) -> String {
    match life {
        Some((a, b)) if swap => format!(" ({b} to {a} life)"),
        Some((a, b)) => format!(" ({a} to {b} life)"),
        None => String::new(),
    }
}

/// The stored outcome for a verdict.
pub fn outcome_of(v: Verdict) -> Outcome {
    match v {
        Verdict::Won(Seat::A) => Outcome::A,
        Verdict::Won(Seat::B) => Outcome::B,
        Verdict::Draw => Outcome::Draw,
    }
}

/// The moment of a record: the one the judge gave, else the write's own.
pub fn moment(given: Option<DateTime<Utc>>, actor: &crate::store::Actor) -> String {
    crate::time::stamp(given.unwrap_or(actor.at))
}

/// A stored instant as local `HH:MM` for people (the text itself if unreadable).
pub fn hhmm(stamp: &str) -> String {
    crate::time::unstamp(stamp).map(crate::time::clock_time).unwrap_or_else(|_| stamp.to_string())
}

/// A stored instant for a confirmation: `HH:MM`, with the date first when it is not today.
pub fn confirm_hhmm(stamp: &str) -> String {
    crate::time::unstamp(stamp).map(crate::time::confirm_time).unwrap_or_else(|_| stamp.to_string())
}

/// Refuses empty or control-character text for a free-text field; returns it trimmed.
pub fn text_field<'a>(what: &str, text: &'a str) -> Result<&'a str> {
    flag_field(what, what, text)
}

/// [`text_field`] for a field the command line names by its flag (`--about (the point of contention)`) and the
/// web by its words (`what was challenged`).
pub fn flag_field<'a>(flag: &str, field: &str, text: &'a str) -> Result<&'a str> {
    let refusal = |words: &dyn Fn(&str) -> String| {
        let r = crate::error::Refusal::bad_input(words(field));
        if flag == field { r.into() } else { r.flags(words(flag)).into() }
    };
    let t = text.trim();
    if t.is_empty() {
        return Err(refusal(&|what| format!("{what} is empty: say it in words")));
    }
    // Bidirectional overrides and isolates too (they reorder what a page shows), as in names; records stored
    // before this check still display.
    if let Some(c) = crate::domain::text::first_control(t, true) {
        let name = crate::domain::text::control_name(c);
        return Err(refusal(&|what| format!("{what} contains a control character ({name}): type it again without it")));
    }
    if let Err(e) = crate::domain::bounds::text_length(field, t, crate::domain::bounds::MAX_TEXT_CHARS) {
        return Err(crate::error::Refusal::bad_input(e).into());
    }
    Ok(t)
}

#[cfg(test)]
mod tests;
