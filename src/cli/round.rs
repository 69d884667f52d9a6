//! `round` verbs (the round clock: start, end, extend).

use clap::Subcommand;

/// Pair rounds and run their clock.
#[derive(Debug, Subcommand)]
pub enum RoundCmd {
    /// Start the current round's clock (now, or at --at).
    Start {
        /// When the round started (RFC 3339, or HH:MM today; default now).
        #[arg(long, value_name = "TIME")]
        at: Option<String>,
    },
    /// Close the current round's clock and list the tables still without a result.
    End {
        /// When the round ended (RFC 3339, or HH:MM today; default now).
        #[arg(long, value_name = "TIME")]
        at: Option<String>,
    },
    /// Give one table extra round time (a long judge call, a deck check); its final window moves with it.
    Extend {
        /// The table.
        table: u32,
        /// Extra minutes (more than 0; decimals allowed, e.g. 2.5).
        #[arg(allow_hyphen_values = true)]
        minutes: String,
        /// Why, for the record.
        #[arg(long, value_name = "TEXT")]
        reason: String,
    },
}
