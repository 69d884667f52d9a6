//! Pairing the next round and taking it back.

use crate::domain::movement::{MovementError, Placement, Proposal, place, propose};
use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::pairings::Carry;
use crate::ops::played::{Played, Setup, Tables, describe, list_numbers, name_players, swiss_words};
use crate::store::matches::{self, NewMatch, Outcome, ResultRecord};
use crate::store::{Actor, Change, LibraryId, PlayerId, Store, Touched, library, round};
use rusqlite::Connection;
use std::collections::HashMap;

/// `round pair [--allow]`.
#[derive(Debug, Clone, Copy, Default)]
pub struct PairInput {
    /// Pair even when a guarantee (no rematch, no library twice) cannot be kept.
    pub allow: bool,
}

/// A paired round (the `--json` document of `round pair`, beside `ok` and `summary`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Paired {
    /// The round.
    pub round: u32,
    /// The movement that paired it.
    pub movement: String,
    /// How many tables play.
    pub tables: usize,
    /// The players given a bye.
    pub byes: Vec<String>,
    /// Why this movement paired it.
    pub why: String,
    /// The movement's notes, players named.
    pub notes: Vec<String>,
    /// The guarantees broken with `allow`, in words.
    pub allowed: Vec<String>,
    /// Judge calls still open in the previous round, closed by this pairing (absent when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub closed_calls: usize,
    /// Players dropped as not arrived (not checked in) by `round pair --drop-absent` (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped_absent: Vec<String>,
    /// Libraries carried to another table for players who stay at one table (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub carry: Vec<Carry>,
    /// Players who stay at one table but move this round (two of them meet), in words (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Paired {
    /// "; carry 5A, 5B from table 5 to table 3; 3A, 3B from table 3 to table 5" (empty when nothing is carried).
    pub fn carry_words(&self) -> String {
        match crate::ops::pairings::carry_words(&self.carry) {
            words if words.is_empty() => words,
            words => format!("; {}: {words}", crate::ops::pairings::CARRY_RULE),
        }
    }

    /// "; Ana and Bo both stay at their tables and meet this round: ..." (empty when nobody who stays moves).
    pub fn moves_words(&self) -> String {
        self.moves.iter().map(|m| format!("; {m}")).collect()
    }

    /// "; closed 2 judge calls left open in round 1" (empty when none).
    pub fn closed_calls_words(&self) -> String {
        match self.closed_calls {
            0 => String::new(),
            n => format!(
                "; closed {} left open in round {}",
                crate::domain::words::count(n as i64, "judge call"),
                self.round.saturating_sub(1)
            ),
        }
    }
}

/// Pairs the next round by the event's movement, with the fixed libraries at their tables or the sealed
/// libraries with their players; byes are recorded as wins. Refuses while the current round has tables
/// without a result, when every round is paired, and (unless `allow`) when a guarantee would break.
pub fn pair_round(store: &mut Store, actor: &Actor, input: PairInput) -> Result<Paired> {
    pair_round_with(store, actor, input, false)
}

/// [`pair_round`]; with check-in on, round 1 is refused while a player in the event has not checked in (naming
/// them and the ways out), unless `drop_absent` (`round pair --drop-absent`): then those players are dropped
/// before round 1, as not arrived (`player undrop` takes it back), and the others are paired.
pub fn pair_round_with(store: &mut Store, actor: &Actor, input: PairInput, drop_absent: bool) -> Result<Paired> {
    let allow = input.allow;
    let at = crate::time::stamp(actor.at);
    store.write(actor, |tx| {
        let number = next_round(tx)?;
        let dropped_absent = absent_players(tx, number, drop_absent, &at)?;
        let setup = Setup::load(tx)?;
        let played = Played::load(tx, number - 1)?;
        let active = played.active_in(number);
        if active.len() < 2 {
            let what = format!("round {number} needs at least 2 active players, not {}", active.len());
            return Err(Refusal::refused(what).way_out(WayOut::AddMorePlayers).into());
        }
        let tables = Tables::seats(tx)?;
        crate::ops::library::seats_for(tx, active.len())?;
        let sealed = if setup.fixed { HashMap::new() } else { sealed_libraries(tx, &played, &active)? };
        let count = if setup.fixed { fixed_tables(&tables, active.len())? } else { 0 };
        let proposal = propose(&setup.situation(&played, &active, count, allow), &played.points)
            .map_err(|e| refusal(e, active.len()))?;
        let names = played.names();
        let broken: Vec<String> = proposal.violations.iter().map(|v| describe(v, &names)).collect();
        if !broken.is_empty() && !allow {
            let what = format!("round {number} cannot keep every guarantee: {}", first_few(&broken, 5));
            return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, WayOut::PairAnyway).into());
        }
        let placement = place(&proposal.round, &played.stays_among(&active));
        let ids = save(tx, number, &proposal, &placement, &played, &tables, &sealed, &at)?;
        if number == 1 {
            // Check-in is over: whoever plays round 1 has arrived.
            crate::store::player::check_in_the_rest(tx, &at)?;
        }
        let mut paired = report(number, &proposal, &played, broken);
        stay_notes(&mut paired, &placement, &played);
        // The libraries played away from their own table, as stored (sealed ones travel with their players).
        paired.carry = crate::ops::pairings::carried(tx, number)?;
        paired.closed_calls = crate::store::self_reports::close_open_of_round(tx, number - 1, &at, &actor.judge)?;
        paired.dropped_absent = dropped_absent;
        let byes = if paired.byes.is_empty() { String::new() } else { format!(", bye: {}", paired.byes.join(", ")) };
        let carry = paired.carry_words();
        let summary = format!(
            "paired round {number} ({}): {}{byes}{carry}{}{}{}",
            paired.movement,
            tables_word(paired.tables),
            paired.moves_words(),
            paired.closed_calls_words(),
            paired.dropped_absent_words()
        );
        Ok((paired, Change::about(summary, ids).touching(Touched::round(Topic::Round, number))))
    })
}

/// With check-in on, before round 1: refuses while players have not checked in, or (`drop`) drops them as not
/// arrived and returns their names. Refuses `drop` when there is no check-in to go by.
fn absent_players(tx: &Connection, number: u32, drop: bool, at: &str) -> Result<Vec<String>> {
    use crate::ops::players::check_in;
    if drop && number != 1 {
        let what = format!("those absent are dropped only when round 1 is paired; this is round {number}");
        return Err(Refusal::refused(what).way_out(WayOut::PairRound).into());
    }
    if drop && !check_in::is_on(tx)? {
        let what = "those absent are dropped by who has not checked in, and check-in is off";
        return Err(Refusal::refused(what)
            .way_out(WayOut::Either(vec![WayOut::PairRound, WayOut::ChangeSetting { key: "check-in".into() }]))
            .into());
    }
    let absent = check_in::absent(tx)?;
    if absent.is_empty() {
        return Ok(Vec::new());
    }
    let names: Vec<String> = absent.iter().map(|p| p.name.clone()).collect();
    if !drop {
        let who = crate::domain::words::count(absent.len() as i64, "player");
        let have = if absent.len() == 1 { "has" } else { "have" };
        let what = format!("round 1 cannot be paired: {who} {have} not checked in ({})", names_few(&names, 12));
        let one = if let [one] = names.as_slice() { Some(one.clone()) } else { None };
        let way = WayOut::Either(vec![
            WayOut::CheckIn { name: one },
            WayOut::PairPresent,
            WayOut::TurnOff { key: "check-in".into() },
        ]);
        return Err(Refusal::refused(what).way_out(way).into());
    }
    for p in &absent {
        crate::store::player::drop_not_arrived(tx, p.id)?;
        crate::store::player::set_dropped_at(tx, p.id, at)?;
    }
    Ok(names)
}

impl Paired {
    /// "; dropped as not arrived: Ana, Bo (`mmjudge player undrop NAME` takes it back)" (empty when none).
    pub fn dropped_absent_words(&self) -> String {
        if self.dropped_absent.is_empty() {
            return String::new();
        }
        format!(
            "; dropped as not arrived: {} (`mmjudge player undrop NAME` takes it back)",
            self.dropped_absent.join(", ")
        )
    }
}

impl Paired {
    /// [`Paired::dropped_absent_words`] in the web's words.
    pub fn dropped_absent_web_words(&self) -> String {
        if self.dropped_absent.is_empty() {
            return String::new();
        }
        format!(
            "; dropped as not arrived: {} (Undrop beside a name on the Players page takes it back)",
            self.dropped_absent.join(", ")
        )
    }
}

/// The first `max` names joined with ", ", then how many more.
fn names_few(names: &[String], max: usize) -> String {
    let more = names.len().saturating_sub(max);
    let shown = names[..names.len().min(max)].join(", ");
    if more > 0 { format!("{shown} and {more} more") } else { shown }
}

/// The first `max` items joined with "; ", then how many more.
fn first_few(items: &[String], max: usize) -> String {
    let more = items.len().saturating_sub(max);
    let shown = items[..items.len().min(max)].join("; ");
    if more > 0 { format!("{shown}; and {more} more") } else { shown }
}

/// The number of the round to pair, or why none can be paired now.
fn next_round(conn: &Connection) -> Result<u32> {
    let current = round::current(conn)?;
    let rounds = Setup::load(conn)?.rounds;
    if current >= rounds {
        let what = format!("all {} of the event are paired", crate::domain::words::count(rounds, "round"));
        let out = WayOut::RaiseRounds { to: current + 1 };
        return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
    }
    if current > 0 {
        let open = matches::open_tables(conn, current)?;
        if !open.is_empty() {
            // A round closed with `round end --force` is no longer played, but its open tables still need results.
            let state = match round::get(conn, current)?.and_then(|r| r.ended_at) {
                Some(ended) => format!("was closed at {} but", crate::ops::table::clocks::clock::when_text(&ended)),
                None => "is still being played:".to_string(),
            };
            let what = format!(
                "round {current} {state} table{} {} ha{} no result",
                if open.len() == 1 { "" } else { "s" },
                list_numbers(&open, 12),
                if open.len() == 1 { "s" } else { "ve" },
            );
            let table = if let [one] = open.as_slice() { Some(*one) } else { None };
            let out = WayOut::RecordOpen { table };
            return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
        }
    }
    Ok(current + 1)
}

/// Tables 1..=n with both libraries; refuses when none are built.
fn fixed_tables(tables: &Tables, players: usize) -> Result<u32> {
    if tables.count == 0 {
        let what = "no libraries are built, and fixed libraries are what players move between";
        return Err(Refusal::refused(what).way_out(WayOut::BuildOrSealed { tables: players.div_ceil(2) }).into());
    }
    Ok(tables.count)
}

/// Each active player's sealed library; refuses when some have none.
fn sealed_libraries(conn: &Connection, played: &Played, active: &[usize]) -> Result<HashMap<usize, LibraryId>> {
    let mut found = HashMap::new();
    let mut missing = Vec::new();
    for &i in active {
        match library::of_player(conn, played.players[i].id)? {
            Some(l) => {
                found.insert(i, l.id);
            }
            None => missing.push(played.players[i].name.as_str()),
        }
    }
    if !missing.is_empty() {
        let what = format!(
            "sealed libraries travel with their players, but {} ha{} none registered",
            missing.join(", "),
            if missing.len() == 1 { "s" } else { "ve" }
        );
        return Err(Refusal::refused(what)
            .way_out(WayOut::RegisterLibrary { whose: crate::error::Whose::Missing })
            .into());
    }
    Ok(found)
}

/// A movement refusal with the command that gets past it.
fn refusal(e: MovementError, players: usize) -> Error {
    let msg = e.to_string();
    let movement = |to: &str| WayOut::ChangeMovement { to: to.into() };
    use crate::error::Join;
    let (join, out) = match e {
        MovementError::TooManyRounds(_) => (Join::Colon, WayOut::PairAnywayOrSwiss),
        MovementError::SquareUnavailable(_) => (Join::Aside, movement("mitchell")),
        MovementError::HowellNeedsOddField { .. } => (Join::Aside, movement("auto")),
        MovementError::TooManyPlayers(_) | MovementError::NotEnoughTables { .. } => {
            (Join::Colon, WayOut::BuildLibraries { tables: Some(players.div_ceil(2)) })
        }
        _ => return Error::refused(msg),
    };
    Refusal::refused(msg).way_out_after(join, out).into()
}

/// Writes the round, its matches (each at the table it is played at, with the libraries the movement gave it)
/// and its byes (a bye is a win for seat A, reason "bye"); returns the players given a bye (the audit entry
/// concerns them).
#[allow(clippy::too_many_arguments)]
fn save(
    conn: &Connection,
    number: u32,
    p: &Proposal,
    placement: &Placement,
    played: &Played,
    tables: &Tables,
    sealed: &HashMap<usize, LibraryId>,
    at: &str,
) -> Result<Vec<PlayerId>> {
    round::insert(conn, number, p.kind.name(), at)?;
    let id = |i: usize| played.players[i].id;
    let mut ids = Vec::new();
    for placed in &placement.games {
        let g = placed.game;
        let (a_library, b_library) = if sealed.is_empty() {
            (tables.at.get(&(g.table, 'A')).copied(), tables.at.get(&(g.table, 'B')).copied())
        } else {
            (sealed.get(&g.a).copied(), sealed.get(&g.b).copied())
        };
        let table = Some(placed.at);
        let m = NewMatch { round: number, table, a: id(g.a), b: Some(id(g.b)), a_library, b_library };
        matches::insert(conn, &m)?;
    }
    for &b in &p.round.byes {
        let m = NewMatch { round: number, table: None, a: id(b), b: None, a_library: None, b_library: None };
        let match_id = matches::insert(conn, &m)?;
        let bye = ResultRecord { outcome: Outcome::A, reason: "bye", life: None, note: None, at };
        matches::set_result(conn, match_id, &bye)?;
        ids.push(id(b));
    }
    Ok(ids)
}

fn report(number: u32, p: &Proposal, played: &Played, allowed: Vec<String>) -> Paired {
    let names = played.names();
    let why = match (&p.planned, &p.swiss_because) {
        (Some(planned), _) => planned.reason.clone(),
        (None, Some(because)) => swiss_words(because, &names),
        (None, None) => String::new(),
    };
    Paired {
        round: number,
        closed_calls: 0,
        dropped_absent: Vec::new(),
        carry: Vec::new(),
        moves: Vec::new(),
        movement: p.kind.name().to_string(),
        tables: p.round.games.len(),
        byes: p.round.byes.iter().map(|&i| names[i].to_string()).collect(),
        why,
        notes: p.notes.iter().map(|n| name_players(n, &names)).collect(),
        allowed,
    }
}

/// Says which stationary players move this round (two of them meet).
fn stay_notes(paired: &mut Paired, placement: &Placement, played: &Played) {
    let names = played.names();
    let name = |i: usize| names.get(i).copied().unwrap_or("?");
    for t in &placement.together {
        paired.moves.push(format!(
            "{} and {} both stay at their tables and meet this round: their game is at table {} ({}'s), and {} \
             moves for this round",
            name(t.stays),
            name(t.moves),
            t.table,
            name(t.stays),
            name(t.moves)
        ));
    }
}

/// A round taken back.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Unpaired {
    /// The round.
    pub round: u32,
    /// Tables it had.
    pub tables: usize,
    /// Byes it had.
    pub byes: usize,
}

/// `round unpair`: takes back the current round while nothing is recorded in it (no result, note, ruling
/// or clock record).
pub fn unpair_round(store: &mut Store, actor: &Actor) -> Result<Unpaired> {
    store.write(actor, |tx| {
        let current = round::current(tx)?;
        if current == 0 {
            return Err(Error::refused("no round has been paired yet: there is nothing to take back"));
        }
        let all = matches::of_round(tx, current)?;
        let decided: Vec<u32> =
            all.iter().filter(|m| !m.is_bye() && m.outcome.is_some()).filter_map(|m| m.table).collect();
        if !decided.is_empty() {
            let what = format!(
                "round {current} already has results (table{} {}): a round with results cannot be taken back",
                if decided.len() == 1 { "" } else { "s" },
                list_numbers(&decided, 12)
            );
            let out = WayOut::FixResult { table: None };
            return Err(Refusal::refused(what).way_out_after(crate::error::Join::Semicolon, out).into());
        }
        let recorded = matches::tables_with_records(tx, current)?;
        if !recorded.is_empty() {
            return Err(Error::refused(format!(
                "round {current} already has notes, rulings or clock records at table{} {}: taking it back would \
                 lose them",
                if recorded.len() == 1 { "" } else { "s" },
                list_numbers(&recorded, 12)
            )));
        }
        round::delete(tx, current)?;
        let byes = all.iter().filter(|m| m.is_bye()).count();
        let unpaired = Unpaired { round: current, tables: all.len() - byes, byes };
        Ok((unpaired, Change::new(unpaired_words(&unpaired)).touching(Touched::round(Topic::Round, current))))
    })
}

/// "took back round 3: 4 tables and 1 bye" (the audit line and the command's answer).
pub fn unpaired_words(u: &Unpaired) -> String {
    format!(
        "took back round {}: {}{}",
        u.round,
        crate::domain::words::count(u.tables, "table"),
        if u.byes > 0 { format!(" and {} bye{}", u.byes, if u.byes == 1 { "" } else { "s" }) } else { String::new() }
    )
}

/// "1 table", "8 tables".
pub fn tables_word(n: usize) -> String {
    if n == 1 { "1 table".into() } else { format!("{n} tables") }
}
