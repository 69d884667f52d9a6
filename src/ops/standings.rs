//! Standings: Magic's tournament-rules standings after a round, from the recorded results; and the event's
//! results loaded once for the reports and the site.

use crate::domain::duplicate::{self, LibraryGame};
use crate::domain::standings::{self as rules, Entrant, MatchRecord, Standing};
use crate::error::{Error, Refusal, Result, WayOut};
use crate::store::library::Library;
use crate::store::matches::{self, Match, Outcome};
use crate::store::player::Player;
use crate::store::{LibraryId, PlayerId, event, library, player, round};
use rusqlite::Connection;
use serde::Serialize;
use std::collections::HashMap;

pub mod by_round;
mod end;
pub use end::{EventEnd, TOP, TopLine, event_end, event_end_if_likely, is_over, winner_words};

/// The standings after a round (the `--json` document of `standings`; the event's name and how far the
/// event has got are for the page around it, not in the document).
#[derive(Debug, Clone, Serialize)]
pub struct Standings {
    /// The event's name.
    #[serde(skip)]
    pub event: String,
    /// The standings are after this round (0 before any round is played).
    pub round: u32,
    /// Rounds paired so far (the last may still be playing).
    pub rounds_paired: u32,
    /// Whether wins above par is the first tiebreaker.
    pub tiebreak_par: bool,
    /// Best first: the players of this round (joined by it) with a match, a bye or a late entry's match loss
    /// up to it.
    pub standings: Vec<Line>,
    /// The players of this round with no match, bye or late entry's match loss up to it: not ranked.
    pub did_not_play: Vec<DidNotPlay>,
    /// The players who entered after this round (name, the round they joined): not in these standings, which
    /// never change; under `late-entry loss` their missed rounds count from the round they joined.
    #[serde(skip)]
    pub entered_later: Vec<(String, u32)>,
    /// Matches up to this round without a result (a result taken back after later rounds were paired): not
    /// counted until one is recorded.
    pub needs_result: Vec<NeedsResult>,
    /// These are the final standings: the round is the last planned, every result of the event is in and the
    /// round is no longer played (see [`is_over`]); raising the `rounds` setting makes them not final again.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// The final standings' winner: the names ranked first (two or more when rank 1 is shared); None until
    /// the standings are final.
    pub winner: Option<Vec<String>>,
    /// How far the event has got.
    #[serde(skip)]
    pub progress: Progress,
}

/// How far the event has got: rounds paired, rounds played to the end, and the round being played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Rounds paired.
    pub paired: u32,
    /// The last round with every result in (0 if none).
    pub played: u32,
    /// The round being played, when its results are not all in: (round, results in, tables).
    pub playing: Option<(u32, usize, usize)>,
}

/// `standings [--round N]`: the standings after round `round`, or after the last round with every result
/// in. Refuses a round not paired or not played to the end.
pub fn standings(conn: &Connection, round: Option<u32>) -> Result<Standings> {
    let results = Results::load_for_standings(conn)?;
    let event = event::values(conn)?.name().to_string();
    let round = match round {
        Some(n) => results.check_played(n)?,
        None => results.played,
    };
    let after = results.standings_of_round(round);
    let is_final = round == results.paired && is_over(conn, &results)?;
    let winner = is_final.then(|| end::winners(&after.lines));
    Ok(Standings {
        is_final,
        winner,
        event,
        round,
        rounds_paired: results.paired,
        tiebreak_par: results.tiebreak_par,
        standings: after.lines,
        did_not_play: after.did_not_play,
        entered_later: after.entered_later,
        needs_result: after.needs_result,
        progress: results.progress(),
    })
}

/// The standings after one round: its ranked lines, the players of the round who played nothing up to it, and
/// the matches up to it that need a result.
#[derive(Debug, Clone, Default)]
pub struct AfterRound {
    /// Best first.
    pub lines: Vec<Line>,
    /// Not ranked: nothing played up to the round.
    pub did_not_play: Vec<DidNotPlay>,
    /// Not counted: no result.
    pub needs_result: Vec<NeedsResult>,
    /// Entered after the round (name, the round they joined), in the order added.
    pub entered_later: Vec<(String, u32)>,
}

/// A player of the round with no match, bye or late entry's match loss up to it (not ranked).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DidNotPlay {
    /// The player's id.
    pub player_id: PlayerId,
    /// The player's name.
    pub name: String,
    /// Dropped at or before the round.
    pub dropped: bool,
}

/// A match up to the round without a result: a result taken back after later rounds were paired (a forced
/// void or `result clear`); the standings leave it out until a result is recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NeedsResult {
    /// Its round.
    pub round: u32,
    /// Its table.
    pub table: Option<u32>,
    /// Its players' names, seat A first.
    pub players: Vec<String>,
}

impl NeedsResult {
    /// "round 1, table 2 (Ana v Cy)".
    pub fn words(&self) -> String {
        let table = self.table.map(|t| format!(", table {t}")).unwrap_or_default();
        format!("round {}{table} ({})", self.round, self.players.join(" v "))
    }
}

/// One line of the standings, as printed and in JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Line {
    /// Rank; players equal on every tiebreaker share it.
    pub rank: u32,
    /// The player's id.
    pub player_id: PlayerId,
    /// The player's name.
    pub name: String,
    /// Matches won, byes included.
    pub wins: u32,
    /// Matches lost.
    pub losses: u32,
    /// Matches drawn.
    pub draws: u32,
    /// Byes (already in `wins`).
    pub byes: u32,
    /// Match losses for rounds missed by entering late (already in `losses`; event setting `late-entry`).
    pub late_losses: u32,
    /// Match points.
    pub points: u32,
    /// Match-win percentage (floored at 1/3), as a fraction of 1.
    pub mwp: f64,
    /// Opponents' match-win percentage.
    pub omwp: f64,
    /// Game-win percentage.
    pub gwp: f64,
    /// Opponents' game-win percentage.
    pub ogwp: f64,
    /// Wins above par, when the event breaks ties with it (`tiebreak-par on`).
    pub above_par: Option<f64>,
    /// Dropped at or before this round (still listed, still counted for opponents).
    pub dropped: bool,
}

impl Line {
    /// Wins-losses-draws, e.g. `3-1-0`.
    pub fn record(&self) -> String {
        format!("{}-{}-{}", self.wins, self.losses, self.draws)
    }

    /// "entered late: 2 match losses" for a late entrant with match losses, else empty.
    pub fn late_words(&self) -> String {
        match self.late_losses {
            0 => String::new(),
            1 => "entered late: 1 match loss".to_string(),
            n => format!("entered late: {n} match losses"),
        }
    }

    /// The status column: "dropped", and the match losses of a late entry ("entered late: 2 match losses").
    pub fn status(&self) -> String {
        let late = self.late_words();
        match (self.dropped, late.is_empty()) {
            (true, true) => "dropped".into(),
            (true, false) => format!("dropped; {late}"),
            (false, _) => late,
        }
    }
}

/// The event's players, matches and libraries, loaded once; standings and reports are computed from it.
pub struct Results {
    /// Every player, in the order they were added.
    pub players: Vec<Player>,
    /// Every match and bye, by round then table.
    pub matches: Vec<Match>,
    /// Rounds paired.
    pub paired: u32,
    /// The last round with every result in (0 if none): the last paired round, or the one before it while it
    /// is played. An earlier round's match without a result (taken back since) does not hold it back.
    pub played: u32,
    /// Whether wins above par breaks ties first (event setting `tiebreak-par`).
    pub tiebreak_par: bool,
    /// Whether a late entrant loses each round missed (event setting `late-entry loss`).
    pub late_losses: bool,
    /// Libraries by id.
    pub libraries: HashMap<LibraryId, Library>,
    /// (player id, index) by id: a binary search finds a player faster than a hashed map at every size.
    index: Vec<(PlayerId, usize)>,
}

impl Results {
    /// Loads everything the standings and reports need.
    pub fn load(conn: &Connection) -> Result<Results> {
        Results::load_all(conn, matches::all(conn)?)
    }

    /// Loads only what the standings read: the players without their contacts, the matches without life
    /// totals, remarks or result times, and (only when wins above par breaks ties) the libraries and each
    /// result's reason; without it, [`Results::libraries`] is empty and no match has a reason.
    pub fn load_for_standings(conn: &Connection) -> Result<Results> {
        let players = player::all_for_standings(conn)?;
        if event::values(conn)?.switch("tiebreak-par") {
            let libraries = library::all(conn)?.into_iter().map(|l| (l.id, l)).collect();
            Results::load_with(conn, players, matches::for_standings(conn, true)?, libraries)
        } else {
            Results::load_with(conn, players, matches::for_standings(conn, false)?, HashMap::new())
        }
    }

    fn load_all(conn: &Connection, matches: Vec<Match>) -> Result<Results> {
        let libraries = library::all(conn)?.into_iter().map(|l| (l.id, l)).collect();
        Results::load_with(conn, player::all(conn)?, matches, libraries)
    }

    fn load_with(
        conn: &Connection,
        players: Vec<Player>,
        matches: Vec<Match>,
        libraries: HashMap<LibraryId, Library>,
    ) -> Result<Results> {
        let paired = round::current(conn)?;
        let values = event::values(conn)?;
        let tiebreak_par = values.switch("tiebreak-par");
        let late_losses = values.text("late-entry") == "loss";
        let mut index: Vec<(PlayerId, usize)> = players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
        index.sort_unstable();
        // A round is paired only once the one before has every result in: a match of an earlier round without
        // one had its result taken back since (it needs a result; the rest of the standings stand).
        let played = if pending_in(&matches, paired).is_empty() { paired } else { paired.saturating_sub(1) };
        Ok(Results { players, matches, paired, played, tiebreak_par, late_losses, libraries, index })
    }

    /// `n` if standings can be computed after round `n`, else the refusal saying why not.
    pub fn check_played(&self, n: u32) -> Result<u32> {
        if n == 0 {
            return Err(Refusal::bad_input("rounds are numbered from 1")
                .way_out(WayOut::Example(crate::error::Example::Round))
                .into());
        }
        if n > self.paired {
            let now = match self.paired {
                0 => "no round has been paired yet".to_string(),
                p => format!("the last paired round is {p}"),
            };
            return Err(Error::not_found(format!("round {n} has not been played: {now}")));
        }
        if n > self.played {
            let first = self.played + 1;
            let pending = pending_in(&self.matches, first);
            let tables: Vec<String> = pending.iter().map(|t| t.to_string()).collect();
            let round = (first != self.paired).then_some(first);
            let what = format!(
                "round {n} has not been played to the end: round {first} has no result yet at table{} {}",
                if tables.len() == 1 { "" } else { "s" },
                tables.join(", "),
            );
            let one = if let [one] = pending.as_slice() { Some(*one) } else { None };
            let out = WayOut::RecordToPlay { table: one, round };
            return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
        }
        Ok(n)
    }

    /// How far the event has got.
    pub fn progress(&self) -> Progress {
        let playing = (self.paired > self.played).then(|| {
            let r = self.played + 1;
            let of_round: Vec<&Match> = self.matches.iter().filter(|m| m.round == r && !m.is_bye()).collect();
            let done = of_round.iter().filter(|m| m.outcome.is_some()).count();
            (r, done, of_round.len())
        });
        Progress { paired: self.paired, played: self.played, playing }
    }

    /// The standings after `round` (which must be played; see [`Results::check_played`]) as they stood after it
    /// (`standings`, the site's round pages): only the players in the event by then, so a late entrant appears
    /// from the round they joined at (with the match losses of the rounds they missed, under `late-entry loss`)
    /// and an earlier round's standings never change. A player of the round with nothing played up to it (no
    /// match, bye or late entry's match loss: dropped before playing, absent) is not ranked but listed apart.
    pub fn standings_of_round(&self, round: u32) -> AfterRound {
        let of_round = |p: &&Player| p.joined_round <= round;
        let mut played = vec![false; self.players.len()];
        let mut records: Vec<MatchRecord> = Vec::new();
        let mut needs_result = Vec::new();
        for m in self.matches.iter().filter(|m| m.round <= round) {
            for p in [Some(m.a), m.b].into_iter().flatten() {
                if let Some(i) = self.index_of(p) {
                    played[i] = true;
                }
            }
            match self.record(m, round) {
                Some(r) => records.push(r),
                None if m.outcome.is_none() => needs_result.push(self.needs_result(m)),
                None => {}
            }
        }
        for (a, p) in self.players.iter().enumerate().filter(|(_, p)| of_round(p)) {
            let lost = self.missed_rounds(p).filter(|&r| r <= round);
            let before = records.len();
            records.extend(lost.map(|r| MatchRecord { round: r, a, b: None, outcome: rules::Outcome::BWins }));
            played[a] |= records.len() > before;
        }
        // The rules need no names: each line takes its name from the player (one copy, not two).
        let entrants: Vec<Entrant> = self
            .players
            .iter()
            .enumerate()
            .filter(|(i, p)| of_round(p) && played[*i])
            .map(|(index, p)| Entrant {
                index,
                name: String::new(),
                dropped_after: p.dropped_after,
                disqualified: p.disqualified,
            })
            .collect();
        let did_not_play = self
            .players
            .iter()
            .enumerate()
            .filter(|(i, p)| of_round(p) && !played[*i] && !p.disqualified)
            .map(|(_, p)| DidNotPlay {
                player_id: p.id,
                name: p.name.clone(),
                dropped: p.dropped_after.is_some_and(|d| d <= round),
            })
            .collect();
        let par =
            self.tiebreak_par.then(|| duplicate::above_par_map(&duplicate::player_par(&self.library_games(round).0)));
        let lines = rules::standings(&entrants, &records, round, par.as_ref())
            .into_iter()
            .map(|s| self.line(s, par.as_ref()))
            .collect();
        let entered_later = self
            .players
            .iter()
            .filter(|p| round > 0 && p.joined_round > round && p.joined_round <= self.paired + 1 && !p.disqualified)
            .map(|p| (p.name.clone(), p.joined_round))
            .collect();
        AfterRound { lines, did_not_play, needs_result, entered_later }
    }

    fn needs_result(&self, m: &Match) -> NeedsResult {
        let name = |p: PlayerId| self.index_of(p).map_or_else(|| "?".to_string(), |i| self.players[i].name.clone());
        NeedsResult {
            round: m.round,
            table: m.table,
            players: [Some(m.a), m.b].into_iter().flatten().map(name).collect(),
        }
    }

    fn line(&self, s: Standing, par: Option<&HashMap<usize, f64>>) -> Line {
        Line {
            rank: s.rank,
            player_id: self.players[s.index].id,
            name: self.players[s.index].name.clone(),
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            byes: s.byes,
            late_losses: s.late_losses,
            points: s.points,
            mwp: s.mwp,
            omwp: s.omwp,
            gwp: s.gwp,
            ogwp: s.ogwp,
            above_par: par.map(|p| p.get(&s.index).copied().unwrap_or(0.0)),
            dropped: s.dropped,
        }
    }

    fn record(&self, m: &Match, round: u32) -> Option<MatchRecord> {
        if m.round > round {
            return None;
        }
        let a = self.index_of(m.a)?;
        let b = match m.b {
            None => return Some(MatchRecord { round: m.round, a, b: None, outcome: rules::Outcome::AWins }),
            Some(b) => self.index_of(b)?,
        };
        Some(MatchRecord { round: m.round, a, b: Some(b), outcome: outcome(m.outcome?) })
    }

    /// The rounds a player missed by entering late, each a match loss under `late-entry loss` (none under
    /// `late-entry none`): the paired rounds before the one they joined.
    pub fn missed_rounds(&self, p: &Player) -> std::ops::RangeInclusive<u32> {
        missed_rounds(p, self.paired, self.late_losses)
    }

    /// The player index used by the domain (position in [`Results::players`]).
    pub fn index_of(&self, p: PlayerId) -> Option<usize> {
        // Ids are usually 1, 2, 3, ... with no gap: the id's own place is tried before searching.
        let place = p.0.checked_sub(1).and_then(|i| usize::try_from(i).ok()).and_then(|i| self.index.get(i));
        if let Some(&(_, index)) = place.filter(|(id, _)| *id == p) {
            return Some(index);
        }
        let at = self.index.binary_search_by_key(&p, |&(id, _)| id).ok()?;
        Some(self.index[at].1)
    }

    /// The games up to `round` played with fixed libraries, as (table, seat) games, and how many decided
    /// games were left out because their libraries are not one table's seats A and B.
    pub fn library_games(&self, round: u32) -> (Vec<LibraryGame>, usize) {
        let mut games = Vec::new();
        let mut left_out = 0;
        for m in self.matches.iter().filter(|m| m.round <= round && !m.is_bye() && !not_a_game(m)) {
            let (Some(result), Some(b)) = (m.outcome, m.b) else { continue };
            match (self.fixed_seat(m.a_library), self.fixed_seat(m.b_library)) {
                (Some((ta, sa)), Some((tb, sb))) if ta == tb && sa != sb => {
                    let (Some(a), Some(b)) = (self.index_of(m.a), self.index_of(b)) else { continue };
                    let flipped = sa == "B";
                    games.push(LibraryGame {
                        round: m.round,
                        table: ta,
                        a_player: if flipped { b } else { a },
                        b_player: if flipped { a } else { b },
                        outcome: if flipped { outcome(result).flip() } else { outcome(result) },
                    });
                }
                _ => left_out += 1,
            }
        }
        (games, left_out)
    }

    /// The results up to `round` that are not games played, by reason (`bye`, `no-show`, `penalty`,
    /// `intentional-draw`): what the duplicate reports and wins above par leave out.
    pub fn not_games(&self, round: u32) -> std::collections::BTreeMap<String, usize> {
        let mut out = std::collections::BTreeMap::new();
        for m in self.matches.iter().filter(|m| m.round <= round && m.outcome.is_some()) {
            if m.is_bye() || not_a_game(m) {
                let reason = if m.is_bye() { "bye" } else { m.reason.as_deref().unwrap_or_default() };
                *out.entry(reason.to_string()).or_insert(0) += 1;
            }
        }
        out
    }

    fn fixed_seat(&self, lib: Option<LibraryId>) -> Option<(u32, &str)> {
        let lib = self.libraries.get(&lib?)?;
        Some((lib.table?, lib.seat.as_deref()?))
    }
}

/// Results that are not a game played to its end: no-shows, penalties (game and match losses, tardiness
/// among them) and intentional draws.
fn not_a_game(m: &Match) -> bool {
    use crate::domain::result::Reason;
    let not = [Reason::NoShow, Reason::Penalty, Reason::IntentionalDraw].map(Reason::slug);
    m.reason.as_deref().is_some_and(|r| not.contains(&r))
}

/// The rounds `p` missed by entering late, each a match loss when `late_losses` (the event's
/// `late-entry loss`): the rounds before the one they joined, up to `paired`.
pub fn missed_rounds(p: &Player, paired: u32, late_losses: bool) -> std::ops::RangeInclusive<u32> {
    let last = if late_losses { p.joined_round.saturating_sub(1).min(paired) } else { 0 };
    1..=last
}

/// Tables of round `r` still without a result.
fn pending_in(matches: &[Match], r: u32) -> Vec<u32> {
    matches.iter().filter(|m| m.round == r && !m.is_bye() && m.outcome.is_none()).filter_map(|m| m.table).collect()
}

/// A stored result as the rules see it.
pub fn outcome(o: Outcome) -> rules::Outcome {
    match o {
        Outcome::A => rules::Outcome::AWins,
        Outcome::B => rules::Outcome::BWins,
        Outcome::Draw => rules::Outcome::Draw,
    }
}

/// Flipping a result to the other seat's point of view.
trait Flip {
    fn flip(self) -> Self;
}

impl Flip for rules::Outcome {
    fn flip(self) -> Self {
        match self {
            rules::Outcome::AWins => rules::Outcome::BWins,
            rules::Outcome::BWins => rules::Outcome::AWins,
            rules::Outcome::Draw => rules::Outcome::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;

    #[test]
    fn standings_wait_for_every_result_of_a_round() -> Result<()> {
        let (store, _, _) = crate::store::memory_with_one_match()?;
        let before = standings(store.conn(), None)?;
        // Before round 1 nobody has played: nobody is ranked or listed.
        assert_eq!(
            (before.round, before.rounds_paired, before.standings.len(), before.did_not_play.len()),
            (0, 1, 0, 0)
        );
        assert_eq!(before.progress.playing, Some((1, 0, 1)));
        let refused = standings(store.conn(), Some(1)).map_err(|e| e.kind()).err();
        assert_eq!(refused, Some(Kind::Refused));
        assert_eq!(standings(store.conn(), Some(2)).map_err(|e| e.kind()).err(), Some(Kind::NotFound));
        assert_eq!(standings(store.conn(), Some(0)).map_err(|e| e.kind()).err(), Some(Kind::BadInput));
        Ok(())
    }
}
