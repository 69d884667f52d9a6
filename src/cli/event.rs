//! `event` verbs.

use clap::Subcommand;

/// Create the event, show and change its settings.
#[derive(Debug, Subcommand)]
pub enum EventCmd {
    /// Create a new event in the database file.
    New {
        /// The event's name.
        name: String,
        /// Number of rounds.
        #[arg(value_parser = crate::cli::bounds::rounds, long, default_value_t = 5)]
        rounds: u32,
        /// Random seed (default: chosen now).
        #[arg(value_parser = crate::cli::bounds::seed, allow_hyphen_values = true, long)]
        seed: Option<u64>,
        /// Replace an existing event in that file (its data is lost).
        #[arg(long)]
        force: bool,
    },
    /// Show the event and its settings.
    Show,
    /// Change a setting (see `event show` for the keys).
    Set {
        /// The setting, e.g. round-minutes.
        key: String,
        /// The new value.
        #[arg(allow_hyphen_values = true)]
        value: String,
        /// Change a rule of play (binding, timing, challenge limit, allow-*) while a round is being played.
        #[arg(long)]
        force: bool,
    },
}
