//! `round` verbs and the `pairings` listing.

use clap::Subcommand;
use std::path::PathBuf;

/// Pair the next round, take it back, or exchange two players' seats.
#[derive(Debug, Subcommand)]
pub enum RoundCmd {
    /// Pair the next round: the event's movement (fixed plan or Swiss), every player at a table and seat.
    Pair {
        /// Pair even if a guarantee cannot be kept (a rematch, a library used twice, rounds past the plan).
        #[arg(long)]
        allow: bool,
    },
    /// Take back the latest round (only while it has no results).
    Unpair,
    /// Exchange two players' seats in the current round (before their results).
    Swap {
        /// One player (any unambiguous prefix).
        first: String,
        /// The other player.
        second: String,
    },
}

/// Which listing `pairings` prints for people and in CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PairingsBy {
    /// By table: seat A and seat B with their libraries.
    Table,
    /// Alphabetically by player: table, seat, library, opponent, next round.
    Name,
}

/// `pairings` options.
#[derive(Debug, clap::Args)]
pub struct PairingsArgs {
    /// The round (default: the current round).
    #[arg(long)]
    pub round: Option<u32>,
    /// Only this listing (default: both for people, by name in CSV).
    #[arg(long, value_enum)]
    pub by: Option<PairingsBy>,
    /// Also write both listings as printable pages (A4 or Letter, large type) to this HTML file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}
