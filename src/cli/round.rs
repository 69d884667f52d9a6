//! `round` verbs (pairing and the round clock) and the `pairings` listing.

use clap::Subcommand;
use std::path::PathBuf;

/// Pair the next round, take it back, exchange two players' seats, or run the round's clock.
#[derive(Debug, Subcommand)]
pub enum RoundCmd {
    /// Pair the next round: the event's movement (fixed plan or Swiss), every player at a table and seat.
    Pair {
        /// Pair even if a guarantee cannot be kept (a rematch, a library used twice, rounds past the plan).
        #[arg(long)]
        allow: bool,
        /// Round 1 with check-in on: pair the players who checked in, and drop those who have not (as not
        /// arrived; `player undrop NAME` takes it back).
        #[arg(long)]
        drop_absent: bool,
    },
    /// Take back the latest round (only while it has no results).
    Unpair,
    /// Exchange two players' seats in the current round (before play at either table: no result, note or clock
    /// record yet).
    Swap {
        /// One player (any unambiguous prefix).
        first: String,
        /// The other player.
        second: String,
    },
    /// Start the current round's clock (now, or at --at); with inspection-minutes, deck inspection first.
    Start {
        /// When the round started (RFC 3339, or HH:MM today; default now).
        #[arg(long, value_name = "TIME")]
        at: Option<String>,
        /// End deck inspection early: the round's clock starts now.
        #[arg(long, conflicts_with = "at")]
        now: bool,
    },
    /// Close the current round's clock (refused while tables have no result, unless --force).
    End {
        /// When the round ended (RFC 3339, or HH:MM today; default now).
        #[arg(long, value_name = "TIME")]
        at: Option<String>,
        /// Close it even though some tables have no result yet (they are listed).
        #[arg(long)]
        force: bool,
    },
    /// Undo a `round end`: the round's clock runs on as if it had never been closed.
    Reopen,
    /// Give one table extra round time (a long judge call, a deck check); its final window moves with it.
    /// `round extend void ID` takes a wrong extension back.
    Extend(ExtendCmd),
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
    #[arg(value_parser = crate::cli::bounds::round, long)]
    pub round: Option<u32>,
    /// Only this listing (default: both for people, by name in CSV).
    #[arg(long, value_enum)]
    pub by: Option<PairingsBy>,
    /// Also write both listings as printable pages (A4 or Letter, large type) to this HTML file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Replace FILE even if it exists and was not written by this command (never an SQLite file).
    #[arg(long, requires = "html")]
    pub force: bool,
    /// Write the wall sheet instead: every player by name in large type, one column (name, then table),
    /// split over as many pages as it takes.
    #[arg(long, requires = "html")]
    pub wall: bool,
    /// The wall sheet's order: by the name as written (`name`, the default) or by its last word (`last`).
    #[arg(long, value_enum, requires = "wall", value_name = "ORDER")]
    pub sort: Option<WallSort>,
}

/// The order of the wall sheet (`pairings --html FILE --wall --sort ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WallSort {
    /// By the name as written ("Ana Lima" under A).
    Name,
    /// By the name's last word ("Ana Lima" under L), then the whole name.
    Last,
}

/// `round extend TABLE MINUTES --reason TEXT`, or `round extend void ID`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, arg_required_else_help = true)]
pub struct ExtendCmd {
    /// `void`: void an extension given by mistake (its id is in `mmjudge time`).
    #[command(subcommand)]
    pub void: Option<super::corrections::VoidSub>,
    /// The extension to give.
    #[command(flatten)]
    pub grant: Option<ExtendArgs>,
}

/// `round extend TABLE MINUTES --reason TEXT`.
#[derive(Debug, clap::Args)]
pub struct ExtendArgs {
    /// The table.
    #[arg(value_parser = crate::cli::bounds::table)]
    pub table: u32,
    /// Extra minutes (more than 0; decimals allowed, e.g. 2.5).
    #[arg(allow_hyphen_values = true)]
    pub minutes: String,
    /// Why, for the record.
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
}
