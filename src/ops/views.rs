//! The read-only views a front end shows, each read from the store in one read transaction (every query of a
//! view sees the same moment of the event, even while another judge writes). The command line calls these
//! with its store; what each view holds is defined beside the operation it belongs to.

use crate::domain::settings::Values;
use crate::error::Result;
use crate::ops::cards::{CardView, Checked, CostClass, FindInput, Found, PrintedInput};
use crate::ops::event::PrintHead;
use crate::ops::library::sheets::LibrarySheet;
use crate::ops::library::show::{LibraryList, LibraryView};
use crate::ops::players::PlayerView;
use crate::ops::players::codes::PlayerCode;
use crate::ops::pool::edit::PoolList;
use crate::ops::table::RecordFilter;
use crate::ops::table::clocks::clock::ProjectorFigures;
use crate::ops::table::clocks::stall::StallList;
use crate::ops::table::records::challenge::{ChallengeList, WatchReport};
use crate::ops::table::records::evidence::EvidenceNote;
use crate::ops::table::records::penalty::PenaltyList;
use crate::ops::table::records::ruling::RulingList;
use crate::store::bans::Ban;
use crate::store::player::Player;
use crate::store::pool::Watched;
use crate::store::{PlayerId, Store};
use std::collections::HashMap;

/// `ban list`: every banned card.
pub fn bans(store: &Store) -> Result<Vec<Ban>> {
    store.read(crate::ops::event::bans)
}

/// `library list`: every library's shape.
pub fn libraries(store: &Store) -> Result<LibraryList> {
    store.read(crate::ops::library::show::list)
}

/// `library show`: one library's cards, found by its label or its player.
pub fn library(store: &Store, text: &str) -> Result<LibraryView> {
    store.read(|conn| crate::ops::library::show::show(conn, text))
}

/// `cards find`: cards by part of their name, or by words of their text.
pub fn find_cards(store: &Store, input: FindInput) -> Result<Found> {
    store.read(|conn| crate::ops::cards::find(conn, input))
}

/// `cards class`: the cards a printed cost may be declared as.
pub fn cost_class(store: &Store, input: &PrintedInput) -> Result<CostClass> {
    store.read(|conn| crate::ops::cards::cost_class(conn, input))
}

/// `cards check`: whether a card may be declared for a printed cost.
pub fn check_card(store: &Store, input: &PrintedInput, name: &str) -> Result<Checked> {
    store.read(|conn| crate::ops::cards::check(conn, input, name))
}

/// `cards show`: a card, as seen at a table in a round when given.
pub fn card(store: &Store, name: &str, table: Option<u32>, round: Option<u32>) -> Result<CardView> {
    store.read(|conn| crate::ops::cards::show_at(conn, name, table, round))
}

/// `challenges`: the challenges heard, filtered; with `evidence`, each challenge's cited notes (in the same
/// order).
pub fn challenges(
    store: &Store,
    filter: &RecordFilter,
    evidence: bool,
) -> Result<(ChallengeList, Vec<Vec<EvidenceNote>>)> {
    store.read(|conn| {
        let list = crate::ops::table::records::challenge::challenges(conn, filter)?;
        let mut cited = Vec::new();
        if evidence {
            for c in &list.challenges {
                cited.push(crate::ops::table::records::evidence::evidence_notes(conn, c.id)?);
            }
        }
        Ok((list, cited))
    })
}

/// `challenges --watch`: each player's challenges made, denied and lost.
pub fn challenge_watch(store: &Store) -> Result<WatchReport> {
    store.read(crate::ops::table::records::challenge::watch_report)
}

/// `penalties [--player P]`.
pub fn penalties(store: &Store, player: Option<&str>) -> Result<PenaltyList> {
    store.read(|conn| crate::ops::table::records::penalty::penalties(conn, player))
}

/// `rulings`, filtered.
pub fn rulings(store: &Store, filter: &RecordFilter) -> Result<RulingList> {
    store.read(|conn| crate::ops::table::records::ruling::rulings(conn, filter))
}

/// `stalls`, filtered.
pub fn stalls(store: &Store, filter: &RecordFilter) -> Result<StallList> {
    store.read(|conn| crate::ops::table::clocks::stall::stalls(conn, filter))
}

/// `player list`: every player.
pub fn players(store: &Store) -> Result<Vec<PlayerView>> {
    store.read(crate::ops::players::list)
}

/// The players as `player list` shows them, with check-in: whether it is on, and who round 1 still waits for
/// (none once round 1 is paired or with check-in off); in one read transaction.
pub fn players_at_check_in(store: &Store) -> Result<(Vec<PlayerView>, bool, Vec<Player>)> {
    store.read(|conn| {
        use crate::ops::players::check_in;
        Ok((crate::ops::players::list(conn)?, check_in::is_on(conn)?, check_in::absent(conn)?))
    })
}

/// A player by name (as typed: folded, unique prefix), or why none is meant.
pub fn player(store: &Store, query: &str) -> Result<Player> {
    store.read(|conn| crate::ops::player_names::find(conn, query))
}

/// `player codes`: every player's code, and the event's name for the printed slips.
pub fn codes(store: &Store) -> Result<(Vec<PlayerCode>, String)> {
    store.read(|conn| Ok((crate::ops::players::codes::codes(conn)?, crate::ops::players::codes::event_name(conn)?)))
}

/// `player code NAME`: one player's code.
pub fn code_of(store: &Store, query: &str) -> Result<PlayerCode> {
    store.read(|conn| crate::ops::players::codes::code_of(conn, query))
}

/// `pool list`: the pool's cards.
pub fn pool(store: &Store) -> Result<PoolList> {
    store.read(crate::ops::pool::edit::list)
}

/// `pool watch list`: the watched cards.
pub fn watched(store: &Store) -> Result<Vec<Watched>> {
    store.read(crate::ops::pool::watch::list)
}

/// `clock --html`: the current round, when its clock started, and the projector's figures (refused before
/// the round has started).
pub fn projector_clock(store: &Store) -> Result<(u32, chrono::DateTime<chrono::Utc>, ProjectorFigures)> {
    store.read(|conn| {
        let r = crate::ops::table::clocks::clock::current_round(conn)?;
        let started = crate::ops::table::clocks::clock::round_started(&r)?;
        Ok((r.number, started, crate::ops::table::clocks::clock::projector_figures(conn, r.number)?))
    })
}

/// What `library sheets` prints: every library's sheet, the event's settings, the line atop each printed
/// sheet, and every player's name by id.
pub struct DeckSheets {
    /// Every library's sheet.
    pub sheets: Vec<LibrarySheet>,
    /// The event's settings.
    pub values: Values,
    /// The line atop each printed sheet.
    pub head: PrintHead,
    /// Every player's name, by id.
    pub players: HashMap<PlayerId, String>,
}

/// `library sheets`: the libraries' sheets and what they are printed with.
pub fn deck_sheets(store: &Store) -> Result<DeckSheets> {
    store.read(|conn| {
        Ok(DeckSheets {
            sheets: crate::ops::library::sheets::library_sheets(conn)?,
            values: crate::store::event::values(conn)?,
            head: crate::ops::event::print_head(conn)?,
            players: crate::ops::player_names::names_by_id(conn)?,
        })
    })
}
