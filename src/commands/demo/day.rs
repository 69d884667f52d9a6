//! The surprises of a real event day, as the demo meets them: deck inspection before every round, two players
//! who arrive after round 1 (each with the late entry's match loss), a table added when the field outgrows
//! the libraries, and a player who does not show in round 2 (the `no-show` result drops them).

use super::Demo;
use crate::domain::result::Reason;
use crate::error::Result;
use crate::ops::table::records::result::{ResultInput, record_result};
use crate::store::PlayerId;
use crate::store::matches::Match;
use crate::time::stamp;
use chrono::{DateTime, Duration, Utc};
use std::collections::HashMap;

/// Minutes of deck inspection before each round's clock.
pub const INSPECTION_MINUTES: u32 = 3;

/// The players who arrive after round 1.
const LATE: [&str; 2] = ["Nadia Okafor", "Kenji Watanabe"];

/// How many players arrive late (the pool is scaled for them and the table they may need).
pub const LATE_COUNT: usize = LATE.len();

/// `event set inspection-minutes 3`: every round starts with deck inspection.
pub fn inspection(demo: &mut Demo) -> Result<()> {
    let minutes = INSPECTION_MINUTES.to_string();
    let input = crate::ops::event::SetInput::new("inspection-minutes", &minutes, false)?;
    demo.act(&["event", "set", "inspection-minutes", &minutes], None, |s, a| crate::ops::event::set(s, a, input))?;
    Ok(())
}

/// After round 1 (at `at`): the late players are added (the late entry's match loss for round 1), and when the
/// field now needs more tables than have libraries, `library add-tables` builds the missing ones.
pub fn late_entries(demo: &mut Demo, at: DateTime<Utc>) -> Result<()> {
    demo.set_now(at);
    let rows: Vec<_> = LATE
        .iter()
        .map(|n| crate::ops::players::NewRow { name: (*n).to_string(), ext_id: None, email: None })
        .collect();
    let mut line = vec!["player", "add"];
    line.extend(LATE);
    let added = demo.act(&line, None, |s, a| crate::ops::players::add_players(s, a, &rows))?;
    println!("  {} arrive late: {}", LATE.join(" and "), added.joining.unwrap_or_default());
    let crate::ops::demo::Field { playing, tables } = crate::ops::demo::next_field(demo.store())?;
    let needed = playing / 2;
    if needed <= tables {
        return Ok(());
    }
    let more = u32::try_from(needed - tables).unwrap_or(1);
    let more_text = more.to_string();
    let input = crate::ops::library::tables::AddTablesInput { tables: more, seed: None, keep_unusable: false };
    let built = demo.act(&["library", "add-tables", &more_text], None, |s, a| {
        crate::ops::library::tables::add_tables(s, a, input)
    })?;
    println!(
        "  {playing} players need {needed} tables: `library add-tables {more}` builds table {}'s libraries from what is left in the pool",
        built.first_table
    );
    Ok(())
}

/// In round 2, the player in seat B at the last table (when there are two tables or more) does not come: after
/// ten minutes the judge records the `no-show` result, which drops them. True when it took this match.
pub fn no_show(
    demo: &mut Demo,
    m: &Match,
    games: &[Match],
    names: &HashMap<PlayerId, String>,
    start: DateTime<Utc>,
) -> Result<bool> {
    let last = games.iter().filter(|g| !g.is_bye()).filter_map(|g| g.table).max();
    let (Some(table), Some(b)) = (m.table, m.b) else { return Ok(false) };
    if m.round != 2 || last != Some(table) || table < 2 {
        return Ok(false);
    }
    let (Some(present), Some(absent)) = (names.get(&m.a).cloned(), names.get(&b).cloned()) else {
        return Ok(false);
    };
    let at = start + Duration::minutes(10);
    let (t, when) = (table.to_string(), stamp(at));
    let line = ["result", &t, &present, "--by", "no-show", "--at", &when];
    let input = ResultInput {
        table,
        round: None,
        winner: Some(present.clone()),
        reason: Reason::NoShow,
        life: None,
        note: None,
        at: Some(at),
        turn: None,
    };
    let out = demo.act(&line, Some(at), |s, a| record_result(s, a, input))?;
    let dropped =
        if out.dropped.is_some() { format!(" and {absent} is dropped from the pairings") } else { String::new() };
    println!("  table {table}: {absent} did not show: {present} wins by no-show{dropped}");
    Ok(true)
}
